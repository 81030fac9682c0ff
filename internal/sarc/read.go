package sarc

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
)

// Sizes of the fixed structures.
const (
	headerSize    = 0x14
	sfatHeadSize  = 0x0C
	sfatEntrySize = 0x10
	sfntHeadSize  = 0x08
)

// maxFiles is the limit sead puts on the SFAT count (it rejects counts with bit 14 or 15 set).
const maxFiles = 0x3FFF

// Read parses a SARC archive. The returned files' Data slices alias data: edits to data show
// through, and data must stay alive and unchanged while the archive is in use unless the
// caller copies the files out. Read keeps no other part of data except the bytes after the
// last file's data, if any (see Warnings); Bytes lays the archive out again from the model.
func Read(data []byte) (*Archive, error) {
	if len(data) < headerSize {
		return nil, errAt(len(data), "the input ends inside the %d-byte header", headerSize)
	}
	if string(data[:4]) != "SARC" {
		return nil, errAt(0, "magic %q, want \"SARC\"", data[:4])
	}
	var bo binary.ByteOrder
	switch {
	case data[6] == 0xFE && data[7] == 0xFF:
		bo = binary.BigEndian
	case data[6] == 0xFF && data[7] == 0xFE:
		bo = binary.LittleEndian
	default:
		return nil, errAt(0x6, "byte order mark %02x %02x, want fe ff or ff fe", data[6], data[7])
	}
	if hs := bo.Uint16(data[4:]); hs != headerSize {
		return nil, errAt(0x4, "header size 0x%x, want 0x%x", hs, headerSize)
	}
	fileSize := bo.Uint32(data[8:])
	dataOffset := bo.Uint32(data[12:])
	version := bo.Uint16(data[16:])
	if version != 0x0100 {
		return nil, errAt(0x10, "version 0x%04x, want 0x0100", version)
	}
	// A size past the input means bytes are missing. A smaller one is a writer's mistake
	// (some modding tools store 4 less than they write); nothing else depends on it, so it
	// is recorded, reported by Warnings and written back while the archive is unedited.
	if uint64(fileSize) > uint64(len(data)) {
		return nil, errAt(0x8, "file size %d, input has %d bytes (cut short)", fileSize, len(data))
	}
	a := &Archive{BigEndian: bo == binary.BigEndian, layout: &archiveLayout{
		reserved:  bo.Uint16(data[18:]),
		sizeShort: uint32(len(data)) - fileSize,
	}}

	// SFAT
	off := headerSize
	if len(data) < off+sfatHeadSize {
		return nil, errAt(off, "SFAT header needs %d bytes, input ends at 0x%x", sfatHeadSize, len(data))
	}
	if string(data[off:off+4]) != "SFAT" {
		return nil, errAt(off, "magic %q, want \"SFAT\"", data[off:off+4])
	}
	if hs := bo.Uint16(data[off+4:]); hs != sfatHeadSize {
		return nil, errAt(off+4, "SFAT header size 0x%x, want 0x%x", hs, sfatHeadSize)
	}
	count := int(bo.Uint16(data[off+6:]))
	a.HashMultiplier = bo.Uint32(data[off+8:])
	if count > maxFiles {
		return nil, errAt(off+6, "SFAT count %d exceeds the format's limit %d", count, maxFiles)
	}
	entries := off + sfatHeadSize
	if rest := len(data) - entries; count*sfatEntrySize > rest {
		return nil, errAt(off+6, "SFAT count %d needs %d bytes of entries, %d remain", count, count*sfatEntrySize, rest)
	}

	// SFNT
	off = entries + count*sfatEntrySize
	if len(data) < off+sfntHeadSize {
		return nil, errAt(off, "SFNT header needs %d bytes, input ends at 0x%x", sfntHeadSize, len(data))
	}
	if string(data[off:off+4]) != "SFNT" {
		return nil, errAt(off, "magic %q, want \"SFNT\"", data[off:off+4])
	}
	if hs := bo.Uint16(data[off+4:]); hs != sfntHeadSize {
		return nil, errAt(off+4, "SFNT header size 0x%x, want 0x%x", hs, sfntHeadSize)
	}
	a.layout.sfntReserved = bo.Uint16(data[off+6:])
	names := off + sfntHeadSize
	if uint64(dataOffset) < uint64(names) || uint64(dataOffset) > uint64(len(data)) {
		return nil, errAt(0xc, "data offset 0x%x outside 0x%x..0x%x (after the SFNT header, within the file)", dataOffset, names, len(data))
	}
	nameTable := data[names:dataOffset]
	begins := make([]uint32, count)
	body := data[dataOffset:]

	a.Files = make([]File, count)
	a.layout.files = count
	attrs := make([]uint32, count)
	for i := range a.Files {
		e := entries + i*sfatEntrySize
		attrs[i] = bo.Uint32(data[e+4:])
	}
	if err := a.readNames(nameTable, names, dataOffset, entries, attrs); err != nil {
		return nil, err
	}
	placed := make([]placement, count) // one allocation for all files' facts
	for i := range a.Files {
		e := entries + i*sfatEntrySize
		hash := bo.Uint32(data[e:])
		begin := bo.Uint32(data[e+8:])
		end := bo.Uint32(data[e+12:])
		f := &a.Files[i]
		if attrs[i] != 0 {
			if h := hashName(a.HashMultiplier, f.Name); h != hash && hashNameUnsigned(a.HashMultiplier, f.Name) != hash {
				return nil, errAt(e, "SFAT entry %d: name hash 0x%08x, name %q hashes to 0x%08x", i, hash, f.Name, h)
			}
		}
		if begin > end || uint64(end) > uint64(len(body)) {
			return nil, errAt(e+8, "SFAT entry %d: data range 0x%x..0x%x (relative to 0x%x) outside the 0x%x data bytes", i, begin, end, dataOffset, len(body))
		}
		f.Data = body[begin:end:end]
		placed[i] = placement{name: f.Name, data: f.Data, hash: hash, attr: attrs[i]}
		f.placed = &placed[i]
		begins[i] = begin
	}
	if err := a.recordLayout(entries, names, dataOffset, begins); err != nil {
		return nil, err
	}
	// The tail: whatever follows the end of the last file's data (the writer's end, which is
	// the data offset when no file has data).
	end := dataOffset
	for i := range a.Files {
		end = max(end, dataOffset+begins[i]+uint32(len(a.Files[i].Data)))
	}
	a.layout.tail, a.layout.tailAt = data[end:len(data):len(data)], end
	return a, nil
}

// recordLayout checks that no two files' data overlap and records how each file's data
// offset follows from the previous one, and the data section's offset from the name table.
func (a *Archive) recordLayout(entries, names int, dataOffset uint32, begins []uint32) error {
	order := make([]int, len(a.Files))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(begins[x], begins[y]) })
	var prevEnd uint32
	prev := -1
	for _, i := range order {
		if len(a.Files[i].Data) == 0 {
			continue
		}
		if prev >= 0 && begins[i] < prevEnd {
			return errAt(entries+i*sfatEntrySize+8, "SFAT entry %d: data 0x%x..0x%x overlaps entry %d's data ending at 0x%x", i, begins[i], begins[i]+uint32(len(a.Files[i].Data)), prev, prevEnd)
		}
		prev, prevEnd = i, begins[i]+uint32(len(a.Files[i].Data))
	}

	namesEnd := uint32(names)
	for i := range a.Files {
		if a.Files[i].placed.attr != 0 {
			namesEnd += alignUp(uint32(len(a.Files[i].Name))+1, 4)
		}
	}
	a.layout.dataAlign = 4
	if dataOffset >= namesEnd {
		// The largest alignment that explains the gap: the data section is aligned for
		// its most demanding file.
		hi := dataOffset & -dataOffset
		if dataOffset == 0 {
			hi = 1
		}
		if al, pad := inferAlign(namesEnd, dataOffset, hi); pad == 0 {
			a.layout.dataAlign = al
		}
	}

	// The minimum alignment for new files. oead guesses gcd(4, every data offset), which
	// can never exceed 4; TotK packs align every file to 8, so the gcd here starts from the
	// offsets alone (non-empty files), capped by the data section's own alignment and
	// never below oead's 4.
	var g uint32
	for i := range a.Files {
		if len(a.Files[i].Data) > 0 {
			g = gcd(g, dataOffset+begins[i])
		}
	}
	a.MinAlignment = 4
	if g != 0 {
		a.MinAlignment = max(4, min(g&-g, a.layout.dataAlign))
	}

	// The writer places files in SFAT order; record each file's step from the previous.
	prevEnd = dataOffset
	for i := range a.Files {
		f := &a.Files[i]
		begin := dataOffset + begins[i]
		if begin < prevEnd {
			// Data not in SFAT order: nothing to record; the writer will reorder.
			f.placed.align = a.ruleAlignment(f.Name, f.Data)
			continue
		}
		f.placed.align, f.placed.pad = inferAlign(prevEnd, begin, a.ruleAlignment(f.Name, f.Data))
		prevEnd = begin + uint32(len(f.Data))
	}
	return nil
}

func gcd(a, b uint32) uint32 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// readNames sets the named entries' names. Each name must end before the next name (in
// table order) starts: names that share or overlap bytes would let a small table expand to
// count times its size, and no writer produces them.
func (a *Archive) readNames(table []byte, names int, dataOffset uint32, entries int, attrs []uint32) error {
	order := make([]int, 0, len(attrs))
	for i, attr := range attrs {
		if attr != 0 {
			order = append(order, i)
		}
	}
	off := func(i int) int { return int(attrs[i]&0xFFFFFF) * 4 }
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(off(x), off(y)) })
	// Each name's length first, then all names in one string, cut into each file's: a
	// string per name was an allocation each.
	lens := make([]int, len(order))
	total := 0
	for k, i := range order {
		start := off(i)
		if start >= len(table) {
			return errAt(entries+i*sfatEntrySize+4, "SFAT entry %d: name offset 0x%x outside the name table (0x%x bytes at 0x%x)", i, start, len(table), names)
		}
		limit := len(table)
		if k+1 < len(order) {
			next := order[k+1]
			if off(next) == start {
				return errAt(entries+next*sfatEntrySize+4, "SFAT entry %d: name at 0x%x is also entry %d's name", next, names+start, i)
			}
			limit = min(off(next), len(table))
		}
		n := bytes.IndexByte(table[start:limit], 0)
		if n < 0 {
			// What the name ran into is worded only here, on the error path.
			what := fmt.Sprintf("the data at 0x%x", dataOffset)
			if k+1 < len(order) {
				what = fmt.Sprintf("entry %d's name at 0x%x", order[k+1], names+off(order[k+1]))
			}
			return errAt(entries+i*sfatEntrySize+4, "SFAT entry %d: name at 0x%x has no terminator before %s", i, names+start, what)
		}
		lens[k] = n
		total += n
	}
	var all strings.Builder
	all.Grow(total)
	for k, i := range order {
		all.Write(table[off(i) : off(i)+lens[k]])
	}
	text, at := all.String(), 0
	for k, i := range order {
		a.Files[i].Name = text[at : at+lens[k]]
		at += lens[k]
	}
	return nil
}

// hashName is the SFAT name hash: each byte, as a signed char the way sead reads it, added to
// the running hash times the multiplier.
func hashName(mult uint32, name string) uint32 {
	var h uint32
	for i := 0; i < len(name); i++ {
		h = h*mult + uint32(int32(int8(name[i])))
	}
	return h
}

// hashNameUnsigned reads bytes as unsigned char, as a compiler for ARM does; the two agree on
// ASCII names, and the reader accepts either.
func hashNameUnsigned(mult uint32, name string) uint32 {
	var h uint32
	for i := 0; i < len(name); i++ {
		h = h*mult + uint32(name[i])
	}
	return h
}

// FormatError reports bytes that are not a SARC archive the reader accepts: what is wrong and
// at which offset of the archive.
type FormatError struct {
	Offset int
	Msg    string
}

func (e *FormatError) Error() string { return fmt.Sprintf("sarc: at 0x%x: %s", e.Offset, e.Msg) }

func errAt(offset int, format string, args ...any) *FormatError {
	return &FormatError{Offset: offset, Msg: fmt.Sprintf(format, args...)}
}
