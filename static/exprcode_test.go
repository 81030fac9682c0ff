package static_test

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/exb"

	"github.com/chromedp/chromedp"
)

// fieldJS is the code field with data-key key.
func fieldJS(key string) string {
	return fmt.Sprintf(`document.querySelector('textarea[data-key=%q]')`, key)
}

// editField selects old in the code field key, types typed over it and leaves the field,
// which applies the edit.
func (p *page) editField(key, old, typed string) {
	p.t.Helper()
	ok := eval[bool](p, fmt.Sprintf(`(() => { const ta = %s; const at = ta.value.indexOf(%q); if (at < 0 || ta.readOnly) return false; ta.focus(); ta.setSelectionRange(at, at + %d); return true; })()`, fieldJS(key), old, len(old)))
	if !ok {
		p.t.Fatalf("%q is not in the editable field %s: %q", old, key, eval[string](p, fieldJS(key)+".value"))
	}
	p.do(chromedp.KeyEvent(typed))
	p.run(`document.getElementById("graph").focus()`)
}

// lineTokens is line n (1-based) of the highlighted text under field key: each piece as
// its class ("" for plain text) and text.
func (p *page) lineTokens(key string, n int) [][2]string {
	p.t.Helper()
	return eval[[][2]string](p, fmt.Sprintf(`(() => {
  const line = %s.closest(".code-field").querySelectorAll("pre .line")[%d];
  return [...line.childNodes].map((c) => c.nodeType === 3 ? ["", c.textContent] : [c.className, c.textContent]);
})()`, fieldJS(key), n-1))
}

func tok(pairs ...string) [][2]string {
	var out [][2]string
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, [2]string{pairs[i], pairs[i+1]})
	}
	return out
}

// The expressions panel shows each function as highlighted readable code; its toggle shows
// the very instruction listing of the file, which can be edited too; an edit in either form
// is one undoable edit, is checked at once and its error shown at its line and column, and
// the saved file has it.
func TestExpressionForms(t *testing.T) {
	p := newBrowser(t)
	p.allowed = append(p.allowed, "status of 422")
	path := corpusFile(t, "synthetic/expressions_v407.ainb")
	orig := readFile(t, path)
	p.open(path)
	p.do(chromedp.Click(chromedp.CSS(`[data-tab="expressions"]`)))
	p.do(chromedp.WaitVisible(chromedp.CSS(`[data-key="fn.0"]`)))

	// Highlighting: function 1 reads ".input FLOAT / .output FLOAT / LMem32[0x0] = -((In * 2.0
	// + 0.75 - -3.5) / 65536.0) / Out = LMem32[0x0]".
	if got, want := p.lineTokens("fn.1", 1), tok("t-dir", ".input", "", " ", "t-type", "FLOAT"); !slices.Equal(got, want) {
		t.Errorf("line 1: %q, want %q", got, want)
	}
	want3 := tok("t-loc", "LMem32", "t-punct", "[", "t-num", "0x0", "t-punct", "]", "", " ", "t-punct", "=", "", " ",
		"t-punct", "-((", "t-loc", "In", "", " ", "t-punct", "*", "", " ", "t-num", "2.0", "", " ", "t-punct", "+", "", " ",
		"t-num", "0.75", "", " ", "t-punct", "-", "", " ", "t-num", "-3.5", "t-punct", ")", "", " ", "t-punct", "/", "", " ",
		"t-num", "65536.0", "t-punct", ")")
	if got := p.lineTokens("fn.1", 3); !slices.Equal(got, want3) {
		t.Errorf("line 3: %q\nwant %q", got, want3)
	}
	// Every function shows its text as the document holds it, highlighted line for line.
	if bad := eval[string](p, `(() => {
  const fns = ainbEditor.document().expressions.functions;
  for (let k = 0; k < fns.length; k++) {
    const ta = document.querySelector('textarea[data-key="fn.' + k + '"]');
    const pre = ta.closest(".code-field").querySelector("pre");
    if (ta.value !== fns[k].text) return k + ": field";
    if (pre.textContent !== fns[k].text + "\u200b") return k + ": highlight";
  }
  return "";
})()`); bad != "" {
		t.Fatalf("function %s differs from the document", bad)
	}

	// The toggle shows the file's own listing of function 1.
	listing1, err := orig.Expressions.FunctionText(1)
	if err != nil {
		t.Fatal(err)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-key="fn.1.form.listing"]`)))
	p.waitFor(fmt.Sprintf(`%s.value === %q && !%[1]s.readOnly`, fieldJS("fn.1"), listing1))
	if got, want := p.lineTokens("fn.1", 4), tok("t-addr", "0x0000", "", "  ", "t-op", "STR", "", " ", "t-type", "float", "", " ",
		"t-loc", "LMem32", "t-punct", "[", "t-num", "0x0", "t-punct", "],", "", " ", "t-type", "float", "", " ", "t-loc", "In", "t-punct", "[", "t-num", "0x0", "t-punct", "]"); !slices.Equal(got, want) {
		t.Errorf("listing line 4: %q\nwant %q", got, want)
	}
	if eval[bool](p, `document.querySelector('[data-key="fn.0.form.listing"]').classList.contains("active")`) {
		t.Error("function 0 follows function 1's toggle")
	}
	p.screenshot("ainb-expression-listing")

	// Editing the listing is one edit; the document holds the listing as typed.
	const oldIns, newIns = "MUL float LMem32[0x0], float 2.0", "MUL float LMem32[0x0], float 3.0"
	if !strings.Contains(listing1, oldIns) {
		t.Fatalf("function 1's listing has no %q:\n%s", oldIns, listing1)
	}
	code1 := eval[string](p, `ainbEditor.document().expressions.functions[1].text`)
	p.editField("fn.1", oldIns, newIns)
	wantListing := strings.Replace(listing1, oldIns, newIns, 1)
	if got := eval[string](p, `ainbEditor.document().expressions.functions[1].text`); got != wantListing {
		t.Fatalf("function 1 after editing its listing:\n%s\nwant\n%s", got, wantListing)
	}
	if h := eval[[]string](p, `ainbEditor.history().undo`); !slices.Equal(h, []string{"Edit expression 1"}) {
		t.Errorf("history %q", h)
	}
	// Back to code: the edited listing as code.
	p.do(chromedp.Click(chromedp.CSS(`[data-key="fn.1.form.code"]`)))
	wantCode := strings.Replace(code1, "In * 2.0 +", "In * 3.0 +", 1)
	p.waitFor(fmt.Sprintf(`%s.value === %q && !%[1]s.readOnly`, fieldJS("fn.1"), wantCode))

	// An error is shown when the field is left, before any save: at its line and column.
	p.editField("fn.1", "Out = LMem32[0x0]", "Out = FOO")
	p.waitFor(`document.querySelector('.expr-fn[data-expression="1"] .expr-error').textContent !== ""`)
	msg := eval[string](p, `document.querySelector('.expr-fn[data-expression="1"] .expr-error').textContent`)
	if want := `line 4:7: unknown name "FOO" (locations are In, Out, GMem, LMem32, LMem64, UserIn and UserOut, written like GMem[0x8])`; msg != want {
		t.Errorf("the error reads %q, want %q", msg, want)
	}
	mark := eval[[]string](p, fmt.Sprintf(`(() => { const pre = %s.closest(".code-field").querySelector("pre"); const l = pre.querySelector(".err-line"); return [String([...pre.querySelectorAll(".line")].indexOf(l) + 1), pre.querySelector(".err-at").textContent]; })()`, fieldJS("fn.1")))
	if !slices.Equal(mark, []string{"4", "F"}) {
		t.Errorf("the error marks line %s at %q, want line 4 at \"F\"", mark[0], mark[1])
	}
	p.screenshot("ainb-expression-error")
	if h := eval[[]string](p, `ainbEditor.history().undo`); !slices.Equal(h, []string{"Edit expression 1", "Edit expression 1"}) {
		t.Errorf("history %q", h)
	}
	// One undo takes the broken edit back, and the error with it; the next the listing edit.
	p.key("z", chromedp.ModifierCtrl)
	p.waitFor(fmt.Sprintf(`%s.value === %q`, fieldJS("fn.1"), wantCode))
	if msg := eval[string](p, `document.querySelector('.expr-fn[data-expression="1"] .expr-error').textContent`); msg != "" {
		t.Errorf("after undo the error still reads %q", msg)
	}
	p.key("z", chromedp.ModifierCtrl)
	p.waitFor(fmt.Sprintf(`%s.value === %q`, fieldJS("fn.1"), code1))

	// Redo the listing edit and save: the file has the new literal in function 1.
	p.key("y", chromedp.ModifierCtrl)
	p.waitFor(fmt.Sprintf(`ainbEditor.document().expressions.functions[1].text === %q`, wantListing))
	f := p.save()
	got, err := f.Expressions.FunctionText(1)
	if err != nil || got != wantListing {
		t.Errorf("the saved function 1 (%v):\n%s\nwant\n%s", err, got, wantListing)
	}

	// Saving a function that does not compile names its line and column in the problem.
	p.do(chromedp.Click(chromedp.CSS(`[data-tab="expressions"]`)))
	p.editField("fn.1", "Out = LMem32[0x0]", "Out = 1e39")
	builds := p.app.buildCount()
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	p.waitFor(`ainbEditor.problems().length > 0`)
	if p.app.buildCount() != builds {
		t.Fatal("a function that does not compile was built")
	}
	probs := eval[[]map[string]any](p, `ainbEditor.problems()`)
	wantMsg := `bad float literal "1e39"`
	if len(probs) != 1 || probs[0]["expression"] != 1.0 || probs[0]["line"] != 4.0 || probs[0]["column"] != 7.0 ||
		probs[0]["path"] != "expression 1, line 4:7" || probs[0]["message"] != wantMsg {
		t.Errorf("problems %v, want one in expression 1 at line 4:7: %s", probs, wantMsg)
	}
	// The toast says where too, line and column.
	if toast := eval[string](p, `[...document.querySelectorAll(".toast.error")].map((e) => e.textContent).join("|")`); !strings.Contains(toast, "line 4:7: "+wantMsg) {
		t.Errorf("the toast reads %q, want line 4:7: %s", toast, wantMsg)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-tab="expressions"]`)))
	if head := eval[string](p, `document.querySelector('.fn.has-error[data-expression="1"] h3').textContent`); head != "Expression 1 line 4:7: "+wantMsg {
		t.Errorf("expression 1's heading reads %q", head)
	}
}

// The inspector of an Expression node shows the function its parameter reads as
// highlighted code, with the same toggle, and an edit there is one undoable edit.
func TestExpressionInInspector(t *testing.T) {
	p := newBrowser(t)
	path := corpusFile(t, "synthetic/expressions_v407.ainb")
	orig := readFile(t, path)
	p.open(path)
	if typ := eval[string](p, `ainbEditor.document().nodes[3].type + " " + JSON.stringify(ainbEditor.document().nodes[3].properties[0].source)`); typ != `Expression {"expression":5}` {
		t.Fatalf("node 3 is %s", typ)
	}
	p.selectNode(3)
	const key = "properties.0.source.code"
	p.do(chromedp.WaitVisible(chromedp.CSS(`textarea[data-key="` + key + `"]`)))
	code5 := eval[string](p, `ainbEditor.document().expressions.functions[5].text`)
	if got := eval[string](p, fieldJS(key)+".value"); got != code5 {
		t.Fatalf("the inspector shows\n%s\nwant\n%s", got, code5)
	}
	if n := eval[int](p, fmt.Sprintf(`%s.closest(".code-field").querySelectorAll("pre .t-loc").length`, fieldJS(key))); n == 0 {
		t.Error("the inspector's code is not highlighted")
	}
	listing5, err := orig.Expressions.FunctionText(5)
	if err != nil {
		t.Fatal(err)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-key="` + key + `.form.listing"]`)))
	p.waitFor(fmt.Sprintf(`%s.value === %q`, fieldJS(key), listing5))
	p.screenshot("ainb-expression-inspector")
	p.do(chromedp.Click(chromedp.CSS(`[data-key="` + key + `.form.code"]`)))
	p.waitFor(fmt.Sprintf(`%s.value === %q`, fieldJS(key), code5))
	lines := strings.Split(code5, "\n")
	last := lines[len(lines)-2]
	p.editField(key, last, last+"\nLMem32[0x10] = 1")
	want := code5 + "LMem32[0x10] = 1\n"
	if got := eval[string](p, `ainbEditor.document().expressions.functions[5].text`); got != want {
		t.Fatalf("function 5 after the edit:\n%s\nwant\n%s", got, want)
	}
	if h := eval[[]string](p, `ainbEditor.history().undo`); !slices.Equal(h, []string{"Edit expression 5"}) {
		t.Errorf("history %q", h)
	}
	p.key("z", chromedp.ModifierCtrl)
	p.waitFor(fmt.Sprintf(`ainbEditor.document().expressions.functions[5].text === %q`, code5))
}

// sections returns the expression section of an AINB file as its bytes and parsed.
func section(t *testing.T, file []byte) ([]byte, *exb.Module) {
	t.Helper()
	f, err := ainb.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.Expressions.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	return b, f.Expressions
}

// Editing one function's readable code and saving changes that function's instructions and
// nothing else in the file's expression section: every other function's table entry and
// instruction bytes, the tables and the header are as they were, byte for byte.
func TestExpressionEditChangesOnlyIt(t *testing.T) {
	p := newBrowser(t)
	path := corpusFile(t, "synthetic/expressions_v407.ainb")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	origSec, om := section(t, raw)
	p.open(path)
	p.do(chromedp.Click(chromedp.CSS(`[data-tab="expressions"]`)))
	p.do(chromedp.WaitVisible(chromedp.CSS(`[data-key="fn.0"]`)))
	// Function 0 reads (In + 3 - GMem[0x0]) ...: 3 becomes 4, an immediate in the instruction.
	p.editField("fn.0", "In + 3 - ", "In + 4 - ")
	p.save()
	gotSec, gm := section(t, p.app.lastBuild())
	if len(gotSec) != len(origSec) || bytes.Equal(gotSec, origSec) {
		t.Fatalf("the section is %d bytes (was %d), equal: %v", len(gotSec), len(origSec), bytes.Equal(gotSec, origSec))
	}
	if !reflect.DeepEqual(gm.Header, om.Header) || !reflect.DeepEqual(gm.Params, om.Params) || !reflect.DeepEqual(gm.Strings, om.Strings) ||
		!slices.Equal(gm.Signatures, om.Signatures) || !reflect.DeepEqual(gm.Functions, om.Functions) {
		t.Fatal("the header, a table or a function entry changed")
	}
	own := map[int]bool{}
	for _, b := range [2]exb.Block{om.Functions[0].Setup, om.Functions[0].Main} {
		for j := int(b.Base); b.Present() && j < int(b.Base)+int(b.Count); j++ {
			own[j] = true
		}
	}
	changed := 0
	for j := range om.Instructions {
		a, _ := om.Instructions[j].Bytes(om.Version)
		b, _ := gm.Instructions[j].Bytes(gm.Version)
		if a == b {
			continue
		}
		if !own[j] {
			t.Errorf("instruction %d, not function 0's, changed: %x -> %x", j, a, b)
		}
		changed++
	}
	if changed != 1 {
		t.Errorf("%d of function 0's instructions changed, want 1 (ADD int LMem32[0x0], int 3 -> 4)", changed)
	}
	// The only differing bytes of the section are that instruction's immediate.
	diff := 0
	for i := range origSec {
		if origSec[i] != gotSec[i] {
			diff++
		}
	}
	if diff != 1 {
		t.Errorf("%d bytes of the section differ, want 1", diff)
	}
}

// An edit that grows a function and gives it a literal the param table does not hold
// changes no other function: the page sends the function's text as parsed with the
// document (parsedText), and the build compiles that function alone into the module as it
// was. Every other function's table entry, instruction bytes and the literals they read
// (their offsets and values) are as they were; the section's tables only grow.
func TestExpressionEditGrowsKeepsOthers(t *testing.T) {
	p := newBrowser(t)
	path := corpusFile(t, "synthetic/expressions_v407.ainb")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, om := section(t, raw)
	p.open(path)
	p.do(chromedp.Click(chromedp.CSS(`[data-tab="expressions"]`)))
	p.do(chromedp.WaitVisible(chromedp.CSS(`[data-key="fn.0"]`)))
	code0 := eval[string](p, `ainbEditor.document().expressions.functions[0].text`)
	p.editField("fn.0", "Out = LMem32[0x0]", "Out = LMem32[0x0]\nGMem[0x40] = 123456789\nGMem[0x48] = 2.5")
	want := code0 + "GMem[0x40] = 123456789\nGMem[0x48] = 2.5\n"
	if got := eval[string](p, `ainbEditor.document().expressions.functions[0].text`); got != want {
		t.Fatalf("function 0 after the edit:\n%s\nwant\n%s", got, want)
	}
	if got := eval[string](p, `ainbEditor.document().expressions.functions[0].parsedText`); got != code0 {
		t.Fatalf("function 0's parsed text:\n%s\nwant\n%s", got, code0)
	}
	if n := eval[int](p, `ainbEditor.document().expressions.functions.filter((f) => "parsedText" in f).length`); n != 1 {
		t.Fatalf("%d functions carry a parsed text, want 1", n)
	}
	p.save()
	_, gm := section(t, p.app.lastBuild())
	if len(gm.Functions) != len(om.Functions) {
		t.Fatalf("%d functions, was %d", len(gm.Functions), len(om.Functions))
	}
	if len(gm.Instructions) <= len(om.Instructions) || len(gm.Params.Entries) <= len(om.Params.Entries) {
		t.Fatalf("%d instructions and %d literals, was %d and %d: function 0 did not grow", len(gm.Instructions), len(gm.Params.Entries), len(om.Instructions), len(om.Params.Entries))
	}
	if got, _ := gm.FunctionSource(0); got != want {
		t.Errorf("function 0 reads back as\n%s\nwant\n%s", got, want)
	}
	// The literals the file had keep their places and values: the new ones come after.
	if !reflect.DeepEqual(gm.Params.Entries[:len(om.Params.Entries)], om.Params.Entries) {
		t.Error("a literal of the file moved or changed")
	}
	blocks := func(m *exb.Module, i int) (entry string, raw []byte) {
		fn := m.Functions[i]
		for _, b := range [2]exb.Block{fn.Setup, fn.Main} {
			for j := int(b.Base); b.Present() && j < int(b.Base)+int(b.Count); j++ {
				w, _ := m.Instructions[j].Bytes(m.Version)
				raw = append(raw, w[:]...)
			}
		}
		return fmt.Sprintf("%+v", fn), raw
	}
	for i := 1; i < len(om.Functions); i++ {
		oe, ob := blocks(om, i)
		ge, gb := blocks(gm, i)
		if oe != ge || !bytes.Equal(ob, gb) {
			t.Errorf("function %d changed:\n%s %x\nwas\n%s %x", i, ge, gb, oe, ob)
		}
		// The literals its instructions read, by value: the listing names them.
		ol, _ := om.FunctionText(i)
		gl, _ := gm.FunctionText(i)
		if ol != gl {
			t.Errorf("function %d reads\n%s\nwas\n%s", i, gl, ol)
		}
	}
}
