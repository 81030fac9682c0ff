package graph

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/testcorpus"
)

type box struct{ x, y, w, h float64 }

func boxes(d *Document) []box {
	out := make([]box, len(d.Nodes))
	for i := range d.Nodes {
		out[i] = box{d.Nodes[i].X, d.Nodes[i].Y, NodeWidth, NodeHeight(&d.Nodes[i])}
	}
	return out
}

func overlaps(a, b box) bool {
	return a.x < b.x+b.w && b.x < a.x+a.w && a.y < b.y+b.h && b.y < a.y+a.h
}

// checkNoOverlap sweeps the boxes in order of their left edge.
func checkNoOverlap(t *testing.T, ps []box) {
	t.Helper()
	idx := make([]int, len(ps))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return ps[idx[a]].x < ps[idx[b]].x })
	for a := range idx {
		for b := a + 1; b < len(idx) && ps[idx[b]].x < ps[idx[a]].x+ps[idx[a]].w; b++ {
			if overlaps(ps[idx[a]], ps[idx[b]]) {
				t.Fatalf("nodes %d %+v and %d %+v overlap", idx[a], ps[idx[a]], idx[b], ps[idx[b]])
			}
		}
	}
}

func readCorpus(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(testcorpus.Dir(tb), "ainb", name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// The 7,130-node file has one command whose root has no links: every other node is a tree
// of one. Stacked in columns for the default aspect they make a near-screen-shaped block,
// not the strip of 8 columns and 104,520 units the rows layout made.
func TestLayoutLarge(t *testing.T) {
	d, err := Parse("n", readCorpus(t, "real/nodedefs_ai_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	checkNoOverlap(t, boxes(d))
	f := measureLayout(d)
	// (Headers of titles over TitleFirst characters are taller: 23040 x 14424 before they were.)
	if f.w != 24400 || f.h != 15162 {
		t.Errorf("arrangement %v x %v, want 24400 x 15162 (aspect %.3f)", f.w, f.h, f.w/f.h)
	}
	if a := f.w / f.h; math.Abs(a/DefaultAspect-1) > 0.01 {
		t.Errorf("aspect %.3f, want within 1%% of %v", a, DefaultAspect)
	}
	// A tall screen gets a tall arrangement.
	LayoutAspect(d, 0.5)
	checkNoOverlap(t, boxes(d))
	f = measureLayout(d)
	if a := f.w / f.h; math.Abs(a/0.5-1) > 0.02 {
		t.Errorf("aspect %.3f (%v x %v) for a screen of 0.5, want within 2%%", a, f.w, f.h)
	}
}

// Over the corpus: no overlaps, the same layout twice, and the reads (a query, or the node
// an input takes its value from, to its reader) that run left to right, counted. A read
// cannot run left to right when its node was placed first as something else's child or
// source (a shared query, a sibling's output, a cycle); these counts say how often that is.
func TestLayoutCorpus(t *testing.T) {
	reads, left := 0, 0
	eachCorpusDocument(t, func(name string, d *Document, b []byte) {
		checkNoOverlap(t, boxes(d))
		again, _ := Parse(name, b)
		for i := range d.Nodes {
			if d.Nodes[i].X != again.Nodes[i].X || d.Nodes[i].Y != again.Nodes[i].Y {
				t.Fatalf("%s: layout is not deterministic at node %d", name, i)
			}
		}
		f := measureLayout(d)
		reads, left = reads+f.reads, left+f.readsLeft
		if name == "builtin_elements_v407.ainb" && (f.reads != 16 || f.readsLeft != 14) {
			t.Errorf("%s: %d of %d reads left of their readers, want 14 of 16", name, f.readsLeft, f.reads)
		}
	})
	if reads != 14666 || left != 11152 {
		t.Errorf("%d of %d reads run left to right, want 11152 of 14666", left, reads)
	}
}

func TestLayoutTree(t *testing.T) {
	// 0 -> 1, 2; 1 -> 3; 2 -> 3 (shared) and 2 -> 0 (cycle); 4 reads query 5; 6 unreachable.
	// Ids are not indices: node i has id 100+i.
	d := &Document{Format: Format, Version: ainb.Version407, Category: "AI"}
	d.Nodes = make([]Node, 7)
	for i := range d.Nodes {
		d.Nodes[i] = Node{ID: 100 + i, Type: "UserDefined"}
	}
	child := func(from int, to ...int) {
		for _, t := range to {
			d.Nodes[from].Children = append(d.Nodes[from].Children, Child{Node: 100 + t})
		}
	}
	child(0, 1, 2)
	child(1, 3)
	child(2, 3, 0)
	d.Nodes[5].Query = true
	d.Nodes[4].Queries = []int{105}
	d.Commands = []Command{{Root: 100, Secondary: -1}, {Root: 104, Secondary: -1}}
	// A very wide screen puts the three trees side by side, tops aligned.
	LayoutAspect(d, 100)
	h := HeaderHeight + FooterHeight
	col := NodeWidth + gapX
	tree0 := 3*NodeWidth + 2*gapX
	tree4 := 2*NodeWidth + gapX
	want := []box{
		{0, 0, 0, h + 2*RowHeight}, {col, 0, 0, h + RowHeight}, {col, h + RowHeight + gapY, 0, h + 2*RowHeight}, {2 * col, 0, 0, h},
		{tree0 + gapTrees + col, 0, 0, h}, {tree0 + gapTrees, 0, 0, h}, {tree0 + gapTrees + tree4 + gapTrees, 0, 0, h},
	}
	got := boxes(d)
	for i := range want {
		want[i].w = NodeWidth
		if got[i] != want[i] {
			t.Errorf("node %d at %+v, want %+v", i, got[i], want[i])
		}
	}
	// A very tall one stacks them in one column.
	LayoutAspect(d, 0.01)
	got = boxes(d)
	tall0 := want[2].y + want[2].h
	if got[5] != (box{0, tall0 + gapTrees, NodeWidth, h}) || got[4] != (box{col, tall0 + gapTrees, NodeWidth, h}) || got[6] != (box{0, tall0 + 2*gapTrees + h, NodeWidth, h}) {
		t.Errorf("stacked: nodes 4, 5, 6 at %+v %+v %+v", got[4], got[5], got[6])
	}
}

func TestPinnedPositionsStay(t *testing.T) {
	d, err := Parse("k", readCorpus(t, "synthetic/kitchen_sink_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	d.Nodes[3].X, d.Nodes[3].Y, d.Nodes[3].Pinned = -5000, 77, true
	Layout(d)
	if n := d.Nodes[3]; n.X != -5000 || n.Y != 77 || !n.Pinned {
		t.Fatalf("pinned position moved: %v %v %v", n.X, n.Y, n.Pinned)
	}
}

// Pinned nodes dropped on top of automatic ones and of each other: after a layout nothing
// overlaps, the first of two overlapping pinned nodes has not moved, and the second only
// moved down.
func TestLayoutAroundPins(t *testing.T) {
	for _, name := range []string{"synthetic/kitchen_sink_v407.ainb", "random/random_s28_v404_n400.ainb", "real/nodedefs_ai_v407.ainb"} {
		d, err := Parse("k", readCorpus(t, name))
		if err != nil {
			t.Fatal(err)
		}
		// Every 7th node pinned where node 0, 1, 2, ... of the layout are, plus a small step,
		// so pins overlap automatic nodes and each other.
		type pin struct {
			i    int
			x, y float64
		}
		var pins []pin
		for k, i := 0, 0; i < len(d.Nodes); k, i = k+1, i+7 {
			q := &d.Nodes[k%len(d.Nodes)]
			d.Nodes[i].X, d.Nodes[i].Y, d.Nodes[i].Pinned = q.X+float64(k%3)*10, q.Y+float64(k%5)*7, true
			pins = append(pins, pin{i, d.Nodes[i].X, d.Nodes[i].Y})
		}
		Layout(d)
		checkNoOverlap(t, boxes(d))
		for k, p := range pins {
			n := d.Nodes[p.i]
			if !n.Pinned || n.X != p.x || n.Y < p.y || (k == 0 && n.Y != p.y) {
				t.Fatalf("%s: pinned node %d at (%v, %v) pinned=%v, was (%v, %v)", name, p.i, n.X, n.Y, n.Pinned, p.x, p.y)
			}
		}
	}
}

func BenchmarkLayout(b *testing.B) {
	d, err := Parse("n", readCorpus(b, "real/nodedefs_ai_v407.ainb"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Layout(d)
	}
}

// layoutFigures are what a test measures of a layout: the size of the whole arrangement and
// how many reads (a query or an input's source node, to its reader) run left to right.
type layoutFigures struct {
	w, h             float64
	reads, readsLeft int
}

func measureLayout(d *Document) layoutFigures {
	var f layoutFigures
	if len(d.Nodes) == 0 {
		return f
	}
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	index := nodeIndex(d)
	for i := range d.Nodes {
		n := &d.Nodes[i]
		x0, y0 = min(x0, n.X), min(y0, n.Y)
		x1, y1 = max(x1, n.X+NodeWidth), max(y1, n.Y+NodeHeight(n))
	}
	f.w, f.h = x1-x0, y1-y0
	l := &layouter{d: d, index: index}
	for i := range d.Nodes {
		l.refs(i, func(j int, src bool) {
			if !src || j == i {
				return
			}
			f.reads++
			if d.Nodes[j].X+NodeWidth <= d.Nodes[i].X {
				f.readsLeft++
			}
		})
	}
	return f
}

// Every node of the big file pinned at one place (as a file whose positions are all zero
// would be): they end up in one column, each just below the one before, in document order,
// and the work stays linear (before, each node climbed down the whole pile).
func TestLayoutPinnedPile(t *testing.T) {
	d, err := Parse("n", readCorpus(t, "real/nodedefs_ai_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.Nodes {
		d.Nodes[i].X, d.Nodes[i].Y, d.Nodes[i].Pinned = 0, 0, true
	}
	Layout(d)
	y := 0.0
	for i := range d.Nodes {
		if n := &d.Nodes[i]; n.X != 0 || n.Y != y || !n.Pinned {
			t.Fatalf("node %d at (%v, %v) pinned=%v, want (0, %v) pinned", i, n.X, n.Y, n.Pinned, y)
		}
		y += NodeHeight(&d.Nodes[i]) + gapY
	}
}

// A title gets one header line up to TitleFirst characters, then one more per TitleMore, at
// most MaxTitleLines; characters are counted, not bytes, and the header grows by TitleLine a
// line.
func TestTitleLines(t *testing.T) {
	for chars, want := range map[int]int{0: 1, 1: 1, 24: 1, 25: 2, 54: 2, 55: 3, 84: 3, 85: 3, 500: 3} {
		if got := TitleLines(chars); got != want {
			t.Errorf("TitleLines(%d) = %d, want %d", chars, got, want)
		}
	}
	for _, c := range []struct {
		n    Node
		want float64
	}{
		{Node{Type: "Sequential"}, HeaderHeight},
		{Node{Type: "UserDefined"}, HeaderHeight},
		{Node{Type: "UserDefined", Name: strings.Repeat("x", 24)}, HeaderHeight},
		{Node{Type: "UserDefined", Name: strings.Repeat("x", 25)}, HeaderHeight + TitleLine},
		// 24 characters of 3 bytes each: one line.
		{Node{Type: "UserDefined", Name: strings.Repeat("ド", 24)}, HeaderHeight},
		// 30 bytes, 18 characters: one line; 32 characters with a quote and a backslash: two.
		{Node{Type: "UserDefined", Name: strings.Repeat("ド", 6) + strings.Repeat("x", 12)}, HeaderHeight},
		{Node{Type: "UserDefined", Name: strings.Repeat("x", 20) + `"\` + strings.Repeat("y", 10)}, HeaderHeight + TitleLine},
		{Node{Type: "UserDefined", Name: "ActorCommon.RequestCameraShakeWithASControllerRumbleEvent.module"}, HeaderHeight + 2*TitleLine},
		// A built-in type's node shows its type, whatever its name.
		{Node{Type: "Sequential", Name: strings.Repeat("x", 60)}, HeaderHeight},
	} {
		if got := HeaderHeightOf(&c.n); got != c.want {
			t.Errorf("%s %q: header %v, want %v", c.n.Type, c.n.Name, got, c.want)
		}
		if got := NodeHeight(&c.n); got != c.want+FooterHeight {
			t.Errorf("%s %q: node %v, want %v", c.n.Type, c.n.Name, got, c.want+FooterHeight)
		}
	}
}

// The column index sizes columns exactly as columnSize does, for every height: trees of the
// corpus files and of random whole sizes, heights at, just above and just below each tree's
// bottom and in between; sizes that are not whole numbers are left to columnSize.
func TestColumnIndex(t *testing.T) {
	var lists [][][2]float64
	for _, name := range []string{"real/nodedefs_ai_v407.ainb", "random/random_s29_v407_n369.ainb", "synthetic/kitchen_sink_v407.ainb"} {
		d, err := Parse("n", readCorpus(t, name))
		if err != nil {
			t.Fatal(err)
		}
		l := newLayouter(d, new(layoutScratch))
		l.measure()
		lists = append(lists, l.treeSizes())
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		sizes := make([][2]float64, 1+r.IntN(300))
		for k := range sizes {
			sizes[k] = [2]float64{float64(260 + r.IntN(2000)), float64(30 + r.IntN(3000))}
		}
		lists = append(lists, sizes)
	}
	var buf []float64
	for i, sizes := range lists {
		ix, ok := newColumnIndex(sizes, &buf)
		if !ok {
			t.Fatalf("list %d: not indexed", i)
		}
		total := 0.0
		var hts []float64
		for _, s := range sizes {
			total += s[1]
			hts = append(hts, total, total-0.5, total+0.5, total-1, total+gapTrees)
			total += gapTrees
		}
		for k := range 200 {
			hts = append(hts, total*float64(k)/200, r.Float64()*total)
		}
		// Every span of trees, within a run of widestRun, across two and across many.
		if len(sizes) <= 300 {
			for s := range len(sizes) {
				want := 0.0
				for e := s + 1; e <= len(sizes); e++ {
					want = max(want, sizes[e-1][0])
					if got := ix.widestIn(s, e); got != want {
						t.Fatalf("list %d: widest of trees %d to %d is %v, want %v", i, s, e-1, got, want)
					}
				}
			}
		}
		for _, ht := range hts {
			w, h := ix.size(ht)
			if w0, h0 := columnSize(sizes, ht); w != w0 || h != h0 {
				t.Fatalf("list %d, height %v: %v x %v, want %v x %v", i, ht, w, h, w0, h0)
			}
		}
	}
	if _, ok := newColumnIndex([][2]float64{{260, 30.5}}, &buf); ok {
		t.Error("a height of 30.5 indexed")
	}
	if _, ok := newColumnIndex([][2]float64{{260, 1 << 51}}, &buf); ok {
		t.Error("a height of 2^51 indexed")
	}
}

// ascii finds a byte of 0x80 or more at every place in strings of every length up to 40.
func TestASCII(t *testing.T) {
	for n := range 41 {
		s := []byte(strings.Repeat("a\x7f\x00~", 11)[:n])
		if !ascii(string(s)) {
			t.Fatalf("%q: not ASCII", s)
		}
		for i := range n {
			c := s[i]
			s[i] = 0x80
			if ascii(string(s)) {
				t.Fatalf("%q: ASCII", s)
			}
			s[i] = c
		}
	}
}
