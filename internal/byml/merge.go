package byml

import (
	"strconv"

	"ainbeditor/internal/change"
	"ainbeditor/internal/jsontext"
)

// Merge merges two edited versions of base, three ways: a place changed on one side only
// takes that side's value, the same change on both sides is made once, and a place changed
// differently on each side is a conflict carrying the three values (JSON form, nil where a
// side has no such place). With change.NoPreference, any conflict means no document: the
// conflicts are the answer, never a silent choice; change.Ours or change.Theirs settles every
// conflict for that side and still lists them.
//
// Hash members merge by key. Arrays are aligned on each side against base as Diff aligns
// them (a kept element, an edited one paired in order, a removed one, insertions before a
// base element); insertions by the two sides at different places combine, the same insertion
// is made once, different insertions at one place conflict, an element edited on both sides
// merges inside, and one removed on one side and edited on the other conflicts. A conflict's
// array step is the index in the merged array. The header (version, byte order) merges as a
// value does, with paths {"version"} and {"bigEndian"}.
//
// Unchanged subtrees are base's own nodes, so base.Graft(merged) on the document Read gave
// keeps the file's layout wherever the writer can (see Graft, Marshal).
func Merge(base, ours, theirs *Document, prefer change.Prefer) (*Document, []change.Conflict, error) {
	return MergeSettling(base, ours, theirs, prefer.Everywhere(), jsontext.NoLimit)
}

// MergeSettling is Merge with each conflict settled on its own (change.Settle); the document
// is nil while any conflict is left open. It stops with a *jsontext.TooLargeError once the
// conflicts' text passes about limit bytes (a conflict inside a subtree shared at many
// places is a conflict at each).
func MergeSettling(base, ours, theirs *Document, settle change.Settle, limit int) (*Document, []change.Conflict, error) {
	m := &merger{d: newDiffer(limit), Conflicts: change.Conflicts{Settle: settle}, merged: map[[3]*Node]*Node{}}
	out := &Document{Version: ours.Version, BigEndian: ours.BigEndian}
	if v, ok := change.Pick(base.Version, ours.Version, theirs.Version); ok {
		out.Version = v
	} else {
		if m.conflict(change.Path{"version"}, []byte(strconv.Itoa(int(base.Version))), []byte(strconv.Itoa(int(ours.Version))), []byte(strconv.Itoa(int(theirs.Version)))) == change.Theirs {
			out.Version = theirs.Version
		}
	}
	if v, ok := change.Pick(base.BigEndian, ours.BigEndian, theirs.BigEndian); ok {
		out.BigEndian = v
	} else {
		if m.conflict(change.Path{"bigEndian"}, strconv.AppendBool(nil, base.BigEndian), strconv.AppendBool(nil, ours.BigEndian), strconv.AppendBool(nil, theirs.BigEndian)) == change.Theirs {
			out.BigEndian = theirs.BigEndian
		}
	}
	out.Root = m.node(nil, base.Root, ours.Root, theirs.Root, 0)
	if m.d.err != nil {
		return nil, nil, m.d.err
	}
	if m.Open {
		return nil, m.List, nil
	}
	return out, m.List, nil
}

type merger struct {
	d *differ
	change.Conflicts
	// merged holds each place's merge that met no conflict, by its three nodes: a subtree
	// shared at many places merges once, and stays one shared node in the result.
	merged map[[3]*Node]*Node
}

func (m *merger) orNil(n *Node) []byte {
	if n == nil {
		return nil
	}
	return m.d.json(n)
}

// conflict records a conflict and answers how it is settled.
func (m *merger) conflict(p change.Path, b, o, t []byte) change.Prefer {
	if !m.d.charge(p, b, o, t) {
		return change.Ours // the merge has failed: the value is dropped
	}
	return m.Record(p, b, o, t)
}

// pick records a conflict and returns the preferred side (ours when there is no preference:
// the document is then dropped anyway).
func (m *merger) pick(p change.Path, b, o, t *Node) *Node {
	if m.conflict(p, m.orNil(b), m.orNil(o), m.orNil(t)) == change.Theirs {
		return t
	}
	return o
}

// node merges one place; nil is "no such place" on that side.
func (m *merger) node(p change.Path, b, o, t *Node, depth int) *Node {
	switch {
	case m.d.err != nil, m.d.equal(o, t), m.d.equal(b, t):
		return o
	case m.d.equal(b, o):
		return t
	}
	key := [3]*Node{b, o, t}
	if v, ok := m.merged[key]; ok {
		return v
	}
	before := len(m.List)
	v := m.inside(p, b, o, t, depth)
	if len(m.List) == before {
		m.merged[key] = v
	}
	return v
}

// inside merges a place changed on both sides.
func (m *merger) inside(p change.Path, b, o, t *Node, depth int) *Node {
	if b == nil || o == nil || t == nil || b.Kind != o.Kind || b.Kind != t.Kind || !b.Kind.IsContainer() ||
		b.KeepOrder || o.KeepOrder || t.KeepOrder || depth > 1024 {
		return m.pick(p, b, o, t)
	}
	if b.Kind == Array {
		return &Node{Kind: Array, Items: m.array(p, b.Items, o.Items, t.Items, depth)}
	}
	out := &Node{Kind: b.Kind}
	// Walk the three sorted entry lists together.
	i, j, k := 0, 0, 0
	for i < len(b.Entries) || j < len(o.Entries) || k < len(t.Entries) {
		var first *Entry
		for _, e := range []*Entry{at(b.Entries, i), at(o.Entries, j), at(t.Entries, k)} {
			if e != nil && (first == nil || entryBefore(b.Kind, e, first)) {
				first = e
			}
		}
		take := func(es []Entry, x *int) *Node {
			if e := at(es, *x); e != nil && !entryBefore(b.Kind, first, e) {
				*x++
				return e.Value
			}
			return nil
		}
		key := *first
		vb, vo, vt := take(b.Entries, &i), take(o.Entries, &j), take(t.Entries, &k)
		if v := m.node(p.Child(entryStep(b, &key)), vb, vo, vt, depth+1); v != nil {
			out.Entries = append(out.Entries, Entry{Key: key.Key, Hash: key.Hash, Value: v})
		}
	}
	return out
}

func at(es []Entry, i int) *Entry {
	if i < len(es) {
		return &es[i]
	}
	return nil
}

// side is one edited array seen against base: for each base element, what became of it,
// and what was inserted before it (ins[len(base)] is what was appended).
type side struct {
	now []*Node   // the element's value on this side, nil if removed
	ins [][]*Node // insertions before each base element
}

func (m *merger) align(b, x []*Node) side {
	s := side{now: make([]*Node, len(b)), ins: make([][]*Node, len(b)+1)}
	hb, hx := m.d.hashAll(b), m.d.hashAll(x)
	head := 0
	for head < len(b) && head < len(x) && hb[head] == hx[head] {
		head++
	}
	tail := 0
	for tail < len(b)-head && tail < len(x)-head && hb[len(b)-1-tail] == hx[len(x)-1-tail] {
		tail++
	}
	for q := 0; q < head; q++ {
		s.now[q] = x[q]
	}
	i, j := head, head
	gap := func(ei, ej int) {
		for ; i < ei && j < ej; i, j = i+1, j+1 {
			s.now[i] = x[j]
		}
		i = ei
		s.ins[i] = append(s.ins[i], x[j:ej]...)
		j = ej
	}
	for _, p := range myers(hb[head:len(b)-tail], hx[head:len(x)-tail], maxEditDistance) {
		gap(head+p[0], head+p[1])
		s.now[i] = x[j]
		i, j = i+1, j+1
	}
	gap(len(b)-tail, len(x)-tail)
	for ; i < len(b); i, j = i+1, j+1 {
		s.now[i] = x[j]
	}
	return s
}

func (m *merger) array(p change.Path, b, o, t []*Node, depth int) []*Node {
	so, st := m.align(b, o), m.align(b, t)
	var out []*Node
	for g := 0; g <= len(b); g++ {
		io, it := so.ins[g], st.ins[g]
		switch {
		case len(it) == 0:
			out = append(out, io...)
		case len(io) == 0 || m.d.equal(NewArray(io...), NewArray(it...)):
			out = append(out, it...)
		default:
			v := m.pick(p.Child(strconv.Itoa(len(out))), nil, NewArray(io...), NewArray(it...))
			out = append(out, v.Items...)
		}
		if g == len(b) {
			break
		}
		if v := m.node(p.Child(strconv.Itoa(len(out))), b[g], so.now[g], st.now[g], depth+1); v != nil {
			out = append(out, v)
		}
	}
	return out
}
