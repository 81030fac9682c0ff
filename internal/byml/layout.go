package byml

// table is a string table node (0xC2) as laid out: where it is, its strings in table order
// and each string's offset from the node start (count+1 of them, the last one the end).
type table struct {
	off  uint32
	strs []string
	rel  []uint32
	idx  map[string]uint32 // see buildIndex
}

// buildIndex maps each string to its first index. It runs when the table is made, so that
// writers only read it and one document can be written from several goroutines.
func (t *table) buildIndex() {
	if t == nil {
		return
	}
	t.idx = make(map[string]uint32, len(t.strs))
	for i := len(t.strs) - 1; i >= 0; i-- {
		t.idx[t.strs[i]] = uint32(i)
	}
}

// ascending reports whether each string sorts after the one before, as the format wants (so
// no string is there twice). A nil table is.
func (t *table) ascending() bool {
	for i := 1; i < t.len(); i++ {
		if t.strs[i-1] >= t.strs[i] {
			return false
		}
	}
	return true
}

func (t *table) len() int {
	if t == nil {
		return 0
	}
	return len(t.strs)
}

// index returns the table index of s (the first one if the table repeats it).
func (t *table) index(s string) (uint32, bool) {
	if t == nil {
		return 0, false
	}
	i, ok := t.idx[s]
	return i, ok
}

func (t *table) end() uint32 { return t.off + t.rel[len(t.rel)-1] }

// slot is where one out-of-line node (container or big value) sits and how many bytes it
// takes, not counting the padding after it.
type slot struct {
	node *Node
	off  uint32
	size uint32
}

// layout is everything about a file's bytes that the tree does not say: the header words,
// both string tables as laid out (order, unused strings, string offsets), the offset of every
// out-of-line node (so node order, padding and sharing) and the file size (trailing padding).
// A plan to write is the same thing; the canonical writer computes one, Read records one.
type layout struct {
	size                    uint32
	keyOff, strOff, rootOff uint32
	keys, strs              *table
	slots                   []slot // by offset
	at                      map[*Node]uint32
	// reached is how many of the slots the tree reaches; the others hold containers that
	// nothing refers to (see readOrphans), written back only with the rest of the layout.
	reached int
}

// recordLayout keeps what Read saw. It gives up (nil: the writer will lay the document out
// canonically) when pieces overlap, which a writer could not reproduce from the model.
func (d *decoder) recordLayout(keyOff, strOff, rootOff uint32, reached int, sorted []slot) *layout {
	l := &layout{size: uint32(len(d.b)), keyOff: keyOff, strOff: strOff, rootOff: rootOff, keys: d.keys, strs: d.strs, reached: reached}
	d.keys.buildIndex()
	d.strs.buildIndex()
	l.slots = sorted
	l.at = make(map[*Node]uint32, len(l.slots))
	for _, s := range l.slots {
		l.at[s.node] = s.off
	}
	overlap := false
	prev := span{}
	d.pieces(sorted, func(s span) {
		overlap = overlap || s.lo < prev.hi
		prev = s
	})
	if overlap {
		return nil
	}
	return l
}
