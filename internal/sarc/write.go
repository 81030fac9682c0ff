package sarc

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Bytes lays the archive out: header, SFAT sorted by hash, SFNT in SFAT order with each name
// padded to 4 bytes, then the data in SFAT order. Files Read recorded and nobody changed keep
// their recorded alignment or padding; other files get the public tools' alignment.
func (a *Archive) Bytes() ([]byte, error) { return a.AppendBinary(nil) }

// AppendBinary appends the archive as Bytes lays it out to dst (encoding.BinaryAppender).
// A caller that writes archives repeatedly passes a buffer it reuses: a fresh buffer the size
// of the archive for every write was most of the writer's cost (page faults on new memory,
// its clearing, and the collector).
func (a *Archive) AppendBinary(dst []byte) ([]byte, error) {
	p, tail, err := a.prepare()
	if err != nil {
		return nil, err
	}
	if cap(dst)-len(dst) < int(p.total) {
		// make, unlike slices.Grow, clears a large buffer in steps the scheduler can
		// preempt (see appendPiece).
		grown := make([]byte, len(dst), len(dst)+int(p.total))
		dst = grown[:copy(grown, dst)]
	}
	base := len(dst)
	out := a.appendHead(dst, p)
	for _, piece := range p.body(uint64(len(out)-base), tail) {
		for len(piece) > copyStep {
			out = appendPiece(out, piece[:copyStep])
			piece = piece[copyStep:]
		}
		out = appendPiece(out, piece)
	}
	return out, nil
}

// copyStep is the most appendPiece copies at once: the runtime clears large objects in
// steps of this size for the same reason.
const copyStep = 256 << 10

// appendPiece appends piece to out, which has room for it. It is a call of its own, never
// inlined, because its prologue is where a goroutine may be preempted: a file of megabytes
// copied by one memmove cannot be stopped, and the collector, waiting to scan this
// goroutine's stack, spins and signals it until the copy ends. Into fresh memory, whose
// page faults each took the signal, that was two thirds of a fresh archive's write.
//
//go:noinline
func appendPiece(out, piece []byte) []byte { return append(out, piece...) }

var zeros [0x2000]byte

// body lists what follows the head (which ends at at) in order: each file's padding and
// data, the zeros up to the data offset when no file has data, then the tail.
func (p *plan) body(at uint64, tail []byte) [][]byte {
	pieces := make([][]byte, 0, 2*len(p.files)+2)
	for i, f := range p.files {
		pieces = appendZeros(pieces, p.begins[i]-at)
		pieces = append(pieces, f.Data)
		at = p.begins[i] + uint64(len(f.Data))
	}
	if at < p.dataOffset { // no data at all
		pieces = appendZeros(pieces, p.dataOffset-at)
	}
	return append(pieces, tail)
}

// appendZeros appends pieces of n zero bytes in all.
func appendZeros(pieces [][]byte, n uint64) [][]byte {
	for n > 0 {
		k := min(n, uint64(len(zeros)))
		pieces = append(pieces, zeros[:k])
		n -= k
	}
	return pieces
}

// prepare plans the archive and decides on the modding tools' quirks: a wrong file size and
// a stray tail are written back only while they describe the very bytes written (see
// keepsQuirks). Otherwise the archive gets its true size and no tail (Warnings says so).
func (a *Archive) prepare() (p *plan, tail []byte, err error) {
	p, err = a.plan()
	if err != nil {
		return nil, nil, err
	}
	if a.keepsQuirks(p) {
		tail, p.sizeShort = a.layout.tail, a.layout.sizeShort
	}
	if total := p.end + uint64(len(tail)); total > math.MaxUint32 {
		return nil, nil, fmt.Errorf("sarc: write: archive ends at 0x%x, past 4 GiB", total)
	}
	p.total = uint32(p.end) + uint32(len(tail))
	return p, tail, nil
}

// appendHead appends the header, the SFAT and the SFNT.
func (a *Archive) appendHead(out []byte, p *plan) []byte {
	var bo binary.AppendByteOrder = binary.LittleEndian
	if a.BigEndian {
		bo = binary.BigEndian
	}
	out = append(out, "SARC"...)
	out = bo.AppendUint16(out, headerSize)
	out = bo.AppendUint16(out, 0xFEFF)
	out = bo.AppendUint32(out, p.total-p.sizeShort)
	out = bo.AppendUint32(out, uint32(p.dataOffset))
	out = bo.AppendUint16(out, 0x0100)
	var reserved, sfntReserved uint16
	if a.layout != nil {
		reserved, sfntReserved = a.layout.reserved, a.layout.sfntReserved
	}
	out = bo.AppendUint16(out, reserved)

	out = append(out, "SFAT"...)
	out = bo.AppendUint16(out, sfatHeadSize)
	out = bo.AppendUint16(out, uint16(len(p.files)))
	out = bo.AppendUint32(out, a.multiplier())
	for i, f := range p.files {
		out = bo.AppendUint32(out, p.hashes[i])
		out = bo.AppendUint32(out, p.attrs[i])
		out = bo.AppendUint32(out, uint32(p.begins[i]-p.dataOffset))
		out = bo.AppendUint32(out, uint32(p.begins[i]-p.dataOffset)+uint32(len(f.Data)))
	}

	out = append(out, "SFNT"...)
	out = bo.AppendUint16(out, sfntHeadSize)
	out = bo.AppendUint16(out, sfntReserved)
	return append(out, p.names...)
}

// plan is where Bytes puts everything: files in SFAT order with their hashes and name
// attributes, the name table, and each file's absolute data offset.
type plan struct {
	files      []*File
	hashes     []uint32 // by position in files
	attrs      []uint32
	names      []byte
	dataOffset uint64
	begins     []uint64
	end        uint64 // the last file's data end (the data offset without data)
	// set by prepare: the archive's length with the tail kept, and how much less than that
	// the header's file size says
	total, sizeShort uint32
}

func (a *Archive) plan() (*plan, error) {
	if len(a.Files) > maxFiles {
		return nil, fmt.Errorf("sarc: write: %d files, the format allows %d", len(a.Files), maxFiles)
	}
	type entry struct {
		f    *File
		hash uint32
	}
	sorted := make([]entry, len(a.Files))
	for i := range a.Files {
		f := &a.Files[i]
		sorted[i] = entry{f, a.fileHash(f)}
		if strings.IndexByte(f.Name, 0) >= 0 {
			return nil, fmt.Errorf("sarc: write: file %d name %q contains a NUL byte", i, f.Name)
		}
		if f.Name == "" && (f.placed == nil || f.placed.attr != 0) {
			return nil, fmt.Errorf("sarc: write: file %d has no name", i)
		}
	}
	slices.SortStableFunc(sorted, func(x, y entry) int { return cmp.Compare(x.hash, y.hash) })
	files := make([]*File, len(sorted))
	hashes := make([]uint32, len(sorted))
	for i, e := range sorted {
		files[i], hashes[i] = e.f, e.hash
	}

	// Name table, sized first: grown by append, a table of megabytes of long names was
	// allocated five times over.
	size := 0
	for _, f := range files {
		if f.Name != "" {
			size += len(f.Name) + 4 - len(f.Name)%4
		}
	}
	names := make([]byte, 0, size)
	attrs := make([]uint32, len(files))
	for i, f := range files {
		if f.Name == "" {
			continue // unnamed entry kept from the input: attribute 0, no name
		}
		// The attribute's top byte counts entries sharing a hash, starting at 1.
		idx := uint32(1)
		if i > 0 && hashes[i-1] == hashes[i] {
			idx = attrs[i-1]>>24 + 1
		}
		attrs[i] = idx<<24 | uint32(len(names)/4)
		names = append(names, f.Name...)
		names = append(names, make([]byte, 4-len(f.Name)%4)...)
	}
	namesEnd := uint64(headerSize+sfatHeadSize+sfntHeadSize) + uint64(len(files))*sfatEntrySize + uint64(len(names))
	if namesEnd > math.MaxUint32 {
		return nil, fmt.Errorf("sarc: write: name table ends at 0x%x, past 4 GiB", namesEnd)
	}

	// Data placement, in absolute offsets.
	aligns := make([]uint32, len(files))
	pads := make([]uint32, len(files))
	dataAlign := uint32(1)
	if a.layout != nil {
		dataAlign = a.layout.dataAlign
	}
	for i, f := range files {
		if f.kept() {
			aligns[i], pads[i] = f.placed.align, f.placed.pad
			if a.layout == nil {
				dataAlign = max(dataAlign, aligns[i])
			}
			continue
		}
		aligns[i] = a.ruleAlignment(f.Name, f.Data)
		dataAlign = max(dataAlign, aligns[i])
	}
	dataOffset := uint64(alignUp64(namesEnd, uint64(dataAlign)))
	begins := make([]uint64, len(files))
	end := dataOffset
	for i, f := range files {
		if pads[i] != 0 {
			begins[i] = end + uint64(pads[i])
		} else {
			begins[i] = alignUp64(end, uint64(aligns[i]))
		}
		end = begins[i] + uint64(len(f.Data))
		if end > math.MaxUint32 {
			return nil, fmt.Errorf("sarc: write: file %q ends at 0x%x, past 4 GiB", f.Name, end)
		}
	}

	return &plan{files: files, hashes: hashes, attrs: attrs, names: names, dataOffset: dataOffset, begins: begins, end: end}, nil
}

// keepsQuirks reports whether Bytes keeps the recorded file size and tail: the archive is
// unedited and its data ends where Read found it ended, so that with the tail it is as long
// as it was. (An unedited archive laid out otherwise than the writer lays it, a layout no
// known writer makes, is written in the writer's layout, with its true size.)
func (a *Archive) keepsQuirks(p *plan) bool {
	return a.unedited() && p.end == uint64(a.layout.tailAt)
}

// unedited reports whether the archive still has exactly the files Read found, each with the
// name and data it was read with.
func (a *Archive) unedited() bool {
	if a.layout == nil || len(a.Files) != a.layout.files {
		return false
	}
	for i := range a.Files {
		if !a.Files[i].kept() {
			return false
		}
	}
	return true
}

func alignUp64(x, a uint64) uint64 { return (x + a - 1) &^ (a - 1) }
