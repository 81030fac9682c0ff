package static_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

type box struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	W      float64 `json:"w"`
	H      float64 `json:"h"`
	Pinned *bool   `json:"pinned"`
}

func (b box) pinned() bool { return b.Pinned != nil && *b.Pinned }

func (b box) overlaps(c box) bool {
	return b.X < c.X+c.W && c.X < b.X+b.W && b.Y < c.Y+c.H && c.Y < b.Y+b.H
}

// positionsJS is every node's box: its place and pin from the document, its size from the
// metrics.
const positionsJS = `import("/static/metrics.js").then((m) => ainbEditor.document().nodes.map((n) => ({x: n.x, y: n.y, w: m.NODE_WIDTH, h: m.nodeHeight(n), pinned: n.pinned})))`

// positionsText is the nodes as the document holds them, keys and all, to compare undo and
// redo exactly.
const positionsText = `JSON.stringify(ainbEditor.document().nodes)`

// Tidy lays out the nodes that are not pinned: a node added from the palette (not pinned)
// moves off the nodes it landed on, a dragged node (pinned) stays, and the rest go back to
// the server's layout. It is one undoable edit; Shift+L lays out everything, pins included.
func TestTidy(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	initial := eval[[]box](p, positionsJS)
	n := len(initial)
	const dragged = 7

	// Look at the node to drag, so the palette adds the new node right on top of it.
	p.run(fmt.Sprintf(`(() => { const q = `+nodeJS+`; ainbEditor.setView({x: q.x + 130, y: q.y + 100, zoom: 0.5}); })()`, dragged))
	p.do(chromedp.Click(chromedp.CSS(`[data-action="add"]`)))
	p.do(chromedp.WaitVisible(chromedp.CSS(`.palette-input`)))
	p.do(chromedp.SendKeys(chromedp.CSS(`.palette-input`), "Task05\r"))
	added := n
	if got := eval[int](p, `ainbEditor.document().nodes.length`); got != n+1 {
		t.Fatalf("%d positions after adding a node, want %d", got, n+1)
	}
	pos := eval[[]box](p, positionsJS)
	if pos[added].pinned() {
		t.Error("a node added from the palette is pinned; Tidy would not place it")
	}
	overlapping := false
	for i := range n {
		overlapping = overlapping || pos[added].overlaps(pos[i])
	}
	if !overlapping {
		t.Fatalf("the added node %v overlaps nothing; the test needs it to", pos[added])
	}

	// Drag the node up and left a little: that pins it.
	from := p.screenOf(dragged, -1, "")
	p.drag(from, point{from.X - 40, from.Y - 30})
	pos = eval[[]box](p, positionsJS)
	moved := pos[dragged]
	if moved.X == initial[dragged].X && moved.Y == initial[dragged].Y || !moved.pinned() {
		t.Fatalf("dragging node %d: %+v (was %+v), want moved and pinned", dragged, moved, initial[dragged])
	}
	beforeTidy := eval[string](p, positionsText)
	screenBefore := p.screenOf(dragged, -1, "")

	// The button is disabled while the request runs.
	if !eval[bool](p, `(() => { const b = document.querySelector('[data-action="tidy"]'); b.click(); return b.disabled; })()`) {
		t.Error("the Tidy button is not disabled while the layout request runs")
	}
	p.waitFor(`ainbEditor.history().undo.at(-1) === "Tidy" && !document.querySelector('[data-action="tidy"]').disabled`)
	after := eval[[]box](p, positionsJS)
	if got := after[dragged]; got.X != moved.X || got.Y != moved.Y || !got.pinned() {
		t.Errorf("the pinned node moved or lost its pin: %+v, want %+v", got, moved)
	}
	if after[added].X == pos[added].X && after[added].Y == pos[added].Y {
		t.Errorf("the added node stayed at %+v", pos[added])
	}
	for i := range n {
		if after[added].overlaps(after[i]) {
			t.Errorf("the added node %+v overlaps node %d %+v after Tidy", after[added], i, after[i])
		}
		if i == dragged {
			continue
		}
		if a, b := after[i], initial[i]; a.X != b.X || a.Y != b.Y || a.W != b.W || a.H != b.H || a.pinned() {
			t.Errorf("node %d after Tidy at %+v, want the first layout's %+v", i, a, b)
		}
	}
	// The selected node keeps its place on the screen.
	if s := p.screenOf(dragged, -1, ""); s != screenBefore {
		t.Errorf("the selected node moved on the screen from %v to %v", screenBefore, s)
	}
	afterTidy := eval[string](p, positionsText)

	p.key("z", chromedp.ModifierCtrl)
	if got := eval[string](p, positionsText); got != beforeTidy {
		t.Errorf("undo did not restore the positions exactly:\n%s\nwant\n%s", got, beforeTidy)
	}
	p.key("z", chromedp.ModifierCtrl, chromedp.ModifierShift)
	if got := eval[string](p, positionsText); got != afterTidy {
		t.Errorf("redo did not re-apply Tidy:\n%s\nwant\n%s", got, afterTidy)
	}

	// Shift+L lays out everything: the pinned node goes back and loses its pin, and keeps
	// its place on the screen (the view follows it).
	screenBefore = p.screenOf(dragged, -1, "")
	p.key("L", chromedp.ModifierShift)
	p.waitFor(`ainbEditor.history().undo.at(-1) === "Tidy all" && !document.querySelector('[data-action="tidy"]').disabled`)
	all := eval[[]box](p, positionsJS)
	for i := range n {
		if a, b := all[i], initial[i]; a.X != b.X || a.Y != b.Y || a.W != b.W || a.H != b.H || a.pinned() {
			t.Errorf("node %d after Tidy all at %+v, want the first layout's %+v", i, a, b)
		}
	}
	if a, b := all[added], after[added]; a.X != b.X || a.Y != b.Y || a.pinned() {
		t.Errorf("the added node after Tidy all at %+v, want %+v", a, b)
	}
	if s := p.screenOf(dragged, -1, ""); s != screenBefore {
		t.Errorf("the selected node moved on the screen from %v to %v", screenBefore, s)
	}
	if undo := eval[[]string](p, `ainbEditor.history().undo`); len(undo) != 4 {
		t.Errorf("history %q, want add, move, Tidy, Tidy all", undo)
	}
	time.Sleep(50 * time.Millisecond)
	p.screenshot("ainb-tidy")
}

// A layout the server refuses leaves the document alone, says why in a toast and in the
// problems list, and gives the button back.
func TestTidyError(t *testing.T) {
	p := newBrowser(t)
	p.allowed = append(p.allowed, "status of 400", "status of 422")
	p.open(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	// A string where the decoder wants a number: no document, whatever the layout needs.
	p.run(`ainbEditor.document().nodes[0].x = "left"`)
	before := eval[string](p, positionsText)
	p.key("l")
	p.waitFor(`ainbEditor.problems().length > 0 && !document.querySelector('[data-action="tidy"]').disabled`)
	toast := eval[string](p, `[...document.querySelectorAll(".toast.error")].map((t) => t.textContent).join("\n")`)
	if !strings.Contains(toast, "Could not tidy: ") || !strings.Contains(toast, "nodes[0].x") {
		t.Errorf("toast %q, want the server's message", toast)
	}
	if got := eval[string](p, positionsText); got != before {
		t.Error("a failed Tidy changed the positions")
	}
	if undo := eval[[]string](p, `ainbEditor.history().undo`); len(undo) != 0 {
		t.Errorf("a failed Tidy left history %q", undo)
	}
}
