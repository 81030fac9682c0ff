package static_test

import (
	"fmt"
	"testing"
)

// Hostile numbers never hang the page: a link's fragment, a share's view and an autosaved
// document with positions of 1e18, 1e308 and beyond used to freeze the tab for good (the
// grid loop "x += 40" stopped moving x). Each source is clamped to ±1e9 and the page keeps
// drawing.
func TestHostileNumbersDoNotHang(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	drawn := func(p *page) {
		t.Helper()
		before := eval[int](p, `ainbEditor.frame().frames`)
		p.run(`ainbEditor.setView({zoom: 1})`) // asks for a frame at a zoom that draws the grid
		p.waitFor(fmt.Sprintf(`ainbEditor.frame().frames > %d`, before))
	}

	// A fragment typed into the address bar.
	p.run(`location.hash = "#cmd=0&x=1e18&y=-1e308&z=1"`)
	p.waitFor(`ainbEditor.view().x === 1e9`)
	if v := eval[viewState](p, `ainbEditor.view()`); v.X != 1e9 || v.Y != -1e9 || v.Zoom != 1 {
		t.Fatalf("view %+v after a fragment of x=1e18, y=-1e308", v)
	}
	drawn(p)

	// A share whose view says x=1e18 (the server keeps views as they are).
	id := eval[string](p, `fetch("/api/shares", {method: "POST", headers: {"Content-Type": "application/json"},
		body: JSON.stringify({document: ainbEditor.document(), view: {command: 0, x: 1e18, y: 1e18, zoom: 1e300}})})
		.then((r) => r.json()).then((j) => j.id)`)
	q := p.newTab("/s/" + id)
	q.waitFor(`ainbEditor.loads() > 0`)
	if v := eval[viewState](q, `ainbEditor.view()`); v.X != 1e9 || v.Y != 1e9 || v.Zoom != 4 {
		t.Fatalf("view %+v from a share of x=y=1e18, zoom=1e300", v)
	}
	drawn(q)

	// An autosave whose nodes sit at 1e308 and at Infinity (1e999 in JSON text).
	p.run(`(async () => {
		const d = ainbEditor.document();
		const text = JSON.stringify(d).replace(/"x":[-0-9.e]+/, '"x":1e308').replace(/"y":[-0-9.e]+/, '"y":-1e999');
		const store = await import("/static/store.js");
		await store.putDoc("current", {name: "hostile.ainb", text, dirty: false});
	})()`)
	r := p.newTab("/#cmd=0&x=1e18&y=1e18&z=0.7")
	r.waitFor(`ainbEditor.loads() > 0`)
	if pos := eval[[]float64](r, `[ainbEditor.document().nodes[0].x, ainbEditor.document().nodes[0].y]`); pos[0] != 1e9 || pos[1] != -1e9 {
		t.Fatalf("node 0 at %v after an autosave of (1e308, -Infinity)", pos)
	}
	if v := eval[viewState](r, `ainbEditor.view()`); v.X != 1e9 || v.Zoom != 0.7 {
		t.Fatalf("view %+v", v)
	}
	if s := eval[string](r, `[...document.querySelectorAll(".toast")].map((e) => e.textContent).join("|")`); s == "" {
		t.Errorf("no message about the moved node")
	}
	drawn(r)
}
