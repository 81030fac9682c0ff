package byml

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
)

// canonicalLayout computes where BytesCanonical puts everything (see there for the rules).
func canonicalLayout(root *Node) (*layout, error) {
	c := &canon{
		class: map[*Node]int32{},
		ids:   map[string]int32{},
		keys:  map[string]struct{}{},
		strs:  map[string]struct{}{},
	}
	if root != nil {
		c.classify(root)
	}
	l := &layout{at: make(map[*Node]uint32, len(c.class))}
	off := uint64(headerSize)
	var tables [2]*table
	for i, set := range []map[string]struct{}{c.keys, c.strs} {
		if len(set) == 0 {
			continue
		}
		if len(set) > 0xFFFFFF {
			return nil, fmt.Errorf("byml: %d distinct strings, a table holds at most %d", len(set), 0xFFFFFF)
		}
		t := &table{off: uint32(off), strs: make([]string, 0, len(set))}
		for s := range set {
			t.strs = append(t.strs, s)
		}
		slices.Sort(t.strs)
		t.rel = make([]uint32, len(t.strs)+1)
		r := uint64(4 + 4*(len(t.strs)+1))
		for j, s := range t.strs {
			t.rel[j] = uint32(r)
			r += uint64(len(s)) + 1
		}
		if off+r > math.MaxUint32 {
			return nil, errTooBig
		}
		t.rel[len(t.strs)] = uint32(r)
		t.buildIndex()
		tables[i] = t
		off = alignUp(off+r, 4)
	}
	l.keys, l.strs = tables[0], tables[1]
	if l.keys != nil {
		l.keyOff = l.keys.off
	}
	if l.strs != nil {
		l.strOff = l.strs.off
	}
	if root == nil {
		l.size = uint32(off)
		return l, nil
	}
	big, conts := c.order(root)
	classOff := make([]uint32, len(c.reps))
	place := func(id int32) error {
		n := c.reps[id]
		if n.Kind == File && n.Align > 1 {
			off = alignUp(off+8, uint64(n.Align)) - 8
		}
		if off+uint64(size(n)) > math.MaxUint32 {
			return errTooBig
		}
		classOff[id] = uint32(off)
		l.slots = append(l.slots, slot{node: n, off: uint32(off), size: size(n)})
		off += uint64(size(n))
		return nil
	}
	for _, id := range big {
		if err := place(id); err != nil {
			return nil, err
		}
	}
	for _, id := range conts {
		off = alignUp(off, 4)
		if err := place(id); err != nil {
			return nil, err
		}
	}
	for n, id := range c.class {
		l.at[n] = classOff[id]
	}
	l.rootOff = classOff[c.class[root]]
	l.size = uint32(off)
	l.reached = len(l.slots)
	return l, nil
}

var errTooBig = fmt.Errorf("byml: document does not fit 32-bit offsets")

func alignUp(v, a uint64) uint64 { return (v + a - 1) &^ (a - 1) }

// canon groups the out-of-line nodes of a tree into classes written once each: equal
// containers share a class, every big value has its own. A container's identity is its kind
// and entries, naming its children's classes, so equal subtrees are found without comparing
// them twice.
type canon struct {
	class map[*Node]int32  // class of every out-of-line node
	ids   map[string]int32 // identity → class
	reps  []*Node          // first node of each class
	keys  map[string]struct{}
	strs  map[string]struct{}
	buf   []byte
}

func (c *canon) classify(n *Node) int32 {
	if id, ok := c.class[n]; ok {
		return id
	}
	if !n.Kind.IsContainer() {
		// Big values are never shared: Nintendo's writer gives every use its own copy
		// (A-4_Static.bcett.byml repeats equal u64 values while it shares equal containers).
		id := int32(len(c.reps))
		c.reps = append(c.reps, n)
		c.class[n] = id
		return id
	}
	// Children first: their classes go into this node's identity, and classifying them
	// reuses c.buf.
	for _, it := range n.Items {
		if it.Kind.outOfLine() {
			c.classify(it)
		}
	}
	for _, e := range n.Entries {
		if e.Value.Kind.outOfLine() {
			c.classify(e.Value)
		}
	}
	ident := append(c.buf[:0], byte(n.Kind))
	child := func(v *Node) {
		ident = append(ident, byte(v.Kind))
		switch {
		case v.Kind == String:
			c.strs[v.Str] = struct{}{}
			ident = binary.LittleEndian.AppendUint32(ident, uint32(len(v.Str)))
			ident = append(ident, v.Str...)
		case v.Kind.outOfLine():
			ident = binary.LittleEndian.AppendUint32(ident, uint32(c.class[v]))
		default:
			ident = binary.LittleEndian.AppendUint32(ident, uint32(v.Bits))
		}
	}
	for _, it := range n.Items {
		child(it)
	}
	for _, e := range n.Entries {
		if n.Kind == Hash {
			c.keys[e.Key] = struct{}{}
			ident = binary.LittleEndian.AppendUint32(ident, uint32(len(e.Key)))
			ident = append(ident, e.Key...)
		} else {
			ident = binary.LittleEndian.AppendUint64(ident, e.Hash)
		}
		child(e.Value)
	}
	c.buf = ident
	id, ok := c.ids[string(ident)]
	if !ok {
		id = int32(len(c.reps))
		c.ids[string(ident)] = id
		c.reps = append(c.reps, n)
	}
	c.class[n] = id
	return id
}

// order lists the classes depth-first from the root in entry order, big values and
// containers apart, each by first use.
func (c *canon) order(root *Node) (big, conts []int32) {
	placed := make([]bool, len(c.reps))
	var rec func(n *Node)
	rec = func(n *Node) {
		visit := func(v *Node) {
			if !v.Kind.outOfLine() {
				return
			}
			id := c.class[v]
			if placed[id] {
				return
			}
			placed[id] = true
			if v.Kind.IsContainer() {
				conts = append(conts, id)
				rec(v)
			} else {
				big = append(big, id)
			}
		}
		for _, it := range n.Items {
			visit(it)
		}
		for _, e := range n.Entries {
			visit(e.Value)
		}
	}
	id := c.class[root]
	placed[id] = true
	conts = append(conts, id)
	rec(root)
	return big, conts
}
