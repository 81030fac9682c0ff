package sarc

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// View is a read-only look at an archive, the way the game reads one: Open checks the
// headers and that the file table fits, and each entry is read and checked only when it is
// asked for. A View allocates nothing; names and data alias the input. It suits a caller that
// wants a few files out of an archive (a dictionary out of a pack). Editing and writing need
// the Archive that Read makes: Read checks every entry at once (names that overlap, data that
// overlaps) and records the layout a byte-identical write needs, which a View never does.
//
// A View is seven words, so that Open returns it in registers: the SFAT entries start at
// a fixed offset and the name table's follows from the count.
type View struct {
	data       []byte
	big        bool
	count      int
	mult       uint32
	dataOffset uint32 // offset of the data section
}

// entries is the offset of the first SFAT entry.
const entries = headerSize + sfatHeadSize

// names returns the offset of the name table.
func (v *View) names() int { return entries + v.count*sfatEntrySize + sfntHeadSize }

// Open checks an archive's headers and the bounds of its file table and name table; the
// entries are checked by Entry and Lookup.
func Open(data []byte) (View, error) {
	var v View
	if len(data) < headerSize {
		return v, errAt(len(data), "the input ends inside the %d-byte header", headerSize)
	}
	if string(data[:4]) != "SARC" {
		return v, errAt(0, "magic %q, want \"SARC\"", data[:4])
	}
	switch {
	case data[6] == 0xFE && data[7] == 0xFF:
		v.big = true
	case data[6] == 0xFF && data[7] == 0xFE:
	default:
		return v, errAt(0x6, "byte order mark %02x %02x, want fe ff or ff fe", data[6], data[7])
	}
	v.data = data
	if hs := v.u16(4); hs != headerSize {
		return v, errAt(0x4, "header size 0x%x, want 0x%x", hs, headerSize)
	}
	fileSize := v.u32(8)
	v.dataOffset = v.u32(12)
	if version := v.u16(16); version != 0x0100 {
		return v, errAt(0x10, "version 0x%04x, want 0x0100", version)
	}
	// A size past the input means bytes are missing. A smaller one is a writer's mistake
	// (some modding tools store 4 less than they write) that the game does not mind.
	if uint64(fileSize) > uint64(len(data)) {
		return v, errAt(0x8, "file size %d, input has %d bytes (cut short)", fileSize, len(data))
	}

	off := headerSize
	if err := v.section(off, "SFAT", sfatHeadSize); err != nil {
		return v, err
	}
	v.count = int(v.u16(off + 6))
	v.mult = v.u32(off + 8)
	if v.count > maxFiles {
		return v, errAt(off+6, "SFAT count %d exceeds the format's limit %d", v.count, maxFiles)
	}
	if rest := len(data) - entries; v.count*sfatEntrySize > rest {
		return v, errAt(off+6, "SFAT count %d needs %d bytes of entries, %d remain", v.count, v.count*sfatEntrySize, rest)
	}

	if err := v.section(entries+v.count*sfatEntrySize, "SFNT", sfntHeadSize); err != nil {
		return v, err
	}
	if names := v.names(); uint64(v.dataOffset) < uint64(names) || uint64(v.dataOffset) > uint64(len(data)) {
		return v, errAt(0xc, "data offset 0x%x outside 0x%x..0x%x (after the SFNT header, within the file)", v.dataOffset, names, len(data))
	}
	return v, nil
}

// section checks the header of the section at off: that it fits, its magic and its size.
func (v *View) section(off int, magic string, size int) error {
	if len(v.data) < off+size {
		return errAt(off, "%s header needs %d bytes, input ends at 0x%x", magic, size, len(v.data))
	}
	if string(v.data[off:off+4]) != magic {
		return errAt(off, "magic %q, want %q", v.data[off:off+4], magic)
	}
	if hs := v.u16(off + 4); int(hs) != size {
		return errAt(off+4, "%s header size 0x%x, want 0x%x", magic, hs, size)
	}
	return nil
}

func (v *View) u16(off int) uint16 {
	if v.big {
		return binary.BigEndian.Uint16(v.data[off:])
	}
	return binary.LittleEndian.Uint16(v.data[off:])
}

func (v *View) u32(off int) uint32 {
	if v.big {
		return binary.BigEndian.Uint32(v.data[off:])
	}
	return binary.LittleEndian.Uint32(v.data[off:])
}

// Len returns the number of entries in the file table.
func (v *View) Len() int { return v.count }

// BigEndian reports the byte order (byte order mark FE FF).
func (v *View) BigEndian() bool { return v.big }

// HashMultiplier returns the SFAT name hash multiplier.
func (v *View) HashMultiplier() uint32 { return v.mult }

// nameTable returns the bytes between the SFNT header and the data.
func (v *View) nameTable() []byte { return v.data[v.names():v.dataOffset] }

// body returns the data section.
func (v *View) body() []byte { return v.data[v.dataOffset:] }

// entry returns the offset of entry i and its four fields.
func (v *View) entry(i int) (e int, hash, attr, begin, end uint32) {
	e = entries + i*sfatEntrySize
	b := v.data[e : e+sfatEntrySize : e+sfatEntrySize]
	if v.big {
		be := binary.BigEndian
		return e, be.Uint32(b), be.Uint32(b[4:]), be.Uint32(b[8:]), be.Uint32(b[12:])
	}
	le := binary.LittleEndian
	return e, le.Uint32(b), le.Uint32(b[4:]), le.Uint32(b[8:]), le.Uint32(b[12:])
}

// Entry reads and checks entry i (0 <= i < Len): its name ends inside the name table and its
// data lies inside the data section. Both alias the input; name is nil for an entry without
// one. Like the game, and oead and roead, it does not check the stored hash against the name:
// Lookup finds files by that hash and then compares names, so a file under a wrong hash is
// not found there, and Read refuses it.
func (v *View) Entry(i int) (name, data []byte, err error) {
	if uint(i) >= uint(v.count) {
		return nil, nil, errIndex(i, v.count)
	}
	e, _, attr, begin, end := v.entry(i)
	if attr != 0 {
		table := v.nameTable()
		start := int(attr&0xFFFFFF) * 4
		if start >= len(table) {
			return nil, nil, errNameOutside(e, i, start, len(table), v.names())
		}
		n := bytes.IndexByte(table[start:], 0)
		if n < 0 {
			return nil, nil, errUnterminated(e, i, v.names()+start, v.dataOffset)
		}
		name = table[start : start+n : start+n]
	}
	body := v.body()
	if begin > end || uint64(end) > uint64(len(body)) {
		return nil, nil, errDataRange(e, i, begin, end, v.dataOffset, len(body))
	}
	return name, body[begin:end:end], nil
}

// Lookup finds the named file the way the game does: by a binary search of the file table
// for the name's hash, which relies on the table being sorted by hash as every writer sorts
// it (Archive.Lookup, on what Read made, does not). It reports false when no entry has that
// name, and an error when an entry it reads on the way is damaged.
func (v *View) Lookup(name string) ([]byte, bool, error) {
	h := hashName(v.mult, name)
	data, ok, err := v.lookup(name, h)
	if ok || err != nil {
		return data, ok, err
	}
	if u := hashNameUnsigned(v.mult, name); u != h { // a name with bytes above 0x7F
		return v.lookup(name, u)
	}
	return nil, false, nil
}

func (v *View) lookup(name string, h uint32) ([]byte, bool, error) {
	lo, hi := 0, v.count // the first entry with a hash at least h is in [lo, hi]
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if _, hash, _, _, _ := v.entry(m); hash < h {
			lo = m + 1
		} else {
			hi = m
		}
	}
	for i := lo; i < v.count; i++ { // entries whose names share the hash
		if _, hash, _, _, _ := v.entry(i); hash != h {
			break
		}
		got, data, err := v.Entry(i)
		if err != nil {
			return nil, false, err
		}
		if got != nil && string(got) == name {
			return data, true, nil
		}
	}
	return nil, false, nil
}

// The errors of entry i (at e), shared by Read and View. They are built out of line: their
// arguments, inlined, made Entry's frame so large that returning an entry cost more than
// reading it.

//go:noinline
func errIndex(i, count int) error { return fmt.Errorf("sarc: entry %d of %d", i, count) }

//go:noinline
func errNameOutside(e, i, start, tableLen, names int) error {
	return errAt(e+4, "SFAT entry %d: name offset 0x%x outside the name table (0x%x bytes at 0x%x)", i, start, tableLen, names)
}

//go:noinline
func errUnterminated(e, i, at int, dataOffset uint32) error {
	return errUnterminatedBefore(e, i, at, fmt.Sprintf("the data at 0x%x", dataOffset))
}

func errUnterminatedBefore(e, i, at int, before string) error {
	return errAt(e+4, "SFAT entry %d: name at 0x%x has no terminator before %s", i, at, before)
}

//go:noinline
func errDataRange(e, i int, begin, end, dataOffset uint32, bodyLen int) error {
	return errAt(e+8, "SFAT entry %d: data range 0x%x..0x%x (relative to 0x%x) outside the 0x%x data bytes", i, begin, end, dataOffset, bodyLen)
}
