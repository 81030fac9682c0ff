package static_test

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"ainbeditor/internal/aamp"
	"ainbeditor/internal/byml"
	"ainbeditor/internal/testcorpus"
)

// Browser tests of Compare with… and Merge… in the tree view (treecompare.js): the exact
// rows with their marks and the Changes list, N and P, take back and undo, edits while
// comparing, and a merge with a conflict settled each way.

// treeDiff is what the view's test hook shows: each row as "marks path = value" ("-" for
// none), the Changes list's lines, the change N and P are at.
type treeDiff struct {
	Rows      []string
	Lines     []string
	Current   int
	Conflicts int
	Other     string
	Link      string
}

func (p *page) treeDiff() treeDiff {
	p.t.Helper()
	return eval[treeDiff](p, `ainbEditor.treeDiff()`)
}

// writeBYML writes a BYML document (version 7, as testBYML's) to a temporary file.
func writeBYML(t *testing.T, name string, root *byml.Node) string {
	t.Helper()
	data, err := (&byml.Document{Version: 7, Root: root}).BytesCanonical()
	if err != nil {
		t.Fatal(err)
	}
	return writeTemp(t, name, data)
}

// writeTemp writes a file of a test's own to a temporary folder.
func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// testRoot is testBYML's tree (tree_test.go), also to edit into other versions.
func testRoot() *byml.Node {
	root := byml.NewHash()
	root.Set("List", byml.NewArray(byml.NewInt(1), byml.NewInt(2), byml.NewFloat(0.5)))
	root.Set("b", byml.NewString("x"))
	root.Set("c", byml.NewUInt(7))
	deep := byml.NewHash()
	deep.Set("v", byml.NewDouble(1.25))
	d := byml.NewHash()
	d.Set("deep", deep)
	root.Set("d", d)
	return root
}

func equalStrings(a, b []string) bool {
	return strings.Join(a, "\n") == strings.Join(b, "\n")
}

// Compare with… on a BYML file: the rows' marks and colours, the ghost of a removed key, the
// Changes list, N and P, take back and undo of a changed and of a removed entry, and an edit
// made while comparing showing at once.
func TestTreeCompareBYML(t *testing.T) {
	p := newBrowser(t)
	path, _ := testBYML(t)
	other := testRoot()
	other.Set("List", byml.NewArray(byml.NewInt(1), byml.NewInt(2)))
	other.Set("a", byml.NewString("gone"))
	other.Set("b", byml.NewString("y"))
	other.Get("d").Get("deep").Set("v", byml.NewDouble(2))
	otherPath := writeBYML(t, "Other.byml", other)

	p.upload("#file-input", path)
	p.treeShown("Test.byml")
	p.upload("#tree-compare-input", otherPath)
	p.waitFor(`ainbEditor.status().startsWith("Compared with Other.byml")`)
	if s := eval[string](p, `ainbEditor.status()`); s != "Compared with Other.byml: 4 changes (1 added, 1 removed, 2 changed)" {
		t.Errorf("status %q", s)
	}
	lines := []string{`+ /List/2: 0.5`, `- /a: "gone"`, `~ /b: "y" -> "x"`, `~ /d/deep/v: 2 -> 1.25`}
	got := p.treeDiff()
	if want := []string{`diff-inside /List = [3]`, `ghost diff-removed /a = "gone"`, `diff-changed /b = "x"`, `- /c = 7`, `diff-inside /d = {1}`}; !equalStrings(got.Rows, want) || !equalStrings(got.Lines, lines) || got.Current != -1 {
		t.Fatalf("after opening:\nrows %q\nlines %q\ncurrent %d", got.Rows, got.Lines, got.Current)
	}
	// The Changes list shows the same lines; the rows' colours are the marks'.
	if l := eval[[]string](p, `[...document.querySelectorAll('[data-key="tree.changes"] .diff-text')].map((e) => e.textContent)`); !equalStrings(l, lines) {
		t.Errorf("Changes list %q", l)
	}
	colour := func(path string) string {
		return eval[string](p, fmt.Sprintf(`getComputedStyle(document.querySelector('.tree-row[data-path=%q]')).backgroundColor`, path))
	}
	if c := colour("/b"); c != "rgba(230, 180, 80, 0.14)" {
		t.Errorf("changed row's colour %s", c)
	}
	if c := colour("/a"); c != "rgba(240, 113, 103, 0.12)" {
		t.Errorf("removed row's colour %s", c)
	}
	if c := colour("/c"); c != "rgba(0, 0, 0, 0)" {
		t.Errorf("unchanged row's colour %s", c)
	}

	// N goes to the first change, expanding /List to show it; N again to the ghost, P back.
	p.treeKey("n")
	p.waitFor(`ainbEditor.treeDiff().current === 0 && document.querySelector('.tree-row.selected') && document.querySelector('.tree-row.selected').dataset.path === "/List/2"`)
	got = p.treeDiff()
	if want := []string{`diff-inside /List = [3]`, `- /List/0 = 1`, `- /List/1 = 2`, `diff-added diff-current /List/2 = 0.5`, `ghost diff-removed /a = "gone"`, `diff-changed /b = "x"`, `- /c = 7`, `diff-inside /d = {1}`}; !equalStrings(got.Rows, want) {
		t.Errorf("after N: rows %q", got.Rows)
	}
	p.treeKey("n")
	p.waitFor(`ainbEditor.treeDiff().current === 1 && !!document.querySelector('.tree-row.selected.ghost[data-path="/a"]')`)
	if s := eval[string](p, `ainbEditor.status()`); s != `Change 2 of 4: - /a: "gone"` {
		t.Errorf("status at the ghost %q", s)
	}
	if !eval[bool](p, `document.querySelector('[data-key="tree.value"]').disabled && document.querySelector('[data-action="tree-remove"]').disabled`) {
		t.Error("a ghost row can be edited")
	}
	p.treeKey("p")
	p.waitFor(`ainbEditor.treeDiff().current === 0`)
	p.treeKey("p")
	p.waitFor(`ainbEditor.treeDiff().current === 3 && document.querySelector('.tree-row.selected') && document.querySelector('.tree-row.selected').dataset.path === "/d/deep/v"`)

	// Take back the changed /b: one edit, gone from the list; undo restores it exactly.
	takeBack := func(line string) {
		t.Helper()
		p.run(fmt.Sprintf(`[...document.querySelectorAll('[data-key="tree.changes"] .diff-line')].find((l) => l.querySelector(".diff-text").textContent === %q).querySelector('[data-action="diff-take-back"]').click()`, line))
	}
	takeBack(`~ /b: "y" -> "x"`)
	p.waitFor(`ainbEditor.treeDiff().lines.length === 3`)
	if v := p.rowValue("/b"); v != `"y"` {
		t.Errorf("/b after take back %s", v)
	}
	p.treeKey("z", chromedp.ModifierCtrl)
	p.waitFor(`ainbEditor.treeDiff().lines.length === 4`)
	if got = p.treeDiff(); !equalStrings(got.Lines, lines) || p.rowValue("/b") != `"x"` {
		t.Errorf("after undo: lines %q, /b %s", got.Lines, p.rowValue("/b"))
	}
	// Take back the removed /a: it is an entry again, no ghost; undo makes it a ghost again.
	takeBack(`- /a: "gone"`)
	p.waitFor(`ainbEditor.treeDiff().lines.length === 3 && !!document.querySelector('.tree-row[data-path="/a"]:not(.ghost)')`)
	if r := p.treeDiff().Rows; !equalStrings(r[4:6], []string{`- /a = "gone"`, `diff-changed /b = "x"`}) {
		t.Errorf("rows after taking /a back %q", r)
	}
	p.treeKey("z", chromedp.ModifierCtrl)
	p.waitFor(`!!document.querySelector('.tree-row.ghost[data-path="/a"]')`)
	if got = p.treeDiff(); !equalStrings(got.Lines, lines) {
		t.Errorf("after undo of /a: %q", got.Lines)
	}

	// An edit while comparing is a change at once.
	p.setValue("/c", "8")
	p.waitFor(`ainbEditor.treeDiff().lines.length === 5`)
	got = p.treeDiff()
	if want := append(append([]string{}, lines[:3]...), `~ /c: 7 -> 8`, lines[3]); !equalStrings(got.Lines, want) || !strings.Contains(strings.Join(got.Rows, "\n"), "diff-changed /c = 8") {
		t.Errorf("after editing /c: lines %q rows %q", got.Lines, got.Rows)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-action="diff-stop"]`)))
	p.waitFor(`document.querySelector('.tree-diff').hidden && !document.querySelector('.tree-row.ghost')`)

	// Against a version without /d: everything inside the added /d shows as added.
	noD := testRoot()
	noD.Delete("d")
	p.upload("#tree-compare-input", writeBYML(t, "NoD.byml", noD))
	p.waitFor(`ainbEditor.status().startsWith("Compared with NoD.byml")`)
	p.goTo("/d/deep/v")
	got = p.treeDiff()
	if want := []string{`~ /c: 7 -> 8`, `+ /d: {1}`}; !equalStrings(got.Lines, want) || !equalStrings(got.Rows[len(got.Rows)-3:], []string{`diff-added /d = {1}`, `diff-added /d/deep = {1}`, `diff-added /d/deep/v = 1.25`}) {
		t.Errorf("against NoD.byml: lines %q rows %q", got.Lines, got.Rows)
	}
}

// Compare with… on an AAMP file: a parameter edited in the working copy and one the other
// version has and the working copy not, by the names the rows show (hashes here, no names
// table knowing them); take back of the edit and its undo give the exact values.
func TestTreeCompareAAMP(t *testing.T) {
	p := newBrowser(t)
	param := func(name string, v float32) aamp.Parameter {
		return aamp.Parameter{Name: aamp.NameOf(name), Type: aamp.TypeF32, Value: v}
	}
	write := func(name string, ps ...aamp.Parameter) string {
		io := &aamp.ParameterIO{Type: "xml", Root: aamp.ParameterList{Name: aamp.NameOf("param_root"),
			Objects: []*aamp.ParameterObject{{Name: aamp.NameOf("Obj"), Params: ps}}}}
		data, err := io.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		return writeTemp(t, name, data)
	}
	n := func(s string) string { return fmt.Sprint(uint32(aamp.NameOf(s))) }
	work := write("Work.bphysics", param("x", 1.5), param("z", 3))
	other := write("Other.bphysics", param("x", 1.5), param("y", 2), param("z", 3))
	p.upload("#file-input", work)
	p.treeShown("Work.bphysics")
	obj, x, y, z := "/"+n("Obj"), "/"+n("Obj")+"/"+n("x"), "/"+n("Obj")+"/"+n("y"), "/"+n("Obj")+"/"+n("z")
	p.setValue(x, "2.25")
	p.waitFor(fmt.Sprintf(`document.querySelector('.tree-row[data-path=%q] .tree-value').textContent === "2.25"`, x))
	p.upload("#tree-compare-input", other)
	p.waitFor(`ainbEditor.status().startsWith("Compared with Other.bphysics")`)
	got := p.treeDiff()
	lines := []string{`~ ` + x + `: 1.5 -> 2.25`, `- ` + y + `: 2`}
	rows := []string{`diff-inside ` + obj + ` = {2}`, `diff-changed ` + x + ` = 2.25`, `ghost diff-removed ` + y + ` = 2`, `- ` + z + ` = 3`}
	if !equalStrings(got.Lines, lines) || !equalStrings(got.Rows, rows) {
		t.Fatalf("rows %q\nlines %q", got.Rows, got.Lines)
	}
	p.treeKey("n")
	p.waitFor(fmt.Sprintf(`ainbEditor.treeDiff().current === 0 && document.querySelector('.tree-row.selected').dataset.path === %q`, x))
	p.run(`document.querySelector('[data-key="tree.changes"] .diff-line [data-action="diff-take-back"]').click()`)
	p.waitFor(`ainbEditor.treeDiff().lines.length === 1`)
	if v := p.rowValue(x); v != "1.5" {
		t.Errorf("x after take back %s", v)
	}
	if v := eval[string](p, `document.querySelector('[data-key="tree.value"]').value`); v != "1.5" {
		t.Errorf("the edit bar shows %s", v)
	}
	p.treeKey("z", chromedp.ModifierCtrl)
	p.waitFor(`ainbEditor.treeDiff().lines.length === 2`)
	if got = p.treeDiff(); !equalStrings(got.Lines, lines) || p.rowValue(x) != "2.25" {
		t.Errorf("after undo: %q, x %s", got.Lines, p.rowValue(x))
	}
	// Taking back the removed y puts it where it was, with its value.
	p.run(`[...document.querySelectorAll('[data-key="tree.changes"] .diff-line')][1].querySelector('[data-action="diff-take-back"]').click()`)
	p.waitFor(`ainbEditor.treeDiff().lines.length === 1`)
	if r := p.treeDiff().Rows; !equalStrings(r, []string{`diff-inside ` + obj + ` = {3}`, `diff-changed diff-current ` + x + ` = 2.25`, `- ` + y + ` = 2`, `- ` + z + ` = 3`}) {
		t.Errorf("after taking y back: %q", r)
	}
}

// Merge…: the working copy (ours) and another version (theirs) edited from the file as
// opened (base): the changes on one side combine, the one conflict waits for a choice, and
// each choice is honoured; the merge is one edit that undo takes back whole.
func TestTreeMerge(t *testing.T) {
	p := newBrowser(t)
	path, _ := testBYML(t)
	theirs := testRoot()
	theirs.Set("b", byml.NewString("theirs"))
	theirs.Get("List").Items = append(theirs.Get("List").Items, byml.NewInt(4))
	theirsPath := writeBYML(t, "Theirs.byml", theirs)

	p.upload("#file-input", path)
	p.treeShown("Test.byml")
	p.setValue("/b", "ours")
	p.waitFor(`document.querySelector('.tree-row[data-path="/b"] .tree-value').textContent === '"ours"'`)
	p.setValue("/c", "8")
	p.waitFor(`document.querySelector('.tree-row[data-path="/c"] .tree-value').textContent === "8"`)
	before := p.rows()

	for _, side := range []string{"theirs", "ours"} {
		p.do(chromedp.Click(chromedp.CSS(`[data-action="tree-merge"]`)))
		p.waitFor(`!document.querySelector('.tree-diff').hidden`)
		// The base: the file chosen, or the second time the file as opened.
		base := "Test.byml"
		if side == "theirs" {
			p.upload("#tree-merge-base-input", path)
		} else {
			p.do(chromedp.Click(chromedp.CSS(`[data-action="tree-merge-base-opened"]`)))
			base = "Test.byml as opened"
		}
		p.waitFor(fmt.Sprintf(`document.querySelector('[data-action="tree-merge-base"]').textContent === %q`, base))
		p.upload("#tree-merge-theirs-input", theirsPath)
		p.waitFor(`ainbEditor.treeDiff().conflicts === 1`)
		if c := eval[string](p, `document.querySelector('[data-key="tree.conflicts"] .diff-text').textContent`); c != `! /b: base "x", ours "ours", theirs "theirs"` {
			t.Errorf("conflict %q", c)
		}
		if !eval[bool](p, `document.querySelector('[data-action="tree-merge-apply"]').disabled`) {
			t.Error("Apply merge is enabled before the conflict is settled")
		}
		p.do(chromedp.Click(chromedp.CSS(`[data-action="tree-merge-` + side + `-0"]`)))
		p.waitFor(`!document.querySelector('[data-action="tree-merge-apply"]').disabled`)
		p.do(chromedp.Click(chromedp.CSS(`[data-action="tree-merge-apply"]`)))
		p.waitFor(`ainbEditor.status().startsWith("Merged Theirs.byml")`)
		if s := eval[string](p, `ainbEditor.status()`); s != "Merged Theirs.byml (base "+base+"), 1 conflict settled as chosen (Ctrl+Z undoes it)" {
			t.Errorf("status %q", s)
		}
		p.goTo("/List")
		p.treeKey(kb.ArrowRight)
		p.waitFor(`!!document.querySelector('.tree-row[data-path="/List/3"]')`)
		want := fmt.Sprintf(`/List=[4] /List/0=1 /List/1=2 /List/2=0.5 /List/3=4 /b="%s" /c=8 /d={1}`, side)
		if got := p.rows(); got != want {
			t.Errorf("merged taking %s:\n%s\nwant\n%s", side, got, want)
		}
		p.treeKey(kb.ArrowLeft)
		p.treeKey("z", chromedp.ModifierCtrl)
		p.waitFor(fmt.Sprintf(`document.querySelector('.tree-row[data-path="/b"] .tree-value').textContent === '"ours"' && !document.querySelector('.tree-row[data-path="/List/3"]')`))
		if got := p.rows(); got != before {
			t.Errorf("after undo of the merge:\n%s\nwant\n%s", got, before)
		}
	}
	// Redone, the merge (ours at the conflict) saves as any edit does.
	p.treeKey("y", chromedp.ModifierCtrl)
	p.waitFor(`ainbEditor.status().startsWith("Redid: Merge Theirs.byml")`)
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	p.waitFor(`ainbEditor.status().startsWith("Saved")`)
	saved, err := byml.Read(p.download("Test.byml"))
	if err != nil {
		t.Fatal(err)
	}
	want := testRoot()
	want.Set("b", byml.NewString("ours"))
	want.Set("c", byml.NewUInt(8))
	want.Get("List").Items = append(want.Get("List").Items, byml.NewInt(4))
	if !byml.Equal(saved.Root, want) || saved.Version != 7 {
		t.Errorf("the saved file (version %d) is not the merge", saved.Version)
	}
}

// Compare with… on the corpus's largest BYML (ActorInfo.product.byml, 1.9 MB) with one value
// edited: exactly that change, and the time to the first frame with the rows coloured (a
// figure logged, not a limit: the machine is shared), and to compare again after an edit.
func TestTreeCompareLargestBYML(t *testing.T) {
	p := newBrowser(t)
	path := filepath.Join(testcorpus.Dir(t), "byml", "ActorInfo.product.byml")
	in, _, _, deep := deepActorValue(t, path)
	p.upload("#file-input", path)
	p.treeShown("ActorInfo.product.byml")
	p.goTo(deep)
	old := p.rowValue(deep)
	p.typeInto(`[data-key="tree.value"]`, "12.5\r")
	p.waitFor(fmt.Sprintf(`document.querySelector('.tree-row[data-path=%q] .tree-value').textContent === "12.5"`, deep))
	p.upload("#tree-compare-input", path)
	p.waitFor(`!!ainbEditor.timings().treeDiff`)
	tm := eval[map[string]float64](p, `(({ name, ...times }) => times)(ainbEditor.timings().treeDiff)`)
	got := p.treeDiff()
	if want := []string{fmt.Sprintf("~ %s: %s -> 12.5", deep, old)}; !equalStrings(got.Lines, want) {
		t.Fatalf("lines %q, want %q", got.Lines, want)
	}
	t.Logf("ActorInfo.product.byml (%d bytes), one value edited: first coloured frame %.0f ms after the file was given (reading it through /api/tree %.0f ms, the diff %.0f ms, the rows %.0f ms)",
		len(in), tm["firstColoured"], tm["read"], tm["diff"], tm["rows"])
	// Taken back: the diff runs again at once, and finds nothing.
	again := eval[float64](p, `(() => { const t0 = performance.now(); document.querySelector('[data-key="tree.changes"] [data-action="diff-take-back"]').click(); return performance.now() - t0; })()`)
	if got = p.treeDiff(); len(got.Lines) != 0 || p.rowValue(deep) != old {
		t.Fatalf("after take back: %q, %s", got.Lines, p.rowValue(deep))
	}
	t.Logf("take back and compare again: %.0f ms", again)
}

// Compare with… the game's original: a member of a TotK pack, edited, compared with the same
// pack (its member of the same path is taken) and with a folder holding that path (a copy
// whose NumController is 5), through the chooser's buttons.
func TestTreeComparePackAndFolder(t *testing.T) {
	p := newBrowser(t)
	dir := testcorpus.Dir(t)
	packPath := filepath.Join(dir, "sarc", "Accessory_Battery.pack.zs")
	const asinfo = "Component/ASInfo/Accessory_Battery.engine__component__ASInfo.bgyml"
	p.upload("#zsdic-input", filepath.Join(dir, "zstd", "ZsDic.pack.zs"))
	p.waitFor(`ainbEditor.status().startsWith("Kept ZsDic.pack.zs")`)
	p.upload("#pack-input", packPath)
	p.waitFor(`ainbEditor.status().startsWith("Opened pack")`)
	p.do(chromedp.Click(chromedp.CSS(`.pack-files button[data-member="` + asinfo + `"]`)))
	p.treeShown("Accessory_Battery.engine__component__ASInfo.bgyml")
	p.setValue("/NumController", "3")
	p.waitFor(`document.querySelector('.tree-row[data-path="/NumController"] .tree-value').textContent === "3"`)

	p.do(chromedp.Click(chromedp.CSS(`[data-action="tree-compare"]`)))
	p.waitFor(`!!document.querySelector('[data-action="tree-compare-file"]')`)
	p.upload("#tree-compare-input", packPath)
	p.waitFor(`ainbEditor.status().startsWith("Compared with")`)
	if s := eval[string](p, `ainbEditor.status()`); s != "Compared with Accessory_Battery.pack.zs: "+asinfo+": 1 change (1 changed)" {
		t.Errorf("status %q", s)
	}
	if got := p.treeDiff(); !equalStrings(got.Lines, []string{"~ /NumController: 2 -> 3"}) {
		t.Errorf("against the pack: %q", got.Lines)
	}

	// A folder with the file at the member's path, one level down.
	was, _ := openPacks(t, packPath, mustRead(t, packPath))
	var member []byte
	for _, f := range was.Archive.Files {
		if f.Name == asinfo {
			member = f.Data
		}
	}
	d, err := byml.Read(member)
	if err != nil {
		t.Fatal(err)
	}
	d.Root.Set("NumController", byml.NewInt(5))
	edited, err := d.BytesCanonical()
	if err != nil {
		t.Fatal(err)
	}
	local := writeTemp(t, "asinfo.bgyml", edited)
	p.fakeDirectory("Romfs", map[string]string{"Pack/" + asinfo: local})
	p.do(chromedp.Click(chromedp.CSS(`[data-action="tree-compare"]`)))
	p.do(chromedp.Click(chromedp.CSS(`[data-action="tree-compare-folder"]`)))
	p.waitFor(`ainbEditor.status().startsWith("Compared with Romfs/")`)
	if got := p.treeDiff(); !equalStrings(got.Lines, []string{"~ /NumController: 5 -> 3"}) {
		t.Errorf("against the folder: %q", got.Lines)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Merge… of an AAMP archive: the conflict named as the rows name places, settled for
// theirs, with the other side's change (z) combined.
func TestTreeMergeAAMP(t *testing.T) {
	p := newBrowser(t)
	write := func(name string, x, z float32) string {
		io := &aamp.ParameterIO{Type: "xml", Root: aamp.ParameterList{Name: aamp.NameOf("param_root"),
			Objects: []*aamp.ParameterObject{{Name: aamp.NameOf("Obj"), Params: []aamp.Parameter{
				{Name: aamp.NameOf("x"), Type: aamp.TypeF32, Value: x}, {Name: aamp.NameOf("z"), Type: aamp.TypeF32, Value: z}}}}}}
		data, err := io.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		return writeTemp(t, name, data)
	}
	n := func(s string) string { return fmt.Sprint(uint32(aamp.NameOf(s))) }
	base, theirs := write("Work.bphysics", 1.5, 3), write("Theirs.bphysics", 4, 5)
	obj, x, z := "/"+n("Obj"), "/"+n("Obj")+"/"+n("x"), "/"+n("Obj")+"/"+n("z")
	p.upload("#file-input", base)
	p.treeShown("Work.bphysics")
	p.setValue(x, "2.25")
	p.waitFor(fmt.Sprintf(`document.querySelector('.tree-row[data-path=%q] .tree-value').textContent === "2.25"`, x))
	p.do(chromedp.Click(chromedp.CSS(`[data-action="tree-merge"]`)))
	p.upload("#tree-merge-base-input", base)
	p.waitFor(`document.querySelector('[data-action="tree-merge-base"]').textContent === "Work.bphysics"`)
	p.upload("#tree-merge-theirs-input", theirs)
	p.waitFor(`ainbEditor.treeDiff().conflicts === 1`)
	if c := eval[string](p, `document.querySelector('[data-key="tree.conflicts"] .diff-text').textContent`); c != `! `+x+`: base 1.5, ours 2.25, theirs 4` {
		t.Errorf("conflict %q", c)
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-action="tree-merge-theirs-0"]`)))
	p.do(chromedp.Click(chromedp.CSS(`[data-action="tree-merge-apply"]`)))
	p.waitFor(`ainbEditor.status().startsWith("Merged Theirs.bphysics")`)
	if got, want := p.rows(), obj+"={2} "+x+"=4 "+z+"=5"; got != want {
		t.Errorf("merged rows %s, want %s", got, want)
	}
	p.treeKey("z", chromedp.ModifierCtrl)
	p.waitFor(fmt.Sprintf(`document.querySelector('.tree-row[data-path=%q] .tree-value').textContent === "2.25"`, x))
	if got, want := p.rows(), obj+"={2} "+x+"=2.25 "+z+"=3"; got != want {
		t.Errorf("after undo %s, want %s", got, want)
	}
}

// A tree diff shared by link: Share diff makes a link to the working copy with #compare=
// naming a share of the other version; opened, it shows the same rows and changes, and the
// fragment typed on an open share compares too. A share of another kind is refused, saying
// so.
func TestTreeDiffLink(t *testing.T) {
	p := newBrowser(t)
	path, _ := testBYML(t)
	other := testRoot()
	other.Set("a", byml.NewString("gone"))
	other.Set("b", byml.NewString("y"))
	p.upload("#file-input", path)
	p.treeShown("Test.byml")
	p.upload("#tree-compare-input", writeBYML(t, "Other.byml", other))
	p.waitFor(`ainbEditor.status().startsWith("Compared with Other.byml")`)
	want := p.treeDiff()
	if !equalStrings(want.Lines, []string{`- /a: "gone"`, `~ /b: "y" -> "x"`}) {
		t.Fatalf("lines %q", want.Lines)
	}
	p.run(`document.querySelector('[data-action="diff-share"]').click()`)
	p.waitFor(`ainbEditor.treeDiff().link !== ""`)
	link := p.treeDiff().Link
	if !regexp.MustCompile(`/s/[^#]+#compare=[\w-]+$`).MatchString(link) {
		t.Fatalf("diff link %q", link)
	}
	u, _ := url.Parse(link)
	shareID := u.Fragment[len("compare="):]
	q := p.newTab(u.Path + "#" + u.Fragment)
	q.waitFor(`ainbEditor.treeDiff().lines.length === 2`)
	got := q.treeDiff()
	if !equalStrings(got.Rows, want.Rows) || !equalStrings(got.Lines, want.Lines) || got.Other != "share "+shareID {
		t.Errorf("the link shows rows %q lines %q against %q, want rows %q lines %q", got.Rows, got.Lines, got.Other, want.Rows, want.Lines)
	}
	// Typed on the share of the working copy alone: the same comparison.
	r := p.newTab(u.Path)
	r.waitFor(`ainbEditor.status().startsWith("Opened share") && document.querySelectorAll(".tree-row").length > 0`)
	if d := r.treeDiff(); len(d.Lines) != 0 {
		t.Fatalf("the share without the fragment compares: %q", d.Lines)
	}
	r.run(fmt.Sprintf(`location.hash = "#compare=%s"`, shareID))
	r.waitFor(`ainbEditor.treeDiff().lines.length === 2`)
	if d := r.treeDiff(); !equalStrings(d.Lines, want.Lines) {
		t.Errorf("typed fragment: lines %q", d.Lines)
	}
	// A share that is not there is named in an error, and the comparison shown stays.
	r.allowed = append(r.allowed, "/api/shares/nosuchshare")
	r.run(`location.hash = "#compare=nosuchshare"`)
	r.waitFor(`document.querySelectorAll(".toast").length > 0`)
	if got := r.toasts(); len(got) != 1 || !strings.HasPrefix(got[0], "error: Could not compare with share nosuchshare: ") {
		t.Errorf("toasts %q", got)
	}
	if d := r.treeDiff(); !equalStrings(d.Lines, want.Lines) || d.Other != "share "+shareID {
		t.Errorf("after the missing share: lines %q against %q", d.Lines, d.Other)
	}
}
