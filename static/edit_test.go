package static_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A 422 from the build lists its problems; clicking one selects the node it names.
func TestBuildProblemsSelectNode(t *testing.T) {
	p := newBrowser(t)
	p.allowed = append(p.allowed, "status of 422")
	p.open(corpusFile(t, "synthetic/params_v407.ainb"))
	// Node 0 is no query node, so a node may not read it as one.
	p.run(`ainbEditor.document().nodes[3].queries = [0]`)
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	p.waitFor(`ainbEditor.problems().length > 0`)
	probs := eval[[]map[string]any](p, `ainbEditor.problems()`)
	if probs[0]["node"] != float64(3) || !strings.Contains(probs[0]["message"].(string), "not a query node") {
		t.Fatalf("problems %v", probs)
	}
	if p.app.buildCount() != 0 {
		t.Fatal("an invalid document was built")
	}
	p.screenshot("ainb-problems")
	p.do(chromedp.Click(chromedp.CSS(`.problem`)))
	if sel := eval[[]int](p, `ainbEditor.selection()`); len(sel) != 1 || sel[0] != 3 {
		t.Fatalf("clicking the problem selected %v, want [3]", sel)
	}
}

// Search finds nodes by parameter names and values, and Enter steps through the hits.
func TestSearch(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	p.do(chromedp.Click(chromedp.CSS(`[data-tab="search"]`)))
	p.do(chromedp.SendKeys(chromedp.CSS(`.search-input`), "task1\r"))
	p.waitFor(`document.querySelector(".search-count").textContent.startsWith("1 /")`)
	first := eval[[]int](p, `ainbEditor.selection()`)
	p.do(chromedp.SendKeys(chromedp.CSS(`.search-input`), "\r"))
	p.waitFor(`document.querySelector(".search-count").textContent.startsWith("2 /")`)
	second := eval[[]int](p, `ainbEditor.selection()`)
	if len(first) != 1 || len(second) != 1 || first[0] == second[0] {
		t.Fatalf("stepping through hits selected %v then %v", first, second)
	}
	if n := eval[int](p, `document.querySelectorAll(".results .item").length`); n != 10 {
		t.Errorf("%d results for task1, want Task10..Task19", n)
	}
}

// Adding from the palette, duplicating and deleting are undoable, and undo restores the
// document exactly, references included.
func TestStructuralEdits(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	orig := eval[string](p, docText)
	count := func() int { return eval[int](p, `ainbEditor.document().nodes.length`) }

	p.do(chromedp.Click(chromedp.CSS(`[data-action="add"]`)))
	p.do(chromedp.WaitVisible(chromedp.CSS(`.palette-input`)))
	p.do(chromedp.SendKeys(chromedp.CSS(`.palette-input`), "Task05\r"))
	if n := count(); n != 30 {
		t.Fatalf("%d nodes after adding one, want 30; status %q, palette %q", n, eval[string](p, `ainbEditor.status()`), eval[string](p, `document.querySelector(".palette-list")?.textContent ?? "closed"`))
	}
	if sel := eval[[]int](p, `ainbEditor.selection()`); len(sel) != 1 || sel[0] != 29 {
		t.Fatalf("the new node is not selected: %v", sel)
	}
	if att := eval[bool](p, `"attachments" in ainbEditor.document().nodes[29]`); att {
		t.Error("a node from the palette kept its model's attachments")
	}
	p.key("d", chromedp.ModifierCtrl)
	if n := count(); n != 31 {
		t.Fatalf("%d nodes after duplicating, want 31", n)
	}
	p.key(kb.Delete)
	if n := count(); n != 30 {
		t.Fatalf("%d nodes after deleting the copy, want 30", n)
	}
	// Deleting a node others point at drops the links to it; no other node is renumbered.
	p.run(`ainbEditor.setView({x: 800, y: 200, zoom: 0.5})`)
	p.run(`document.getElementById("graph").focus()`)
	// Node 6 roots a command: deleting it is refused with a reason.
	p.click(p.screenOf(6, -1, ""))
	p.key(kb.Delete)
	if n := count(); n != 30 {
		t.Fatalf("deleted a command's root: %d nodes", n)
	}
	p.click(p.screenOf(7, -1, ""))
	p.key(kb.Delete)
	if n := count(); n != 29 {
		t.Fatalf("%d nodes after deleting node 7, want 29", n)
	}
	if eval[bool](p, `ainbEditor.document().nodes.some((n) => n.id === 7)`) {
		t.Fatal("node 7 is still there")
	}
	kids := eval[[]float64](p, `ainbEditor.document().nodes[0].children.map((c) => c.node)`)
	if dangling := eval[[]float64](p, `(() => { const ids = new Set(ainbEditor.document().nodes.map((n) => n.id)); return ainbEditor.document().nodes[0].children.map((c) => c.node).filter((k) => !ids.has(k)); })()`); len(dangling) != 0 {
		t.Fatalf("children lead to deleted nodes %v: %v", dangling, kids)
	}
	if len(kids) != 22 || kids[0] != 6 || kids[1] != 8 {
		t.Errorf("the root's children after deleting node 7: %v, want its child gone and node 8 still 8", kids)
	}
	for range 4 {
		p.key("z", chromedp.ModifierCtrl)
	}
	if got := eval[string](p, docText); got != orig {
		t.Fatal("undoing every edit did not restore the document exactly")
	}
	if eval[bool](p, `ainbEditor.dirty()`) {
		t.Error("dirty after undoing everything")
	}
	p.key("?")
	p.do(chromedp.WaitVisible(chromedp.CSS(`.overlay.help`)))
	p.screenshot("ainb-help")
}
