package diff

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"ainbeditor/internal/change"
	"ainbeditor/internal/graph"
	"ainbeditor/internal/testcorpus"
)

// Merging a file with itself twice builds the very bytes of the file: nothing is reordered,
// renumbered or made canonical on the way.
func TestMergeUnchanged(t *testing.T) {
	for name, b := range corpusDocs(t) {
		base := parse(t, name, b)
		want, err := base.Build()
		if err != nil {
			continue // graph's tests say why
		}
		out, cs, err := Merge(base, parse(t, name, b), parse(t, name, b), change.NoPreference)
		if err != nil || len(cs) > 0 {
			t.Errorf("%s: merge: %v, %d conflicts", name, err, len(cs))
			continue
		}
		got, err := out.Build()
		if err != nil {
			t.Errorf("%s: build: %v", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: merged file differs from the base (%d vs %d bytes)", name, len(got), len(want))
		}
	}
}

func caseFile(t *testing.T) (string, []byte) {
	t.Helper()
	name := filepath.Join(testcorpus.Dir(t), "ainb", "random", "random_s28_v404_n400.ainb")
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return name, b
}

// A node both sides added alike is one node; added differently, one conflict with no base.
func TestMergeSameAddedNode(t *testing.T) {
	name, b := caseFile(t)
	base := parse(t, name, b)
	g := newGenerator(base, 3)
	f := g.fork()
	e1, e2 := g.addChildNode(), f.addChildNode()
	if e1 == nil || e2 == nil {
		t.Fatal("no node to add")
	}
	a, bd := applied(t, name, b, []*edit{e1}), applied(t, name, b, []*edit{e2})
	out, cs, err := Merge(base, a, bd, change.NoPreference)
	if err != nil || len(cs) > 0 {
		t.Fatalf("merge: %v, %v", err, cs)
	}
	if got, want := build(t, "merged", out), build(t, "once", a); !bytes.Equal(got, want) {
		t.Error("merging a node both sides added alike did not give the file with it added once")
	}
	// One document passed as both sides is the same change twice.
	if out, cs, err := Merge(base, a, a, change.NoPreference); err != nil || len(cs) > 0 || !bytes.Equal(build(t, "merged", out), build(t, "once", a)) {
		t.Errorf("merge with one document as both sides: %v, %v, or other bytes", err, cs)
	}
	added := &bd.Nodes[len(bd.Nodes)-1]
	added.Name += "Other"
	_, cs, err = Merge(base, a, bd, change.NoPreference)
	if err != nil || len(cs) != 1 || cs[0].Path.String() != NodeStep(&a.Nodes[len(a.Nodes)-1]) || cs[0].Base != nil ||
		!bytes.Contains(cs[0].Theirs, []byte(`"name":"`+added.Name+`"`)) {
		t.Fatalf("merge of a node added differently: %v, %d conflicts %v", err, len(cs), cs)
	}
	out, _, err = Merge(base, a, bd, change.Theirs)
	if err != nil || out.Nodes[len(out.Nodes)-1].Name != added.Name || len(out.Nodes) != len(base.Nodes)+1 {
		t.Fatalf("prefer theirs: %v, last node %q, %d nodes", err, out.Nodes[len(out.Nodes)-1].Name, len(out.Nodes))
	}
}

// A node one side removed and the other changed is a conflict at the node, ours absent; a
// preference removes it or keeps the changed node.
func TestMergeRemovedAndChanged(t *testing.T) {
	name, b := caseFile(t)
	base := parse(t, name, b)
	g := newGenerator(base, 5)
	rm := g.removeLeaf()
	if rm == nil {
		t.Fatal("no leaf to remove")
	}
	leaf := rm.changes[0].NodeA
	a := applied(t, name, b, []*edit{rm})
	bd := parse(t, name, b)
	n := node(bd, leaf)
	n.Name += "Changed"
	_, cs, err := Merge(base, a, bd, change.NoPreference)
	if err != nil || len(cs) != 1 || cs[0].Path.String() != NodeStep(node(base, leaf)) || cs[0].Ours != nil || cs[0].Base == nil ||
		!bytes.Contains(cs[0].Theirs, []byte(`"name":"`+n.Name+`"`)) {
		t.Fatalf("merge: %v, %d conflicts %v", err, len(cs), cs)
	}
	out, _, err := Merge(base, a, bd, change.Ours)
	if err != nil || len(out.Nodes) != len(base.Nodes)-1 {
		t.Fatalf("prefer ours: %v, %d nodes, want %d", err, len(out.Nodes), len(base.Nodes)-1)
	}
	out, _, err = Merge(base, a, bd, change.Theirs)
	if err != nil || len(out.Nodes) != len(base.Nodes) || node(out, leaf).Name != n.Name {
		t.Fatalf("prefer theirs: %v, %d nodes", err, len(out.Nodes))
	}
	build(t, "prefer theirs", out)
}

// One side reorders a node's inputs, the other edits one of them: both apply.
func TestMergeOrderAndValue(t *testing.T) {
	name, b := caseFile(t)
	base := parse(t, name, b)
	g := newGenerator(base, 9)
	sw := g.swapInputs()
	if sw == nil {
		t.Fatal("no inputs to swap")
	}
	id := sw.changes[0].NodeA
	var k int
	for k = range node(base, id).Inputs {
		if in := node(base, id).Inputs[k]; in.Source == nil && in.Sources == nil && editable(in.Type) {
			break
		}
	}
	in := node(base, id).Inputs[k]
	if in.Source != nil || in.Sources != nil || !editable(in.Type) {
		t.Skip("the swapped node has no input with an immediate value")
	}
	nv := g.newValue(in.Type, in.Value)
	setValue := func(d *graph.Document) {
		for j := range node(d, id).Inputs {
			if node(d, id).Inputs[j].Name == in.Name {
				node(d, id).Inputs[j].Value = nv
			}
		}
	}
	a := applied(t, name, b, []*edit{sw})
	bd := parse(t, name, b)
	setValue(bd)
	out, cs, err := Merge(base, a, bd, change.NoPreference)
	if err != nil || len(cs) > 0 {
		t.Fatalf("merge: %v, %v", err, cs)
	}
	both := applied(t, name, b, []*edit{sw})
	setValue(both)
	if !bytes.Equal(build(t, "merged", out), build(t, "both", both)) {
		t.Error("the merge of a reorder and a value edit differs from both applied")
	}
}

// Three versions of the largest corpus file, each side with a few edits.
func BenchmarkMergeLargest(b *testing.B) {
	name, data := largest(b)
	base := parse(b, name, data)
	g := newGenerator(base, 1)
	var ea, eb []*edit
	for range 5 {
		ea, eb = append(ea, g.next()), append(eb, g.next())
	}
	x, y := parse(b, name, data), parse(b, name, data)
	for k := range ea {
		ea[k].apply(x)
		eb[k].apply(y)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, cs, err := Merge(base, x, y, change.NoPreference); err != nil || len(cs) > 0 {
			b.Fatal(err, cs)
		}
	}
}

// A link one side adds to a node the other side removed is an error naming the link.
func TestMergeLinkToRemovedNode(t *testing.T) {
	name, b := caseFile(t)
	base := parse(t, name, b)
	rm := newGenerator(base, 5).removeLeaf()
	if rm == nil || len(base.Commands) == 0 {
		t.Fatal("no leaf to remove or no command")
	}
	leaf := rm.changes[0].NodeA
	a := applied(t, name, b, []*edit{rm})
	bd := parse(t, name, b)
	bd.Commands[0].Root = leaf
	out, cs, err := Merge(base, a, bd, change.NoPreference)
	want := "command " + base.Commands[0].Name + ": links to node " + strconv.Itoa(leaf) + ", which the other side removed"
	if err == nil || err.Error() != want || out != nil || len(cs) > 0 {
		t.Fatalf("merge: %v, %d conflicts; want the error %q", err, len(cs), want)
	}
}

// Unrelated files: merging y into x as ours (x as theirs), or as theirs, gives y (nothing of it lost or
// mixed up, whatever the matching paired), and Diff and Merge of any two files never panic.
func TestMergeUnrelatedFiles(t *testing.T) {
	files := corpusDocs(t)
	names := slices.Sorted(maps.Keys(files))
	pairs, checked := 0, 0
	for k := 0; k+1 < len(names); k++ {
		x, y := parse(t, names[k], files[names[k]]), parse(t, names[k+1], files[names[k+1]])
		Diff(x, y)
		if x.Version != y.Version {
			continue
		}
		pairs++
		out, cs, err := Merge(x, y, parse(t, names[k], files[names[k]]), change.NoPreference)
		if err != nil || len(cs) > 0 {
			t.Errorf("%s into %s: %v, %d conflicts", names[k+1], names[k], err, len(cs))
			continue
		}
		if d := Diff(y, out); len(d) > 0 {
			t.Errorf("%s into %s: the merge differs from ours:\n%s", names[k+1], names[k], text(d[:min(3, len(d))]))
			continue
		}
		// The same from their side.
		out, cs, err = Merge(x, parse(t, names[k], files[names[k]]), y, change.NoPreference)
		if err != nil || len(cs) > 0 {
			t.Errorf("%s into %s as theirs: %v, %d conflicts", names[k+1], names[k], err, len(cs))
			continue
		}
		if d := Diff(y, out); len(d) > 0 {
			t.Errorf("%s into %s: the merge differs from theirs:\n%s", names[k+1], names[k], text(d[:min(3, len(d))]))
			continue
		}
		checked++
	}
	if checked == 0 || checked != pairs {
		t.Errorf("%d of %d pairs merged to ours", checked, pairs)
	}
}
