package static_test

import (
	"bytes"
	"fmt"

	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"ainbeditor/internal/aamp"
	"ainbeditor/internal/byml"
	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/zs"
)

// Browser tests of the BYML/AAMP tree view (tree.js, treefiles.js, treeyaml.js): files open
// from a pack and loose, edits keep types, undo and redo are exact, the YAML view applies,
// and what is saved is checked here with the Go codecs.

// treeShown waits until the tree view shows a file, having said so in the status.
func (p *page) treeShown(name string) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf(`ainbEditor.status().startsWith(%q) && !document.querySelector(".tree-pane").hidden && document.querySelectorAll(".tree-row").length > 0`, "Opened "+name))
}

// goTo selects the entry at path through the edit bar's path field.
func (p *page) goTo(path string) {
	p.t.Helper()
	p.typeInto(`[data-key="tree.path"]`, path+"\r")
	p.waitFor(fmt.Sprintf(`document.querySelector('.tree-row.selected') && document.querySelector('.tree-row.selected').dataset.path === %q`, path))
}

// rowValue is the value a row shows.
func (p *page) rowValue(path string) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`(() => { const r = document.querySelector('.tree-row[data-path=%q] .tree-value'); return r ? r.textContent : "(no row)"; })()`, path))
}

// setValue selects an entry and types a new value for it.
func (p *page) setValue(path, text string) {
	p.t.Helper()
	p.goTo(path)
	p.typeInto(`[data-key="tree.value"]`, text+"\r")
}

func zsCodec(t *testing.T) *zs.Codec {
	t.Helper()
	zsdic, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "zstd", "ZsDic.pack.zs"))
	if err != nil {
		t.Fatal(err)
	}
	codec, err := zs.LoadZsDic(zsdic)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(codec.Close)
	return codec
}

// A TotK pack with an AINB file and a BYML file edited: Save pack changes exactly those two
// members, each by its edit alone (the BYML value keeps its type), and every other member is
// byte-identical.
func TestTreePackEdit(t *testing.T) {
	p := newBrowser(t)
	dir := testcorpus.Dir(t)
	packPath := filepath.Join(dir, "sarc", "Accessory_Battery.pack.zs")
	p.upload("#zsdic-input", filepath.Join(dir, "zstd", "ZsDic.pack.zs"))
	p.waitFor(`ainbEditor.status().startsWith("Kept ZsDic.pack.zs")`)
	p.upload("#pack-input", packPath)
	p.waitFor(`ainbEditor.status().startsWith("Opened pack")`)
	if s := eval[string](p, `ainbEditor.status()`); s != "Opened pack Accessory_Battery.pack.zs: 18 files (2 AINB, 16 BYML)" {
		t.Fatalf("status %q", s)
	}
	p.waitFor(`!!ainbEditor.timings().packList`)
	list := eval[map[string]float64](p, `ainbEditor.timings().packList`)
	t.Logf("pack file list (%v files): first render %.1f ms after the file was given (server open %.1f ms, list %.2f ms)", list["files"], list["firstRender"], list["open"], list["render"])
	if n := eval[int](p, `document.querySelectorAll(".pack-files button[data-member]").length`); n != 18 {
		t.Errorf("%d members can be opened, want all 18", n)
	}

	// The AINB file, as in TestPackOpenEditSave.
	const root = "AI/Accessory_Battery.root.ainb"
	const asinfo = "Component/ASInfo/Accessory_Battery.engine__component__ASInfo.bgyml"
	before := eval[int](p, `ainbEditor.loads()`)
	p.do(chromedp.Click(chromedp.CSS(`.pack-files button[data-member="` + root + `"]`)))
	p.waitFor(fmt.Sprintf(`ainbEditor.loads() > %d`, before))
	p.typeInto(`[data-key="cmd.0"]`, "RootEdited\r")
	p.waitFor(`ainbEditor.dirty()`)

	// The BYML file: the tree replaces the graph; NumController (an int) becomes 3.
	p.do(chromedp.Click(chromedp.CSS(`.pack-files button[data-member="` + asinfo + `"]`)))
	p.treeShown("Accessory_Battery.engine__component__ASInfo.bgyml")
	if !eval[bool](p, `(() => { const a = document.querySelector(".tree-pane").getBoundingClientRect(), b = document.querySelector(".stage").getBoundingClientRect(); return a.width === b.width && a.height === b.height && getComputedStyle(document.getElementById("graph")).visibility === "hidden"; })()`) {
		t.Error("the tree view does not take the graph's place")
	}
	if v := p.rowValue("/NumController"); v != "2" {
		t.Fatalf("NumController shows %q", v)
	}
	p.setValue("/NumController", "3")
	p.waitFor(`document.querySelector('.tree-row[data-path="/NumController"] .tree-value').textContent === "3"`)
	if s := eval[string](p, `document.querySelector(".pack .hint").textContent`); !strings.HasSuffix(s, "; 2 with unsaved edits") {
		t.Errorf("summary after two edits %q", s)
	}
	if s := eval[string](p, `document.querySelector(".doc-title").textContent`); s != "Accessory_Battery.engine__component__ASInfo.bgyml" {
		t.Errorf("title %q", s)
	}

	// Back to the graph and to the tree again: each kept its edit.
	p.do(chromedp.Click(chromedp.CSS(`.pack-files button[data-member="` + root + `"]`)))
	p.waitFor(`document.querySelector(".tree-pane").hidden`)
	if s := eval[string](p, `ainbEditor.document().commands[0].name`); s != "RootEdited" {
		t.Errorf("the AINB file's command is %q", s)
	}
	p.do(chromedp.Click(chromedp.CSS(`.pack-files button[data-member="` + asinfo + `"]`)))
	p.waitFor(`!document.querySelector(".tree-pane").hidden`)
	if v := p.rowValue("/NumController"); v != "3" {
		t.Errorf("NumController shows %q after coming back", v)
	}

	p.do(chromedp.Click(chromedp.CSS(`[data-action="save-pack"]`)))
	p.waitFor(`ainbEditor.status().startsWith("Saved")`)
	if s := eval[string](p, `ainbEditor.status()`); !strings.HasSuffix(s, "; 2 files changed)") {
		t.Errorf("status %q", s)
	}
	out := p.download("Accessory_Battery.pack.zs")

	was, now := openPacks(t, packPath, out)
	if now.Wrapping != was.Wrapping || len(now.Archive.Files) != len(was.Archive.Files) {
		t.Fatalf("wrapping %+v with %d members, was %+v with %d", now.Wrapping, len(now.Archive.Files), was.Wrapping, len(was.Archive.Files))
	}
	for i, f := range now.Archive.Files {
		old := was.Archive.Files[i]
		switch {
		case f.Name != old.Name:
			t.Fatalf("member %d is %s, was %s", i, f.Name, old.Name)
		case f.Name == root:
			checkCommandRenamed(t, f.Name, old.Data, f.Data, 0, "RootEdited")
		case f.Name == asinfo:
			checkBYMLEdit(t, old.Data, f.Data, func(r *byml.Node) *byml.Node { return r.Get("NumController") }, byml.NewInt(3))
		case !bytes.Equal(f.Data, old.Data):
			t.Errorf("member %s changed", f.Name)
		}
	}

	// Saving again with nothing edited changes no member.
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save-pack"]`)))
	p.waitFor(`ainbEditor.status().endsWith("; 0 files changed)")`)
}

// checkBYMLEdit checks that a BYML file differs from its old bytes by one value, now want
// (kind and bits), and that with the old value back the tree is the old one.
func checkBYMLEdit(t *testing.T, oldData, newData []byte, at func(*byml.Node) *byml.Node, want *byml.Node) {
	t.Helper()
	was, err := byml.Read(oldData)
	if err != nil {
		t.Fatal(err)
	}
	got, err := byml.Read(newData)
	if err != nil {
		t.Fatalf("the saved BYML: %v", err)
	}
	v := at(got.Root)
	if v == nil || !byml.Equal(v, want) {
		t.Fatalf("the edited value is %+v, want %+v", v, want)
	}
	*v = *at(was.Root)
	if !byml.Equal(got.Root, was.Root) || got.Version != was.Version || got.BigEndian != was.BigEndian {
		t.Error("more changed than the edited value")
	}
}

// treeKey sends a key to the tree's rows, as when they have the focus.
func (p *page) treeKey(keys string, mods ...chromedp.Modifier) {
	p.t.Helper()
	p.run(`document.querySelector(".tree-scroll").focus()`)
	p.do(chromedp.KeyEvent(keys, chromedp.KeyModifiers(mods...)))
}

// The largest BYML of the corpus opens with only the rows in sight in the DOM; a deep value
// is found by path and by search and edited (a float stays a float, text that is no float
// is refused); the saved file differs from the original in that value's bytes alone.
func TestTreeLargestBYML(t *testing.T) {
	p := newBrowser(t)
	dir := filepath.Join(testcorpus.Dir(t), "byml")
	path, size := "", int64(0)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && strings.HasSuffix(e.Name(), ".byml") && info.Size() > size {
			path, size = filepath.Join(dir, e.Name()), info.Size()
		}
	}
	if filepath.Base(path) != "ActorInfo.product.byml" {
		t.Fatalf("the largest BYML is %s", path)
	}
	in, doc, k, deep := deepActorValue(t, path)
	actor := doc.Root.Get("Actors").Items[k]

	p.upload("#file-input", path)
	p.treeShown("ActorInfo.product.byml")
	p.waitFor(`!!ainbEditor.timings().tree`)
	tm := eval[map[string]any](p, `ainbEditor.timings().tree`)
	t.Logf("%s (%d bytes): first render %.0f ms after the file was given (open through the server %.0f ms); %v rows, %v in the DOM",
		filepath.Base(path), size, tm["firstRender"], tm["open"], tm["rows"], tm["domRows"])
	if rows, dom := tm["rows"].(float64), eval[int](p, `document.querySelectorAll(".tree-row").length`); rows < 5000 || dom > 120 {
		t.Errorf("%v rows with %d in the DOM: want every actor listed and only those in sight drawn", rows, dom)
	}

	// Responsive: a scroll to the middle is drawn in a frame or two; expanding everything
	// and collapsing it again, searching the whole file.
	scroll := eval[float64](p, `(async () => { const s = document.querySelector(".tree-scroll"), t0 = performance.now(); s.scrollTop = s.scrollHeight / 2;
		await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))); return performance.now() - t0; })()`)
	expand := eval[float64](p, `(() => { const t0 = performance.now(); document.querySelector('[data-action="tree-expand"]').click(); return performance.now() - t0; })()`)
	expanded := eval[string](p, `ainbEditor.status()`)
	domRows := eval[int](p, `document.querySelectorAll(".tree-row").length`)
	collapse := eval[float64](p, `(() => { const t0 = performance.now(); document.querySelector('[data-action="tree-collapse"]').click(); return performance.now() - t0; })()`)
	search := eval[float64](p, `(() => { const f = document.querySelector('[data-key="tree.search"]'); f.value = "zzzznothing"; const t0 = performance.now();
		f.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true })); return performance.now() - t0; })()`)
	t.Logf("scroll to the middle drawn in %.0f ms; Expand all %.0f ms (%s; %d rows in the DOM); Collapse all %.0f ms; a search of the whole file %.0f ms", scroll, expand, expanded, domRows, collapse, search)
	if domRows > 120 {
		t.Errorf("%d rows in the DOM with everything expanded", domRows)
	}
	p.run(`document.querySelector('[data-key="tree.search"]').value = ""`)

	// By path: the containers above open, the row scrolls into sight.
	p.goTo(deep)
	if got := eval[string](p, `document.querySelector('[data-key="tree.type"]').textContent`); got != "float" {
		t.Errorf("type %q", got)
	}
	if n := eval[int](p, `document.querySelectorAll(".tree-row").length`); n > 120 {
		t.Errorf("%d rows in the DOM after going deep", n)
	}
	p.allowed = append(p.allowed, "favicon")
	p.typeInto(`[data-key="tree.value"]`, "twelve\r")
	p.waitFor(`[...document.querySelectorAll(".toast.error")].some((t) => t.textContent.includes("is not a number"))`)
	if v := p.rowValue(deep); v == "twelve" {
		t.Fatal("text that is not a float was taken")
	}
	p.typeInto(`[data-key="tree.value"]`, "12.5\r")
	p.waitFor(fmt.Sprintf(`document.querySelector('.tree-row[data-path=%q] .tree-value').textContent === "12.5"`, deep))

	// By search: the actor's name, found wherever a key or value holds it, in tree order.
	name := actor.Get("name").Str
	first, count := searchBYML(doc.Root, strings.ToLower(name))
	p.typeInto(`[data-key="tree.search"]`, name+"\r")
	p.waitFor(fmt.Sprintf(`document.querySelector('.tree-row.selected') && document.querySelector('.tree-row.selected').dataset.path === %q`, first))
	if c := eval[string](p, `document.querySelector('[data-key="tree.search-count"]').textContent`); c != fmt.Sprintf("1 / %d", count) {
		t.Errorf("search count %q, want 1 / %d", c, count)
	}

	// Edits search again once they pause: a burst of undos and redos (Ctrl+Z, Ctrl+Y, in one
	// task) searches not at once but once after, and keeps the place among the hits.
	runs := eval[int](p, `ainbEditor.treeSearches()`)
	burst := eval[int](p, `(() => {
	  for (let k = 0; k < 4; k++) window.dispatchEvent(new KeyboardEvent("keydown", k % 2 ? {key: "y", code: "KeyY", ctrlKey: true} : {key: "z", code: "KeyZ", ctrlKey: true}));
	  return ainbEditor.treeSearches(); })()`)
	if st := eval[string](p, `ainbEditor.status()`); burst != runs || !strings.HasPrefix(st, "Redid:") {
		t.Errorf("during the burst of edits (status %q): %d searches, want %d", st, burst, runs)
	}
	p.waitFor(fmt.Sprintf(`ainbEditor.treeSearches() === %d`, runs+1))
	time.Sleep(3 * 150 * time.Millisecond) // three search delays: no second search comes
	if n := eval[int](p, `ainbEditor.treeSearches()`); n != runs+1 {
		t.Errorf("%d searches after the burst, want 1", n-runs)
	}
	if c := eval[string](p, `document.querySelector('[data-key="tree.search-count"]').textContent`); c != fmt.Sprintf("1 / %d", count) {
		t.Errorf("search count after the edits %q, want 1 / %d", c, count)
	}

	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	p.waitFor(`ainbEditor.status().startsWith("Saved")`)
	out := p.download("ActorInfo.product.byml")
	if n := countDiff(out, in); len(out) != len(in) || n == 0 || n > 4 {
		t.Errorf("the saved file differs in %d bytes (%d long, was %d): want the float's alone", n, len(out), len(in))
	}
	checkBYMLEdit(t, in, out, func(r *byml.Node) *byml.Node { return r.Get("Actors").Items[k].Get("aabbMax").Get("X") }, byml.NewFloat(12.5))
}

// deepActorValue reads ActorInfo.product.byml at path and finds a deep value: the bounding
// box of the first actor from number 5000 that has one (its index k and the X's path).
func deepActorValue(t *testing.T, path string) (in []byte, doc *byml.Document, k int, deep string) {
	t.Helper()
	in, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if doc, err = byml.Read(in); err != nil {
		t.Fatal(err)
	}
	k = 5000
	for doc.Root.Get("Actors").Items[k].Get("aabbMax") == nil {
		k++
	}
	return in, doc, k, fmt.Sprintf("/Actors/%d/aabbMax/X", k)
}

// searchBYML finds what the tree's search finds: entries whose key or string value holds q
// (every value of ActorInfo that could hold a name is a string), depth first in tree order.
func searchBYML(root *byml.Node, q string) (first string, count int) {
	var walk func(n *byml.Node, path string)
	visit := func(key, path string, v *byml.Node) {
		p := path + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
		if strings.Contains(strings.ToLower(key), q) || v.Kind == byml.String && strings.Contains(strings.ToLower(v.Str), q) {
			if count++; count == 1 {
				first = p
			}
		}
		walk(v, p)
	}
	walk = func(n *byml.Node, path string) {
		for i, it := range n.Items {
			visit(fmt.Sprint(i), path, it)
		}
		for _, e := range n.Entries {
			visit(e.Key, path, e.Value)
		}
	}
	walk(root, "")
	return first, count
}

// testBYML is a small BYML file of known shape, written to a temporary directory.
func testBYML(t *testing.T) (string, []byte) {
	t.Helper()
	data, err := (&byml.Document{Version: 7, Root: testRoot()}).BytesCanonical()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "Test.byml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, data
}

// rows is the paths and values of the rows shown.
func (p *page) rows() string {
	p.t.Helper()
	return eval[string](p, `[...document.querySelectorAll(".tree-row")].map((r) => r.dataset.path + "=" + r.querySelector(".tree-value").textContent).join(" ")`)
}

// Every kind of tree edit, by the edit bar and by the keyboard, undone one by one with
// Ctrl+Z back to the original bytes, and redone with Ctrl+Y to the edited tree.
func TestTreeUndoRedo(t *testing.T) {
	p := newBrowser(t)
	path, orig := testBYML(t)
	p.upload("#file-input", path)
	p.treeShown("Test.byml")
	// The toggles are clicked on the element itself: a click at the coordinates measured a
	// moment before could land on another row while the pane settles after opening.
	eval[bool](p, `(document.querySelector('.tree-row[data-path="/List"] .tree-toggle').click(), true)`)
	p.waitFor(`!!document.querySelector('.tree-row[data-path="/List/0"]')`)
	eval[bool](p, `(document.querySelector('.tree-row[data-path="/d"] .tree-toggle').click(), true)`)
	p.waitFor(`!!document.querySelector('.tree-row[data-path="/d/deep"]')`)
	eval[bool](p, `document.querySelector('.tree-row[data-path="/d/deep"] .tree-key').dispatchEvent(new MouseEvent("dblclick", { bubbles: true }))`)
	p.waitFor(`!!document.querySelector('.tree-row[data-path="/d/deep/v"]')`)
	start := p.rows()
	if start != `/List=[3] /List/0=1 /List/1=2 /List/2=0.5 /b="x" /c=7 /d={1} /d/deep={1} /d/deep/v=1.25` {
		t.Fatalf("rows %s", start)
	}

	var steps []string
	step := func(what string, do func()) {
		t.Helper()
		before := p.rows()
		do()
		p.waitFor(fmt.Sprintf(`[...document.querySelectorAll(".tree-row")].map((r) => r.dataset.path + "=" + r.querySelector(".tree-value").textContent).join(" ") !== %q`, before))
		steps = append(steps, p.rows())
		t.Logf("%s: %s", what, steps[len(steps)-1])
	}
	step("value", func() { p.setValue("/List/0", "42") })
	step("rename", func() {
		p.goTo("/b")
		p.typeInto(`[data-key="tree.key"]`, "a0\r")
	})
	step("add", func() {
		p.goTo("/List")
		p.run(`(() => { const s = document.querySelector('[data-key="tree.add-type"]'); s.value = "float"; s.dispatchEvent(new Event("change")); })()`)
		p.do(chromedp.Click(chromedp.CSS(`[data-action="tree-add"]`)))
	})
	step("move with Alt+↑", func() {
		p.goTo("/List/1")
		p.treeKey(kb.ArrowUp, chromedp.ModifierAlt)
	})
	step("remove with Delete", func() {
		p.goTo("/c")
		p.treeKey(kb.Delete)
	})
	step("deep value with Enter", func() {
		p.goTo("/d/deep/v")
		p.treeKey(kb.Enter)
		p.waitFor(`document.activeElement === document.querySelector('[data-key="tree.value"]')`)
		p.do(chromedp.SendKeys(chromedp.CSS(`[data-key="tree.value"]`), "0.1\r"))
	})
	want := `/List=[4] /List/0=2 /List/1=42 /List/2=0.5 /List/3=0 /a0="x" /d={1} /d/deep={1} /d/deep/v=0.1`
	if got := p.rows(); got != want {
		t.Fatalf("after the edits %s\nwant %s", got, want)
	}
	p.waitFor(`!document.querySelector('[data-action="undo"]').disabled`)

	// Ctrl+Z undoes each step, newest first.
	for i := len(steps) - 1; i >= 0; i-- {
		before := ""
		if i > 0 {
			before = steps[i-1]
		} else {
			before = start
		}
		p.treeKey("z", chromedp.ModifierCtrl)
		p.waitFor(fmt.Sprintf(`[...document.querySelectorAll(".tree-row")].map((r) => r.dataset.path + "=" + r.querySelector(".tree-value").textContent).join(" ") === %q`, before))
	}
	if !eval[bool](p, `document.querySelector('[data-action="undo"]').disabled && document.querySelector(".dirty").hidden`) {
		t.Error("after undoing everything there is still something to undo, or the file is marked edited")
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	p.waitFor(`ainbEditor.status().startsWith("Saved")`)
	if out := p.download("Test.byml"); !bytes.Equal(out, orig) {
		t.Error("every edit undone, the file saved is not the original")
	}
	os.Remove(filepath.Join(p.downloads, "Test.byml"))

	// Ctrl+Y redoes them all.
	for range steps {
		p.treeKey("y", chromedp.ModifierCtrl)
	}
	p.waitFor(fmt.Sprintf(`[...document.querySelectorAll(".tree-row")].map((r) => r.dataset.path + "=" + r.querySelector(".tree-value").textContent).join(" ") === %q`, want))
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	p.waitFor(`ainbEditor.status().startsWith("Saved")`)
	got, err := byml.Read(p.download("Test.byml"))
	if err != nil {
		t.Fatal(err)
	}
	list := got.Root.Get("List").Items
	if len(list) != 4 || !byml.Equal(list[0], byml.NewInt(2)) || !byml.Equal(list[1], byml.NewInt(42)) || !byml.Equal(list[3], byml.NewFloat(0)) ||
		got.Root.Get("a0").Str != "x" || got.Root.Get("b") != nil || got.Root.Get("c") != nil ||
		!byml.Equal(got.Root.Get("d").Get("deep").Get("v"), byml.NewDouble(0.1)) {
		y, _ := got.ToYAML()
		t.Errorf("the saved tree:\n%s", y)
	}
}

// The YAML view: edited and applied as one undoable step, types as the YAML tags say; a YAML
// problem is shown with its line, and the caret is put on that line.
func TestTreeYAML(t *testing.T) {
	p := newBrowser(t)
	path, _ := testBYML(t)
	p.upload("#file-input", path)
	p.treeShown("Test.byml")
	p.do(chromedp.Click(chromedp.CSS(`[data-action="tree-yaml"]`)))
	p.waitFor(`document.querySelector('[data-key="tree.yaml"]').value.includes("b: x")`)
	yaml := eval[string](p, `document.querySelector('[data-key="tree.yaml"]').value`)
	if yaml != "List: [1, 2, 0.5]\nb: x\nc: !u 0x00000007\nd:\n  deep: {v: !f64 1.25}\n" {
		t.Fatalf("yaml %q", yaml)
	}
	setYAML := func(text string) {
		t.Helper()
		p.run(fmt.Sprintf(`(() => { const ta = document.querySelector('[data-key="tree.yaml"]'); ta.focus(); ta.value = %q; ta.dispatchEvent(new Event("input")); })()`, text))
		p.do(chromedp.Click(chromedp.CSS(`[data-action="tree-yaml-apply"]`)))
	}
	setYAML(strings.NewReplacer("b: x", "b: yy", "c: !u 0x00000007", "c: !u 0x8", "[1, 2, 0.5]", "[1, 2, 0.5, 9]").Replace(yaml))
	p.waitFor(`ainbEditor.status() === "Applied the YAML"`)
	p.do(chromedp.Click(chromedp.CSS(`[data-action="tree-yaml-close"]`)))
	p.goTo("/List")
	p.treeKey(kb.ArrowRight)
	p.waitFor(`!!document.querySelector('.tree-row[data-path="/List/3"]')`)
	if got := p.rows(); !strings.HasPrefix(got, `/List=[4] /List/0=1 /List/1=2 /List/2=0.5 /List/3=9 /b="yy" /c=8 `) {
		t.Errorf("rows after applying %s", got)
	}
	p.goTo("/c")
	if ty := eval[string](p, `document.querySelector('[data-key="tree.type"]').textContent`); ty != "uint" {
		t.Errorf("c is a %s, want uint (!u)", ty)
	}
	if n := eval[[]string](p, `ainbEditor.history().undo`); len(n) != 0 {
		t.Errorf("the graph's history has %q", n)
	}
	// One undo takes the whole YAML back.
	p.treeKey("z", chromedp.ModifierCtrl)
	p.waitFor(`document.querySelector('.tree-row[data-path="/b"] .tree-value').textContent === '"x"'`)
	p.treeKey("y", chromedp.ModifierCtrl)
	p.waitFor(`document.querySelector('.tree-row[data-path="/b"] .tree-value').textContent === '"yy"'`)

	// Problems: the parser's and the codec's, each on its line.
	p.do(chromedp.Click(chromedp.CSS(`[data-action="tree-yaml"]`)))
	p.waitFor(`document.querySelector('[data-key="tree.yaml"]').value.includes("b: yy")`)
	p.allowed = append(p.allowed, "/api/tree/from-yaml")
	for _, c := range []struct {
		text string
		line int
		msg  string
	}{
		{"List: [1, 2\nb: x\nc: !u 0x7\n", 0, "the YAML is not valid: line "},
		{"List: [1, 2]\nb: x\nc: !u -7\n", 3, "the YAML is not valid: line 3 column 4 (at c): "},
	} {
		setYAML(c.text)
		p.waitFor(`!document.querySelector('[data-key="tree.yaml-error"]').hidden`)
		msg := eval[string](p, `document.querySelector('[data-key="tree.yaml-error"]').textContent`)
		if !strings.HasPrefix(msg, c.msg) {
			t.Errorf("%q: error %q", c.text, msg)
		}
		var line int
		fmt.Sscanf(strings.TrimPrefix(msg, "the YAML is not valid: line "), "%d", &line)
		if line == 0 || c.line != 0 && line != c.line {
			t.Errorf("%q: line %d", c.text, line)
		}
		start := eval[int](p, `document.querySelector('[data-key="tree.yaml"]').selectionStart`)
		if want := len(strings.Join(strings.SplitAfter(c.text, "\n")[:line-1], "")); start != want {
			t.Errorf("%q: the caret is at %d, want %d (the start of line %d)", c.text, start, want, line)
		}
		if s := eval[string](p, `ainbEditor.status()`); s != "The YAML is not valid" {
			t.Errorf("status %q", s)
		}
	}
	// Nothing was applied.
	p.do(chromedp.Click(chromedp.CSS(`[data-action="tree-yaml-close"]`)))
	p.waitFor(`document.querySelector('.tree-row[data-path="/b"] .tree-value').textContent === '"yy"'`)
}

// An AAMP file: an f32 parameter deep in its lists is edited, and the saved file differs
// from the original in that value's bytes alone, the parameter still an f32.
func TestTreeAAMPEdit(t *testing.T) {
	p := newBrowser(t)
	path := filepath.Join(testcorpus.Dir(t), "aamp", "Lizalfos.bphysics")
	in, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pio, err := aamp.Read(in)
	if err != nil {
		t.Fatal(err)
	}
	// The deepest f32 parameter of a value no other parameter has, and its path as the view
	// names it (each name, or its hash).
	namer := aamp.NewNamer(pio)
	seen := map[float32]int{}
	type found struct {
		path  string
		depth int
		p     *aamp.Parameter
	}
	var all []found
	var walk func(l *aamp.ParameterList, path string, depth int)
	name := func(h aamp.Name, i int, parent aamp.Name) string {
		if s, ok := namer.Name(h, i, parent); ok && s != "" {
			return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
		}
		return fmt.Sprint(uint32(h))
	}
	walk = func(l *aamp.ParameterList, path string, depth int) {
		for i, o := range l.Objects {
			op := path + "/" + name(o.Name, i, l.Name)
			for j := range o.Params {
				if q := &o.Params[j]; q.Type == aamp.TypeF32 {
					seen[q.Value.(float32)]++
					all = append(all, found{op + "/" + name(q.Name, j, o.Name), depth, q})
				}
			}
		}
		for i, c := range l.Lists {
			walk(c, path+"/"+name(c.Name, i, l.Name), depth+1)
		}
	}
	walk(&pio.Root, "", 0)
	var target found
	for _, f := range all {
		if seen[f.p.Value.(float32)] == 1 && f.depth >= target.depth {
			target = f
		}
	}
	if target.p == nil || target.depth < 2 {
		t.Fatalf("no deep f32 of its own value: %+v", target)
	}

	p.upload("#file-input", path)
	p.treeShown("Lizalfos.bphysics")
	p.setValue(target.path, "0.375")
	p.waitFor(fmt.Sprintf(`document.querySelector('.tree-row[data-path=%q] .tree-value').textContent === "0.375"`, target.path))
	if ty := eval[string](p, `document.querySelector('[data-key="tree.type"]').textContent`); ty != "f32" {
		t.Errorf("type %q", ty)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	p.waitFor(`ainbEditor.status().startsWith("Saved")`)
	out := p.download("Lizalfos.bphysics")
	if n := countDiff(out, in); len(out) != len(in) || n == 0 || n > 4 {
		t.Errorf("the saved file differs in %d bytes (%d long, was %d): want the value's alone", n, len(out), len(in))
	}
	got, err := aamp.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	target.p.Value = float32(0.375)
	gj, _ := aamp.ToJSON(got)
	wj, _ := aamp.ToJSON(pio)
	if !bytes.Equal(gj, wj) {
		t.Error("the saved file is not the original with the one value changed")
	}
}

// A TotK .byml.zs opened loose: without the dictionaries the message says what to choose;
// with them it opens, and saves under its own name, compressed with its own dictionary.
func TestTreeLooseZstd(t *testing.T) {
	p := newBrowser(t)
	dir := testcorpus.Dir(t)
	path := filepath.Join(dir, "byml", "totk", "Tag.Product.120.rstbl.byml.zs")
	p.allowed = append(p.allowed, "/api/tree")
	p.upload("#file-input", path)
	p.waitFor(`document.querySelectorAll(".toast.error").length > 0`)
	if got := p.toasts(); len(got) != 1 || got[0] != "error: Tag.Product.120.rstbl.byml.zs is compressed with a dictionary of the game: choose the game's ZsDic.pack.zs (Pack panel) to open it." {
		t.Fatalf("toasts %q", got)
	}
	p.upload("#zsdic-input", filepath.Join(dir, "zstd", "ZsDic.pack.zs"))
	p.treeShown("Tag.Product.120.rstbl.byml.zs")
	p.setValue("/TagList/1", "ActorForWarmthEdited")
	p.waitFor(`document.querySelector('.tree-row[data-path="/TagList/1"] .tree-value').textContent === '"ActorForWarmthEdited"'`)
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	p.waitFor(`ainbEditor.status().startsWith("Saved")`)
	if s := eval[string](p, `ainbEditor.status()`); !strings.Contains(s, "zstd with dictionary 1") {
		t.Errorf("status %q", s)
	}
	out := p.download("Tag.Product.120.rstbl.byml.zs")
	if id, err := zs.FrameDictID(out); err != nil || id != 1 {
		t.Fatalf("saved with dictionary %d (%v), want 1", id, err)
	}
	codec := zsCodec(t)
	in, _ := os.ReadFile(path)
	was, err := codec.Decompress(in, zs.MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	now, err := codec.Decompress(out, zs.MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	checkBYMLEdit(t, was, now, func(r *byml.Node) *byml.Node { return r.Get("TagList").Items[1] }, byml.NewString("ActorForWarmthEdited"))
}

// A file whose name says nothing opens by its bytes; while a tree shows, the graph's keys
// leave the graph behind it alone, and opening an AINB file brings the graph back.
func TestTreeOpenByMagic(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/minimal_v407.ainb"))
	nodes := eval[int](p, `ainbEditor.document().nodes.length`)
	_, data := testBYML(t)
	path := filepath.Join(t.TempDir(), "Settings.dat")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	p.upload("#file-input", path)
	p.treeShown("Settings.dat")
	if s := eval[string](p, `document.querySelector(".doc-title").textContent`); s != "Settings.dat" {
		t.Errorf("title %q", s)
	}
	// The graph's keys: A (add a node), Ctrl+A and Delete (select all, delete) do nothing here.
	p.run(`document.activeElement.blur()`)
	p.do(chromedp.KeyEvent("a"), chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.KeyEvent(kb.Delete))
	if eval[bool](p, `!!document.querySelector(".overlay")`) || eval[int](p, `ainbEditor.document().nodes.length`) != nodes || len(eval[[]string](p, `ainbEditor.history().undo`)) != 0 {
		t.Error("a key of the graph acted on the graph behind the tree")
	}
	// Collapse all, then expand one entry with the keyboard.
	p.do(chromedp.Click(chromedp.CSS(`[data-action="tree-collapse"]`)))
	if got := p.rows(); got != `/List=[3] /b="x" /c=7 /d={1}` {
		t.Errorf("collapsed rows %s", got)
	}
	p.goTo("/d")
	p.treeKey(kb.ArrowRight)
	p.waitFor(`!!document.querySelector('.tree-row[data-path="/d/deep"]')`)
	p.treeKey(kb.ArrowLeft)
	p.waitFor(`!document.querySelector('.tree-row[data-path="/d/deep"]')`)
	// The help lists the tree's keys.
	p.treeKey("?")
	p.waitFor(`!!document.querySelector(".overlay.help")`)
	if !eval[bool](p, `[...document.querySelectorAll(".overlay.help td")].some((td) => td.textContent === "Move the entry up")`) {
		t.Error("the help does not list the tree's keys")
	}
	p.treeKey(kb.Escape)

	before := eval[int](p, `ainbEditor.loads()`)
	p.upload("#file-input", corpusFile(t, "synthetic/minimal_v407.ainb"))
	p.waitFor(fmt.Sprintf(`ainbEditor.loads() > %d`, before))
	if !eval[bool](p, `document.querySelector(".tree-pane").hidden && !document.querySelector(".editor").classList.contains("tree-mode")`) {
		t.Error("the tree still shows over the AINB file")
	}
}

// A shared node shows "shared ×N" at each place and an edit of it says how many places it
// changes; a hash whose keys the file keeps unsorted is marked, and the file's warnings
// show above the entries.
func TestTreeSharedAndWarnings(t *testing.T) {
	p := newBrowser(t)
	shared := byml.NewArray(byml.NewInt(1), byml.NewInt(2))
	root := byml.NewHash()
	root.Set("a", shared)
	root.Set("b", shared)
	root.Set("u", &byml.Node{Kind: byml.Hash, KeepOrder: true, Entries: []byml.Entry{{Key: "y", Value: byml.NewInt(1)}, {Key: "x", Value: byml.NewInt(2)}}})
	data, err := (&byml.Document{Version: 3, Root: root}).BytesCanonical()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "Shared.byml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	p.upload("#file-input", path)
	p.treeShown("Shared.byml")
	badge := func(row, sel string) string {
		return eval[string](p, fmt.Sprintf(`(() => { const b = document.querySelector('.tree-row[data-path=%q] %s'); return b ? b.textContent : ""; })()`, row, sel))
	}
	if a, b, u := badge("/a", ".tree-shared"), badge("/b", ".tree-shared"), badge("/u", ".tree-shared"); a != "shared ×2" || b != "shared ×2" || u != "" {
		t.Errorf("shared badges %q %q %q", a, b, u)
	}
	if w := badge("/u", ".tree-warn"); w != "⚠ unsorted keys" {
		t.Errorf("unsorted badge %q", w)
	}
	want := `⚠ /u (at 0x64): keys are not sorted ("x" comes after "y"): the game binary-searches keys and may not find some entries. Saving keeps the entries as they are.`
	if got := eval[string](p, `(() => { const w = document.querySelector('[data-key="tree.warnings"]'); return w.hidden ? "(hidden)" : w.textContent; })()`); got != want {
		t.Errorf("warnings %q, want %q", got, want)
	}
	p.goTo("/a")
	p.treeKey(kb.ArrowRight)
	p.waitFor(`!!document.querySelector('.tree-row[data-path="/a/1"]')`)
	p.setValue("/a/1", "9")
	p.waitFor(`ainbEditor.status() === "Set 1: changes 2 places (a shared node)"`)
	// Expansion is by node: /b, the same node, is open too, and shows the new value.
	p.waitFor(`!!document.querySelector('.tree-row[data-path="/b/1"]')`)
	if a, b := p.rowValue("/a/1"), p.rowValue("/b/1"); a != "9" || b != "9" {
		t.Errorf("after the edit /a/1 = %s, /b/1 = %s", a, b)
	}
}
