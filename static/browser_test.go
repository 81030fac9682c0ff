package static_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/modeltext"
)

func TestOpenFile(t *testing.T) {
	p := newBrowser(t)
	p.screenshot("ainb-welcome")
	p.open(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	n := eval[int](p, `ainbEditor.document().nodes.length`)
	if n != 29 {
		t.Fatalf("got %d nodes, want 29", n)
	}
	if v := eval[map[string]float64](p, `ainbEditor.view()`); v["command"] != 0 {
		t.Errorf("view after open: %v, want command 0", v)
	}
	p.screenshot("ainb-kitchen")
}

// floatKey is the inspector field of node 3's first float property.
func floatKey(p *page) string {
	return fmt.Sprintf(`[data-key="properties.%d.value"]`, itemIndex(p, 3, "properties", "float", 0))
}

func floatValue(p *page) float64 {
	return eval[float64](p, fmt.Sprintf(`(`+nodeJS+`).properties[%d].value`, 3, itemIndex(p, 3, "properties", "float", 0)))
}

func (p *page) key(keys string, mods ...chromedp.Modifier) {
	p.t.Helper()
	p.run(`document.getElementById("graph").focus()`)
	p.do(chromedp.KeyEvent(keys, chromedp.KeyModifiers(mods...)))
}

// Selecting a node, editing a float, undoing and redoing it, then saving: the saved file
// must differ from the original in that one value only.
func TestEditUndoRedoSave(t *testing.T) {
	p := newBrowser(t)
	path := corpusFile(t, "synthetic/params_v407.ainb")
	p.open(path)
	p.run(`ainbEditor.setView({x: 470, y: 300, zoom: 1})`)
	p.click(p.screenOf(3, -1, ""))
	if sel := eval[[]int](p, `ainbEditor.selection()`); len(sel) != 1 || sel[0] != 3 {
		t.Fatalf("selection after click: %v, want [3]", sel)
	}
	p.do(chromedp.WaitVisible(chromedp.CSS(floatKey(p))))
	p.typeInto(floatKey(p), "1.1\r")
	want := float64(float32(1.1))
	if got := floatValue(p); got != want {
		t.Fatalf("after typing 1.1: %v, want the f32 %v", got, want)
	}
	if !eval[bool](p, `ainbEditor.dirty()`) {
		t.Error("not dirty after an edit")
	}
	p.screenshot("ainb-inspector")

	p.key("z", chromedp.ModifierCtrl)
	if got := floatValue(p); got != 3.5 {
		t.Fatalf("after undo: %v, want 3.5", got)
	}
	if eval[bool](p, `ainbEditor.dirty()`) {
		t.Error("dirty after undoing the only edit")
	}
	p.key("z", chromedp.ModifierCtrl, chromedp.ModifierShift)
	if got := floatValue(p); got != want {
		t.Fatalf("after redo (Ctrl+Shift+Z): %v, want %v", got, want)
	}
	p.key("z", chromedp.ModifierCtrl)
	p.key("y", chromedp.ModifierCtrl)
	if got := floatValue(p); got != want {
		t.Fatalf("after redo (Ctrl+Y): %v, want %v", got, want)
	}
	// Out-of-range input is clamped to the type, not stored as typed.
	intAt := itemIndex(p, 3, "properties", "int", 0)
	p.typeInto(fmt.Sprintf(`[data-key="properties.%d.value"]`, intAt), "99999999999\r")
	if got := eval[float64](p, fmt.Sprintf(`(`+nodeJS+`).properties[%d].value`, 3, intAt)); got != math.MaxInt32 {
		t.Fatalf("s32 field took %v, want it clamped to %d", got, math.MaxInt32)
	}
	p.key("z", chromedp.ModifierCtrl)

	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	p.waitFor(`!ainbEditor.dirty()`)
	built := p.app.lastBuild()
	if built == nil {
		t.Fatal("no build")
	}
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	wantFile, err := ainb.Read(orig)
	if err != nil {
		t.Fatal(err)
	}
	wantFile.Elements[3].Properties.Of(ainb.ParamFloat)[0].Value.Float = ainb.F32(float32(1.1))
	gotFile, err := ainb.Read(built)
	if err != nil {
		t.Fatalf("the saved file does not read: %v", err)
	}
	wj, gj := modeltext.Text(wantFile), modeltext.Text(gotFile)
	if !bytes.Equal(wj, gj) {
		t.Errorf("the saved model differs from the original plus the one edit:\n%s", firstDiff(wj, gj))
	}
	if len(built) != len(orig) {
		t.Errorf("saved %d bytes, the original has %d", len(built), len(orig))
	} else if d := countDiff(built, orig); d == 0 || d > 4 {
		t.Errorf("%d bytes differ; one float is 4", d)
	}
	// The browser downloaded the same bytes.
	dl := filepath.Join(p.downloads, "params_v407.ainb")
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(dl)
		if err == nil && bytes.Equal(b, built) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("download %s: %v (%d bytes)", dl, err, len(b))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// typeInto replaces a field's text by typing, as a user would.
func (p *page) typeInto(sel, text string) {
	p.t.Helper()
	p.run(fmt.Sprintf(`(() => { const el = document.querySelector(%q); el.focus(); el.value = ""; })()`, sel))
	p.do(chromedp.SendKeys(chromedp.CSS(sel), text))
}

func countDiff(a, b []byte) int {
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

func firstDiff(a, b []byte) string {
	al, bl := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := 0; i < len(al) && i < len(bl); i++ {
		if !bytes.Equal(al[i], bl[i]) {
			return fmt.Sprintf("line %d:\n want %s\n got  %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("%d lines vs %d", len(al), len(bl))
}

// rowOf asks the page's own metrics for the row of a node's nth input or output of a type.
func rowOf(p *page, node int, kind, typ string, nth int) int {
	fn, list := "inputRow", "inputs"
	if kind == "out" {
		fn, list = "outputRow", "outputs"
	}
	k := itemIndex(p, node, list, typ, nth)
	return eval[int](p, fmt.Sprintf(`import("/static/metrics.js").then((m) => m.%s(`+nodeJS+`, %d))`, fn, node, k))
}

// Dragging an output onto an input of another type is refused with a reason; onto one of
// the same type it connects, and undo takes the link back.
func TestConnectPlugs(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/params_v407.ainb"))
	p.run(`ainbEditor.setView({x: 640, y: 420, zoom: 0.8})`)
	intInput := fmt.Sprintf(`(`+nodeJS+`).inputs[%d]`, 3, itemIndex(p, 3, "inputs", "int", 0))
	src := `JSON.stringify(` + intInput + `.source ?? null)`
	before := eval[string](p, src)

	floatOut := p.screenOf(1, rowOf(p, 1, "out", "float", 0), "out")
	intIn := p.screenOf(3, rowOf(p, 3, "in", "int", 0), "in")
	p.drag(floatOut, intIn)
	if got := eval[string](p, src); got != before {
		t.Fatalf("a float output connected to an int input: %s", got)
	}
	reason := eval[string](p, `ainbEditor.lastRefusal()`)
	if reason == "" {
		t.Fatal("no reason given for refusing the link")
	}
	toast := eval[string](p, `[...document.querySelectorAll(".toast.error")].map((e) => e.textContent).join("|")`)
	if !bytes.Contains([]byte(toast), []byte("type mismatch")) {
		t.Errorf("the refusal is not shown: toasts %q, reason %q", toast, reason)
	}
	if eval[bool](p, `ainbEditor.dirty()`) {
		t.Error("a refused link made the document dirty")
	}

	intOut := p.screenOf(1, rowOf(p, 1, "out", "int", 0), "out")
	p.drag(intOut, intIn)
	wantOut := itemIndex(p, 1, "outputs", "int", 0)
	got := eval[map[string]float64](p, intInput+`.source`)
	if got["node"] != 1 || got["output"] != float64(wantOut) {
		t.Fatalf("after dragging node 1's int output onto node 3's first int input: source %v", got)
	}
	p.screenshot("ainb-connected")
	p.key("z", chromedp.ModifierCtrl)
	if got := eval[string](p, src); got != before {
		t.Fatalf("undo left the source %s, want %s", got, before)
	}
	p.key("y", chromedp.ModifierCtrl)
	if got := eval[float64](p, intInput+`.source.node`); got != 1 {
		t.Fatalf("redo: source node %v, want 1", got)
	}
}

const docText = `JSON.stringify(ainbEditor.document())`

type viewState struct {
	Command float64 `json:"command"`
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	Zoom    float64 `json:"zoom"`
}

// A share opened in another tab shows the same document, command, viewport and selection.
func TestShareRestoresView(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	p.do(chromedp.Click(chromedp.CSS(`[data-command="1"] .item-main`)))
	if v := eval[viewState](p, `ainbEditor.view()`); v.Command != 1 {
		t.Fatalf("clicking the second command: view %+v", v)
	}
	p.run(`(() => { const q = ainbEditor.document().nodes[5]; ainbEditor.setView({x: q.x + 300, y: q.y + 200, zoom: 0.5}); })()`)
	p.click(p.screenOf(5, -1, ""))
	other := eval[int](p, `(() => {
		const r = document.getElementById("graph").getBoundingClientRect();
		for (const n of ainbEditor.document().nodes) {
			const s = ainbEditor.screenOf(n.id, -1, "");
			if (n.id !== 5 && s.x > r.left + 20 && s.x < r.right - 220 && s.y > r.top + 20 && s.y < r.bottom - 200) return n.id;
		}
		return -1;
	})()`)
	if other < 0 {
		t.Fatal("no second node on screen")
	}
	p.click(p.screenOf(other, -1, ""), chromedp.ModifierShift)
	wantSel := eval[[]int](p, `ainbEditor.selection()`)
	if len(wantSel) != 2 {
		t.Fatalf("selection %v, want two nodes", wantSel)
	}
	p.run(`ainbEditor.setView({x: 321.123456789, y: 654.987654321, zoom: 0.678912345})`)
	wantView := eval[viewState](p, `ainbEditor.view()`)
	wantDoc := eval[string](p, docText)

	p.do(chromedp.Click(chromedp.CSS(`[data-action="share"]`)))
	p.waitFor(`ainbEditor.lastShare() !== ""`)
	link := eval[string](p, `ainbEditor.lastShare()`)
	if shown := eval[string](p, `document.querySelector(".share-link").value`); shown != link {
		t.Errorf("the toast shows %q, want the link %q", shown, link)
	}
	path := link[len(p.srv.URL):]

	q := p.newTab(path)
	q.waitFor(`ainbEditor.loads() > 0`)
	if v := eval[viewState](q, `ainbEditor.view()`); v != wantView {
		t.Errorf("shared view %+v, want %+v", v, wantView)
	}
	if sel := eval[[]int](q, `ainbEditor.selection()`); fmt.Sprint(sel) != fmt.Sprint(wantSel) {
		t.Errorf("shared selection %v, want %v", sel, wantSel)
	}
	if d := eval[string](q, docText); d != wantDoc {
		t.Errorf("the shared document differs (%d vs %d bytes)", len(d), len(wantDoc))
	}
	q.screenshot("ainb-share")
}

// A reload comes back to the same document, edits included, and to the same view through
// the URL fragment.
func TestReloadKeepsDocumentAndView(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/params_v407.ainb"))
	p.run(`ainbEditor.setView({x: 470, y: 300, zoom: 1})`)
	p.click(p.screenOf(3, -1, ""))
	p.typeInto(floatKey(p), "-2.75\r")
	p.run(`ainbEditor.setView({x: 400.5, y: 250.25, zoom: 0.9})`)
	p.waitFor(`location.hash.includes("z=0.9") && location.hash.includes("sel=3")`)
	// The autosave runs a second after the last edit; under load a fixed wait was too short.
	p.waitFor(`ainbEditor.autosavedEdits() === ainbEditor.history().undo.length && ainbEditor.history().undo.length > 0`)
	wantView := eval[viewState](p, `ainbEditor.view()`)
	// Unsaved edits make the page ask before it goes; the test says yes.
	dialogs := chromedp.Events(p.ctx, cdppage.JavascriptDialogOpening)
	asked := make(chan string, 1)
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			asked <- string(ev.Type)
			chromedp.Call(p.ctx, cdppage.HandleJavaScriptDialog, cdppage.HandleJavaScriptDialogParams{Accept: true})
			return
		}
	}()
	p.do(chromedp.Reload())
	select {
	case typ := <-asked:
		if typ != "beforeunload" {
			t.Errorf("dialog %q before the reload, want beforeunload", typ)
		}
	case <-time.After(5 * time.Second):
		t.Error("no beforeunload warning with unsaved edits")
	}
	p.waitFor(`!!window.ainbEditor && ainbEditor.loads() > 0`)
	if v := eval[viewState](p, `ainbEditor.view()`); v != wantView {
		t.Errorf("view after reload %+v, want %+v", v, wantView)
	}
	if sel := eval[[]int](p, `ainbEditor.selection()`); len(sel) != 1 || sel[0] != 3 {
		t.Errorf("selection after reload %v, want [3]", sel)
	}
	if got := floatValue(p); got != -2.75 {
		t.Errorf("the edit is lost on reload: %v", got)
	}
	if !eval[bool](p, `ainbEditor.dirty()`) {
		t.Error("the restored document with an unsaved edit is not dirty")
	}
}
