package ainb

import (
	"encoding/binary"
	"slices"
	"testing"
)

// queryFile has elements 0 and 1 reading queries (2 and 3; 3 and 2) and two query elements.
func queryFile(order []int) *File {
	f := tinyFile(&Layout{QueryOrder: order})
	f.Elements = []Element{{Name: "A", Queries: []int{2, 3}}, {Name: "B", Queries: []int{3}},
		{Name: "Q1", Flags: FlagQuery}, {Name: "Q2", Flags: FlagQuery}}
	return f
}

// queryBases reads each element's first query table entry from a written file.
func queryBases(b []byte, n int) []int {
	out := make([]int, n)
	at := headerSize + commandSize
	for i := range out {
		out[i] = int(binary.LittleEndian.Uint16(b[at+i*elementSize(Version407)+0x10+0x14:]))
	}
	return out
}

// Some of Nintendo's files list the elements' query ids in another order than the
// elements'. The order is read as Layout.QueryOrder and written back; an order that no longer
// names each element with queries exactly once gives way to element order.
func TestQueryOrder(t *testing.T) {
	for _, c := range []struct {
		order, wantOrder, wantBases []int
	}{
		{nil, nil, []int{0, 2, 0, 0}},
		{[]int{1, 0}, []int{1, 0}, []int{1, 0, 0, 0}},
		{[]int{1}, nil, []int{0, 2, 0, 0}},          // element 0 left out
		{[]int{1, 0, 2}, nil, []int{0, 2, 0, 0}},    // element 2 reads no query
		{[]int{1, 1, 0}, nil, []int{0, 2, 0, 0}},    // named twice
		{[]int{0, 1}, nil, []int{0, 2, 0, 0}},       // element order: nothing to record
		{[]int{1, 0, -1}, nil, []int{0, 2, 0, 0}},   // no such element
		{[]int{1, 0, 9000}, nil, []int{0, 2, 0, 0}}, // no such element
	} {
		b, err := queryFile(c.order).Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if got := queryBases(b, 4); !slices.Equal(got, c.wantBases) {
			t.Errorf("order %v: bases %v, want %v", c.order, got, c.wantBases)
		}
		g, err := Read(b)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(g.Layout.QueryOrder, c.wantOrder) {
			t.Errorf("order %v: read back %v, want %v", c.order, g.Layout.QueryOrder, c.wantOrder)
		}
		if !slices.Equal(g.Elements[0].Queries, []int{2, 3}) || !slices.Equal(g.Elements[1].Queries, []int{3}) {
			t.Errorf("order %v: queries %v %v", c.order, g.Elements[0].Queries, g.Elements[1].Queries)
		}
		again, err := g.Bytes()
		if err != nil || string(again) != string(b) {
			t.Errorf("order %v: the file read back does not write the same bytes (%v)", c.order, err)
		}
	}
}
