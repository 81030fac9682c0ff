package aamp

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

const (
	headerSize   = 0x30
	listRecSize  = 12
	objRecSize   = 8
	paramRecSize = 8

	flagLittleEndian = 1 << 0
	flagUTF8         = 1 << 1

	curveSize = 8 + 30*4

	// maxDepth bounds list nesting (real files nest a handful of levels); without it a
	// chain of nested lists would make text dumps grow with the square of the file size.
	maxDepth = 64
)

var le = binary.LittleEndian

// ErrFormat is what every *FormatError is (errors.Is), for callers that need not know where.
var ErrFormat = errors.New("aamp: malformed data")

// A FormatError is malformed input: what is wrong, at which byte of the file.
type FormatError struct {
	Offset uint32
	Msg    string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("%v: at %#x: %s", ErrFormat, e.Offset, e.Msg)
}

// Is makes every FormatError an ErrFormat.
func (e *FormatError) Is(target error) bool { return target == ErrFormat }

func formatErr(off uint32, format string, args ...any) error {
	return &FormatError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

type reader struct {
	data   []byte
	text   string // data as a string, made for the first string parameter
	lay    *layout
	budget int // decoded value bytes still allowed; bounds work on shared data
	// remaining structure records allowed by the header counts; they bound the tree even
	// when child blocks are shared between parents.
	listsLeft, objsLeft, paramsLeft uint32

	// The records of the whole tree, allocated once from the header's counts (checked
	// against the file's length) and handed out as each list and object is read: a list's
	// children and an object's parameters were an allocation each.
	lists   []ParameterList
	listPtr []*ParameterList
	objs    []ParameterObject
	objPtr  []*ParameterObject
	params  []Parameter

	// Values already boxed, by the 4-byte word of the value sections they start at.
	// Writers store each distinct value once and point every parameter holding it there
	// (nine in ten parameters of a typical file share a value), so one boxed value serves
	// them all: a value in an interface is a copy nobody can change through another
	// parameter. Slices (buffers, curves) are never shared this way.
	boxes []box
	boxLo uint32 // the file offset of boxes[0]
}

// box is a value read at one offset as one type, and the bytes it took from the budget.
type box struct {
	t    Type
	size uint32
	v    any
}

// Read parses a version 2, little-endian parameter archive.
func Read(data []byte) (*ParameterIO, error) {
	if len(data) < headerSize {
		return nil, formatErr(0, "file is %d bytes, shorter than the %d-byte header", len(data), headerSize)
	}
	if string(data[:4]) != "AAMP" {
		return nil, formatErr(0, "magic is %q, want \"AAMP\"", data[:4])
	}
	if v := le.Uint32(data[4:]); v != 2 {
		return nil, formatErr(4, "version %d is not supported (only 2)", v)
	}
	flags := le.Uint32(data[8:])
	if flags&flagLittleEndian == 0 {
		return nil, formatErr(8, "flags %#x: big-endian archives are not supported", flags)
	}
	h := struct {
		fileSize, pioVersion, pioOffset, nLists, nObjs, nParams, dataSize, strSize, unk uint32
	}{
		le.Uint32(data[0x0c:]), le.Uint32(data[0x10:]), le.Uint32(data[0x14:]),
		le.Uint32(data[0x18:]), le.Uint32(data[0x1c:]), le.Uint32(data[0x20:]),
		le.Uint32(data[0x24:]), le.Uint32(data[0x28:]), le.Uint32(data[0x2c:]),
	}
	if uint64(h.fileSize) != uint64(len(data)) {
		return nil, formatErr(0x0c, "header file size %d, but the file is %d bytes", h.fileSize, len(data))
	}
	structBytes := uint64(h.nLists)*listRecSize + uint64(h.nObjs)*objRecSize + uint64(h.nParams)*paramRecSize
	if structBytes > uint64(len(data)) {
		return nil, formatErr(0x18, "header counts (%d lists, %d objects, %d parameters) need %d bytes; file has %d",
			h.nLists, h.nObjs, h.nParams, structBytes, len(data))
	}
	tail := uint64(h.dataSize) + uint64(h.strSize) + 4*uint64(h.unk)
	if tail > uint64(len(data)) {
		return nil, formatErr(0x24, "data (%d), string (%d) and unknown (%d words) sections exceed the file size %d",
			h.dataSize, h.strSize, h.unk, len(data))
	}
	rootOff := uint64(headerSize) + uint64(h.pioOffset)
	if rootOff+listRecSize > uint64(len(data)) {
		return nil, formatErr(0x14, "parameter IO offset %#x is past the end of the file", h.pioOffset)
	}
	typ, err := cString(data, headerSize, uint32(rootOff))
	if err != nil {
		return nil, err
	}
	r := &reader{
		data:       data,
		budget:     16*len(data) + 4096,
		listsLeft:  h.nLists,
		objsLeft:   h.nObjs,
		paramsLeft: h.nParams,
		lay: &layout{
			flags:     flags,
			fileSize:  h.fileSize,
			pioOffset: h.pioOffset,
			dataSize:  h.dataSize,
			strSize:   h.strSize,
			unk:       h.unk,
			nLists:    h.nLists,
			nObjs:     h.nObjs,
			nParams:   h.nParams,
			// The counts are checked against the file's length above: room for every
			// record up front, not grown one append at a time.
			lists:  make([]listLayout, 0, h.nLists),
			objs:   make([]uint32, 0, h.nObjs),
			params: make([]uint32, 0, h.nParams),
		},
	}
	r.lists = make([]ParameterList, h.nLists)
	r.listPtr = make([]*ParameterList, h.nLists)
	r.objs = make([]ParameterObject, h.nObjs)
	r.objPtr = make([]*ParameterObject, h.nObjs)
	r.params = make([]Parameter, h.nParams)
	// Values lie in the data and string sections, at the end of the file before the
	// unknown words (tail is checked against the file's length above).
	r.boxLo = uint32(uint64(len(data))-tail) &^ 3
	r.boxes = make([]box, (uint32(len(data))-r.boxLo)/4)
	pio := &ParameterIO{Version: h.pioVersion, Type: typ, layout: r.lay}
	if err := r.readList(uint32(rootOff), &pio.Root, 0); err != nil {
		return nil, err
	}
	if pio.Root.Name != RootName {
		return nil, formatErr(uint32(rootOff), "root list is named %#08x, not param_root", uint32(pio.Root.Name))
	}
	if r.listsLeft != 0 || r.objsLeft != 0 || r.paramsLeft != 0 {
		return nil, formatErr(0x18, "header counts %d lists, %d objects, %d parameters, but the tree has %d, %d, %d",
			h.nLists, h.nObjs, h.nParams, h.nLists-r.listsLeft, h.nObjs-r.objsLeft, h.nParams-r.paramsLeft)
	}
	return pio, nil
}

// cString reads a NUL-terminated string at off that must end before limit.
func cString(data []byte, off, limit uint32) (string, error) {
	if limit > uint32(len(data)) {
		limit = uint32(len(data))
	}
	for i := off; i < limit; i++ {
		if data[i] == 0 {
			return string(data[off:i]), nil
		}
	}
	return "", formatErr(off, "string is not NUL-terminated before %#x", limit)
}

// childBlock resolves a u16 word offset to a block of n records of size recSize. Blocks
// must lie after their parent record: that keeps the tree acyclic.
func (r *reader) childBlock(parent uint32, rel uint16, n uint16, recSize uint32, what string) (uint32, error) {
	off := parent + 4*uint32(rel)
	if n == 0 {
		return off, nil
	}
	if rel == 0 {
		return 0, formatErr(parent, "%s block offset is 0 (points back at its parent)", what)
	}
	if uint64(off)+uint64(n)*uint64(recSize) > uint64(len(r.data)) {
		return 0, formatErr(parent, "%d %s at %#x run past the end of the file (%#x)", n, what, off, len(r.data))
	}
	return off, nil
}

func (r *reader) readList(off uint32, l *ParameterList, depth int) error {
	if depth > maxDepth {
		return formatErr(off, "lists nested deeper than %d levels", maxDepth)
	}
	if r.listsLeft == 0 {
		return formatErr(off, "more lists than the header's count %d", r.lay.nLists)
	}
	r.listsLeft--
	d := r.data[off:]
	l.Name = Name(le.Uint32(d))
	nl, no := le.Uint16(d[6:]), le.Uint16(d[10:])
	lb, err := r.childBlock(off, le.Uint16(d[4:]), nl, listRecSize, "child lists")
	if err != nil {
		return err
	}
	ob, err := r.childBlock(off, le.Uint16(d[8:]), no, objRecSize, "child objects")
	if err != nil {
		return err
	}
	r.lay.lists = append(r.lay.lists, listLayout{off: off, listsBlock: lb, objsBlock: ob})
	if uint32(nl) > r.listsLeft || uint32(no) > r.objsLeft {
		return formatErr(off, "list claims %d lists and %d objects; header allows %d and %d more", nl, no, r.listsLeft, r.objsLeft)
	}
	// The counts were checked against what the header allows, so the records are there.
	lists := take(&r.lists, int(nl))
	l.Lists = take(&r.listPtr, int(nl))
	for i := range l.Lists {
		l.Lists[i] = &lists[i]
		if err := r.readList(lb+uint32(i)*listRecSize, l.Lists[i], depth+1); err != nil {
			return err
		}
	}
	objs := take(&r.objs, int(no))
	l.Objects = take(&r.objPtr, int(no))
	for i := range l.Objects {
		l.Objects[i] = &objs[i]
		if err := r.readObject(ob+uint32(i)*objRecSize, l.Objects[i]); err != nil {
			return err
		}
	}
	return nil
}

func (r *reader) readObject(off uint32, o *ParameterObject) error {
	if r.objsLeft == 0 {
		return formatErr(off, "more objects than the header's count %d", r.lay.nObjs)
	}
	r.objsLeft--
	d := r.data[off:]
	o.Name = Name(le.Uint32(d))
	np := le.Uint16(d[6:])
	pb, err := r.childBlock(off, le.Uint16(d[4:]), np, paramRecSize, "parameters")
	if err != nil {
		return err
	}
	r.lay.objs = append(r.lay.objs, pb)
	if uint32(np) > r.paramsLeft {
		return formatErr(off, "object claims %d parameters; header allows %d more", np, r.paramsLeft)
	}
	r.paramsLeft -= uint32(np)
	o.Params = take(&r.params, int(np))
	for i := range o.Params {
		if err := r.readParam(pb+uint32(i)*paramRecSize, &o.Params[i]); err != nil {
			return err
		}
	}
	return nil
}

// take cuts the next n records from the front of *slab, with no room to grow into the
// records after them. Records are taken for a list's children before they are read, so a
// file whose lists claim more children than the header counts (an error once they are
// read) can ask for more than is left: those get records of their own, as before.
func take[T any](slab *[]T, n int) []T {
	if n > len(*slab) {
		return make([]T, n)
	}
	s := (*slab)[:n:n]
	*slab = (*slab)[n:]
	return s
}

// boxed returns the box for a value of type t at off, or nil for a value outside the
// value sections. A box whose type differs (bytes read as two types) is not used.
func (r *reader) boxed(off uint32, t Type) *box {
	if off < r.boxLo || off&3 != 0 || int((off-r.boxLo)/4) >= len(r.boxes) {
		return nil
	}
	b := &r.boxes[(off-r.boxLo)/4]
	if b.v != nil && b.t != t {
		return nil
	}
	return b
}

// need takes n bytes at off for a parameter of type t's value (or, with count, its buffer's
// count) from the file and from the budget. The error names the parameter's type; its words
// are put together only on the error path, since need runs once per parameter.
func (r *reader) need(off uint32, n uint64, t Type, count bool) error {
	if uint64(off)+n <= uint64(len(r.data)) && n <= uint64(r.budget) {
		r.budget -= int(n)
		return nil
	}
	what := "parameter " + t.String()
	if count {
		what += " count"
	}
	if uint64(off)+n > uint64(len(r.data)) {
		return formatErr(off, "%s needs %d bytes, file ends at %#x", what, n, len(r.data))
	}
	return formatErr(off, "%s of %d bytes exceeds the decoding budget (shared data referenced too often)", what, n)
}

func (r *reader) f32s(off uint32, dst []float32) {
	for i := range dst {
		dst[i] = math.Float32frombits(le.Uint32(r.data[off+4*uint32(i):]))
	}
}

func (r *reader) readParam(off uint32, p *Parameter) error {
	d := r.data[off:]
	p.Name = Name(le.Uint32(d))
	w := le.Uint32(d[4:])
	p.Type = Type(w >> 24)
	at := off + 4*(w&0xffffff)
	if uint64(off)+4*uint64(w&0xffffff) > math.MaxUint32 {
		return formatErr(off, "data offset overflows")
	}
	r.lay.params = append(r.lay.params, at)
	b := r.boxed(at, p.Type)
	if b != nil && b.v != nil {
		// These bytes passed every check as this type before; they take from the budget
		// again, as a value read anew would.
		if err := r.need(at, uint64(b.size), p.Type, false); err != nil {
			return err
		}
		p.Value = b.v
		return nil
	}
	budget := r.budget
	switch p.Type {
	case TypeBool:
		if err := r.need(at, 4, p.Type, false); err != nil {
			return err
		}
		v := le.Uint32(r.data[at:])
		if v > 1 {
			return formatErr(at, "bool parameter holds %d (want 0 or 1)", v)
		}
		p.Value = v != 0
	case TypeF32, TypeInt, TypeU32:
		if err := r.need(at, 4, p.Type, false); err != nil {
			return err
		}
		v := le.Uint32(r.data[at:])
		switch p.Type {
		case TypeF32:
			p.Value = math.Float32frombits(v)
		case TypeInt:
			p.Value = int32(v)
		default:
			p.Value = v
		}
	case TypeVec2:
		if err := r.need(at, 8, p.Type, false); err != nil {
			return err
		}
		var v Vec2
		r.f32s(at, v[:])
		p.Value = v
	case TypeVec3:
		if err := r.need(at, 12, p.Type, false); err != nil {
			return err
		}
		var v Vec3
		r.f32s(at, v[:])
		p.Value = v
	case TypeVec4, TypeColor, TypeQuat:
		if err := r.need(at, 16, p.Type, false); err != nil {
			return err
		}
		var v [4]float32
		r.f32s(at, v[:])
		switch p.Type {
		case TypeVec4:
			p.Value = Vec4(v)
		case TypeColor:
			p.Value = Color(v)
		default:
			p.Value = Quat(v)
		}
	case TypeCurve1, TypeCurve2, TypeCurve3, TypeCurve4:
		n := int(p.Type-TypeCurve1) + 1
		if err := r.need(at, uint64(n)*curveSize, p.Type, false); err != nil {
			return err
		}
		cs := make([]Curve, n)
		for i := range cs {
			c := at + uint32(i)*curveSize
			cs[i].A = le.Uint32(r.data[c:])
			cs[i].B = le.Uint32(r.data[c+4:])
			r.f32s(c+8, cs[i].Floats[:])
		}
		p.Value = cs
	case TypeBufferInt, TypeBufferF32, TypeBufferU32, TypeBufferBinary:
		if at < 4 {
			return formatErr(off, "buffer data at %#x leaves no room for its count", at)
		}
		if err := r.need(at-4, 4, p.Type, true); err != nil {
			return err
		}
		n := uint64(le.Uint32(r.data[at-4:]))
		size := 4 * n
		if p.Type == TypeBufferBinary {
			size = n
		}
		if err := r.need(at, size, p.Type, false); err != nil {
			return err
		}
		switch p.Type {
		case TypeBufferInt:
			v := make([]int32, n)
			for i := range v {
				v[i] = int32(le.Uint32(r.data[at+4*uint32(i):]))
			}
			p.Value = v
		case TypeBufferF32:
			v := make([]float32, n)
			r.f32s(at, v)
			p.Value = v
		case TypeBufferU32:
			v := make([]uint32, n)
			for i := range v {
				v[i] = le.Uint32(r.data[at+4*uint32(i):])
			}
			p.Value = v
		default:
			p.Value = append([]byte{}, r.data[at:at+uint32(n)]...)
		}
	case TypeString32, TypeString64, TypeString256, TypeStringRef:
		if at >= uint32(len(r.data)) {
			return formatErr(off, "string at %#x is past the end of the file", at)
		}
		end := uint32(len(r.data))
		if m := p.Type.maxStringLen(); m > 0 && uint64(at)+uint64(m) < uint64(end) {
			end = at + uint32(m)
		}
		n := bytes.IndexByte(r.data[at:end], 0)
		if n < 0 {
			return formatErr(at, "string is not NUL-terminated before %#x", end)
		}
		if err := r.need(at, uint64(n)+1, p.Type, false); err != nil {
			return err
		}
		// Strings are cut from one copy of the file, made at the first: a copy per string
		// was an allocation per parameter. (Not the input itself: callers may reuse it.)
		if r.text == "" {
			r.text = string(r.data)
		}
		p.Value = r.text[at : at+uint32(n)]
	default:
		return formatErr(off, "unknown parameter type %d", uint8(p.Type))
	}
	if b != nil && p.Type.shareable() {
		*b = box{t: p.Type, size: uint32(budget - r.budget), v: p.Value}
	}
	return nil
}

// shareable reports whether a value of type t may be one boxed value for every parameter
// holding it: all but the slices (buffers and curves), which an interface holds by reference.
func (t Type) shareable() bool {
	return !t.IsBuffer() && (t < TypeCurve1 || t > TypeCurve4)
}
