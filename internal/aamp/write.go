package aamp

import (
	"bytes"
	"fmt"
	"math"
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
	if err := pio.validate(); err != nil {
		return nil, err
	}
	if pio.layout != nil {
		if out, ok := pio.writePreserved(); ok {
			return out, nil
		}
	}
	return pio.writeCanonical()
}

// BytesCanonical serializes the document with the layout oead's writer uses: lists
// breadth-first per parent, objects and parameters depth-first, data in Nintendo's usual
// collection order with identical data and strings stored once.
func (pio *ParameterIO) BytesCanonical() ([]byte, error) {
	if err := pio.validate(); err != nil {
		return nil, err
	}
	return pio.writeCanonical()
}

// validate checks what the binary form cannot represent: values of the wrong Go type,
// nodes reachable twice, counts beyond the u16 fields.
func (pio *ParameterIO) validate() error {
	// A document read from a file is about as large as its header said: room for that
	// many nodes up front (a hint only; edits may have changed the counts).
	var nl, no int
	if pio.layout != nil {
		nl, no = int(min(pio.layout.nLists, 1<<16)), int(min(pio.layout.nObjs, 1<<16))
	}
	seenL := make(map[*ParameterList]bool, nl)
	seenO := make(map[*ParameterObject]bool, no)
	var walk func(l *ParameterList) error
	walk = func(l *ParameterList) error {
		if seenL[l] {
			return fmt.Errorf("aamp: list %#08x appears twice in the tree", uint32(l.Name))
		}
		seenL[l] = true
		if len(l.Lists) > math.MaxUint16 || len(l.Objects) > math.MaxUint16 {
			return fmt.Errorf("aamp: list %#08x has %d lists and %d objects (at most 65535 each)", uint32(l.Name), len(l.Lists), len(l.Objects))
		}
		for _, c := range l.Lists {
			if c == nil {
				return fmt.Errorf("aamp: list %#08x has a nil child list", uint32(l.Name))
			}
			if err := walk(c); err != nil {
				return err
			}
		}
		for _, o := range l.Objects {
			if o == nil {
				return fmt.Errorf("aamp: list %#08x has a nil object", uint32(l.Name))
			}
			if seenO[o] {
				return fmt.Errorf("aamp: object %#08x appears twice in the tree", uint32(o.Name))
			}
			seenO[o] = true
			if len(o.Params) > math.MaxUint16 {
				return fmt.Errorf("aamp: object %#08x has %d parameters (at most 65535)", uint32(o.Name), len(o.Params))
			}
			for i := range o.Params {
				if err := o.Params[i].checkValue(); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for i := 0; i < len(pio.Type); i++ {
		if pio.Type[i] == 0 {
			return fmt.Errorf("aamp: type string contains a NUL byte")
		}
	}
	return walk(&pio.Root)
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
func (pio *ParameterIO) writePreserved() (out []byte, ok bool) {
	lay := pio.layout
	nl, no, np := countTree(&pio.Root)
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

func countTree(l *ParameterList) (lists, objs, params uint32) {
	lists = 1
	for _, c := range l.Lists {
		a, b, p := countTree(c)
		lists, objs, params = lists+a, objs+b, params+p
	}
	objs += uint32(len(l.Objects))
	for _, o := range l.Objects {
		params += uint32(len(o.Params))
	}
	return
}

// canon is the canonical writer's state. Lists and objects are found again by their place
// in the tree's depth-first order (root first, a list before its children), which every pass
// below can count as it goes: maps keyed by node were most of the writer's cost. The passes
// append to a local copy of buf and store it back once per list, and fill the offset
// slices by index: every store of a slice header through c cost a write barrier.
type canon struct {
	buf       []byte
	listRecs  []uint32           // each list's record offset, depth-first
	firstObj  []uint32           // each list's first object's number in objects order, depth-first
	objRecs   []uint32           // each object's record offset, in objects order
	parBlocks []uint32           // each object's parameter block offset, in objects order
	objs      []*ParameterObject // in objects order
	nObjs     int                // objects numbered so far
	data      []param            // non-string parameters in data-section order
	strs      []param            // string parameters in string-section order
	err       error
}

// param is a parameter to give data: the i-th of object obj (in objects order). It holds
// no pointer, so that the long lists of them cost the collector nothing.
type param struct{ obj, i uint32 }

func (c *canon) param(p param) *Parameter { return &c.objs[p.obj].Params[p.i] }

func (c *canon) align4() {
	for len(c.buf)%4 != 0 {
		c.buf = append(c.buf, 0)
	}
}

// patch16 stores the word distance from a record to a block in the record's u16 field.
func (c *canon) patch16(buf []byte, rec, field, block uint32) {
	d := (block - rec) / 4
	if d > math.MaxUint16 {
		if c.err == nil {
			c.err = fmt.Errorf("aamp: block at %#x is too far from its parent record at %#x for a u16 word offset", block, rec)
		}
		return
	}
	le.PutUint16(buf[rec+field:], uint16(d))
}

func appendListRecord(buf []byte, l *ParameterList) []byte {
	buf = le.AppendUint32(buf, uint32(l.Name))
	buf = le.AppendUint16(buf, 0)
	buf = le.AppendUint16(buf, uint16(len(l.Lists)))
	buf = le.AppendUint16(buf, 0)
	return le.AppendUint16(buf, uint16(len(l.Objects)))
}

// lists places each list's child records together, then descends into them. rec is l's
// record, n its number depth-first; lists returns the number after l's subtree.
func (c *canon) lists(l *ParameterList, rec, n uint32) uint32 {
	c.listRecs[n] = rec
	buf := c.buf
	block := uint32(len(buf))
	c.patch16(buf, rec, 4, block)
	for _, ch := range l.Lists {
		buf = appendListRecord(buf, ch)
	}
	c.buf = buf
	n++
	for i, ch := range l.Lists {
		n = c.lists(ch, block+uint32(i)*listRecSize, n)
	}
	return n
}

// objects is depth-first with a list's own objects before its child lists' objects. n
// counts lists depth-first; objects returns the next list's number.
func (c *canon) objects(l *ParameterList, n uint32) uint32 {
	buf := c.buf
	c.patch16(buf, c.listRecs[n], 8, uint32(len(buf)))
	c.firstObj[n] = uint32(c.nObjs)
	for _, o := range l.Objects {
		c.objRecs[c.nObjs] = uint32(len(buf))
		c.objs[c.nObjs] = o
		c.nObjs++
		buf = le.AppendUint32(buf, uint32(o.Name))
		buf = le.AppendUint16(buf, 0)
		buf = le.AppendUint16(buf, uint16(len(o.Params)))
	}
	c.buf = buf
	n++
	for _, ch := range l.Lists {
		n = c.objects(ch, n)
	}
	return n
}

// params is depth-first with child lists before the list's own objects. n is l's number
// depth-first; params returns the number after l's subtree.
func (c *canon) params(l *ParameterList, n uint32) uint32 {
	first := c.firstObj[n]
	next := n + 1
	for _, ch := range l.Lists {
		next = c.params(ch, next)
	}
	buf := c.buf
	for j, o := range l.Objects {
		block := uint32(len(buf))
		c.parBlocks[first+uint32(j)] = block
		c.patch16(buf, c.objRecs[first+uint32(j)], 4, block)
		for i := range o.Params {
			p := &o.Params[i]
			buf = le.AppendUint32(buf, uint32(p.Name))
			buf = le.AppendUint32(buf, uint32(p.Type)<<24)
		}
	}
	c.buf = buf
	return next
}

var demoAIActionIdx = NameOf("DemoAIActionIdx")

// collect orders parameter values the way Nintendo's files usually do: the root's first
// seven objects first, then one object of a list before every second child list, then the
// rest. AIProgram documents (first object DemoAIActionIdx) keep objects after child lists.
// n is l's number depth-first; collect returns the number after l's subtree.
func (c *canon) collect(l *ParameterList, n uint32, top bool) uint32 {
	first := c.firstObj[n]
	next := 0
	one := func() {
		o := l.Objects[next]
		for i := range o.Params {
			p := param{first + uint32(next), uint32(i)}
			if o.Params[i].Type.IsString() {
				c.strs = append(c.strs, p)
			} else {
				c.data = append(c.data, p)
			}
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

func (c *canon) setDataOffset(p param, at uint32) {
	rec := c.parBlocks[p.obj] + p.i*paramRecSize
	d := (at - rec) / 4
	if d > 0xffffff {
		if c.err == nil {
			c.err = fmt.Errorf("aamp: data at %#x is too far from its parameter record at %#x", at, rec)
		}
		return
	}
	le.PutUint32(c.buf[rec+4:], d|uint32(c.param(p).Type)<<24)
}

func (pio *ParameterIO) writeCanonical() ([]byte, error) {
	root := &pio.Root
	nl, no, np := countTree(root)
	// Room for the header, the records and about as much data again: the buffer is not
	// grown a dozen times over.
	records := headerSize + uint64(len(pio.Type)) + 4 + uint64(nl)*listRecSize + uint64(no)*objRecSize + uint64(np)*paramRecSize
	c := &canon{
		buf:       make([]byte, headerSize, min(2*records, 1<<30)),
		listRecs:  make([]uint32, nl),
		firstObj:  make([]uint32, nl),
		objRecs:   make([]uint32, no),
		objs:      make([]*ParameterObject, no),
		parBlocks: make([]uint32, no),
		data:      make([]param, 0, np),
	}
	c.buf = append(c.buf, pio.Type...)
	c.buf = append(c.buf, 0)
	c.align4()
	pioOff := uint32(len(c.buf))
	rootRec := uint32(len(c.buf))
	c.buf = appendListRecord(c.buf, root)
	c.lists(root, rootRec, 0)
	c.objects(root, 0)
	c.collect(root, 0, true)
	c.params(root, 0)

	// Data section: identical bytes already present at a word boundary are reused, the
	// first such place in the section. Each word of the section is chained to the next
	// place the same word is (words[w] holds the first and last place, next the links),
	// so candidates come in the order of the file.
	dataStart := uint32(len(c.buf))
	type chain struct{ first, last int32 }
	words := make(map[uint32]chain, len(c.data))
	var next []int32 // by word number from dataStart; -1 ends a chain
	var tmp []byte
	for _, p := range c.data {
		par := c.param(p)
		tmp = encodeValue(tmp[:0], par)
		found := -1
		if ch, ok := words[le.Uint32(tmp)]; ok {
			for cand := ch.first; cand >= 0; cand = next[cand] {
				o := int(dataStart) + 4*int(cand)
				if o+len(tmp) <= len(c.buf) && bytes.Equal(c.buf[o:o+len(tmp)], tmp) {
					found = o
					break
				}
			}
		}
		if found < 0 {
			found = len(c.buf)
			c.buf = append(c.buf, tmp...)
			c.align4()
			for o := found; o < len(c.buf); o += 4 {
				w, k := le.Uint32(c.buf[o:]), int32(len(next))
				next = append(next, -1)
				if ch, ok := words[w]; ok {
					next[ch.last] = k
					words[w] = chain{ch.first, k}
				} else {
					words[w] = chain{k, k}
				}
			}
		}
		at := uint32(found)
		if par.Type.IsBuffer() {
			at += 4
		}
		c.setDataOffset(p, at)
	}
	c.align4()
	strStart := uint32(len(c.buf))
	seen := make(map[string]uint32, len(c.strs))
	for _, p := range c.strs {
		s := c.param(p).Value.(string)
		at, ok := seen[s]
		if !ok {
			at = uint32(len(c.buf))
			seen[s] = at
			c.buf = append(c.buf, s...)
			c.buf = append(c.buf, 0)
			c.align4()
		}
		c.setDataOffset(p, at)
	}
	end := uint32(len(c.buf))
	if c.err != nil {
		return nil, c.err
	}
	copy(c.buf, "AAMP")
	for i, v := range []uint32{2, flagLittleEndian | flagUTF8, end, pio.Version, pioOff - headerSize, nl, no, np, strStart - dataStart, end - strStart, 0} {
		le.PutUint32(c.buf[4+4*i:], v)
	}
	return c.buf, nil
}
