package static_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/graph"
	"ainbeditor/internal/testcorpus"
)

// The header of every node, long titles included, is as high in the browser
// (metrics.nodeHeight) as the server lays it out (graph.NodeHeight): for every node of the
// game files and for titles of every length, in ASCII, Japanese and beyond the BMP.
func TestNodeHeightsMatchGraph(t *testing.T) {
	var nodes []graph.Node
	for k := 0; k <= 100; k++ {
		nodes = append(nodes,
			graph.Node{Type: "UserDefined", Name: strings.Repeat("a", k), Properties: make([]graph.Property, k%3)},
			graph.Node{Type: "UserDefined", Name: strings.Repeat("ド", k)},
			graph.Node{Type: "UserDefined", Name: strings.Repeat("𝄞", k)})
	}
	nodes = append(nodes, graph.Node{Type: "Sequential", Name: strings.Repeat("x", 80)}, graph.Node{Type: "ModuleIF_Output_String"})
	paths := testcorpus.GameFiles(t, "ainb")
	for _, p := range paths[:min(len(paths), 120)] {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		d, err := graph.Parse(filepath.Base(p), data)
		if err != nil {
			continue
		}
		nodes = append(nodes, d.Nodes...)
	}
	type shape struct {
		Type       string `json:"type"`
		Name       string `json:"name"`
		Properties []int  `json:"properties"`
	}
	in := make([]shape, len(nodes))
	want := make([]float64, len(nodes))
	for i := range nodes {
		in[i] = shape{string(nodes[i].Type), nodes[i].Name, make([]int, len(nodes[i].Properties))}
		// Rows other than properties do not change with the title: properties stand for them.
		nodes[i].Inputs, nodes[i].Outputs, nodes[i].Children, nodes[i].Jumps, nodes[i].Attachments = nil, nil, nil, nil, nil
		want[i] = graph.NodeHeight(&nodes[i])
	}
	js, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "nodes.json")
	if err := os.WriteFile(file, js, 0o644); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`import { readFileSync } from "node:fs"; import("./metrics.js").then((m) => console.log(JSON.stringify(JSON.parse(readFileSync(%q, "utf8")).map((n) => m.nodeHeight(n)))))`, file)
	out, err := exec.Command(nodePath(t), "--input-type=module", "-e", script).CombinedOutput()
	if err != nil {
		t.Fatalf("metrics.js: %v\n%s", err, out)
	}
	var got []float64
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(want) {
		t.Fatalf("metrics.js said %d heights (%v), want %d", len(got), err, len(want))
	}
	tall := 0
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s %q: metrics.js %v, package graph %v", in[i].Type, in[i].Name, got[i], want[i])
		}
		if want[i] > graph.HeaderHeight+float64(len(in[i].Properties))*graph.RowHeight+graph.FooterHeight {
			tall++
		}
	}
	if tall < 100 {
		t.Errorf("only %d of %d nodes have a header of more than one line", tall, len(want))
	}
}

// A node whose title is longer than a header line shows it whole at zoom 1, over the header's
// lines, and the rows start below them; the canvas's tooltip has it too.
func TestLongTitleShownWhole(t *testing.T) {
	p := newBrowser(t)
	p.open(filepath.Join(testcorpus.GameDir(t, "ainb"), "TotK__Sandworm.action.InterruptDown.module.ainb__1ff089cf93.ainb"))
	const title = "ActorCommon.RequestCameraShakeWithASControllerRumbleEvent.module"
	id := eval[int](p, fmt.Sprintf(`ainbEditor.document().nodes.find((n) => n.name === %q).id`, title))
	p.run(fmt.Sprintf(`(() => { const n = `+nodeJS+`; ainbEditor.setView({x: n.x + 130, y: n.y + 30, zoom: 1}); })()`, id))
	p.waitFor(fmt.Sprintf(`ainbEditor.titleLines(%d) !== null`, id))
	lines := eval[[]string](p, fmt.Sprintf(`ainbEditor.titleLines(%d)`, id))
	if strings.Join(lines, "") != title || len(lines) != 3 {
		t.Errorf("the header shows %q, want %q whole on 3 lines", lines, title)
	}
	for _, l := range lines {
		if strings.HasSuffix(l, "…") {
			t.Errorf("a line is cut: %q", lines)
		}
	}
	// The first row's plug sits below the three lines of the header.
	if got := eval[float64](p, fmt.Sprintf(`import("/static/metrics.js").then((m) => m.rowY(`+nodeJS+`, 0) - (`+nodeJS+`).y)`, id, id)); got != graph.HeaderHeight+2*graph.TitleLine+graph.RowHeight/2 {
		t.Errorf("row 0 is %v below the node's top, want %v", got, graph.HeaderHeight+2*graph.TitleLine+graph.RowHeight/2)
	}
	at := p.screenOf(id, -1, "")
	p.hover(point{at.X, at.Y + 20})
	p.waitFor(fmt.Sprintf(`document.getElementById("graph").title === %q`, title+" #"+fmt.Sprint(id)))
}
