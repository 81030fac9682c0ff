package static_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Browser tests of the ways to give a node a new child: the + handle on its header (drag to
// empty space or onto a node, or click), the child picker, the context menus of plugs and
// the inspector's New… button. Each checks the exact document after the edit and that one
// undo gives back the document as it was.

// onCanvas fails the test unless the screen point is on the canvas itself, not under a
// panel, the legend or a toast.
func (p *page) onCanvas(at point, what string) {
	p.t.Helper()
	if !eval[bool](p, fmt.Sprintf(`document.elementFromPoint(%v, %v) === document.getElementById("graph")`, at.X, at.Y)) {
		p.t.Fatalf("%s (%v, %v) is not on the canvas", what, at.X, at.Y)
	}
}

// childrenJS is the JSON of node id's children.
func childrenJS(id int) string {
	return fmt.Sprintf(`JSON.stringify((`+nodeJS+`).children ?? null)`, id)
}

// menuActions lists the actions of the open context menu.
func menuActions(p *page) string {
	return strings.Join(eval[[]string](p, `[...document.querySelectorAll(".ctx-menu .ctx-item")].map((b) => b.dataset.action)`), " ")
}

// waitForClass waits until the open palette offers class c: the catalogue learns the open
// file's classes after its first frame, and an open palette then shows them.
func (p *page) waitForClass(c string) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf(`!!document.querySelector('.overlay.palette li[data-class=%q]')`, c))
}

func paletteTitle(p *page) string {
	return eval[string](p, `document.querySelector(".overlay.palette h2")?.textContent ?? ""`)
}

// undoOnce presses Ctrl+Z and fails unless the document is before again and nothing is
// left to undo.
func (p *page) undoOnce(before, what string) {
	p.t.Helper()
	p.key("z", chromedp.ModifierCtrl)
	if eval[string](p, docText) != before {
		p.t.Fatalf("one undo did not give back the document after %s", what)
	}
	if n := eval[int](p, `ainbEditor.history().undo.length`); n != 0 {
		p.t.Fatalf("%d steps left to undo after undoing %s", n, what)
	}
}

// The + handle on a node's header: it names itself on hover; dragged to empty space it
// offers the classes a child may be and adds the chosen one as a new child in one step;
// dragged onto a node it adds that node as a new child; onto the node itself or a query
// node it refuses with the reason. A query node has no handle.
func TestNewChildHandle(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/params_v407.ainb"))
	before := eval[string](p, docText)

	// Node 4 (SyntheticConsumer2) has no children; drag its handle to empty space.
	wx, wy := p.emptyNear(4, -1)
	handle := p.screenOf(4, -1, "branch")
	p.onCanvas(handle, "node 4's + handle")
	p.hover(handle)
	p.screenshot("ainb-new-child-handle")
	if tip := eval[string](p, `document.getElementById("graph").title`); !strings.HasPrefix(tip, "New child of #4: drag to empty space") {
		t.Errorf("the handle's tooltip: %q", tip)
	}
	p.drag(handle, p.screenAt(wx, wy))
	p.do(chromedp.WaitVisible(chromedp.CSS(`.overlay.palette`)))
	if got := paletteTitle(p); got != "Add a node as a new child of #4 SyntheticConsumer2" {
		t.Errorf("palette title %q", got)
	}
	p.waitForClass("SyntheticConsumer")
	got := paletteClasses(p)
	if contains(got, "SyntheticProducer") || contains(got, "SyntheticProducer2") || !contains(got, "SyntheticConsumer") || !contains(got, "Sequential") {
		t.Errorf("for a new child the palette offers %q (queries must not be offered)", got)
	}
	if eval[string](p, docText) != before {
		t.Fatal("opening the palette changed the document")
	}
	p.do(chromedp.Click(`.overlay.palette li[data-class="SyntheticConsumer"] button`))
	if got := eval[string](p, childrenJS(4)); got != `[{"node":5,"name":""}]` {
		t.Fatalf("node 4's children after adding a new child: %s", got)
	}
	n := eval[map[string]any](p, `ainbEditor.document().nodes.at(-1)`)
	if n["id"] != float64(5) || n["name"] != "SyntheticConsumer" || n["x"] != wx || n["y"] != wy-15 {
		t.Errorf("the new node: id %v class %v at (%v, %v); want #5 SyntheticConsumer at (%v, %v)", n["id"], n["name"], n["x"], n["y"], wx, wy-15)
	}
	if got := eval[int](p, `ainbEditor.document().nodes.length`); got != 6 {
		t.Errorf("%d nodes, want 6", got)
	}
	if h := eval[[]string](p, `ainbEditor.history().undo`); strings.Join(h, "|") != "Add SyntheticConsumer and link it" {
		t.Errorf("history %q", h)
	}
	if sel := eval[[]int](p, `ainbEditor.selection()`); len(sel) != 1 || sel[0] != 5 {
		t.Errorf("selection %v, want the new node", sel)
	}
	p.undoOnce(before, "a new child from the handle")

	// A click on the handle offers the same palette; Esc closes it and nothing changes.
	p.centre(4)
	p.click(p.screenOf(4, -1, "branch"))
	p.do(chromedp.WaitVisible(chromedp.CSS(`.overlay.palette`)))
	if got := paletteTitle(p); got != "Add a node as a new child of #4 SyntheticConsumer2" {
		t.Errorf("palette title after a click on the handle: %q", got)
	}
	p.key(kb.Escape)
	if eval[bool](p, `!!document.querySelector(".overlay.palette")`) || eval[string](p, docText) != before {
		t.Fatal("Esc did not close the palette unchanged")
	}

	// Dragged onto node 3 (its lowest rows, just above node 4): node 3 becomes child 0.
	p.run(`ainbEditor.setView({x: 700, y: 860, zoom: 1})`)
	handle = p.screenOf(4, -1, "branch")
	onto := p.screenAt(810, 850)
	p.onCanvas(handle, "node 4's + handle")
	p.onCanvas(onto, "node 3's last row")
	p.drag(handle, onto)
	if got := eval[string](p, childrenJS(4)); got != `[{"node":3,"name":""}]` {
		t.Fatalf("node 4's children after dropping its handle on node 3: %s (status %q)", got, eval[string](p, `ainbEditor.status()`))
	}
	if h := eval[[]string](p, `ainbEditor.history().undo`); strings.Join(h, "|") != "Add a child to #4" {
		t.Errorf("history %q", h)
	}
	if got := eval[string](p, `ainbEditor.status()`); got != "#3 added as child 0 of #4" {
		t.Errorf("status %q", got)
	}
	p.undoOnce(before, "a child added by dropping the handle on a node")

	// Refused: onto the node itself, and onto a query node (node 2), each with its reason.
	p.run(`ainbEditor.setView({x: 470, y: 600, zoom: 0.6})`)
	handle = p.screenOf(4, -1, "branch")
	p.onCanvas(handle, "node 4's + handle")
	p.drag(handle, p.screenOf(4, 0, "")) // its own first row
	if got := eval[string](p, `ainbEditor.lastRefusal()`); got != "a node cannot be its own child" {
		t.Errorf("dropping the handle on its own node: refusal %q", got)
	}
	onto = p.screenOf(2, -1, "")
	p.onCanvas(onto, "node 2's header")
	p.drag(handle, onto)
	if got := eval[string](p, `ainbEditor.lastRefusal()`); got != "#2 is a query node: others read it, it never runs as a child" {
		t.Errorf("dropping the handle on a query node: refusal %q", got)
	}
	if toast := eval[string](p, `[...document.querySelectorAll(".toast.error")].map((e) => e.textContent).join("|")`); !strings.Contains(toast, "Not connected: #2 is a query node") {
		t.Errorf("the refusal is not shown: toasts %q", toast)
	}
	if eval[string](p, docText) != before || eval[bool](p, `ainbEditor.dirty()`) {
		t.Fatal("a refused drop changed the document")
	}

	// A query node (node 1) has no handle: the header's right end is its header, and its
	// tooltip is not the handle's.
	p.centre(1)
	p.hover(p.screenOf(1, -1, "branch"))
	if tip := eval[string](p, `document.getElementById("graph").title`); strings.HasPrefix(tip, "New child") {
		t.Errorf("a query node's header offers a new child: %q", tip)
	}
	// Right-clicking the handle offers adding a child.
	p.centre(4)
	p.rightClick(p.screenOf(4, -1, "branch"))
	if got := menuActions(p); got != "add-child pick-child" {
		t.Errorf("the handle's menu: %q", got)
	}
	if got := eval[string](p, `document.querySelector(".ctx-head")?.textContent ?? ""`); got != "#4 SyntheticConsumer2 (new child)" {
		t.Errorf("the handle's menu head: %q", got)
	}
	p.key(kb.Escape)
	if eval[string](p, docText) != before {
		t.Fatal("the document is not as opened")
	}
}

// A selector's new child from the handle gets a condition, and the default branch stays
// last, as Add child does; one undo takes both back.
func TestNewChildHandleSelector(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/builtin_elements_v407.ainb"))
	before := eval[string](p, docText)
	const was = `[{"node":5,"name":"1","condition":{"int":1}},{"node":6,"name":"-5","condition":{"int":-5}},{"node":7,"name":"bb","condition":{"int":3,"blackboard":2}},{"node":8,"name":"Default","condition":{"int":0}}]`
	if got := eval[string](p, childrenJS(13)); got != was {
		t.Fatalf("S32Selector #13's children as opened: %s", got)
	}
	wx, wy := p.emptyNear(13, -1)
	handle := p.screenOf(13, -1, "branch")
	p.onCanvas(handle, "node 13's + handle")
	p.drag(handle, p.screenAt(wx, wy))
	p.do(chromedp.WaitVisible(chromedp.CSS(`.overlay.palette`)))
	if got := paletteTitle(p); got != "Add a node as a new child of #13 S32Selector" {
		t.Errorf("palette title %q", got)
	}
	p.waitForClass("Sequential")
	p.do(chromedp.Click(`.overlay.palette li[data-class="Sequential"] button`))
	want := `[{"node":5,"name":"1","condition":{"int":1}},{"node":6,"name":"-5","condition":{"int":-5}},{"node":7,"name":"bb","condition":{"int":3,"blackboard":2}},{"node":38,"name":"","condition":{"int":3}},{"node":8,"name":"Default","condition":{"int":0}}]`
	if got := eval[string](p, childrenJS(13)); got != want {
		t.Fatalf("S32Selector #13's children after a new child:\n%s\nwant\n%s", got, want)
	}
	if got := eval[string](p, `JSON.stringify(ainbEditor.document().nodes.at(-1).type)`); got != `"Sequential"` {
		t.Errorf("the new node is a %s", got)
	}
	// The file builds, with the new child among the selector's five.
	f := p.save()
	if got := len(f.Elements); got != 39 {
		t.Errorf("saved %d elements, want 39", got)
	}
	p.undoOnce(before, "a selector's new child")
}

// "Add a child: pick a node…" (context menu) and the inspector's Pick…: Esc cancels with
// nothing changed; a query node is refused and the picker stays; a node clicked becomes a
// new child in one step.
func TestChildPicker(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/params_v407.ainb"))
	before := eval[string](p, docText)

	p.centre(4)
	p.rightClick(p.screenOf(4, -1, ""))
	p.do(chromedp.Click(`.ctx-item[data-action="pick-child"]`))
	p.do(chromedp.WaitVisible(chromedp.CSS(`.picker-bar`)))
	if hint := eval[string](p, `document.querySelector(".picker-bar").textContent`); !strings.Contains(hint, "Click the node to add as a child of #4 SyntheticConsumer2 · Esc cancels") {
		t.Errorf("the picker's hint: %q", hint)
	}
	p.key(kb.Escape)
	if eval[bool](p, `!!document.querySelector(".picker-bar")`) || eval[string](p, docText) != before {
		t.Fatal("Esc did not leave the picker with nothing changed")
	}
	if got := eval[string](p, `ainbEditor.status()`); got != "Picking cancelled; nothing changed" {
		t.Errorf("status after Esc: %q", got)
	}

	// The inspector's Pick…; a query node is refused, node 3 is taken.
	p.selectNode(4)
	p.do(chromedp.Click(`[data-key="children.pick"]`))
	p.do(chromedp.WaitVisible(chromedp.CSS(`.picker-bar`)))
	p.centre(2)
	p.click(p.screenOf(2, -1, ""))
	if got := eval[string](p, `ainbEditor.status()`); got != "Not picked: #2 is a query node: others read it, it never runs as a child; click another node" {
		t.Errorf("picking a query node: status %q", got)
	}
	if !eval[bool](p, `!!document.querySelector(".picker-bar")`) || eval[string](p, docText) != before {
		t.Fatal("a refused pick closed the picker or changed the document")
	}
	p.centre(3)
	p.click(p.screenOf(3, -1, ""))
	if got := eval[string](p, childrenJS(4)); got != `[{"node":3,"name":""}]` {
		t.Fatalf("node 4's children after picking node 3: %s", got)
	}
	if eval[bool](p, `!!document.querySelector(".picker-bar")`) {
		t.Error("the picker stayed after a pick")
	}
	if got := eval[string](p, `ainbEditor.status()`); got != "#3 added as a child of #4 SyntheticConsumer2" {
		t.Errorf("status %q", got)
	}
	if h := eval[[]string](p, `ainbEditor.history().undo`); strings.Join(h, "|") != "Add a child to #4" {
		t.Errorf("history %q", h)
	}
	p.undoOnce(before, "a picked child")
}

// The context menus of an output plug and of a child plug list exactly their actions, and
// "New node reading it…" and "Child: pick a node…" do what they say.
func TestPlugContextMenus(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/params_v407.ainb"))
	before := eval[string](p, docText)

	// SyntheticProducer's float output.
	row := rowOf(p, 1, "out", "float", 0)
	out := itemIndex(p, 1, "outputs", "float", 0)
	name := eval[string](p, fmt.Sprintf(`(`+nodeJS+`).outputs[%d].name`, 1, out))
	p.run(fmt.Sprintf(`(() => { const n = `+nodeJS+`; ainbEditor.setView({x: n.x + 130, y: n.y + 30 + %d * 18, zoom: 1}); })()`, 1, row))
	at := p.screenOf(1, row, "out")
	p.onCanvas(at, "the float output")
	p.rightClick(at)
	if got := menuActions(p); got != "reader-new follow" {
		t.Fatalf("output menu: %q", got)
	}
	if got := eval[string](p, `document.querySelector(".ctx-head").textContent`); got != "#1."+name+" (float output)" {
		t.Errorf("output menu head: %q", got)
	}
	p.do(chromedp.Click(`.ctx-item[data-action="reader-new"]`))
	p.do(chromedp.WaitVisible(chromedp.CSS(`.overlay.palette`)))
	if got := paletteTitle(p); got != "Add a node reading #1."+name+" (float)" {
		t.Errorf("palette title %q", got)
	}
	p.waitForClass("SyntheticConsumer2")
	if got := strings.Join(paletteClasses(p), " "); got != "SyntheticConsumer SyntheticConsumer2" {
		t.Fatalf("for a float output the palette offers %q", got)
	}
	p.do(chromedp.Click(`.overlay.palette li[data-class="SyntheticConsumer2"] button`))
	fmulti := eval[string](p, `JSON.stringify(ainbEditor.document().nodes.at(-1).inputs.find((i) => i.name === "FMulti2"))`)
	if want := fmt.Sprintf(`{"name":"FMulti2","type":"float","value":1,"sources":[{"node":1,"output":%d}]}`, out); fmulti != want {
		t.Errorf("the new reader's float input: %s, want %s", fmulti, want)
	}
	if h := eval[[]string](p, `ainbEditor.history().undo`); strings.Join(h, "|") != "Add SyntheticConsumer2 and link it" {
		t.Errorf("history %q", h)
	}
	p.undoOnce(before, "a new reader from the output's menu")

	// Node 0's first child plug (→ #3): pick node 4 instead.
	p.run(`(() => { const n = ainbEditor.document().nodes[0]; ainbEditor.setView({x: n.x + 130, y: n.y + 39, zoom: 1}); })()`)
	at = p.screenOf(0, 0, "out")
	p.onCanvas(at, "node 0's first child plug")
	p.rightClick(at)
	if got := menuActions(p); got != "child-new child-pick follow remove-child" {
		t.Fatalf("child menu: %q", got)
	}
	if got := eval[string](p, `document.querySelector(".ctx-head").textContent`); got != "#0.child 0 (child)" {
		t.Errorf("child menu head: %q", got)
	}
	p.do(chromedp.Click(`.ctx-item[data-action="child-pick"]`))
	p.do(chromedp.WaitVisible(chromedp.CSS(`.picker-bar`)))
	if hint := eval[string](p, `document.querySelector(".picker-bar").textContent`); !strings.Contains(hint, "Click the node #0.child 0 should run") {
		t.Errorf("the picker's hint: %q", hint)
	}
	p.centre(4)
	p.click(p.screenOf(4, -1, ""))
	if got := eval[string](p, childrenJS(0)); got != `[{"node":4,"name":""},{"node":4,"name":""}]` {
		t.Fatalf("node 0's children after pointing child 0 at #4: %s", got)
	}
	if h := eval[[]string](p, `ainbEditor.history().undo`); strings.Join(h, "|") != "Child 0 of #0 → #4" {
		t.Errorf("history %q", h)
	}
	p.undoOnce(before, "a child pointed at a picked node")
}

// The inspector's New… opens the palette of the classes a child may be and adds the one
// chosen as a new child in one step; a query node's inspector offers no way to add one.
func TestInspectorNewChild(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/params_v407.ainb"))
	before := eval[string](p, docText)

	p.selectNode(4)
	p.do(chromedp.Click(`[data-key="children.new"]`))
	p.do(chromedp.WaitVisible(chromedp.CSS(`.overlay.palette`)))
	if got := paletteTitle(p); got != "Add a node as a new child of #4 SyntheticConsumer2" {
		t.Errorf("palette title %q", got)
	}
	p.waitForClass("SyntheticConsumer2")
	if got := paletteClasses(p); contains(got, "SyntheticProducer") || !contains(got, "SyntheticConsumer2") {
		t.Errorf("for a new child the palette offers %q", got)
	}
	p.do(chromedp.Click(`.overlay.palette li[data-class="SyntheticConsumer2"] button`))
	if got := eval[string](p, childrenJS(4)); got != `[{"node":5,"name":""}]` {
		t.Fatalf("node 4's children after New…: %s", got)
	}
	if got := eval[string](p, `ainbEditor.document().nodes.at(-1).name`); got != "SyntheticConsumer2" {
		t.Errorf("the new node is a %s", got)
	}
	if h := eval[[]string](p, `ainbEditor.history().undo`); strings.Join(h, "|") != "Add SyntheticConsumer2 and link it" {
		t.Errorf("history %q", h)
	}
	if got := eval[string](p, `ainbEditor.status()`); got != "Added SyntheticConsumer2 as #5 and linked it to #4 SyntheticConsumer2" {
		t.Errorf("status %q", got)
	}
	p.undoOnce(before, "a child from the inspector's New…")

	p.selectNode(1)
	if n := eval[int](p, `document.querySelectorAll('[data-key="children.new"], [data-key="children.pick"], [data-key="children.add"]').length`); n != 0 {
		t.Errorf("a query node's inspector offers %d ways to add a child", n)
	}
}
