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
	// The archive and its layout in one allocation.
	both := &struct {
		Archive
		layout archiveLayout
	}{}
	a := &both.Archive
	a.BigEndian = bo == binary.BigEndian
	a.layout = &both.layout
	a.layout.reserved = bo.Uint16(data[18:])
	a.layout.sizeShort = uint32(len(data)) - fileSize

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
	body := data[dataOffset:]

	a.Files = make([]File, count)
	a.layout.files = count
	placed := make([]placement, count) // one allocation for all files' facts
	for i := range placed {
		e := entries + i*sfatEntrySize
		placed[i] = placement{hash: bo.Uint32(data[e:]), attr: bo.Uint32(data[e+4:]), begin: bo.Uint32(data[e+8:])}
	}
	if err := a.readNames(nameTable, names, dataOffset, entries, placed); err != nil {
		return nil, err
	}
	for i := range a.Files {
		e := entries + i*sfatEntrySize
		p := &placed[i]
		end := bo.Uint32(data[e+12:])
		f := &a.Files[i]
		if p.attr != 0 {
			if h := hashName(a.HashMultiplier, f.Name); h != p.hash && hashNameUnsigned(a.HashMultiplier, f.Name) != p.hash {
				return nil, errAt(e, "SFAT entry %d: name hash 0x%08x, name %q hashes to 0x%08x", i, p.hash, f.Name, h)
			}
		}
		if p.begin > end || uint64(end) > uint64(len(body)) {
			return nil, errAt(e+8, "SFAT entry %d: data range 0x%x..0x%x (relative to 0x%x) outside the 0x%x data bytes", i, p.begin, end, dataOffset, len(body))
		}
		f.Data = body[p.begin:end:end]
		p.name, p.data = f.Name, f.Data
		f.placed = p
	}
	if err := a.recordLayout(entries, names, dataOffset); err != nil {
		return nil, err
	}
	// The tail: whatever follows the end of the last file's data (the writer's end, which is
	// the data offset when no file has data).
	end := dataOffset
	for i := range placed {
		end = max(end, dataOffset+placed[i].begin+uint32(len(placed[i].data)))
	}
	a.layout.tail, a.layout.tailAt = data[end:len(data):len(data)], end
	return a, nil
}

// recordLayout checks that no two files' data overlap and records how each file's data
// offset follows from the previous one, and the data section's offset from the name table.
func (a *Archive) recordLayout(entries, names int, dataOffset uint32) error {
	begin := func(i int) uint32 { return a.Files[i].placed.begin }
	// Writers put the data in SFAT order, and then the entries need no sorted copy.
	var order []int // entries by data offset; nil when that is SFAT order
	for i := 1; i < len(a.Files); i++ {
		if begin(i) < begin(i-1) {
			order = make([]int, len(a.Files))
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(begin(x), begin(y)) })
			break
		}
	}
	var prevEnd uint32
	prev := -1
	for k := range a.Files {
		i := k
		if order != nil {
			i = order[k]
		}
		begins := begin(i)
		if len(a.Files[i].Data) == 0 {
			continue
		}
		if prev >= 0 && begins < prevEnd {
			return errAt(entries+i*sfatEntrySize+8, "SFAT entry %d: data 0x%x..0x%x overlaps entry %d's data ending at 0x%x", i, begins, begins+uint32(len(a.Files[i].Data)), prev, prevEnd)
		}
		prev, prevEnd = i, begins+uint32(len(a.Files[i].Data))
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
			g = gcd(g, dataOffset+begin(i))
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
		begin := dataOffset + begin(i)
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
func (a *Archive) readNames(table []byte, names int, dataOffset uint32, entries int, placed []placement) error {
	off := func(i int) int { return int(placed[i].attr&0xFFFFFF) * 4 }
	// Writers name every entry and store the names in SFAT order; then the entries are in
	// table order already and need no sorted copy.
	var order []int // the named entries in table order; nil when that is every entry in SFAT order
	for i := range placed {
		if placed[i].attr == 0 || i > 0 && off(i) <= off(i-1) {
			order = make([]int, 0, len(placed))
			for i := range placed {
				if placed[i].attr != 0 {
					order = append(order, i)
				}
			}
			slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(off(x), off(y)) })
			break
		}
	}
	n := len(placed)
	named := func(k int) int { return k }
	if order != nil {
		n = len(order)
		named = func(k int) int { return order[k] }
	}
	if n == 0 {
		return nil
	}
	last := 0 // where the last name in the table ends
	for k := range n {
		i := named(k)
		start := off(i)
		if start >= len(table) {
			return errAt(entries+i*sfatEntrySize+4, "SFAT entry %d: name offset 0x%x outside the name table (0x%x bytes at 0x%x)", i, start, len(table), names)
		}
		limit := len(table)
		if k+1 < n {
			next := named(k + 1)
			if off(next) == start {
				return errAt(entries+next*sfatEntrySize+4, "SFAT entry %d: name at 0x%x is also entry %d's name", next, names+start, i)
			}
			limit = min(off(next), len(table))
		}
		end := bytes.IndexByte(table[start:limit], 0)
		if end < 0 {
			// What the name ran into is worded only here, on the error path.
			what := fmt.Sprintf("the data at 0x%x", dataOffset)
			if k+1 < n {
				what = fmt.Sprintf("entry %d's name at 0x%x", named(k+1), names+off(named(k+1)))
			}
			return errAt(entries+i*sfatEntrySize+4, "SFAT entry %d: name at 0x%x has no terminator before %s", i, names+start, what)
		}
		last = start + end
	}
	// The names are cut from one copy of the table up to the last name's end (not the
	// padding after it): a string per name was an allocation each.
	text := string(table[:last])
	for i := range placed {
		if placed[i].attr != 0 {
			name := text[off(i):]
			if end := strings.IndexByte(name, 0); end >= 0 {
				name = name[:end]
			}
			a.Files[i].Name = name // the last in the table ends with text
		}
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
