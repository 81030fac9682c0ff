package graph

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/testcorpus"
)

func overlaps(a, b Position) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}

// checkNoOverlap sweeps the boxes in order of their left edge.
func checkNoOverlap(t *testing.T, ps []Position) {
	t.Helper()
	idx := make([]int, len(ps))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return ps[idx[a]].X < ps[idx[b]].X })
	for a := range idx {
		for b := a + 1; b < len(idx) && ps[idx[b]].X < ps[idx[a]].X+ps[idx[a]].W; b++ {
			if overlaps(ps[idx[a]], ps[idx[b]]) {
				t.Fatalf("nodes %d %+v and %d %+v overlap", idx[a], ps[idx[a]], idx[b], ps[idx[b]])
			}
		}
	}
}

func TestLayoutLarge(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "ainb", "real", "nodedefs_ai_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Parse("n", b)
	if err != nil {
		t.Fatal(err)
	}
	checkNoOverlap(t, d.Positions)
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
		checkNoOverlap(t, d.Positions)
		again, _ := Parse(filepath.Base(path), b)
		for i := range d.Positions {
			if d.Positions[i] != again.Positions[i] {
				t.Fatalf("%s: layout is not deterministic at node %d", path, i)
			}
		}
	}
}

func TestLayoutTree(t *testing.T) {
	// 0 -> 1, 2; 1 -> 3; 2 -> 3 (shared) and 2 -> 0 (cycle); 4 reads query 5; 6 unreachable.
	f := &ainb.File{Version: ainb.Version407, Category: "AI"}
	f.Elements = make([]ainb.Element, 7)
	child := func(from int, to ...int) {
		for _, t := range to {
			f.Elements[from].Plugs[ainb.PlugChild] = append(f.Elements[from].Plugs[ainb.PlugChild], ainb.Plug{Node: int32(t)})
		}
	}
	child(0, 1, 2)
	child(1, 3)
	child(2, 3, 0)
	f.Elements[5].Flags = ainb.FlagQuery
	f.Elements[4].Queries = []int{5}
	f.Commands = []ainb.Command{{Root: 0, Secondary: -1}, {Root: 4, Secondary: -1}}
	d, err := FromFile("t", f)
	if err != nil {
		t.Fatal(err)
	}
	p := d.Positions
	h := HeaderHeight + FooterHeight
	col := NodeWidth + gapX
	want := []Position{
		{X: 0, Y: 0}, {X: col, Y: 0}, {X: col, Y: h + RowHeight + gapY}, {X: 2 * col, Y: 0},
		{}, {}, {},
	}
	// Node 0 has two child rows, 1 and 2 one each.
	want[0].H, want[1].H, want[2].H, want[3].H = h+2*RowHeight, h+RowHeight, h+2*RowHeight, h
	tree1 := want[2].Y + want[2].H
	want[4] = Position{X: 0, Y: tree1 + gapTrees, H: h}
	want[5] = Position{X: col, Y: tree1 + gapTrees, H: h}
	want[6] = Position{X: 0, Y: want[4].Y + h + gapTrees, H: h}
	for i := range want {
		want[i].W = NodeWidth
		if p[i] != want[i] {
			t.Errorf("node %d at %+v, want %+v", i, p[i], want[i])
		}
	}
}

func TestPinnedPositionsStay(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "ainb", "synthetic", "kitchen_sink_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := Parse("k", b)
	if err != nil {
		t.Fatal(err)
	}
	d.Positions[3] = Position{X: -5000, Y: 77, Pinned: true}
	Layout(d)
	if d.Positions[3].X != -5000 || d.Positions[3].Y != 77 || !d.Positions[3].Pinned {
		t.Fatalf("pinned position moved: %+v", d.Positions[3])
	}
}

// A document survives JSON and builds the bytes it was parsed from.
func TestDocumentRoundTrip(t *testing.T) {
	for _, path := range testcorpus.AINB(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Parse(filepath.Base(path), b)
		if err != nil {
			t.Fatal(err)
		}
		js, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		d2, err := Decode(js)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out, err := d2.Build()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !bytes.Equal(out, b) {
			t.Fatalf("%s: document did not build the original bytes", filepath.Base(path))
		}
	}
}

func BenchmarkLayout(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(testcorpus.Dir(b), "ainb", "real", "nodedefs_ai_v407.ainb"))
	if err != nil {
		b.Fatal(err)
	}
	d, err := Parse("n", data)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		d.Positions = nil
		Layout(d)
	}
}
