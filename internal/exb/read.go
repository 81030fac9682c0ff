package exb

import (
	"bytes"
	"encoding/binary"
	"math"
	"sort"
	"strconv"
	"strings"
)

var le = binary.LittleEndian

// Sub-section names as they appear in error messages.
const (
	secHeader       = "header"
	secFunctions    = "function table"
	secInstructions = "instruction table"
	secSignatures   = "signature table"
	secParams       = "param table"
	secStrings      = "string pool"
	secLayout       = "layout"
)

func functionEntrySize(version uint32) int {
	if version == 1 {
		return 0x14 // no instruction counts
	}
	return 0x1C
}

// Read reads an EXB section. b must hold exactly the section: inside an
// AINB file that is the bytes from the offset at 0x44 to the offset at 0x5C.
// Read does not keep b.
func Read(b []byte) (*Module, error) {
	if len(b) < headerSize {
		return nil, formatErr(secHeader, 0, "section is %d bytes, shorter than the %#x-byte header", len(b), headerSize)
	}
	if string(b[:4]) != "EXB " {
		return nil, formatErr(secHeader, 0, "bad magic %q, want \"EXB \"", b[:4])
	}
	m := &Module{Version: le.Uint32(b[4:])}
	if m.Version < 1 || m.Version > 3 {
		return nil, formatErr(secHeader, 4, "unsupported version %d (want 1, 2 or 3)", m.Version)
	}
	m.Header = Header{
		StaticSize:    le.Uint32(b[0x08:]),
		InstanceCount: le.Uint32(b[0x0C:]),
		Scratch32Size: le.Uint32(b[0x10:]),
		Scratch64Size: le.Uint32(b[0x14:]),
	}
	var offs [numSections]int
	for s := range numSections {
		at := 0x18 + 4*int(s)
		o := le.Uint32(b[at:])
		if o < headerSize || uint64(o) > uint64(len(b)) {
			return nil, formatErr(secHeader, at, "%s offset %#x outside [%#x, %#x]", Section(s), o, headerSize, len(b))
		}
		offs[s] = int(o)
	}

	// The header gives only starts; sizes of the params and strings
	// sub-sections follow from where the next one begins. On a tie, a
	// variable-size sub-section goes first, because only it can be empty.
	order := append([]Section(nil), canonicalOrder...)
	sort.SliceStable(order, func(i, j int) bool {
		a, c := order[i], order[j]
		if offs[a] != offs[c] {
			return offs[a] < offs[c]
		}
		return variableSize(a) && !variableSize(c)
	})
	if !sameOrder(order, canonicalOrder) {
		m.Layout.Order = order
	}
	if first := offs[order[0]]; first > headerSize {
		m.Layout.HeaderGap = clone(b[headerSize:first])
	}
	var paramRegion []byte
	for i, s := range order {
		start, end := offs[s], len(b)
		if i+1 < len(order) {
			end = offs[order[i+1]]
		}
		region := b[start:end]
		var used int
		var err error
		switch s {
		case SectionFunctions:
			used, err = m.readFunctions(region, start)
		case SectionInstructions:
			used, err = m.readInstructions(region, start)
		case SectionSignatures:
			used, err = m.readSignatures(region, start)
		case SectionParams:
			paramRegion, used = region, len(region)
		case SectionStrings:
			m.Strings = splitPool(region)
			used = len(region)
		}
		if err != nil {
			return nil, err
		}
		if used < len(region) {
			m.Layout.Gap[s] = clone(region[used:])
		}
	}

	so := sectionOffsets{}
	for s := range numSections {
		so.start[s] = offs[s]
	}
	refs, err := m.check(paramRegion, &so, true)
	if err != nil {
		return nil, err
	}
	m.Params = buildParams(paramRegion, refs)

	// Writing must reproduce the header's offsets; if it would not, the
	// model has failed to capture something and must not be handed out.
	got, err := m.layout()
	if err != nil {
		return nil, err
	}
	if got.start != so.start || got.total != len(b) {
		return nil, formatErr(secLayout, 0, "internal error: layout not reproducible")
	}
	return m, nil
}

func variableSize(s Section) bool { return s == SectionParams || s == SectionStrings }

func sameOrder(a, b []Section) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }

// readCount reads a table's leading u32 count and checks that count entries
// of size each fit in region before anything is allocated.
func readCount(region []byte, base, size int, sec string) (int, error) {
	if len(region) < 4 {
		return 0, formatErr(sec, base, "need 4 bytes for the entry count, have %d", len(region))
	}
	n := le.Uint32(region)
	if uint64(n)*uint64(size) > uint64(len(region)-4) {
		return 0, formatErr(sec, base, "%d entries of %d bytes do not fit in the %d bytes before the next sub-section", n, size, len(region)-4)
	}
	return int(n), nil
}

func (m *Module) readFunctions(region []byte, base int) (int, error) {
	size := functionEntrySize(m.Version)
	n, err := readCount(region, base, size, secFunctions)
	if err != nil {
		return 0, err
	}
	m.Functions = make([]Function, n)
	for i := range m.Functions {
		p := region[4+i*size:]
		at := base + 4 + i*size
		f := &m.Functions[i]
		f.Setup.Base = int32(le.Uint32(p))
		if m.Version == 1 {
			f.Main.Base = int32(le.Uint32(p[4:]))
			p = p[8:]
		} else {
			f.Setup.Count = le.Uint32(p[4:])
			f.Main.Base = int32(le.Uint32(p[8:]))
			f.Main.Count = le.Uint32(p[12:])
			p = p[16:]
		}
		f.StaticSize = le.Uint32(p)
		f.Scratch32Size = le.Uint16(p[4:])
		f.Scratch64Size = le.Uint16(p[6:])
		var ok bool
		if f.Output, ok = decodeType(le.Uint16(p[8:]), m.Version); !ok {
			return 0, formatErr(secFunctions, at+size-4, "function %d: unknown output type %d", i, le.Uint16(p[8:]))
		}
		if f.Input, ok = decodeType(le.Uint16(p[10:]), m.Version); !ok {
			return 0, formatErr(secFunctions, at+size-2, "function %d: unknown input type %d", i, le.Uint16(p[10:]))
		}
	}
	return 4 + n*size, nil
}

func (m *Module) readInstructions(region []byte, base int) (int, error) {
	n, err := readCount(region, base, 8, secInstructions)
	if err != nil {
		return 0, err
	}
	m.Instructions = make([]Instruction, n)
	for i := range m.Instructions {
		if err := decodeInstruction(&m.Instructions[i], region[4+8*i:], m.Version); err != nil {
			return 0, formatErr(secInstructions, base+4+8*i, "instruction %d: %v", i, err)
		}
	}
	return 4 + 8*n, nil
}

type decodeError string

func (e decodeError) Error() string { return string(e) }

// decodeInstruction fills in from the first 8 bytes of p.
func decodeInstruction(in *Instruction, p []byte, version uint32) error {
	*in = Instruction{Op: Opcode(p[0])}
	if !in.Op.Valid() {
		return decodeError("unknown opcode " + in.Op.String())
	}
	if typeIsPadding(in.Op) {
		in.Type = padType(p[1], version)
	} else {
		t, ok := decodeType(uint16(p[1]), version)
		if !ok {
			return decodeError("unknown data type " + strconv.Itoa(int(p[1])) + " for version " + strconv.Itoa(int(version)))
		}
		in.Type = t
	}
	if in.Op == OpUserFunction {
		in.ArgOffset = le.Uint16(p[2:])
		in.Signature = le.Uint32(p[4:])
		return nil
	}
	for _, src := range p[2 : 2+liveSources(in.Op)] {
		if Source(src) > maxSource {
			return decodeError("unknown parameter source " + strconv.Itoa(int(src)))
		}
	}
	in.LHS = Operand{Src: Source(p[2]), Val: le.Uint16(p[4:])}
	in.RHS = Operand{Src: Source(p[3]), Val: le.Uint16(p[6:])}
	return nil
}

// typeIsPadding reports whether the opcode leaves the type byte unused. Like the other
// unused bytes it may hold anything in a file and is kept as it is (see padType).
func typeIsPadding(op Opcode) bool {
	f := op.form()
	return f == formEnd || f == formJump
}

// liveSources is how many of the LHS and RHS source bytes the opcode gives meaning to; the
// others are padding, kept whatever they hold.
func liveSources(op Opcode) int {
	switch op.form() {
	case formEnd, formJump:
		return 0
	case formUnary, formBranch:
		return 1
	}
	return 2
}

// padType maps a type byte that is padding to a DataType one to one, so that any byte comes
// back as it was (padTypeByte): like decodeType for the known types; versions 1 and 2, which
// cannot store TypeUInt, keep byte 0xff there.
func padType(raw uint8, version uint32) DataType {
	switch {
	case version >= 3 || raw < uint8(TypeUInt):
		return DataType(raw)
	case raw == 0xff:
		return TypeUInt
	}
	return DataType(raw + 1)
}

// padTypeByte is the inverse of padType.
func padTypeByte(t DataType, version uint32) uint8 {
	switch {
	case version >= 3 || t < TypeUInt:
		return uint8(t)
	case t == TypeUInt:
		return 0xff
	}
	return uint8(t) - 1
}

// typeByte is the instruction's type byte in the given version, and whether it has one.
func (in *Instruction) typeByte(version uint32) (uint8, bool) {
	if typeIsPadding(in.Op) {
		return padTypeByte(in.Type, version), true
	}
	return encodeType(in.Type, version)
}

func (in *Instruction) typeEncodes(version uint32) bool {
	_, ok := in.typeByte(version)
	return ok
}

// sourcesKnown reports whether the sources the opcode reads are known ones.
func (in *Instruction) sourcesKnown() bool {
	live := liveSources(in.Op)
	return (live < 1 || in.LHS.Src <= maxSource) && (live < 2 || in.RHS.Src <= maxSource)
}

func (m *Module) readSignatures(region []byte, base int) (int, error) {
	n, err := readCount(region, base, 4, secSignatures)
	if err != nil {
		return 0, err
	}
	m.Signatures = make([]uint32, n)
	for i := range m.Signatures {
		m.Signatures[i] = le.Uint32(region[4+4*i:])
	}
	return 4 + 4*n, nil
}

// splitPool cuts the pool at each NUL; bytes after the last NUL form a final
// unterminated string.
func splitPool(region []byte) StringPool {
	var p StringPool
	n := bytes.Count(region, []byte{0})
	if len(region) > 0 && region[len(region)-1] != 0 {
		n++
		p.Unterminated = true
	}
	// One copy of the region; the strings are substrings of it, found with IndexByte.
	all := string(region)
	p.Strings = make([]string, 0, n)
	for {
		i := strings.IndexByte(all, 0)
		if i < 0 {
			break
		}
		p.Strings = append(p.Strings, all[:i])
		all = all[i+1:]
	}
	if p.Unterminated {
		p.Strings = append(p.Strings, all)
	}
	return p
}

// poolIndex answers "which string starts at this pool offset".
type poolIndex struct {
	pool   *StringPool
	starts []uint32
	first  map[string]uint32 // built on demand
}

func newPoolIndex(p *StringPool) *poolIndex {
	x := &poolIndex{pool: p, starts: make([]uint32, len(p.Strings))}
	var off uint32
	for i, s := range p.Strings {
		x.starts[i] = off
		off += uint32(len(s)) + 1
	}
	return x
}

// at returns the NUL-terminated string at off, which may start inside a
// pool entry (suffix sharing is legal even if no writer we know does it).
func (x *poolIndex) at(off uint32) (string, bool) {
	i := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
	if i < 0 {
		return "", false
	}
	if i == len(x.starts)-1 && x.pool.Unterminated {
		return "", false
	}
	s := x.pool.Strings[i]
	d := off - x.starts[i]
	if d > uint32(len(s)) {
		return "", false
	}
	return s[d:], true
}

// offsetOf returns the offset of the first pool entry equal to s.
func (x *poolIndex) offsetOf(s string) (uint32, bool) {
	if x.first == nil {
		x.first = make(map[string]uint32, len(x.starts))
		last := len(x.starts)
		if x.pool.Unterminated {
			last-- // no NUL, so nothing can refer to it as a whole string
		}
		for i := last - 1; i >= 0; i-- {
			x.first[x.pool.Strings[i]] = x.starts[i]
		}
	}
	o, ok := x.first[s]
	return o, ok
}

// paramRef is one use of the param region by an instruction or entry.
type paramRef struct {
	off  uint32
	kind ParamKind
}

// paramKindFor says what an operand's param-region reference holds, if it
// has a defined size.
func paramKindFor(src Source, t DataType) (ParamKind, bool) {
	switch src {
	case SrcParamString:
		return ParamString, true
	case SrcParam:
		switch t {
		case TypeBool:
			return ParamBool, true
		case TypeInt:
			return ParamInt, true
		case TypeUInt:
			return ParamUInt, true
		case TypeFloat:
			return ParamFloat, true
		case TypeVec3f:
			return ParamVec3f, true
		}
	}
	return 0, false
}

func (k ParamKind) size() uint32 {
	if k == ParamVec3f {
		return 12
	}
	return 4
}

// liveOperands lists the operands an instruction's opcode gives meaning to,
// with the type each is read as.
func (in *Instruction) liveOperands() (ops [2]Operand, types [2]DataType, n int) {
	switch in.Op.form() {
	case formUnary, formBranch:
		return [2]Operand{in.LHS}, [2]DataType{in.Type}, 1
	case formBinary:
		return [2]Operand{in.LHS, in.RHS}, [2]DataType{in.Type, in.Op.rhsType(in.Type)}, 2
	}
	return ops, types, 0
}

// sectionOffsets is where each sub-section starts, and the section's size.
type sectionOffsets struct {
	start [numSections]int
	total int
}

// check validates everything that refers across sub-sections and returns
// the param-region references in instruction order. params is the param
// region's bytes. Offsets in errors come from so.
func (m *Module) check(params []byte, so *sectionOffsets, derive bool) ([]paramRef, error) {
	pool := newPoolIndex(&m.Strings)
	n := len(m.Instructions)
	for i, s := range m.Signatures {
		if _, ok := pool.at(s); !ok {
			return nil, formatErr(secSignatures, so.start[SectionSignatures]+4+4*i, "signature %d: string offset %#x is not a string in the pool", i, s)
		}
	}
	var refs []paramRef
	for i := range m.Instructions {
		in := &m.Instructions[i]
		at := so.start[SectionInstructions] + 4 + 8*i
		if !in.Op.Valid() {
			return nil, formatErr(secInstructions, at, "instruction %d: unknown opcode %s", i, in.Op)
		}
		if !in.typeEncodes(m.Version) {
			return nil, formatErr(secInstructions, at+1, "instruction %d: type %s not allowed in version %d", i, in.Type, m.Version)
		}
		if in.Op == OpUserFunction {
			if uint64(in.Signature) >= uint64(len(m.Signatures)) {
				return nil, formatErr(secInstructions, at+4, "instruction %d: signature index %d out of range (%d signatures)", i, in.Signature, len(m.Signatures))
			}
			continue
		}
		if !in.sourcesKnown() {
			return nil, formatErr(secInstructions, at+2, "instruction %d: unknown parameter source", i)
		}
		ops, types, k := in.liveOperands()
		for j := range k {
			op := ops[j]
			valAt := at + 4 + 2*j
			if op.Src == SrcImmediateString {
				if _, ok := pool.at(uint32(op.Val)); !ok {
					return nil, formatErr(secInstructions, valAt, "instruction %d: string offset %#x is not a string in the pool", i, op.Val)
				}
				continue
			}
			kind, ok := paramKindFor(op.Src, types[j])
			if !ok {
				continue
			}
			if uint64(op.Val)+uint64(kind.size()) > uint64(len(params)) {
				return nil, formatErr(secInstructions, valAt, "instruction %d: param offset %#x + %d overruns the %d-byte param table", i, op.Val, kind.size(), len(params))
			}
			if kind == ParamString {
				if s := le.Uint32(params[op.Val:]); !validString(pool, s) {
					return nil, formatErr(secParams, so.start[SectionParams]+int(op.Val), "string offset %#x (used by instruction %d) is not a string in the pool", s, i)
				}
			}
			refs = append(refs, paramRef{off: uint32(op.Val), kind: kind})
		}
	}
	// Each version 1 block runs to the next terminator; finding it once per
	// position keeps hostile tables with many functions linear.
	var runEnd []int
	if m.Version == 1 && len(m.Functions) > 0 {
		runEnd = make([]int, n+1)
		runEnd[n] = n
		for j := n - 1; j >= 0; j-- {
			runEnd[j] = runEnd[j+1]
			if m.Instructions[j].Op == OpTerminator {
				runEnd[j] = j + 1
			}
		}
	}
	for i := range m.Functions {
		f := &m.Functions[i]
		at := so.start[SectionFunctions] + 4 + i*functionEntrySize(m.Version)
		if f.Setup.Base < -1 {
			return nil, formatErr(secFunctions, at, "function %d: setup base index %d", i, f.Setup.Base)
		}
		for b, blk := range [2]*Block{&f.Setup, &f.Main} {
			if b == 0 && !blk.Present() {
				if m.Version == 1 && derive {
					blk.Count = 0
				} else if m.Version == 1 && blk.Count != 0 {
					return nil, formatErr(secFunctions, at, "function %d: absent version 1 setup block has count %d", i, blk.Count)
				}
				continue
			}
			fieldAt := at + 8*b
			if m.Version == 1 {
				fieldAt = at + 4*b
			}
			if blk.Base < 0 || int(blk.Base) > n || (m.Version == 1 && int(blk.Base) == n) {
				return nil, formatErr(secFunctions, fieldAt, "function %d: %s base index %d out of range (%d instructions)", i, blockName(b), blk.Base, n)
			}
			if m.Version == 1 {
				// Version 1 stores no count: the block is whatever runs to
				// the first terminator, so a model must agree with that.
				rl := uint32(runEnd[blk.Base] - int(blk.Base))
				if derive {
					blk.Count = rl
				} else if blk.Count != rl {
					return nil, formatErr(secFunctions, fieldAt, "function %d: version 1 %s block at %d runs %d instructions to its terminator, not %d", i, blockName(b), blk.Base, rl, blk.Count)
				}
			} else if uint64(blk.Base)+uint64(blk.Count) > uint64(n) {
				return nil, formatErr(secFunctions, fieldAt+4, "function %d: %s block %d+%d overruns the %d instructions", i, blockName(b), blk.Base, blk.Count, n)
			}
		}
	}
	return refs, nil
}

func blockName(b int) string {
	if b == 0 {
		return "setup"
	}
	return "main"
}

func validString(pool *poolIndex, off uint32) bool {
	_, ok := pool.at(off)
	return ok
}

// buildParams types the param region by its uses. A reference that starts
// inside an entry already made is read from that entry's bytes and makes
// none of its own; bytes nothing refers to become ParamBytes.
func buildParams(region []byte, refs []paramRef) ParamTable {
	sort.SliceStable(refs, func(i, j int) bool { return refs[i].off < refs[j].off })
	var t ParamTable
	pos := uint32(0)
	for _, r := range refs {
		if r.off < pos {
			continue
		}
		if r.off > pos {
			t.Entries = append(t.Entries, Param{Kind: ParamBytes, Data: clone(region[pos:r.off])})
		}
		p := Param{Kind: r.kind}
		for w := range r.kind.size() / 4 {
			p.Bits[w] = le.Uint32(region[r.off+4*w:])
		}
		t.Entries = append(t.Entries, p)
		pos = r.off + r.kind.size()
	}
	if int(pos) < len(region) {
		t.Entries = append(t.Entries, Param{Kind: ParamBytes, Data: clone(region[pos:])})
	}
	return t
}

// f32 and bitsOf are short names for the conversions text code uses a lot.
func f32(bits uint32) float32 { return math.Float32frombits(bits) }
func bitsOf(f float32) uint32 { return math.Float32bits(f) }
