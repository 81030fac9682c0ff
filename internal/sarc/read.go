package sarc

import (
	"bytes"
	"cmp"
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
	v, err := Open(data)
	if err != nil {
		return nil, err
	}
	count, names, dataOffset := v.count, v.names(), v.dataOffset
	// The archive and its layout in one allocation.
	both := &struct {
		Archive
		layout archiveLayout
	}{}
	a := &both.Archive
	a.BigEndian = v.big
	a.HashMultiplier = v.mult
	a.layout = &both.layout
	a.layout.reserved = v.u16(18)
	// A file size short of the input (Open refuses one past it) is recorded, reported by
	// Warnings and written back while the archive is unedited.
	a.layout.sizeShort = uint32(len(data)) - v.u32(8)
	a.layout.sfntReserved = v.u16(names - 2)
	body := v.body()

	a.Files = make([]File, count)
	a.layout.files = count
	placed := make([]placement, count) // one allocation for all files' facts
	for i := range placed {
		_, hash, attr, begin, _ := v.entry(i)
		placed[i] = placement{hash: hash, attr: attr, begin: begin}
		if i > 0 && hash < placed[i-1].hash && a.layout.unsortedAt == 0 {
			a.layout.unsortedAt, a.layout.unsortedHash, a.layout.unsortedPrev = i, hash, placed[i-1].hash
		}
	}
	if err := a.readNames(v.nameTable(), names, dataOffset, placed); err != nil {
		return nil, err
	}
	for i := range a.Files {
		e := entries + i*sfatEntrySize
		p := &placed[i]
		f := &a.Files[i]
		if p.attr != 0 {
			if err := checkHash(e, i, a.HashMultiplier, p.hash, f.Name); err != nil {
				return nil, err
			}
		}
		end := v.u32(e + 12)
		if p.begin > end || uint64(end) > uint64(len(body)) {
			return nil, errDataRange(e, i, p.begin, end, dataOffset, len(body))
		}
		f.Data = body[p.begin:end:end]
		p.name, p.data = f.Name, f.Data
		f.placed = p
	}
	if err := a.recordLayout(names, dataOffset); err != nil {
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
func (a *Archive) recordLayout(names int, dataOffset uint32) error {
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
func (a *Archive) readNames(table []byte, names int, dataOffset uint32, placed []placement) error {
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
			return errNameOutside(entries+i*sfatEntrySize, i, start, len(table), names)
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
			e := entries + i*sfatEntrySize
			if k+1 < n {
				next := named(k + 1)
				return errUnterminatedBefore(e, i, names+start, fmt.Sprintf("entry %d's name at 0x%x", next, names+off(next)))
			}
			return errUnterminated(e, i, names+start, dataOffset)
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

// checkHash checks entry i's stored hash (the entry at e) against its name, read either as
// sead reads it (signed bytes) or as ARM compilers do (unsigned).
func checkHash(e, i int, mult, hash uint32, name string) error {
	if h := hashName(mult, name); h != hash && hashNameUnsigned(mult, name) != hash {
		return errAt(e, "SFAT entry %d: name hash 0x%08x, name %q hashes to 0x%08x", i, hash, name, h)
	}
	return nil
}

// hashName is the SFAT name hash: each byte, as a signed char the way sead reads it, added to
// the running hash times the multiplier.
func hashName(mult uint32, name string) uint32 { return hashWith(mult, name, 0x80) }

// hashNameUnsigned reads bytes as unsigned char, as a compiler for ARM does; the two agree on
// ASCII names, and the reader accepts either.
func hashNameUnsigned(mult uint32, name string) uint32 { return hashWith(mult, name, 0) }

// hashWith hashes name with bytes read as signed when sign is 0x80, unsigned when it is 0.
// It takes four bytes a step, h*m⁴ + b0*m³ + b1*m² + b2*m + b3: the four products do not
// wait on each other, so the chain through h is one multiply and add per four bytes instead
// of per byte (hashing the names was over a tenth of Read).
func hashWith(mult uint32, name string, sign uint32) uint32 {
	m2 := mult * mult
	m3, m4 := m2*mult, m2*m2
	char := func(b byte) uint32 { u := uint32(b); return u - (u&sign)<<1 }
	var h uint32
	i := 0
	for ; i+4 <= len(name); i += 4 {
		h = h*m4 + char(name[i])*m3 + char(name[i+1])*m2 + char(name[i+2])*mult + char(name[i+3])
	}
	for ; i < len(name); i++ {
		h = h*mult + char(name[i])
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
