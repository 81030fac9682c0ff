package static_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/chromedp/chromedp"
)

// nodeXY is where node id is in the world.
func nodeXY(p *page, id int) [2]float64 {
	p.t.Helper()
	return eval[[2]float64](p, fmt.Sprintf(`(() => { const n = `+nodeJS+`; return [n.x, n.y]; })()`, id))
}

// Zoomed out below 42 %, where titles are unreadable, a drag that starts on a node not
// selected pans and moves no node; a click selects it, and a drag from the selected node then
// moves it. At 100 % a drag on a node moves it as before. The help says so.
func TestLowZoomDragPans(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	id := eval[int](p, `ainbEditor.document().nodes[3].id`)
	at := nodeXY(p, id)
	const zoom = 0.3
	p.run(fmt.Sprintf(`ainbEditor.setView({x: %v, y: %v, zoom: %v, selection: []})`, at[0]+130, at[1]+15, zoom))
	if sel := eval[[]int](p, `ainbEditor.selection()`); len(sel) != 0 {
		t.Fatalf("selection %v before the drag", sel)
	}
	from := p.screenOf(id, -1, "")
	v0 := eval[map[string]float64](p, `ainbEditor.view()`)
	p.drag(from, point{from.X + 120, from.Y + 60})
	if got := nodeXY(p, id); got != at {
		t.Errorf("a drag at zoom %v moved node %d from %v to %v", zoom, id, at, got)
	}
	v1 := eval[map[string]float64](p, `ainbEditor.view()`)
	if dx, dy := v0["x"]-v1["x"], v0["y"]-v1["y"]; math.Abs(dx-120/zoom) > 1e-6 || math.Abs(dy-60/zoom) > 1e-6 {
		t.Errorf("the view panned by (%v, %v) world units, want (%v, %v)", dx, dy, 120/zoom, 60/zoom)
	}
	if sel := eval[[]int](p, `ainbEditor.selection()`); len(sel) != 0 {
		t.Errorf("a pan selected %v", sel)
	}
	if n := eval[int](p, `ainbEditor.history().undo.length`); n != 0 {
		t.Errorf("%d undo steps after a pan", n)
	}

	// A click selects the node; a drag from it, selected, moves it.
	from = p.screenOf(id, -1, "")
	p.click(from)
	if sel := eval[[]int](p, `ainbEditor.selection()`); len(sel) != 1 || sel[0] != id {
		t.Fatalf("a click at zoom %v selected %v, want [%d]", zoom, sel, id)
	}
	p.drag(from, point{from.X + 30, from.Y + 15})
	if got := nodeXY(p, id); got != [2]float64{at[0] + 100, at[1] + 50} {
		t.Errorf("dragging the selected node by (30, 15) px at zoom %v moved it to %v, want %v", zoom, got, [2]float64{at[0] + 100, at[1] + 50})
	}

	// At 100 % a drag on a node not selected moves it.
	other := eval[int](p, `ainbEditor.document().nodes[5].id`)
	o := nodeXY(p, other)
	p.run(fmt.Sprintf(`ainbEditor.setView({x: %v, y: %v, zoom: 1, selection: []})`, o[0]+130, o[1]+15))
	from = p.screenOf(other, -1, "")
	p.drag(from, point{from.X + 40, from.Y + 20})
	if got := nodeXY(p, other); got != [2]float64{o[0] + 40, o[1] + 20} {
		t.Errorf("a drag at 100%% moved node %d from %v to %v, want %v", other, o, got, [2]float64{o[0] + 40, o[1] + 20})
	}

	p.do(chromedp.Click(`[data-action="help"]`), chromedp.WaitVisible(chromedp.CSS(`.overlay.help`)))
	if got := eval[string](p, `[...document.querySelectorAll(".overlay.help tr")].map((r) => r.textContent).find((t) => t.startsWith("Drag a node")) || ""`); got != "Drag a nodeMove the selection (zoomed out below 42%: click a node, then drag it)" {
		t.Errorf("the help's row for dragging a node: %q", got)
	}
}
