package ainb

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"path"
	"slices"
	"strings"
	"unsafe"
)

// poolIndex maps the strings of a recorded pool to their first offsets. It is shared by every
// write of a File and never modified.
type poolIndex struct {
	strings []string // the Layout.Strings it was built from
	size    int
	// text is the pool, NUL-terminated strings in order; the reader's strings are substrings
	// of it. unique says no string occurs twice in it: a string that is a whole string of
	// text then has its offset in its address, so lookup needs no hashing for the strings
	// the reader made.
	text   string
	unique bool
	table  offsetTable
}

// lookup returns the offset of the first pool string equal to s.
func (x *poolIndex) lookup(s string) (uint32, bool) {
	if len(s) > 0 && x.unique {
		// Only addresses are compared: text and s are both alive, so s lies inside text
		// exactly when it is one of its substrings.
		p := uintptr(unsafe.Pointer(unsafe.StringData(s))) - uintptr(unsafe.Pointer(unsafe.StringData(x.text)))
		if p < uintptr(len(x.text)) && uintptr(len(s)) < uintptr(len(x.text))-p {
			at := int(p)
			if x.text[at+len(s)] == 0 && (at == 0 || x.text[at-1] == 0) {
				return uint32(at), true // a whole string, and the only one equal to s
			}
		}
	}
	return x.table.find(x.text, s)
}

// offsetTable maps strings of a pool text to their first offsets (see stringTable).
type offsetTable struct{ stringTable }

// insert records text[at:at+len(s)] (which is s) unless an equal string is in already, and
// reports whether it was new. The table was sized for every string (init).
func (t *offsetTable) insert(text, s string, at uint32) bool {
	sl, h, found := probe(&t.stringTable, text, s)
	if !found {
		*sl = stringSlot{hash: h, at: at + 1, n: uint32(len(s))}
	}
	return !found
}

func (t *offsetTable) find(text, s string) (uint32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	sl, _, found := probe(&t.stringTable, text, s)
	return sl.at - 1, found
}

// stringTable maps strings to their places in a text: open addressing over slots that hold
// a hash, a place and a length but no pointer (a string is compared with the text), so it
// costs the collector nothing, fills few cache lines and takes a third of the memory of a
// map of strings.
type stringTable struct {
	seed  maphash.Seed
	slots []stringSlot
	n     int // slots in use, for tables that grow
}

type stringSlot struct {
	hash uint32
	at   uint32 // 1 + the string's place in the text; 0 for an empty slot
	n    uint32 // its length
}

// init sizes the table for about n strings at a load of at most a half.
func (t *stringTable) init(n int) {
	t.seed = maphash.MakeSeed()
	size := 16
	for size < 2*n {
		size *= 2
	}
	t.slots = make([]stringSlot, size)
}

// probe returns the slot holding s, found, or the empty slot where s belongs, with s's hash.
func probe[T string | []byte](t *stringTable, text T, s string) (*stringSlot, uint32, bool) {
	h := uint32(maphash.String(t.seed, s))
	mask := uint32(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.at == 0 {
			return sl, h, false
		}
		if sl.hash == h && int(sl.n) == len(s) && string(text[sl.at-1:sl.at-1+sl.n]) == s {
			return sl, h, true
		}
	}
}

// valid reports whether the index still describes l.Strings.
func (x *poolIndex) valid(l *Layout) bool {
	return x != nil && len(x.strings) == len(l.Strings) &&
		(len(l.Strings) == 0 || &x.strings[0] == &l.Strings[0])
}

// StringIndex returns a lookup of the pool offset of the first of l.Strings equal to s. For
// a layout the reader made it uses the index the reader built while splitting the pool.
func (l *Layout) StringIndex() func(s string) (uint32, bool) {
	x := l.index
	if !x.valid(l) {
		x = newPoolIndex(l.Strings)
	}
	return x.lookup
}

func newPoolIndex(strs []string) *poolIndex {
	n := 0
	for _, s := range strs {
		n += len(s) + 1
	}
	var b strings.Builder
	b.Grow(n)
	for _, s := range strs {
		b.WriteString(s)
		b.WriteByte(0)
	}
	// The strings are not substrings of this text, so the address test never applies
	// (unique stays false).
	x := &poolIndex{strings: strs, text: b.String()}
	x.table.init(len(strs))
	for _, s := range strs {
		x.table.insert(x.text, s, uint32(x.size))
		x.size += len(s) + 1
	}
	return x
}

// stringPool assigns pool offsets. A pool recorded from a read file keeps its order so the
// file comes back identical; strings it lacks are appended, each as a string of its own.
type stringPool struct {
	recorded *poolIndex
	added    addedStrings
	tail     []byte // the appended strings
	// tails are the Layout.Tails: the only strings that may point inside a recorded string,
	// because the file read pointed there. tailAt holds where each lands, found on first use.
	tails  []string
	tailAt map[string]uint32
}

// newStringPool makes the pool of a file of elements elements. Without recorded strings
// every string is added, about four per element and ten bytes each in known files (see
// stringsPerElement): sizing for them up front saves growing the table and the tail.
func newStringPool(l *Layout, elements int) *stringPool {
	p := &stringPool{}
	if l != nil {
		if l.index.valid(l) {
			p.recorded = l.index
		} else {
			p.recorded = newPoolIndex(l.Strings)
		}
		p.tails = l.Tails
	}
	if p.recorded == nil || len(p.recorded.strings) == 0 {
		p.added.init(16 + elements*stringsPerElement)
		p.tail = make([]byte, 0, 256+elements*stringsPerElement*10)
	} else {
		p.added.init(16)
	}
	return p
}

// stringsPerElement is about the most distinct strings per element of the corpus files (1.5
// to 4.5; the fewer, the more elements).
const stringsPerElement = 4

func (p *stringPool) base() int {
	if p.recorded == nil {
		return 0
	}
	return p.recorded.size
}

func (p *stringPool) offset(s string) uint32 {
	if p.recorded != nil {
		if o, ok := p.recorded.lookup(s); ok {
			return o
		}
	}
	// Readers that index the pool by string starts reject an offset inside a string, so only
	// a string the read file itself pointed into a tail with goes back into a tail. Whether s
	// has a tail never changes, so a string with none is never looked up here and appended too.
	if o, ok := p.tailOffset(s); ok {
		return o
	}
	return uint32(p.base()) + p.added.find(s, &p.tail)
}

// addedStrings maps the strings appended to the pool to their places in the tail (see
// stringTable). A canonical write looks up every string reference of the file here.
type addedStrings struct{ stringTable }

// find returns the place of s in *tail, appending it (and its NUL) the first time.
func (t *addedStrings) find(s string, tail *[]byte) uint32 {
	sl, h, found := probe(&t.stringTable, *tail, s)
	if found {
		return sl.at - 1
	}
	at := len(*tail)
	*tail = append(append(*tail, s...), 0)
	*sl = stringSlot{hash: h, at: uint32(at) + 1, n: uint32(len(s))}
	t.n++
	if 2*t.n > len(t.slots) {
		t.grow()
	}
	return uint32(at)
}

func (t *addedStrings) grow() {
	old := t.slots
	t.slots = make([]stringSlot, 2*len(old))
	mask := uint32(len(t.slots) - 1)
	for _, sl := range old {
		if sl.at == 0 {
			continue
		}
		i := sl.hash & mask
		for t.slots[i].at != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = sl
	}
}

// tailOffset returns where s lands as a recorded tail: in the first recorded string it is a
// proper suffix of. Strings not in Layout.Tails, and strings holding a NUL, have none.
func (p *stringPool) tailOffset(s string) (uint32, bool) {
	if len(p.tails) == 0 || strings.IndexByte(s, 0) >= 0 {
		return 0, false
	}
	if p.tailAt == nil {
		p.tailAt = tailOffsets(p.recorded.strings, p.tails)
	}
	o, ok := p.tailAt[s]
	return o, ok
}

// tailOffsets finds each of tails in the pool made of strs: the offset where it starts as a
// proper suffix of the first string in pool order that ends with it. Tails no string ends
// with are left out. It walks a trie of the reversed tails once over the pool, so it costs the
// size of the pool plus that of the tails, however many tails there are.
func tailOffsets(strs, tails []string) map[string]uint32 {
	type edge struct {
		node int32
		c    byte
	}
	end := []int32{-1} // per trie node: the index of the tail ending there and not found yet, or -1
	next := make(map[edge]int32)
	left := 0 // distinct tails not found yet
	for i, t := range tails {
		n := int32(0)
		for j := len(t) - 1; j >= 0; j-- {
			e := edge{n, t[j]}
			c, ok := next[e]
			if !ok {
				c = int32(len(end))
				end = append(end, -1)
				next[e] = c
			}
			n = c
		}
		if end[n] < 0 {
			end[n] = int32(i)
			left++
		}
	}
	found := make(map[string]uint32, left)
	off := 0
	for _, r := range strs {
		if left == 0 {
			break
		}
		// At depth d the walk has matched the last d bytes of r; a proper suffix is shorter.
		n, ok := int32(0), true
		for d := 0; d < len(r) && ok; d++ {
			if i := end[n]; i >= 0 {
				found[tails[i]] = uint32(off + len(r) - d)
				end[n] = -1 // found: later strings come after it
				left--
			}
			n, ok = next[edge{n, r[len(r)-1-d]}]
		}
		off += len(r) + 1
	}
	return found
}

// appendTo appends the pool bytes.
func (p *stringPool) appendTo(b []byte) []byte {
	if p.recorded != nil {
		for _, s := range p.recorded.strings {
			b = append(b, s...)
			b = append(b, 0)
		}
	}
	return append(b, p.tail...)
}

// encoder appends a file to buf.
type encoder struct {
	f         *File
	buf       []byte
	pool      *stringPool
	elemStart int   // offset of the element entries
	err       error // the first field that did not fit
	// Where each type's property and input entries start: enum relocations point into them.
	propAt, inAt [NumParamTypes]int
	// Each element's and attachment's first property and input entry per type, recorded
	// only when the file has enum relocations to resolve against them.
	elemProps, elemInputs, attProps [][NumParamTypes]int
}

// packedOffset is the pool offset of s for a field that shares its word with flags and so
// has only the given number of bits.
func (e *encoder) packedOffset(s string, bits uint, what string) uint32 {
	o := e.pool.offset(s)
	if o>>bits != 0 && e.err == nil {
		e.err = fmt.Errorf("ainb: %s %.40q lands at string pool offset %#x, past the %d bits its field has", what, s, o, bits)
	}
	return o
}

func (e *encoder) pos() int { return len(e.buf) }

// The writes append to e.buf in place (e.buf = append(e.buf, ...)): the compiler then stores
// only the length unless the buffer grows. Assigning the result of a call such as
// binary.LittleEndian.AppendUint32 stores the whole slice header, with a write barrier on
// every word while the collector runs.
func (e *encoder) u8(v uint8)   { e.buf = append(e.buf, v) }
func (e *encoder) u16(v uint16) { e.buf = append(e.buf, byte(v), byte(v>>8)) }
func (e *encoder) u32(v uint32) {
	e.buf = append(e.buf, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}
func (e *encoder) f32(v F32) {
	e.u32(math.Float32bits(float32(v)))
}
func (e *encoder) str(s string) { e.u32(e.pool.offset(s)) }
func (e *encoder) vec3(v Vec3f) {
	e.f32(v[0])
	e.f32(v[1])
	e.f32(v[2])
}
func (e *encoder) zeros(n int) { e.buf = append(e.buf, make([]byte, n)...) }

// grow appends n zero bytes and returns them, for a record whose fields are put at their
// offsets. The slice is only good until the next append.
func (e *encoder) grow(n int) []byte {
	at := len(e.buf)
	e.buf = append(e.buf, make([]byte, n)...)
	return e.buf[at:]
}

// patch32 overwrites the u32 at off.
func (e *encoder) patch32(off int, v uint32) { binary.LittleEndian.PutUint32(e.buf[off:], v) }

func (e *encoder) value(t ParamType, v Value) {
	switch t {
	case ParamInt, ParamBool:
		e.u32(uint32(v.Int))
	case ParamFloat:
		e.f32(v.Float)
	case ParamString:
		e.str(v.String)
	case ParamVec3f:
		e.vec3(v.Vec)
	}
}

// Bytes validates the file and lays it out as a binary.
func (f *File) Bytes() ([]byte, error) {
	return f.BytesInto(nil)
}

// BytesInto is Bytes written into buf's storage from its start, grown as needed: a server
// keeps its output buffers from one build to the next. It is not an AppendBinary: the
// encoder's offsets are positions in its buffer, so the file must start at index 0.
func (f *File) BytesInto(buf []byte) ([]byte, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	e := &encoder{f: f, pool: newStringPool(f.Layout, len(f.Elements)), buf: slices.Grow(buf[:0], f.sizeHint())}
	if err := e.file(); err != nil {
		return nil, err
	}
	return e.buf, nil
}

// sizeHint estimates the output size so the buffer rarely grows.
func (f *File) sizeHint() int {
	// Each element: its entry, its parameter block, its table entries (property, input and
	// output entries are 4 to 24 bytes) and plugs (an index and an entry of 8 to 40 bytes).
	n := 4096
	for i := range f.Elements {
		e := &f.Elements[i]
		n += elementEntry407.size + paramsSize + 20*e.Properties.Len() + 24*e.Inputs.Len() + 8*e.Outputs.Len() +
			40*e.Plugs.Len() + 8*(len(e.Queries)+len(e.Attachments))
		for _, in := range e.Inputs.Lists() {
			for j := range in {
				n += 8 * len(in[j].Sources)
			}
		}
	}
	if f.Layout != nil && len(f.Layout.Strings) > 0 {
		for _, s := range f.Layout.Strings {
			n += len(s) + 1
		}
	} else {
		n += len(f.Elements) * stringsPerElement * 10 // the pool, as newStringPool sizes it
	}
	if m := f.Expressions; m != nil {
		// Instructions are 8 bytes; functions and parameters add about as much again. The
		// strings can run to tens of kilobytes; missing them here would regrow the whole file.
		n += 256 + 16*len(m.Instructions) + 32*len(m.Functions) + m.Strings.Size()
	}
	return n
}

// layoutPlan holds what the element entries need before their sections are written.
type layoutPlan struct {
	jumps     []Jump       // jump table, in element order
	jumpIndex map[Jump]int // first index of each distinct jump
	multi     []Source
	multiAt   map[Source][]int // positions of each source in multi, ascending
	exprCount []int            // per element
	exprSize  []int
	links     []uint32 // Links, or what the file kept
	attCount  []int    // per attachment
	attSize   []int
	queryIdx  map[int]int // element index -> query index
	// queryOrder is the elements with queries in query id table order, and queryBase each
	// element's first entry in the table.
	queryOrder []int
	queryBase  []int
	queryTable []int // the table of query indices, with Layout.QueryShared
	instances  int   // expression uses, for the EXB header
}

func (e *encoder) plan() *layoutPlan {
	f := e.f
	p := &layoutPlan{
		exprCount: make([]int, len(f.Elements)),
		exprSize:  make([]int, len(f.Elements)),
		attCount:  make([]int, len(f.Attachments)),
		attSize:   make([]int, len(f.Attachments)),
		queryIdx:  make(map[int]int),
	}
	links, elems, atts, instances := f.derivedCounts()
	p.links = links
	p.instances = instances
	if l := f.Layout; l != nil {
		p.instances = int(l.ExpressionInstances.Value(uint32(instances)))
	}
	for i, u := range elems {
		p.exprCount[i], p.exprSize[i] = u.count, u.size
		if k := f.Elements[i].Kept; k != nil {
			p.exprSize[i] = int(k.ExpressionIOSize.Value(uint32(u.size)))
			p.links[i] = k.Links.Value(p.links[i])
		}
	}
	for i, u := range atts {
		p.attCount[i], p.attSize[i] = u.count, u.size
	}
	p.queryOrder, p.queryBase = planQueries(f)
	for i := range f.Elements {
		el := &f.Elements[i]
		if el.Flags&FlagQuery != 0 {
			p.queryIdx[i] = len(p.queryIdx)
		}
	}
	if f.Layout != nil && f.Layout.QueryShared {
		p.queryTable, p.queryBase = sharedQueries(f, p.queryIdx)
	}
	for i := range f.Elements {
		el := &f.Elements[i]
		for _, pl := range el.Plugs.Of(PlugJump) {
			p.jumps = append(p.jumps, *pl.Jump)
		}
	}
	p.multi = f.multiSources(f.Layout != nil && f.Layout.MultiByElement)
	p.jumpIndex = make(map[Jump]int, len(p.jumps))
	for i := len(p.jumps) - 1; i >= 0; i-- {
		p.jumpIndex[p.jumps[i]] = i
	}
	p.multiAt = make(map[Source][]int)
	for i, s := range p.multi {
		p.multiAt[s] = append(p.multiAt[s], i)
	}
	return p
}

// multiWindow finds the first window of the multi-input array equal to srcs: in the reference
// writer's layout (Layout.MultiByElement), inputs with
// equal source lists share one window.
func (p *layoutPlan) multiWindow(srcs []Source) int {
	if len(srcs) == 0 {
		return 0
	}
outer:
	for _, i := range p.multiAt[srcs[0]] {
		if i+len(srcs) > len(p.multi) {
			break
		}
		for k := range srcs {
			if p.multi[i+k] != srcs[k] {
				continue outer
			}
		}
		return i
	}
	return -1
}

// file writes the sections in the order the reference writer uses; each section's offset goes
// into the header (and element entries) as the section is written.
func (e *encoder) file() error {
	p := e.plan()
	e.header(p)
	e.commands()
	e.elementEntries(p)
	e.blackboard()
	propBase := e.elementParams(p)
	e.attachmentIDs()
	e.attachments(p, propBase)
	e.propertyTable()
	e.ioTable(p)
	e.multiInputs(p)
	e.jumpTable(p)
	e.queryIDs(p)
	if err := e.expressions(p); err != nil {
		return err
	}
	e.modules()
	e.actions()
	e.moduleLink()
	e.section58()
	if e.f.Version < Version407 {
		e.stateInfos()
	} else {
		e.replacementTable()
	}
	e.section6C()
	e.enumRelocations()
	e.patch32(hdrStringPool, uint32(e.pos()))
	e.buf = e.pool.appendTo(e.buf)
	if len(e.buf) > math.MaxUint32 {
		return fmt.Errorf("ainb: the file would be %d bytes, more than its 32-bit offsets reach", len(e.buf))
	}
	return e.err
}

// header writes the magic, the version, the counts and the strings; the section offsets are
// patched in as the sections are written.
func (e *encoder) header(p *layoutPlan) {
	f := e.f
	queries, outputs := f.QueryCount(), f.ModuleOutputCount()
	var x54 uint32
	if l := f.Layout; l != nil {
		x54 = l.Header54
		queries, outputs = l.Queries.Value(queries), l.ModuleOutputs.Value(outputs)
	}
	h := e.grow(headerSize)
	copy(h[hdrMagic:], "AIB ")
	le.PutUint32(h[hdrVersion:], f.Version)
	le.PutUint32(h[hdrFilename:], e.pool.offset(f.Filename))
	le.PutUint32(h[hdrCommands:], uint32(len(f.Commands)))
	le.PutUint32(h[hdrElements:], uint32(len(f.Elements)))
	le.PutUint32(h[hdrQueries:], queries)
	le.PutUint32(h[hdrAttachmentN:], uint32(len(f.Attachments)))
	le.PutUint32(h[hdrOutputElements:], outputs)
	le.PutUint32(h[hdrX54:], x54)
	le.PutUint32(h[hdrCategoryName:], e.pool.offset(f.Category))
	le.PutUint32(h[hdrCategory:], f.CategoryID)
}

func (e *encoder) commands() {
	for _, c := range e.f.Commands {
		ent := e.grow(commandSize)
		le.PutUint32(ent[commandName:], e.pool.offset(c.Name))
		copy(ent[commandGUID:], c.GUID[:])
		le.PutUint16(ent[commandRoot:], uint16(c.Root))
		le.PutUint16(ent[commandSecondary:], uint16(c.Secondary+1))
	}
}

// elementEntries writes the entries; their parameter and state info offsets are patched as
// those sections are written.
func (e *encoder) elementEntries(p *layoutPlan) {
	f := e.f
	l := elementLayout(f.Version)
	e.elemStart = e.pos()
	attachBase := 0
	for i := range f.Elements {
		el := &f.Elements[i]
		ent := e.grow(l.size)
		le.PutUint16(ent[elementType:], uint16(el.Type))
		le.PutUint16(ent[elementIndex:], uint16(i))
		le.PutUint16(ent[elementAttachCount:], uint16(len(el.Attachments)))
		ent[elementFlags] = uint8(el.Flags)
		ent[elementReserved07] = el.Reserved07
		le.PutUint16(ent[l.reserved1E:], el.Reserved1E)
		le.PutUint32(ent[elementName:], e.pool.offset(el.Name))
		if l.hash >= 0 {
			h := Hash(el.Name)
			if el.Kept != nil {
				h = el.Kept.NameHash.Value(h)
			}
			le.PutUint32(ent[l.hash:], h)
		}
		le.PutUint32(ent[l.reserved:], el.Reserved10)
		le.PutUint16(ent[l.exprCount:], uint16(p.exprCount[i]))
		le.PutUint16(ent[l.exprSize:], uint16(p.exprSize[i]))
		le.PutUint16(ent[l.links:], uint16(p.links[i]))
		le.PutUint32(ent[l.attachBase:], uint32(attachBase))
		attachBase += len(el.Attachments)
		le.PutUint16(ent[l.queryBase:], uint16(p.queryBase[i]))
		le.PutUint16(ent[l.queryCount:], uint16(len(el.Queries)))
		copy(ent[l.guid:], el.GUID[:])
	}
}

// elementField is the offset of a field of element i's entry that is patched later.
func (e *encoder) elementField(i int, field int) int {
	return e.elemStart + i*elementSize(e.f.Version) + field
}

// elementParams writes each element's parameter block: ranges into the property and
// input/output tables, then its plugs. It returns where the property table's ranges stand
// after the elements, which is where the attachments' begin.
func (e *encoder) elementParams(p *layoutPlan) (propBase [NumParamTypes]int) {
	f := e.f
	var inBase, outBase [NumParamTypes]int
	if len(f.EnumRelocations) > 0 {
		e.elemProps = make([][NumParamTypes]int, len(f.Elements))
		e.elemInputs = make([][NumParamTypes]int, len(f.Elements))
	}
	for i := range f.Elements {
		el := &f.Elements[i]
		if e.elemProps != nil {
			e.elemProps[i], e.elemInputs[i] = propBase, inBase
		}
		e.patch32(e.elementField(i, elementLayout(f.Version).params), uint32(e.pos()))
		pb := e.grow(paramsSize)
		for t := range NumParamTypes {
			o := paramsProperties + rangeSize*int(t)
			n := len(el.Properties.Of(t))
			le.PutUint32(pb[o+rangeBase:], uint32(propBase[t]))
			le.PutUint32(pb[o+rangeCount:], uint32(n))
			propBase[t] += n
		}
		for t := range NumParamTypes {
			o := paramsIO + paramsIOStride*int(t)
			nIn, nOut := len(el.Inputs.Of(t)), len(el.Outputs.Of(t))
			in, out := o+paramsIOInputs, o+paramsIOOutputs
			le.PutUint32(pb[in+rangeBase:], uint32(inBase[t]))
			le.PutUint32(pb[in+rangeCount:], uint32(nIn))
			le.PutUint32(pb[out+rangeBase:], uint32(outBase[t]))
			le.PutUint32(pb[out+rangeCount:], uint32(nOut))
			inBase[t] += nIn
			outBase[t] += nOut
		}
		var plugs [plugTables][]Plug
		lists := el.Plugs.Lists()
		copy(plugs[:], lists[:])
		if u := el.UnusedPlugs; u != nil {
			copy(plugs[NumPlugKinds:], u[:])
		}
		total := 0
		for k := range plugs {
			o := paramsPlugCounts + plugCountSize*k
			pb[o], pb[o+1] = uint8(len(plugs[k])), uint8(total)
			total += len(plugs[k])
		}
		if total == 0 {
			continue
		}
		at := e.pos() + plugOffsetSize*total
		for k := range plugs {
			for j := range plugs[k] {
				e.u32(uint32(at))
				at += el.PlugLayoutOf(PlugKind(k), &plugs[k][j], f.Version).Size()
			}
		}
		for k := range plugs {
			for j := range plugs[k] {
				pl := &plugs[k][j]
				e.plug(pl, el.PlugLayoutOf(PlugKind(k), pl, f.Version), p)
			}
		}
	}
	return propBase
}

// attachmentIDs writes the attachment id array, the elements' lists one after another.
func (e *encoder) attachmentIDs() {
	f := e.f
	e.patch32(hdrAttachIDs, uint32(e.pos()))
	for i := range f.Elements {
		for _, a := range f.Elements[i].Attachments {
			e.u32(uint32(a))
		}
	}
}

// attachments writes the attachment entries and their parameter blocks, whose property
// ranges continue after the elements'.
func (e *encoder) attachments(p *layoutPlan, propBase [NumParamTypes]int) {
	f := e.f
	e.patch32(hdrAttachments, uint32(e.pos()))
	size := attachmentSize(f.Version)
	params := e.pos() + size*len(f.Attachments)
	for i := range f.Attachments {
		a := &f.Attachments[i]
		ent := e.grow(size)
		le.PutUint32(ent[attachmentName:], e.pool.offset(a.Name))
		le.PutUint32(ent[attachmentParams:], uint32(params+attachParamsSize*i))
		le.PutUint16(ent[attachmentExprCount:], uint16(p.attCount[i]))
		le.PutUint16(ent[attachmentExprSize:], uint16(p.attSize[i]))
		if f.Version >= Version407 {
			le.PutUint32(ent[attachmentHash:], a.NameHash.Value(Hash(a.Name)))
		}
	}
	if len(f.EnumRelocations) > 0 {
		e.attProps = make([][NumParamTypes]int, len(f.Attachments))
	}
	for i := range f.Attachments {
		a := &f.Attachments[i]
		if e.attProps != nil {
			e.attProps[i] = propBase
		}
		end := uint32(e.pos()) + a.EmptyEnd.Value(attachParamsSize)
		pb := e.grow(attachParamsSize)
		le.PutUint32(pb[attachParamsDebug:], a.Debug)
		for t := range NumParamTypes {
			o := attachParamsProperties + rangeSize*int(t)
			n := len(a.Properties.Of(t))
			le.PutUint32(pb[o+rangeBase:], uint32(propBase[t]))
			le.PutUint32(pb[o+rangeCount:], uint32(n))
			propBase[t] += n
		}
		// Empty (count, offset) pairs pointing past the block, as the game's files have.
		for j := range attachParamsEmptyPairs {
			le.PutUint32(pb[attachParamsEmpty+rangeSize*j+attachParamsEmptyEnd:], end)
		}
	}
}

func (e *encoder) multiInputs(p *layoutPlan) {
	e.patch32(hdrMulti, uint32(e.pos()))
	for _, s := range p.multi {
		e.u16(uint16(s.Node))
		e.u16(uint16(s.Output))
		e.u32(uint32(s.Flags))
	}
}

// jumpTable writes an array of offsets to the entries, then the entries. Header field 0x50
// holds the same offset in every known file.
func (e *encoder) jumpTable(p *layoutPlan) {
	e.patch32(hdrJumps, uint32(e.pos()))
	e.patch32(hdrX50, uint32(e.pos()))
	at := e.pos() + jumpOffsetSize*len(p.jumps)
	for _, j := range p.jumps {
		e.u32(uint32(at))
		at += jumpSize
		if j.Type == 0 {
			at += jumpCommandSize
		}
	}
	for _, j := range p.jumps {
		w := uint32(j.Type) | j.Reserved&jumpReservedMask
		if j.PostCalc {
			w |= jumpPostCalc
		}
		e.u32(w)
		if j.Type == 0 {
			e.str(j.Command)
		}
	}
}

// planQueries orders the query id table: as Layout.QueryOrder says when it names each element
// with queries exactly once, in element order otherwise. It returns the order and each
// element's first entry (0 for an element without queries).
func planQueries(f *File) (order, base []int) {
	base = make([]int, len(f.Elements))
	if l := f.Layout; l != nil && len(l.QueryOrder) > 0 {
		seen := make([]bool, len(f.Elements))
		n := 0
		for _, i := range l.QueryOrder {
			if i < 0 || i >= len(f.Elements) || seen[i] || len(f.Elements[i].Queries) == 0 {
				n = -1
				break
			}
			seen[i] = true
			n++
		}
		if n >= 0 {
			for i := range f.Elements {
				if len(f.Elements[i].Queries) > 0 && !seen[i] {
					n = -1
					break
				}
			}
		}
		if n >= 0 {
			order = l.QueryOrder
		}
	}
	if order == nil {
		for i := range f.Elements {
			if len(f.Elements[i].Queries) > 0 {
				order = append(order, i)
			}
		}
	}
	next := 0
	for _, i := range order {
		base[i] = next
		next += len(f.Elements[i].Queries)
	}
	return order, base
}

func (e *encoder) queryIDs(p *layoutPlan) {
	e.patch32(hdrQueryIDs, uint32(e.pos()))
	if l := e.f.Layout; l != nil && l.QueryShared {
		for _, q := range p.queryTable {
			e.u16(uint16(q))
			e.u16(0)
		}
		for l.QueryAlign8 && e.pos()%8 != 0 {
			e.u32(0)
		}
		return
	}
	for _, i := range p.queryOrder {
		for _, q := range e.f.Elements[i].Queries {
			e.u16(uint16(p.queryIdx[q]))
			e.u16(0)
		}
	}
}

// sharedQueries lays the query id table out as Layout.QueryShared says: in element order,
// each element's list of query indices found as a run of the table so far, or appended.
// It returns the table and each element's first entry.
func sharedQueries(f *File, queryIdx map[int]int) (table []int, base []int) {
	base = make([]int, len(f.Elements))
	var list []int
	for i := range f.Elements {
		qs := f.Elements[i].Queries
		if len(qs) == 0 {
			continue
		}
		list = list[:0]
		for _, q := range qs {
			list = append(list, queryIdx[q])
		}
		at := -1
		for s := 0; s+len(list) <= len(table); s++ {
			if slices.Equal(table[s:s+len(list)], list) {
				at = s
				break
			}
		}
		if at < 0 {
			at = len(table)
			table = append(table, list...)
		}
		base[i] = at
	}
	return table, base
}

func (e *encoder) expressions(p *layoutPlan) error {
	f := e.f
	if f.Expressions == nil {
		return nil
	}
	e.patch32(hdrExpressions, uint32(e.pos()))
	// Straight into the file's buffer: no copy of the binary.
	b, err := appendExpressions(e.buf, f.Expressions, p.instances)
	if err != nil {
		return fmt.Errorf("ainb: expression binary: %w", err)
	}
	e.buf = b
	return nil
}

// The small sections between the expression binary and the string pool, in file order.

func (e *encoder) modules() {
	e.patch32(hdrModules, uint32(e.pos()))
	e.u32(uint32(len(e.f.Modules)))
	for _, m := range e.f.Modules {
		e.str(m.Path)
		e.str(m.Category)
		e.u32(m.Instances)
	}
}

func (e *encoder) actions() {
	f := e.f
	e.patch32(hdrActions, uint32(e.pos()))
	n := 0
	for i := range f.Elements {
		n += len(f.Elements[i].Actions)
	}
	e.u32(uint32(n))
	for i := range f.Elements {
		for _, a := range f.Elements[i].Actions {
			e.u32(uint32(i))
			e.str(a.Slot)
			e.str(a.Action)
		}
	}
}

func (e *encoder) moduleLink() {
	e.patch32(hdrModuleLink, uint32(e.pos()))
	e.u32(e.f.BlackboardID)
	e.u32(e.f.ParentBlackboardID)
}

func (e *encoder) section58() {
	s := e.f.Section58
	if s == nil {
		return
	}
	e.patch32(hdrX58, uint32(e.pos()))
	e.str(s.Description)
	for _, u := range s.Unknown {
		e.u32(u)
	}
}

// stateInfos writes the 0x404 elements' state info records.
func (e *encoder) stateInfos() {
	f := e.f
	for i := range f.Elements {
		s := f.Elements[i].StateInfo
		if s == nil {
			continue
		}
		e.patch32(e.elementField(i, elementLayout(f.Version).state), uint32(e.pos()))
		e.str(s.DesiredState)
		for _, u := range s.Unknown {
			e.u32(u)
		}
	}
}

func (e *encoder) section6C() {
	f := e.f
	if !f.HasSection6C {
		return
	}
	e.patch32(hdrX6C, uint32(e.pos()))
	var v uint32
	if f.Layout != nil {
		v = f.Layout.Section6C
	}
	e.u32(v)
}

func (e *encoder) enumRelocations() {
	f := e.f
	e.patch32(hdrEnumReloc, uint32(e.pos()))
	e.u32(uint32(len(f.EnumRelocations)))
	for _, r := range f.EnumRelocations {
		if r.Target != nil {
			r.Offset = uint32(e.valueOffset(r.Target))
		}
		e.u32(r.Offset)
		e.str(r.ClassName)
		e.str(r.ValueName)
	}
}

func (e *encoder) plug(pl *Plug, layout PlugLayout, p *layoutPlan) {
	e.u32(uint32(pl.Node))
	if layout == LayoutJump {
		// Equal jumps share the first table entry.
		e.u32(uint32(p.jumpIndex[*pl.Jump]))
		return
	}
	if layout == LayoutRaw {
		e.u32(pl.Word)
		return
	}
	e.str(pl.Name)
	switch layout {
	case LayoutWordInt:
		e.u32(pl.Word)
		e.u32(uint32(pl.Int))
	case LayoutWordFloat:
		e.u32(pl.Word)
		e.f32(pl.Float)
	case LayoutWordString:
		e.u32(pl.Word)
		e.str(pl.String)
	case LayoutWordVec3:
		e.u32(pl.Word)
		for _, v := range pl.Vec {
			e.f32(v)
		}
	case LayoutF32Range:
		e.u32(pl.Word)
		e.f32(pl.Float)
		e.u32(pl.MaxWord)
		e.f32(pl.MaxFloat)
		for _, r := range pl.Reserved {
			e.u32(r)
		}
	}
}

func (e *encoder) blackboard() {
	f := e.f
	e.patch32(hdrBlackboard, uint32(e.pos()))
	slots := blackboardTypes(f.Version)
	index, pos := 0, 0
	for s := range slots {
		ps := f.Blackboard.Params[blackboardType(f.Version, s)]
		e.u16(uint16(len(ps)))
		e.u16(uint16(index))
		e.u16(uint16(pos))
		var reserved uint16
		if r := f.Blackboard.Reserved; r != nil {
			reserved = r[blackboardType(f.Version, s)]
		}
		e.u16(reserved)
		index += len(ps)
		switch blackboardType(f.Version, s) {
		case BBVec3f:
			pos += bbVec3fSize * len(ps)
		case BBPointer:
		default:
			pos += bbValueSize * len(ps)
		}
	}
	var refs []string
	refIndex := map[string]int{}
	for s := range slots {
		for _, bp := range f.Blackboard.Params[blackboardType(f.Version, s)] {
			w := e.packedOffset(bp.Name, bbInheritBit, "blackboard parameter name") | uint32(bp.Inherit&3)<<bbInheritBit
			if bp.File != "" {
				ri, ok := refIndex[bp.File]
				if !ok {
					ri = len(refs)
					refIndex[bp.File] = ri
					refs = append(refs, bp.File)
				}
				w |= bbHasRef | uint32(ri&bbRefIndex)<<bbRefIndexBit
			}
			e.u32(w)
			e.str(bp.Notes)
		}
	}
	for s := range slots {
		t := blackboardType(f.Version, s)
		for _, bp := range f.Blackboard.Params[t] {
			switch t {
			case BBString:
				e.str(bp.Value.String)
			case BBS32, BBU32, BBBool:
				e.u32(uint32(bp.Value.Int))
			case BBF32:
				e.f32(bp.Value.Float)
			case BBVec3f:
				e.vec3(bp.Value.Vec)
			}
		}
	}
	for _, r := range refs {
		e.str(r)
		e.u32(Hash(r))
		base := path.Base(r)
		e.u32(Hash(strings.TrimSuffix(base, path.Ext(base))))
		e.u32(Hash(strings.ReplaceAll(path.Ext(r), ".", "")))
	}
}

func (e *encoder) propertyTable() {
	f := e.f
	e.patch32(hdrProperties, uint32(e.pos()))
	at := e.pos() + tableOffsetsSize*int(NumParamTypes)
	var all [NumParamTypes]int
	for t := range NumParamTypes {
		for i := range f.Elements {
			all[t] += len(f.Elements[i].Properties.Of(t))
		}
		for i := range f.Attachments {
			all[t] += len(f.Attachments[i].Properties.Of(t))
		}
		e.u32(uint32(at))
		e.propAt[t] = at
		at += all[t] * propertySizes[t]
	}
	write := func(t ParamType, pr *Property) {
		e.str(pr.Name)
		if t == ParamPointer {
			e.str(pr.ClassName)
		}
		e.u32(uint32(pr.Flags))
		e.value(t, pr.Value)
	}
	for t := range NumParamTypes {
		for i := range f.Elements {
			props := f.Elements[i].Properties.Of(t)
			for j := range props {
				write(t, &props[j])
			}
		}
		for i := range f.Attachments {
			props := f.Attachments[i].Properties.Of(t)
			for j := range props {
				write(t, &props[j])
			}
		}
	}
}

func (e *encoder) ioTable(p *layoutPlan) {
	f := e.f
	e.patch32(hdrIO, uint32(e.pos()))
	at := e.pos() + 2*tableOffsetsSize*int(NumParamTypes)
	for t := range NumParamTypes {
		nIn, nOut := 0, 0
		for i := range f.Elements {
			nIn += len(f.Elements[i].Inputs.Of(t))
			nOut += len(f.Elements[i].Outputs.Of(t))
		}
		e.u32(uint32(at))
		e.inAt[t] = at
		at += nIn * inputSizes[t]
		e.u32(uint32(at))
		at += nOut * outputSizes[t]
	}
	shared := f.Layout != nil && f.Layout.MultiByElement
	next := 0 // the game's windows follow each other in this order (multiSources)
	for t := range NumParamTypes {
		for i := range f.Elements {
			inList := f.Elements[i].Inputs.Of(t)
			for j := range inList {
				in := &inList[j]
				e.str(in.Name)
				if t == ParamPointer {
					e.str(in.ClassName)
				}
				src := in.Source
				if in.IsMulti() {
					base := next
					if shared {
						base = p.multiWindow(in.Sources)
					}
					next += len(in.Sources)
					src.Node = int16(sourceMultiBase - base)
					src.Output = int16(len(in.Sources))
				} else if in.SetBlackboard {
					src.Output = int16(uint16(src.Output) | sourceSetBB)
				}
				e.u16(uint16(src.Node))
				e.u16(uint16(src.Output))
				e.u32(uint32(src.Flags))
				if t == ParamPointer {
					e.u32(in.PointerValue)
				} else {
					e.value(t, in.Value)
				}
			}
		}
		for i := range f.Elements {
			for _, o := range f.Elements[i].Outputs.Of(t) {
				w := e.packedOffset(o.Name, outputNameBits, "output name")
				if o.Connected {
					w |= outputConnected
				}
				e.u32(w)
				if t == ParamPointer {
					e.str(o.ClassName)
				}
			}
		}
	}
}

func (e *encoder) replacementTable() {
	f := e.f
	e.patch32(hdrReplacement, uint32(e.pos()))
	t := f.Replacement
	if t == nil {
		t = &ReplacementTable{}
	}
	e.u8(t.Processed)
	e.u8(t.Reserved01)
	e.u16(uint16(len(t.Entries)))
	nodes, attachments := f.ReplacedCounts()
	if l := f.Layout; l != nil {
		nodes, attachments = l.ReplacedElements.Value(nodes), l.ReplacedAttachments.Value(attachments)
	}
	e.u16(uint16(nodes))
	e.u16(uint16(attachments))
	for _, r := range t.Entries {
		e.u8(uint8(r.Type))
		e.u8(r.Reserved01)
		e.u16(uint16(r.Element))
		e.u16(uint16(r.Index))
		e.u16(uint16(r.New))
	}
}

// valueOffset is where the value a ValueRef names was written. Validate has checked the ref.
func (e *encoder) valueOffset(v *ValueRef) int {
	t := v.Type
	gi := v.Index
	if v.Input {
		gi += e.elemInputs[v.Element][t]
		return e.inAt[t] + gi*inputSizes[t] + inputValue
	}
	if v.Element >= 0 {
		gi += e.elemProps[v.Element][t]
	} else {
		gi += e.attProps[v.Attachment][t]
	}
	return e.propAt[t] + gi*propertySizes[t] + propertyValue
}
