package static_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// canvasFill is how much of the canvas the whole graph covers after "fit all", across and
// down, from the grid's bounds and the view.
const canvasFillJS = `import("/static/metrics.js").then((m) => {
  const v = ainbEditor.view(), c = document.getElementById("graph").getBoundingClientRect();
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const n of ainbEditor.document().nodes) {
    x0 = Math.min(x0, n.x); y0 = Math.min(y0, n.y);
    x1 = Math.max(x1, n.x + m.NODE_WIDTH); y1 = Math.max(y1, n.y + m.nodeHeight(n));
  }
  return {x: (x1 - x0) * v.zoom / c.width, y: (y1 - y0) * v.zoom / c.height, zoom: v.zoom, aspect: c.width / c.height};
})`

type fill struct {
	X, Y, Zoom, Aspect float64
}

// Fit-all of the 7,130-node file fills at least half of the canvas both ways, as opened and
// after Tidy all (which aims at the canvas's own shape).
func TestFitAllFillsCanvas(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, bigFile))
	p.run(`ainbEditor.fitAll()`)
	f := eval[fill](p, canvasFillJS)
	t.Logf("opened: fit-all fills %.0f%% x %.0f%% of a %.2f canvas at zoom %.4f", f.X*100, f.Y*100, f.Aspect, f.Zoom)
	if f.X < 0.5 || f.Y < 0.5 {
		t.Errorf("fit-all fills %.2f x %.2f of the canvas, want at least half both ways", f.X, f.Y)
	}
	p.key("L", chromedp.ModifierShift)
	p.waitFor(`ainbEditor.history().undo.at(-1) === "Tidy all" && !document.querySelector('[data-action="tidy"]').disabled`)
	p.run(`ainbEditor.fitAll()`)
	f = eval[fill](p, canvasFillJS)
	t.Logf("tidied: fit-all fills %.0f%% x %.0f%% of a %.2f canvas at zoom %.4f", f.X*100, f.Y*100, f.Aspect, f.Zoom)
	if f.X < 0.85 || f.Y < 0.85 {
		t.Errorf("after Tidy all fit-all fills %.2f x %.2f of the canvas, want at least 0.85 both ways", f.X, f.Y)
	}
	p.screenshot("ainb-big-fit")
}

// overlapJS names the first two nodes whose boxes overlap, or "" when none do: a sweep over
// the boxes in order of their left edge.
const overlapJS = `import("/static/metrics.js").then((m) => {
  const ns = ainbEditor.document().nodes;
  const b = ns.map((n, i) => [n.x, n.y, n.x + m.NODE_WIDTH, n.y + m.nodeHeight(n), i]).sort((p, q) => p[0] - q[0]);
  for (let a = 0; a < b.length; a++) {
    for (let c = a + 1; c < b.length && b[c][0] < b[a][2]; c++) {
      if (b[c][1] < b[a][3] && b[a][1] < b[c][3]) return "#" + ns[b[a][4]].id + " " + JSON.stringify(b[a].slice(0, 4)) + " and #" + ns[b[c][4]].id + " " + JSON.stringify(b[c].slice(0, 4));
    }
  }
  return "";
})`

// drawn runs a script and waits until the canvas has drawn a frame after it.
func (p *page) drawn(js string) {
	p.t.Helper()
	before := eval[int](p, `ainbEditor.frame().frames`)
	p.run(js)
	p.waitFor(fmt.Sprintf(`ainbEditor.frame().frames > %d`, before))
}

// Below 42 % zoom the nodes' own text is not drawn; screen-size labels take over, and they
// never overlap one another. The current search hit gets its label first, however far out.
func TestLabelsAtLowZoom(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, bigFile))
	p.drawn(`ainbEditor.fitAll()`)
	f := eval[struct{ Labels, Visible int }](p, `ainbEditor.frame()`)
	t.Logf("fit-all: %d labels over %d nodes", f.Labels, f.Visible)
	if f.Labels < 20 || f.Visible != 7130 {
		t.Errorf("fit-all of the big file: %d labels over %d nodes, want at least 20 over all 7130", f.Labels, f.Visible)
	}
	for _, z := range []float64{0.05, 0.2, 0.4} {
		p.drawn(fmt.Sprintf(`(() => { const n = ainbEditor.document().nodes[3565]; ainbEditor.setView({x: n.x, y: n.y, zoom: %g}); })()`, z))
		f := eval[struct{ Labels, Visible int }](p, `ainbEditor.frame()`)
		t.Logf("zoom %g: %d labels over %d nodes", z, f.Labels, f.Visible)
		if f.Labels == 0 || f.Labels > f.Visible {
			t.Errorf("zoom %g: %d labels over %d nodes", z, f.Labels, f.Visible)
		}
	}
	// At 0.4 every node of this file has room for its label: a column of nodes 260 wide
	// and at least 38 high is 104 x 15 pixels at least.
	if f := eval[struct{ Labels, Visible int }](p, `ainbEditor.frame()`); f.Labels < f.Visible*9/10 {
		t.Errorf("zoom 0.4: %d labels for %d nodes, want nearly all", f.Labels, f.Visible)
	}
	p.screenshot("ainb-labels-04")
	// The search hit, far out: its label is drawn first, in the hit's colour.
	p.key("f", chromedp.ModifierCtrl)
	// A class name that only one node has.
	name := eval[string](p, `(() => { const c = new Map(); for (const n of ainbEditor.document().nodes) c.set(n.name, (c.get(n.name) || 0) + 1); return ainbEditor.document().nodes.find((n, i) => i > 3000 && n.name && c.get(n.name) === 1).name; })()`)
	p.do(chromedp.SendKeys(chromedp.CSS(`.search-input`), name+"\r"))
	want := eval[int](p, fmt.Sprintf(`ainbEditor.document().nodes.find((n) => n.name === %q).id`, name))
	p.run(`ainbEditor.fitAll()`)
	p.waitFor(fmt.Sprintf(`ainbEditor.frame().hitLabel === %d`, want))
	p.screenshot("ainb-labels-hit")
}

// hover moves the mouse to a point without pressing.
func (p *page) hover(at point) {
	p.t.Helper()
	p.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, at.X, at.Y))
}

// A node's whole title is the canvas's tooltip over its header at any zoom, whether the
// header shows it cut or not; a plug name cut to fit its row shows whole over that row,
// and a row that shows all its text has the node's title.
func TestTooltipNodeTitle(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, bigFile))
	// A node whose class name is too long for its header, and one whose name fits.
	long := eval[int](p, `ainbEditor.document().nodes.find((n) => n.name.length > 34 && (n.inputs || []).some((i) => i.name.length > 24)).id`)
	short := eval[int](p, `ainbEditor.document().nodes.find((n) => n.name.length > 3 && n.name.length < 10).id`)
	p.drawn(fmt.Sprintf(`(() => { const n = `+nodeJS+`; ainbEditor.setView({x: n.x + 130, y: n.y + 60, zoom: 1}); })()`, long))
	p.hover(p.screenOf(long, -1, ""))
	want := eval[string](p, fmt.Sprintf(`(() => { const n = `+nodeJS+`; return n.name + " #" + n.id; })()`, long))
	p.waitFor(fmt.Sprintf(`document.getElementById("graph").title === %q`, want))

	// The first input with a long name: its row's tooltip holds the whole name.
	row := eval[int](p, fmt.Sprintf(`import("/static/metrics.js").then((m) => { const n = `+nodeJS+`; const k = n.inputs.findIndex((i) => i.name.length > 24); return m.rowCounts(n).ioStart + k; })`, long))
	name := eval[string](p, fmt.Sprintf(`(() => { const n = `+nodeJS+`; return n.inputs.find((i) => i.name.length > 24).name; })()`, long))
	at := p.screenOf(long, row, "in")
	p.hover(point{at.X + 30, at.Y})
	p.waitFor(fmt.Sprintf(`document.getElementById("graph").title.split("\n").includes(%q)`, name))

	p.drawn(fmt.Sprintf(`(() => { const n = `+nodeJS+`; ainbEditor.setView({x: n.x + 130, y: n.y + 60, zoom: 1}); })()`, short))
	p.hover(p.screenOf(short, -1, ""))
	shortTitle := eval[string](p, fmt.Sprintf(`(() => { const n = `+nodeJS+`; return n.name + " #" + n.id; })()`, short))
	p.waitFor(fmt.Sprintf(`document.getElementById("graph").title === %q`, shortTitle))
	// Empty space, far to the right of every node: no tooltip.
	p.drawn(`(() => { const xs = ainbEditor.document().nodes.map((n) => n.x); ainbEditor.setView({x: Math.max(...xs) + 5000, y: 0, zoom: 1}); })()`)
	mid := eval[point](p, `(() => { const r = document.getElementById("graph").getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`)
	p.hover(mid)
	p.waitFor(`document.getElementById("graph").title === ""`)

	p.drawn(fmt.Sprintf(`(() => { const n = `+nodeJS+`; ainbEditor.setView({x: n.x + 130, y: n.y + 15, zoom: 0.2}); })()`, short))
	at = p.screenOf(short, -1, "")
	p.hover(point{at.X + 1, at.Y + 1})
	want = eval[string](p, fmt.Sprintf(`(() => { const n = `+nodeJS+`; return n.name + " #" + n.id; })()`, short))
	p.waitFor(fmt.Sprintf(`document.getElementById("graph").title === %q`, want))
}

// The wheel zooms by default and pans once the toolbar says so; the choice survives a
// reload (localStorage; a new tab is a new page on the same storage).
func TestWheelSetting(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	p.drawn(`ainbEditor.setView({x: 500, y: 500, zoom: 1})`)
	c := p.canvasCenter()
	p.wheel(c, 0, 100, false)
	if v := eval[viewState](p, `ainbEditor.view()`); v.Zoom >= 1 || math.Abs(v.X-500) > 1 || math.Abs(v.Y-500) > 1 {
		t.Errorf("the wheel in zoom mode gave %+v, want zoomed out about the centre", v)
	}
	p.drawn(`ainbEditor.setView({x: 500, y: 500, zoom: 1})`)
	p.do(chromedp.SetValue(chromedp.CSS(`select[data-action="wheel"]`), "pan"))
	p.run(`document.querySelector('select[data-action="wheel"]').dispatchEvent(new Event("change"))`)
	p.wheel(c, 0, 100, false)
	if v := eval[viewState](p, `ainbEditor.view()`); v.Zoom != 1 || v.Y <= 500 {
		t.Errorf("the wheel in pan mode gave %+v, want panned down at zoom 1", v)
	}
	p.wheel(c, 0, 100, true)
	if v := eval[viewState](p, `ainbEditor.view()`); v.Zoom >= 1 {
		t.Errorf("ctrl+wheel in pan mode gave %+v, want zoomed out", v)
	}
	q := p.newTab("/")
	if m := eval[string](q, `document.querySelector('select[data-action="wheel"]').value + " " + localStorage.getItem("ainb.wheel")`); m != "pan pan" {
		t.Errorf("after a reload the setting is %q, want pan pan", m)
	}
}

// regionJS hashes the canvas pixels inside node %d's box (inset past its border), so two
// frames can be compared where that node is.
const regionJS = `(() => {
  const id = %d, c = document.getElementById("graph"), r = c.getBoundingClientRect();
  const hc = ainbEditor.screenOf(id, -1, ""), v = ainbEditor.view(), dpr = window.devicePixelRatio || 1;
  return import("/static/metrics.js").then((m) => {
    const n = ainbEditor.document().nodes.find((q) => q.id === id);
    const x = (hc.x - r.left - m.NODE_WIDTH * v.zoom / 2 + 5) * dpr, y = (hc.y - r.top - m.HEADER * v.zoom / 2 + 5) * dpr;
    const w = (m.NODE_WIDTH * v.zoom - 10) * dpr, h = (m.nodeHeight(n) * v.zoom - 10) * dpr;
    const d = c.getContext("2d").getImageData(Math.round(x), Math.round(y), Math.round(w), Math.round(h)).data;
    let hash = 2166136261;
    for (let k = 0; k < d.length; k++) hash = Math.imul(hash ^ d[k], 16777619) >>> 0;
    return hash;
  });
})()`

// A node dragged on top of another hides all of it: inside the top node's box the canvas
// is the same whether the other node lies under it or has been dragged away (before, the
// titles and rows of the node beneath were drawn over the top node's body).
func TestOverlapHidesText(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, bigFile))
	const below, top = 3565, 3566 // top is drawn later: it is later in the file
	p.drawn(fmt.Sprintf(`(() => { const n = `+nodeJS+`; ainbEditor.setView({x: n.x + 130, y: n.y + 100, zoom: 1}); })()`, below))
	from := p.screenOf(top, -1, "")
	to := p.screenOf(below, -1, "")
	p.drag(from, point{to.X + 20, to.Y + 20})
	p.hover(point{to.X + 400, to.Y + 300})
	p.drawn(`ainbEditor.setView(ainbEditor.view())`)
	over := eval[float64](p, fmt.Sprintf(regionJS, top))
	p.screenshot("ainb-overlap")
	// Drag the node beneath away by the strip of its header that the top one leaves bare.
	p.drag(point{to.X, to.Y - 8}, point{to.X + 700, to.Y - 8})
	p.hover(point{to.X + 400, to.Y + 300})
	p.drawn(`ainbEditor.setView(ainbEditor.view())`)
	if moved := eval[[]float64](p, fmt.Sprintf(`[`+nodeJS+`.x, `+nodeJS+`.x]`, below, top)); moved[0]-moved[1] < 600 {
		t.Fatalf("the node beneath did not move away: x %v", moved)
	}
	alone := eval[float64](p, fmt.Sprintf(regionJS, top))
	if over != alone {
		t.Errorf("inside the top node the canvas differs with a node under it (hash %v, alone %v): the node beneath shows through", over, alone)
	}
}
