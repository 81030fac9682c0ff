package byml

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// Bytes writes the document in preserve mode: a document from Read whose recorded layout
// still fits the tree comes back byte for byte; any other document is laid out canonically
// (see BytesCanonical). The recorded layout fits when the tree reaches exactly the
// out-of-line nodes (containers, big values) Read found, each still the size it had, and
// every key and string is in the recorded tables. Values are always taken from the tree,
// so an edit that keeps the layout (a number, a string already in the table, a bool) is
// written in place and everything else stays as it was.
func (d *Document) Bytes() ([]byte, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	if d.layout != nil && d.layout.fits(d.Root) {
		return d.encode(d.layout)
	}
	return d.BytesCanonical()
}

// Preserved reports whether Bytes will reproduce the recorded layout.
func (d *Document) Preserved() bool {
	return d.layout != nil && d.check() == nil && d.layout.fits(d.Root)
}

// WriteTo writes the document as Bytes lays it out: Document is an io.WriterTo.
func (d *Document) WriteTo(w io.Writer) (int64, error) {
	b, err := d.Bytes()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(b)
	return int64(n), err
}

// BytesCanonical lays the document out the way Nintendo's current tools do, the layout of
// Tears of the Kingdom's files (it reproduces all but three of the corpus's TotK files byte
// for byte; the tests list the exceptions and why):
//
//   - header, then the key table and the string table, each sorted bytewise, padded to 4;
//   - then every big value (Binary, File, Int64, UInt64, Double), unpadded, except that File
//     data starts on its own alignment, in depth-first order of first use;
//   - then the containers, root first, depth-first in entry order (a container's first child
//     container and its whole subtree before the second), each 4-aligned; the file ends
//     right after the last one;
//   - equal containers are written once and share one offset; equal big values are not
//     (each use gets its own copy, as in A-4_Static.bcett.byml), unless the tree itself
//     holds one big-value node in several places.
func (d *Document) BytesCanonical() ([]byte, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	l, err := canonicalLayout(d.Root)
	if err != nil {
		return nil, err
	}
	return d.encode(l)
}

// check rejects what no layout can write: the version, a non-container root, nil or unknown
// nodes, cycles, counts over 24 bits, hash keys that do not fit or are not sorted and unique
// (Read refuses those, as the game binary-searches keys), strings with NUL bytes.
func (d *Document) check() error {
	if d.Version < 1 || d.Version > 7 {
		return fmt.Errorf("byml: cannot write version %d (2 to 7 can be written)", d.Version)
	}
	if d.Root == nil {
		return nil
	}
	if !d.Root.Kind.IsContainer() {
		return fmt.Errorf("byml: root is %s, must be a container", d.Root.Kind)
	}
	done := map[*Node]bool{}
	open := map[*Node]bool{}
	// The path to the node being checked, as (container, member index) steps; it becomes
	// text only for an error.
	type step struct {
		n *Node
		i int
	}
	var steps []step
	fail := func(format string, args ...any) error {
		var b strings.Builder
		b.WriteString("root")
		for _, s := range steps {
			if s.n.Kind == Array {
				fmt.Fprintf(&b, "[%d]", s.i)
			} else {
				b.WriteString("." + entryName(s.n, s.n.Entries[s.i]))
			}
		}
		return fmt.Errorf("byml: %s: %s", b.String(), fmt.Sprintf(format, args...))
	}
	var rec func(n *Node) error
	rec = func(n *Node) error {
		switch {
		case n == nil:
			return fail("nil node")
		case n.Kind >= numKinds:
			return fail("invalid kind %d", n.Kind)
		case n.Kind == File && n.Align != 0 && n.Align&(n.Align-1) != 0:
			return fail("file alignment %d is not a power of two", n.Align)
		case n.Kind == String && strings.IndexByte(n.Str, 0) >= 0:
			return fail("string %q contains NUL", n.Str)
		case !n.Kind.IsContainer() || done[n]:
			return nil
		case open[n]:
			return fail("container contains itself")
		case len(n.Items)+len(n.Entries) > 0xFFFFFF:
			return fail("%d entries, at most %d fit", len(n.Items)+len(n.Entries), 0xFFFFFF)
		case n.Kind == Array && n.Entries != nil || n.Kind != Array && n.Items != nil:
			return fail("%s has both items and entries", n.Kind)
		}
		open[n] = true
		for i, it := range n.Items {
			steps = append(steps, step{n, i})
			if err := rec(it); err != nil {
				return err
			}
			steps = steps[:len(steps)-1]
		}
		for i, e := range n.Entries {
			// A KeepOrder hash is written in the order given (see Node).
			inOrder := n.KeepOrder || i == 0 || entryBefore(n.Kind, &n.Entries[i-1], &n.Entries[i])
			switch {
			case !inOrder && n.Kind == Hash:
				return fail("key %q after %q: hash keys must be sorted and unique (or the hash marked KeepOrder)", e.Key, n.Entries[i-1].Key)
			case !inOrder:
				return fail("hash 0x%x after 0x%x: hash map keys must be sorted and unique (or the hash map marked KeepOrder)", e.Hash, n.Entries[i-1].Hash)
			case n.Kind == HashMap32 && e.Hash > math.MaxUint32:
				return fail("hash 0x%x does not fit 32 bits", e.Hash)
			case n.Kind == Hash && strings.IndexByte(e.Key, 0) >= 0:
				return fail("key %q contains NUL", e.Key)
			}
			steps = append(steps, step{n, i})
			if err := rec(e.Value); err != nil {
				return err
			}
			steps = steps[:len(steps)-1]
		}
		delete(open, n)
		done[n] = true
		return nil
	}
	return rec(d.Root)
}

func entryName(n *Node, e Entry) string {
	if n.Kind == Hash {
		return e.Key
	}
	return fmt.Sprintf("0x%x", e.Hash)
}

// size is the number of bytes n takes at its offset, padding after it not counted; for File
// data the alignment gap before the data is not counted either (it depends on the offset).
func size(n *Node) uint32 {
	switch n.Kind {
	case Array:
		c := uint32(len(n.Items))
		return 4 + align4(c) + 4*c
	case Hash:
		return 4 + 8*uint32(len(n.Entries))
	case HashMap32:
		return 4 + 9*uint32(len(n.Entries))
	case HashMap64:
		return 4 + 13*uint32(len(n.Entries))
	case Binary:
		return 4 + uint32(len(n.Data))
	case File:
		return 8 + uint32(len(n.Data))
	case Int64, UInt64, Double:
		return 8
	}
	return 0
}

// fits reports whether the recorded layout can write root: the same out-of-line nodes, each
// the size it was, all keys and strings in the recorded tables.
func (l *layout) fits(root *Node) bool {
	if root == nil {
		return l.rootOff == 0 && l.reached == 0
	}
	if off, ok := l.at[root]; !ok || off != l.rootOff {
		return false
	}
	seen := make(map[*Node]bool, len(l.slots))
	ok := true
	var rec func(n *Node)
	rec = func(n *Node) {
		if !ok {
			return
		}
		switch {
		case n.Kind == String:
			if _, in := l.strs.index(n.Str); !in {
				ok = false
			}
			return
		case !n.Kind.outOfLine():
			return
		}
		if seen[n] {
			return
		}
		seen[n] = true
		off, in := l.at[n]
		if !in {
			ok = false
			return
		}
		i, _ := slices.BinarySearchFunc(l.slots, off, func(s slot, off uint32) int { return int(int64(s.off) - int64(off)) })
		if l.slots[i].size != size(n) {
			ok = false
			return
		}
		for _, it := range n.Items {
			rec(it)
		}
		for _, e := range n.Entries {
			if n.Kind == Hash {
				if _, in := l.keys.index(e.Key); !in {
					ok = false
					return
				}
			}
			rec(e.Value)
		}
	}
	rec(root)
	return ok && len(seen) == l.reached
}

// encode writes the document at the places the layout gives.
func (d *Document) encode(l *layout) ([]byte, error) {
	e := &encoder{b: make([]byte, l.size), l: l}
	e.order = binary.ByteOrder(binary.LittleEndian)
	copy(e.b, "YB")
	if d.BigEndian {
		e.order = binary.BigEndian
		copy(e.b, "BY")
	}
	e.order.PutUint16(e.b[2:], d.Version)
	e.order.PutUint32(e.b[4:], l.keyOff)
	e.order.PutUint32(e.b[8:], l.strOff)
	e.order.PutUint32(e.b[12:], l.rootOff)
	e.be = d.BigEndian
	for _, t := range []*table{l.keys, l.strs} {
		if t == nil {
			continue
		}
		e.putU24(t.off, 0xC2, uint32(len(t.strs)))
		for i, r := range t.rel {
			e.order.PutUint32(e.b[t.off+4+4*uint32(i):], r)
		}
		for i, s := range t.strs {
			copy(e.b[t.off+t.rel[i]:], s) // the NUL is already there
		}
	}
	for _, s := range l.slots {
		if err := e.node(s.node, s.off); err != nil {
			return nil, err
		}
	}
	return e.b, nil
}

type encoder struct {
	b     []byte
	order binary.ByteOrder
	be    bool
	l     *layout
}

// putU24 writes a type byte and a 24-bit count or index as one word.
func (e *encoder) putU24(off uint32, t byte, v uint32) {
	if e.be {
		e.order.PutUint32(e.b[off:], uint32(t)<<24|v)
	} else {
		e.order.PutUint32(e.b[off:], uint32(t)|v<<8)
	}
}

// putKeyType writes a hash entry's 24-bit key index followed by the value's type byte.
func (e *encoder) putKeyType(off uint32, k uint32, t byte) {
	if e.be {
		e.order.PutUint32(e.b[off:], k<<8|uint32(t))
	} else {
		e.order.PutUint32(e.b[off:], k|uint32(t)<<24)
	}
}

// value is what goes in a parent's 4-byte slot for child c.
func (e *encoder) value(c *Node) (uint32, error) {
	switch {
	case c.Kind == String:
		i, ok := e.l.strs.index(c.Str)
		if !ok {
			return 0, fmt.Errorf("byml: string %q missing from the string table", c.Str)
		}
		return i, nil
	case c.Kind.outOfLine():
		off, ok := e.l.at[c]
		if !ok {
			return 0, errors.New("byml: internal error: node without an offset")
		}
		return off, nil
	}
	return uint32(c.Bits), nil
}

func (e *encoder) node(n *Node, off uint32) error {
	b := e.b
	switch n.Kind {
	case Int64, UInt64, Double:
		e.order.PutUint64(b[off:], n.Bits)
	case Binary:
		e.order.PutUint32(b[off:], uint32(len(n.Data)))
		copy(b[off+4:], n.Data)
	case File:
		e.order.PutUint32(b[off:], uint32(len(n.Data)))
		e.order.PutUint32(b[off+4:], n.Align)
		copy(b[off+8:], n.Data)
	case Array:
		c := uint32(len(n.Items))
		e.putU24(off, 0xC0, c)
		vals := off + 4 + align4(c)
		for i, it := range n.Items {
			b[off+4+uint32(i)] = nodeType[it.Kind]
			v, err := e.value(it)
			if err != nil {
				return err
			}
			e.order.PutUint32(b[vals+4*uint32(i):], v)
		}
	case Hash:
		e.putU24(off, 0xC1, uint32(len(n.Entries)))
		for i, en := range n.Entries {
			at := off + 4 + 8*uint32(i)
			k, ok := e.l.keys.index(en.Key)
			if !ok {
				return fmt.Errorf("byml: key %q missing from the key table", en.Key)
			}
			e.putKeyType(at, k, nodeType[en.Value.Kind])
			v, err := e.value(en.Value)
			if err != nil {
				return err
			}
			e.order.PutUint32(b[at+4:], v)
		}
	case HashMap32, HashMap64:
		c := uint32(len(n.Entries))
		e.putU24(off, nodeType[n.Kind], c)
		w := uint32(8)
		if n.Kind == HashMap64 {
			w = 12
		}
		types := off + 4 + w*c
		for i, en := range n.Entries {
			at := off + 4 + w*uint32(i)
			if n.Kind == HashMap32 {
				e.order.PutUint32(b[at:], uint32(en.Hash))
			} else {
				e.order.PutUint64(b[at:], en.Hash)
			}
			v, err := e.value(en.Value)
			if err != nil {
				return err
			}
			e.order.PutUint32(b[at+w-4:], v)
			b[types+uint32(i)] = nodeType[en.Value.Kind]
		}
	}
	return nil
}
