package byml

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"

	"ainbeditor/internal/jsontext"
)

// The compact form is what the editor's tree view reads when it opens a file (see the package
// doc): the JSON form's tree without its per-node objects. A node's type is one letter, and
// the letters of a container's members sit together in the container's shape; the keys of a
// hash sit there too, so the many hashes of a file that have the same keys and member types
// (ActorInfo's thousands of actors) send them once:
//
//	{"version": 7, "bigEndian": false, "type": "h", "root": VALUE or null,
//	 "keys": ["key", ...], "strings": ["text", ...], "shapes": [SHAPE, ...]}
//
// A container's value is [shape index, member value, ...]. An array's shape is the string of
// its members' letters, or one letter when all of an array's (two or more) members share it;
// a hash's is [letters, [key, ...]], each key its number in "keys" (which lists each key
// once), with a third member 1 for a hash that keeps its order (Node.KeepOrder), and likewise
// a hash map's, whose keys are its hashes: numbers (hashmap32) or decimal text (hashmap64).
// The letters and values:
//
//	n null       null
//	s string     its number in "strings", which lists each string value once
//	b bool       true
//	i int        -5
//	u uint       5
//	f float      1.5, or "nan", "inf", "-inf"
//	l int64      "-5"
//	m uint64     "5"
//	d double     "1.5", or "nan", "inf", "-inf": decimal text
//	x binary     "AAE=" (base64)
//	y file       [4096, "AAE="] (alignment, base64)
//	a array, h hash, p hashmap32, q hashmap64: [shape, ...]
//
// Every container and big value (the letters l, m, d, x, y, a, h, p, q: what the file holds
// at an offset) is numbered in the order its value is finished, and where the tree uses one
// again its value is that number instead, a JSON number where the node's own value never is
// one. So a shared node is sent once, and a number refers only to a node complete before it.
// Keys, strings and shapes are numbered in the order first used.

// compactLetter is each kind's letter in the compact form.
var compactLetter = [numKinds]byte{
	Null: 'n', String: 's', Bool: 'b', Int: 'i', UInt: 'u', Float: 'f', Int64: 'l', UInt64: 'm',
	Double: 'd', Binary: 'x', File: 'y', Array: 'a', Hash: 'h', HashMap32: 'p', HashMap64: 'q',
}

// AppendCompact appends the document's compact form (see above) to b, within limit bytes in
// all like AppendJSON.
func (d *Document) AppendCompact(b []byte, limit int) ([]byte, error) {
	w := &compactWriter{ids: map[*Node]int{}, strings: map[string]int{}, keyNums: map[string]int{}}
	w.limit = limit
	if d.Root == nil {
		return w.finish(append(w.start(b, d.Version, d.BigEndian, 0), "null"...))
	}
	b, err := w.value(w.start(b, d.Version, d.BigEndian, compactLetter[d.Root.Kind]), d.Root, 0)
	if err != nil {
		return nil, err
	}
	return w.finish(b)
}

// compactShapes collects a compact form's shapes, keys and strings, each once, in the order
// first used: they are written after the root, and count against the budget from the start.
type compactShapes struct {
	limit   int
	text    []byte         // the shapes written so far, comma-separated
	index   map[string]int // a shape's text to its number
	scratch []byte
	keys    textList // the hashes' keys
	strs    textList // the string values
}

// textList is a list of strings the form sends once each and names by number.
type textList struct {
	text []byte // comma-separated
	n    int
}

// listed is the bytes of the shapes, keys and strings so far.
func (s *compactShapes) listed() int { return len(s.text) + len(s.keys.text) + len(s.strs.text) }

// add lists str in l, within the room the form so far (written bytes) leaves, and returns its
// number.
func (s *compactShapes) add(l *textList, str string, written int) (int, error) {
	if written+s.listed()+len(str) > s.limit {
		return 0, &jsontext.TooLargeError{Limit: s.limit}
	}
	if l.n > 0 {
		l.text = append(l.text, ',')
	}
	t, err := appendJSONString(l.text, str)
	if err != nil {
		return 0, err
	}
	l.text = t
	l.n++
	return l.n - 1, nil
}

// start writes the form up to the root's value; root is the root's letter, 0 for none.
func (s *compactShapes) start(b []byte, version uint16, bigEndian bool, root byte) []byte {
	s.index = map[string]int{}
	b = append(b, `{"version":`...)
	b = strconv.AppendUint(b, uint64(version), 10)
	b = append(b, `,"bigEndian":`...)
	b = strconv.AppendBool(b, bigEndian)
	if root != 0 {
		b = append(b, `,"type":"`...)
		b = append(b, root, '"')
	}
	return append(b, `,"root":`...)
}

// finish appends the keys, strings and shapes and closes the form.
func (s *compactShapes) finish(b []byte) ([]byte, error) {
	if len(b)+s.listed()+len(`,"keys":[],"strings":[],"shapes":[]}`) > s.limit {
		return nil, &jsontext.TooLargeError{Limit: s.limit, Where: ""}
	}
	b = append(b, `,"keys":[`...)
	b = append(b, s.keys.text...)
	b = append(b, `],"strings":[`...)
	b = append(b, s.strs.text...)
	b = append(b, `],"shapes":[`...)
	b = append(b, s.text...)
	return append(b, `]}`...), nil
}

// shape returns the number of the shape whose text is in s.scratch, adding it when new. The
// shapes are counted against the budget with the form (written reaches the form so far).
func (s *compactShapes) shape(written int) (int, error) {
	if i, ok := s.index[string(s.scratch)]; ok {
		return i, nil
	}
	if written+s.listed()+len(s.scratch)+1 > s.limit {
		return 0, &jsontext.TooLargeError{Limit: s.limit}
	}
	i := len(s.index)
	s.index[string(s.scratch)] = i
	if i > 0 {
		s.text = append(s.text, ',')
	}
	s.text = append(s.text, s.scratch...)
	return i, nil
}

// compactWriter writes the compact form from a model.
type compactWriter struct {
	compactShapes
	ids     map[*Node]int
	strings map[string]int // a string's number
	keyNums map[string]int // a key's number
}

// A shape's text is built in s.scratch: shapeStart, a shapeLetter for each member (for an
// array of members of one kind, the first only), and for a hash or hash map shapeKeys and a
// shapeKey for each member; then shapeEnd.

func (s *compactShapes) shapeStart(k Kind) {
	if k == Array {
		s.scratch = append(s.scratch[:0], '"')
	} else {
		s.scratch = append(s.scratch[:0], '[', '"')
	}
}

func (s *compactShapes) shapeLetter(k Kind) { s.scratch = append(s.scratch, compactLetter[k]) }

func (s *compactShapes) shapeKeys() { s.scratch = append(s.scratch, `",[`...) }

// shapeKey adds the key of member i of a container of kind k: for a hash the key's number in
// the keys list, for a hash map its hash.
func (s *compactShapes) shapeKey(i int, k Kind, key int, hash uint64) {
	if i > 0 {
		s.scratch = append(s.scratch, ',')
	}
	switch k {
	case Hash:
		s.scratch = strconv.AppendInt(s.scratch, int64(key), 10)
	case HashMap32:
		s.scratch = strconv.AppendUint(s.scratch, hash, 10)
	default:
		s.scratch = append(strconv.AppendUint(append(s.scratch, '"'), hash, 10), '"')
	}
}

func (s *compactShapes) shapeEnd(k Kind, keepOrder bool) {
	switch {
	case k == Array:
		s.scratch = append(s.scratch, '"')
	case keepOrder:
		s.scratch = append(s.scratch, "],1]"...)
	default:
		s.scratch = append(s.scratch, "]]"...)
	}
}

// shapeOf puts the text of a container's shape in w.scratch, listing its keys that are new
// within the room the form so far (written bytes) leaves.
func (w *compactWriter) shapeOf(n *Node, written int) error {
	w.shapeStart(n.Kind)
	if n.Kind == Array {
		for i, it := range n.Items {
			if i == 1 && allKind(n.Items) {
				break
			}
			w.shapeLetter(it.Kind)
		}
	} else {
		for _, e := range n.Entries {
			w.shapeLetter(e.Value.Kind)
		}
		w.shapeKeys()
		for i, e := range n.Entries {
			key := 0
			if n.Kind == Hash {
				var ok bool
				if key, ok = w.keyNums[e.Key]; !ok {
					var err error
					if key, err = w.add(&w.keys, e.Key, written); err != nil {
						return err
					}
					w.keyNums[e.Key] = key
				}
			}
			w.shapeKey(i, n.Kind, key, e.Hash)
		}
	}
	w.shapeEnd(n.Kind, n.KeepOrder)
	return nil
}

// allKind reports whether every node of a list has the first one's kind.
func allKind(items []*Node) bool {
	for _, it := range items[1:] {
		if it.Kind != items[0].Kind {
			return false
		}
	}
	return true
}

func (w *compactWriter) value(b []byte, n *Node, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("byml: containers nest deeper than %d levels", maxDepth)
	}
	if id, ok := w.ids[n]; ok {
		return strconv.AppendInt(b, int64(id), 10), nil
	}
	// A long value is refused before it is written, as in AppendJSON (a string as it is
	// listed, once).
	if len(b)+base64.StdEncoding.EncodedLen(len(n.Data)) > w.limit {
		return nil, &jsontext.TooLargeError{Limit: w.limit}
	}
	var err error
	switch n.Kind {
	case Null:
		b = append(b, "null"...)
	case String:
		i, ok := w.strings[n.Str]
		if !ok {
			if i, err = w.add(&w.strs, n.Str, len(b)); err != nil {
				return nil, err
			}
			w.strings[n.Str] = i
		}
		b = strconv.AppendInt(b, int64(i), 10)
	case Bool, Int, UInt, Int64, UInt64, Float:
		b = appendNumber(b, n.Kind, n.Bits)
	case Double:
		b = appendCompactDouble(b, n.DoubleValue())
	case Binary:
		b = append(base64.StdEncoding.AppendEncode(append(b, '"'), n.Data), '"')
	case File:
		b = append(strconv.AppendUint(append(b, '['), uint64(n.Align), 10), ',', '"')
		b = append(base64.StdEncoding.AppendEncode(b, n.Data), `"]`...)
	case Array, Hash, HashMap32, HashMap64:
		b, err = w.container(b, n, depth)
	default:
		err = fmt.Errorf("byml: invalid kind %d", n.Kind)
	}
	if err != nil {
		return nil, err
	}
	if n.Kind.outOfLine() {
		w.ids[n] = len(w.ids)
	}
	return b, nil
}

// appendNumber writes a bool or a number other than a double (the JSON form writes a number,
// the compact form text) as both JSON forms do: kind k, bits as Node.Bits holds them. The
// 64-bit integers are decimal text, as JavaScript numbers hold 53 bits.
func appendNumber(b []byte, k Kind, bits uint64) []byte {
	switch k {
	case Bool:
		return strconv.AppendBool(b, bits != 0)
	case Int:
		return strconv.AppendInt(b, int64(int32(bits)), 10)
	case UInt:
		return strconv.AppendUint(b, uint64(uint32(bits)), 10)
	case Int64:
		return append(strconv.AppendInt(append(b, '"'), int64(bits), 10), '"')
	case UInt64:
		return append(strconv.AppendUint(append(b, '"'), bits, 10), '"')
	}
	return appendJSONFloat(b, float64(math.Float32frombits(uint32(bits))), 32)
}

// appendCompactDouble writes a double as decimal text (see the form above).
func appendCompactDouble(b []byte, f float64) []byte {
	if s := appendJSONFloat(nil, f, 64); s[0] == '"' {
		return append(b, s...)
	}
	return append(strconv.AppendFloat(append(b, '"'), f, 'g', -1, 64), '"')
}

func (w *compactWriter) container(b []byte, n *Node, depth int) ([]byte, error) {
	if err := w.shapeOf(n, len(b)); err != nil {
		return nil, err
	}
	shape, err := w.shape(len(b))
	if err != nil {
		return nil, err
	}
	b = strconv.AppendInt(append(b, '['), int64(shape), 10)
	for i, it := range n.Items {
		if b, err = w.member(b, it, depth); err != nil {
			return nil, inside(err, strconv.Itoa(i))
		}
	}
	for _, e := range n.Entries {
		if b, err = w.member(b, e.Value, depth); err != nil {
			return nil, inside(err, pointerKey(n, e))
		}
	}
	return append(b, ']'), nil
}

// member writes a member of a container at depth.
func (w *compactWriter) member(b []byte, c *Node, depth int) ([]byte, error) {
	b, err := w.value(append(b, ','), c, depth+1)
	if err != nil {
		return nil, err
	}
	return w.within(b)
}

// within checks the budget after a member was written (the shapes count too), as
// jsonWriter.within does.
func (s *compactShapes) within(b []byte) ([]byte, error) {
	if len(b)+s.listed() > s.limit {
		return nil, &jsontext.TooLargeError{Limit: s.limit}
	}
	return jsontext.Grow(b, s.limit), nil
}
