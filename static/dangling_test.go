package static_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ainbeditor/internal/ainb"
)

// A file with a child to no node (the games' 0x7FFF) and an input reading an output its
// source node lacks opens; each is drawn as a stub ending in a crossed ring (not a link to
// some node), listed in the problems panel as a warning that jumps to its node, and Save
// writes the file with both as they were stored.
func TestDanglingLinks(t *testing.T) {
	f := &ainb.File{Version: ainb.Version407, Filename: "Dangling", Category: "AI"}
	f.Commands = []ainb.Command{{Name: "Root", Root: 0, Secondary: -1}}
	f.Elements = make([]ainb.Element, 3)
	f.Elements[0].Type = ainb.Sequential
	f.Elements[0].Plugs.Set(ainb.PlugChild, []ainb.Plug{{Node: 1, Name: "a"}, {Node: ainb.NoNode, Name: "none"}})
	f.Elements[1].Name = "Reader"
	f.Elements[1].Inputs.Set(ainb.ParamFloat, []ainb.Input{{Name: "Speed", Source: ainb.Source{Node: 2, Output: 1}}})
	f.Elements[2].Name = "Producer"
	f.Elements[2].Outputs.Set(ainb.ParamFloat, []ainb.Output{{Name: "Out"}})
	want := []string{
		"Nodes[0].Plugs.Child[1].Node Index: 32767 names no node (3 nodes, 0x7FFF: the games' empty branch)",
		"Nodes[1].Parameters.Inputs.Float[0].Output Index: 1 names no output: node 2 has 1 Float outputs",
	}
	if got := fileWarnings(f); !slices.Equal(got, want) {
		t.Fatalf("the test file has warnings %q, want %q", got, want)
	}
	b, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "dangling.ainb")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}

	p := newBrowser(t)
	p.open(path)
	type warning struct {
		Node    int    `json:"node"`
		Path    string `json:"path"`
		Message string `json:"message"`
	}
	ws := eval[[]warning](p, `ainbEditor.warnings()`)
	wantWs := []warning{
		{0, "nodes[0].children[1].node", `child "none" leads to no node`},
		{1, "nodes[1].inputs[0].source.missingOutput", "input Speed reads float output 1 of #2 Producer, which has no such output"},
	}
	if !slices.Equal(ws, wantWs) {
		t.Fatalf("warnings %+v, want %+v", ws, wantWs)
	}
	if n := eval[int](p, `ainbEditor.problems().length`); n != 0 {
		t.Fatalf("%d errors, want none", n)
	}
	// The panel: both listed as warnings, the tab in the warning colour, not the error one.
	tab := eval[[]string](p, `(() => { const b = [...document.querySelectorAll(".tab")].find((x) => x.textContent.startsWith("Problems")); return [b.textContent, b.className]; })()`)
	if tab[0] != "Problems (2)" || !strings.Contains(tab[1], "warn") || strings.Contains(tab[1], "bad") {
		t.Fatalf("problems tab %q with class %q, want \"Problems (2)\", warn and not bad", tab[0], tab[1])
	}
	items := eval[[]string](p, `[...document.querySelectorAll(".problems li")].map((li) => li.className + "|" + li.textContent)`)
	wantItems := []string{
		`item warning|warning child "none" leads to no node#0 · nodes[0].children[1].node`,
		"item warning|warning input Speed reads float output 1 of #2 Producer, which has no such output#1 · nodes[1].inputs[0].source.missingOutput",
	}
	if !slices.Equal(items, wantItems) {
		t.Fatalf("problems panel lists\n%q\nwant\n%q", items, wantItems)
	}

	// The stubs: each ends, STUB_LENGTH (40) units off its plug, in a crossed ring whose
	// centre is the warning colour #f0a030; the canvas holds no link into Reader's input.
	p.run(`document.getElementById("graph").focus()`)
	frames := eval[int](p, `ainbEditor.frame().frames`)
	p.run(`ainbEditor.setView({x: 400, y: 150, zoom: 1})`)
	p.waitFor(fmt.Sprintf(`ainbEditor.frame().frames > %d`, frames)) // the view drawn anew
	pixel := func(node, row int, side string, dx float64) []int {
		return eval[[]int](p, fmt.Sprintf(`(() => {
			const at = ainbEditor.screenOf(%d, %d, %q), c = document.getElementById("graph"), r = c.getBoundingClientRect();
			const s = c.width / r.width, x = Math.round((at.x + %g - r.left) * s), y = Math.round((at.y - r.top) * s);
			return [...c.getContext("2d").getImageData(x, y, 1, 1).data];
		})()`, node, row, side, dx))
	}
	warm := func(c []int) bool { return abs(c[0]-0xf0) < 24 && abs(c[1]-0xa0) < 24 && abs(c[2]-0x30) < 24 }
	if c := pixel(0, 1, "out", 40); !warm(c) {
		t.Errorf("the child stub's ring centre is %v, want about #f0a030", c)
	}
	if c := pixel(1, 0, "in", -40); !warm(c) {
		t.Errorf("the input stub's ring centre is %v, want about #f0a030", c)
	}
	// Child "a" (row 0) is a real link, not a stub.
	if c := pixel(0, 0, "out", 40); warm(c) {
		t.Errorf("the real child's link is drawn in the warning colour %v", c)
	}
	p.screenshot("ainb-dangling-links")

	// A warning jumps to its node (warnings alone do not switch to the panel: open it).
	p.run(`[...document.querySelectorAll(".tab")].find((x) => x.textContent.startsWith("Problems")).click()`)
	p.do(chromedp.Click(chromedp.CSS(`.problems li:nth-child(2) .problem`)))
	if sel := eval[[]int](p, `ainbEditor.selection()`); !slices.Equal(sel, []int{1}) {
		t.Fatalf("clicking the second warning selected %v, want [1]", sel)
	}

	// Warnings do not block Save: the file comes back with both references as stored.
	// (The document is unedited, so Save leaves nothing to wait for in the page: wait for
	// the server to have built it.)
	before := p.app.buildCount()
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	for deadline := time.Now().Add(20 * time.Second); p.app.buildCount() == before; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("Save built nothing")
		}
	}
	saved, err := ainb.Read(p.app.lastBuild())
	if err != nil {
		t.Fatalf("the saved file does not read: %v", err)
	}
	if got := fileWarnings(saved); !slices.Equal(got, want) {
		t.Fatalf("saved file has warnings %q, want %q", got, want)
	}
	if out := p.app.lastBuild(); string(out) != string(b) {
		t.Errorf("the unedited file saved other bytes (%d vs %d)", len(out), len(b))
	}
}

func fileWarnings(f *ainb.File) []string {
	var out []string
	for _, w := range f.Warnings() {
		out = append(out, w.String())
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
