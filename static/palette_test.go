package static_test

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// After Import… in the palette, the first letter typed is the search's first letter: the
// file chooser hands the focus back to the button, and the search field takes it from there.
// A letter typed while the category checkbox has the focus goes to the search too, and the
// editor's one-letter keys do not act on it (F would fit the view, L tidy the graph).
func TestPaletteKeepsTypingAfterImport(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/params_v407.ainb"))
	p.openPalette()
	p.do(chromedp.Click(`.overlay.palette [data-action="catalogue-import"]`))
	p.importCatalogue(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	p.do(chromedp.KeyEvent("w"))
	if got := eval[string](p, `document.querySelector(".palette-input").value`); got != "w" {
		t.Fatalf("after Import…, typing w left the search %q, want \"w\"", got)
	}
	if !eval[bool](p, `document.activeElement === document.querySelector(".palette-input")`) {
		t.Errorf("the search field does not have the focus after typing")
	}

	// The checkbox clicked, then l typed: the search reads "wl" and nothing was tidied.
	if eval[int](p, `document.querySelectorAll(".overlay.palette input[type=checkbox]").length`) != 1 {
		t.Fatal("the palette of a file with a category has no category checkbox")
	}
	p.do(chromedp.Click(`.overlay.palette input[type=checkbox]`))
	before := eval[string](p, `JSON.stringify(ainbEditor.document().nodes.map((n) => [n.x, n.y]))`)
	p.do(chromedp.KeyEvent("l"))
	if got := eval[string](p, `document.querySelector(".palette-input").value`); got != "wl" {
		t.Errorf("typing l with the checkbox focused left the search %q, want \"wl\"", got)
	}
	if got := eval[string](p, `JSON.stringify(ainbEditor.document().nodes.map((n) => [n.x, n.y]))`); got != before || eval[int](p, `ainbEditor.history().undo.length`) != 0 {
		t.Errorf("typing l in the palette changed the document: %d undo steps", eval[int](p, `ainbEditor.history().undo.length`))
	}
	if eval[int](p, `document.querySelectorAll(".overlay.palette").length`) != 1 {
		t.Errorf("the palette closed while typing")
	}
}

// The palette and the status bar count classes alike: after an import the status's "N
// classes known" is the palette's count with nothing filtered, and a search says how many of
// those N it leaves.
func TestPaletteCountsAsStatus(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/minimal_v407.ainb")) // OneShotDoNothing, category AI
	p.importCatalogue(corpusFile(t, "synthetic/params_v407.ainb"))
	status := eval[string](p, `ainbEditor.status()`)
	if status != "Learned node classes from 1 file: 4 new, 31 classes known" {
		t.Fatalf("status after the import: %q", status)
	}
	p.openPalette()
	if got := eval[string](p, `document.querySelector(".palette-count").textContent`); got != "31 classes" {
		t.Errorf("the palette counts %q where the status bar says %q", got, status)
	}
	p.do(chromedp.SendKeys(`.palette-input`, "Synthetic"))
	p.waitFor(`document.querySelectorAll(".overlay.palette li.item").length === 4`)
	if got := eval[string](p, `document.querySelector(".palette-count").textContent`); got != "4 of 31 classes" {
		t.Errorf("searching, the palette counts %q, want \"4 of 31 classes\"", got)
	}
}
