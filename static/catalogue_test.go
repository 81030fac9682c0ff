package static_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/modeltext"
)

// plugSummary is what a node class defines, as the saved file stores it: per param type the
// names, pointer classes and default values of the properties and inputs (and whether an
// input is a multi-input), and the names and pointer classes of the outputs.
func plugSummary(t *testing.T, e *ainb.Element) string {
	t.Helper()
	var b strings.Builder
	for k, list := range e.Properties.Lists() {
		for _, p := range list {
			js := bytes.TrimSpace(modeltext.Text(p.Value))
			fmt.Fprintf(&b, "property %d %s %s %s\n", k, p.Name, p.ClassName, js)
		}
	}
	for k, list := range e.Inputs.Lists() {
		for _, p := range list {
			js := bytes.TrimSpace(modeltext.Text(p.Value))
			fmt.Fprintf(&b, "input %d %s %s %s multi=%v\n", k, p.Name, p.ClassName, js, p.IsMulti())
		}
	}
	for k, list := range e.Outputs.Lists() {
		for _, p := range list {
			fmt.Fprintf(&b, "output %d %s %s\n", k, p.Name, p.ClassName)
		}
	}
	return b.String()
}

// elementNamed is the one element of class name in f.
func elementNamed(t *testing.T, f *ainb.File, name string) *ainb.Element {
	t.Helper()
	var found *ainb.Element
	for i := range f.Elements {
		if f.Elements[i].Name == name {
			if found != nil {
				t.Fatalf("two elements of class %s", name)
			}
			found = &f.Elements[i]
		}
	}
	if found == nil {
		t.Fatalf("no element of class %s", name)
	}
	return found
}

// importCatalogue teaches the catalogue the classes of corpus files through its file input.
func (p *page) importCatalogue(paths ...string) {
	p.t.Helper()
	p.run(`window.__importStatus = ""`)
	if err := chromedp.Do(p.ctx, chromedp.SetUploadFiles(chromedp.CSS("#catalogue-files"), paths)); err != nil {
		p.t.Fatalf("upload %v: %v", paths, err)
	}
	p.waitFor(`ainbEditor.status().startsWith("Learned node classes from")`)
}

// paletteClasses lists the classes the open palette offers.
func paletteClasses(p *page) []string {
	return eval[[]string](p, `[...document.querySelectorAll(".overlay.palette li.item")].map((li) => li.dataset.class)`)
}

// openPalette opens the add-node palette with the toolbar's button. (Pressing A through
// the DevTools protocol would also type an "a" into the palette's field: it sends the
// character as an event of its own, which the page's preventDefault cannot stop.)
func (p *page) openPalette() {
	p.t.Helper()
	p.do(chromedp.Click(`[data-action="add"]`), chromedp.WaitVisible(chromedp.CSS(`.overlay.palette`)))
}

func (p *page) rightClick(at point) {
	p.t.Helper()
	p.do(chromedp.MouseClickXY(at.X, at.Y, chromedp.ButtonType(input.MouseButtonRight)))
}

// A class the open file does not use, learned from another file the user imports, is offered
// by the palette and added with every property, input and output its class has, with their
// defaults: the saved binary carries them as the file the class came from defines them. The
// inspector removes an unused parameter and adds the class's missing ones back.
func TestCatalogueAddsClassFromImportedFile(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/minimal_v407.ainb"))
	src := corpusFile(t, "synthetic/params_v407.ainb")
	want := plugSummary(t, elementNamed(t, readFile(t, src), "SyntheticConsumer"))

	p.openPalette()
	if got := paletteClasses(p); contains(got, "SyntheticConsumer") {
		t.Fatalf("the palette offers SyntheticConsumer before any file that uses it was seen: %q", got)
	}
	p.key(kb.Escape)
	p.importCatalogue(src)
	if got := eval[string](p, `ainbEditor.status()`); !strings.Contains(got, "from 1 file:") {
		t.Errorf("status after the import: %q", got)
	}
	p.openPalette()
	p.do(chromedp.SendKeys(`.palette-input`, "SyntheticConsumer"))
	if got := paletteClasses(p); !contains(got, "SyntheticConsumer") || !contains(got, "SyntheticConsumer2") || len(got) != 2 {
		t.Fatalf("searching the palette for SyntheticConsumer offers %q", got)
	}
	nodes := eval[int](p, `ainbEditor.document().nodes.length`)
	p.do(chromedp.Click(`.overlay.palette li[data-class="SyntheticConsumer"] button`))
	if got := eval[int](p, `ainbEditor.document().nodes.length`); got != nodes+1 {
		t.Fatalf("%d nodes after adding one to %d", got, nodes)
	}
	id := eval[int](p, `ainbEditor.selection()[0]`)
	f := p.save()
	if len(f.Elements) != nodes+1 {
		t.Fatalf("saved %d elements, want %d", len(f.Elements), nodes+1)
	}
	e := elementNamed(t, f, "SyntheticConsumer")
	if got := plugSummary(t, e); got != want {
		t.Fatalf("the added SyntheticConsumer's plugs:\n%s\nthe class in %s:\n%s", got, src, want)
	}
	// A new node takes no value from anywhere: no node, blackboard or expression sources.
	for _, list := range e.Inputs.Lists() {
		for _, in := range list {
			if in.IsMulti() && len(in.Sources) == 0 {
				continue
			}
			if in.IsMulti() || in.Source.Node != -1 || in.Source.Flags.IsBlackboard() || in.Source.Flags.IsExpression() {
				t.Errorf("input %s of the new node has sources %+v / %+v", in.Name, in.Source, in.Sources)
			}
		}
	}
	for _, list := range e.Properties.Lists() {
		for _, q := range list {
			if q.Flags.IsBlackboard() || q.Flags.IsExpression() {
				t.Errorf("property %s of the new node reads a blackboard parameter or an expression: %#x", q.Name, uint32(q.Flags))
			}
		}
	}

	// The inspector: PStringEmpty is unused, so it has a ✕; removing it puts it among the
	// class's missing parameters, and Add brings it back where the class has it.
	k := eval[int](p, fmt.Sprintf(`(`+nodeJS+`).properties.findIndex((q) => q.name === "PStringEmpty")`, id))
	p.do(chromedp.Click(fmt.Sprintf(`[data-key="properties.%d.remove"]`, k)))
	if got := eval[int](p, fmt.Sprintf(`(`+nodeJS+`).properties.findIndex((q) => q.name === "PStringEmpty")`, id)); got != -1 {
		t.Fatal("the ✕ did not remove PStringEmpty")
	}
	p.do(chromedp.Click(`[data-key="outputs.0.remove"]`))
	missing := eval[[]string](p, `[...document.querySelectorAll('[data-key^="class.add."]')].map((b) => b.dataset.key)`)
	if strings.Join(missing, " ") != "class.add.properties.PStringEmpty class.add.outputs.ResInt class.add.all" {
		t.Errorf("missing parameters offered: %q", missing)
	}
	undo := len(eval[[]string](p, `ainbEditor.history().undo`))
	p.do(chromedp.Click(`[data-key="class.add.all"]`))
	if got := len(eval[[]string](p, `ainbEditor.history().undo`)); got != undo+1 {
		t.Errorf("Add all made %d undo steps", got-undo)
	}
	if got := eval[int](p, `document.querySelectorAll('[data-key^="class.add."]').length`); got != 0 {
		t.Errorf("%d parameters still offered after Add all", got)
	}
	f = p.save()
	if got := plugSummary(t, elementNamed(t, f, "SyntheticConsumer")); got != want {
		t.Fatalf("after removing and adding back parameters:\n%s\nwant:\n%s", got, want)
	}
}

func (p *page) check(expr string) {
	p.t.Helper()
	if !eval[bool](p, expr) {
		p.t.Errorf("false: %s", expr)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// centre shows node id's header in the middle of the canvas at zoom 1.
func (p *page) centre(id int) {
	p.t.Helper()
	p.run(fmt.Sprintf(`(() => { const n = `+nodeJS+`; ainbEditor.setView({x: n.x + 130, y: n.y + 15, zoom: 1}); })()`, id))
}

// emptyNear is a world point near node id's box where no node is (with a margin), and the
// view centred between it and the node's row (-1: its header) at zoom 1 so both are on the
// screen, where no panel or legend covers the canvas.
func (p *page) emptyNear(id, row int) (wx, wy float64) {
	p.t.Helper()
	w := eval[[]float64](p, fmt.Sprintf(`import("/static/metrics.js").then((m) => {
		const doc = ainbEditor.document(), n = `+nodeJS+`, canvas = document.getElementById("graph"), ny = m.rowY(n, %d);
		// Room for a new node dropped there (its top 15 above the point, up to 400 tall),
		// so that placing it need not move it.
		const free = (x, y) => doc.nodes.every((q) => x + m.NODE_WIDTH < q.x - 60 || x > q.x + m.NODE_WIDTH + 60 || y + 400 < q.y - 60 || y - 15 > q.y + m.nodeHeight(q) + 60);
		const bare = (x, y) => {
			const v = ainbEditor.view(), r = canvas.getBoundingClientRect();
			return document.elementFromPoint(r.left + r.width / 2 + (x - v.x) * v.zoom, r.top + r.height / 2 + (y - v.y) * v.zoom) === canvas;
		};
		for (let r = 320; r < 3000; r += 40) for (let a = 0; a < 16; a++) {
			const x = Math.round(n.x + m.NODE_WIDTH / 2 + r * Math.cos(a * Math.PI / 8)), y = Math.round(n.y + r * Math.sin(a * Math.PI / 8));
			if (!free(x, y)) continue;
			ainbEditor.setView({x: (n.x + 130 + x) / 2, y: (ny + y) / 2, zoom: 1});
			if (bare(x, y) && bare(n.x + 130, ny)) return [x, y];
		}
		return null;
	})`, id, row))
	if len(w) != 2 {
		p.t.Fatalf("no empty space near node %d", id)
	}
	return w[0], w[1]
}

// Dragging a link to empty space offers the classes that fit it and creates the one chosen
// already linked, in one undoable step; letting go of an input's link in space no longer
// disconnects it.
func TestDragToCreate(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/params_v407.ainb"))
	before := eval[string](p, docText)

	// From SyntheticProducer's float output: the classes with a float input.
	wx, wy := p.emptyNear(1, rowOf(p, 1, "out", "float", 0))
	out := itemIndex(p, 1, "outputs", "float", 0)
	p.drag(p.screenOf(1, rowOf(p, 1, "out", "float", 0), "out"), p.screenAt(wx, wy))
	p.do(chromedp.WaitVisible(chromedp.CSS(`.overlay.palette`)))
	if got := paletteClasses(p); strings.Join(got, " ") != "SyntheticConsumer SyntheticConsumer2" {
		t.Fatalf("from a float output the palette offers %q", got)
	}
	if eval[string](p, docText) != before {
		t.Fatal("opening the palette changed the document")
	}
	p.do(chromedp.Click(`.overlay.palette li[data-class="SyntheticConsumer2"] button`))
	n := eval[map[string]any](p, `ainbEditor.document().nodes.at(-1)`)
	if n["name"] != "SyntheticConsumer2" || n["id"] != float64(5) {
		t.Fatalf("the new node is %v", n)
	}
	fmulti := eval[string](p, `JSON.stringify(ainbEditor.document().nodes.at(-1).inputs.find((i) => i.name === "FMulti2"))`)
	if want := fmt.Sprintf(`{"name":"FMulti2","type":"float","value":1,"sources":[{"node":1,"output":%d}]}`, out); fmulti != want {
		t.Errorf("the new node's float input: %s, want %s", fmulti, want)
	}
	if x, y := n["x"].(float64), n["y"].(float64); x != wx || y != wy-15 {
		t.Errorf("the new node is at (%v, %v), dropped at (%v, %v)", x, y, wx, wy)
	}
	if h := eval[[]string](p, `ainbEditor.history().undo`); len(h) != 1 || h[0] != "Add SyntheticConsumer2 and link it" {
		t.Errorf("history %q", h)
	}
	p.key("z", chromedp.ModifierCtrl)
	if eval[string](p, docText) != before {
		t.Fatal("one undo did not take back the node and its link")
	}
	p.key("y", chromedp.ModifierCtrl)
	if got := eval[int](p, `ainbEditor.document().nodes.length`); got != 6 {
		t.Fatalf("redo: %d nodes", got)
	}
	p.key("z", chromedp.ModifierCtrl)

	// An input's link let go in space, then the palette closed: nothing changes.
	wx, wy = p.emptyNear(3, rowOf(p, 3, "in", "int", 1))
	inode := itemIndex(p, 3, "inputs", "int", 1)
	src := fmt.Sprintf(`JSON.stringify((`+nodeJS+`).inputs[%d].source)`, 3, inode)
	had := eval[string](p, src)
	p.drag(p.screenOf(3, rowOf(p, 3, "in", "int", 1), "in"), p.screenAt(wx, wy))
	p.do(chromedp.WaitVisible(chromedp.CSS(`.overlay.palette`)))
	if got := paletteClasses(p); strings.Join(got, " ") != "SyntheticConsumer SyntheticProducer SyntheticProducer2" {
		t.Errorf("for an int input the palette offers %q", got)
	}
	p.key(kb.Escape)
	if got := eval[string](p, src); got != had || eval[bool](p, `ainbEditor.dirty()`) {
		t.Fatalf("letting go of INode's link in space changed its source %s → %s", had, got)
	}

	// A child plug dragged to space: no query classes; the new node becomes the child.
	wx, wy = p.emptyNear(0, 0)
	p.drag(p.screenOf(0, 0, "out"), p.screenAt(wx, wy))
	p.do(chromedp.WaitVisible(chromedp.CSS(`.overlay.palette`)))
	got := paletteClasses(p)
	if contains(got, "SyntheticProducer") || !contains(got, "SyntheticConsumer") || !contains(got, "Sequential") {
		t.Errorf("for a child the palette offers %q", got)
	}
	p.do(chromedp.Click(`.overlay.palette li[data-class="SyntheticConsumer"] button`))
	if got := eval[float64](p, `ainbEditor.document().nodes[0].children[0].node`); got != 5 {
		t.Errorf("child 0 of node 0 is #%v, want the new #5", got)
	}
	p.key("z", chromedp.ModifierCtrl)
	if eval[string](p, docText) != before {
		t.Fatal("one undo did not take back the new child")
	}
}

// "Node output" as a source never guesses: it asks for a node on the canvas, with a hint and
// Esc to cancel; a node with several outputs of the type asks which one.
func TestSourcePicker(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/params_v407.ainb"))
	before := eval[string](p, docText)
	p.selectNode(3)
	j := itemIndex(p, 3, "inputs", "int", 0) // IConst: a value of its own
	kind := fmt.Sprintf(`[data-key="inputs.%d.source.kind"]`, j)
	p.run(`(() => { const s = document.querySelector('` + kind + `'); s.value = "node"; s.dispatchEvent(new Event("change")); })()`)
	p.do(chromedp.WaitVisible(chromedp.CSS(`.picker-bar`)))
	if eval[string](p, docText) != before {
		t.Fatal("choosing Node output changed the document before a node was picked")
	}
	if hint := eval[string](p, `document.querySelector(".picker-bar").textContent`); !strings.Contains(hint, "Click the node whose int output feeds #3.IConst") || !strings.Contains(hint, "Esc") {
		t.Errorf("the picker's hint: %q", hint)
	}
	p.key(kb.Escape)
	if eval[bool](p, `!!document.querySelector(".picker-bar")`) || eval[string](p, docText) != before {
		t.Fatal("Esc did not leave the picker unchanged")
	}
	if got := eval[[]int](p, `ainbEditor.selection()`); len(got) != 1 || got[0] != 3 {
		t.Errorf("Esc in the picker also changed the selection: %v", got)
	}

	// Again, by the source line's Pick button on a node source (INode reads node 1).
	inode := itemIndex(p, 3, "inputs", "int", 1)
	p.do(chromedp.Click(fmt.Sprintf(`[data-key="inputs.%d.source.pick"]`, inode)))
	p.do(chromedp.WaitVisible(chromedp.CSS(`.picker-bar`)))
	// Empty space still pans while picking, so the node can be found; the picker stays.
	ex, ey := p.emptyNear(1, -1)
	v0 := eval[viewState](p, `ainbEditor.view()`)
	from := p.screenAt(ex, ey)
	p.drag(from, point{from.X + 40, from.Y + 30})
	if v := eval[viewState](p, `ainbEditor.view()`); v.X == v0.X || !eval[bool](p, `!!document.querySelector(".picker-bar")`) {
		t.Fatalf("dragging empty space while picking: view %+v → %+v, picker open %v", v0, v, eval[bool](p, `!!document.querySelector(".picker-bar")`))
	}
	// A node without an int output is refused and the picker stays.
	p.centre(0)
	p.click(p.screenOf(0, -1, ""))
	if !eval[bool](p, `!!document.querySelector(".picker-bar")`) || !strings.Contains(eval[string](p, `ainbEditor.status()`), "has no int output") {
		t.Fatalf("picking a node without an int output: status %q", eval[string](p, `ainbEditor.status()`))
	}
	// SyntheticProducer has two int outputs: the picker asks which.
	p.centre(1)
	p.click(p.screenOf(1, -1, ""))
	p.do(chromedp.WaitVisible(chromedp.CSS(`.picker-menu`)))
	names := eval[[]string](p, `[...document.querySelectorAll(".picker-menu button")].map((b) => b.textContent)`)
	if strings.Join(names, " ") != "OutInt OutInt2" {
		t.Fatalf("the picker offers the outputs %q", names)
	}
	k2 := itemIndex(p, 1, "outputs", "int", 1)
	p.do(chromedp.Click(fmt.Sprintf(`.picker-menu button[data-output="%d"]`, k2)))
	got := eval[string](p, fmt.Sprintf(`JSON.stringify((`+nodeJS+`).inputs[%d].source)`, 3, inode))
	if want := fmt.Sprintf(`{"node":1,"output":%d}`, k2); got != want {
		t.Fatalf("INode's source after picking OutInt2: %s, want %s", got, want)
	}
	if eval[bool](p, `!!document.querySelector(".picker-bar")`) {
		t.Error("the picker stayed after a pick")
	}
	if h := eval[[]string](p, `ainbEditor.history().undo`); len(h) != 1 {
		t.Errorf("picking made %d undo steps: %q", len(h), h)
	}
	// The output list shows the whole name, on a line of its own as wide as the inspector.
	w := eval[float64](p, fmt.Sprintf(`document.querySelector('[data-key="inputs.%d.source.output"]').getBoundingClientRect().width`, inode))
	if w < 200 {
		t.Errorf("the output dropdown is %v px wide", w)
	}
	p.key("z", chromedp.ModifierCtrl)
	if eval[string](p, docText) != before {
		t.Fatal("undo did not take the picked source back")
	}
}

// The context menu offers the common actions on empty space, a node, a plug and a link.
func TestContextMenu(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/params_v407.ainb"))
	before := eval[string](p, docText)
	menu := func() []string {
		return eval[[]string](p, `[...document.querySelectorAll(".ctx-menu .ctx-item")].map((b) => b.dataset.action)`)
	}
	// Empty space: Add a node here opens the palette.
	wx, wy := p.emptyNear(1, -1)
	p.rightClick(p.screenAt(wx, wy))
	if got := strings.Join(menu(), " "); got != "add paste select-all fit tidy import" {
		t.Fatalf("canvas menu: %q", got)
	}
	p.do(chromedp.Click(`.ctx-item[data-action="add"]`))
	p.do(chromedp.WaitVisible(chromedp.CSS(`.overlay.palette`)))
	p.key(kb.Escape)

	// A node: Duplicate.
	p.selectNode(4)
	p.rightClick(p.screenOf(4, -1, ""))
	if got := strings.Join(menu(), " "); got != "inspect add-child pick-child duplicate copy delete centre" {
		t.Fatalf("node menu: %q", got)
	}
	p.do(chromedp.Click(`.ctx-item[data-action="duplicate"]`))
	if got := eval[int](p, `ainbEditor.document().nodes.length`); got != 6 {
		t.Fatalf("%d nodes after Duplicate", got)
	}
	p.key("z", chromedp.ModifierCtrl)

	// An input plug: Disconnect (INode of node 3 reads node 1).
	p.selectNode(3)
	inode := itemIndex(p, 3, "inputs", "int", 1)
	row := rowOf(p, 3, "in", "int", 1)
	p.run(fmt.Sprintf(`(() => { const n = `+nodeJS+`; ainbEditor.setView({x: n.x + 130, y: n.y + 30 + %d * 18, zoom: 1}); })()`, 3, row))
	p.rightClick(p.screenOf(3, row, "in"))
	if got := strings.Join(menu(), " "); got != "source-new source-pick disconnect follow" {
		t.Fatalf("input menu: %q (%s)", got, eval[string](p, `JSON.stringify([document.querySelector(".ctx-menu")?.textContent, document.querySelectorAll(".overlay").length, ainbEditor.status()])`))
	}
	p.do(chromedp.Click(`.ctx-item[data-action="disconnect"]`))
	if got := eval[bool](p, fmt.Sprintf(`!(`+nodeJS+`).inputs[%d].source`, 3, inode)); !got {
		t.Fatal("Disconnect left INode's source")
	}
	p.key("z", chromedp.ModifierCtrl)

	// A link: a child link from node 0, in the middle of its curve (the first child whose
	// curve's middle no node covers: a link may pass behind a node).
	mid := eval[point](p, `import("/static/metrics.js").then((m) => {
		const doc = ainbEditor.document(), a = doc.nodes[0];
		for (const [k, c] of a.children.entries()) {
			const b = doc.nodes.find((n) => n.id === c.node);
			const [ax, ay] = m.plugPoint(a, m.childRow(a, k), "child"), bx = b.x, by = b.y + 15, cx = Math.max(40, Math.abs(bx - ax) * 0.5);
			const x = 0.125 * ax + 0.375 * (ax + cx) + 0.375 * (bx - cx) + 0.125 * bx, y = 0.5 * ay + 0.5 * by;
			if (doc.nodes.some((n) => x > n.x - 10 && x < n.x + m.NODE_WIDTH + 10 && y > n.y - 10 && y < n.y + m.nodeHeight(n) + 10)) continue;
			ainbEditor.setView({x, y, zoom: 1});
			const v = ainbEditor.view(), r = document.getElementById("graph").getBoundingClientRect();
			return {x: r.left + r.width / 2 + (x - v.x) * v.zoom, y: r.top + r.height / 2 + (y - v.y) * v.zoom};
		}
		return {x: -1, y: -1};
	})`)
	p.rightClick(mid)
	if got := strings.Join(menu(), " "); got != "go-from go-to remove-child" {
		t.Fatalf("link menu: %q (head %q)", got, eval[string](p, `document.querySelector(".ctx-head")?.textContent ?? ""`))
	}
	p.do(chromedp.Click(`.ctx-item[data-action="remove-child"]`))
	if got := eval[int](p, `ainbEditor.document().nodes[0].children.length`); got != 1 {
		t.Fatalf("node 0 has %d children after removing one of 2", got)
	}
	p.key("z", chromedp.ModifierCtrl)
	// Esc closes a menu without acting.
	p.rightClick(p.screenAt(wx, wy))
	p.key(kb.Escape)
	if eval[bool](p, `!!document.querySelector(".ctx-menu")`) {
		t.Error("Esc left the menu open")
	}
	if eval[string](p, docText) != before {
		t.Fatal("the document is not as opened after undoing every action")
	}
}

// The catalogue is kept in the browser: classes learned from the real game's 7,130 AI node
// classes are offered again after a reload, and one of them is added with its real inputs
// (18 of five types, a pointer among them).
func TestCatalogueKeptAcrossSessions(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/minimal_v407.ainb"))
	defs := corpusFile(t, "real/nodedefs_ai_v407.ainb")
	start := time.Now()
	p.importCatalogue(defs)
	t.Logf("importing %s took %v: %s", defs, time.Since(start), eval[string](p, `ainbEditor.status()`))
	if got := eval[string](p, `ainbEditor.status()`); !strings.Contains(got, ": 7130 new, 7131 known") {
		t.Errorf("status after importing the 7,130 classes: %q", got)
	}
	stored := eval[int](p, `new Promise((res) => { const r = indexedDB.open("ainb-editor"); r.onsuccess = () => { const g = r.result.transaction("documents").objectStore("documents").get("catalogue"); g.onsuccess = () => res(g.result ? g.result.text.length : -1); }; })`)
	t.Logf("the stored catalogue is %d characters", stored)

	p.navigate("/")
	p.waitFor(`ainbEditor.document() && ainbEditor.loads() > 0`)
	p.openPalette()
	p.do(chromedp.SendKeys(`.palette-input`, "ExecuteCameraMoveToTargetPosLimitDis"))
	p.waitFor(`document.querySelectorAll(".overlay.palette li.item").length > 0`)
	if got := paletteClasses(p); strings.Join(got, " ") != "ExecuteCameraMoveToTargetPosLimitDis" {
		t.Fatalf("after a reload the palette offers %q", got)
	}
	p.do(chromedp.Click(`.overlay.palette li[data-class="ExecuteCameraMoveToTargetPosLimitDis"] button`))
	f := p.save()
	want := plugSummary(t, elementNamed(t, readFile(t, defs), "ExecuteCameraMoveToTargetPosLimitDis"))
	if got := plugSummary(t, elementNamed(t, f, "ExecuteCameraMoveToTargetPosLimitDis")); got != want || want == "" {
		t.Errorf("ExecuteCameraMoveToTargetPosLimitDis saved with\n%s\nthe game's class has\n%s", got, want)
	}
}

// Several files imported at once are merged; the palette offers the classes of the open
// file's category unless asked for all, and files that are not AINB are passed over. (The
// folder input takes the same path, importFiles, but DevTools cannot give a directory input
// files, so it is not driven here.)
func TestCatalogueCategoryFilter(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/minimal_v407.ainb")) // category AI
	paths := []string{corpusFile(t, "synthetic/transitions_v407.ainb"), corpusFile(t, "synthetic/params_v408.ainb"), corpusFile(t, "synthetic/params_v408.json")}
	if err := chromedp.Do(p.ctx, chromedp.SetUploadFiles(chromedp.CSS("#catalogue-files"), paths)); err != nil {
		t.Fatal(err)
	}
	p.waitFor(`ainbEditor.status().startsWith("Learned node classes from")`)
	// New: StepIdle, StepWalk, StepRun, PulseTransition, StateEnd (Sequence); Sequential and
	// the four Synthetic classes (AI). Known besides: the open file's OneShotDoNothing.
	if got := eval[string](p, `ainbEditor.status()`); got != "Learned node classes from 2 files: 10 new, 11 known" {
		t.Errorf("status: %q", got)
	}
	p.openPalette()
	p.do(chromedp.SendKeys(`.palette-input`, "Step"))
	if got := paletteClasses(p); len(got) != 0 {
		t.Errorf("in an AI file the palette offers the Sequence classes %q", got)
	}
	p.do(chromedp.Click(`[data-key="palette.allCategories"]`))
	if got := strings.Join(paletteClasses(p), " "); got != "StepIdle StepRun StepWalk" {
		t.Errorf("with all categories the palette offers %q", got)
	}
}
