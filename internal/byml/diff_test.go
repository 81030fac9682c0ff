package byml

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"ainbeditor/internal/change"
	"ainbeditor/internal/testcorpus"
)

func changeLines(cs []change.Change) []string {
	var s []string
	for _, c := range cs {
		s = append(s, string(c.AppendText(nil)))
	}
	return s
}

func TestDiffSmall(t *testing.T) {
	h := func(kv ...any) *Node {
		n := NewHash()
		for i := 0; i < len(kv); i += 2 {
			n.Set(kv[i].(string), kv[i+1].(*Node))
		}
		return n
	}
	a := h("a", NewInt(1), "b", NewArray(NewString("x"), NewString("y"), NewString("z")), "c", NewBool(true))
	b := h("a", NewFloat(1), "b", NewArray(NewString("x"), NewString("new"), NewString("y"), NewString("z")), "d", NewNull())
	got := changeLines(Diff(a, b))
	want := []string{
		`~ a: {"type":"int","value":1} -> {"type":"float","value":1}`,
		`+ b/1: {"type":"string","value":"new"}`,
		`- c: {"type":"bool","value":true}`,
		`+ d: {"type":"null"}`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Diff =\n%q\nwant\n%q", got, want)
	}
	if d := Diff(a, a.Clone()); len(d) != 0 {
		t.Fatalf("Diff with itself = %q", changeLines(d))
	}
	// Removed names the index in the old array; an edited element is diffed inside.
	x := NewArray(h("n", NewInt(1)), h("n", NewInt(2)), h("n", NewInt(3)))
	y := NewArray(h("n", NewInt(1)), h("n", NewInt(5)))
	got = changeLines(Diff(x, y))
	want = []string{`~ 1/n: {"type":"int","value":2} -> {"type":"int","value":5}`, `- 2: {"type":"hash","value":[["n",{"type":"int","value":3}]]}`}
	if !slices.Equal(got, want) {
		t.Fatalf("Diff =\n%q\nwant\n%q", got, want)
	}
	docA, docB := &Document{Version: 2, Root: a}, &Document{Version: 7, BigEndian: true, Root: a}
	got = changeLines(DiffDocuments(docA, docB))
	want = []string{`~ version: 2 -> 7`, `~ bigEndian: false -> true`}
	if !slices.Equal(got, want) {
		t.Fatalf("DiffDocuments = %q, want %q", got, want)
	}
}

func readActorInfo(tb testing.TB) *Document {
	data, err := os.ReadFile(filepath.Join(testcorpus.Dir(tb), "byml", "ActorInfo.product.byml"))
	if err != nil {
		tb.Skip(err)
	}
	doc, err := Read(data)
	if err != nil {
		tb.Fatal(err)
	}
	return doc
}

// leaf is one scalar under a hash key, reached only through nodes used once.
type leaf struct {
	parent *Node
	key    string
	path   change.Path
}

func unsharedLeaves(root *Node) (leaves []leaf, arrays []leaf) {
	u := uses(root)
	var walk func(n *Node, p change.Path)
	walk = func(n *Node, p change.Path) {
		if n == nil || u[n] > 1 {
			return
		}
		switch n.Kind {
		case Hash:
			if n.KeepOrder {
				return
			}
			for _, e := range n.Entries {
				if !e.Value.Kind.IsContainer() && !e.Value.Kind.outOfLine() {
					leaves = append(leaves, leaf{n, e.Key, p.Child(e.Key)})
				} else {
					walk(e.Value, p.Child(e.Key))
				}
			}
		case Array:
			arrays = append(arrays, leaf{n, "", p})
			for i, it := range n.Items {
				walk(it, p.Child(strconv.Itoa(i)))
			}
		}
	}
	walk(root, nil)
	return
}

// TestDiffRandomEdits changes random scalars of the corpus's largest BYML, each edit
// recording its change, and checks that Diff lists exactly those.
func TestDiffRandomEdits(t *testing.T) {
	base := readActorInfo(t)
	for seed := int64(1); seed <= 5; seed++ {
		edited := base.Root.Clone()
		leaves, _ := unsharedLeaves(edited)
		r := rand.New(rand.NewSource(seed))
		var want []change.Change
		for _, k := range r.Perm(len(leaves))[:50] {
			l := leaves[k]
			old := l.parent.Get(l.key)
			var nv *Node
			if r.Intn(2) == 0 {
				nv = NewString(fmt.Sprintf("edit %d", k)) // may change the type
			} else {
				nv = NewInt64(int64(k) + 1<<40)
			}
			l.parent.Set(l.key, nv)
			want = append(want, change.Change{Op: change.Changed, Path: l.path, Old: nodeJSON(old), New: nodeJSON(nv)})
		}
		slices.SortFunc(want, func(a, b change.Change) int { return slices.Compare(a.Path, b.Path) })
		got := Diff(base.Root, edited)
		slices.SortFunc(got, func(a, b change.Change) int { return slices.Compare(a.Path, b.Path) })
		if !slices.Equal(changeLines(got), changeLines(want)) {
			t.Fatalf("seed %d: Diff =\n%q\nwant\n%q", seed, changeLines(got), changeLines(want))
		}
	}
}

// TestDiffInsertIsOneChange inserts and removes one element of each of several arrays of the
// corpus file: one change each, not a shift of the later elements.
func TestDiffInsertIsOneChange(t *testing.T) {
	base := readActorInfo(t)
	edited := base.Root.Clone()
	_, arrays := unsharedLeaves(edited)
	r := rand.New(rand.NewSource(7))
	var want []string
	for n, k := range r.Perm(len(arrays))[:5] {
		a := arrays[k]
		if len(a.parent.Items) == 0 {
			continue
		}
		pos := r.Intn(len(a.parent.Items) + 1)
		v := NewString(fmt.Sprintf("inserted %d", n))
		a.parent.Items = slices.Insert(a.parent.Items, pos, v)
		want = append(want, string(change.Change{Op: change.Added, Path: a.path.Child(strconv.Itoa(pos)), New: nodeJSON(v)}.AppendText(nil)))
	}
	// (With this seed no chosen array holds another, so no insertion shifts another's path.)
	got := changeLines(Diff(base.Root, edited))
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("Diff =\n%q\nwant\n%q", got, want)
	}
}

// TestDiffHugeArray diffs two 1e6-element arrays differing at scattered places: the
// alignment gives up past maxEditDistance and pairs by position, so memory stays bounded
// (see BenchmarkDiffHugeArray for the figure).
func TestDiffHugeArray(t *testing.T) {
	a, b := hugeArrays(1_000_000)
	got := Diff(a, b)
	if len(got) != 5000 {
		t.Fatalf("Diff gave %d changes, want 5000", len(got))
	}
	if c := got[0]; c.Op != change.Changed || c.Path.String() != "0" {
		t.Fatalf("first change = %s", c.AppendText(nil))
	}
}

func hugeArrays(n int) (*Node, *Node) {
	a, b := &Node{Kind: Array, Items: make([]*Node, n)}, &Node{Kind: Array, Items: make([]*Node, n)}
	for i := range a.Items {
		a.Items[i] = NewInt(int32(i))
		b.Items[i] = a.Items[i]
		if i%200 == 0 {
			b.Items[i] = NewInt(-int32(i) - 1)
		}
	}
	return a, b
}

func TestDiffDeep(t *testing.T) {
	a, b := NewInt(1), NewInt(2)
	for i := 0; i < 5000; i++ {
		a, b = NewArray(a), NewArray(b)
	}
	got := Diff(a, b)
	if len(got) != 1 || len(got[0].Path) != 1025 {
		t.Fatalf("Diff of deep trees: %d changes, path length %d", len(got), len(got[0].Path))
	}
}

func BenchmarkDiffActorInfo(b *testing.B) {
	base := readActorInfo(b)
	edited := base.Root.Clone()
	leaves, _ := unsharedLeaves(edited)
	for i := 0; i < len(leaves); i += 97 {
		leaves[i].parent.Set(leaves[i].key, NewString("edited"))
	}
	b.ReportAllocs()
	for b.Loop() {
		Diff(base.Root, edited)
	}
}

func BenchmarkDiffHugeArray(b *testing.B) {
	x, y := hugeArrays(1_000_000)
	b.ReportAllocs()
	for b.Loop() {
		Diff(x, y)
	}
}
