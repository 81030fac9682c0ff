package main

import (
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
	yLine := `~ ` + esc(y) + `: {"format":"byml","size":` + strconv.Itoa(len(member(a, y))) + `} -> {"format":"byml","size":` + strconv.Itoa(len(member(a, bymls[1]))) + `}`
	want := []string{"~ " + esc(m1) + "/" + l1[2:], "~ " + esc(m1) + "/" + l2[2:], "~ " + esc(m2) + "/" + l3[2:], yLine}
	if code != 1 || !slices.Equal(sortedLines(out), sortedLines(strings.Join(want, "\n"))) {
		t.Errorf("diff base merged: exit %d\n%s%s\nwant\n%s", code, out, errs, strings.Join(want, "\n"))
	}

	// The BYML member changed differently on both sides: a conflict, with both sizes.
	must(theirs.Replace(y, member(a, bymls[2])))
	tb, err = theirs.Bytes()
	must(err)
	pt = writeIn(t, dir, "theirs.sarc", tb)
	out, _, code = runCLI(t, "merge", pb, po, pt, "-o", merged+"2")
	want1 := `! ` + esc(y) + ` base={"format":"byml","size":` + strconv.Itoa(len(member(a, y))) + `} ours={"format":"byml","size":` + strconv.Itoa(len(member(a, bymls[1]))) + `} theirs={"format":"byml","size":` + strconv.Itoa(len(member(a, bymls[2]))) + "}\n"
	if code != 1 || out != want1 {
		t.Errorf("conflicting pack merge: exit %d, %q, want %q", code, out, want1)
	}
}

func TestDiffAndMergeTrouble(t *testing.T) {
	dir := t.TempDir()
	ainbFile := filepath.Join(testcorpus.Dir(t), "ainb", "synthetic", "minimal_v407.ainb")
	sarcFile := filepath.Join(testcorpus.Dir(t), "sarc", "test.sarc")
	bad := writeIn(t, dir, "bad.ainb", []byte("AIB \x07\x04\x00\x00"))
	bymlFile := filepath.Join(testcorpus.Dir(t), "byml", "A-1_Dynamic.byml")
	for _, tc := range []struct {
		args []string
		errs string
	}{
		{[]string{"diff", ainbFile, sarcFile}, "ainb: " + ainbFile + ", " + sarcFile + ": not one format: AINB and SARC\n"},
		{[]string{"diff", ainbFile, bad}, "ainb: " + ainbFile + ", " + bad + ": ainb: header at offset 0x0: file is 8 bytes, shorter than the 0x74-byte header\n"},
		{[]string{"diff", ainbFile, filepath.Join(dir, "none")}, "ainb: " + filepath.Join(dir, "none") + ": open " + filepath.Join(dir, "none") + ": no such file or directory\n"},
		{[]string{"merge", ainbFile, ainbFile, sarcFile, "-o", filepath.Join(dir, "out")}, "ainb: " + ainbFile + " is AINB, " + sarcFile + " is SARC: not one format\n"},
		{[]string{"merge", bymlFile, bymlFile, bymlFile, "-o", filepath.Join(dir, "out")}, "ainb: merge of BYML files: not yet\n"},
	} {
		out, errs, code := runCLI(t, tc.args...)
		if code != 2 || out != "" || errs != tc.errs {
			t.Errorf("%v: exit %d, %q %q; want exit 2, %q", tc.args, code, out, errs, tc.errs)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("a failed merge wrote its output")
	}
}
