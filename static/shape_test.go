package static_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/klauspost/compress/zstd"

	"ainbeditor/internal/server"
	"ainbeditor/internal/testcorpus"
)

// Browser tests of files keeping their shape: node arrangements that survive save and
// reopen, .zs files that save as .zs, and the messages around opening and saving.

type place struct {
	ID     int     `json:"id"`
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Pinned bool    `json:"pinned"`
}

func (p *page) places() []place {
	p.t.Helper()
	return eval[[]place](p, `ainbEditor.document().nodes.map((n) => ({id: n.id, x: n.x, y: n.y, pinned: !!n.pinned}))`)
}

// download waits for the browser to have saved a file named name and returns its bytes.
func (p *page) download(name string) []byte {
	p.t.Helper()
	path := filepath.Join(p.downloads, name)
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(path)
		if err == nil && len(b) > 0 {
			// Chromium writes to a temporary name and renames: a file seen is complete.
			return b
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("download %s: %v", path, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// upload puts files on a file input without waiting for anything.
func (p *page) upload(sel string, paths ...string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.SetUploadFiles(chromedp.CSS(sel), paths)); err != nil {
		p.t.Fatalf("upload %v: %v", paths, err)
	}
}

// moveNode drags node id's header by (dx, dy) screen pixels.
func (p *page) moveNode(id int, dx, dy float64) {
	p.t.Helper()
	p.selectNode(id)
	from := p.screenOf(id, -1, "")
	p.drag(from, point{from.X + dx, from.Y + dy})
}

// A node arrangement survives saving and opening the saved file again (found by the file's
// hash), and travels as a sidecar file into a browser that never saw it.
func TestPositionsSurviveSaveAndReopen(t *testing.T) {
	p := newBrowser(t)
	path := corpusFile(t, "synthetic/kitchen_sink_v407.ainb")
	p.open(path)
	laidOut := p.places()
	p.moveNode(3, 160, 90)
	p.moveNode(5, -120, 200)
	arranged := p.places()
	if arranged[3] == laidOut[3] || arranged[5] == laidOut[5] || !arranged[3].Pinned {
		t.Fatalf("the drags moved nothing: %v -> %v", laidOut[3], arranged[3])
	}
	p.save()
	p.waitFor(`ainbEditor.status().startsWith("Saved")`)
	if s := eval[string](p, `ainbEditor.status()`); s != fmt.Sprintf("Saved kitchen_sink_v407.ainb (%d bytes)", len(p.app.lastBuild())) {
		t.Errorf("status %q", s)
	}
	saved := p.download("kitchen_sink_v407.ainb")
	if !bytes.Equal(saved, p.app.lastBuild()) {
		t.Fatal("the download differs from the build")
	}

	// Another file, then the saved one again.
	p.open(corpusFile(t, "synthetic/minimal_v407.ainb"))
	p.open(filepath.Join(p.downloads, "kitchen_sink_v407.ainb"))
	if got := p.places(); fmt.Sprint(got) != fmt.Sprint(arranged) {
		t.Errorf("reopened arrangement:\n%v\nwant\n%v", got, arranged)
	}
	if s := eval[string](p, `ainbEditor.status()`); s != "Opened kitchen_sink_v407.ainb: 29 nodes, arranged as when it was saved" {
		t.Errorf("status %q", s)
	}
	if n := eval[int](p, `ainbEditor.history().undo.length`); n != 0 {
		t.Errorf("restoring the arrangement left %d undo steps", n)
	}

	// The sidecar: exported here, imported in a fresh browser as one undoable step.
	p.do(chromedp.Click(chromedp.CSS(`[data-action="layout-export"]`)))
	side := p.download("kitchen_sink_v407.layout.json")
	var sc struct {
		Format, File, Sha256 string
		Nodes                [][4]float64
	}
	if err := json.Unmarshal(side, &sc); err != nil {
		t.Fatalf("sidecar: %v\n%s", err, side)
	}
	if sc.Format != "ainb-editor-layout/1" || sc.File != "kitchen_sink_v407.ainb" || len(sc.Nodes) != 29 || len(sc.Sha256) != 64 {
		t.Errorf("sidecar %+v", sc)
	}
	if n := sc.Nodes[3]; n != [4]float64{3, arranged[3].X, arranged[3].Y, 1} {
		t.Errorf("sidecar node 3: %v, want %v", n, arranged[3])
	}
	q := newBrowser(t)
	q.open(path)
	if got := q.places(); fmt.Sprint(got) != fmt.Sprint(laidOut) {
		t.Fatalf("a fresh browser already had an arrangement: %v", got[3])
	}
	q.upload("#layout-input", filepath.Join(p.downloads, "kitchen_sink_v407.layout.json"))
	q.waitFor(`ainbEditor.history().undo.length === 1`)
	if got := q.places(); fmt.Sprint(got) != fmt.Sprint(arranged) {
		t.Errorf("imported arrangement:\n%v\nwant\n%v", got, arranged)
	}
	if h := eval[[]string](q, `ainbEditor.history().undo`); len(h) != 1 || h[0] != "Import layout" {
		t.Errorf("history %v", h)
	}
	if s := eval[string](q, `ainbEditor.status()`); s != "Placed 29 nodes from kitchen_sink_v407.layout.json" {
		t.Errorf("status %q", s)
	}
	q.key("z", chromedp.ModifierCtrl)
	if got := q.places(); fmt.Sprint(got) != fmt.Sprint(laidOut) {
		t.Errorf("undoing the import: %v, want %v", got[3], laidOut[3])
	}
}

// zstdDict reads one of TotK's dictionaries from the corpus.
func zstdDict(t *testing.T, name string) (path string, data []byte) {
	t.Helper()
	path = filepath.Join(testcorpus.Dir(t), "zstd", name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, data
}

// A .zs file compressed with TotK's zs.zsdic saves back as .zs, under its own name, with
// that dictionary, and decodes to the saved binary.
func TestZstdSavesAsZstd(t *testing.T) {
	dictPath, dict := zstdDict(t, "zs.zsdic")
	p := newBrowserWith(t, func(c *server.Config) { c.ZstdDicts = []string{dictPath} })
	plain, err := os.ReadFile(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderDict(dict))
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "Enemy_Kitchen.ainb.zs")
	if err := os.WriteFile(in, enc.EncodeAll(plain, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	p.open(in)
	if title := eval[string](p, `document.querySelector(".doc-title").textContent`); title != "Enemy_Kitchen.ainb.zs" {
		t.Errorf("title %q", title)
	}
	// One edit, so the saved binary is not the input's.
	p.moveNode(2, 40, 40)
	p.undoAll()
	p.selectNode(3)
	p.typeInto(`[data-key="properties.0.name"]`, "Renamed\r")
	p.waitFor(`ainbEditor.dirty()`)
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	p.waitFor(`ainbEditor.status().startsWith("Saved")`)
	out := p.download("Enemy_Kitchen.ainb.zs")
	if s := eval[string](p, `ainbEditor.status()`); s != fmt.Sprintf("Saved Enemy_Kitchen.ainb.zs (%d bytes, zstd with dictionary 1)", len(out)) {
		t.Errorf("status %q", s)
	}
	var h zstd.Header
	if err := h.Decode(out); err != nil || h.DictionaryID != 1 || h.HasCheckSum || !h.HasFCS {
		t.Fatalf("frame header %+v (%v); want dictionary 1, content size, no checksum", h, err)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderDicts(dict))
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	got, err := dec.DecodeAll(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The saved binary: the same document built plain by the server.
	doc := eval[string](p, `JSON.stringify(ainbEditor.document())`)
	res, err := p.srv.Client().Post(p.srv.URL+"/api/build", "application/json", strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	want.ReadFrom(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("the .zs decodes to %d bytes, the saved binary has %d (status %d)", len(got), want.Len(), res.StatusCode)
	}
	if bytes.Equal(got, plain) || !bytes.Contains(got, []byte("Renamed")) {
		t.Error("the saved binary does not carry the edit")
	}
	// Opening the saved .zs again finds its arrangement.
	p.open(filepath.Join(p.downloads, "Enemy_Kitchen.ainb.zs"))
	if s := eval[string](p, `ainbEditor.status()`); s != "Opened Enemy_Kitchen.ainb.zs: 29 nodes, arranged as when it was saved" {
		t.Errorf("status %q", s)
	}
	// After a reload the restored document still saves as it came: .zs with dictionary 1.
	p.run(`new Promise((r) => setTimeout(r, 500))`) // the autosave after opening
	p.navigate("/")
	p.waitFor(`ainbEditor.loads() > 0`)
	before := p.app.buildCount()
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	p.waitFor(`ainbEditor.status().startsWith("Saved")`)
	if p.app.buildCount() != before+1 {
		t.Fatal("no build after the reload")
	}
	if s, n := eval[string](p, `ainbEditor.status()`), len(p.app.lastBuild()); s != fmt.Sprintf("Saved Enemy_Kitchen.ainb.zs (%d bytes, zstd with dictionary 1)", n) {
		t.Errorf("after a reload: status %q", s)
	}
	if err := h.Decode(p.app.lastBuild()); err != nil || h.DictionaryID != 1 {
		t.Errorf("after a reload: frame header %+v (%v)", h, err)
	}
}

// Ctrl+Z right after Enter in a field undoes the edit, with the focus still in the field;
// with typing not yet applied, it is the field's own undo.
func TestUndoRightAfterEnter(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/params_v407.ainb"))
	p.selectNode(3)
	sel := floatKey(p)
	p.do(chromedp.WaitVisible(chromedp.CSS(sel)))
	p.typeInto(sel, "1.1\r")
	if got := floatValue(p); got != float64(float32(1.1)) {
		t.Fatalf("after Enter: %v", got)
	}
	if tag := eval[string](p, `document.activeElement.tagName`); tag != "INPUT" {
		t.Fatalf("focus on %s after Enter, want the field", tag)
	}
	p.do(chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	if got := floatValue(p); got != 3.5 {
		t.Fatalf("Ctrl+Z right after Enter: %v, want 3.5", got)
	}
	if s := eval[string](p, `ainbEditor.status()`); !strings.HasPrefix(s, "Undid: ") {
		t.Errorf("status %q", s)
	}
	if n := eval[int](p, `ainbEditor.history().undo.length`); n != 0 {
		t.Errorf("%d undo steps left", n)
	}
	// Typing not applied yet: Ctrl+Z is the field's, the document keeps its value.
	p.run(fmt.Sprintf(`document.querySelector(%q).focus()`, sel))
	p.do(chromedp.KeyEvent("7"))
	p.do(chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	if got := floatValue(p); got != 3.5 {
		t.Errorf("Ctrl+Z while typing changed the document: %v", got)
	}
	if n := eval[int](p, `ainbEditor.history().redo.length`); n != 1 {
		t.Errorf("Ctrl+Z while typing undid an edit: %d redo steps, want 1", n)
	}
}

// toasts returns the text of the toasts shown, error ones marked.
func (p *page) toasts() []string {
	p.t.Helper()
	return eval[[]string](p, `[...document.querySelectorAll(".toast")].map((t) => (t.classList.contains("error") ? "error: " : "") + t.textContent)`)
}

// The messages of opening and saving, in a modder's words, cleared when they no longer hold.
func TestOpenAndSaveMessages(t *testing.T) {
	p := newBrowser(t)
	dir := t.TempDir()

	// An empty file.
	empty := filepath.Join(dir, "Empty.ainb")
	os.WriteFile(empty, nil, 0o644)
	p.upload("#file-input", empty)
	p.waitFor(`document.querySelectorAll(".toast").length > 0`)
	if got := p.toasts(); len(got) != 1 || got[0] != "error: Could not open Empty.ainb: the file is empty (0 bytes)." {
		t.Errorf("empty file: %q", got)
	}
	p.run(`document.querySelectorAll(".toast").forEach((t) => t.remove())`)

	// A .zs cut short: the server refuses it, which the console logs.
	p.allowed = append(p.allowed, "/api/parse?name=Broken.ainb.zs")
	plain, _ := os.ReadFile(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(false))
	z := enc.EncodeAll(plain, nil)
	var h zstd.Header
	if err := h.Decode(z); err != nil || !h.FirstBlock.Last {
		t.Fatalf("want one block: %+v %v", h, err)
	}
	broken := filepath.Join(dir, "Broken.ainb.zs")
	os.WriteFile(broken, z[:len(z)-10], 0o644)
	p.upload("#file-input", broken)
	p.waitFor(`document.querySelectorAll(".toast").length > 0`)
	want := fmt.Sprintf("error: Could not open Broken.ainb.zs: not a valid zstd file: the file ends at byte %d, inside the block at byte %d, which needs 10 bytes more (the file is cut short)", len(z)-10, h.HeaderSize)
	if got := p.toasts(); len(got) != 1 || got[0] != want {
		t.Errorf("broken .zs: %q\nwant %q", got, want)
	}
	if s := eval[string](p, `ainbEditor.status()`); s != "" {
		t.Errorf("status after a failed open: %q", s)
	}
	p.run(`document.querySelectorAll(".toast").forEach((t) => t.remove())`)

	// A file without nodes opens without a complaint.
	p.open(corpusFile(t, "real/totkbits_ChemicalBall.Prepare_23f6000.ainb"))
	time.Sleep(300 * time.Millisecond)
	if got := p.toasts(); len(got) != 0 {
		t.Errorf("a file with no nodes: toasts %q", got)
	}
	if s := eval[string](p, `ainbEditor.status()`); s != "Opened totkbits_ChemicalBall.Prepare_23f6000.ainb: 0 nodes" {
		t.Errorf("status %q", s)
	}

	// A report of a save clears at the next edit.
	p.open(corpusFile(t, "synthetic/minimal_v407.ainb"))
	p.save()
	p.waitFor(`ainbEditor.status().startsWith("Saved minimal_v407.ainb (")`)
	p.moveNode(0, 50, 50)
	if s := eval[string](p, `ainbEditor.status()`); s != "" {
		t.Errorf("status after an edit following the save: %q", s)
	}
	if cls := eval[string](p, `document.querySelector(".status-text").textContent`); cls != "" {
		t.Errorf("status bar shows %q", cls)
	}
}

// The expressions panel shows every line whole, and the legend stays as the user left it.
func TestExpressionsAndLegend(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/expressions_v407.ainb"))
	p.run(`document.querySelector('.tab[data-tab="expressions"]').click()`)
	type box struct{ SW, CW, SH, CH, Lines int }
	boxes := eval[[]box](p, `[...document.querySelectorAll("textarea.code")].map((t) => ({sw: t.scrollWidth, cw: t.clientWidth, sh: t.scrollHeight, ch: t.clientHeight, lines: t.value.split("\n").length}))`)
	if len(boxes) == 0 {
		t.Fatal("no expressions shown")
	}
	for k, b := range boxes {
		if b.SW > b.CW || b.SH > b.CH {
			t.Errorf("expression %d: content %dx%d in a %dx%d box: lines cut off", k, b.SW, b.SH, b.CW, b.CH)
		}
	}

	legend := func() string {
		return eval[string](p, `(() => { const l = document.querySelector(".legend"); return l.classList.contains("collapsed") + " " + getComputedStyle(l.querySelector(".legend-body")).display + " " + l.querySelector(".legend-toggle").textContent; })()`)
	}
	if got := legend(); got != "false grid Legend ▾" {
		t.Errorf("legend at first: %q", got)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-action="legend"]`)))
	if got := legend(); got != "true none Legend ▸" {
		t.Errorf("legend collapsed: %q", got)
	}
	p.navigate("/")
	if got := legend(); got != "true none Legend ▸" {
		t.Errorf("legend after a reload: %q, want it still collapsed", got)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-action="legend"]`)))
	p.navigate("/")
	if got := legend(); got != "false grid Legend ▾" {
		t.Errorf("legend opened and reloaded: %q", got)
	}
}

// classCount counts the user-defined nodes of class name in corpus files, from the reference
// library's JSON dumps beside them.
func classCount(t *testing.T, name string, rels ...string) (nodes, files int) {
	t.Helper()
	for _, rel := range rels {
		b, err := os.ReadFile(strings.TrimSuffix(corpusFile(t, rel), ".ainb") + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var d struct{ Nodes []struct{ Name string } }
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, x := range d.Nodes {
			if x.Name == name {
				n++
			}
		}
		if n > 0 {
			files++
		}
		nodes += n
	}
	return nodes, files
}

// A folder of files: a module-caller node opens its module from the folder, a breadcrumb
// leads back, and each file keeps its working copy and undo history; usages are found across
// the folder.
func TestModuleNavigation(t *testing.T) {
	p := newBrowser(t)
	rels := []string{"synthetic/module_caller_v407.ainb", "synthetic/module_if_v407.ainb", "synthetic/minimal_v407.ainb", "synthetic/kitchen_sink_v407.ainb"}
	var paths []string
	for _, r := range rels {
		paths = append(paths, corpusFile(t, r))
	}
	p.upload("#folder-files-input", paths...)
	p.waitFor(`ainbEditor.status() === "Opened 4 AINB files as a folder"`)
	filename := `ainbEditor.document() && ainbEditor.document().filename`
	p.do(chromedp.Click(chromedp.CSS(`[data-file="module_caller_v407.ainb"]`)))
	p.waitFor(filename + ` === "ModuleCaller_v407.root"`)

	p.moveNode(2, 60, 40)
	moved := p.places()[2]
	p.selectNode(3)
	p.do(chromedp.WaitVisible(chromedp.CSS(`[data-action="open-module"]`)))
	if b := eval[string](p, `document.querySelector('[data-action="open-module"]').textContent`); b != "Open module ModuleIF_v407.module" {
		t.Errorf("button %q", b)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-action="open-module"]`)))
	p.waitFor(filename + ` === "ModuleIF_v407.module"`)
	crumbs := `(() => { const b = document.querySelector(".breadcrumb"); return b.hidden ? "hidden" : b.textContent; })()`
	if c := eval[string](p, crumbs); c != "module_caller_v407.ainb›module_if_v407.ainb" {
		t.Errorf("breadcrumb %q", c)
	}
	p.screenshot("ainb-module-breadcrumb")
	if h := eval[[]string](p, `ainbEditor.history().undo`); len(h) != 0 {
		t.Errorf("the module opened with history %v", h)
	}
	p.moveNode(0, 30, 30)
	moduleMoved := p.places()[0]

	// Back along the breadcrumb: the caller's working copy and history are there.
	p.do(chromedp.Click(chromedp.CSS(`[data-crumb="0"]`)))
	p.waitFor(filename + ` === "ModuleCaller_v407.root"`)
	if h := eval[[]string](p, `ainbEditor.history().undo`); len(h) != 1 || h[0] != "Move #2" {
		t.Errorf("caller history %v, want [Move #2]", h)
	}
	if got := p.places()[2]; got != moved || !eval[bool](p, `ainbEditor.dirty()`) {
		t.Errorf("caller node 2 at %v (dirty %v), want %v", got, eval[bool](p, `ainbEditor.dirty()`), moved)
	}
	if c := eval[string](p, crumbs); c != "hidden" {
		t.Errorf("breadcrumb at the start: %q", c)
	}
	if s := eval[string](p, `ainbEditor.status()`); s != "Back in module_caller_v407.ainb" {
		t.Errorf("status %q", s)
	}
	p.key("z", chromedp.ModifierCtrl)
	if got := p.places()[2]; got == moved {
		t.Error("undo in the caller after coming back did nothing")
	}
	// The module again: its working copy was kept too.
	p.selectNode(3)
	p.do(chromedp.Click(chromedp.CSS(`[data-action="open-module"]`)))
	p.waitFor(filename + ` === "ModuleIF_v407.module"`)
	if got := p.places()[0]; got != moduleMoved {
		t.Errorf("module node 0 at %v, want its kept place %v", got, moduleMoved)
	}
	if h := eval[[]string](p, `ainbEditor.history().undo`); len(h) != 1 || h[0] != "Move #0" {
		t.Errorf("module history %v", h)
	}

	// Usages of a module across the folder, and going to one.
	p.run(`document.querySelector('[data-key="usages.kind"]').value = "module"`)
	p.typeInto(`[data-key="usages.query"]`, "ModuleIF_v407.module\r")
	p.waitFor(`ainbEditor.status().includes(" usages of ")`)
	if s := eval[string](p, `ainbEditor.status()`); s != `2 usages of module "ModuleIF_v407.module" in 1 of 4 files` {
		t.Errorf("status %q", s)
	}
	hits := eval[[]string](p, `[...document.querySelectorAll(".usages button")].map((b) => b.dataset.file + "#" + b.dataset.node)`)
	if fmt.Sprint(hits) != "[module_caller_v407.ainb#3 module_caller_v407.ainb#4]" {
		t.Errorf("hits %v", hits)
	}
	p.do(chromedp.Click(chromedp.CSS(`.usages button[data-node="4"]`)))
	p.waitFor(filename + ` === "ModuleCaller_v407.root"`)
	if sel := eval[[]int](p, `ainbEditor.selection()`); len(sel) != 1 || sel[0] != 4 {
		t.Errorf("selection %v, want [4]", sel)
	}
	if h := eval[map[string][]string](p, `ainbEditor.history()`); len(h["undo"]) != 0 || len(h["redo"]) != 1 {
		t.Errorf("caller history after going to a usage: %v, want the undone move kept for redo", h)
	}

	// Usages of a node class, from the selected node.
	p.selectNode(1)
	p.do(chromedp.Click(chromedp.CSS(`[data-action="usages-of-class"]`)))
	p.waitFor(`/ usages? of node class/.test(ainbEditor.status())`)
	n, files := classCount(t, "QueryValue", rels...)
	plural := map[bool]string{true: "s"}[n != 1]
	if want := fmt.Sprintf(`%d usage%s of node class "QueryValue" in %d of 4 files`, n, plural, files); eval[string](p, `ainbEditor.status()`) != want || n < 1 {
		t.Errorf("status %q, want %q", eval[string](p, `ainbEditor.status()`), want)
	}
}

// Usages of a blackboard parameter across a folder: values and vector components reading it,
// as the reference library's dumps of these files list them (blackboard_v407: node 0 reads
// Vec3f V1 and S32 IntRef; kitchen_sink_v407: every third node from 2 reads V1's x).
func TestFolderBlackboardUsages(t *testing.T) {
	p := newBrowser(t)
	var paths []string
	for _, r := range []string{"synthetic/blackboard_v407.ainb", "synthetic/kitchen_sink_v407.ainb", "synthetic/minimal_v407.ainb"} {
		paths = append(paths, corpusFile(t, r))
	}
	p.upload("#folder-files-input", paths...)
	p.waitFor(`ainbEditor.status() === "Opened 3 AINB files as a folder"`)
	hits := `[...document.querySelectorAll(".usages button")].map((b) => b.dataset.file + "#" + b.dataset.node).join(" ")`
	for _, c := range []struct{ name, status, hits string }{
		{"V1", `9 usages of blackboard parameter "V1" in 2 of 3 files`,
			"blackboard_v407.ainb#0 kitchen_sink_v407.ainb#2 kitchen_sink_v407.ainb#5 kitchen_sink_v407.ainb#8 kitchen_sink_v407.ainb#11 kitchen_sink_v407.ainb#14 kitchen_sink_v407.ainb#17 kitchen_sink_v407.ainb#20 kitchen_sink_v407.ainb#23"},
		{"IntRef", `1 usage of blackboard parameter "IntRef" in 1 of 3 files`, "blackboard_v407.ainb#0"},
		{"NoSuchParam", `0 usages of blackboard parameter "NoSuchParam" in 0 of 3 files`, ""},
	} {
		p.run(`document.querySelector('[data-key="usages.kind"]').value = "blackboard"`)
		p.typeInto(`[data-key="usages.query"]`, c.name+"\r")
		p.waitFor(fmt.Sprintf(`ainbEditor.status() === %q`, c.status))
		if got := eval[string](p, hits); got != c.hits {
			t.Errorf("%s: hits %q\nwant %q", c.name, got, c.hits)
		}
	}
	// Going to a usage opens its file with the node selected.
	p.typeInto(`[data-key="usages.query"]`, "IntRef\r")
	p.waitFor(`ainbEditor.status().startsWith("1 usage")`)
	p.do(chromedp.Click(chromedp.CSS(`.usages button[data-node="0"]`)))
	p.waitFor(`ainbEditor.document() && ainbEditor.document().filename === "Blackboard_v407.root"`)
	if sel := eval[[]int](p, `ainbEditor.selection()`); len(sel) != 1 || sel[0] != 0 {
		t.Errorf("selection %v", sel)
	}
}
