package static_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"

	"ainbeditor/internal/sarc"
	"ainbeditor/internal/testcorpus"
)

// catchConfirms answers every confirm of the page with yes and records its question.
func (p *page) catchConfirms() {
	p.t.Helper()
	p.run(`window.confirms = []; window.confirm = (m) => (window.confirms.push(m), true)`)
}

func (p *page) confirms() []string {
	p.t.Helper()
	return eval[[]string](p, `window.confirms.slice()`)
}

// takeDownload is download, and removes the file so the next one of that name is new.
func (p *page) takeDownload(name string) []byte {
	p.t.Helper()
	b := p.download(name)
	if err := os.Remove(filepath.Join(p.downloads, name)); err != nil {
		p.t.Fatal(err)
	}
	return b
}

// openPackMember clicks an AINB file in the Pack panel and waits for its graph.
func (p *page) openPackMember(name string) {
	p.t.Helper()
	before := eval[int](p, `ainbEditor.loads()`)
	p.do(chromedp.Click(chromedp.CSS(`.pack-files button[data-member="` + name + `"]`)))
	p.waitFor(fmt.Sprintf(`ainbEditor.loads() > %d`, before))
}

// openPackFile opens a pack through the Open pack… input and waits for its status.
func (p *page) openPackFile(path, status string) {
	p.t.Helper()
	if eval[string](p, `ainbEditor.status()`) == status {
		p.t.Fatalf("the status is %q before the pack opens", status)
	}
	p.run(`document.querySelectorAll(".toast").forEach((t) => t.remove())`)
	p.upload("#pack-input", path)
	p.waitFor(fmt.Sprintf(`ainbEditor.status() === %q`, status))
}

// Opening a pack reads it: a pack member edited, then the same vanilla pack opened again
// while the edit is unsaved keeps the edit (the same bytes the edit was made on) and says
// so; after Save pack, opening the vanilla pack again reads the member anew (one parse
// request), shows the vanilla name, and Save pack gives back the vanilla members.
func TestPackReopenReadsTheFile(t *testing.T) {
	p := newBrowser(t)
	dir := testcorpus.Dir(t)
	packPath := filepath.Join(dir, "sarc", "Accessory_Battery.pack.zs")
	p.upload("#zsdic-input", filepath.Join(dir, "zstd", "ZsDic.pack.zs"))
	p.waitFor(`ainbEditor.status().startsWith("Kept ZsDic.pack.zs")`)
	p.catchConfirms()
	const opened = "Opened pack Accessory_Battery.pack.zs: 18 files (2 AINB, 16 BYML)"
	p.openPackFile(packPath, opened)

	const root = "AI/Accessory_Battery.root.ainb"
	parses := p.app.parseCount()
	p.openPackMember(root)
	if n := p.app.parseCount(); n != parses+1 {
		t.Fatalf("opening the member made %d parse requests, want 1", n-parses)
	}
	vanilla := eval[string](p, `ainbEditor.document().commands[0].name`)
	p.typeInto(`[data-key="cmd.0"]`, "RootEdited\r")
	p.waitFor(`ainbEditor.dirty()`)

	// The same file again, edit unsaved: kept, and the user is told.
	p.openPackFile(packPath, "Accessory_Battery.pack.zs is open already, with unsaved edits in 1 file")
	if got := p.toasts(); !slices.Contains(got, "Accessory_Battery.pack.zs is the pack already open: its unsaved edits ("+root+") are kept. Save pack writes them.") {
		t.Errorf("toasts %q", got)
	}
	if c := p.confirms(); len(c) != 0 {
		t.Errorf("asked %q", c)
	}
	if name := eval[string](p, `ainbEditor.document().commands[0].name`); name != "RootEdited" || !eval[bool](p, `ainbEditor.dirty()`) {
		t.Fatalf("after opening the same pack the command is %q (dirty %v)", name, eval[bool](p, `ainbEditor.dirty()`))
	}

	p.do(chromedp.Click(chromedp.CSS(`[data-action="save-pack"]`)))
	p.waitFor(`ainbEditor.status().startsWith("Saved")`)
	edited := p.takeDownload("Accessory_Battery.pack.zs")
	_, now := openPacks(t, packPath, edited)
	if f := now.Archive.Files; len(f) == 0 {
		t.Fatal("the saved pack is empty")
	}

	// The vanilla pack again: not the saved bytes, so everything is read anew, and the graph
	// of the old pack's member closes with it.
	p.openPackFile(packPath, opened)
	if c := p.confirms(); len(c) != 0 {
		t.Errorf("asked %q", c)
	}
	if eval[bool](p, `ainbEditor.document() !== null`) {
		t.Error("the old pack's member is still shown")
	}
	parses = p.app.parseCount()
	p.openPackMember(root)
	if n := p.app.parseCount(); n != parses+1 {
		t.Errorf("opening the member of the reopened pack made %d parse requests, want 1", n-parses)
	}
	if name := eval[string](p, `ainbEditor.document().commands[0].name`); name != vanilla {
		t.Errorf("the reopened member's command 0 is %q, want the vanilla %q", name, vanilla)
	}
	if eval[bool](p, `ainbEditor.dirty()`) {
		t.Error("the reopened member is marked unsaved")
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save-pack"]`)))
	p.waitFor(`ainbEditor.status().startsWith("Saved")`)
	if s := eval[string](p, `ainbEditor.status()`); !bytes.HasSuffix([]byte(s), []byte("; 0 files changed)")) {
		t.Errorf("status %q", s)
	}
	was, got := openPacks(t, packPath, p.takeDownload("Accessory_Battery.pack.zs"))
	if len(got.Archive.Files) != len(was.Archive.Files) {
		t.Fatalf("%d members, want %d", len(got.Archive.Files), len(was.Archive.Files))
	}
	for i, f := range got.Archive.Files {
		if f.Name != was.Archive.Files[i].Name || !bytes.Equal(f.Data, was.Archive.Files[i].Data) {
			t.Errorf("member %d (%s) differs from the vanilla pack's", i, f.Name)
		}
	}
	for _, f := range now.Archive.Files {
		if f.Name == root {
			checkCommandRenamed(t, root, was.Archive.Files[slices.IndexFunc(was.Archive.Files, func(w sarc.File) bool { return w.Name == root })].Data, f.Data, 0, "RootEdited")
		}
	}
}

// Problems belong to their file: after a file whose save listed problems, a clean file opens
// with an empty Problems panel.
func TestProblemsFollowTheFile(t *testing.T) {
	p := newBrowser(t)
	p.allowed = append(p.allowed, "status of 422")
	p.catchConfirms()
	p.open(corpusFile(t, "synthetic/params_v407.ainb"))
	// Node 0 is no query node, so a node may not read it as one (as TestBuildProblemsSelectNode).
	p.run(`ainbEditor.document().nodes[3].queries = [0]`)
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	p.waitFor(`ainbEditor.problems().length > 0`)
	if n := eval[int](p, `document.querySelectorAll(".problems li").length`); n == 0 {
		t.Fatal("the problem is not listed")
	}
	p.open(corpusFile(t, "synthetic/minimal_v407.ainb"))
	if n := eval[int](p, `ainbEditor.problems().length + ainbEditor.warnings().length`); n != 0 {
		t.Fatalf("the clean file has %d problems", n)
	}
	tab := eval[string](p, `[...document.querySelectorAll(".tab")].find((x) => x.textContent.startsWith("Problems")).textContent`)
	items := eval[int](p, `document.querySelectorAll(".problems li").length`)
	if tab != "Problems" || items != 0 {
		t.Errorf("after switching to a clean file the tab reads %q and lists %d problems", tab, items)
	}
	if c := p.confirms(); len(c) != 0 {
		t.Errorf("asked %q", c)
	}
}

// Unsaved edits are asked about only once the new file has opened: a file that does not
// parse, and a pack without AINB files, leave the edited file shown and unasked; the pack
// says the graph is not one of its files. A file that opens asks, once.
func TestDiscardAskedAfterTheFileOpens(t *testing.T) {
	p := newBrowser(t)
	p.allowed = append(p.allowed, "status of 422")
	p.catchConfirms()
	p.open(corpusFile(t, "synthetic/params_v407.ainb"))
	p.typeInto(`[data-key="cmd.0"]`, "Edited\r")
	p.waitFor(`ainbEditor.dirty()`)

	broken := filepath.Join(t.TempDir(), "Broken.ainb")
	if err := os.WriteFile(broken, []byte("AIB this is no AINB file at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	p.upload("#file-input", broken)
	p.waitFor(`document.querySelectorAll(".toast.error").length > 0`)
	if c := p.confirms(); len(c) != 0 {
		t.Errorf("a file that does not open asked %q", c)
	}
	if name := eval[string](p, `ainbEditor.document().commands[0].name`); name != "Edited" || !eval[bool](p, `ainbEditor.dirty()`) {
		t.Fatalf("after the broken file the command is %q", name)
	}

	p.upload("#pack-input", filepath.Join(testcorpus.Dir(t), "sarc", "test.sarc"))
	p.waitFor(`ainbEditor.status().startsWith("Opened pack test.sarc")`)
	if s := eval[string](p, `ainbEditor.status()`); s != "Opened pack test.sarc: 6 files (6 other); no AINB, BYML or AAMP file the editor opens; the graph still shows params_v407.ainb, opened on its own" {
		t.Errorf("status %q", s)
	}
	if c := p.confirms(); len(c) != 0 {
		t.Errorf("a pack without AINB files asked %q", c)
	}
	if name := eval[string](p, `ainbEditor.document().commands[0].name`); name != "Edited" || !eval[bool](p, `ainbEditor.dirty()`) {
		t.Fatalf("after the pack the command is %q", name)
	}

	p.open(corpusFile(t, "synthetic/minimal_v407.ainb"))
	if c := p.confirms(); !slices.Equal(c, []string{"Discard the unsaved edits of params_v407.ainb?"}) {
		t.Errorf("asked %q", c)
	}
}

// Save pack keeps node positions: a node moved, the pack saved and the saved pack opened,
// the member shows the node where it was moved, and is not flagged unsaved.
func TestPackSaveKeepsPositions(t *testing.T) {
	p := newBrowser(t)
	dir := testcorpus.Dir(t)
	p.upload("#zsdic-input", filepath.Join(dir, "zstd", "ZsDic.pack.zs"))
	p.waitFor(`ainbEditor.status().startsWith("Kept ZsDic.pack.zs")`)
	p.catchConfirms()
	p.openPackFile(filepath.Join(dir, "sarc", "Accessory_Battery.pack.zs"), "Opened pack Accessory_Battery.pack.zs: 18 files (2 AINB, 16 BYML)")
	const root = "AI/Accessory_Battery.root.ainb"
	p.openPackMember(root)
	before := p.places()
	// A node whose header is in view.
	id := eval[int](p, `(() => { const r = document.getElementById("graph").getBoundingClientRect();
		const n = ainbEditor.document().nodes.find((n) => { const a = ainbEditor.screenOf(n.id, -1, ""); return a.x > r.left + 150 && a.x < r.right - 150 && a.y > r.top + 100 && a.y < r.bottom - 100; });
		return n ? n.id : -1; })()`)
	if id < 0 {
		t.Fatal("no node in view")
	}
	p.moveNode(id, 120, 60)
	p.waitFor(`ainbEditor.dirty()`)
	moved := p.places()
	if slices.Equal(moved, before) {
		t.Fatal("the node did not move")
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save-pack"]`)))
	p.waitFor(`ainbEditor.status().startsWith("Saved")`)
	saved := filepath.Join(t.TempDir(), "Accessory_Battery.pack.zs")
	if err := os.WriteFile(saved, p.takeDownload("Accessory_Battery.pack.zs"), 0o644); err != nil {
		t.Fatal(err)
	}
	p.openPackFile(saved, "Opened pack Accessory_Battery.pack.zs: 18 files (2 AINB, 16 BYML)")
	p.openPackMember(root)
	if got := p.places(); !slices.Equal(got, moved) {
		t.Errorf("after Save pack and reopening, the places are\n%v\nwant\n%v", got, moved)
	}
	if eval[bool](p, `ainbEditor.dirty()`) {
		t.Error("the reopened member is flagged unsaved")
	}
	if c := p.confirms(); len(c) != 0 {
		t.Errorf("asked %q", c)
	}
}
