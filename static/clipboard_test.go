package static_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/klauspost/compress/zstd"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/graph"
)

// screenAt is where a world point of the canvas is on the screen.
func (p *page) screenAt(wx, wy float64) point {
	p.t.Helper()
	return eval[point](p, fmt.Sprintf(`(() => {
		const v = ainbEditor.view(), r = document.getElementById("graph").getBoundingClientRect();
		return {x: r.left + r.width / 2 + (%v - v.x) * v.zoom, y: r.top + r.height / 2 + (%v - v.y) * v.zoom};
	})()`, wx, wy))
}

// remapElement is what a copy of e should be when the nodes in m are copied along: its links
// to them follow the copies.
func remapElement(e ainb.Element, m map[int]int) ainb.Element {
	var c ainb.Element
	b, _ := json.Marshal(e)
	json.Unmarshal(b, &c)
	for k := range ainb.PlugKind(ainb.NumPlugKinds) {
		ps := c.Plugs.Of(k) // c's own lists, decoded above
		for j := range ps {
			if n, ok := m[int(ps[j].Node)]; ok {
				ps[j].Node = int32(n)
			}
		}
	}
	for t := range ainb.NumParamTypes {
		for j := range c.Inputs.Of(t) {
			in := &c.Inputs.Of(t)[j]
			if n, ok := m[int(in.Source.Node)]; ok {
				in.Source.Node = int16(n)
			}
			for k := range in.Sources {
				if n, ok := m[int(in.Sources[k].Node)]; ok {
					in.Sources[k].Node = int16(n)
				}
			}
		}
	}
	for j, q := range c.Queries {
		if n, ok := m[q]; ok {
			c.Queries[j] = n
		}
	}
	return c
}

// canonicalFile is the file at path as its document builds without layout facts: every
// node canonical, as a node the editor adds.
func canonicalFile(t *testing.T, path string) *ainb.File {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := graph.Parse(filepath.Base(path), data)
	if err != nil {
		t.Fatal(err)
	}
	d.Layout = ""
	out, err := d.Build()
	if err != nil {
		t.Fatal(err)
	}
	f, err := ainb.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func elementJSON(t *testing.T, e ainb.Element) string {
	t.Helper()
	b, err := json.MarshalIndent(e, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Shift-dragging over empty canvas selects exactly the nodes in the box. Copied, they paste
// into the same file with their links among themselves remapped and their other links kept,
// and, through localStorage, into another file open in another tab, where links to nodes that
// were not copied are cut.
func TestBoxSelectCopyPaste(t *testing.T) {
	p := newBrowser(t)
	path := corpusFile(t, "synthetic/kitchen_sink_v407.ainb")
	orig := readFile(t, path)
	p.open(path)
	// Node 26, a selector, and its branches 2, 3 and 4 sit together in (340..940, 4048..4642);
	// the nearest others end at y 4024 (node 25) and start at 4666 (node 27).
	p.run(`ainbEditor.setView({x: 635, y: 4345, zoom: 0.5})`)
	p.drag(p.screenAt(310, 4032), p.screenAt(960, 4655), chromedp.ModifierShift)
	want := []int{2, 3, 4, 26}
	if sel := eval[[]int](p, `ainbEditor.selection()`); !slices.Equal(sel, want) {
		t.Fatalf("box selection %v, want %v", sel, want)
	}
	inside := eval[[]int](p, `(() => {
		const out = [];
		return import("/static/metrics.js").then((m) => {
			for (const q of ainbEditor.document().nodes) {
				if (q.x >= 310 && q.x + m.NODE_WIDTH <= 960 && q.y >= 4032 && q.y + m.nodeHeight(q) <= 4655) out.push(q.id);
			}
			return out;
		});
	})()`)
	if !slices.Equal(inside, want) {
		t.Fatalf("the nodes inside the box are %v; the test expects %v", inside, want)
	}
	p.screenshot("ainb-box-select")
	p.key("c", chromedp.ModifierCtrl)

	// Another tab, with another file. It first restores the last document (this one).
	q := p.newTab("/")
	q.waitFor(`ainbEditor.loads() > 0`)
	otherPath := corpusFile(t, "synthetic/params_v407.ainb")
	other := readFile(t, otherPath)
	q.open(otherPath)
	q.key("v", chromedp.ModifierCtrl)
	if sel := eval[[]int](q, `ainbEditor.selection()`); !slices.Equal(sel, []int{5, 6, 7, 8}) {
		t.Fatalf("selection after pasting into the other file: %v", sel)
	}
	if h := eval[[]string](q, `ainbEditor.history().undo`); len(h) != 1 || h[0] != "Paste 4 nodes from another file" {
		t.Errorf("history %q", h)
	}
	got := q.save()
	if len(got.Elements) != 9 {
		t.Fatalf("%d nodes saved, want 9", len(got.Elements))
	}
	for i := range other.Elements {
		if a, b := elementJSON(t, other.Elements[i]), elementJSON(t, got.Elements[i]); a != b {
			t.Errorf("node %d of the other file changed", i)
		}
	}
	for k, i := range want {
		e := got.Elements[5+k]
		if e.Name != orig.Elements[i].Name || e.Type != orig.Elements[i].Type || e.GUID == orig.Elements[i].GUID {
			t.Errorf("node %d is not a fresh copy of node %d: %s %d %v", 5+k, i, e.Name, e.Type, e.GUID)
		}
		if len(e.Queries) != 0 {
			t.Errorf("copy of node %d reads queries %v of the other file", i, e.Queries)
		}
	}
	sel := got.Elements[8]
	var kids []int32
	for _, pl := range sel.Plugs.Of(ainb.PlugChild) {
		kids = append(kids, pl.Node)
	}
	if !slices.Equal(kids, []int32{5, 6, 7}) {
		t.Errorf("the pasted selector's branches lead to %v, want the pasted 5, 6, 7", kids)
	}
	if src := sel.Inputs.Of(ainb.ParamInt)[0].Source; src.Node != -1 {
		t.Errorf("the pasted selector's input still reads node %d of the other file", src.Node)
	}
	task := got.Elements[5]
	if n := task.Inputs.Of(ainb.ParamInt)[0].Source.Node; n != -1 {
		t.Errorf("the pasted Task00's input still reads node %d", n)
	}
	// Its attachment came along; its expression and blackboard references have no match here
	// (no function of the same text, no Vec3f parameter V1), so they fall back to values.
	if len(task.Attachments) != 1 || len(got.Attachments) != 1 || got.Attachments[task.Attachments[0]].Name != orig.Attachments[0].Name {
		t.Errorf("attachments of the pasted Task00: %v of %d", task.Attachments, len(got.Attachments))
	}
	for _, pr := range task.Properties.Of(ainb.ParamInt) {
		if pr.Name == "IE0" && pr.Flags != 0 {
			t.Errorf("IE0 still reads an expression: flags %#x", pr.Flags)
		}
	}
	for _, pr := range task.Properties.Of(ainb.ParamFloat) {
		if pr.Name == "FB0" && pr.Flags != 0 {
			t.Errorf("FB0 still reads a blackboard parameter: flags %#x", pr.Flags)
		}
	}

	// Back in the first tab, the same copy pastes into its own file.
	p.key("v", chromedp.ModifierCtrl)
	if sel := eval[[]int](p, `ainbEditor.selection()`); !slices.Equal(sel, []int{29, 30, 31, 32}) {
		t.Fatalf("selection after pasting: %v", sel)
	}
	offsets := eval[[]point](p, `(() => { const q = ainbEditor.document().nodes; return [2, 3, 4, 26].map((i, k) => ({x: q[29 + k].x - q[i].x, y: q[29 + k].y - q[i].y})); })()`)
	for _, o := range offsets[1:] {
		if o != offsets[0] {
			t.Errorf("the pasted nodes are not laid out as the copied ones: offsets %v", offsets)
			break
		}
	}
	got = p.save()
	if len(got.Elements) != 33 {
		t.Fatalf("%d nodes saved, want 33", len(got.Elements))
	}
	m := map[int]int{2: 29, 3: 30, 4: 31, 26: 32}
	// Pasted nodes are new: they have no layout facts, so their mirror plugs (the Generic,
	// String and Int plug lists, derived from the inputs) are the canonical derivation, not
	// the lists the file stored for the originals. The canonical ones are what the original
	// document builds without its layout facts.
	canon := canonicalFile(t, path)
	for k, i := range want {
		w := remapElement(orig.Elements[i], m)
		w.GUID = got.Elements[29+k].GUID
		c := remapElement(canon.Elements[i], m)
		for _, kind := range []ainb.PlugKind{ainb.PlugGeneric, ainb.PlugString, ainb.PlugInt} {
			w.Plugs.Set(kind, c.Plugs.Of(kind))
		}
		if a, b := elementJSON(t, w), elementJSON(t, got.Elements[29+k]); a != b {
			t.Errorf("the copy of node %d:\n%s", i, firstDiff([]byte(a), []byte(b)))
		}
	}
}

// A zstd-compressed file opens like the plain one, and saving it writes a plain .ainb.
func TestOpenZstd(t *testing.T) {
	p := newBrowser(t)
	path := corpusFile(t, "synthetic/kitchen_sink_v407.ainb")
	plain, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	zs := filepath.Join(t.TempDir(), "kitchen_sink_v407.ainb.zs")
	if err := os.WriteFile(zs, enc.EncodeAll(plain, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	p.open(path)
	wantDoc := eval[string](p, docText)
	wantFirst := eval[string](p, `ainbEditor.document().nodes[0].name + "|" + ainbEditor.document().nodes[1].name`)
	p.open(zs)
	if n := eval[int](p, `ainbEditor.document().nodes.length`); n != 29 {
		t.Fatalf("%d nodes from the .zs, want 29", n)
	}
	if first := eval[string](p, `ainbEditor.document().nodes[0].name + "|" + ainbEditor.document().nodes[1].name`); first != wantFirst {
		t.Errorf("first nodes %q, want %q", first, wantFirst)
	}
	if d := eval[string](p, docText); d != wantDoc {
		t.Errorf("the .zs document differs from the plain file's:\n%s", firstDiff([]byte(wantDoc), []byte(d)))
	}
	// A .zs file saves back as .zs under its own name, compressed as it came (no dictionary).
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	p.waitFor(`ainbEditor.status().startsWith("Saved")`)
	if s := eval[string](p, `ainbEditor.status()`); !strings.HasPrefix(s, "Saved kitchen_sink_v407.ainb.zs (") || !strings.HasSuffix(s, " bytes, zstd)") {
		t.Errorf("status %q", s)
	}
	dl := filepath.Join(p.downloads, "kitchen_sink_v407.ainb.zs")
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(dl)
		if err == nil && bytes.Equal(b, p.app.lastBuild()) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("download %s: %v", dl, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	got, err := dec.DecodeAll(p.app.lastBuild(), nil)
	if err != nil || !bytes.Equal(got, plain) {
		t.Errorf("the saved .zs decodes to %d bytes (%v); want the unedited file's %d", len(got), err, len(plain))
	}
	var h zstd.Header
	if err := h.Decode(p.app.lastBuild()); err != nil || h.DictionaryID != 0 {
		t.Errorf("frame header %+v (%v), want no dictionary", h, err)
	}
}

// The help lists every key binding of the input module, in its words, so the two cannot drift.
func TestHelpListsShortcuts(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/minimal_v407.ainb"))
	p.key("?")
	p.do(chromedp.WaitVisible(chromedp.CSS(`.overlay.help`)))
	shown := eval[[][]string](p, `[...document.querySelectorAll(".overlay.help tr")].map((tr) => [...tr.cells].map((c) => c.textContent))`)
	table := eval[[][]string](p, `import("/static/input.js").then((m) => m.SHORTCUTS)`)
	keys := eval[[][]string](p, `import("/static/input.js").then((m) => m.KEYS.map((b) => [m.keyLabel(b), b.help]))`)
	nGestures := eval[int](p, `import("/static/input.js").then((m) => m.GESTURES.length)`)
	if len(keys) < 20 || len(table) != nGestures+len(keys) {
		t.Fatalf("%d shortcuts for %d gestures and %d key bindings", len(table), nGestures, len(keys))
	}
	if fmt.Sprint(shown) != fmt.Sprint(table) {
		t.Errorf("the help shows\n%q\nthe input module's table is\n%q", shown, table)
	}
	for _, k := range keys {
		if !slices.ContainsFunc(shown, func(row []string) bool { return slices.Equal(row, k) }) {
			t.Errorf("the help does not list the binding %q", k)
		}
	}
	// The bindings are what the handler runs: a few of them, pressed for real.
	p.key(kb.Escape)
	if eval[bool](p, `!!document.querySelector(".overlay.help")`) {
		t.Fatal("Esc did not close the help")
	}
	z := eval[float64](p, `ainbEditor.view().zoom`)
	p.key("+")
	if got := eval[float64](p, `ainbEditor.view().zoom`); got <= z {
		t.Errorf("+ did not zoom in: %v → %v", z, got)
	}
	p.key("0")
	if got := eval[float64](p, `ainbEditor.view().zoom`); got != 1 {
		t.Errorf("0 left the zoom at %v", got)
	}
	p.key("a", chromedp.ModifierCtrl)
	if n := len(eval[[]int](p, `ainbEditor.selection()`)); n != eval[int](p, `ainbEditor.document().nodes.length`) {
		t.Errorf("Ctrl+A selected %d nodes", n)
	}
	p.key("A", chromedp.ModifierShift)
	if eval[bool](p, `!!document.querySelector(".overlay.palette")`) {
		t.Error("Shift+A opened the palette; only A is bound")
	}
}
