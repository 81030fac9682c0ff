package static_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"ainbeditor/internal/server"
	"ainbeditor/internal/testcorpus"
)

// geometryResult is what testdata/geometry.mjs found for one file.
type geometryResult struct {
	Name                                        string
	Nodes, Pasted, Duplicated                   int
	PasteOverlap, DuplicateOverlap, TidyOverlap string
	Tidied                                      bool
	TidyLabel                                   string
	Positions                                   []nodePlace
}

type nodePlace struct {
	ID     int     `json:"id"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Pinned bool    `json:"pinned"`
}

// sweepAspect is the shape of the canvas Tidy lays out for: the one the browser tests see
// (TestGeometryBrowserAgrees logs it), a 1400 x 900 window less the panels.
const sweepAspect = 1.126

// runGeometry runs testdata/geometry.mjs over files against the server at base.
func runGeometry(t *testing.T, base string, aspect float64, files []string, positions bool) []geometryResult {
	t.Helper()
	node := nodePath(t)
	tmp := t.TempDir()
	out := filepath.Join(tmp, "results.json")
	manifest, err := json.Marshal(map[string]any{"base": base, "aspect": aspect, "positions": positions, "files": files, "out": out})
	if err != nil {
		t.Fatal(err)
	}
	manifestPath := filepath.Join(tmp, "manifest.json")
	if err := os.WriteFile(manifestPath, manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if b, err := exec.CommandContext(ctx, node, filepath.Join("testdata", "geometry.mjs"), manifestPath).CombinedOutput(); err != nil {
		t.Fatalf("node testdata/geometry.mjs: %v\n%s", err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("the driver wrote no results: %v", err)
	}
	var res []geometryResult
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	if len(res) != len(files) {
		t.Fatalf("%d results for %d files", len(res), len(files))
	}
	return res
}

// checkGeometry fails t for what went wrong in one file's sweep.
func checkGeometry(t *testing.T, r geometryResult) {
	t.Helper()
	n := r.Nodes
	if r.Pasted != 2*n {
		t.Errorf("%s: %d nodes after pasting %d, want %d", r.Name, r.Pasted, n, 2*n)
	}
	if r.PasteOverlap != "" {
		t.Errorf("%s: after paste %s overlap", r.Name, r.PasteOverlap)
	}
	if r.Duplicated != 3*n {
		t.Errorf("%s: %d nodes after duplicating %d, want %d", r.Name, r.Duplicated, n, 3*n)
	}
	if r.DuplicateOverlap != "" {
		t.Errorf("%s: after duplicate %s overlap", r.Name, r.DuplicateOverlap)
	}
	if !r.Tidied || r.TidyLabel != "Tidy" {
		t.Errorf("%s: Tidy with two pinned nodes on top of each other moved nothing (changed %v, last edit %q): the editor says \"Already tidy\"", r.Name, r.Tidied, r.TidyLabel)
	}
	if r.TidyOverlap != "" {
		t.Errorf("%s: after Tidy %s overlap", r.Name, r.TidyOverlap)
	}
}

// Over every corpus file: select all, copy, paste (at the centre of the whole graph, where
// fit-all puts the view's centre), duplicate the pasted nodes; then pin two nodes on top of
// each other and Tidy. After each step no two nodes overlap, and Tidy moves something. The
// page's own modules do it under node against the real server (see testdata/geometry.mjs);
// TestGeometryBrowserAgrees checks that the page in Chromium ends where they do.
func TestNoOverlapAfterPasteDuplicateTidy(t *testing.T) {
	files := testcorpus.AINB(t)
	// Each file is one parse and one layout, within a minute: more than a user may.
	srv, _ := newTestServer(t, func(c *server.Config) { c.ConvertRate = 4 * len(files) })
	checked := 0
	for _, r := range runGeometry(t, srv.URL, sweepAspect, files, false) {
		if r.Nodes == 0 {
			continue
		}
		checked++
		checkGeometry(t, r)
	}
	t.Logf("%d of %d corpus files have nodes and were checked", checked, len(files))
	if checked < len(files)/2 {
		t.Errorf("only %d of %d corpus files have nodes", checked, len(files))
	}
}

// The browser, driven by its keys, ends the sweep of TestNoOverlapAfterPasteDuplicateTidy
// with every node exactly where the modules under node put it, on a few files of each
// version (the 7,130-node file is left to the sweep: the browser takes long over it).
func TestGeometryBrowserAgrees(t *testing.T) {
	files := []string{
		corpusFile(t, "synthetic/kitchen_sink_v407.ainb"),
		corpusFile(t, "random/random_s10_v404_n136.ainb"),
		corpusFile(t, "random/random_s15_v408_n389.ainb"),
	}
	p := newBrowser(t)
	// Each file is opened over the edited one before: discard without asking.
	p.run(`window.confirm = () => true`)
	aspect := eval[float64](p, `(() => { const c = document.getElementById("graph"); return c.clientWidth / c.clientHeight; })()`)
	var browser [][]nodePlace
	for _, path := range files {
		name := filepath.Base(path)
		p.open(path)
		p.run(`ainbEditor.fitAll()`)
		n := eval[int](p, `ainbEditor.document().nodes.length`)
		p.key("a", chromedp.ModifierCtrl)
		p.key("c", chromedp.ModifierCtrl)
		p.key("v", chromedp.ModifierCtrl)
		p.key("d", chromedp.ModifierCtrl)
		if got := eval[int](p, `ainbEditor.document().nodes.length`); got != 3*n {
			t.Fatalf("%s: %d nodes after pasting and duplicating %d, want %d", name, got, n, 3*n)
		}
		p.run(`(() => { const ns = ainbEditor.document().nodes; ns[0].pinned = true; ns[1].pinned = true; ns[1].x = ns[0].x + 10; ns[1].y = ns[0].y + 10; })()`)
		p.key("l")
		p.waitFor(`ainbEditor.history().undo.at(-1) === "Tidy" && !document.querySelector('[data-action="tidy"]').disabled`)
		if s := eval[string](p, `ainbEditor.status()`); strings.Contains(s, "Already tidy") {
			t.Errorf("%s: Tidy says %q with two pinned nodes on top of each other", name, s)
		}
		browser = append(browser, eval[[]nodePlace](p, `ainbEditor.document().nodes.map((n) => ({id: n.id, x: n.x, y: n.y, pinned: !!n.pinned}))`))
	}
	t.Logf("canvas aspect %.3f", aspect)
	for i, r := range runGeometry(t, p.srv.URL, aspect, files, true) {
		checkGeometry(t, r)
		got, want := browser[i], r.Positions
		if len(got) != len(want) {
			t.Errorf("%s: the browser has %d nodes, the modules under node %d", r.Name, len(got), len(want))
			continue
		}
		differ, first := 0, -1
		for k := range got {
			if got[k] != want[k] {
				if differ++; first < 0 {
					first = k
				}
			}
		}
		if differ > 0 {
			t.Errorf("%s: %d of %d nodes end elsewhere in the browser than under node; the first, %+v there, is %+v here", r.Name, differ, len(got), got[first], want[first])
		}
	}
}
