package static_test

import (
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestEmbedIsReadOnly opens a share at /e/{id}, as a wiki page frames it: the graph is
// drawn, the toolbar is gone, a link opens the share in the editor, and edits tried by
// keyboard and mouse (delete, duplicate, drag) leave the document as it was.
func TestEmbedIsReadOnly(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	id := eval[string](p, `fetch("/api/shares", {method: "POST", headers: {"Content-Type": "application/json"},
		body: JSON.stringify({document: ainbEditor.document(), view: {command: 0, x: 800, y: 200, zoom: 0.5}})})
		.then((r) => r.json()).then((j) => j.id)`)

	q := p.newTab("/e/" + id)
	q.waitFor(`ainbEditor.loads() > 0 && ainbEditor.frame().frames > 0`)
	if !eval[bool](q, `ainbEditor.readOnly()`) {
		t.Fatal("the embed is not read-only")
	}
	if n := eval[int](q, `ainbEditor.frame().visible`); n == 0 {
		t.Fatal("the embed shows no node")
	}
	if d := eval[string](q, `getComputedStyle(document.querySelector(".toolbar")).display`); d != "none" {
		t.Errorf("toolbar display %q", d)
	}
	if href := eval[string](q, `document.querySelector("a.embed-open").getAttribute("href")`); href != "/s/"+id {
		t.Errorf("Open in editor links to %q", href)
	}
	orig := eval[string](q, `JSON.stringify(ainbEditor.document())`)

	q.click(q.screenOf(7, -1, ""))
	if sel := eval[[]int](q, `ainbEditor.selection()`); len(sel) != 1 || sel[0] != 7 {
		t.Fatalf("selection %v: selecting is not an edit and must work", sel)
	}
	q.key(kb.Delete)
	q.key("d", chromedp.ModifierCtrl)
	from := q.screenOf(7, -1, "")
	q.drag(from, point{from.X + 120, from.Y + 80})
	q.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 10, 10))

	if got := eval[string](q, `JSON.stringify(ainbEditor.document())`); got != orig {
		t.Errorf("the document changed in the embed (%d bytes, was %d)", len(got), len(orig))
	}
	if h := eval[map[string][]string](q, `ainbEditor.history()`); len(h["undo"]) != 0 || eval[bool](q, `ainbEditor.dirty()`) {
		t.Errorf("history %v, dirty %v", h, eval[bool](q, `ainbEditor.dirty()`))
	}
	// The node dragged is drawn back where it was.
	if at := q.screenOf(7, -1, ""); at != from {
		t.Errorf("node 7 drawn at %v after the refused drag, was at %v", at, from)
	}
}
