package byml

import (
	"bytes"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"ainbeditor/internal/change"
	"ainbeditor/internal/hostile"
	"ainbeditor/internal/jsontext"
)

func conflictLines(cs []change.Conflict) []string {
	var s []string
	for _, c := range cs {
		s = append(s, string(c.AppendText(nil)))
	}
	slices.Sort(s)
	return s
}

// TestMergeRandomEdits edits random scalars of the corpus's largest BYML on two sides: the
// first 40 leaves only on one side or the other, the next 10 on both, 5 of them alike.
func TestMergeRandomEdits(t *testing.T) {
	base := readActorInfo(t)
	doc := func(n *Node) *Document { return &Document{Version: base.Version, BigEndian: base.BigEndian, Root: n} }
	type edit struct {
		k      int
		v      *Node
		ok, tk bool // made on ours, on theirs
	}
	apply := func(es []edit, ours, theirs bool) *Node {
		n := base.Root.Clone()
		ls, _ := unsharedLeaves(n)
		for _, e := range es {
			if ours && e.ok || theirs && e.tk {
				ls[e.k].parent.Set(ls[e.k].key, e.v)
			}
		}
		return n
	}
	leaves, _ := unsharedLeaves(base.Root)
	for seed := int64(1); seed <= 3; seed++ {
		r := rand.New(rand.NewSource(seed))
		var disjoint, oursConflict, theirsConflict []edit
		var want []string
		for n, k := range r.Perm(len(leaves))[:50] {
			vo, vt := NewString(fmt.Sprintf("ours %d", k)), NewInt64(int64(k))
			switch {
			case n < 20:
				disjoint = append(disjoint, edit{k, vo, true, false})
			case n < 40:
				disjoint = append(disjoint, edit{k, vt, false, true})
			case n < 45: // the same change on both sides
				disjoint = append(disjoint, edit{k, vo, true, true})
			default:
				oursConflict = append(oursConflict, edit{k, vo, true, true})
				theirsConflict = append(theirsConflict, edit{k, vt, true, true})
				l := leaves[k]
				want = append(want, string(change.Conflict{Path: l.path, Base: nodeJSON(l.parent.Get(l.key)), Ours: nodeJSON(vo), Theirs: nodeJSON(vt)}.AppendText(nil)))
			}
		}
		slices.Sort(want)
		// Disjoint edits: the merge is both sides' edits applied, byte for byte when written.
		got, conflicts, err := Merge(base, doc(apply(disjoint, true, false)), doc(apply(disjoint, false, true)), change.NoPreference)
		if err != nil || len(conflicts) != 0 {
			t.Fatalf("seed %d: disjoint merge: %q %v", seed, conflictLines(conflicts), err)
		}
		x, err1 := got.BytesCanonical()
		y, err2 := doc(apply(disjoint, true, true)).BytesCanonical()
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
			t.Fatalf("seed %d: merged file differs from both edits applied (%v %v)", seed, err1, err2)
		}
		// Grafted onto the file as read, it writes in the file's layout and reads back equal.
		orig := readActorInfo(t)
		orig.Graft(got)
		data, err := orig.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Read(data)
		if err != nil || !Equal(back.Root, got.Root) {
			t.Fatalf("seed %d: merged file does not read back equal (%v)", seed, err)
		}
		// And with 5 places edited differently on each side: exactly those conflicts.
		ours := doc(apply(append(slices.Clone(disjoint), oursConflict...), true, false))
		theirs := doc(apply(append(slices.Clone(disjoint), theirsConflict...), false, true))
		got, conflicts, err = Merge(base, ours, theirs, change.NoPreference)
		if err != nil || got != nil {
			t.Fatalf("seed %d: Merge with conflicts gave a document (%v)", seed, err)
		}
		if g := conflictLines(conflicts); !slices.Equal(g, want) {
			t.Fatalf("seed %d: conflicts\n%q\nwant\n%q", seed, g, want)
		}
		for _, tc := range []struct {
			prefer change.Prefer
			want   *Node
		}{
			{change.Ours, apply(append(slices.Clone(disjoint), oursConflict...), true, true)},
			{change.Theirs, apply(append(slices.Clone(disjoint), theirsConflict...), true, true)},
		} {
			got, conflicts, err = Merge(base, ours, theirs, tc.prefer)
			if err != nil || len(conflicts) != 5 || !Equal(got.Root, tc.want) {
				t.Fatalf("seed %d prefer %d: wrong result (%d conflicts, %v)", seed, tc.prefer, len(conflicts), err)
			}
		}
	}
}

func TestMergeArrays(t *testing.T) {
	s := func(v ...string) *Document {
		n := NewArray()
		for _, x := range v {
			n.Items = append(n.Items, NewString(x))
		}
		return &Document{Version: 2, Root: n}
	}
	for _, tc := range []struct {
		name              string
		base, ours, their *Document
		want              *Document
		conflicts         []string
	}{
		{"insertions at different places combine", s("a", "b", "c"), s("x", "a", "b", "c"), s("a", "b", "c", "y"), s("x", "a", "b", "c", "y"), nil},
		{"the same insertion is made once", s("a", "b"), s("a", "x", "b"), s("a", "x", "b"), s("a", "x", "b"), nil},
		{"removal and insertion combine", s("a", "b", "c"), s("a", "c"), s("a", "b", "c", "d"), s("a", "c", "d"), nil},
		{"edits to different elements combine", s("a", "b", "c"), s("A", "b", "c"), s("a", "b", "C"), s("A", "b", "C"), nil},
		{"edits to one element conflict", s("a", "b", "c"), s("a", "B", "c"), s("a", "b2", "c"), nil,
			[]string{`! 1 base={"type":"string","value":"b"} ours={"type":"string","value":"B"} theirs={"type":"string","value":"b2"}`}},
		{"removed and edited conflict", s("a", "b", "c"), s("a", "c"), s("a", "B", "c"), nil,
			[]string{`! 1 base={"type":"string","value":"b"} ours=(none) theirs={"type":"string","value":"B"}`}},
		{"different insertions at one place conflict", s("a", "b"), s("a", "x", "b"), s("a", "y", "b"), nil,
			[]string{`! 1 base=(none) ours={"type":"array","value":[{"type":"string","value":"x"}]} theirs={"type":"array","value":[{"type":"string","value":"y"}]}`}},
	} {
		got, conflicts, err := Merge(tc.base, tc.ours, tc.their, change.NoPreference)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if g := conflictLines(conflicts); !slices.Equal(g, tc.conflicts) {
			t.Errorf("%s: conflicts %q, want %q", tc.name, g, tc.conflicts)
		}
		if tc.want != nil && (got == nil || !Equal(got.Root, tc.want.Root)) {
			t.Errorf("%s: merged %v", tc.name, got)
		}
	}
}

func TestMergeHeaderAndTypes(t *testing.T) {
	h := func(v *Node) *Node { n := NewHash(); n.Set("k", v); return n }
	base := &Document{Version: 2, Root: h(NewInt(1))}
	ours := &Document{Version: 7, Root: h(NewInt(1))}
	theirs := &Document{Version: 2, Root: h(NewFloat(1))}
	got, conflicts, err := Merge(base, ours, theirs, change.NoPreference)
	if err != nil || len(conflicts) != 0 || got.Version != 7 || got.Root.Get("k").Kind != Float {
		t.Fatalf("Merge = %+v %q %v", got, conflictLines(conflicts), err)
	}
	ours.Root = h(NewUInt(1))
	_, conflicts, _ = Merge(base, ours, theirs, change.NoPreference)
	want := []string{`! k base={"type":"int","value":1} ours={"type":"uint","value":1} theirs={"type":"float","value":1}`}
	if g := conflictLines(conflicts); !slices.Equal(g, want) {
		t.Fatalf("conflicts %q, want %q", g, want)
	}
}

func BenchmarkMergeHugeArray(b *testing.B) {
	x, y := hugeArrays(1_000_000)
	base, ours := &Document{Version: 2, Root: x}, &Document{Version: 2, Root: y}
	theirs := &Document{Version: 2, Root: NewArray(append([]*Node{NewString("first")}, x.Items...)...)}
	b.ReportAllocs()
	for b.Loop() {
		if _, c, _ := Merge(base, ours, theirs, change.NoPreference); len(c) != 0 {
			b.Fatal(len(c))
		}
	}
}

// MergeSettling honours each conflict's own choice, counted in the order the merge meets
// them: an array insertion conflict settled for theirs moves the index of the conflict after
// it, and that one is still settled as chosen; one left open means no document.
func TestMergeSettlingEach(t *testing.T) {
	arr := func(vs ...int) *Node {
		n := NewArray()
		for _, v := range vs {
			n.Items = append(n.Items, NewInt(int32(v)))
		}
		return n
	}
	doc := func(list *Node, name string) *Document {
		root := NewHash()
		root.Set("List", list)
		root.Set("Name", NewString(name))
		return &Document{Version: 2, Root: root}
	}
	base := doc(arr(1, 2, 3), "base")
	ours := doc(arr(1, 10, 2, 3, 30), "ours")         // inserts 10 before 2, appends 30
	theirs := doc(arr(1, 20, 21, 2, 3, 40), "theirs") // inserts 20, 21 before 2, appends 40
	for _, c := range []struct {
		choices []change.Prefer
		list    string
		name    string
		paths   string
	}{
		{[]change.Prefer{change.Ours, change.Ours, change.Ours}, "1 10 2 3 30", "ours", "List/1 List/4 Name"},
		{[]change.Prefer{change.Theirs, change.Ours, change.Theirs}, "1 20 21 2 3 30", "theirs", "List/1 List/5 Name"},
		{[]change.Prefer{change.Ours, change.Theirs, change.Ours}, "1 10 2 3 40", "ours", "List/1 List/4 Name"},
	} {
		got, conflicts, err := MergeSettling(base, ours, theirs, change.Each(c.choices, change.NoPreference), jsontext.NoLimit)
		if err != nil || got == nil {
			t.Fatalf("%v: %v, document %v", c.choices, err, got)
		}
		var list, paths []string
		for _, it := range got.Root.Get("List").Items {
			list = append(list, fmt.Sprint(it.IntValue()))
		}
		for _, k := range conflicts {
			paths = append(paths, k.Path.String())
		}
		if fmt.Sprint(list) != "["+c.list+"]" || got.Root.Get("Name").Str != c.name || fmt.Sprint(paths) != "["+c.paths+"]" {
			t.Errorf("%v: list %v, name %q, conflicts at %v; want [%s], %q, [%s]", c.choices, list, got.Root.Get("Name").Str, paths, c.list, c.name, c.paths)
		}
	}
	got, conflicts, err := MergeSettling(base, ours, theirs, change.Each([]change.Prefer{change.Ours, change.Theirs}, change.NoPreference), jsontext.NoLimit)
	if err != nil || got != nil || len(conflicts) != 3 {
		t.Errorf("one conflict open: document %v, %d conflicts, %v; want none, 3", got, len(conflicts), err)
	}
}

// A file of 40 levels of arrays each pointing twice at the next (2^40 places) with one value
// of the last changed: the diff and a conflicting merge stop at their budget at once, and a
// merge of changes on both sides that do not conflict merges each shared array once.
func TestDiffMergeSharedChainBounded(t *testing.T) {
	read := func(v0, v1 int32) *Document {
		d, err := Read(hostile.SharedChainBYML(40, 2))
		if err != nil {
			t.Fatal(err)
		}
		last := d.Root
		for last.Items[0].Kind == Array {
			last = last.Items[0]
		}
		last.Items[0], last.Items[1] = NewInt(v0), NewInt(v1)
		return d
	}
	base := read(7, 7)
	changes, err := DiffDocumentsLimit(base, read(8, 7), 1<<20)
	if tl, ok := err.(*jsontext.TooLargeError); !ok || tl.Limit != 1<<20 || len(changes) == 0 {
		t.Fatalf("diff: %d changes, %v; want a TooLargeError of limit 1 MiB", len(changes), err)
	}
	_, _, err = MergeSettling(base, read(8, 7), read(9, 7), change.Ours.Everywhere(), 1<<20)
	if _, ok := err.(*jsontext.TooLargeError); !ok {
		t.Fatalf("conflicting merge: %v; want a TooLargeError", err)
	}
	got, conflicts, err := MergeSettling(base, read(8, 7), read(7, 9), change.NoPreference.Everywhere(), 1<<20)
	if err != nil || len(conflicts) != 0 || got == nil {
		t.Fatalf("merge: %v, %d conflicts", err, len(conflicts))
	}
	n := got.Root
	for n.Items[0].Kind == Array {
		if n.Items[0] != n.Items[1] {
			t.Fatal("the merged chain is not shared")
		}
		n = n.Items[0]
	}
	if n.Items[0].IntValue() != 8 || n.Items[1].IntValue() != 9 {
		t.Errorf("merged last array %d %d, want 8 9", n.Items[0].IntValue(), n.Items[1].IntValue())
	}
}
