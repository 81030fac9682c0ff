package graph

import (
	"os"
	"path/filepath"
	"sort"
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

func TestLayoutLarge(t *testing.T) {
	d, err := Parse("n", readCorpus(t, "real/nodedefs_ai_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	checkNoOverlap(t, boxes(d))
}

func TestLayoutCorpus(t *testing.T) {
	for _, path := range testcorpus.AINB(t) {
		if filepath.Base(path) == "nodedefs_ai_v407.ainb" {
			continue // checked by TestLayoutLarge
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Parse(filepath.Base(path), b)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		checkNoOverlap(t, boxes(d))
		again, _ := Parse(filepath.Base(path), b)
		for i := range d.Nodes {
			if d.Nodes[i].X != again.Nodes[i].X || d.Nodes[i].Y != again.Nodes[i].Y {
				t.Fatalf("%s: layout is not deterministic at node %d", path, i)
			}
		}
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
	Layout(d)
	h := HeaderHeight + FooterHeight
	col := NodeWidth + gapX
	want := []box{
		{0, 0, 0, h + 2*RowHeight}, {col, 0, 0, h + RowHeight}, {col, h + RowHeight + gapY, 0, h + 2*RowHeight}, {2 * col, 0, 0, h},
		{}, {}, {},
	}
	tree1 := want[2].y + want[2].h
	want[4] = box{0, tree1 + gapTrees, 0, h}
	want[5] = box{col, tree1 + gapTrees, 0, h}
	want[6] = box{0, want[4].y + h + gapTrees, 0, h}
	got := boxes(d)
	for i := range want {
		want[i].w = NodeWidth
		if got[i] != want[i] {
			t.Errorf("node %d at %+v, want %+v", i, got[i], want[i])
		}
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
