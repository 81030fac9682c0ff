package byml

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
)

// FormatError reports malformed input: what was being read and at which file offset.
type FormatError struct {
	What   string
	Offset int64
	Msg    string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("byml: %s at 0x%x: %s", e.What, e.Offset, e.Msg)
}

const (
	headerSize = 0x10
	// maxDepth bounds container nesting. Real files nest fewer than 20 levels; the bound
	// keeps a hostile chain of distinct containers from recursing once per 8 input bytes.
	maxDepth = 1024
)

// Document is a whole BYML file: the root node (nil for an empty document, whose root offset
// is 0), the version and the byte order, and, for a document that came from Read, the
// recorded layout that lets Bytes reproduce the file byte for byte.
type Document struct {
	Version   uint16
	BigEndian bool
	Root      *Node

	layout *layout
}

// decoder reads one file.
type decoder struct {
	b     []byte
	order binary.ByteOrder
	be    bool
	keys  *table
	strs  *table
	// keysAscending is set when the key table is in order (table.ascending): then a hash's
	// keys are in order exactly when their indices are, and comparing indices costs less
	// than comparing the strings (6 % of the instructions of Read).
	keysAscending bool
	// seen says what was read at each offset: a second reference to an offset gets the
	// same *Node, which is how the model records sharing and why shared subtrees cost no
	// extra work. For each 4-aligned offset it holds the number of the offset's slot plus
	// 1, or openMark while the container there is being read, so that a reference back to
	// one (a cycle) is an error instead of endless recursion. Pages are made only where
	// something was read: a file of a few large containers (a hostile chain of 60 MB that
	// zstd sends in a few KB) needs a few pages, a file of many small ones at most as many
	// bytes as itself. Indexing is cheaper than a map, and the pages have no pointers for the
	// collector to scan. The rare offsets that are not a multiple of 4 go to odd.
	seen  []*seenPage
	odd   map[uint32]uint32
	slots []slot
	// weight is the document weight (see checkExpansion) of what has been read, counted as
	// it is read: a second walk over the tree with a map of the nodes seen was a sixth of
	// Read's time.
	weight int64
	// slab hands out nodes from blocks: one allocation per block instead of per node.
	slab []Node
	// entries and items hand out the containers' members the same way: one allocation per
	// container cost more than the members' bytes (the allocator sets each one's type for
	// the collector and clears it).
	entries members[Entry]
	items   members[*Node]
}

// members hands out slices of Ts cut from blocks that grow from 64 to 4096 Ts, so that a
// small file makes small blocks. A slice that does not fit in what is left of the block
// starts a new one (what was left is less than the slice: at most half of the memory is
// left unused); one too big for a block gets its own allocation.
type members[T any] struct {
	free  []T
	block int
}

// take returns n zero Ts. Their capacity is n: an append moves them out instead of
// overwriting the next container's.
func (m *members[T]) take(n uint32) []T {
	if n == 0 {
		return make([]T, 0) // empty, not nil, as a container made any other way
	}
	if n > uint32(len(m.free)) {
		m.block = min(max(2*m.block, 64), 4096)
		if n >= uint32(m.block) {
			return make([]T, n)
		}
		m.free = make([]T, m.block)
	}
	s := m.free[:n:n]
	m.free = m.free[n:]
	return s
}

const slabSize = 256

// openMark is seen's value for a container being read.
const openMark = ^uint32(0)

// A seenPage covers 1024 aligned offsets, 4 KB of input.
const pageBits = 10

type seenPage [1 << pageBits]uint32

// page returns the number of the page holding the aligned offset off.
func page(off uint32) uint32 { return off >> (pageBits + 2) }

// at returns seen's value for off: 0 when nothing has been read there.
func (d *decoder) at(off uint32) uint32 {
	if off%4 == 0 && page(off) < uint32(len(d.seen)) {
		if p := d.seen[page(off)]; p != nil {
			return p[off/4%(1<<pageBits)]
		}
		return 0
	}
	return d.odd[off]
}

// mark sets seen's value for off (0 forgets it).
func (d *decoder) mark(off, v uint32) {
	switch {
	case off%4 == 0 && page(off) < uint32(len(d.seen)):
		p := d.seen[page(off)]
		if p == nil {
			p = new(seenPage)
			d.seen[page(off)] = p
		}
		p[off/4%(1<<pageBits)] = v
	case v == 0:
		delete(d.odd, off)
	default:
		if d.odd == nil {
			d.odd = map[uint32]uint32{}
		}
		d.odd[off] = v
	}
}

// node returns a new zero node.
func (d *decoder) node() *Node {
	if len(d.slab) == 0 {
		d.slab = make([]Node, slabSize)
	}
	n := &d.slab[0]
	d.slab = d.slab[1:]
	return n
}

func (d *decoder) errorf(what string, off uint32, format string, args ...any) error {
	return &FormatError{What: what, Offset: int64(off), Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) u32(off uint32) uint32 { return d.order.Uint32(d.b[off:]) }

// u24 reads the 24-bit count or key index that shares a word with a type byte.
func (d *decoder) u24(off uint32) uint32 {
	b := d.b[off : off+3]
	if d.be {
		return uint32(b[0])<<16 | uint32(b[1])<<8 | uint32(b[2])
	}
	return uint32(b[2])<<16 | uint32(b[1])<<8 | uint32(b[0])
}

// has reports whether n bytes are there at off.
func (d *decoder) has(off, n uint32) bool {
	return uint64(off)+uint64(n) <= uint64(len(d.b))
}

// Read parses a BYML file of versions 1 to 7 in either byte order. Every node type of those
// versions is read except the path nodes of version 1 and the remapped and mono-typed
// containers (0x30, 0x31, 0xC4, 0xC8), which no corpus file has; those are errors.
func Read(data []byte) (*Document, error) {
	doc, _, err := read(data)
	return doc, err
}

// read is Read, also returning the document's weight (see checkExpansion) as counted while
// decoding.
func read(data []byte) (*Document, int64, error) {
	if len(data) < headerSize {
		return nil, 0, &FormatError{What: "header", Offset: 0, Msg: fmt.Sprintf("file is %d bytes, header needs %d", len(data), headerSize)}
	}
	if uint64(len(data)) > 0xFFFFFFFF {
		return nil, 0, &FormatError{What: "header", Offset: 0, Msg: "file is larger than 32-bit offsets can address"}
	}
	d := &decoder{b: data, seen: make([]*seenPage, (len(data)+1<<(pageBits+2)-1)>>(pageBits+2))}
	if !d.readMagic() {
		return nil, 0, d.errorf("header", 0, "magic is %q, want \"BY\" or \"YB\"", data[:2])
	}
	doc := &Document{BigEndian: d.be, Version: d.order.Uint16(data[2:])}
	if doc.Version < 1 || doc.Version > 7 {
		return nil, 0, d.errorf("header", 2, "version %d is not 1 to 7", doc.Version)
	}
	keyOff, strOff, rootOff := d.u32(4), d.u32(8), d.u32(12)
	var err error
	if d.keys, err = d.readTable("key table", keyOff); err != nil {
		return nil, 0, err
	}
	d.keysAscending = d.keys.ascending()
	if d.strs, err = d.readTable("string table", strOff); err != nil {
		return nil, 0, err
	}
	if rootOff != 0 {
		if !d.has(rootOff, 4) {
			return nil, 0, d.errorf("root node", rootOff, "offset is past the end of the %d-byte file", len(data))
		}
		t := data[rootOff]
		k, ok := kindOf(t)
		if !ok || !k.IsContainer() {
			return nil, 0, d.errorf("root node", rootOff, "type 0x%02x is not a container", t)
		}
		if doc.Root, err = d.readRef(k, 12, rootOff, "root node", 0); err != nil {
			return nil, 0, err
		}
	}
	weight := d.weight // the tree's: orphans below are no part of the document
	if doc.Root != nil {
		if err := expansionError(weight, len(data)); err != nil {
			return nil, 0, err
		}
	}
	reached := len(d.slots)
	sorted := d.sortedSlots()
	if d.readOrphans(sorted); len(d.slots) > reached {
		sorted = d.sortedSlots()
	}
	doc.layout = d.recordLayout(keyOff, strOff, rootOff, reached, sorted)
	return doc, weight, nil
}

// readTable reads a string table node (0xC2): a count, count+1 offsets from the node's start,
// then the NUL-terminated strings. The offsets must not decrease, so the strings cannot
// overlap and all of them together are never longer than the file.
func (d *decoder) readTable(what string, off uint32) (*table, error) {
	if off == 0 {
		return nil, nil
	}
	if !d.has(off, 4) {
		return nil, d.errorf(what, off, "offset is past the end of the %d-byte file", len(d.b))
	}
	if d.b[off] != 0xC2 {
		return nil, d.errorf(what, off, "type is 0x%02x, want 0xc2", d.b[off])
	}
	n := d.u24(off + 1)
	if !d.has(off+4, 4*(n+1)) || uint64(n+1)*4 > uint64(len(d.b)) {
		return nil, d.errorf(what, off, "%d strings need %d offset bytes, the file has %d after the node header", n, 4*(uint64(n)+1), uint64(len(d.b))-uint64(off)-4)
	}
	t := &table{off: off, strs: make([]string, n), rel: make([]uint32, n+1)}
	for i := uint32(0); i <= n; i++ {
		t.rel[i] = d.u32(off + 4 + 4*i)
	}
	for i := uint32(0); i < n; i++ {
		start, end := uint64(off)+uint64(t.rel[i]), uint64(off)+uint64(t.rel[i+1])
		if t.rel[i+1] < t.rel[i] {
			return nil, d.errorf(what, off+4+4*i, "string %d ends (0x%x) before it starts (0x%x)", i, t.rel[i+1], t.rel[i])
		}
		if end > uint64(len(d.b)) {
			return nil, d.errorf(what, off+4+4*i, "string %d runs to 0x%x, past the end of the %d-byte file", i, end, len(d.b))
		}
		if slices.Index(d.b[start:end], 0) < 0 {
			return nil, d.errorf(what, uint32(start), "string %d has no NUL before the next string", i)
		}
	}
	if n == 0 {
		return t, nil
	}
	// The strings are cut from one copy of the table's text: a string each was a third of
	// Read's allocations, each one more object for the collector to find.
	text := string(d.b[uint64(off)+uint64(t.rel[0]) : uint64(off)+uint64(t.rel[n])])
	for i := uint32(0); i < n; i++ {
		s := text[t.rel[i]-t.rel[0] : t.rel[i+1]-t.rel[0]]
		t.strs[i] = s[:strings.IndexByte(s, 0)]
	}
	return t, nil
}

// readRef reads the node of kind k that a parent's 4-byte value slot at slotOff refers to:
// inline values come from the slot itself, everything else from the offset it holds.
func (d *decoder) readRef(k Kind, slotOff, raw uint32, what string, depth int) (*Node, error) {
	if !k.outOfLine() {
		switch k {
		case String:
			if d.strs == nil || raw >= uint32(len(d.strs.strs)) {
				return nil, d.errorf(what, slotOff, "string index %d out of range (table has %d)", raw, d.strs.len())
			}
			n := d.node()
			n.Kind, n.Str = String, d.strs.strs[raw]
			d.weight += 1 + int64(len(n.Str))
			return n, nil
		default:
			n := d.node()
			n.Kind, n.Bits = k, uint64(raw)
			d.weight++
			return n, nil
		}
	}
	off := raw
	if v := d.at(off); v != 0 {
		if v == openMark {
			return nil, d.errorf(what, off, "%s contains itself (cycle)", k)
		}
		n := d.slots[v-1].node
		if n.Kind != k {
			return nil, d.errorf(what, off, "node is referenced as %s and as %s", n.Kind, k)
		}
		d.weight++ // a reference
		return n, nil
	}
	if off < headerSize || !d.has(off, 4) {
		return nil, d.errorf(what, slotOff, "%s offset 0x%x is outside the file (0x10 to 0x%x)", k, off, len(d.b))
	}
	var n *Node
	var size uint32
	var err error
	switch k {
	case Int64, UInt64, Double:
		if !d.has(off, 8) {
			return nil, d.errorf(what, off, "%s value runs past the end of the file", k)
		}
		n, size = d.node(), 8
		n.Kind, n.Bits = k, d.order.Uint64(d.b[off:])
	case Binary:
		l := d.u32(off)
		if !d.has(off+4, l) || uint64(off)+4+uint64(l) > uint64(len(d.b)) {
			return nil, d.errorf(what, off, "binary of %d bytes runs past the end of the %d-byte file", l, len(d.b))
		}
		n, size = &Node{Kind: Binary, Data: slices.Clone(d.b[off+4 : off+4+l])}, 4+l
	case File:
		if !d.has(off, 8) {
			return nil, d.errorf(what, off, "file data header runs past the end of the file")
		}
		l, a := d.u32(off), d.u32(off+4)
		if uint64(off)+8+uint64(l) > uint64(len(d.b)) {
			return nil, d.errorf(what, off, "file data of %d bytes runs past the end of the %d-byte file", l, len(d.b))
		}
		if a&(a-1) != 0 { // the writers (and the JSON and YAML readers) refuse it too
			return nil, d.errorf(what, off+4, "file alignment %d is not a power of two", a)
		}
		n, size = &Node{Kind: File, Align: a, Data: slices.Clone(d.b[off+8 : off+8+l])}, 8+l
	default:
		if depth >= maxDepth {
			return nil, d.errorf(what, off, "containers nest deeper than %d levels", maxDepth)
		}
		d.mark(off, openMark)
		n, size, err = d.readContainer(k, off, depth+1)
		if err != nil {
			d.mark(off, 0)
			return nil, err
		}
	}
	d.slots = append(d.slots, slot{node: n, off: off, size: size})
	d.mark(off, uint32(len(d.slots)))
	d.weight += 1 + int64(len(n.Data)) // its items and entries counted themselves
	return n, nil
}

// readMagic sets the byte order the magic says ("BY" big endian, "YB" little), or reports
// that it is neither.
func (d *decoder) readMagic() bool {
	switch string(d.b[:2]) {
	case "BY":
		d.order, d.be = binary.BigEndian, true
	case "YB":
		d.order = binary.LittleEndian
	default:
		return false
	}
	return true
}

// containerSize is the bytes a container node of kind k with n entries takes: its header,
// then an array's type bytes (padded to 4) and values, or a hash's entries (a hash map's
// keys of 4 or 8 bytes, values and type bytes).
func containerSize(k Kind, n uint32) uint64 {
	switch k {
	case Array:
		return 4 + uint64(align4(n)) + 4*uint64(n)
	case Hash:
		return 4 + 8*uint64(n)
	case HashMap32:
		return 4 + 9*uint64(n)
	case HashMap64:
		return 4 + 13*uint64(n)
	}
	return 4
}

// readContainer reads an array, hash or hash map node at off and returns it with its size.
func (d *decoder) readContainer(k Kind, off uint32, depth int) (*Node, uint32, error) {
	if t := d.b[off]; t != nodeType[k] {
		return nil, 0, d.errorf(k.String(), off, "type byte is 0x%02x, the parent says 0x%02x", t, nodeType[k])
	}
	n := d.u24(off + 1)
	what := k.String()
	size := containerSize(k, n)
	if uint64(off)+size > uint64(len(d.b)) {
		return nil, 0, d.errorf(what, off, "%d entries need %d bytes, the file has %d from here", n, size, uint64(len(d.b))-uint64(off))
	}
	node := d.node()
	node.Kind = k
	child := func(t byte, slotOff uint32) (*Node, error) {
		ck, ok := kindOf(t)
		if !ok {
			return nil, d.errorf(what, off, "entry at 0x%x has unknown type 0x%02x", slotOff, t)
		}
		return d.readRef(ck, slotOff, d.u32(slotOff), what, depth)
	}
	switch k {
	case Array:
		node.Items = d.items.take(n)
		vals := off + 4 + align4(n)
		for i := uint32(0); i < n; i++ {
			c, err := child(d.b[off+4+i], vals+4*i)
			if err != nil {
				return nil, 0, err
			}
			node.Items[i] = c
		}
	case Hash:
		node.Entries = d.entries.take(n)
		var prev uint32 // the key index before
		for i := uint32(0); i < n; i++ {
			e := off + 4 + 8*i
			ki := d.u24(e)
			if d.keys == nil || ki >= uint32(len(d.keys.strs)) {
				return nil, 0, d.errorf(what, e, "key index %d out of range (table has %d)", ki, d.keys.len())
			}
			c, err := child(d.b[e+3], e+4)
			if err != nil {
				return nil, 0, err
			}
			node.Entries[i] = Entry{Key: d.keys.strs[ki], Value: c}
			d.weight += 1 + int64(len(node.Entries[i].Key))
			// Keys out of order or repeated break the format's rule (the game
			// binary-searches them), but modding tools write such files and the game
			// loads them: keep the order found, and say so in Warnings.
			if i > 0 && (d.keysAscending && ki <= prev || !d.keysAscending && node.Entries[i-1].Key >= node.Entries[i].Key) {
				node.KeepOrder = true
			}
			prev = ki
		}
	case HashMap32, HashMap64:
		w := uint32(8)
		if k == HashMap64 {
			w = 12
		}
		types := off + 4 + w*n
		node.Entries = d.entries.take(n)
		for i := uint32(0); i < n; i++ {
			e := off + 4 + w*i
			var h uint64
			if k == HashMap32 {
				h = uint64(d.u32(e))
			} else {
				h = d.order.Uint64(d.b[e:])
			}
			c, err := child(d.b[types+i], e+w-4)
			if err != nil {
				return nil, 0, err
			}
			node.Entries[i] = Entry{Hash: h, Value: c}
			d.weight++
			if i > 0 && node.Entries[i-1].Hash >= h {
				node.KeepOrder = true // as for Hash above
			}
		}
	}
	return node, uint32(size), nil
}

func align4(n uint32) uint32 { return (n + 3) &^ 3 }

// readOrphans reads the containers that sit in the file but that nothing refers to. Some
// writers emit every container they build and then point parents at an earlier equal copy,
// leaving the copies behind: most of a Super Mario Odyssey v1 stage file made by such a tool
// is unreferenced copies. They are not part of the document, but they are part of the bytes,
// so they are kept as layout facts (slots past the reachable ones) and written back at
// their offsets; an edit that changes the layout drops them with the rest of it.
//
// Only the 4-aligned words of the gaps between what the tree reaches are tried, and only
// where a container type byte starts a nonzero word (padding is zero). A gap stops being
// scanned at its first word that does not read as a container; the gap's bytes then do
// not come back and Bytes's output differs there. A failed attempt leaves no trace, and
// all attempts together read at most about twice the file, so hostile gaps cost linear time.
func (d *decoder) readOrphans(sorted []slot) {
	var gaps []span
	end := uint32(0)
	d.pieces(sorted, func(s span) {
		if s.lo > end {
			gaps = append(gaps, span{end, s.lo})
		}
		end = max(end, s.hi)
	})
	if uint64(end) < uint64(len(d.b)) {
		gaps = append(gaps, span{end, uint32(len(d.b))})
	}
	budget := 2*int64(len(d.b)) + 4096
	for _, g := range gaps {
		for off := align4(g.lo); uint64(off)+4 <= uint64(g.hi) && budget > 0; {
			if v := d.at(off); v != 0 {
				// Read as a child of an orphan before: step over it.
				off = align4(off + d.slots[v-1].size)
				continue
			}
			if d.u32(off) == 0 {
				off += 4
				continue
			}
			k, ok := kindOf(d.b[off])
			if !ok || !k.IsContainer() {
				break
			}
			mark := len(d.slots)
			n, err := d.readRef(k, off, off, "unreferenced "+k.String(), 0)
			for _, s := range d.slots[mark:] {
				budget -= int64(s.size) + 4
			}
			if err != nil {
				for _, s := range d.slots[mark:] {
					d.mark(s.off, 0)
				}
				d.slots = d.slots[:mark]
				break
			}
			off = align4(off + size(n))
		}
	}
}

// span is the bytes from lo up to hi.
type span struct{ lo, hi uint32 }

// sortedSlots returns the slots in offset order. Walking seen's pages, which are in that
// order already, costs less than sorting (a twentieth of Read's time went to sorting).
func (d *decoder) sortedSlots() []slot {
	sorted := make([]slot, 0, len(d.slots))
	for _, p := range d.seen {
		if p == nil {
			continue
		}
		for _, v := range p {
			if v != 0 {
				sorted = append(sorted, d.slots[v-1])
			}
		}
	}
	if len(sorted) < len(d.slots) { // some at offsets that are not a multiple of 4
		for _, v := range d.odd {
			sorted = append(sorted, d.slots[v-1])
		}
		slices.SortFunc(sorted, func(a, b slot) int { return cmp.Compare(a.off, b.off) })
	}
	return sorted
}

// pieces calls fn with each piece of the file in offset order: the header, the string
// tables and the out-of-line nodes of sorted (slots in offset order).
func (d *decoder) pieces(sorted []slot, fn func(span)) {
	fixed := []span{{0, headerSize}}
	for _, t := range []*table{d.keys, d.strs} {
		if t != nil {
			fixed = append(fixed, span{t.off, t.end()})
		}
	}
	slices.SortFunc(fixed, func(a, b span) int { return cmp.Compare(a.lo, b.lo) })
	for _, s := range sorted {
		for len(fixed) > 0 && fixed[0].lo <= s.off {
			fn(fixed[0])
			fixed = fixed[1:]
		}
		fn(span{s.off, s.off + s.size})
	}
	for _, f := range fixed {
		fn(f)
	}
}

// checkExpansion bounds the size of the document's text forms. They send a node the tree
// shares (a container or big value reached from several parents) once and refer to it
// elsewhere (JSON "ref", YAML aliases), so sharing costs little; but strings are written out
// at every use, and a small file whose slots all name one long string would otherwise turn
// into text quadratic in the input. The weight of a document counts one per node and per
// reference plus the bytes of every string and key as often as they are written and of every
// binary once; real files stay far below the bound (see TestExpansionRatio).
func checkExpansion(root *Node, inputSize int) error {
	if root == nil {
		return nil
	}
	return expansionError(weight(root, expansionLimit(inputSize)), inputSize)
}

func expansionLimit(inputSize int) int64 { return int64(inputSize)*maxExpansion + 4096 }

// expansionError says why a document of weight w is refused, or nil if it is not.
func expansionError(w int64, inputSize int) error {
	if limit := expansionLimit(inputSize); w > limit {
		return &FormatError{What: "document", Offset: 0, Msg: fmt.Sprintf("its text form would weigh over %d (strings repeated at every use), too much for a %d-byte input", limit, inputSize)}
	}
	return nil
}

// weight returns the document weight of the tree under root (see checkExpansion), or any
// value above limit once it passes limit.
func weight(root *Node, limit int64) int64 {
	seen := map[*Node]bool{}
	var w int64
	var rec func(n *Node)
	rec = func(n *Node) {
		w++
		switch {
		case n.Kind == String:
			w += int64(len(n.Str))
			return
		case !n.Kind.outOfLine():
			return
		case seen[n]:
			return // a reference
		}
		seen[n] = true
		w += int64(len(n.Data))
		for _, it := range n.Items {
			if rec(it); w > limit {
				return
			}
		}
		for _, e := range n.Entries {
			if w += 1 + int64(len(e.Key)); w > limit {
				return
			}
			if rec(e.Value); w > limit {
				return
			}
		}
	}
	rec(root)
	return w
}

// maxExpansion is the expanded weight allowed per input byte.
const maxExpansion = 16
