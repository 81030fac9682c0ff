package static_test

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"ainbeditor/internal/graph"
	"ainbeditor/internal/testcorpus"
)

const kitchenSink = "synthetic/kitchen_sink_v407.ainb"

// version writes the kitchen sink edited by edit as an .ainb file of that name in a temporary
// directory and returns its path.
func version(t *testing.T, name string, edit func(d *graph.Document)) string {
	t.Helper()
	data, err := os.ReadFile(corpusFile(t, kitchenSink))
	if err != nil {
		t.Fatal(err)
	}
	d, err := graph.Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	edit(d)
	out, err := d.Build()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// property is the property name of node id.
func property(t *testing.T, d *graph.Document, id int, name string) *graph.Property {
	t.Helper()
	for i := range d.Nodes[id].Properties {
		if p := &d.Nodes[id].Properties[i]; p.Name == name {
			return p
		}
	}
	t.Fatalf("node %d has no property %s", id, name)
	return nil
}

// setProperty sets the int property name of node id.
func setProperty(t *testing.T, d *graph.Document, id int, name string, v int64) {
	t.Helper()
	property(t, d, id, name).Value.Int = v
}

// edited is the working copy of the compare test: node 9's I7 set to 99, node 28 (the last
// child of node 0) removed, and a StateEnd node added, unlinked, which the file numbers 28.
func edited(t *testing.T) string {
	return version(t, "kitchen_sink_v407.ainb", func(d *graph.Document) {
		setProperty(t, d, 9, "I7", 99)
		d.Nodes[0].Children = d.Nodes[0].Children[:22]
		added := d.Nodes[27]
		added.GUID[15] ^= 0xff
		d.Nodes[28] = added
		d.Nodes[28].ID = 28
	})
}

// kitchenSinkDoc is the kitchen sink as read.
func kitchenSinkDoc(t *testing.T) *graph.Document {
	t.Helper()
	data, err := os.ReadFile(corpusFile(t, kitchenSink))
	if err != nil {
		t.Fatal(err)
	}
	d, err := graph.Parse("kitchen_sink_v407.ainb", data)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// helperNode is node 28 of the kitchen sink (Helper.module) as the document's JSON has it.
func helperNode(t *testing.T) []byte {
	t.Helper()
	return graph.AppendNode(nil, &kitchenSinkDoc(t).Nodes[28])
}

type compareState struct {
	Active  bool
	Other   string
	Rows    []string
	Current int
	Status  map[string]string
	Ghosts  []struct{ ID, X, Y float64 }
	Drawn   [][]any
	Merge   *struct {
		Conflicts []string
		Choices   []string
	}
	ShareID   string
	LastShare string
	Timings   map[string]float64
}

func (p *page) compareState() compareState {
	p.t.Helper()
	return eval[compareState](p, `ainbEditor.compare()`)
}

// The property I7 of node 9 in the page's document.
func (p *page) i7() float64 {
	p.t.Helper()
	return eval[float64](p, `ainbEditor.document().nodes.find((n) => n.id === 9).properties.find((q) => q.name === "I7").value`)
}

// TestCompareWith compares an edited working copy with the original file: the nodes marked
// in their colours (as the canvas drew them), the Changes panel's exact rows, N and P
// stepping through them, a change taken back as one edit that a refreshed diff no longer
// lists, its undo, the diff shared by link, and leaving.
func TestCompareWith(t *testing.T) {
	p := newBrowser(t)
	p.open(edited(t))
	original := eval[string](p, `JSON.stringify(ainbEditor.document())`)
	p.run(`document.querySelector("[data-action=compare]").click()`)
	p.upload("#compare-input", corpusFile(t, kitchenSink))
	p.waitFor(`ainbEditor.compare().rows.length > 0`)
	p.run(`ainbEditor.fitAll()`)
	p.waitFor(`ainbEditor.compare().drawn.length === 4`)

	s := p.compareState()
	wantRows := []string{
		`#0 Sequential · child 22: {"node":28,"name":"mod"} → (none)`,
		`#9 Task07 · property I7 / value: 1 → 99`,
		`#28 Helper.module · node only in the other file`,
		`#28 StateEnd · node only here`,
	}
	if !s.Active || s.Other != "kitchen_sink_v407.ainb" || !reflect.DeepEqual(s.Rows, wantRows) {
		t.Fatalf("compared with %q (active %v), rows %s, want %s", s.Other, s.Active, rowsJSON(s.Rows), rowsJSON(wantRows))
	}
	if got := eval[[]string](p, `[...document.querySelectorAll(".compare-row .compare-text")].map((e) => e.textContent)`); !reflect.DeepEqual(got, wantRows) {
		t.Errorf("the panel shows %s", rowsJSON(got))
	}
	if want := map[string]string{"0": "changed", "9": "changed", "28": "added"}; !reflect.DeepEqual(s.Status, want) {
		t.Errorf("status %v, want %v", s.Status, want)
	}
	if len(s.Ghosts) != 1 || s.Ghosts[0].ID != 28 {
		t.Errorf("ghosts %v, want node 28", s.Ghosts)
	}
	p.drewExactly("28 #3fb950 node", "0 #e3b341 node", "9 #e3b341 node", "28 #f85149 ghost")
	p.screenshot("ainb-compare")

	// N and P step through the changes: each node centred and selected; the ghost centred,
	// nothing selected.
	p.run(`document.getElementById("graph").focus()`)
	for k, want := range []struct {
		key     string
		current int
		sel     []int
	}{{"n", 0, []int{0}}, {"n", 1, []int{9}}, {"n", 2, []int{}}, {"n", 3, []int{28}}, {"n", 0, []int{0}}, {"p", 3, []int{28}}, {"p", 2, []int{}}} {
		p.key(want.key)
		p.waitFor(fmt.Sprintf(`ainbEditor.compare().current === %d`, want.current))
		if sel := eval[[]int](p, `ainbEditor.selection()`); !reflect.DeepEqual(sel, want.sel) {
			t.Errorf("step %d (%s): selection %v, want %v", k, want.key, sel, want.sel)
		}
		if len(want.sel) == 1 {
			p.centred(want.sel[0])
		}
	}
	p.screenshot("ainb-compare-ghost")
	// The ghost (the last step) is in the middle of the view, where the other file has it.
	if v, g := eval[viewState](p, `ainbEditor.view()`), p.compareState().Ghosts[0]; math.Abs(v.X-(g.X+graph.NodeWidth/2)) > 0.5 || v.Y < g.Y || v.Y > g.Y+400 {
		t.Errorf("view %+v, the ghost at %+v", v, g)
	}

	// Taking I7 back is one edit that sets exactly that value; the diff, asked again, no
	// longer lists it; the undo gives the working copy back exactly, and the row comes back.
	p.run(`document.querySelectorAll(".compare-row")[1].querySelector("[data-action=take-back]").click()`)
	p.waitFor(`ainbEditor.compare().rows.length === 3`)
	if h := eval[map[string][]string](p, `ainbEditor.history()`); !reflect.DeepEqual(h["undo"], []string{"Take back #9 Task07 · property I7 / value"}) {
		t.Errorf("history %v", h)
	}
	if !eval[bool](p, `(() => { const d = JSON.parse(`+jsString(original)+`);
	  d.nodes.find((n) => n.id === 9).properties.find((q) => q.name === "I7").value = 1;
	  return JSON.stringify(d) === JSON.stringify(ainbEditor.document()); })()`) {
		t.Errorf("after taking I7 back the document is not the working copy with I7 = 1: I7 = %v", p.i7())
	}
	if got := p.compareState().Rows; !reflect.DeepEqual(got, []string{wantRows[0], wantRows[2], wantRows[3]}) {
		t.Errorf("rows after taking back: %s", rowsJSON(got))
	}
	p.key("z", chromedp.ModifierCtrl)
	p.waitFor(`ainbEditor.compare().rows.length === 4`)
	if !eval[bool](p, `JSON.stringify(ainbEditor.document()) === `+jsString(original)) {
		t.Errorf("the undo did not give the working copy back exactly: I7 = %v", p.i7())
	}
	p.drewExactly("28 #3fb950 node", "0 #e3b341 node", "9 #e3b341 node", "28 #f85149 ghost")

	// The ghost taken back comes as node 29 (this file has a node 28): the diff asked again
	// pairs it with the other file's 28 (renumbered), so the child that led to it, taken
	// back next, leads to 29. Two edits, two undos back to the working copy exactly.
	p.run(`document.querySelectorAll(".compare-row")[2].querySelector("[data-action=take-back]").click()`)
	p.waitFor(`ainbEditor.compare().rows.length === 3`)
	if got := p.compareState().Rows; !reflect.DeepEqual(got, []string{wantRows[0], wantRows[1], wantRows[3]}) {
		t.Fatalf("rows after taking the ghost back: %s", rowsJSON(got))
	}
	if got, want := eval[string](p, `(() => { const n = structuredClone(ainbEditor.document().nodes.find((n) => n.id === 29)); n.id = 28; return JSON.stringify(n); })()`), string(helperNode(t)); got != want {
		t.Errorf("the ghost came back as %s, want %s (with id 29)", got, want)
	}
	p.run(`document.querySelectorAll(".compare-row")[0].querySelector("[data-action=take-back]").click()`)
	p.waitFor(`ainbEditor.compare().rows.length === 2`)
	if got := eval[string](p, `JSON.stringify(ainbEditor.document().nodes[0].children.at(-1))`); got != `{"node":29,"name":"mod"}` {
		t.Errorf("the child taken back is %s", got)
	}
	if h := eval[map[string][]string](p, `ainbEditor.history()`); !reflect.DeepEqual(h["undo"], []string{"Take back #28 Helper.module · node only in the other file", "Take back #0 Sequential · child 22"}) {
		t.Errorf("history %v", h["undo"])
	}
	p.key("z", chromedp.ModifierCtrl)
	p.key("z", chromedp.ModifierCtrl)
	p.waitFor(`ainbEditor.compare().rows.length === 4 && ainbEditor.history().undo.length === 0`)
	if !eval[bool](p, `JSON.stringify(ainbEditor.document()) === `+jsString(original)) {
		t.Error("two undos did not give the working copy back exactly")
	}

	// Shared: the link opens the working copy compared with the other version.
	link := eval[string](p, `document.querySelector("[data-action=compare-share]").click(), new Promise((r) => { const t = setInterval(() => { const l = ainbEditor.compare().lastShare; if (l) { clearInterval(t); r(l); } }, 20); })`)
	if !regexp.MustCompile(`/s/[^#]+#compare=[\w-]+$`).MatchString(link) {
		t.Fatalf("diff link %q", link)
	}
	u, _ := url.Parse(link)
	q := p.newTab(u.Path + "#" + u.Fragment)
	q.waitFor(`ainbEditor.loads() > 0 && ainbEditor.compare().rows.length === 4`)
	if got := q.compareState(); !reflect.DeepEqual(got.Rows, wantRows) || got.ShareID == "" {
		t.Errorf("the diff link shows %s (share %q)", rowsJSON(got.Rows), got.ShareID)
	}
	// The embed shows the diff too, read-only: taking a change back is refused, saying so.
	e := p.newTab("/e/" + u.Path[len("/s/"):] + "#" + u.Fragment)
	e.waitFor(`ainbEditor.loads() > 0 && ainbEditor.compare().rows.length === 4`)
	e.run(`document.querySelectorAll(".compare-row")[1].querySelector("[data-action=take-back]").click()`)
	if s := eval[string](e, `ainbEditor.status()`); s != "This page is read-only: open the share in the editor to take changes back" || eval[int](e, `ainbEditor.history().undo.length`) != 0 {
		t.Errorf("take back on the embed: status %q", s)
	}

	// The fragment typed on a page with the file open compares too, and stays in the
	// fragment the view writes.
	shareID := u.Fragment[len("compare="):]
	p.run(`document.querySelector("[data-action=compare-leave]").click()`)
	p.run(fmt.Sprintf(`location.hash = "#compare=%s"`, shareID))
	p.waitFor(`ainbEditor.compare().active && ainbEditor.compare().rows.length === 4`)
	p.key("n")
	p.waitFor(fmt.Sprintf(`location.hash.includes("compare=%s")`, shareID))

	// A folder: its file of this file's name is compared; a folder without one is refused,
	// saying so, and the comparison shown stays.
	p.run(`document.querySelector("[data-action=compare-leave]").click()`)
	// A folder of copies of these corpus files.
	folder := func(files ...string) string {
		dir := t.TempDir()
		for _, f := range files {
			b, err := os.ReadFile(corpusFile(t, f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	p.upload("#compare-folder", folder("synthetic/attachments_v407.ainb", kitchenSink))
	p.waitFor(`ainbEditor.compare().active && ainbEditor.compare().rows.length === 4`)
	if got := p.compareState(); !reflect.DeepEqual(got.Rows, wantRows) || got.Other != "kitchen_sink_v407.ainb" {
		t.Errorf("compared with folder's %q: rows %s", got.Other, rowsJSON(got.Rows))
	}
	p.upload("#compare-folder", folder("synthetic/attachments_v407.ainb"))
	p.waitFor(`document.querySelectorAll(".toast.error").length > 0`)
	if got := p.toasts(); !slices.Contains(got, "error: Could not compare: the folder has no file kitchen_sink_v407.ainb") {
		t.Errorf("toasts %q", got)
	}
	if got := p.compareState(); !got.Active || !reflect.DeepEqual(got.Rows, wantRows) {
		t.Errorf("a refused folder left compare mode %v with rows %s", got.Active, rowsJSON(got.Rows))
	}

	// Leaving restores the normal view: no marks drawn, the panel hidden.
	p.run(`document.querySelector("[data-action=compare-leave]").click()`)
	p.waitFor(`!ainbEditor.compare().active`)
	p.run(`ainbEditor.fitAll()`)
	p.waitFor(`ainbEditor.compare().drawn.length === 0`)
	if !eval[bool](p, `document.querySelector("section.compare").hidden`) {
		t.Error("the Changes panel still shows")
	}
}

// drewExactly fails unless the last frame drew exactly these compare marks ("id colour
// kind"), waiting for a frame to draw them.
func (p *page) drewExactly(want ...string) {
	p.t.Helper()
	p.run(`ainbEditor.fitAll()`)
	p.waitFor(fmt.Sprintf(`ainbEditor.compare().drawn.length === %d`, len(want)))
	var got []string
	for _, d := range p.compareState().Drawn {
		got = append(got, fmt.Sprintf("%v %v %v", d...))
	}
	if !reflect.DeepEqual(got, want) {
		p.t.Errorf("the frame drew %q, want %q", got, want)
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// rowsJSON is for failure messages.
func rowsJSON(rows []string) string {
	b, _ := json.MarshalIndent(rows, "", "  ")
	return string(b)
}

// mergeConflicts merges theirs into the working copy against the kitchen sink and returns
// the state once conflicts are listed.
func (p *page) mergeConflicts(theirs string) compareState {
	p.t.Helper()
	p.run(`document.querySelector("[data-action=merge]").click()`)
	p.upload("#merge-base-input", corpusFile(p.t, kitchenSink))
	p.upload("#merge-theirs-input", theirs)
	p.waitFor(`!document.querySelector("[data-action=merge-run]").disabled`)
	p.run(`document.querySelector("[data-action=merge-run]").click()`)
	p.waitFor(`(ainbEditor.compare().merge || {conflicts: []}).conflicts.length > 0`)
	return p.compareState()
}

// TestMerge merges another version into the working copy against the original: the edit
// only theirs made combines, the two conflicts are listed with their three values and
// settled one each way, twice (each choice the other way round the second time); the merged
// document is exactly the working copy with theirs' edit and the chosen values, one edit
// that Ctrl+Z takes back exactly.
func TestMerge(t *testing.T) {
	p := newBrowser(t)
	p.open(version(t, "kitchen_sink_v407.ainb", func(d *graph.Document) {
		setProperty(t, d, 9, "I7", 99)
		setProperty(t, d, 12, "I10", 55)
	}))
	ours := eval[string](p, `JSON.stringify(ainbEditor.document())`)
	theirs := version(t, "theirs.ainb", func(d *graph.Document) {
		setProperty(t, d, 9, "I7", 77)
		setProperty(t, d, 12, "I10", 66)
		setProperty(t, d, 3, "I1", -1)
	})
	for round, choice := range [][2]string{{"ours", "theirs"}, {"theirs", "ours"}} {
		s := p.mergeConflicts(theirs)
		want := []string{
			`#9 Task07 · property I7: value: base 1, ours 99, theirs 77`,
			`#12 Task10 · property I10: value: base 10, ours 55, theirs 66`,
		}
		if !reflect.DeepEqual(s.Merge.Conflicts, want) {
			t.Fatalf("conflicts %s, want %s", rowsJSON(s.Merge.Conflicts), rowsJSON(want))
		}
		if !eval[bool](p, `document.querySelector("[data-action=merge-apply]").disabled`) {
			t.Error("the merge could be applied with no conflict settled")
		}
		if round == 0 {
			// An edit of the working copy makes the conflicts listed stale: they go, and
			// merging again lists them anew.
			p.run(`location.hash = "#node=27"`)
			p.waitFor(`ainbEditor.selection()[0] === 27`)
			p.key("d", chromedp.ModifierCtrl)
			p.waitFor(`ainbEditor.compare().merge.conflicts.length === 0`)
			if got := eval[string](p, `document.querySelector(".merge .hint").textContent`); got != "The file changed since the merge: merge again." {
				t.Errorf("after an edit the Merge panel says %q", got)
			}
			p.key("z", chromedp.ModifierCtrl)
			p.waitFor(`ainbEditor.history().undo.length === 0`)
			p.run(`document.querySelector("[data-action=merge-run]").click()`)
			p.waitFor(`ainbEditor.compare().merge.conflicts.length === 2`)
		}
		for k, side := range choice {
			p.run(fmt.Sprintf(`document.querySelectorAll(".merge-row")[%d].querySelector("[data-choice=%s]").click()`, k, side))
		}
		p.waitFor(`!document.querySelector("[data-action=merge-apply]").disabled`)
		p.run(`document.querySelector("[data-action=merge-apply]").click()`)
		p.waitFor(`ainbEditor.history().undo.length === 1`)
		if h := eval[map[string][]string](p, `ainbEditor.history()`); !reflect.DeepEqual(h["undo"], []string{"Merge theirs.ainb"}) {
			t.Errorf("history %v", h)
		}
		value := func(side string, ours, theirs int) int {
			if side == "ours" {
				return ours
			}
			return theirs
		}
		i7, i10 := value(choice[0], 99, 77), value(choice[1], 55, 66)
		if !eval[bool](p, fmt.Sprintf(`(() => { const d = JSON.parse(%s);
		  const set = (id, name, v) => { d.nodes.find((n) => n.id === id).properties.find((q) => q.name === name).value = v; };
		  set(9, "I7", %d); set(12, "I10", %d); set(3, "I1", -1);
		  return JSON.stringify(d) === JSON.stringify(ainbEditor.document()); })()`, jsString(ours), i7, i10)) {
			t.Errorf("round %d (%v): the merged document is not ours with I7 %d, I10 %d and I1 -1: %s", round, choice, i7, i10,
				eval[string](p, `JSON.stringify([9, 12, 3].map((id) => ainbEditor.document().nodes.find((n) => n.id === id).properties.slice(0, 1)))`))
		}
		p.key("z", chromedp.ModifierCtrl)
		p.waitFor(`ainbEditor.history().undo.length === 0`)
		if !eval[bool](p, `JSON.stringify(ainbEditor.document()) === `+jsString(ours)) {
			t.Errorf("round %d: the undo did not give the working copy back exactly", round)
		}
	}

	// Without conflicts the merge is the edit at once.
	clean := version(t, "clean.ainb", func(d *graph.Document) { setProperty(t, d, 3, "I1", -1) })
	p.run(`document.querySelector("[data-action=merge]").click()`)
	p.upload("#merge-base-input", corpusFile(t, kitchenSink))
	p.upload("#merge-theirs-input", clean)
	p.waitFor(`document.querySelector(".merge").textContent.includes("clean.ainb") && !document.querySelector("[data-action=merge-run]").disabled`)
	p.run(`document.querySelector("[data-action=merge-run]").click()`)
	p.waitFor(`ainbEditor.history().undo.length === 1`)
	if h := eval[map[string][]string](p, `ainbEditor.history()`); !reflect.DeepEqual(h["undo"], []string{"Merge clean.ainb"}) {
		t.Errorf("history %v", h)
	}
	if !eval[bool](p, `(() => { const d = JSON.parse(`+jsString(ours)+`);
	  d.nodes.find((n) => n.id === 3).properties.find((q) => q.name === "I1").value = -1;
	  return JSON.stringify(d) === JSON.stringify(ainbEditor.document()); })()`) {
		t.Error("the clean merge is not ours with I1 -1")
	}
	if !eval[bool](p, `document.querySelector(".merge").hidden`) {
		t.Error("the Merge panel stays open after merging")
	}
	// Saved as usual: the file built holds the merge.
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	p.waitFor(`!ainbEditor.dirty()`)
	saved, err := graph.Parse("saved.ainb", p.app.lastBuild())
	if err != nil {
		t.Fatal(err)
	}
	if v := property(t, saved, 3, "I1").Value.Int; v != -1 {
		t.Errorf("the saved file has I1 %d, want -1", v)
	}
	if v := property(t, saved, 9, "I7").Value.Int; v != 99 {
		t.Errorf("the saved file has I7 %d, want ours' 99", v)
	}
}

// TestMergeKeptNode: the working copy deleted node 10 (Task08, the fifth child of node 0,
// its child going with it) and set I10; theirs renamed node 10 and set I10 otherwise. Kept
// by "theirs" while I10 stays ours, node 10 comes back where it was: node 0's children are
// base's again, in order, with theirs' name.
func TestMergeKeptNode(t *testing.T) {
	p := newBrowser(t)
	p.open(version(t, "kitchen_sink_v407.ainb", func(d *graph.Document) {
		setProperty(t, d, 12, "I10", 55)
		d.Nodes[0].Children = slices.Delete(d.Nodes[0].Children, 4, 5)
		d.Nodes = slices.Delete(d.Nodes, 10, 11)
	}))
	theirs := version(t, "theirs.ainb", func(d *graph.Document) {
		setProperty(t, d, 12, "I10", 66)
		d.Nodes[10].Name = "Task08Theirs"
	})
	rows := p.mergeConflicts(theirs).Merge.Conflicts
	if len(rows) != 2 || !strings.Contains(rows[0], "Task08") || !strings.Contains(rows[1], "I10") {
		t.Fatalf("conflicts %s, want node 10's and I10's", rowsJSON(rows))
	}
	for k, side := range []string{"theirs", "ours"} {
		p.run(fmt.Sprintf(`document.querySelectorAll(".merge-row")[%d].querySelector("[data-choice=%s]").click()`, k, side))
	}
	p.waitFor(`!document.querySelector("[data-action=merge-apply]").disabled`)
	p.run(`document.querySelector("[data-action=merge-apply]").click()`)
	p.waitFor(`ainbEditor.history().undo.length === 1`)
	// Node 0's children as (child name, node name) pairs, and I10.
	got := eval[string](p, `(() => { const d = ainbEditor.document(), byId = new Map(d.nodes.map((n) => [n.id, n]));
	  const root = d.nodes.find((n) => n.type === "Sequential");
	  const task10 = d.nodes.find((n) => n.name === "Task10");
	  return JSON.stringify({children: root.children.map((c) => [c.name, byId.get(c.node)?.name ?? null]),
	    i10: task10.properties.find((q) => q.name === "I10").value}); })()`)
	var want struct {
		Children [][2]any `json:"children"`
		I10      int      `json:"i10"`
	}
	want.I10 = 55
	base := kitchenSinkDoc(t)
	for _, c := range base.Nodes[0].Children {
		name := base.Nodes[c.Node].Name
		if c.Node == 10 {
			name = "Task08Theirs"
		}
		want.Children = append(want.Children, [2]any{c.Name, name})
	}
	if w, _ := json.Marshal(want); got != string(w) {
		t.Errorf("merged: %s\nwant %s", got, w)
	}
}

// BenchmarkCompareBig measures Compare with… on the 7,130-node file against a version with
// every 500th node renamed, per comparison: reading the other file (upload and parse), the
// diff request, and the time from having both documents to the first frame drawn with the
// colours (the goal: under 300 ms), each reported as its median. Run it with
// go test ./static -run '^$' -bench BenchmarkCompareBig -benchtime 5x.
func BenchmarkCompareBig(b *testing.B) {
	data, err := os.ReadFile(corpusFile(b, bigFile))
	if err != nil {
		b.Fatal(err)
	}
	d, err := graph.Parse(filepath.Base(bigFile), data)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < len(d.Nodes); i += 500 {
		d.Nodes[i].Name += "X"
	}
	out, err := d.Build()
	if err != nil {
		b.Fatal(err)
	}
	other := filepath.Join(b.TempDir(), filepath.Base(bigFile))
	if err := os.WriteFile(other, out, 0o644); err != nil {
		b.Fatal(err)
	}
	p := newBrowser(b)
	p.open(corpusFile(b, bigFile))
	var reads, diffs, frames []float64
	for b.Loop() {
		p.run(`ainbEditor.compare().active && document.querySelector("[data-action=compare-leave]").click()`)
		p.upload("#compare-input", other)
		p.waitFor(`ainbEditor.compare().timings.firstFrame !== undefined && ainbEditor.compare().timings.read !== undefined`)
		s := p.compareState()
		if len(s.Status) != 15 {
			b.Fatalf("%d nodes marked, want 15", len(s.Status))
		}
		reads, diffs, frames = append(reads, s.Timings["read"]), append(diffs, s.Timings["diff"]), append(frames, s.Timings["firstFrame"])
	}
	b.ReportMetric(percentile(reads, 0.5), "read-ms")
	b.ReportMetric(percentile(diffs, 0.5), "diff-ms")
	b.ReportMetric(percentile(frames, 0.5), "first-coloured-frame-ms")
}

// openBatteryPack opens the corpus's TotK pack, choosing the game's ZsDic.pack.zs first,
// and returns the pack's path.
func (p *page) openBatteryPack() string {
	p.t.Helper()
	dir := testcorpus.Dir(p.t)
	pack := filepath.Join(dir, "sarc", "Accessory_Battery.pack.zs")
	p.upload("#zsdic-input", filepath.Join(dir, "zstd", "ZsDic.pack.zs"))
	p.waitFor(`ainbEditor.status().startsWith("Kept ZsDic.pack.zs")`)
	p.upload("#pack-input", pack)
	p.waitFor(`ainbEditor.status().startsWith("Opened pack")`)
	return pack
}

// TestCompareWithPack compares a pack member with the member of the same path in a pack
// file, and with the copy the open pack holds: no change until a node is deleted, which the
// diff, asked again after the edit, lists.
func TestCompareWithPack(t *testing.T) {
	p := newBrowser(t)
	pack := p.openBatteryPack()
	const root = "AI/Accessory_Battery_Event.event.root.ainb"
	p.do(chromedp.Click(chromedp.CSS(`.pack-files button[data-member="` + root + `"]`)))
	p.waitFor(`ainbEditor.loads() > 0`)
	p.upload("#compare-input", pack)
	p.waitFor(`ainbEditor.compare().active && ainbEditor.status().startsWith("Compared")`)
	if s := p.compareState(); s.Other != root+" in Accessory_Battery.pack.zs" || len(s.Rows) != 0 {
		t.Fatalf("compared with %q: rows %s", s.Other, rowsJSON(s.Rows))
	}
	// The last node deleted: selected by its link, then the Delete key.
	last := eval[int](p, `(() => { const d = ainbEditor.document(), roots = new Set(d.commands.flatMap((c) => [c.root, c.secondary]));
	  return d.nodes.filter((n) => !roots.has(n.id)).at(-1).id; })()`)
	p.run(fmt.Sprintf(`location.hash = "#node=%d"`, last))
	p.waitFor(fmt.Sprintf(`ainbEditor.selection()[0] === %d`, last))
	p.key(kb.Delete)
	p.waitFor(`ainbEditor.compare().rows.length > 0`)
	rows := p.compareState().Rows
	want := []string{
		`#336 EventTriggerChangeModelAlphaDrawTiming · child 0: {"node":337,"name":"Execute"} → (none)`,
		`#337 OneShotChangeModelAlphaDrawTiming · node only in the other file`,
	}
	if last != 337 || !reflect.DeepEqual(rows, want) {
		t.Errorf("after deleting node %d the rows are %s, want %s", last, rowsJSON(rows), rowsJSON(want))
	}
	if g := p.compareState().Ghosts; len(g) != 1 || int(g[0].ID) != last {
		t.Errorf("ghosts %v, want node %d", g, last)
	}
	// The copy the open pack holds gives the same changes.
	p.run(`document.querySelector("[data-action=compare-leave]").click()`)
	p.run(`document.querySelector("[data-action=compare-pack]").click()`)
	p.waitFor(`ainbEditor.compare().active && ainbEditor.status().startsWith("Compared")`)
	if s := p.compareState(); s.Other != root+" as saved in Accessory_Battery.pack.zs" || !reflect.DeepEqual(s.Rows, want) {
		t.Errorf("compared with %q: rows %s, want %s", s.Other, rowsJSON(s.Rows), rowsJSON(want))
	}

	// Merged against the pack's copy with the pack file's member, which made no edit: the
	// working copy stays as it is, in one edit.
	doc := eval[string](p, `JSON.stringify(ainbEditor.document())`)
	p.run(`document.querySelector("[data-action=merge]").click()`)
	p.run(`document.querySelector("[data-action=merge-base-pack]").click()`)
	p.upload("#merge-theirs-input", pack)
	p.waitFor(`!document.querySelector("[data-action=merge-run]").disabled`)
	if got := eval[string](p, `document.querySelector(".merge").textContent`); !strings.Contains(got, root+" as saved in Accessory_Battery.pack.zs") || !strings.Contains(got, root+" in Accessory_Battery.pack.zs") {
		t.Errorf("the Merge panel says %q", got)
	}
	undo := len(eval[map[string][]string](p, `ainbEditor.history()`)["undo"])
	p.run(`document.querySelector("[data-action=merge-run]").click()`)
	p.waitFor(fmt.Sprintf(`ainbEditor.history().undo.length === %d`, undo+1))
	if !eval[bool](p, `JSON.stringify(ainbEditor.document()) === `+jsString(doc)) {
		t.Error("merging an unedited version changed the working copy")
	}
}

// TestCompareManyChanges compares the kitchen sink with the 7,130-node file: the panel lists
// the first 2,000 changes and says how many more, and P steps to the last of them all.
func TestCompareManyChanges(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, kitchenSink))
	p.run(`document.querySelector("[data-action=compare]").click()`)
	p.upload("#compare-input", corpusFile(t, bigFile))
	p.waitFor(`ainbEditor.compare().rows.length > 0`)
	n := len(p.compareState().Rows)
	if n <= 2000 {
		t.Fatalf("%d changes: the test needs more than 2000", n)
	}
	if got := eval[int](p, `document.querySelectorAll(".compare-row").length`); got != 2000 {
		t.Errorf("the panel lists %d rows, want 2000", got)
	}
	if got, want := eval[string](p, `document.querySelector(".compare-rows li:last-child").textContent`), fmt.Sprintf("and %d more: N and P step through every change", n-2000); got != want {
		t.Errorf("the list ends %q, want %q", got, want)
	}
	p.key("p")
	p.waitFor(fmt.Sprintf(`ainbEditor.compare().current === %d`, n-1))
	if got, want := eval[string](p, `ainbEditor.status()`), fmt.Sprintf("Change %d of %d: %s", n, n, p.compareState().Rows[n-1]); got != want {
		t.Errorf("status %q, want %q", got, want)
	}
}
