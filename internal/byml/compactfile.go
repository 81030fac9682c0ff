package byml

import (
	"encoding/base64"
	"math"
	"strconv"
)

// AppendCompactFile appends the compact form of the BYML file data to b, as
// Read(data) then AppendCompact(b, limit) would, straight from the bytes: the tree view opens
// files far larger than it edits at once, and the model of a 2 MB file is some 30 MB of nodes
// the reply does not need. It takes only what it is sure reads as Read reads it, and says so
// with ok; for the rest (any error, a hash whose keys are not sorted, a file past the reply's
// budget or the expansion bound of Read) ok is false and the caller reads the file into a
// model, which says what is wrong or writes what is unusual.
func AppendCompactFile(b, data []byte, limit int) (out []byte, ok bool) {
	if len(data) < headerSize || uint64(len(data)) > 0xFFFFFFFF {
		return nil, false
	}
	d := &decoder{b: data}
	if !d.readMagic() {
		return nil, false
	}
	version := d.order.Uint16(data[2:])
	if version < 1 || version > 7 {
		return nil, false
	}
	var err error
	if d.keys, err = d.readTable("key table", d.u32(4)); err != nil {
		return nil, false
	}
	if d.strs, err = d.readTable("string table", d.u32(8)); err != nil {
		return nil, false
	}
	// The form lists each key and string once, by content; a table's indices stand for that
	// only when no two hold the same string, as in tables sorted as the format wants.
	if !d.keys.ascending() || !d.strs.ascending() {
		return nil, false
	}
	w := &fileCompact{d: d, ids: map[uint32]fileID{}, known: map[string]knownShape{}, listedAs: make([]int32, d.strs.len()), keyAs: make([]int32, d.keys.len()), weightLimit: int64(len(data))*maxExpansion + 4096}
	w.limit = limit
	rootOff := d.u32(12)
	if rootOff == 0 {
		b = append(w.start(b, version, d.be, 0), "null"...)
	} else {
		if !d.has(rootOff, 4) {
			return nil, false
		}
		k, ok := kindOf(data[rootOff])
		if !ok || !k.IsContainer() {
			return nil, false
		}
		if b, ok = w.value(w.start(b, version, d.be, compactLetter[k]), k, rootOff, 0); !ok {
			return nil, false
		}
	}
	b, err = w.finish(b)
	return b, err == nil
}

// fileCompact writes the compact form of a file (AppendCompactFile).
type fileCompact struct {
	compactShapes
	d *decoder
	// ids numbers the out-of-line nodes written, by offset, as compactWriter.ids numbers
	// the nodes Read makes of them (one per offset); a container being written has number
	// -1 (a reference to it is a cycle).
	ids  map[uint32]fileID
	next int32
	// weight is the document's weight as checkExpansion counts it.
	weight, weightLimit int64
	// listedAs and keyAs are the numbers+1 of the strings and keys of the tables listed so
	// far, 0 for those not yet.
	listedAs, keyAs []int32
	// known holds the shapes found, by their containers' kind and bytes (see shapeAt).
	known   map[string]knownShape
	raw     []byte
	written int // the bytes of the form so far, for the budget of a new shape
}

// fileID is an out-of-line node written: its number and the kind it was read as.
type fileID struct {
	id   int32 // a file's offsets are 32 bits, and each node takes 4 bytes or more
	kind Kind
}

// value writes the node of kind k held by (inline) or at (out of line) the word raw.
func (w *fileCompact) value(b []byte, k Kind, raw uint32, depth int) ([]byte, bool) {
	d := w.d
	if w.weight++; w.weight > w.weightLimit {
		return nil, false
	}
	if len(b)+w.listed() > w.limit {
		return nil, false
	}
	switch k {
	case Null:
		return append(b, "null"...), true
	case String:
		if d.strs == nil || raw >= uint32(len(d.strs.strs)) {
			return nil, false
		}
		s := d.strs.strs[raw]
		if w.weight += int64(len(s)); w.weight > w.weightLimit {
			return nil, false
		}
		if w.listedAs[raw] == 0 {
			i, err := w.add(&w.strs, s, len(b))
			if err != nil {
				return nil, false
			}
			w.listedAs[raw] = int32(i) + 1
		}
		return strconv.AppendInt(b, int64(w.listedAs[raw]-1), 10), true
	case Bool, Int, UInt, Float:
		return appendNumber(b, k, uint64(raw)), true
	}
	off := raw
	if id, ok := w.ids[off]; ok {
		return strconv.AppendInt(b, int64(id.id), 10), id.kind == k && id.id >= 0
	}
	if off < headerSize || !d.has(off, 4) {
		return nil, false
	}
	ok := true
	switch k {
	case Int64, UInt64, Double:
		if !d.has(off, 8) {
			return nil, false
		}
		if v := d.order.Uint64(d.b[off:]); k == Double {
			b = appendCompactDouble(b, math.Float64frombits(v))
		} else {
			b = appendNumber(b, k, v)
		}
	case Binary, File:
		start, l := off+4, d.u32(off)
		if k == File {
			if !d.has(off, 8) {
				return nil, false
			}
			start = off + 8
			a := d.u32(off + 4)
			if a&(a-1) != 0 { // Read refuses it
				return nil, false
			}
			b = append(strconv.AppendUint(append(b, '['), uint64(a), 10), ',')
		}
		if uint64(start)+uint64(l) > uint64(len(d.b)) {
			return nil, false
		}
		if w.weight += int64(l); w.weight > w.weightLimit || len(b)+base64.StdEncoding.EncodedLen(int(l)) > w.limit {
			return nil, false
		}
		b = append(base64.StdEncoding.AppendEncode(append(b, '"'), d.b[start:start+l]), '"')
		if k == File {
			b = append(b, ']')
		}
	default:
		if depth >= maxDepth {
			return nil, false
		}
		w.ids[off] = fileID{-1, k}
		b, ok = w.container(b, k, off, depth+1)
	}
	if ok {
		w.ids[off] = fileID{w.next, k}
		w.next++
	}
	return b, ok
}

// container writes the array, hash or hash map at off, checked as readContainer checks it.
func (w *fileCompact) container(b []byte, k Kind, off uint32, depth int) ([]byte, bool) {
	d := w.d
	if d.b[off] != nodeType[k] {
		return nil, false
	}
	n := d.u24(off + 1)
	if uint64(off)+containerSize(k, n) > uint64(len(d.b)) {
		return nil, false
	}
	w.written = len(b)
	// Member i's type byte is at types+i*typeStep, its value word at values+i*valueStep.
	var types, typeStep, values, valueStep uint32
	switch k {
	case Array:
		types, typeStep, values, valueStep = off+4, 1, off+4+align4(n), 4
	case Hash:
		types, typeStep, values, valueStep = off+7, 8, off+8, 8
	case HashMap32:
		types, typeStep, values, valueStep = off+4+8*n, 1, off+8, 8
	default:
		types, typeStep, values, valueStep = off+4+12*n, 1, off+12, 12
	}
	shape, ok := w.shapeAt(k, off, n, types, typeStep)
	if !ok {
		return nil, false
	}
	b = strconv.AppendInt(append(b, '['), int64(shape), 10)
	for i := range n {
		ck, _ := kindOf(d.b[types+i*typeStep])
		if b, ok = w.value(append(b, ','), ck, d.u32(values+i*valueStep), depth); !ok {
			return nil, false
		}
		var err error
		if b, err = w.within(b); err != nil {
			return nil, false
		}
	}
	return append(b, ']'), true
}

// shapeAt returns the number of the shape of the container of kind k at off, with n members
// whose type bytes are typeStep apart from types. The many hashes and arrays of one shape are told by their
// bytes (the key indices and type bytes), without writing the shape each time.
func (w *fileCompact) shapeAt(k Kind, off, n, types, typeStep uint32) (int, bool) {
	d := w.d
	raw := append(w.raw[:0], byte(k))
	switch k {
	case Array:
		raw = append(raw, d.b[off+4:off+4+n]...)
	case Hash:
		for i := range n {
			raw = append(raw, d.b[off+4+8*i:off+8+8*i]...)
		}
	}
	w.raw = raw
	if k == Array || k == Hash {
		if c, ok := w.known[string(raw)]; ok {
			w.weight += c.weight
			return c.shape, w.weight <= w.weightLimit
		}
	}
	weight := w.weight
	w.shapeStart(k)
	for i := range n {
		ck, ok := kindOf(d.b[types+i*typeStep])
		if !ok {
			return 0, false
		}
		if k == Array && i == 1 && allType(d.b[off+4:off+4+n]) {
			break
		}
		w.shapeLetter(ck)
	}
	if k != Array {
		w.shapeKeys()
		var ki, key uint32
		var hash uint64
		for i := range n {
			e := off + 4 + 8*i
			if k == HashMap64 {
				e = off + 4 + 12*i
			}
			prevKey, prevHash := ki, hash
			switch k {
			case Hash:
				if ki = d.u24(e); d.keys == nil || ki >= uint32(len(d.keys.strs)) {
					return 0, false
				}
				w.weight += int64(len(d.keys.strs[ki]))
				if w.keyAs[ki] == 0 {
					num, err := w.add(&w.keys, d.keys.strs[ki], w.written)
					if err != nil {
						return 0, false
					}
					w.keyAs[ki] = int32(num) + 1
				}
				key = uint32(w.keyAs[ki] - 1)
			case HashMap32:
				hash = uint64(d.u32(e))
			default:
				hash = d.order.Uint64(d.b[e:])
			}
			// Keys out of order or repeated make Read keep the hash's order (KeepOrder):
			// the model writes that. (The key table is sorted: its indices are in the
			// keys' order.)
			if i > 0 && (k == Hash && prevKey >= ki || k != Hash && prevHash >= hash) {
				return 0, false
			}
			if w.weight++; w.weight > w.weightLimit {
				return 0, false
			}
			w.shapeKey(int(i), k, int(key), hash)
		}
	}
	w.shapeEnd(k, false)
	shape, err := w.shape(w.written)
	if err != nil {
		return 0, false
	}
	if k == Array || k == Hash {
		w.known[string(w.raw)] = knownShape{shape, w.weight - weight}
	}
	return shape, true
}

// knownShape is a shape found before, and the weight its keys add.
type knownShape struct {
	shape  int
	weight int64
}

// allType reports whether every type byte of a list is the first one.
func allType(types []byte) bool {
	for _, t := range types[1:] {
		if t != types[0] {
			return false
		}
	}
	return true
}
