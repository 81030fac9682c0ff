package exb

import (
	"math"
	"slices"
	"strings"
)

// Bytes returns the section's bytes; see AppendBinary.
func (m *Module) Bytes() ([]byte, error) { return m.AppendBinary(nil) }

// AppendBinary appends the section's bytes to dst. It first checks everything
// Read checks, so what it writes reads back; on error dst is returned
// unchanged. AppendBinary writes the model as it is: it recomputes no offsets
// other than those of the sub-sections, and no sizes (see RecomputeMemory).
func (m *Module) AppendBinary(dst []byte) ([]byte, error) {
	if m.Version < 1 || m.Version > 3 {
		return dst, formatErr(secHeader, 4, "unsupported version %d (want 1, 2 or 3)", m.Version)
	}
	so, err := m.layout()
	if err != nil {
		return dst, err
	}
	img, err := m.Params.image(so.start[SectionParams])
	if err != nil {
		return dst, err
	}
	if err := m.Strings.check(so.start[SectionStrings]); err != nil {
		return dst, err
	}
	for i := range m.Functions {
		f := &m.Functions[i]
		at := so.start[SectionFunctions] + 4 + i*functionEntrySize(m.Version)
		_, okOut := encodeType(f.Output, m.Version)
		_, okIn := encodeType(f.Input, m.Version)
		if !okOut || !okIn {
			return dst, formatErr(secFunctions, at, "function %d: type %s -> %s not allowed in version %d", i, f.Input, f.Output, m.Version)
		}
	}
	if _, err := m.check(img, &so, false); err != nil {
		return dst, err
	}

	start := len(dst)
	b := slices.Grow(dst, so.total)
	b = append(b, "EXB "...)
	b = le.AppendUint32(b, m.Version)
	b = le.AppendUint32(b, m.Header.StaticSize)
	b = le.AppendUint32(b, m.Header.InstanceCount)
	b = le.AppendUint32(b, m.Header.Scratch32Size)
	b = le.AppendUint32(b, m.Header.Scratch64Size)
	for s := range numSections {
		b = le.AppendUint32(b, uint32(so.start[s]))
	}
	b = append(b, m.Layout.HeaderGap...)
	for _, s := range m.Layout.order() {
		switch s {
		case SectionFunctions:
			b = m.appendFunctions(b)
		case SectionInstructions:
			b = le.AppendUint32(b, uint32(len(m.Instructions)))
			for i := range m.Instructions {
				b = m.Instructions[i].appendTo(b, m.Version)
			}
		case SectionSignatures:
			b = le.AppendUint32(b, uint32(len(m.Signatures)))
			for _, o := range m.Signatures {
				b = le.AppendUint32(b, o)
			}
		case SectionParams:
			b = append(b, img...)
		case SectionStrings:
			b = m.Strings.appendTo(b)
		}
		b = append(b, m.Layout.Gap[s]...)
	}
	if len(b)-start != so.total {
		return dst, formatErr(secLayout, len(b)-start, "internal error: wrote %d bytes, planned %d", len(b)-start, so.total)
	}
	return b, nil
}

// layout places the sub-sections the way AppendBinary will write them.
func (m *Module) layout() (sectionOffsets, error) {
	var so sectionOffsets
	order := m.Layout.order()
	var seen [numSections]bool
	if len(order) != int(numSections) {
		return so, formatErr(secLayout, 0, "order lists %d sub-sections, want %d", len(order), numSections)
	}
	for _, s := range order {
		if s >= numSections || seen[s] {
			return so, formatErr(secLayout, 0, "order %v is not a permutation of the five sub-sections", order)
		}
		seen[s] = true
	}
	for _, s := range []Section{SectionParams, SectionStrings} {
		if len(m.Layout.Gap[s]) > 0 {
			return so, formatErr(secLayout, 0, "the %s sub-section runs to the next one and cannot have a gap", s)
		}
	}
	var size [numSections]int
	size[SectionFunctions] = 4 + len(m.Functions)*functionEntrySize(m.Version)
	size[SectionInstructions] = 4 + 8*len(m.Instructions)
	size[SectionSignatures] = 4 + 4*len(m.Signatures)
	_, size[SectionParams] = m.Params.Offsets()
	size[SectionStrings] = m.Strings.Size()
	pos := headerSize + len(m.Layout.HeaderGap)
	for _, s := range order {
		so.start[s] = pos
		pos += size[s] + len(m.Layout.Gap[s])
	}
	so.total = pos
	if pos > math.MaxUint32 {
		return so, formatErr(secLayout, 0, "section would be %d bytes, more than a u32 offset can reach", pos)
	}
	return so, nil
}

func (m *Module) appendFunctions(b []byte) []byte {
	b = le.AppendUint32(b, uint32(len(m.Functions)))
	for i := range m.Functions {
		f := &m.Functions[i]
		b = le.AppendUint32(b, uint32(f.Setup.Base))
		if m.Version != 1 {
			b = le.AppendUint32(b, f.Setup.Count)
		}
		b = le.AppendUint32(b, uint32(f.Main.Base))
		if m.Version != 1 {
			b = le.AppendUint32(b, f.Main.Count)
		}
		b = le.AppendUint32(b, f.StaticSize)
		b = le.AppendUint16(b, f.Scratch32Size)
		b = le.AppendUint16(b, f.Scratch64Size)
		out, _ := encodeType(f.Output, m.Version)
		in, _ := encodeType(f.Input, m.Version)
		b = le.AppendUint16(b, uint16(out))
		b = le.AppendUint16(b, uint16(in))
	}
	return b
}

// appendTo encodes the instruction; the caller has checked its fields.
func (in *Instruction) appendTo(b []byte, version uint32) []byte {
	t, _ := in.typeByte(version)
	b = append(b, byte(in.Op), t)
	if in.Op == OpUserFunction {
		b = le.AppendUint16(b, in.ArgOffset)
		return le.AppendUint32(b, in.Signature)
	}
	b = append(b, byte(in.LHS.Src), byte(in.RHS.Src))
	b = le.AppendUint16(b, in.LHS.Val)
	return le.AppendUint16(b, in.RHS.Val)
}

// Bytes returns the instruction's eight bytes as the given version stores
// them.
func (in *Instruction) Bytes(version uint32) ([8]byte, bool) {
	var out [8]byte
	if !in.Op.Valid() || !in.typeEncodes(version) {
		return out, false
	}
	if in.Op != OpUserFunction && !in.sourcesKnown() {
		return out, false
	}
	copy(out[:], in.appendTo(nil, version))
	return out, true
}

// image lays the entries out as bytes. base is the region's offset in the
// section, for error messages.
func (t *ParamTable) image(base int) ([]byte, error) {
	_, size := t.Offsets()
	img := make([]byte, 0, size)
	for i, p := range t.Entries {
		switch p.Kind {
		case ParamBytes:
			if len(p.Data) == 0 {
				return nil, formatErr(secParams, base+len(img), "entry %d: empty bytes entry", i)
			}
			img = append(img, p.Data...)
		case ParamVec3f:
			img = le.AppendUint32(img, p.Bits[0])
			img = le.AppendUint32(img, p.Bits[1])
			img = le.AppendUint32(img, p.Bits[2])
		case ParamInt, ParamUInt, ParamBool, ParamFloat, ParamString:
			img = le.AppendUint32(img, p.Bits[0])
		default:
			return nil, formatErr(secParams, base+len(img), "entry %d: unknown kind %d", i, p.Kind)
		}
	}
	return img, nil
}

func (p *StringPool) check(base int) error {
	off := 0
	for i, s := range p.Strings {
		if j := strings.IndexByte(s, 0); j >= 0 {
			return formatErr(secStrings, base+off+j, "string %d contains a NUL byte", i)
		}
		off += len(s) + 1
	}
	if p.Unterminated && (len(p.Strings) == 0 || p.Strings[len(p.Strings)-1] == "") {
		return formatErr(secStrings, base+off, "an unterminated last string must not be empty")
	}
	return nil
}

func (p *StringPool) appendTo(b []byte) []byte {
	for i, s := range p.Strings {
		b = append(b, s...)
		if !p.Unterminated || i < len(p.Strings)-1 {
			b = append(b, 0)
		}
	}
	return b
}
