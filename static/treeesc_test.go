package static_test

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Esc in the tree's edit bar gives the shown value back: a value the tree refused (Enter on
// text that is no number) and one typed without Enter both leave the field showing the
// entry's value again, unmarked, and the document unchanged; the same for the name.
func TestTreeEscRestoresValue(t *testing.T) {
	p := newBrowser(t)
	path, _ := testBYML(t)
	p.upload("#file-input", path)
	p.treeShown("Test.byml")
	start := p.rows()
	field := `document.querySelector('[data-key="tree.value"]')`

	p.goTo("/c")
	p.typeInto(`[data-key="tree.value"]`, "seven\r")
	p.waitFor(`[...document.querySelectorAll(".toast.error")].length > 0`)
	if got := eval[string](p, field+`.value`); got != "seven" || !eval[bool](p, field+`.classList.contains("invalid")`) {
		t.Fatalf("after the refusal the field shows %q, marked %v", got, eval[bool](p, field+`.classList.contains("invalid")`))
	}
	p.do(chromedp.KeyEvent(kb.Escape))
	if got := eval[string](p, field+`.value`); got != "7" {
		t.Errorf("after Esc the field shows %q, want the entry's value 7", got)
	}
	if eval[bool](p, field+`.classList.contains("invalid")`) {
		t.Error("after Esc the field is still marked invalid")
	}
	if !eval[bool](p, `document.activeElement === document.querySelector(".tree-scroll")`) {
		t.Error("after Esc the rows do not have the focus")
	}

	// Typed, not applied, then Esc: nothing is applied, not even when the field loses the focus.
	p.typeInto(`[data-key="tree.value"]`, "8")
	p.do(chromedp.KeyEvent(kb.Escape))
	if got := eval[string](p, field+`.value`); got != "7" {
		t.Errorf("after typing 8 and Esc the field shows %q, want 7", got)
	}
	p.typeInto(`[data-key="tree.key"]`, "renamed")
	p.do(chromedp.KeyEvent(kb.Escape))
	if got := eval[string](p, `document.querySelector('[data-key="tree.key"]').value`); got != "c" {
		t.Errorf("after typing a name and Esc the name field shows %q, want c", got)
	}
	p.run(`document.body.focus()`)
	if got := p.rows(); got != start {
		t.Errorf("rows after Esc:\n%s\nwant\n%s", got, start)
	}
	if !eval[bool](p, `document.querySelector(".toolbar .dirty").hidden`) {
		t.Error("the file is marked as edited after Esc")
	}
}
