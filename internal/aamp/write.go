package aamp

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"math"
	"strings"
)

// layout records where Nintendo's writer put each structure and value of a file, so that
// an unedited document is written back byte for byte. It holds offsets and header fields,
// never file bytes. Slices are in the reader's walk order (a list, its lists, its objects).
type layout struct {
	flags, fileSize, pioOffset uint32
	dataSize, strSize, unk     uint32
	nLists, nObjs, nParams     uint32
	lists                      []listLayout
	objs                       []uint32 // parameter block of each object
	params                     []uint32 // data offset of each parameter
}

type listLayout struct{ off, listsBlock, objsBlock uint32 }

// Bytes serializes the document. A document that came from Read is written with the layout
// recorded from its file whenever every structure and value still fits there (always the
// case when it was not edited, so the output equals the input); otherwise, and for
// documents built in memory or from text, it is written like BytesCanonical.
func (pio *ParameterIO) Bytes() ([]byte, error) {
	sh, err := pio.survey()
	if err != nil {
		return nil, err
	}
	if pio.layout != nil {
		if out, ok := pio.writePreserved(sh); ok {
			return out, nil
		}
	}
	return pio.writeCanonical(sh)
}

// BytesCanonical serializes the document with the layout oead's writer uses: lists
// breadth-first per parent, objects and parameters depth-first, data in Nintendo's usual
// collection order with identical data and strings stored once.
func (pio *ParameterIO) BytesCanonical() ([]byte, error) {
	sh, err := pio.survey()
	if err != nil {
		return nil, err
	}
	return pio.writeCanonical(sh)
}

// shape is what validate learns of a tree on its way, for the writers: the counts the
// header stores and how large the data and string sections can be before sharing (each
// value padded to a word).
type shape struct {
	lists, objs, params uint32
	dataBytes, strBytes uint64
}

// validate checks what the binary form cannot represent: values of the wrong Go type,
// nodes reachable twice, counts beyond the u16 fields.
func (pio *ParameterIO) validate() error {
	_, err := pio.survey()
	return err
}

// survey validates the tree and measures its shape.
func (pio *ParameterIO) survey() (shape, error) {
	if strings.IndexByte(pio.Type, 0) >= 0 {
		return shape{}, fmt.Errorf("aamp: type string contains a NUL byte")
	}
	// A document read from a file is about as large as its header said: room for that
	// many nodes up front (a hint only; edits may have changed the counts).
	var nl, no uint64
	if pio.layout != nil {
		nl, no = uint64(pio.layout.nLists), uint64(pio.layout.nObjs)
	}
	seed := maphash.MakeSeed()
	s := &surveyor{
		seenL: newIndex(nl, func(l *ParameterList) uint64 { return maphash.Comparable(seed, l) }),
		seenO: newIndex(no, func(o *ParameterObject) uint64 { return maphash.Comparable(seed, o) }),
	}
	err := s.walk(&pio.Root)
	return s.shape, err
}

// surveyor is survey's state. The sets of nodes seen are indexes, not maps: as quick, and
// about half the memory of maps sized for the same count.
type surveyor struct {
	shape
	seenL index[*ParameterList]
	seenO index[*ParameterObject]
}

func (s *surveyor) walk(l *ParameterList) error {
	if _, added := s.seenL.number(l); !added {
		return fmt.Errorf("aamp: list %#08x appears twice in the tree", uint32(l.Name))
	}
	if len(l.Lists) > math.MaxUint16 || len(l.Objects) > math.MaxUint16 {
		return fmt.Errorf("aamp: list %#08x has %d lists and %d objects (at most 65535 each)", uint32(l.Name), len(l.Lists), len(l.Objects))
	}
	for _, c := range l.Lists {
		if c == nil {
			return fmt.Errorf("aamp: list %#08x has a nil child list", uint32(l.Name))
		}
		if err := s.walk(c); err != nil {
			return err
		}
	}
	for _, o := range l.Objects {
		if o == nil {
			return fmt.Errorf("aamp: list %#08x has a nil object", uint32(l.Name))
		}
		if _, added := s.seenO.number(o); !added {
			return fmt.Errorf("aamp: object %#08x appears twice in the tree", uint32(o.Name))
		}
		if len(o.Params) > math.MaxUint16 {
			return fmt.Errorf("aamp: object %#08x has %d parameters (at most 65535)", uint32(o.Name), len(o.Params))
		}
		for i := range o.Params {
			p := &o.Params[i]
			n, err := p.checkValue()
			if err != nil {
				return err
			}
			if p.Type.IsString() {
				s.strBytes += uint64(n+3) &^ 3
			} else {
				s.dataBytes += uint64(n+3) &^ 3
			}
		}
		s.params += uint32(len(o.Params))
	}
	s.lists++
	s.objs += uint32(len(l.Objects))
	return nil
}

// encodeValue appends a non-string value's data-section bytes; for buffers that includes
// the leading count.
func encodeValue(b []byte, p *Parameter) []byte {
	u32 := func(v uint32) { b = le.AppendUint32(b, v) }
	f32 := func(v ...float32) {
		for _, f := range v {
			u32(math.Float32bits(f))
		}
	}
	switch v := p.Value.(type) {
	case bool:
		if v {
			u32(1)
		} else {
			u32(0)
		}
	case float32:
		f32(v)
	case int32:
		u32(uint32(v))
	case uint32:
		u32(v)
	case Vec2:
		f32(v[:]...)
	case Vec3:
		f32(v[:]...)
	case Vec4:
		f32(v[:]...)
	case Color:
		f32(v[:]...)
	case Quat:
		f32(v[:]...)
	case []Curve:
		for _, c := range v {
			u32(c.A)
			u32(c.B)
			f32(c.Floats[:]...)
		}
	case []int32:
		u32(uint32(len(v)))
		for _, x := range v {
			u32(uint32(x))
		}
	case []float32:
		u32(uint32(len(v)))
		f32(v...)
	case []uint32:
		u32(uint32(len(v)))
		for _, x := range v {
			u32(x)
		}
	case []byte:
		u32(uint32(len(v)))
		b = append(b, v...)
	}
	return b
}

// sink is the preserve writer's output: every byte may be set once, or again only to the
// same value. A clash means the edited model no longer fits the recorded layout.
type sink struct {
	buf  []byte
	set  []bool
	fail bool
}

func (s *sink) put(off uint64, b []byte) {
	if s.fail || off+uint64(len(b)) > uint64(len(s.buf)) {
		s.fail = true
		return
	}
	for i, c := range b {
		j := int(off) + i
		if s.set[j] && s.buf[j] != c {
			s.fail = true
			return
		}
		s.buf[j], s.set[j] = c, true
	}
}

// writePreserved writes with the recorded layout; ok is false when the model does not fit
// it (a structure was added or removed, or a value grew or now clashes with shared data).
func (pio *ParameterIO) writePreserved(sh shape) (out []byte, ok bool) {
	lay := pio.layout
	nl, no, np := sh.lists, sh.objs, sh.params
	if nl != lay.nLists || no != lay.nObjs || np != lay.nParams {
		return nil, false
	}
	s := &sink{buf: make([]byte, lay.fileSize), set: make([]bool, lay.fileSize)}
	var hdr [headerSize]byte
	copy(hdr[:], "AAMP")
	for i, v := range []uint32{2, lay.flags, lay.fileSize, pio.Version, lay.pioOffset, nl, no, np, lay.dataSize, lay.strSize, lay.unk} {
		le.PutUint32(hdr[4+4*i:], v)
	}
	s.put(0, hdr[:])
	if uint64(len(pio.Type))+headerSize >= headerSize+uint64(lay.pioOffset) {
		return nil, false
	}
	s.put(headerSize, append([]byte(pio.Type), 0))
	li, oi, pi := 0, 0, 0
	var tmp []byte
	var rel16 = func(parent, block uint32) uint16 {
		d := block - parent
		if block < parent || d%4 != 0 || d/4 > math.MaxUint16 {
			s.fail = true
		}
		return uint16(d / 4)
	}
	var list func(l *ParameterList, off uint32)
	list = func(l *ParameterList, off uint32) {
		if s.fail || li >= len(lay.lists) || lay.lists[li].off != off {
			s.fail = true
			return
		}
		ll := lay.lists[li]
		li++
		var rec [listRecSize]byte
		le.PutUint32(rec[0:], uint32(l.Name))
		le.PutUint16(rec[4:], rel16(off, ll.listsBlock))
		le.PutUint16(rec[6:], uint16(len(l.Lists)))
		le.PutUint16(rec[8:], rel16(off, ll.objsBlock))
		le.PutUint16(rec[10:], uint16(len(l.Objects)))
		s.put(uint64(off), rec[:])
		for i, c := range l.Lists {
			list(c, ll.listsBlock+uint32(i)*listRecSize)
		}
		for i, o := range l.Objects {
			if s.fail || oi >= len(lay.objs) {
				s.fail = true
				return
			}
			ooff := ll.objsBlock + uint32(i)*objRecSize
			pb := lay.objs[oi]
			oi++
			var orec [objRecSize]byte
			le.PutUint32(orec[0:], uint32(o.Name))
			le.PutUint16(orec[4:], rel16(ooff, pb))
			le.PutUint16(orec[6:], uint16(len(o.Params)))
			s.put(uint64(ooff), orec[:])
			for j := range o.Params {
				p := &o.Params[j]
				if pi >= len(lay.params) {
					s.fail = true
					return
				}
				poff := pb + uint32(j)*paramRecSize
				at := lay.params[pi]
				pi++
				d := at - poff
				if at < poff || d%4 != 0 || d/4 > 0xffffff {
					s.fail = true
					return
				}
				var prec [paramRecSize]byte
				le.PutUint32(prec[0:], uint32(p.Name))
				le.PutUint32(prec[4:], d/4|uint32(p.Type)<<24)
				s.put(uint64(poff), prec[:])
				if str, isStr := p.Value.(string); isStr {
					s.put(uint64(at), append([]byte(str), 0))
					continue
				}
				tmp = encodeValue(tmp[:0], p)
				start := uint64(at)
				if p.Type.IsBuffer() {
					start -= 4
				}
				s.put(start, tmp)
			}
		}
	}
	list(&pio.Root, headerSize+lay.pioOffset)
	if s.fail {
		return nil, false
	}
	return s.buf, true
}

// canon is the canonical writer's state. Lists and objects are found again by their place
// in the tree's depth-first order (root first, a list before its children), which every pass
// below can count as it goes: maps keyed by node were most of the writer's cost.
//
// Every record's place follows from the counts alone: a list's by the order of the lists
// pass, object k's is the k-th of the objects block (objects order: a list's own objects,
// then its child lists' objects), and a parameter's is its number in the parameters
// block. So the values are placed first (collect), the output is made at its exact size,
// and each record is then written once, complete (write).
type canon struct {
	objStart, parStart, dataStart uint32
	listEnd                       uint32
	firstObj                      []uint32 // each list's first object's number, depth-first
	firstPar                      []uint32 // each object's first parameter's record number, by object number
	nObjs, nPars                  uint32   // numbered so far
	// word is each parameter record's second word by record number: its type and the word
	// distance to its value. Until the data section is complete, a string's distance is as
	// if the string section began where the data section does; strRecs lists those.
	word    []uint32
	strRecs []uint32
	data    []byte // the data section
	// words indexes every word of the data section; place holds each distinct word's first
	// and last place (word number in data), next the later places of the same word: a
	// value is shared when its bytes are already in the section at a word boundary, the
	// first such place.
	words    index[uint32]
	place    []chain
	next     []int32       // -1 ends a chain
	strIdx   index[string] // the string section holds its keys in order
	strAt    []uint32      // by distinct string's number, from the section's start
	strBytes uint32        // the string section's size so far
	tmp      []byte
	err      error
}

type chain struct{ first, last int32 }

func align4(b []byte) []byte {
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b
}

// rel16 is the word distance from a record to a block, for the record's u16 field.
func (c *canon) rel16(rec, block uint32) uint16 {
	d := (block - rec) / 4
	if d > math.MaxUint16 {
		if c.err == nil {
			c.err = fmt.Errorf("aamp: block at %#x is too far from its parent record at %#x for a u16 word offset", block, rec)
		}
		return 0
	}
	return uint16(d)
}

// number gives l's objects their numbers (before l's child lists' objects) and their
// parameters theirs (after the child lists' parameters). n is l's number depth-first;
// number returns the number after l's subtree.
func (c *canon) number(l *ParameterList, n uint32) uint32 {
	first := c.nObjs
	c.firstObj[n] = first
	c.nObjs += uint32(len(l.Objects))
	next := n + 1
	for _, ch := range l.Lists {
		next = c.number(ch, next)
	}
	for j, o := range l.Objects {
		c.firstPar[first+uint32(j)] = c.nPars
		c.nPars += uint32(len(o.Params))
	}
	return next
}

var demoAIActionIdx = NameOf("DemoAIActionIdx")

// collect places parameter values in the order Nintendo's files usually do: the root's
// first seven objects first, then one object of a list before every second child list,
// then the rest. AIProgram documents (first object DemoAIActionIdx) keep objects after
// child lists. n is l's number depth-first; collect returns the number after l's subtree.
func (c *canon) collect(l *ParameterList, n uint32, top bool) uint32 {
	first := c.firstObj[n]
	next := 0
	one := func() {
		o := l.Objects[next]
		r := c.firstPar[first+uint32(next)]
		word := c.word[r:][:len(o.Params)]
		for i := range o.Params {
			p := &o.Params[i]
			word[i] = c.distance(r+uint32(i), c.value(p, r+uint32(i)), 0) | uint32(p.Type)<<24
		}
		next++
	}
	aiprog := len(l.Objects) > 0 && l.Objects[0].Name == demoAIActionIdx
	if top && !aiprog {
		for i := 0; i < 7 && next < len(l.Objects); i++ {
			one()
		}
	}
	sub := n + 1
	for i, ch := range l.Lists {
		if !aiprog && i%2 == 0 && next < len(l.Objects) {
			one()
		}
		sub = c.collect(ch, sub, false)
	}
	for next < len(l.Objects) {
		one()
	}
	return sub
}

// distance is the word distance from parameter record r to its value at, plus extra
// words, for the record's 24-bit field.
func (c *canon) distance(r, at, extra uint32) uint32 {
	rec := c.parStart + paramRecSize*r
	d := (at-rec)/4 + extra
	if d > 0xffffff {
		if c.err == nil {
			c.err = fmt.Errorf("aamp: data at %#x is too far from its parameter record at %#x", rec+4*d, rec)
		}
		return 0
	}
	return d
}

// value places the value of p, parameter record r, and returns its offset: a string's in
// the string section, each distinct string once in the order first met; other values in
// the data section, shared with the first identical bytes there (a buffer's offset is past
// its count).
func (c *canon) value(p *Parameter, r uint32) uint32 {
	var w uint32
	switch p.Type {
	case TypeString32, TypeString64, TypeString256, TypeStringRef:
		s := p.Value.(string)
		k, added := c.strIdx.number(s)
		if added {
			c.strAt = append(c.strAt, c.strBytes)
			c.strBytes += uint32(len(s)+4) &^ 3
		}
		c.strRecs = append(c.strRecs, r)
		return c.dataStart + c.strAt[k]
	// One-word values (most of them) are their word's first place, if it has one.
	case TypeBool:
		if p.Value.(bool) {
			w = 1
		}
	case TypeF32:
		w = math.Float32bits(p.Value.(float32))
	case TypeInt:
		w = uint32(p.Value.(int32))
	case TypeU32:
		w = p.Value.(uint32)
	default:
		return c.values(p)
	}
	if k := c.words.lookup(w); k >= 0 {
		return c.dataStart + 4*uint32(c.place[k].first)
	}
	at := len(c.data)
	c.data = le.AppendUint32(c.data, w)
	c.indexWords(at)
	return c.dataStart + uint32(at)
}

// values places a value of several words.
func (c *canon) values(p *Parameter) uint32 {
	tmp := encodeValue(c.tmp[:0], p)
	c.tmp = tmp
	found := -1
	if k := c.words.lookup(le.Uint32(tmp)); k >= 0 {
		for cand := c.place[k].first; cand >= 0; cand = c.next[cand] {
			o := 4 * int(cand)
			if o+len(tmp) <= len(c.data) && bytes.Equal(c.data[o:o+len(tmp)], tmp) {
				found = o
				break
			}
		}
	}
	if found < 0 {
		found = len(c.data)
		c.data = align4(append(c.data, tmp...))
		c.indexWords(found)
	}
	if p.Type.IsBuffer() {
		found += 4
	}
	return c.dataStart + uint32(found)
}

// indexWords adds the words of the data section from byte from on to their chains.
func (c *canon) indexWords(from int) {
	for o := from; o < len(c.data); o += 4 {
		at := int32(len(c.next))
		c.next = append(c.next, -1)
		if k, added := c.words.number(le.Uint32(c.data[o:])); added {
			c.place = append(c.place, chain{at, at})
		} else {
			c.next[c.place[k].last] = at
			c.place[k].last = at
		}
	}
}

// write places the records of l's child lists together at listEnd (where the list records
// end so far) and descends into them, and writes l's objects' records and their
// parameters'. rec is l's record, n its number depth-first; write returns the number after
// l's subtree.
func (c *canon) write(buf []byte, l *ParameterList, rec, n uint32) uint32 {
	block := c.listEnd
	first := c.firstObj[n]
	putListRecord(buf[rec:], l, c.rel16(rec, block), c.rel16(rec, c.objStart+objRecSize*first))
	c.listEnd += listRecSize * uint32(len(l.Lists))
	for j, o := range l.Objects {
		k := first + uint32(j)
		orec := c.objStart + objRecSize*k
		pb := c.parStart + paramRecSize*c.firstPar[k]
		le.PutUint32(buf[orec:], uint32(o.Name))
		le.PutUint16(buf[orec+4:], c.rel16(orec, pb))
		le.PutUint16(buf[orec+6:], uint16(len(o.Params)))
		recs := buf[pb:][:paramRecSize*len(o.Params)]
		word := c.word[c.firstPar[k]:][:len(o.Params)]
		for i := range o.Params {
			le.PutUint32(recs[8*i:], uint32(o.Params[i].Name))
			le.PutUint32(recs[8*i+4:], word[i])
		}
	}
	n++
	for i, ch := range l.Lists {
		n = c.write(buf, ch, block+uint32(i)*listRecSize, n)
	}
	return n
}

func putListRecord(b []byte, l *ParameterList, lists, objs uint16) {
	le.PutUint32(b, uint32(l.Name))
	le.PutUint16(b[4:], lists)
	le.PutUint16(b[6:], uint16(len(l.Lists)))
	le.PutUint16(b[8:], objs)
	le.PutUint16(b[10:], uint16(len(l.Objects)))
}

func (pio *ParameterIO) writeCanonical(sh shape) ([]byte, error) {
	root := &pio.Root
	nl, no, np := sh.lists, sh.objs, sh.params
	pioOff := (headerSize + uint64(len(pio.Type)) + 1 + 3) &^ 3
	objStart := pioOff + uint64(nl)*listRecSize
	parStart := objStart + uint64(no)*objRecSize
	dataStart := parStart + uint64(np)*paramRecSize
	if dataStart+sh.dataBytes+sh.strBytes > math.MaxUint32 {
		return nil, fmt.Errorf("aamp: document of %d bytes or more does not fit the u32 file size", dataStart+sh.dataBytes+sh.strBytes)
	}
	// The data and string sections are far smaller than their values before sharing: a
	// read document's own sections (or, for others, a few kilobytes) are a better guess.
	dataHint, strHint := uint64(4096), uint64(4096)
	if pio.layout != nil {
		dataHint, strHint = uint64(pio.layout.dataSize), uint64(pio.layout.strSize)
	}
	dataHint, strHint = min(dataHint, sh.dataBytes), min(strHint, sh.strBytes)
	c := &canon{
		objStart:  uint32(objStart),
		parStart:  uint32(parStart),
		dataStart: uint32(dataStart),
		firstObj:  make([]uint32, nl),
		firstPar:  make([]uint32, no),
		word:      make([]uint32, np),
		data:      make([]byte, 0, dataHint),
		next:      make([]int32, 0, dataHint/4),
		words:     newIndex(dataHint/4, hashWord),
		strIdx:    newIndex(strHint/16, hashString(maphash.MakeSeed())),
		strAt:     make([]uint32, 0, strHint/16),
	}
	c.number(root, 0)
	c.collect(root, 0, true)
	strStart := uint32(dataStart) + uint32(len(c.data))
	end := strStart + c.strBytes
	for _, r := range c.strRecs {
		w := c.word[r]
		c.word[r] = w&^0xffffff | c.distance(r, uint32(parStart)+paramRecSize*r+4*(w&0xffffff), uint32(len(c.data))/4)
	}

	buf := make([]byte, dataStart, end)
	copy(buf, "AAMP")
	for i, v := range []uint32{2, flagLittleEndian | flagUTF8, end, pio.Version, uint32(pioOff) - headerSize, nl, no, np, strStart - uint32(dataStart), end - strStart, 0} {
		le.PutUint32(buf[4+4*i:], v)
	}
	copy(buf[headerSize:], pio.Type)
	c.listEnd = uint32(pioOff) + listRecSize
	c.write(buf, root, uint32(pioOff), 0)
	buf = append(buf, c.data...)
	for _, s := range c.strIdx.keys {
		buf = append(buf, s...)
		buf = align4(append(buf, 0))
	}
	if c.err != nil {
		return nil, c.err
	}
	return buf, nil
}

// index numbers distinct keys in the order they are first met: an open-addressing table
// of key numbers, grown to stay at most half full. It stands in for maps in the canonical
// writer's sharing of data and strings, where Go maps (hashing, and tables sized for every
// value when a tenth are distinct) were a quarter of the writer's time.
type index[K comparable] struct {
	keys  []K
	slots []int32 // a key's number + 1, or 0 when empty; a power of two long
	shift uint    // 64 - log2(len(slots)): a hash's top bits pick the first slot
	hash  func(K) uint64
}

// newIndex makes an index with room for about expect keys.
func newIndex[K comparable](expect uint64, hash func(K) uint64) index[K] {
	expect = max(8, min(expect, 1<<24))
	x := index[K]{hash: hash, keys: make([]K, 0, expect)}
	x.resize(2 * expect)
	return x
}

func (x *index[K]) resize(n uint64) {
	bits := uint(64 - 1)
	for uint64(1)<<(64-bits) < n {
		bits--
	}
	x.shift = bits
	x.slots = make([]int32, 1<<(64-bits))
	for k, key := range x.keys {
		x.slots[x.free(key)] = int32(k + 1)
	}
}

// free returns the slot where key is or would go.
func (x *index[K]) free(key K) int {
	mask := len(x.slots) - 1
	i := int(x.hash(key) >> x.shift)
	for x.slots[i] != 0 && x.keys[x.slots[i]-1] != key {
		i = (i + 1) & mask
	}
	return i
}

// lookup returns key's number, or -1.
func (x *index[K]) lookup(key K) int {
	return int(x.slots[x.free(key)]) - 1
}

// number returns key's number, giving it the next one if it is new.
func (x *index[K]) number(key K) (k int, added bool) {
	i := x.free(key)
	if s := x.slots[i]; s != 0 {
		return int(s) - 1, false
	}
	x.keys = append(x.keys, key)
	x.slots[i] = int32(len(x.keys))
	if 2*len(x.keys) > len(x.slots) {
		x.resize(2 * uint64(len(x.slots)))
	}
	return len(x.keys) - 1, true
}

func hashWord(w uint32) uint64 { return uint64(w) * 0x9e3779b97f4a7c15 }

func hashString(seed maphash.Seed) func(string) uint64 {
	return func(s string) uint64 { return maphash.String(seed, s) }
}
