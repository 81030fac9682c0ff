package static_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"ainbeditor/internal/pack"
	"ainbeditor/internal/sarc"
	"ainbeditor/internal/testcorpus"
)

const (
	batteryRoot   = "AI/Accessory_Battery.root.ainb"
	batteryASInfo = "Component/ASInfo/Accessory_Battery.engine__component__ASInfo.bgyml"
	batteryOpened = "Opened pack Accessory_Battery.pack.zs: 18 files (2 AINB, 16 BYML)"
)

// openBattery keeps the game's dictionaries and opens Accessory_Battery.pack.zs.
func (p *page) openBattery() string {
	p.t.Helper()
	dir := testcorpus.Dir(p.t)
	p.upload("#zsdic-input", filepath.Join(dir, "zstd", "ZsDic.pack.zs"))
	p.waitFor(`ainbEditor.status().startsWith("Kept ZsDic.pack.zs")`)
	path := filepath.Join(dir, "sarc", "Accessory_Battery.pack.zs")
	p.openPackFile(path, batteryOpened)
	return path
}

// highlighted names the files the Pack and the Folder panels mark as the one shown.
func (p *page) highlighted() (pack, folder string) {
	p.t.Helper()
	pack = eval[string](p, `[...document.querySelectorAll(".pack-files li.active")].map((li) => (li.querySelector("[data-member]") || li).dataset.member).join("|")`)
	folder = eval[string](p, `[...document.querySelectorAll(".folder-files li.active [data-file]")].map((b) => b.dataset.file).join("|")`)
	return pack, folder
}

// refuseConfirms answers every confirm of the page with no and records its question.
func (p *page) refuseConfirms() {
	p.t.Helper()
	p.run(`window.confirms = []; window.confirm = (m) => (window.confirms.push(m), false)`)
}

// The Folder panel and the Pack panel show the same files of the open pack: clicking the
// AINB file shown behind a BYML file in either brings its graph back, and both panels mark
// the file on show, whichever panel it was chosen in; a loose file shown marks none. The
// pack's file keeps its edit while a loose file shows, without asking.
func TestPanelsFollowTheFileShown(t *testing.T) {
	p := newBrowser(t)
	p.catchConfirms()
	p.openBattery()
	p.openPackMember(batteryRoot)
	p.typeInto(`[data-key="cmd.0"]`, "RootEdited\r")
	p.waitFor(`ainbEditor.dirty()`)
	if pk, f := p.highlighted(); pk != batteryRoot || f != batteryRoot {
		t.Errorf("with the root shown the panels mark %q and %q", pk, f)
	}

	p.do(chromedp.Click(chromedp.CSS(`.pack-files button[data-member="` + batteryASInfo + `"]`)))
	p.treeShown("Accessory_Battery.engine__component__ASInfo.bgyml")
	if pk, f := p.highlighted(); pk != batteryASInfo || f != "" {
		t.Errorf("with the BYML file shown the panels mark %q and %q", pk, f)
	}

	// The AINB file behind the tree, chosen in the Folder panel.
	p.do(chromedp.Click(chromedp.CSS(`.folder-files button[data-file="` + batteryRoot + `"]`)))
	p.waitFor(`document.querySelector(".tree-pane").hidden`)
	if name := eval[string](p, `ainbEditor.document().commands[0].name`); name != "RootEdited" {
		t.Errorf("the graph shows command %q", name)
	}
	if pk, f := p.highlighted(); pk != batteryRoot || f != batteryRoot {
		t.Errorf("back in the root from the Folder panel the panels mark %q and %q", pk, f)
	}

	// The pack's other AINB file, chosen in the Folder panel.
	other := eval[string](p, `[...document.querySelectorAll(".folder-files [data-file]")].map((b) => b.dataset.file).find((f) => f !== "`+batteryRoot+`")`)
	if other == "" {
		t.Fatal("the folder lists one AINB file")
	}
	before := eval[int](p, `ainbEditor.loads()`)
	p.do(chromedp.Click(chromedp.CSS(`.folder-files button[data-file="` + other + `"]`)))
	p.waitFor(fmt.Sprintf(`ainbEditor.loads() > %d`, before))
	if pk, f := p.highlighted(); pk != other || f != other {
		t.Errorf("with %s shown the panels mark %q and %q", other, pk, f)
	}
	if s := eval[string](p, `document.querySelector(".folder-files [data-file='`+batteryRoot+`']").textContent`); s != "● "+batteryRoot {
		t.Errorf("the Folder panel lists the edited root as %q", s)
	}

	// A loose file: no panel marks it, and the pack's edited file waits with its edit.
	p.open(corpusFile(t, "synthetic/minimal_v407.ainb"))
	if pk, f := p.highlighted(); pk != "" || f != "" {
		t.Errorf("with a loose file shown the panels mark %q and %q", pk, f)
	}
	p.do(chromedp.Click(chromedp.CSS(`.folder-files button[data-file="` + batteryRoot + `"]`)))
	p.waitFor(`ainbEditor.document().filename !== "Minimal_v407.root"`)
	if name := eval[string](p, `ainbEditor.document().commands[0].name`); name != "RootEdited" || !eval[bool](p, `ainbEditor.dirty()`) {
		t.Errorf("after the loose file the root's command is %q", name)
	}
	if c := p.confirms(); len(c) != 0 {
		t.Errorf("asked %q", c)
	}
}

// A pack without AINB files asks nothing and leaves the loose file with its edits shown,
// saying so plainly; its BYML files are listed and open in the tree view.
func TestPackWithoutAinb(t *testing.T) {
	p := newBrowser(t)
	dir := testcorpus.Dir(t)
	in, err := os.ReadFile(filepath.Join(dir, "sarc", "Accessory_Battery.pack.zs"))
	if err != nil {
		t.Fatal(err)
	}
	pk, err := pack.Open(in, zsCodec(t), 0)
	if err != nil {
		t.Fatal(err)
	}
	pk.Archive.Files = slices.DeleteFunc(pk.Archive.Files, func(f sarc.File) bool { return strings.HasSuffix(f.Name, ".ainb") })
	data, err := pk.Archive.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "NoAI.sarc")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}

	p.catchConfirms()
	p.open(corpusFile(t, "synthetic/params_v407.ainb"))
	p.typeInto(`[data-key="cmd.0"]`, "Edited\r")
	p.waitFor(`ainbEditor.dirty()`)
	p.openPackFile(path, "Opened pack NoAI.sarc: 16 files (16 BYML); no AINB file: its BYML and AAMP files open from the Pack panel; the graph still shows params_v407.ainb, opened on its own")
	if c := p.confirms(); len(c) != 0 {
		t.Errorf("asked %q", c)
	}
	if name := eval[string](p, `ainbEditor.document().commands[0].name`); name != "Edited" || !eval[bool](p, `ainbEditor.dirty()`) {
		t.Errorf("after the pack the graph shows command %q", name)
	}
	if n := eval[int](p, `document.querySelectorAll(".pack-files button[data-member]").length`); n != 16 {
		t.Errorf("the Pack panel offers %d files, want 16", n)
	}
	if s := eval[string](p, `document.querySelector(".folder .hint").textContent`); s != "NoAI.sarc: 0 AINB files" {
		t.Errorf("the Folder panel says %q", s)
	}
	p.do(chromedp.Click(chromedp.CSS(`.pack-files button[data-member="` + batteryASInfo + `"]`)))
	p.treeShown("Accessory_Battery.engine__component__ASInfo.bgyml")
	if v := p.rowValue("/NumController"); v != "2" {
		t.Errorf("NumController shows %q", v)
	}
}

// Opening a folder replaces the open pack, whose BYML file has an unsaved edit: the user is
// asked first; refused, the pack stays with its edit, agreed, the pack closes.
func TestNewFolderAsksAboutThePack(t *testing.T) {
	p := newBrowser(t)
	p.openBattery()
	p.do(chromedp.Click(chromedp.CSS(`.pack-files button[data-member="` + batteryASInfo + `"]`)))
	p.treeShown("Accessory_Battery.engine__component__ASInfo.bgyml")
	p.setValue("/NumController", "3")
	p.waitFor(`document.querySelector('.tree-row[data-path="/NumController"] .tree-value').textContent === "3"`)

	p.refuseConfirms()
	p.upload("#folder-files-input", corpusFile(t, "synthetic/minimal_v407.ainb"))
	p.waitFor(`window.confirms.length > 0`)
	if c := p.confirms(); !slices.Equal(c, []string{"Discard the unsaved edits of " + batteryASInfo + "?"}) {
		t.Errorf("asked %q", c)
	}
	if s := eval[string](p, `document.querySelector(".pack .hint").textContent`); !strings.HasPrefix(s, "Accessory_Battery.pack.zs: 18 files") || !strings.HasSuffix(s, "; 1 with unsaved edits") {
		t.Errorf("after refusing, the Pack panel says %q", s)
	}
	if s := eval[string](p, `document.querySelector(".folder .hint").textContent`); s != "Accessory_Battery.pack.zs: 2 AINB files" {
		t.Errorf("after refusing, the Folder panel says %q", s)
	}
	if v := p.rowValue("/NumController"); v != "3" {
		t.Errorf("after refusing, NumController shows %q", v)
	}

	p.catchConfirms()
	p.upload("#folder-files-input", corpusFile(t, "synthetic/minimal_v407.ainb"))
	p.waitFor(`ainbEditor.status() === "Opened 1 AINB file as a folder"`)
	if c := p.confirms(); len(c) != 1 {
		t.Errorf("asked %q", c)
	}
	if s := eval[string](p, `document.querySelector(".pack .hint").textContent`); s != "No pack open." {
		t.Errorf("after agreeing, the Pack panel says %q", s)
	}
	if !eval[bool](p, `document.querySelector(".tree-pane").hidden`) {
		t.Error("the discarded BYML file still shows")
	}
}

// The same bytes again keep the unsaved edits made on them, and the user is told: a loose
// file opened again (no parse request), and a folder chosen again. Other bytes under the
// same name are read, after asking.
func TestSameFileKeepsItsEdits(t *testing.T) {
	p := newBrowser(t)
	p.catchConfirms()
	params := corpusFile(t, "synthetic/params_v407.ainb")
	p.open(params)
	p.typeInto(`[data-key="cmd.0"]`, "Edited\r")
	p.waitFor(`ainbEditor.dirty()`)
	parses := p.app.parseCount()
	p.run(`document.querySelectorAll(".toast").forEach((t) => t.remove())`)
	p.upload("#file-input", params)
	p.waitFor(`ainbEditor.status() === "params_v407.ainb is open already, with unsaved edits"`)
	if got := p.toasts(); !slices.Contains(got, "params_v407.ainb is the file already open: its unsaved edits are kept. Save writes them.") {
		t.Errorf("toasts %q", got)
	}
	if n := p.app.parseCount(); n != parses {
		t.Errorf("opening the same file again made %d parse requests", n-parses)
	}
	if name := eval[string](p, `ainbEditor.document().commands[0].name`); name != "Edited" || !eval[bool](p, `ainbEditor.dirty()`) {
		t.Errorf("the command is %q", name)
	}
	// Other bytes, the same name: read, and the edits asked about.
	other := filepath.Join(t.TempDir(), "params_v407.ainb")
	b, err := os.ReadFile(corpusFile(t, "synthetic/minimal_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, b, 0o644); err != nil {
		t.Fatal(err)
	}
	p.open(other)
	if c := p.confirms(); !slices.Equal(c, []string{"Discard the unsaved edits of params_v407.ainb?"}) {
		t.Errorf("asked %q", c)
	}
	if eval[bool](p, `ainbEditor.dirty()`) || eval[string](p, `ainbEditor.document().filename`) != "Minimal_v407.root" {
		t.Error("the other file did not replace the edited one")
	}

	// A folder chosen again: its edited file is the same bytes, so the edit stays.
	minimal := corpusFile(t, "synthetic/minimal_v407.ainb")
	p.upload("#folder-files-input", params, minimal)
	p.waitFor(`ainbEditor.status() === "Opened 2 AINB files as a folder"`)
	before := eval[int](p, `ainbEditor.loads()`)
	p.do(chromedp.Click(chromedp.CSS(`.folder-files button[data-file="params_v407.ainb"]`)))
	p.waitFor(fmt.Sprintf(`ainbEditor.loads() > %d`, before))
	p.typeInto(`[data-key="cmd.0"]`, "InFolder\r")
	p.waitFor(`ainbEditor.dirty()`)
	asked := len(p.confirms())
	p.upload("#folder-files-input", params, minimal)
	p.waitFor(`ainbEditor.status() === "Opened 2 AINB files as a folder; unsaved edits kept in params_v407.ainb"`)
	if c := p.confirms(); len(c) != asked {
		t.Errorf("asked %q", c[asked:])
	}
	if name := eval[string](p, `ainbEditor.document().commands[0].name`); name != "InFolder" || !eval[bool](p, `ainbEditor.dirty()`) {
		t.Errorf("after the same folder the command is %q", name)
	}
}

// A loose BYML file shown over a pack's AINB file stays shown when the pack is opened anew
// and the AINB file behind it closes with the old pack.
func TestLooseTreeStaysWhenThePackCloses(t *testing.T) {
	p := newBrowser(t)
	p.catchConfirms()
	path := p.openBattery()
	p.openPackMember(batteryRoot)
	_, data := testBYML(t)
	loose := filepath.Join(t.TempDir(), "Settings.byml")
	if err := os.WriteFile(loose, data, 0o644); err != nil {
		t.Fatal(err)
	}
	p.upload("#file-input", loose)
	p.treeShown("Settings.byml")
	p.openPackFile(path, batteryOpened)
	if eval[bool](p, `ainbEditor.document() !== null`) {
		t.Error("the old pack's AINB file is still open")
	}
	if !eval[bool](p, `!document.querySelector(".tree-pane").hidden && document.querySelector(".doc-title").textContent === "Settings.byml"`) {
		t.Error("the loose BYML file no longer shows")
	}
	if c := p.confirms(); len(c) != 0 {
		t.Errorf("asked %q", c)
	}
}
