package static_test

import (
	"fmt"
	"strconv"
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

// serverLayoutJS asks the server for the layout of the document text %s with the query %s
// (the editor's own aspect added), as Tidy does, and returns the boxes it would give.
const serverLayoutJS = `import("/static/metrics.js").then(async (m) => {
  const c = document.getElementById("graph");
  const q = new URLSearchParams(%s);
  q.set("aspect", (c.clientWidth / c.clientHeight).toFixed(3));
  const res = await fetch("/api/layout?" + q, {method: "POST", headers: {"Content-Type": "application/json"}, body: %s});
  const body = await res.json();
  const doc = JSON.parse(%[2]s);
  return body.positions.map((p, i) => ({x: p.x, y: p.y, w: m.NODE_WIDTH, h: m.nodeHeight(doc.nodes[i]), pinned: p.pinned}));
})`

// Tidy lays out the nodes that are not pinned around the pinned ones: a node added from
// the palette lands where it overlaps nothing; a node dragged on top of another (pinned)
// stays, and the rest move off it; the result is the server's layout, applied as one
// undoable edit, and it never says "Already tidy" while nodes overlap. Shift+L lays out
// everything, pins included.
func TestTidy(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	n := len(eval[[]box](p, positionsJS))
	const dragged = 7
	// The node nearest to the one to drag, which it is dropped on.
	other := eval[int](p, fmt.Sprintf(`(() => { const a = `+nodeJS+`; let best = -1, d = Infinity;
		for (const q of ainbEditor.document().nodes) { const e = Math.hypot(q.x - a.x, q.y - a.y); if (q.id !== a.id && e < d) { d = e; best = q.id; } }
		return best; })()`, dragged))

	// Look at the node to drag and add a node there: it lands clear of everything.
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
	if o := eval[string](p, overlapJS); o != "" {
		t.Errorf("after adding a node %s overlap", o)
	}

	// Drag the node onto its neighbour: that pins it, overlapping.
	from := p.screenOf(dragged, -1, "")
	onto := p.screenOf(other, -1, "")
	p.drag(from, point{onto.X + 10, onto.Y + 10})
	pos = eval[[]box](p, positionsJS)
	moved := pos[dragged]
	if !moved.pinned() || eval[string](p, overlapJS) == "" {
		t.Fatalf("dragging node %d onto %d: %+v, want pinned and overlapping", dragged, other, moved)
	}
	beforeTidy := eval[string](p, positionsText)
	docBefore := eval[string](p, `JSON.stringify(ainbEditor.document())`)
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
	if o := eval[string](p, overlapJS); o != "" {
		t.Errorf("after Tidy %s overlap", o)
	}
	if s := eval[string](p, `ainbEditor.status()`); strings.Contains(s, "Already tidy") {
		t.Errorf("Tidy said %q", s)
	}
	want := eval[[]box](p, fmt.Sprintf(serverLayoutJS, "{}", strconv.Quote(docBefore)))
	for i := range after {
		if a, b := after[i], want[i]; a.X != b.X || a.Y != b.Y || a.pinned() != b.pinned() {
			t.Errorf("node %d after Tidy at %+v, the server's layout says %+v", i, a, b)
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

	// Shift+L lays out everything: the pinned node loses its pin, and keeps its place on the
	// screen (the view follows it).
	screenBefore = p.screenOf(dragged, -1, "")
	docBefore = eval[string](p, `JSON.stringify(ainbEditor.document())`)
	p.key("L", chromedp.ModifierShift)
	p.waitFor(`ainbEditor.history().undo.at(-1) === "Tidy all" && !document.querySelector('[data-action="tidy"]').disabled`)
	all := eval[[]box](p, positionsJS)
	want = eval[[]box](p, fmt.Sprintf(serverLayoutJS, `{reset: "1"}`, strconv.Quote(docBefore)))
	for i := range all {
		if a, b := all[i], want[i]; a.X != b.X || a.Y != b.Y || a.pinned() || b.pinned() {
			t.Errorf("node %d after Tidy all at %+v, the server's reset layout says %+v", i, a, b)
		}
	}
	if o := eval[string](p, overlapJS); o != "" {
		t.Errorf("after Tidy all %s overlap", o)
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
