package main

import (
	"ainbeditor/internal/byml"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ainbeditor/internal/change"
	"ainbeditor/internal/diff"
	"ainbeditor/internal/graph"
	"ainbeditor/internal/sarc"
	"ainbeditor/internal/testcorpus"
)

// editValue adds 5 to the first immediate int property of an AINB file after skip others,
// and returns the file and the line ainb diff prints for the edit.
func editValue(t *testing.T, b []byte, skip int) ([]byte, string) {
	t.Helper()
	d, err := graph.Parse("x.ainb", b)
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.Nodes {
		n := &d.Nodes[i]
		for k := range n.Properties {
			p := &n.Properties[k]
			if p.Source != nil || p.Type != "int" {
				continue
			}
			if skip > 0 {
				skip--
				continue
			}
			line := "~ " + diff.NodeStep(n) + "/property " + p.Name + "/value: " + strconv.FormatInt(p.Value.Int, 10) + " -> " + strconv.FormatInt(p.Value.Int+5, 10)
			p.Value.Int += 5
			out, err := d.Build()
			if err != nil {
				t.Fatal(err)
			}
			return out, line
		}
	}
	t.Fatal("no int property to edit")
	return nil, ""
}

func writeIn(t *testing.T, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func sortedLines(s string) []string {
	l := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	slices.Sort(l)
	return l
}

func TestDiffAndMergeAINB(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(testcorpus.Dir(t), "ainb", "random", "random_s28_v404_n400.ainb")
	base, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	ours, lo := editValue(t, base, 0)
	theirs, lt := editValue(t, base, 3)
	conflicting, _ := editValue(t, ours, 0) // changes ours' edit again
	pb, po, pt, pc := writeIn(t, dir, "base.ainb", base), writeIn(t, dir, "ours.ainb", ours), writeIn(t, dir, "theirs.ainb", theirs), writeIn(t, dir, "c.ainb", conflicting)

	if out, errs, code := runCLI(t, "diff", pb, po); code != 1 || out != lo+"\n" {
		t.Errorf("diff: exit %d, %q %s; want exit 1, %q", code, out, errs, lo)
	}
	if out, errs, code := runCLI(t, "diff", pb, pb); code != 0 || out != "" {
		t.Errorf("diff of a file with itself: exit %d, %q %s", code, out, errs)
	}
	out, _, code := runCLI(t, "diff", "-json", pb, po)
	var js struct {
		Changes []struct {
			Op           string
			Path         []string
			NodeA, NodeB int
		}
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil || code != 1 || len(js.Changes) != 1 || js.Changes[0].Op != "changed" || len(js.Changes[0].Path) != 3 {
		t.Errorf("diff -json: exit %d, %v, %s", code, err, out)
	}

	// Two edits to different places combine; the output is compressed as its name says.
	merged := filepath.Join(dir, "merged.ainb.zs")
	if out, errs, code := runCLI(t, "merge", "-zsdic", zsdic(t), pb, po, pt, "-o", merged); code != 0 || out != "" {
		t.Fatalf("merge: exit %d, %q %s", code, out, errs)
	}
	out, errs, code := runCLI(t, "diff", "-zsdic", zsdic(t), pb, merged)
	if want := []string{lo, lt}; code != 1 || !slices.Equal(sortedLines(out), sortedLines(strings.Join(want, "\n"))) {
		t.Errorf("diff base merged: exit %d, %q %s; want %q", code, out, errs, want)
	}

	// Two different edits to one place: a conflict, and no output unless a side is preferred.
	conflictOut := filepath.Join(dir, "conflict.ainb")
	out, errs, code = runCLI(t, "merge", pb, po, pc, "-o", conflictOut)
	if code != 1 || !strings.HasPrefix(out, "! "+strings.SplitN(lo, "/value", 2)[0][2:]+" base=") || strings.Count(out, "\n") != 1 ||
		errs != "ainb: 1 conflicts; nothing written (-prefer ours or -prefer theirs settles them)\n" {
		t.Errorf("conflicting merge: exit %d, %q %q", code, out, errs)
	}
	if _, err := os.Stat(conflictOut); err == nil {
		t.Error("a merge with conflicts wrote its output")
	}
	if _, errs, code := runCLI(t, "merge", "-prefer", "theirs", pb, po, pc, "-o", conflictOut); code != 0 {
		t.Fatalf("merge -prefer theirs: exit %d, %s", code, errs)
	}
	out, _, _ = runCLI(t, "diff", pb, conflictOut)
	if !strings.HasSuffix(strings.TrimSuffix(out, "\n"), " -> "+strconv.Itoa(atoiAfter(t, lo, " -> ")+5)) {
		t.Errorf("merge -prefer theirs: diff from base %q, want theirs' value (ours' %s, plus 5)", out, lo)
	}
	if _, errs, code := runCLI(t, "merge", "-prefer", "mine", pb, po, pc, "-o", conflictOut); code != 2 || errs != "ainb: -prefer: preference \"mine\": want ours or theirs\n" {
		t.Errorf("merge -prefer mine: exit %d, %q", code, errs)
	}
}

// esc is the path step of an archive member as a printed path shows it ('/' escaped).
func esc(member string) string { return change.Path{"member " + member}.String() }

func atoiAfter(t *testing.T, s, sep string) int {
	n, err := strconv.Atoi(s[strings.LastIndex(s, sep)+len(sep):])
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Packs merge member by member: AINB members both sides changed by merging them, members one
// side changed by taking them; a member of another format both changed differently is a
// conflict.
func TestDiffAndMergePack(t *testing.T) {
	dir := t.TempDir()
	var src string
	for _, f := range testcorpus.GameFiles(t, "sarc") {
		if strings.Contains(f, "EnemyIronBallVeryBigBindable") {
			src = f
		}
	}
	if src == "" {
		t.Skip("the game pack this test edits is not among the game files")
	}
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	a, err := sarc.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	var ainbs, bymls []string
	for _, f := range a.Files {
		switch {
		case strings.HasSuffix(f.Name, ".ainb"):
			if _, err := graph.Parse(f.Name, f.Data); err == nil && len(f.Data) > 2000 {
				ainbs = append(ainbs, f.Name)
			}
		case strings.HasSuffix(f.Name, ".bgyml"):
			bymls = append(bymls, f.Name)
		}
	}
	if len(ainbs) < 2 || len(bymls) < 3 {
		t.Fatalf("%d AINB and %d BYML members", len(ainbs), len(bymls))
	}
	member := func(a *sarc.Archive, name string) []byte {
		b, ok := a.Lookup(name)
		if !ok {
			t.Fatalf("no member %s", name)
		}
		return b
	}
	m1, m2, y := ainbs[0], ainbs[1], bymls[0]
	o1, l1 := editValue(t, member(a, m1), 0)
	t1, l2 := editValue(t, member(a, m1), 2)
	t2, l3 := editValue(t, member(a, m2), 0)
	ours, _ := sarc.Read(data)
	theirs, _ := sarc.Read(data)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(ours.Replace(m1, o1))
	must(ours.Replace(y, member(a, bymls[1])))
	must(theirs.Replace(m1, t1))
	must(theirs.Replace(m2, t2))
	ob, err := ours.Bytes()
	must(err)
	tb, err := theirs.Bytes()
	must(err)
	pb, po, pt := writeIn(t, dir, "base.sarc", data), writeIn(t, dir, "ours.sarc", ob), writeIn(t, dir, "theirs.sarc", tb)
	merged := filepath.Join(dir, "merged.sarc")
	if out, errs, code := runCLI(t, "merge", pb, po, pt, "-o", merged); code != 0 || out != "" {
		t.Fatalf("merge: exit %d, %q %s", code, out, errs)
	}
	out, errs, code := runCLI(t, "diff", pb, merged)
	// The AINB members' edits, line for line, and the BYML member (taken whole from ours)
	// compared by meaning: its lines name places inside it.
	want := []string{"~ " + esc(m1) + "/" + l1[2:], "~ " + esc(m1) + "/" + l2[2:], "~ " + esc(m2) + "/" + l3[2:]}
	var ainbLines []string
	bymlLines := 0
	for _, l := range sortedLines(out) {
		if strings.Contains(l, esc(y)+"/") {
			bymlLines++
		} else {
			ainbLines = append(ainbLines, l)
		}
	}
	if code != 1 || bymlLines == 0 || !slices.Equal(ainbLines, sortedLines(strings.Join(want, "\n"))) {
		t.Errorf("diff base merged: exit %d, %d BYML lines\n%s%s\nwant\n%s", code, bymlLines, out, errs, strings.Join(want, "\n"))
	}

	// The BYML member changed at one place differently on both sides: merged by meaning,
	// that place is the one conflict, inside the member; nothing is written.
	yo, _ := bymlEdited(t, member(a, y), 0, "Ours")
	yt, _ := bymlEdited(t, member(a, y), 0, "Theirs")
	must(ours.Replace(y, yo))
	must(theirs.Replace(y, yt))
	ob, err = ours.Bytes()
	must(err)
	tb, err = theirs.Bytes()
	must(err)
	po, pt = writeIn(t, dir, "ours.sarc", ob), writeIn(t, dir, "theirs.sarc", tb)
	out, _, code = runCLI(t, "merge", pb, po, pt, "-o", merged+"2")
	lines := sortedLines(out)
	if code != 1 || len(lines) != 1 {
		t.Fatalf("conflicting pack merge: exit %d, %q", code, out)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "! "+esc(y)+"/") {
			t.Errorf("conflict %q is not inside the BYML member", l)
		}
	}
	if _, err := os.Stat(merged + "2"); err == nil {
		t.Error("a merge with conflicts wrote its output")
	}
}

// bymlEdited is the BYML file with the k-th string value of the root hash (in key order)
// replaced, and the key it changed.
func bymlEdited(t *testing.T, data []byte, k int, value string) ([]byte, string) {
	t.Helper()
	d, err := byml.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	// Copy on write: BYML files share subtrees, and the edit is meant for one place only.
	n := 0
	var walk func(*byml.Node) (*byml.Node, string, bool)
	walk = func(x *byml.Node) (*byml.Node, string, bool) {
		c := *x
		for i := range x.Entries {
			v := x.Entries[i].Value
			if v.Kind == byml.String {
				if n == k {
					c.Entries = slices.Clone(x.Entries)
					c.Entries[i].Value = byml.NewString(value)
					return &c, x.Entries[i].Key, true
				}
				n++
			} else if sub, key, ok := walk(v); ok {
				c.Entries = slices.Clone(x.Entries)
				c.Entries[i].Value = sub
				return &c, key, true
			}
		}
		for i, it := range x.Items {
			if sub, key, ok := walk(it); ok {
				c.Items = slices.Clone(x.Items)
				c.Items[i] = sub
				return &c, key, true
			}
		}
		return x, "", false
	}
	root, key, ok := walk(d.Root)
	if !ok {
		t.Fatalf("no string value %d in the file", k)
	}
	d.Root = root
	out, err := d.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return out, key
}

// BYML files diff by meaning and merge in three ways through the same commands as AINB.
func TestDiffAndMergeBYML(t *testing.T) {
	dir := t.TempDir()
	base, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "byml", "A-1_Dynamic.byml"))
	if err != nil {
		t.Fatal(err)
	}
	ours, ko := bymlEdited(t, base, 0, "Ours")
	theirs, kt := bymlEdited(t, base, 5, "Theirs")
	clash, _ := bymlEdited(t, base, 0, "Clash")
	pb, po, pt, pc := writeIn(t, dir, "base.byml", base), writeIn(t, dir, "ours.byml", ours), writeIn(t, dir, "theirs.byml", theirs), writeIn(t, dir, "clash.byml", clash)

	out, errs, code := runCLI(t, "diff", pb, po)
	if code != 1 || strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "~ ") || !strings.Contains(out, ko) || !strings.HasSuffix(out, `-> {"type":"string","value":"Ours"}`+"\n") {
		t.Errorf("diff: exit %d, %q %s", code, out, errs)
	}
	merged := filepath.Join(dir, "merged.byml")
	if out, errs, code := runCLI(t, "merge", pb, po, pt, "-o", merged); code != 0 {
		t.Fatalf("merge: exit %d, %q %s", code, out, errs)
	}
	got, err := os.ReadFile(merged)
	if err != nil {
		t.Fatal(err)
	}
	both, _ := bymlEdited(t, ours, 5, "Theirs")
	g, err1 := byml.Read(got)
	w, err2 := byml.Read(both)
	if err1 != nil || err2 != nil || !byml.Equal(g.Root, w.Root) {
		t.Errorf("the merge of %s and %s is not both edits (%v %v)", ko, kt, err1, err2)
	}
	// The same place changed two ways: exit 1, the conflict listed, nothing written.
	clashOut := filepath.Join(dir, "clash-out.byml")
	out, errs, code = runCLI(t, "merge", pb, po, pc, "-o", clashOut)
	if code != 1 || strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "! ") || !strings.Contains(out, `ours={"type":"string","value":"Ours"} theirs={"type":"string","value":"Clash"}`) {
		t.Errorf("conflict: exit %d, %q %q", code, out, errs)
	}
	if _, err := os.Stat(clashOut); err == nil {
		t.Error("a merge with a conflict wrote its output")
	}
}
