package static_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"ainbeditor/internal/ainb"
)

// plugSummary is what a node class defines, as the saved file stores it: per param type the
// names, pointer classes and default values of the properties and inputs (and whether an
// input is a multi-input), and the names and pointer classes of the outputs.
func plugSummary(t *testing.T, e *ainb.Element) string {
	t.Helper()
	var b strings.Builder
	for k, list := range e.Properties.Lists() {
		for _, p := range list {
			js, err := p.Value.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "property %d %s %s %s\n", k, p.Name, p.ClassName, js)
		}
	}
	for k, list := range e.Inputs.Lists() {
		for _, p := range list {
			js, err := p.Value.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "input %d %s %s %s multi=%v\n", k, p.Name, p.ClassName, js, p.IsMulti())
		}
	}
	for k, list := range e.Outputs.Lists() {
		for _, p := range list {
			fmt.Fprintf(&b, "output %d %s %s\n", k, p.Name, p.ClassName)
		}
	}
	return b.String()
}

// elementNamed is the one element of class name in f.
func elementNamed(t *testing.T, f *ainb.File, name string) *ainb.Element {
	t.Helper()
	var found *ainb.Element
	for i := range f.Elements {
		if f.Elements[i].Name == name {
			if found != nil {
				t.Fatalf("two elements of class %s", name)
			}
			found = &f.Elements[i]
		}
	}
	if found == nil {
		t.Fatalf("no element of class %s", name)
	}
	return found
}

// importCatalogue teaches the catalogue the classes of corpus files through its file input.
func (p *page) importCatalogue(paths ...string) {
	p.t.Helper()
	p.run(`window.__importStatus = ""`)
	if err := chromedp.Do(p.ctx, chromedp.SetUploadFiles(chromedp.CSS("#catalogue-files"), paths)); err != nil {
		p.t.Fatalf("upload %v: %v", paths, err)
	}
	p.waitFor(`ainbEditor.status().startsWith("Learned node classes from")`)
}

// paletteClasses lists the classes the open palette offers.
func paletteClasses(p *page) []string {
	return eval[[]string](p, `[...document.querySelectorAll(".overlay.palette li.item")].map((li) => li.dataset.class)`)
}

// openPalette opens the add-node palette with the toolbar's button. (Pressing A through
// the DevTools protocol would also type an "a" into the palette's field: it sends the
// character as an event of its own, which the page's preventDefault cannot stop.)
func (p *page) openPalette() {
	p.t.Helper()
	p.do(chromedp.Click(`[data-action="add"]`), chromedp.WaitVisible(chromedp.CSS(`.overlay.palette`)))
}

func (p *page) rightClick(at point) {
	p.t.Helper()
	p.do(chromedp.MouseClickXY(at.X, at.Y, chromedp.ButtonType(input.MouseButtonRight)))
}

// A class the open file does not use, learned from another file the user imports, is offered
// by the palette and added with every property, input and output its class has, with their
// defaults: the saved binary carries them as the file the class came from defines them. The
// inspector removes an unused parameter and adds the class's missing ones back.
func TestCatalogueAddsClassFromImportedFile(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/minimal_v407.ainb"))
	src := corpusFile(t, "synthetic/params_v407.ainb")
	want := plugSummary(t, elementNamed(t, readFile(t, src), "SyntheticConsumer"))

	p.openPalette()
	if got := paletteClasses(p); contains(got, "SyntheticConsumer") {
		t.Fatalf("the palette offers SyntheticConsumer before any file that uses it was seen: %q", got)
	}
	p.key(kb.Escape)
	p.importCatalogue(src)
	if got := eval[string](p, `ainbEditor.status()`); !strings.Contains(got, "from 1 file:") {
		t.Errorf("status after the import: %q", got)
	}
	p.openPalette()
	p.do(chromedp.SendKeys(`.palette-input`, "SyntheticConsumer"))
	if got := paletteClasses(p); !contains(got, "SyntheticConsumer") || !contains(got, "SyntheticConsumer2") || len(got) != 2 {
		t.Fatalf("searching the palette for SyntheticConsumer offers %q", got)
	}
	nodes := eval[int](p, `ainbEditor.document().nodes.length`)
	p.do(chromedp.Click(`.overlay.palette li[data-class="SyntheticConsumer"] button`))
	if got := eval[int](p, `ainbEditor.document().nodes.length`); got != nodes+1 {
		t.Fatalf("%d nodes after adding one to %d", got, nodes)
	}
	id := eval[int](p, `ainbEditor.selection()[0]`)
	f := p.save()
	if len(f.Elements) != nodes+1 {
		t.Fatalf("saved %d elements, want %d", len(f.Elements), nodes+1)
	}
	e := elementNamed(t, f, "SyntheticConsumer")
	if got := plugSummary(t, e); got != want {
		t.Fatalf("the added SyntheticConsumer's plugs:\n%s\nthe class in %s:\n%s", got, src, want)
	}
	// A new node takes no value from anywhere: no node, blackboard or expression sources.
	for _, list := range e.Inputs.Lists() {
		for _, in := range list {
			if in.IsMulti() && len(in.Sources) == 0 {
				continue
			}
			if in.IsMulti() || in.Source.Node != -1 || in.Source.Flags.IsBlackboard() || in.Source.Flags.IsExpression() {
				t.Errorf("input %s of the new node has sources %+v / %+v", in.Name, in.Source, in.Sources)
			}
		}
	}
	for _, list := range e.Properties.Lists() {
		for _, q := range list {
			if q.Flags.IsBlackboard() || q.Flags.IsExpression() {
				t.Errorf("property %s of the new node reads a blackboard parameter or an expression: %#x", q.Name, uint32(q.Flags))
			}
		}
	}

	// The inspector: PStringEmpty is unused, so it has a ✕; removing it puts it among the
	// class's missing parameters, and Add brings it back where the class has it.
	k := eval[int](p, fmt.Sprintf(`(`+nodeJS+`).properties.findIndex((q) => q.name === "PStringEmpty")`, id))
	p.do(chromedp.Click(fmt.Sprintf(`[data-key="properties.%d.remove"]`, k)))
	if got := eval[int](p, fmt.Sprintf(`(`+nodeJS+`).properties.findIndex((q) => q.name === "PStringEmpty")`, id)); got != -1 {
		t.Fatal("the ✕ did not remove PStringEmpty")
	}
	p.do(chromedp.Click(`[data-key="outputs.0.remove"]`))
	missing := eval[[]string](p, `[...document.querySelectorAll('[data-key^="class.add."]')].map((b) => b.dataset.key)`)
	if strings.Join(missing, " ") != "class.add.properties.PStringEmpty class.add.outputs.ResInt class.add.all" {
		t.Errorf("missing parameters offered: %q", missing)
	}
	undo := len(eval[[]string](p, `ainbEditor.history().undo`))
	p.do(chromedp.Click(`[data-key="class.add.all"]`))
	if got := len(eval[[]string](p, `ainbEditor.history().undo`)); got != undo+1 {
		t.Errorf("Add all made %d undo steps", got-undo)
	}
	if got := eval[int](p, `document.querySelectorAll('[data-key^="class.add."]').length`); got != 0 {
		t.Errorf("%d parameters still offered after Add all", got)
	}
	f = p.save()
	if got := plugSummary(t, elementNamed(t, f, "SyntheticConsumer")); got != want {
		t.Fatalf("after removing and adding back parameters:\n%s\nwant:\n%s", got, want)
	}
}

func (p *page) check(expr string) {
	p.t.Helper()
	if !eval[bool](p, expr) {
		p.t.Errorf("false: %s", expr)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
