package ainb

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"ainbeditor/internal/chunk"
	"ainbeditor/internal/exb"
)

// FormatError reports a malformed file: the section being read and the file offset.
type FormatError struct {
	Section string
	Offset  int64 // from the start of the file, also for errors found inside a nested format
	Msg     string
	// Err is the error of the nested format's reader (an *exb.FormatError, whose offset
	// counts from the start of the expression binary), or nil.
	Err error
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("ainb: %s at offset %#x: %s", e.Section, e.Offset, e.Msg)
}

func (e *FormatError) Unwrap() error { return e.Err }

var le = binary.LittleEndian

// decoder reads one file. The first error sticks: later reads return zero values, so the
// section readers can stay linear and check d.err at loop heads.
type decoder struct {
	b       []byte
	version uint32
	section string
	err     error
	pool    []byte
	// poolText is pool as one string: every string read from the pool is a substring of it,
	// one allocation for the whole pool instead of one per string.
	poolText string
	// starts and strings index the pool's strings by offset; tails caches strings that
	// start inside another one. firstIn[k] is the index in starts of the first string
	// starting at or after byte k*startBlock, so a lookup searches one block's few starts
	// instead of all of them.
	starts  []uint32
	strings []string
	firstIn []uint32
	tails   map[uint32]string
	// Where each type's property and input entries start, and where each element's and
	// attachment's ranges begin in them: enum relocations are resolved against these.
	propAt, inAt          [NumParamTypes]uint32
	lens                  [2][NumParamTypes]int // property and input entries per type
	elemProps, elemInputs [][NumParamTypes]tableRange
	attProps              [][NumParamTypes]tableRange
	queryRanges           []queryRange // of the elements with queries, in element order
	// Where the element entries start and how many there are, and where the attachment id
	// array starts: a plug's room is measured against them (plugRoom).
	elemStart, nElements int
	attachIDs            uint32
	multi                []Source // the multi-input array as stored
	// multiSequential says each multi-input's window follows the previous one's, in input
	// table order, multiNext being where the next would begin: how the game lays them out.
	multiSequential bool
	multiNext       uint32
	// budget bounds the table entries elements may copy (entries are 4 bytes or more, so a
	// file without overlapping ranges copies at most a quarter of its size): ranges that overlap
	// without end would otherwise make a small file allocate quadratically.
	budget int
	// text bounds the bytes of the strings the file's references hand out, each reference
	// counted: references are 4 bytes, so one long name referenced everywhere would
	// otherwise turn a small file into a reply, a dump or a document a thousand times its
	// size. Files in the corpus hand out under a quarter of their size.
	text int
	// Shared arrays for the elements' plugs and id lists.
	plugs chunk.Of[Plug]
	ints  chunk.Of[int]
	// Blocks for the elements' grouped lists.
	propBlocks   Blocks[Property]
	inputBlocks  Blocks[Input]
	outputBlocks Blocks[Output]
	plugBlocks   Blocks[Plug]
}

func (d *decoder) fail(off int, format string, args ...any) {
	if d.err == nil {
		d.err = &FormatError{Section: d.section, Offset: int64(off), Msg: fmt.Sprintf(format, args...)}
	}
}

// nested records the error of a nested format's reader for the section at base, at the
// absolute offset of the byte it names.
func (d *decoder) nested(base int, err error) {
	if d.err != nil {
		return
	}
	fe := &FormatError{Section: d.section, Offset: int64(base), Msg: err.Error(), Err: err}
	var xe *exb.FormatError
	if errors.As(err, &xe) {
		fe.Offset += xe.Offset
		fe.Msg = fmt.Sprintf("%s at %#x in the section: %s", xe.Section, xe.Offset, xe.Msg)
	}
	d.err = fe
}

// need checks that n bytes are there at off.
func (d *decoder) need(off, n int) bool {
	if d.err != nil {
		return false
	}
	if off < 0 || n < 0 || off > len(d.b) || len(d.b)-off < n {
		d.fail(off, "%d bytes needed, file ends at %#x", n, len(d.b))
		return false
	}
	return true
}

func (d *decoder) u8(off int) uint8 {
	if !d.need(off, 1) {
		return 0
	}
	return d.b[off]
}

func (d *decoder) u16(off int) uint16 {
	if !d.need(off, 2) {
		return 0
	}
	return binary.LittleEndian.Uint16(d.b[off:])
}

func (d *decoder) u32(off int) uint32 {
	if !d.need(off, 4) {
		return 0
	}
	return binary.LittleEndian.Uint32(d.b[off:])
}

func (d *decoder) f32(off int) F32 { return F32(math.Float32frombits(d.u32(off))) }

func (d *decoder) vec3(off int) Vec3f {
	return Vec3f{d.f32(off), d.f32(off + 4), d.f32(off + 8)}
}

func (d *decoder) guid(off int) (g GUID) {
	if d.need(off, 16) {
		copy(g[:], d.b[off:off+16])
	}
	return g
}

// record is a sequential reader of one fixed-size record, bounds-checked once: its reads
// follow the record's fields in order, as the writer appends them. After a failed check
// every read returns zero.
type record struct {
	d  *decoder
	at int    // file offset of b[0]
	b  []byte // the fields not read yet
}

// record starts reading the size-byte record at off.
func (d *decoder) record(off, size int) record {
	if !d.need(off, size) {
		return record{d: d, at: off}
	}
	return record{d: d, at: off, b: d.b[off : off+size]}
}

func (r *record) u8() uint8 {
	if len(r.b) < 1 {
		return 0
	}
	v := r.b[0]
	r.at, r.b = r.at+1, r.b[1:]
	return v
}

func (r *record) u16() uint16 {
	if len(r.b) < 2 {
		return 0
	}
	v := le.Uint16(r.b)
	r.at, r.b = r.at+2, r.b[2:]
	return v
}

func (r *record) u32() uint32 {
	if len(r.b) < 4 {
		return 0
	}
	v := le.Uint32(r.b)
	r.at, r.b = r.at+4, r.b[4:]
	return v
}

func (r *record) f32() F32 { return F32(math.Float32frombits(r.u32())) }

// str reads a string offset and resolves it.
func (r *record) str() string {
	at := r.at
	if len(r.b) < 4 {
		return ""
	}
	return r.d.strAt(at, r.u32())
}

// strAt resolves a string pool offset.
func (d *decoder) strAt(off int, at uint32) string {
	if d.err != nil {
		return ""
	}
	if k := int(at / startBlock); k+1 < len(d.firstIn) {
		for i := d.firstIn[k]; i < d.firstIn[k+1]; i++ {
			if d.starts[i] == at {
				return d.handOut(off, d.strings[i])
			}
		}
	}
	if s, ok := d.tails[at]; ok {
		return d.handOut(off, s)
	}
	if int64(at) >= int64(len(d.pool)) {
		d.fail(off, "string offset %#x outside the string pool (%d bytes)", at, len(d.pool))
		return ""
	}
	end := bytes.IndexByte(d.pool[at:], 0)
	if end < 0 {
		d.fail(off, "string at pool offset %#x has no terminating NUL", at)
		return ""
	}
	s := d.poolText[at : int(at)+end]
	if d.tails == nil {
		d.tails = make(map[uint32]string)
	}
	d.tails[at] = s
	return d.handOut(off, s)
}

// MaxTextRatio and MaxTextBase bound the bytes of strings a file's references hand out:
// MaxTextBase plus MaxTextRatio times the file's size.
const (
	MaxTextRatio = 16
	MaxTextBase  = 1 << 20
)

// handOut charges s, read by the reference at off, to the text budget.
func (d *decoder) handOut(off int, s string) string {
	if d.text -= len(s); d.text < 0 {
		d.fail(off, "string references hand out more than %d bytes of text (1 MiB and %d times the file's size): the file would expand without bound", MaxTextBase+MaxTextRatio*len(d.b), MaxTextRatio)
		return ""
	}
	return s
}

// str reads a u32 string offset at off and resolves it.
func (d *decoder) str(off int) string { return d.strAt(off, d.u32(off)) }

// span checks that the section [start, end) lies inside the file and returns its length.
func (d *decoder) span(start, end uint32) int {
	if d.err != nil {
		return 0
	}
	if start > end {
		d.fail(int(start), "section ends at %#x, before it starts", end)
		return 0
	}
	if int64(end) > int64(len(d.b)) {
		d.fail(int(start), "section end %#x is past the end of the file (%#x)", end, len(d.b))
		return 0
	}
	return int(end - start)
}

// count checks that n entries of size bytes fit at off.
func (d *decoder) count(off int, n uint32, size int) int {
	if d.err != nil {
		return 0
	}
	if int64(off) < 0 || int64(off) > int64(len(d.b)) || int64(n)*int64(size) > int64(len(d.b)-off) {
		d.fail(off, "%d entries of %d bytes do not fit in the file", n, size)
		return 0
	}
	return int(n)
}

// Read parses an AINB file.
func Read(b []byte) (*File, error) {
	d := &decoder{b: b, section: "header", budget: len(b) / 2, text: MaxTextBase + MaxTextRatio*len(b), multiSequential: true}
	var h header
	f := d.header(&h)
	if d.err != nil {
		return nil, d.err
	}
	var t tables
	d.sections(f, &h, &t)
	if d.err != nil {
		return nil, d.err
	}
	d.resolve(f, &t)
	if d.err != nil {
		return nil, d.err
	}
	d.keptCounts(f, &h, &t)
	return f, nil
}

// sharedQueries records a query id table laid out by the modding tool that shares runs of
// it (Layout.QueryShared), when the game's layout does not give the stored ranges and that
// tool's does.
func (d *decoder) sharedQueries(f *File, h *header, t *tables) {
	if len(d.queryRanges) == 0 {
		return
	}
	_, base := planQueries(f)
	used := 0
	game := true
	for _, r := range d.queryRanges {
		game = game && base[r.elem] == int(r.base)
		used += int(r.n)
	}
	if game && used == len(t.queryIDs) {
		return
	}
	queryIdx := make(map[int]int)
	for i := range f.Elements {
		if f.Elements[i].Flags&FlagQuery != 0 {
			queryIdx[i] = len(queryIdx)
		}
	}
	table, shared := sharedQueries(f, queryIdx)
	if len(table) > len(t.queryIDs) {
		return
	}
	for _, r := range d.queryRanges {
		if shared[r.elem] != int(r.base) {
			return
		}
	}
	for i, q := range t.queryIDs {
		if (i < len(table) && int(q) != table[i]) || (i >= len(table) && q != 0) {
			return
		}
	}
	// Unpadded, or padded to 8 as that tool pads.
	pad := len(t.queryIDs) - len(table)
	if end := int(h.queryIDs) + queryIDSize*len(table); pad != 0 && pad != (8-end%8)%8/queryIDSize {
		return
	}
	f.Layout.QueryShared, f.Layout.QueryAlign8, f.Layout.QueryOrder = true, pad > 0, nil
}

// keptCounts records the counts the file stored otherwise than the writer derives them.
func (d *decoder) keptCounts(f *File, h *header, t *tables) {
	l := elementLayout(d.version)
	links, exprSize := make([]uint32, len(f.Elements)), make([]uint32, len(f.Elements))
	var hashes []uint32
	if l.hash >= 0 {
		hashes = make([]uint32, len(f.Elements))
	}
	for i := range f.Elements {
		ent := d.b[t.elements+i*l.size:]
		links[i], exprSize[i] = uint32(le.Uint16(ent[l.links:])), uint32(le.Uint16(ent[l.exprSize:]))
		if hashes != nil {
			hashes[i] = le.Uint32(ent[l.hash:])
		}
	}
	var replElements, replAttachments uint32
	if f.Replacement != nil {
		r := d.record(int(h.replacement)+replacementCount+2, 4)
		replElements, replAttachments = uint32(r.u16()), uint32(r.u16())
	}
	f.keptCounts(links, exprSize, hashes, h.queries, d.u32(hdrOutputElements), replElements, replAttachments)
	d.sharedQueries(f, h, t)
	// The game gives every multi-input a window of its own, by param type; the reference
	// writer lists them element by element and lets equal lists share the first window.
	if len(d.multi) > 0 && !(d.multiSequential && int(d.multiNext) == len(d.multi)) && f.multiSourcesAre(true, d.multi) {
		f.Layout.MultiByElement = true
	}
}

// ExpressionSection returns the expression binary of an AINB file (its bytes, not a copy),
// or nil when the file has none. It reads only the header.
func ExpressionSection(b []byte) ([]byte, error) {
	d := &decoder{b: b, section: "header"}
	if len(b) < headerSize {
		d.fail(0, "file is %d bytes, shorter than the %#x-byte header", len(b), headerSize)
		return nil, d.err
	}
	off, end := d.u32(hdrExpressions), d.u32(hdrModules)
	if off == 0 {
		return nil, nil
	}
	d.section = "expression binary"
	size := d.span(off, end)
	if d.err != nil {
		return nil, d.err
	}
	return b[off : int(off)+size], nil
}

// header reads the file header into h and splits the string pool, which every later string
// reference resolves against. It returns a File with the header's fields filled in.
func (d *decoder) header(h *header) *File {
	if len(d.b) < headerSize {
		d.fail(0, "file is %d bytes, shorter than the %#x-byte header", len(d.b), headerSize)
		return nil
	}
	if string(d.b[hdrMagic:hdrMagic+4]) != "AIB " {
		d.fail(hdrMagic, "magic is %q, want \"AIB \"", d.b[hdrMagic:hdrMagic+4])
		return nil
	}
	*h = header{
		version: d.u32(hdrVersion), filename: d.u32(hdrFilename),
		commands: d.u32(hdrCommands), elements: d.u32(hdrElements), queries: d.u32(hdrQueries),
		attachments: d.u32(hdrAttachmentN), blackboard: d.u32(hdrBlackboard),
		stringPool: d.u32(hdrStringPool), enumRelocation: d.u32(hdrEnumReloc),
		properties: d.u32(hdrProperties), jumps: d.u32(hdrJumps), io: d.u32(hdrIO),
		multiInputs: d.u32(hdrMulti), attachmentArray: d.u32(hdrAttachments),
		attachmentIDs: d.u32(hdrAttachIDs), expressions: d.u32(hdrExpressions),
		replacement: d.u32(hdrReplacement), queryIDs: d.u32(hdrQueryIDs),
		x50: d.u32(hdrX50), x54: d.u32(hdrX54), x58: d.u32(hdrX58), modules: d.u32(hdrModules),
		categoryName: d.u32(hdrCategoryName), category: d.u32(hdrCategory),
		actions: d.u32(hdrActions), x6c: d.u32(hdrX6C), moduleLink: d.u32(hdrModuleLink),
	}
	switch h.version {
	case Version404, Version407, Version408:
	default:
		d.fail(hdrVersion, "unsupported version %#x (want 0x404, 0x407 or 0x408)", h.version)
		return nil
	}
	d.version = h.version

	d.section = "string pool"
	if int64(h.stringPool) > int64(len(d.b)) || h.stringPool < headerSize {
		d.fail(hdrStringPool, "string pool offset %#x outside the file", h.stringPool)
		return nil
	}
	d.pool = d.b[h.stringPool:]
	if n := bytes.Count(d.pool, []byte{0}); n > maxStrings {
		d.fail(int(h.stringPool), "string pool holds %d strings, more than the %d this reader accepts", n, maxStrings)
		return nil
	}
	f := &File{Version: h.version, CategoryID: h.category, Layout: d.splitPool()}
	d.section = "header"
	f.Filename = d.strAt(hdrFilename, h.filename)
	f.Category = d.strAt(hdrCategoryName, h.categoryName)
	f.Layout.Header54 = h.x54
	return f
}

// sections reads every section into f, and into t the file-wide tables elements index into.
func (d *decoder) sections(f *File, h *header, t *tables) {
	f.Commands = d.commands(h.commands)
	t.elements = headerSize + len(f.Commands)*commandSize
	d.section = "elements"
	t.nElements = d.count(t.elements, h.elements, elementSize(d.version))
	d.elemStart, d.nElements, d.attachIDs = t.elements, t.nElements, h.attachmentIDs

	f.EnumRelocations = d.enumRelocations(h.enumRelocation)
	f.Blackboard = d.blackboard(h.blackboard)
	if h.expressions != 0 {
		f.Expressions = d.expressions(h.expressions, h.modules)
	}
	t.props = d.propertyTable(h.properties, h.io)
	f.Attachments = d.attachments(h.attachmentArray, h.attachments, &t.props)
	t.attachmentIDs = d.attachmentIDs(h.attachmentIDs, h.attachmentArray, len(f.Attachments))
	multi := d.multiInputs(h.multiInputs, h.jumps)
	d.multi = multi
	t.inputs, t.outputs = d.ioTable(h.io, h.multiInputs, multi)
	if h.jumps < h.queryIDs {
		t.jumps = d.jumpTable(h.jumps, h.queryIDs)
	}
	queryEnd := h.modules
	if h.expressions != 0 {
		queryEnd = h.expressions
	}
	t.queryIDs = d.queryIDs(h.queryIDs, queryEnd)
	t.actions = d.actions(h.actions)
	f.Modules = d.modules(h.modules)
	f.BlackboardID, f.ParentBlackboardID = d.moduleLink(h.moduleLink)
	if d.version >= Version407 {
		f.Replacement = d.replacementTable(h.replacement)
	}
	if h.x58 != 0 {
		f.Section58 = d.section58(h.x58)
	}
	if h.x6c != 0 {
		f.HasSection6C = true
		f.Layout.Section6C = d.section6C(h.x6c)
	}
}

// resolve reads the elements, which index into the tables, then points what refers to
// elements or values at them: enum relocations at the values they patch, queries at elements.
func (d *decoder) resolve(f *File, t *tables) {
	d.section = "elements"
	esize := elementSize(d.version)
	f.Elements = make([]Element, t.nElements)
	if len(f.EnumRelocations) > 0 { // only resolving relocations reads the ranges
		d.elemProps = make([][NumParamTypes]tableRange, t.nElements)
		d.elemInputs = make([][NumParamTypes]tableRange, t.nElements)
	}
	for i := range f.Elements {
		d.element(&f.Elements[i], t.elements+i*esize, i, t)
		if d.err != nil {
			return
		}
	}
	for i := range f.EnumRelocations {
		f.EnumRelocations[i].Target = d.valueAt(f, f.EnumRelocations[i].Offset)
	}
	// Query ids count query elements only; the model refers to elements.
	var queryElems []int
	for i := range f.Elements {
		if f.Elements[i].Flags&FlagQuery != 0 {
			queryElems = append(queryElems, i)
		}
	}
	for i := range f.Elements {
		e := &f.Elements[i]
		for j, q := range e.Queries {
			if q >= len(queryElems) {
				d.fail(t.elements+i*esize, "element %d reads query %d, but the file has %d query elements", i, q, len(queryElems))
				return
			}
			e.Queries[j] = queryElems[q]
		}
	}
	f.Layout.Tails = d.tailStrings()
	f.Layout.QueryOrder = queryOrder(d.queryRanges)
}

func (d *decoder) commands(count uint32) []Command {
	d.section = "commands"
	n := d.count(headerSize, count, commandSize)
	out := make([]Command, n)
	for i := range out {
		off := headerSize + i*commandSize
		c := &out[i]
		c.Name = d.str(off + commandName)
		c.GUID = d.guid(off + commandGUID)
		c.Root = int(d.u16(off + commandRoot))
		c.Secondary = int(d.u16(off+commandSecondary)) - 1
	}
	return out
}

func (d *decoder) expressions(off, end uint32) *exb.Module {
	d.section = "expression binary"
	size := d.span(off, end)
	if d.err != nil {
		return nil
	}
	m, err := exb.Read(d.b[off : int(off)+size])
	if err != nil {
		d.nested(int(off), err)
	}
	return m
}

func (d *decoder) attachmentIDs(off, end uint32, attachments int) []uint32 {
	d.section = "attachment id array"
	ids := make([]uint32, d.span(off, end)/attachmentIDSize)
	for i := range ids {
		at := int(off) + attachmentIDSize*i
		ids[i] = d.u32(at)
		if d.err == nil && int(ids[i]) >= attachments {
			d.fail(at, "attachment id %d out of range (%d attachments)", ids[i], attachments)
		}
	}
	return ids
}

func (d *decoder) queryIDs(off, end uint32) []uint16 {
	d.section = "query id array"
	ids := make([]uint16, d.span(min(off, end), end)/queryIDSize)
	for i := range ids {
		ids[i] = d.u16(int(off) + queryIDSize*i)
	}
	return ids
}

func (d *decoder) moduleLink(off uint32) (id, parent uint32) {
	d.section = "module caller link"
	r := d.record(int(off), moduleLinkSize)
	return r.u32(), r.u32()
}

func (d *decoder) section58(off uint32) *Section58 {
	d.section = "section 0x58"
	r := d.record(int(off), section58Size)
	s := &Section58{Description: r.str()}
	for i := range s.Unknown {
		s.Unknown[i] = r.u32()
	}
	return s
}

func (d *decoder) section6C(off uint32) uint32 {
	d.section = "section 0x6c"
	r := d.record(int(off), section6CSize)
	return r.u32()
}

// queryRange is where an element's query ids are in the query id table.
type queryRange struct {
	elem    int
	base, n uint32
}

// queryOrder is the order of the elements' ranges in the query id table when they follow
// each other without gap or overlap in an order other than the elements'; nil when they are
// in element order (what the writer does by default) or laid out some other way, which the
// writer cannot reproduce.
func queryOrder(rs []queryRange) []int {
	inOrder := true
	for i := 1; i < len(rs); i++ {
		if rs[i].base < rs[i-1].base {
			inOrder = false
			break
		}
	}
	if inOrder {
		return nil
	}
	rs = slices.Clone(rs)
	slices.SortStableFunc(rs, func(a, b queryRange) int { return cmp.Compare(a.base, b.base) })
	order := make([]int, len(rs))
	next := uint32(0)
	for i, r := range rs {
		if r.base != next {
			return nil
		}
		next += r.n
		order[i] = r.elem
	}
	return order
}

// tailStrings lists the distinct strings the file referenced inside a longer pool string, by
// offset, or nil when it referenced none.
func (d *decoder) tailStrings() []string {
	if len(d.tails) == 0 {
		return nil
	}
	offs := make([]uint32, 0, len(d.tails))
	for at := range d.tails {
		offs = append(offs, at)
	}
	slices.Sort(offs)
	seen := make(map[string]bool, len(offs))
	tails := make([]string, 0, len(offs))
	for _, at := range offs {
		if s := d.tails[at]; !seen[s] {
			seen[s] = true
			tails = append(tails, s)
		}
	}
	return tails
}

// splitPool records the strings of the pool in order, and indexes them both ways: by offset
// for the reader and by value for the writer.
func (d *decoder) splitPool() *Layout {
	n := bytes.Count(d.pool, []byte{0})
	l := &Layout{Strings: make([]string, 0, n)}
	x := &poolIndex{unique: true}
	x.table.init(n)
	d.starts = make([]uint32, 0, n)
	pool := d.pool
	d.poolText = string(pool)
	at := uint32(0)
	for len(pool) > 0 {
		i := bytes.IndexByte(pool, 0)
		if i < 0 {
			// A pool without a final NUL: the tail is not a string anyone can reference.
			break
		}
		s := d.poolText[at : int(at)+i]
		l.Strings = append(l.Strings, s)
		d.starts = append(d.starts, at)
		if !x.table.insert(d.poolText, s, at) {
			x.unique = false
		}
		at += uint32(i + 1)
		pool = pool[i+1:]
	}
	d.strings = l.Strings
	d.firstIn = make([]uint32, 0, len(d.pool)/startBlock+2)
	for i, at := range d.starts {
		for len(d.firstIn)*startBlock <= int(at) {
			d.firstIn = append(d.firstIn, uint32(i))
		}
	}
	for len(d.firstIn) < cap(d.firstIn) {
		d.firstIn = append(d.firstIn, uint32(len(d.starts)))
	}
	x.strings, x.size, x.text = l.Strings, int(at), d.poolText
	l.index = x
	return l
}

// startBlock is the pool bytes one firstIn entry covers: strings of names average
// more than this, so a block holds one or two starts.
const startBlock = 16

// maxStrings bounds the string pool: each string costs a header in memory, so a pool of
// empty strings would otherwise cost 16 times its size.
const maxStrings = 1 << 20

// value reads an immediate value of type t at off.
func (d *decoder) value(t ParamType, off int) (v Value) {
	switch t {
	case ParamInt, ParamBool:
		v.Int = int32(d.u32(off))
	case ParamFloat:
		v.Float = d.f32(off)
	case ParamString:
		v.String = d.str(off)
	case ParamVec3f:
		v.Vec = d.vec3(off)
	}
	return v
}

func (d *decoder) propertyTable(off, end uint32) (props [NumParamTypes][]Property) {
	d.section = "property table"
	var offs [NumParamTypes + 1]uint32
	for t := range NumParamTypes {
		offs[t] = d.u32(int(off) + tableOffsetsSize*int(t))
	}
	offs[NumParamTypes] = end
	for t := range NumParamTypes {
		n := d.span(offs[t], offs[t+1]) / propertySizes[t]
		d.propAt[t], d.lens[0][t] = offs[t], n
		props[t] = make([]Property, n)
		for i := range props[t] {
			p := &props[t][i]
			at := int(offs[t]) + i*propertySizes[t]
			p.Name = d.str(at)
			at += nameSize
			if t == ParamPointer {
				p.ClassName = d.str(at)
				at += nameSize
			}
			p.Flags = ParamFlags(d.u32(at))
			p.Value = d.value(t, at+flagsSize)
		}
	}
	return props
}

// sliceOf returns table[base:base+n] after checking the range.
func sliceOf[T any](d *decoder, off int, what string, table []T, base, n uint32) []T {
	if d.err != nil {
		return nil
	}
	if uint64(base)+uint64(n) > uint64(len(table)) {
		d.fail(off, "%s %d..%d out of range (%d entries)", what, base, uint64(base)+uint64(n), len(table))
		return nil
	}
	if n == 0 {
		return nil
	}
	if d.budget -= int(n); d.budget < 0 {
		d.fail(off, "%s: table ranges overlap more than the file size allows", what)
		return nil
	}
	// Elements share the table's backing array; the capacity limit keeps an append to one
	// element's list from writing into the next one's.
	return table[base : base+n : base+n]
}

func (d *decoder) attachments(off, count uint32, props *[NumParamTypes][]Property) []Attachment {
	d.section = "attachments"
	size := attachmentSize(d.version)
	n := d.count(int(off), count, size)
	out := make([]Attachment, n)
	d.attProps = make([][NumParamTypes]tableRange, n)
	for i := range out {
		a := &out[i]
		at := int(off) + i*size
		a.Name = d.str(at + attachmentName)
		params := int(d.u32(at + attachmentParams))
		a.Debug = d.u32(params + attachParamsDebug)
		var lists [NumParamTypes][]Property
		for t := range NumParamTypes {
			o := params + attachParamsProperties + rangeSize*int(t)
			base, cnt := d.u32(o+rangeBase), d.u32(o+rangeCount)
			lists[t] = sliceOf(d, o, "attachment properties", props[t], base, cnt)
			d.attProps[i][t] = tableRange{base, uint32(len(lists[t]))}
		}
		a.Properties = GroupsIn[ParamType](&d.propBlocks, &lists)
		// The empty pairs all point at one place; where, from the block's start, is kept.
		end := d.u32(params+attachParamsEmpty+attachParamsEmptyEnd) - uint32(params)
		a.EmptyEnd = Keep(attachParamsSize, end)
		if d.version >= Version407 {
			a.NameHash = Keep(Hash(a.Name), d.u32(at+attachmentHash))
		}
		if d.err != nil {
			return nil
		}
	}
	return out
}

func (d *decoder) multiInputs(off, end uint32) []Source {
	d.section = "multi-input array"
	out := make([]Source, d.span(off, end)/multiSourceSize)
	for i := range out {
		r := d.record(int(off)+multiSourceSize*i, multiSourceSize)
		out[i] = Source{Node: int16(r.u16()), Output: int16(r.u16()), Flags: ParamFlags(r.u32())}
	}
	return out
}

func (d *decoder) ioTable(off, end uint32, multi []Source) (inputs [NumParamTypes][]Input, outputs [NumParamTypes][]Output) {
	d.section = "input/output table"
	var offs [2*NumParamTypes + 1]uint32
	for i := range 2 * NumParamTypes {
		offs[i] = d.u32(int(off) + tableOffsetsSize*int(i))
	}
	offs[2*NumParamTypes] = end
	for t := range NumParamTypes {
		in := make([]Input, d.span(offs[2*t], offs[2*t+1])/inputSizes[t])
		d.inAt[t], d.lens[1][t] = offs[2*t], len(in)
		for i := range in {
			p := &in[i]
			at := int(offs[2*t]) + i*inputSizes[t]
			p.Name = d.str(at)
			at += nameSize
			if t == ParamPointer {
				p.ClassName = d.str(at)
				at += nameSize
			}
			src := Source{Node: int16(d.u16(at + sourceNode)), Output: int16(d.u16(at + sourceOutput)), Flags: ParamFlags(d.u32(at + sourceFlags))}
			if t == ParamPointer {
				p.PointerValue = d.u32(at + sourceSize)
			} else {
				p.Value = d.value(t, at+sourceSize)
			}
			switch {
			case src.Node <= sourceMultiBase:
				// A multi-input: the node field holds -100 - base and the output field the count.
				base, cnt := uint32(sourceMultiBase-int(src.Node)), uint32(uint16(src.Output))
				d.multiSequential = d.multiSequential && base == d.multiNext
				d.multiNext += cnt
				p.Sources = sliceOf(d, at, "multi-input sources", multi, base, cnt)
				if p.Sources == nil {
					p.Sources = []Source{}
				}
				p.Source = Source{Flags: src.Flags}
			case src.Output < 0:
				src.Output = int16(uint16(src.Output) &^ sourceSetBB)
				p.SetBlackboard = true
				p.Source = src
			default:
				p.Source = src
			}
		}
		inputs[t] = in
		o := make([]Output, d.span(offs[2*t+1], offs[2*t+2])/outputSizes[t])
		for i := range o {
			at := int(offs[2*t+1]) + i*outputSizes[t]
			w := d.u32(at)
			o[i].Name = d.strAt(at, w&outputNameMask)
			o[i].Connected = w&outputConnected != 0
			if t == ParamPointer {
				o[i].ClassName = d.str(at + nameSize)
			}
		}
		outputs[t] = o
	}
	return inputs, outputs
}

// jumpTable reads the jump table: an array of offsets to the entries, whose first entry
// follows the array, so the array's length is implied by its first offset.
func (d *decoder) jumpTable(off, end uint32) []Jump {
	d.section = "jump table"
	first := d.u32(int(off))
	if d.err != nil {
		return nil
	}
	if first <= off || first > end {
		d.fail(int(off), "first jump entry offset %#x outside %#x..%#x", first, off, end)
		return nil
	}
	out := make([]Jump, d.span(off, first)/jumpOffsetSize)
	for i := range out {
		at := int(d.u32(int(off) + jumpOffsetSize*i))
		w := d.u32(at)
		j := Jump{Type: uint8(w & jumpTypeMask), PostCalc: w&jumpPostCalc != 0, Reserved: w & jumpReservedMask}
		if j.Type == 0 {
			j.Command = d.str(at + jumpSize)
		}
		out[i] = j
	}
	return out
}

func (d *decoder) actions(off uint32) map[int][]Action {
	d.section = "external action array"
	n := d.count(int(off)+countSize, d.u32(int(off)), recordSize)
	out := make(map[int][]Action)
	for i := range n {
		r := d.record(int(off)+countSize+recordSize*i, recordSize)
		idx := int(int32(r.u32()))
		out[idx] = append(out[idx], Action{Slot: r.str(), Action: r.str()})
	}
	return out
}

func (d *decoder) modules(off uint32) []Module {
	d.section = "module caller array"
	n := d.count(int(off)+countSize, d.u32(int(off)), recordSize)
	out := make([]Module, n)
	for i := range out {
		r := d.record(int(off)+countSize+recordSize*i, recordSize)
		out[i] = Module{Path: r.str(), Category: r.str(), Instances: r.u32()}
	}
	return out
}

func (d *decoder) replacementTable(off uint32) *ReplacementTable {
	d.section = "child replacement table"
	if off == 0 {
		return nil
	}
	t := &ReplacementTable{Processed: d.u8(int(off) + replacementProcessed), Reserved01: d.u8(int(off) + replacementReserved)}
	n := d.count(int(off)+replacementHeader, uint32(d.u16(int(off)+replacementCount)), replacementEntry)
	t.Entries = make([]Replacement, n)
	for i := range t.Entries {
		r := d.record(int(off)+replacementHeader+replacementEntry*i, replacementEntry)
		t.Entries[i] = Replacement{Type: ReplacementType(r.u8()), Reserved01: r.u8(), Element: int16(r.u16()), Index: int16(r.u16()), New: int16(r.u16())}
	}
	return t
}

func (d *decoder) enumRelocations(off uint32) []EnumRelocation {
	d.section = "enum relocation array"
	n := d.count(int(off)+countSize, d.u32(int(off)), recordSize)
	if n == 0 {
		return nil
	}
	out := make([]EnumRelocation, n)
	for i := range out {
		r := d.record(int(off)+countSize+recordSize*i, recordSize)
		out[i] = EnumRelocation{Offset: r.u32(), ClassName: r.str(), ValueName: r.str()}
	}
	return out
}

func blackboardTypes(version uint32) int {
	if version >= Version408 {
		return int(NumBlackboardTypes)
	}
	return int(NumBlackboardTypes) - 1
}

// blackboardType maps a header slot to its type: files before 0x408 have no U32 slot.
func blackboardType(version uint32, slot int) BlackboardType {
	if version < Version408 && slot >= int(BBU32) {
		return BlackboardType(slot + 1)
	}
	return BlackboardType(slot)
}

func (d *decoder) blackboard(off uint32) (bb Blackboard) {
	d.section = "blackboard"
	slots := blackboardTypes(d.version)
	type entry struct{ count, offset int }
	hdr := make([]entry, slots)
	total := 0
	for s := range slots {
		at := int(off) + bbSlotSize*s
		hdr[s] = entry{int(d.u16(at + bbSlotCount)), int(d.u16(at + bbSlotValues))}
		if r := d.u16(at + bbSlotUnused); r != 0 {
			if bb.Reserved == nil {
				bb.Reserved = new([NumBlackboardTypes]uint16)
			}
			bb.Reserved[blackboardType(d.version, s)] = r
		}
		total += hdr[s].count
	}
	params := int(off) + bbSlotSize*slots
	if d.count(params, uint32(total), bbParamSize) != total {
		return bb
	}
	values := params + bbParamSize*total
	vec := hdr[blackboardSlot(d.version, BBVec3f)]
	refs := values + vec.offset + bbVec3fSize*vec.count
	i := 0
	for s := range slots {
		t := blackboardType(d.version, s)
		ps := make([]BlackboardParam, hdr[s].count)
		for j := range ps {
			at := params + bbParamSize*i
			i++
			w := d.u32(at)
			p := &ps[j]
			p.Name = d.strAt(at, w&bbNameMask)
			p.Inherit = InheritMode(w >> bbInheritBit & 3)
			p.Notes = d.str(at + bbParamNotes)
			if w&bbHasRef != 0 {
				p.File = d.str(refs + bbRefSize*int(w>>bbRefIndexBit&bbRefIndex))
			}
			v := values + hdr[s].offset
			switch t {
			case BBString:
				p.Value.String = d.str(v + bbValueSize*j)
			case BBS32, BBU32, BBBool:
				p.Value.Int = int32(d.u32(v + bbValueSize*j))
			case BBF32:
				p.Value.Float = d.f32(v + bbValueSize*j)
			case BBVec3f:
				p.Value.Vec = d.vec3(v + bbVec3fSize*j)
			}
			if d.err != nil {
				return bb
			}
		}
		bb.Params[t] = ps
	}
	return bb
}

func blackboardSlot(version uint32, t BlackboardType) int {
	if version < Version408 && t > BBU32 {
		return int(t) - 1
	}
	return int(t)
}

// tables are the file-wide arrays that elements index into.
type tables struct {
	elements, nElements int // where the element entries start, and how many
	props               [NumParamTypes][]Property
	inputs              [NumParamTypes][]Input
	outputs             [NumParamTypes][]Output
	jumps               []Jump
	attachmentIDs       []uint32
	queryIDs            []uint16
	actions             map[int][]Action
}

func (d *decoder) element(e *Element, off, index int, t *tables) {
	// One bounds check for the entry and one for the parameter block: this runs for every
	// element of files with thousands.
	l := elementLayout(d.version)
	if !d.need(off, l.size) {
		return
	}
	ent := d.b[off : off+l.size]
	e.Type = ElementType(le.Uint16(ent[elementType:]))
	nAttach := uint32(le.Uint16(ent[elementAttachCount:]))
	e.Flags = ElementFlags(ent[elementFlags])
	e.Reserved07 = ent[elementReserved07]
	e.Reserved1E = le.Uint16(ent[l.reserved1E:])
	e.Name = d.strAt(off+elementName, le.Uint32(ent[elementName:]))
	// The name hash is recomputed on write; the expression and multi-input counts too.
	e.Reserved10 = le.Uint32(ent[l.reserved:])
	params := int(le.Uint32(ent[l.params:]))
	baseAttach := le.Uint32(ent[l.attachBase:])
	baseQuery, nQuery := uint32(le.Uint16(ent[l.queryBase:])), uint32(le.Uint16(ent[l.queryCount:]))
	if nQuery > 0 {
		d.queryRanges = append(d.queryRanges, queryRange{elem: index, base: baseQuery, n: nQuery})
	}
	state := le.Uint32(ent[l.state:])
	copy(e.GUID[:], ent[l.guid:])
	if d.version < Version407 {
		d.section = "element state info"
		e.StateInfo = d.stateInfo(int(state))
		d.section = "elements"
	}
	if ids := sliceOf(d, off+l.attachBase, "attachment ids", t.attachmentIDs, baseAttach, nAttach); len(ids) > 0 {
		e.Attachments = d.ints.Take(len(ids))
		for i, id := range ids {
			e.Attachments[i] = int(id)
		}
	}
	if qs := sliceOf(d, off+l.queryBase, "query ids", t.queryIDs, baseQuery, nQuery); len(qs) > 0 {
		e.Queries = d.ints.Take(len(qs))
		for i, q := range qs {
			e.Queries[i] = int(q)
		}
	}
	e.Actions = t.actions[index]

	d.section = "element parameters"
	d.elementParams(e, params, index, t)
	d.section = "elements"
}

// elementParams reads an element's parameter block: its ranges of the property and I/O
// tables, then its plugs.
func (d *decoder) elementParams(e *Element, params, index int, t *tables) {
	if !d.need(params, paramsSize) {
		return
	}
	pb := d.b[params : params+paramsSize]
	var props [NumParamTypes][]Property
	var inputs [NumParamTypes][]Input
	var outputs [NumParamTypes][]Output
	for pt := range NumParamTypes {
		o := paramsProperties + rangeSize*int(pt)
		props[pt] = sliceOf(d, params+o, "properties", t.props[pt], le.Uint32(pb[o+rangeBase:]), le.Uint32(pb[o+rangeCount:]))
		if d.elemProps != nil {
			d.elemProps[index][pt] = tableRange{le.Uint32(pb[o+rangeBase:]), uint32(len(props[pt]))}
		}
	}
	for pt := range NumParamTypes {
		o := paramsIO + paramsIOStride*int(pt)
		in, out := o+paramsIOInputs, o+paramsIOOutputs
		inputs[pt] = sliceOf(d, params+in, "inputs", t.inputs[pt], le.Uint32(pb[in+rangeBase:]), le.Uint32(pb[in+rangeCount:]))
		if d.elemInputs != nil {
			d.elemInputs[index][pt] = tableRange{le.Uint32(pb[in+rangeBase:]), uint32(len(inputs[pt]))}
		}
		outputs[pt] = sliceOf(d, params+out, "outputs", t.outputs[pt], le.Uint32(pb[out+rangeBase:]), le.Uint32(pb[out+rangeCount:]))
	}
	e.Properties = GroupsIn[ParamType](&d.propBlocks, &props)
	e.Inputs = GroupsIn[ParamType](&d.inputBlocks, &inputs)
	e.Outputs = GroupsIn[ParamType](&d.outputBlocks, &outputs)
	plugBase := params + paramsSize
	var plugs [NumPlugKinds][]Plug
	for k := range PlugKind(plugTables) {
		o := paramsPlugCounts + plugCountSize*int(k)
		n, base := int(pb[o]), int(pb[o+1])
		if n == 0 || d.err != nil {
			continue
		}
		layout, _ := e.PlugLayout(k, d.version)
		ps := d.plugs.Take(n)
		for i := range ps {
			p := &ps[i]
			at := int(d.u32(plugBase + plugOffsetSize*(base+i)))
			l := layout
			switch {
			case k == PlugChild && l == LayoutBasic && d.childEnum(at):
				l = LayoutWordInt
			case k == PlugGeneric && l == LayoutWordInt && e.Type == Expression && d.plugRoom(at, params, index) >= LayoutWordVec3.Size():
				// Which input a generic plug stands for is not stored: the game's files give
				// a vector input's plug room for three floats, the reference writer does not.
				l = LayoutWordVec3
				p.Vector = true
			}
			d.plug(p, l, at, t.jumps)
		}
		if k < NumPlugKinds {
			plugs[k] = ps
		} else {
			if e.UnusedPlugs == nil {
				e.UnusedPlugs = new(UnusedPlugs)
			}
			e.UnusedPlugs[k-NumPlugKinds] = ps
		}
	}
	e.Plugs = GroupsIn[PlugKind](&d.plugBlocks, &plugs)
}

// childEnum reports whether the child plug at off is named __CHILD_ENUM..., which keeps an
// enum value (Element.PlugLayoutOf).
func (d *decoder) childEnum(off int) bool {
	if off < 0 || off+8 > len(d.b) {
		return false // the plug's own read reports it
	}
	at := le.Uint32(d.b[off+4:])
	return int64(at) < int64(len(d.pool)) && bytes.HasPrefix(d.pool[at:], []byte(childEnumPrefix))
}

// plugRoom is how many bytes the plug at off has before the next of its element's plugs
// begins, or its element's parameter block ends (the next element's block, or the attachment
// id array after the last).
func (d *decoder) plugRoom(off, params, index int) int {
	pb := d.b[params : params+paramsSize]
	n := 0
	for k := range plugTables {
		n += int(pb[paramsPlugCounts+plugCountSize*k])
	}
	end := -1
	for i := range n {
		o := paramsSize + plugOffsetSize*i
		if !d.need(params+o, plugOffsetSize) {
			return 0
		}
		if p := int(le.Uint32(d.b[params+o:])); p > off && (end < 0 || p < end) {
			end = p
		}
	}
	if end < 0 {
		l := elementLayout(d.version)
		next := d.elemStart + (index+1)*l.size + l.params
		if index+1 < d.nElements && next+4 <= len(d.b) {
			end = int(le.Uint32(d.b[next:]))
		} else {
			end = int(d.attachIDs)
		}
	}
	return end - off
}

func (d *decoder) stateInfo(off int) *StateInfo {
	r := d.record(off, stateInfoSize)
	s := &StateInfo{DesiredState: r.str()}
	for i := range s.Unknown {
		s.Unknown[i] = r.u32()
	}
	return s
}

func (d *decoder) plug(p *Plug, layout PlugLayout, at int, jumps []Jump) {
	r := d.record(at, layout.Size())
	p.Node = int32(r.u32())
	if layout == LayoutJump {
		idxAt, idx := r.at, r.u32()
		if d.err == nil && int(idx) >= len(jumps) {
			d.fail(idxAt, "jump index %d out of range (%d jumps)", idx, len(jumps))
			return
		}
		if d.err == nil {
			j := jumps[idx]
			p.Jump = &j
		}
		return
	}
	if layout == LayoutRaw {
		p.Word = r.u32()
		return
	}
	p.Name = r.str()
	switch layout {
	case LayoutWordInt:
		p.Word, p.Int = r.u32(), int32(r.u32())
	case LayoutWordFloat:
		p.Word, p.Float = r.u32(), r.f32()
	case LayoutWordString:
		p.Word, p.String = r.u32(), r.str()
	case LayoutWordVec3:
		p.Word = r.u32()
		for i := range p.Vec {
			p.Vec[i] = r.f32()
		}
	case LayoutF32Range:
		p.Word, p.Float = r.u32(), r.f32()
		p.MaxWord, p.MaxFloat = r.u32(), r.f32()
		for i := range p.Reserved {
			p.Reserved[i] = r.u32()
		}
	}
}

// tableRange is the range of table entries an element's or attachment's list of one type
// took, kept beside the lists so that resolving a relocation does not visit every family.
type tableRange struct{ base, n uint32 }

func (r tableRange) has(gi int) bool { return gi >= int(r.base) && gi < int(r.base)+int(r.n) }

// valueAt finds the property or input whose immediate value is at off. Pointers have no
// value worth patching and are not considered.
func (d *decoder) valueAt(f *File, off uint32) *ValueRef {
	find := func(start uint32, size, field int, n int) (int, bool) {
		if off < start || int(off-start)%size != field {
			return 0, false
		}
		gi := int(off-start) / size
		return gi, gi < n
	}
	for t := range ParamPointer {
		if gi, ok := find(d.propAt[t], propertySizes[t], propertyValue, d.tableLen(t, false)); ok {
			for i := range f.Elements {
				if r := d.elemProps[i][t]; r.has(gi) {
					return &ValueRef{Element: i, Type: t, Index: gi - int(r.base)}
				}
			}
			for a := range f.Attachments {
				if r := d.attProps[a][t]; r.has(gi) {
					return &ValueRef{Element: -1, Attachment: a, Type: t, Index: gi - int(r.base)}
				}
			}
		}
		if gi, ok := find(d.inAt[t], inputSizes[t], inputValue, d.tableLen(t, true)); ok {
			for i := range f.Elements {
				if r := d.elemInputs[i][t]; r.has(gi) {
					return &ValueRef{Element: i, Input: true, Type: t, Index: gi - int(r.base)}
				}
			}
		}
	}
	return nil
}

// tableLen is how many property (or input) entries of type t the file has.
func (d *decoder) tableLen(t ParamType, input bool) int { return d.lens[btoi(input)][t] }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
