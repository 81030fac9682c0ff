package static_test

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/modeltext"
)

// readFile reads an AINB file from disk, failing the test when it does not parse.
func readFile(t *testing.T, path string) *ainb.File {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ainb.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// save clicks Save and returns the file the server built, read back.
func (p *page) save() *ainb.File {
	p.t.Helper()
	before := p.app.buildCount()
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	// An unedited file is clean before the save as after it: wait for the build itself
	// (the server counts it), then for the page to take the save in.
	for deadline := time.Now().Add(30 * time.Second); p.app.buildCount() == before && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	p.waitFor(`!ainbEditor.dirty()`)
	if p.app.buildCount() != before+1 {
		p.t.Fatalf("saving built %d files", p.app.buildCount()-before)
	}
	f, err := ainb.Read(p.app.lastBuild())
	if err != nil {
		p.t.Fatalf("the saved file does not read: %v", err)
	}
	return f
}

// sameFile fails the test when two models differ, showing the first differing line.
// The string pool (Layout) is left out: new names are appended to it.
func sameFile(t *testing.T, want, got *ainb.File, what string) {
	t.Helper()
	want.Layout, got.Layout = nil, nil
	wj, gj := modeltext.Text(want), modeltext.Text(got)
	if !bytes.Equal(wj, gj) {
		t.Errorf("%s:\n%s", what, firstDiff(wj, gj))
	}
}

// undoAll presses Ctrl+Z until the history is empty.
func (p *page) undoAll() {
	p.t.Helper()
	n := eval[int](p, `ainbEditor.history().undo.length`)
	for range n {
		p.key("z", chromedp.ModifierCtrl)
	}
	if n := eval[int](p, `ainbEditor.history().undo.length`); n != 0 {
		p.t.Fatalf("%d edits left after undoing all", n)
	}
}

// selectNode centres a node and clicks its header.
func (p *page) selectNode(i int, mods ...chromedp.Modifier) {
	p.t.Helper()
	p.run(fmt.Sprintf(`(() => { const q = `+nodeJS+`; ainbEditor.setView({x: q.x + 130, y: q.y + 15, zoom: 1}); })()`, i))
	p.click(p.screenOf(i, -1, ""), mods...)
}

const fn0 = `document.querySelector('[data-key="fn.0"]')`

// replaceInFunction selects text in expression 0's text and types over it, then leaves the
// field, which applies the edit.
func (p *page) replaceInFunction(old, typed string) {
	p.t.Helper()
	ok := eval[bool](p, fmt.Sprintf(`(() => { const ta = %s; const at = ta.value.indexOf(%q); if (at < 0) return false; ta.focus(); ta.setSelectionRange(at, at + %d); return true; })()`, fn0, old, len(old)))
	if !ok {
		p.t.Fatalf("%q is not in expression 0's text", old)
	}
	p.do(chromedp.KeyEvent(typed))
	p.run(`document.getElementById("graph").focus()`)
}

// The expressions panel shows each function's readable code; edited code is saved and
// compiled by the server, and code that does not compile is reported at its line.
func TestExpressionsEdit(t *testing.T) {
	p := newBrowser(t)
	p.allowed = append(p.allowed, "status of 422")
	path := corpusFile(t, "synthetic/expressions_v407.ainb")
	orig := readFile(t, path)
	p.open(path)
	orig0 := eval[string](p, `ainbEditor.document().expressions.functions[0].text`)
	p.do(chromedp.Click(chromedp.CSS(`[data-tab="expressions"]`)))
	p.do(chromedp.WaitVisible(chromedp.CSS(`[data-key="fn.0"]`)))
	shown := eval[[]string](p, `[...document.querySelectorAll(".fn textarea")].map((ta) => ta.value)`)
	texts := eval[[]string](p, `ainbEditor.document().expressions.functions.map((f) => f.text)`)
	if len(texts) != len(orig.Expressions.Functions) || !slices.Equal(shown, texts) {
		t.Fatalf("the panel shows %d listings, the document has %d and the file %d functions", len(shown), len(texts), len(orig.Expressions.Functions))
	}

	// The code reads (In + 3 - ...); the saved file's listing must have the new literal.
	const oldLine, newLine = "ADD int LMem32[0x0], int 3\n", "ADD int LMem32[0x0], int 4\n"
	p.replaceInFunction("In + 3 - ", "In + 4 - ")
	want := strings.Replace(orig0, "In + 3 - ", "In + 4 - ", 1)
	if got := eval[string](p, `ainbEditor.document().expressions.functions[0].text`); got != want || want == orig0 {
		t.Fatalf("function 0 after the edit:\n%s\nwant\n%s", got, want)
	}
	if h := eval[[]string](p, `ainbEditor.history().undo`); len(h) != 1 || h[0] != "Edit expression 0" {
		t.Errorf("history %v", h)
	}
	f := p.save()
	text, err := f.Expressions.FunctionText(0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, newLine) || strings.Contains(text, oldLine) {
		t.Errorf("the saved function 0 does not have the new literal:\n%s", text)
	}
	for i := 1; i < len(orig.Expressions.Functions); i++ {
		a, _ := orig.Expressions.FunctionText(i)
		b, _ := f.Expressions.FunctionText(i)
		if a != b {
			t.Errorf("function %d changed:\n%s\nwas\n%s", i, b, a)
		}
	}

	// An unknown name on line 4 (.input, .output, the assignment, Out = ...).
	p.replaceInFunction("Out = LMem32[0x0]", "Out = FOO")
	builds := p.app.buildCount()
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	p.waitFor(`ainbEditor.problems().length > 0`)
	if p.app.buildCount() != builds {
		t.Fatal("a listing that does not assemble was built")
	}
	probs := eval[[]map[string]any](p, `ainbEditor.problems()`)
	if len(probs) != 1 || probs[0]["expression"] != float64(0) || probs[0]["line"] != float64(4) {
		t.Fatalf("problems %v, want one in expression 0 at line 4", probs)
	}
	shownProblem := eval[string](p, `document.querySelector(".problem").textContent`)
	if !strings.Contains(shownProblem, "expression 0") || !strings.Contains(shownProblem, "line 4") {
		t.Errorf("the problem reads %q; it should name expression 0 and line 4", shownProblem)
	}
	p.screenshot("ainb-expression-problem")
	p.do(chromedp.Click(chromedp.CSS(`.problem`)))
	if tab := eval[bool](p, `!document.querySelector('.tab-body[data-tab="expressions"]').hidden`); !tab {
		t.Fatal("clicking the problem did not show the expressions panel")
	}
	if !eval[bool](p, fmt.Sprintf(`document.activeElement === %s`, fn0)) {
		t.Fatal("clicking the problem did not focus function 0's listing")
	}
	sel := eval[string](p, fmt.Sprintf(`(() => { const ta = %s; return ta.value.slice(ta.selectionStart, ta.selectionEnd); })()`, fn0))
	if !strings.HasSuffix(sel, "Out = FOO") || strings.Contains(sel, "\n") {
		t.Errorf("the selection in the code is %q, want line 4", sel)
	}
	if head := eval[string](p, `document.querySelector('.fn.has-error[data-expression="0"] h3').textContent`); !strings.Contains(head, "line 4") {
		t.Errorf("expression 0's heading reads %q", head)
	}
	p.screenshot("ainb-expression-line")
}

// The blackboard panel adds, renames and removes parameters and edits defaults and file
// references; the saved file has exactly those changes, and undo takes them all back.
func TestBlackboardEdits(t *testing.T) {
	p := newBrowser(t)
	path := corpusFile(t, "synthetic/blackboard_v408.ainb")
	orig := readFile(t, path)
	p.open(path)
	origDoc := eval[string](p, docText)
	p.do(chromedp.Click(chromedp.CSS(`[data-tab="blackboard"]`)))
	types := eval[[]string](p, `[...document.querySelectorAll('[data-key="bb.add.type"] option')].map((o) => o.value)`)
	if !slices.Equal(types, []string{"string", "int", "u32", "float", "bool", "vec3f", "pointer"}) {
		t.Fatalf("a 0x408 file offers the types %v", types)
	}
	// Parameters are keyed by their index in the document's one list.
	bbAt := func(typ string, nth int) int {
		k := eval[int](p, fmt.Sprintf(`(() => { let k = -1; const l = ainbEditor.document().blackboard; for (let i = 0; i < l.length; i++) if (l[i].type === %q && ++k === %d) return i; return -1; })()`, typ, nth))
		if k < 0 {
			t.Fatalf("no %s parameter number %d", typ, nth)
		}
		return k
	}
	added := eval[int](p, `ainbEditor.document().blackboard.length`)
	int2, u1, vec0, bool0 := bbAt("int", 2), bbAt("u32", 1), bbAt("vec3f", 0), bbAt("bool", 0)

	p.run(`document.querySelector('[data-key="bb.add.type"]').value = "float"`)
	p.do(chromedp.SendKeys(chromedp.CSS(`[data-key="bb.add.name"]`), "Added"))
	p.do(chromedp.Click(chromedp.CSS(`[data-action="bb-add"]`)))
	p.do(chromedp.WaitVisible(chromedp.CSS(fmt.Sprintf(`[data-key="bb.%d.value"]`, added))))
	p.typeInto(fmt.Sprintf(`[data-key="bb.%d.value"]`, added), "2.5\r")
	p.typeInto(fmt.Sprintf(`[data-key="bb.%d.file"]`, added), "Work/AI/Added.ainb\r")
	p.typeInto(fmt.Sprintf(`[data-key="bb.%d"]`, int2), "IntTop\r")
	p.typeInto(fmt.Sprintf(`[data-key="bb.%d.value"]`, u1), "4000000000\r")
	p.typeInto(fmt.Sprintf(`[data-key="bb.%d.value.1"]`, vec0), "-0.5\r")
	p.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`[data-bb="bb.%d"] [data-action="bb-remove"]`, bool0))))
	if h := eval[[]string](p, `ainbEditor.history().undo`); len(h) != 7 {
		t.Fatalf("history after the edits: %q", h)
	}
	p.screenshot("ainb-blackboard")

	want := readFile(t, path)
	bb := &want.Blackboard.Params
	bb[ainb.BBF32] = append(bb[ainb.BBF32], ainb.BlackboardParam{Name: "Added", Inherit: ainb.DontInherit, File: "Work/AI/Added.ainb", Value: ainb.Value{Float: ainb.F32(2.5)}})
	bb[ainb.BBS32][2].Name = "IntTop"
	bb[ainb.BBU32][1].Value.Int = int32(-294967296) // 4000000000 as the s32 of its bits
	bb[ainb.BBVec3f][0].Value.Vec[1] = ainb.F32(-0.5)
	bb[ainb.BBBool] = bb[ainb.BBBool][1:]
	// The node's Bool input reads B1, which becomes parameter 0 when B0 goes.
	if in := &want.Elements[0].Inputs.Of(ainb.ParamBool)[0]; in.Source.Flags != 0x80000001 {
		t.Fatalf("the corpus file's Bool input has flags %#x, the test expects it to read B1", in.Source.Flags)
	} else {
		in.Source.Flags = 0x80000000
	}
	got := p.save()
	sameFile(t, want, got, "the saved file differs from the original plus the blackboard edits")
	if len(got.Elements) != len(orig.Elements) {
		t.Errorf("%d elements saved, the original has %d", len(got.Elements), len(orig.Elements))
	}

	p.undoAll()
	if d := eval[string](p, docText); d != origDoc {
		t.Errorf("undoing every edit did not restore the document:\n%s", firstDiff([]byte(origDoc), []byte(d)))
	}
	if !eval[bool](p, `ainbEditor.dirty()`) {
		t.Error("undoing past the save point left the document clean")
	}

	// U32 parameters need a 0x408 file, so a 0x407 one does not offer them. The document is
	// dirty (it differs from what was saved), so opening another asks first.
	p.allowDialogs()
	p.open(corpusFile(t, "synthetic/blackboard_v407.ainb"))
	types = eval[[]string](p, `[...document.querySelectorAll('[data-key="bb.add.type"] option')].map((o) => o.value)`)
	if slices.Contains(types, "u32") {
		t.Errorf("a 0x407 file offers U32 parameters: %v", types)
	}
}

// The commands panel adds, renames and removes commands and sets their root.
func TestCommandEdits(t *testing.T) {
	p := newBrowser(t)
	path := corpusFile(t, "synthetic/kitchen_sink_v407.ainb")
	p.open(path)
	origDoc := eval[string](p, docText)
	want := readFile(t, path)
	if len(want.Commands) != 2 {
		t.Fatalf("the corpus file has %d commands, the test expects 2", len(want.Commands))
	}

	// Set the root of command 1 to node 7.
	p.selectNode(7)
	p.do(chromedp.Click(chromedp.CSS(`[data-command="1"] .item-tools button.small`)))
	// Add a command rooted at the selected node 12.
	p.selectNode(12)
	p.do(chromedp.SendKeys(chromedp.CSS(`[data-tab="commands"] .add-row input`), "Added"))
	p.do(chromedp.Click(chromedp.CSS(`[data-tab="commands"] .add-row button`)))
	p.typeInto(`[data-key="cmd.1"]`, "Renamed\r")
	p.do(chromedp.Click(chromedp.CSS(`[data-command="0"] button.icon`)))
	if h := eval[[]string](p, `ainbEditor.history().undo`); len(h) != 4 {
		t.Fatalf("history after the edits: %q", h)
	}
	shown := eval[[]string](p, `[...document.querySelectorAll("[data-command] .item-title")].map((e) => e.textContent)`)
	if !slices.Equal(shown, []string{"Renamed", "Added"}) {
		t.Errorf("the panel lists %q", shown)
	}

	got := p.save()
	if len(got.Commands) != 2 {
		t.Fatalf("saved commands %+v", got.Commands)
	}
	added := got.Commands[1]
	if added.GUID == (ainb.GUID{}) || added.GUID == want.Commands[0].GUID || added.GUID == want.Commands[1].GUID {
		t.Errorf("the new command's GUID %v is not new", added.GUID)
	}
	want.Commands[1].Name = "Renamed"
	want.Commands[1].Root = 7
	want.Commands = []ainb.Command{want.Commands[1], {Name: "Added", GUID: added.GUID, Root: 12, Secondary: -1}}
	sameFile(t, want, got, "the saved file differs from the original plus the command edits")

	p.undoAll()
	if d := eval[string](p, docText); d != origDoc {
		t.Errorf("undoing every edit did not restore the document:\n%s", firstDiff([]byte(origDoc), []byte(d)))
	}
}

// allowDialogs accepts every confirm the page asks from now on.
func (p *page) allowDialogs() {
	dialogs := chromedp.Events(p.ctx, cdppage.JavascriptDialogOpening)
	go func() {
		for _, err := range dialogs {
			if err != nil {
				return
			}
			go chromedp.Call(p.ctx, cdppage.HandleJavaScriptDialog, cdppage.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
}
