package static_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/pack"
	"ainbeditor/internal/testcorpus"
)

// A TotK pack opened in the editor: without the game's dictionaries it says which file to
// choose; with ZsDic.pack.zs its two AINB files open as a folder; each is edited, and Save
// pack gives a pack, compressed with the same dictionary, in which exactly those two members
// changed (each carrying its edit and nothing else) and every other member is byte-identical.
func TestPackOpenEditSave(t *testing.T) {
	p := newBrowser(t)
	dir := testcorpus.Dir(t)
	packPath := filepath.Join(dir, "sarc", "Accessory_Battery.pack.zs")
	zsdicPath := filepath.Join(dir, "zstd", "ZsDic.pack.zs")

	p.allowed = append(p.allowed, "/api/pack") // the first open's 422: no dictionary yet
	p.upload("#pack-input", packPath)
	p.waitFor(`document.querySelectorAll(".toast.error").length > 0`)
	if got := p.toasts(); len(got) != 1 || got[0] != "error: Accessory_Battery.pack.zs is compressed with a dictionary of the game: choose the game's ZsDic.pack.zs (Pack panel) to open it." {
		t.Fatalf("toasts %q", got)
	}
	if !eval[bool](p, `document.querySelector('[data-action="choose-zsdic"]').classList.contains("attention")`) {
		t.Error("the Choose ZsDic.pack.zs button is not marked")
	}

	// The dictionary chosen, the pack opens (and the dictionary is kept for later packs).
	p.upload("#zsdic-input", zsdicPath)
	p.waitFor(`ainbEditor.status().startsWith("Opened pack")`)
	if s := eval[string](p, `ainbEditor.status()`); s != "Opened pack Accessory_Battery.pack.zs: 18 files (2 AINB, 16 BYML)" {
		t.Fatalf("status %q", s)
	}
	members := eval[[]string](p, `[...document.querySelectorAll(".pack-files [data-member]")].map((e) => e.dataset.member)`)
	if len(members) != 18 {
		t.Fatalf("%d members listed: %q", len(members), members)
	}
	if s := eval[string](p, `document.querySelector(".pack .hint").textContent`); s != "Accessory_Battery.pack.zs: 18 files (zstd, dictionary 3)" {
		t.Errorf("summary %q", s)
	}

	// Edit the first AINB file, then the second (the first keeps its working copy).
	const root, event = "AI/Accessory_Battery.root.ainb", "AI/Accessory_Battery_Event.event.root.ainb"
	openMember := func(name string) {
		t.Helper()
		before := eval[int](p, `ainbEditor.loads()`)
		p.do(chromedp.Click(chromedp.CSS(`.pack-files button[data-member="` + name + `"]`)))
		p.waitFor(fmt.Sprintf(`ainbEditor.loads() > %d`, before))
	}
	openMember(root)
	p.typeInto(`[data-key="cmd.0"]`, "RootEdited\r")
	p.waitFor(`ainbEditor.dirty()`)
	openMember(event)
	p.typeInto(`[data-key="cmd.1"]`, "SetUpEdited\r")
	p.waitFor(`ainbEditor.dirty()`)
	if s := eval[string](p, `document.querySelector(".pack .hint").textContent`); !strings.HasSuffix(s, "; 2 with unsaved edits") {
		t.Errorf("summary after two edits %q", s)
	}

	p.do(chromedp.Click(chromedp.CSS(`[data-action="save-pack"]`)))
	p.waitFor(`ainbEditor.status().startsWith("Saved")`)
	out := p.download("Accessory_Battery.pack.zs")
	if s := eval[string](p, `ainbEditor.status()`); !strings.HasSuffix(s, "; 2 files changed)") {
		t.Errorf("status %q", s)
	}
	if eval[bool](p, `ainbEditor.dirty()`) {
		t.Error("the open file is still marked unsaved after Save pack")
	}

	before, after := openPacks(t, packPath, out)
	if after.Wrapping != before.Wrapping {
		t.Errorf("wrapping %+v, was %+v", after.Wrapping, before.Wrapping)
	}
	if len(after.Archive.Files) != len(before.Archive.Files) {
		t.Fatalf("%d members, was %d", len(after.Archive.Files), len(before.Archive.Files))
	}
	for i, f := range after.Archive.Files {
		old := before.Archive.Files[i]
		if f.Name != old.Name {
			t.Fatalf("member %d is %s, was %s", i, f.Name, old.Name)
		}
		switch f.Name {
		case root, event:
			checkCommandRenamed(t, f.Name, old.Data, f.Data, map[string]int{root: 0, event: 1}[f.Name], map[string]string{root: "RootEdited", event: "SetUpEdited"}[f.Name])
		default:
			if !bytes.Equal(f.Data, old.Data) {
				t.Errorf("member %s changed", f.Name)
			}
		}
	}

	// Saving again with nothing edited changes no member; Ctrl+S on a file of the pack
	// saves the pack.
	p.key("s", chromedp.ModifierCtrl)
	p.waitFor(`ainbEditor.status().endsWith("; 0 files changed)")`)
}

// checkCommandRenamed checks that an AINB member differs from its old bytes by command k's
// name alone.
func checkCommandRenamed(t *testing.T, name string, oldData, newData []byte, k int, want string) {
	t.Helper()
	was, err := ainb.Read(oldData)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ainb.Read(newData)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if got.Commands[k].Name != want {
		t.Errorf("%s: command %d is %q, want %q", name, k, got.Commands[k].Name, want)
	}
	got.Commands[k].Name = was.Commands[k].Name
	// With the old name back, the file is the old one (the string pool aside).
	gj, err := got.CompatJSON()
	if err != nil {
		t.Fatal(err)
	}
	wj, err := was.CompatJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gj, wj) {
		t.Errorf("%s: more changed than command %d's name", name, k)
	}
}

// Share links of a pack's files: an AINB file's graph and a BYML file's tree each open in
// another tab as shared, the tree at the entry that was selected, and both say which pack
// they came from.
func TestPackShares(t *testing.T) {
	p := newBrowser(t)
	p.openBatteryPack()
	share := func() (string, string) {
		t.Helper()
		p.run(`document.querySelectorAll(".toast").forEach((t) => t.remove())`)
		before := eval[string](p, `ainbEditor.lastShare()`)
		p.do(chromedp.Click(chromedp.CSS(`[data-action="share"]`)))
		p.waitFor(fmt.Sprintf(`ainbEditor.lastShare() !== %q`, before))
		link := eval[string](p, `ainbEditor.lastShare()`)
		return link[len(p.srv.URL):], link[strings.LastIndex(link, "/")+1:]
	}

	const root = "AI/Accessory_Battery.root.ainb"
	before := eval[int](p, `ainbEditor.loads()`)
	p.do(chromedp.Click(chromedp.CSS(`.pack-files button[data-member="` + root + `"]`)))
	p.waitFor(fmt.Sprintf(`ainbEditor.loads() > %d`, before))
	wantDoc := eval[string](p, docText)
	path, id := share()
	q := p.newTab(path)
	q.waitFor(`ainbEditor.loads() > 0`)
	if s := eval[string](q, `ainbEditor.status()`); s != "Opened share "+id+" (AI/Accessory_Battery.root.ainb in Accessory_Battery.pack.zs)" {
		t.Errorf("the AINB share opens with status %q", s)
	}
	if d := eval[string](q, docText); d != wantDoc {
		t.Error("the shared AINB document differs")
	}

	const asinfo = "Component/ASInfo/Accessory_Battery.engine__component__ASInfo.bgyml"
	p.do(chromedp.Click(chromedp.CSS(`.pack-files button[data-member="` + asinfo + `"]`)))
	p.treeShown("Accessory_Battery.engine__component__ASInfo.bgyml")
	p.goTo("/NumController")
	path, id = share()
	r := p.newTab(path)
	r.waitFor(`ainbEditor.status().startsWith("Opened share") && !document.querySelector(".tree-pane").hidden`)
	if s := eval[string](r, `ainbEditor.status()`); s != "Opened share "+id+" ("+asinfo+" in Accessory_Battery.pack.zs)" {
		t.Errorf("the tree share opens with status %q", s)
	}
	if sel := eval[string](r, `document.querySelector(".tree-row.selected")?.dataset.path ?? ""`); sel != "/NumController" {
		t.Errorf("the shared tree selects %q", sel)
	}
	if v := r.rowValue("/NumController"); v != "2" {
		t.Errorf("the shared tree shows NumController %q", v)
	}
}

// openPacks opens a pack file and the pack saved from it with the game's dictionaries.
func openPacks(t *testing.T, path string, saved []byte) (was, now *pack.Pack) {
	t.Helper()
	codec := zsCodec(t)
	in, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if was, err = pack.Open(in, codec, 0); err != nil {
		t.Fatal(err)
	}
	if now, err = pack.Open(saved, codec, 0); err != nil {
		t.Fatalf("the saved pack: %v", err)
	}
	return was, now
}
