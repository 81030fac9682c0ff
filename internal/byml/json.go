package byml

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"ainbeditor/internal/jsontext"
)

// ToJSON writes the document in the JSON form (see the package doc).
func (d *Document) ToJSON() ([]byte, error) { return d.AppendJSON(nil, jsontext.NoLimit) }

// AppendJSON appends the document's JSON form to b, stopping with a *jsontext.TooLargeError
// once b would hold more than limit bytes: a file that shares one long string from many
// places writes it at every use, and the budget holds while the text is written rather than
// after (see checkExpansion for the bound a file's reader already puts on it). The error's
// Where is the JSON Pointer of the node being written, "" for the root.
func (d *Document) AppendJSON(b []byte, limit int) ([]byte, error) {
	b = append(b, `{"version":`...)
	b = strconv.AppendUint(b, uint64(d.Version), 10)
	b = append(b, `,"bigEndian":`...)
	b = strconv.AppendBool(b, d.BigEndian)
	b = append(b, `,"root":`...)
	if d.Root == nil {
		b = append(b, "null"...)
	} else {
		w := &jsonWriter{ids: map[*Node]int{}, uses: uses(d.Root), limit: limit}
		var err error
		if b, err = w.node(b, d.Root, 0); err != nil {
			return nil, err
		}
	}
	if b = append(b, '}'); len(b) > limit {
		return nil, &jsontext.TooLargeError{Limit: limit}
	}
	return b, nil
}

// uses counts, for every out-of-line node (container or big value), how many slots refer to
// it; a shared node's members are counted once.
func uses(root *Node) map[*Node]int {
	u := map[*Node]int{}
	var rec func(n *Node, depth int)
	rec = func(n *Node, depth int) {
		if !n.Kind.outOfLine() || depth > maxDepth {
			return
		}
		if u[n]++; u[n] > 1 {
			return
		}
		for _, it := range n.Items {
			rec(it, depth+1)
		}
		for _, e := range n.Entries {
			rec(e.Value, depth+1)
		}
	}
	rec(root, 0)
	return u
}

// jsonWriter writes the JSON form: a node used from several places is written whole at its
// first use with an "id", and as {"ref": id} at the others.
type jsonWriter struct {
	uses  map[*Node]int
	ids   map[*Node]int
	limit int
}

// within checks the budget after a member of n was written: past it, the error names the
// member, and each container it is in adds its own step on the way out (see inside).
func (w *jsonWriter) within(b []byte) ([]byte, error) {
	if len(b) > w.limit {
		return nil, &jsontext.TooLargeError{Limit: w.limit}
	}
	return jsontext.Grow(b, w.limit), nil
}

// inside puts step in front of the place a budget error names; other errors pass as they are.
func inside(err error, step string) error {
	if tl, ok := err.(*jsontext.TooLargeError); ok {
		tl.Where = "/" + step + tl.Where
	}
	return err
}

func appendJSONString(b []byte, s string) ([]byte, error) {
	if !utf8.ValidString(s) {
		return nil, fmt.Errorf("byml: string %q is not UTF-8, JSON cannot hold it", s)
	}
	return jsontext.AppendString(b, s), nil
}

func appendJSONFloat(b []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"nan"`...)
	case math.IsInf(f, 1):
		return append(b, `"inf"`...)
	case math.IsInf(f, -1):
		return append(b, `"-inf"`...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, bits)
}

func (w *jsonWriter) node(b []byte, n *Node, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("byml: containers nest deeper than %d levels", maxDepth)
	}
	if id, ok := w.ids[n]; ok {
		b = append(b, `{"ref":`...)
		b = strconv.AppendInt(b, int64(id), 10)
		return append(b, '}'), nil
	}
	b = append(b, `{"type":"`...)
	b = append(b, n.Kind.String()...)
	b = append(b, '"')
	if w.uses[n] > 1 {
		id := len(w.ids)
		w.ids[n] = id
		b = append(b, `,"id":`...)
		b = strconv.AppendInt(b, int64(id), 10)
	}
	if n.KeepOrder && (n.Kind == Hash || n.Kind == HashMap32 || n.Kind == HashMap64) {
		b = append(b, `,"unsorted":true`...)
	}
	if n.Kind == Null {
		return append(b, '}'), nil
	}
	b = append(b, `,"value":`...)
	// A long value is refused before it is written: it may be most of the file, and
	// written with escapes up to six times its size.
	if len(b)+len(n.Str)+base64.StdEncoding.EncodedLen(len(n.Data)) > w.limit {
		return nil, &jsontext.TooLargeError{Limit: w.limit}
	}
	var err error
	switch n.Kind {
	case String:
		if b, err = appendJSONString(b, n.Str); err != nil {
			return nil, err
		}
	case Bool, Int, UInt, Int64, UInt64, Float:
		b = appendNumber(b, n.Kind, n.Bits)
	case Double:
		b = appendJSONFloat(b, n.DoubleValue(), 64)
	case Binary:
		b = append(base64.StdEncoding.AppendEncode(append(b, '"'), n.Data), '"')
	case File:
		b = append(b, `{"align":`...)
		b = strconv.AppendUint(b, uint64(n.Align), 10)
		b = append(b, `,"data":"`...)
		b = append(base64.StdEncoding.AppendEncode(b, n.Data), `"}`...)
	case Array:
		b = append(b, '[')
		for i, it := range n.Items {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = w.node(b, it, depth+1); err == nil {
				b, err = w.within(b)
			}
			if err != nil {
				return nil, inside(err, strconv.Itoa(i))
			}
		}
		b = append(b, ']')
	case Hash, HashMap32, HashMap64:
		b = append(b, '[')
		for i, e := range n.Entries {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			switch n.Kind {
			case Hash:
				if b, err = appendJSONString(b, e.Key); err != nil {
					return nil, err
				}
			case HashMap32:
				b = strconv.AppendUint(b, e.Hash, 10)
			default:
				b = append(strconv.AppendUint(append(b, '"'), e.Hash, 10), '"')
			}
			b = append(b, ',')
			if b, err = w.node(b, e.Value, depth+1); err == nil {
				b, err = w.within(b)
			}
			if err != nil {
				return nil, inside(err, pointerKey(n, e))
			}
			b = append(b, ']')
		}
		b = append(b, ']')
	default:
		return nil, fmt.Errorf("byml: invalid kind %d", n.Kind)
	}
	return append(b, '}'), nil
}

// FromJSON reads a document in the JSON form (see the package doc). Hash members are sorted
// and a repeated key is an error, unless the hash says "unsorted": true (Node.KeepOrder). The
// document has no recorded layout. Text that is not JSON is a *jsontext.SyntaxError (wrapped);
// JSON of the wrong form a *jsontext.FormError, with the line, column and path where reading
// stopped.
func FromJSON(data []byte) (*Document, error) {
	r := &jsonReader{s: jsontext.Scanner{Data: data}}
	r.s.Path = r.path
	doc, err := r.document()
	if err == nil {
		if r.s.End(); r.s.Err != nil {
			err = r.s.Err
		}
	}
	if err == nil {
		// References share nodes as a file's offsets do: bound the document they make.
		if err = checkExpansion(doc.Root, len(data)); err != nil {
			return nil, err
		}
	}
	if err != nil {
		if _, ok := err.(*jsontext.SyntaxError); ok {
			return nil, fmt.Errorf("byml: %w", err)
		}
		line, col := r.s.Position(r.s.Pos)
		return nil, &jsontext.FormError{Reader: "byml", Offset: r.s.Pos, Line: line, Column: col, Path: r.path(), Err: err}
	}
	return doc, nil
}

// jsonReader reads the fixed shape of the JSON form through jsontext's scanner:
// encoding/json's token stream allocates for every token, several times slower on the large
// documents the editor sends.
type jsonReader struct {
	s   jsontext.Scanner
	buf []byte // the value of the last escaped string
	// defs holds the nodes written with an "id", once complete: a "ref" names one of them,
	// so a reference can only point back at a finished node and never make a cycle.
	defs map[uint64]*Node
	// steps is where in the tree the reader is, for errors: written out only when one
	// happens (path).
	steps []jsonStep
}

// jsonStep is one step of the path to a node: a hash key, a hash map's hash, or an index.
type jsonStep struct {
	key   string
	index uint64
	byKey bool
}

// path is the reader's place as the tree view names it: "/Actors/3/Name".
func (r *jsonReader) path() string {
	var b []byte
	for _, st := range r.steps {
		b = append(b, '/')
		if st.byKey {
			b = append(b, st.key...)
		} else {
			b = strconv.AppendUint(b, st.index, 10)
		}
	}
	return string(b)
}

// fail returns the scanner's error, as an error only when there is one.
func (r *jsonReader) fail() error {
	if r.s.Err != nil {
		return r.s.Err
	}
	return nil
}

// peek returns the next byte after white space, or 0 at the end.
func (r *jsonReader) peek() byte { return r.s.Peek() }

func (r *jsonReader) expect(c byte) error {
	if got := r.s.Peek(); got != c {
		if r.s.Err == nil {
			r.s.Failf("want %s, found %s", strconv.QuoteRune(rune(c)), jsontext.Describe(got))
		}
		return r.s.Err
	}
	r.s.Pos++
	return nil
}

// more reports whether a list goes on: it consumes a comma, or sees the closing bracket
// (not consumed). first is true before the first member.
func (r *jsonReader) more(first bool, end byte) (bool, error) {
	c := r.s.Peek()
	if c == end {
		return false, nil
	}
	if first || r.s.Err != nil {
		return r.s.Err == nil, r.fail()
	}
	if c != ',' {
		r.s.Failf("want ',' or %s, found %s", strconv.QuoteRune(rune(end)), jsontext.Describe(c))
		return false, r.s.Err
	}
	r.s.Pos++
	return true, nil
}

func (r *jsonReader) literal(word string) bool {
	if r.s.Peek() != word[0] || !bytes.HasPrefix(r.s.Data[r.s.Pos:], []byte(word)) {
		return false
	}
	r.s.Pos += len(word)
	return true
}

// raw reads a string's value, valid until the next string is read.
func (r *jsonReader) raw() ([]byte, error) {
	if c := r.s.Peek(); c != '"' {
		if r.s.Err == nil {
			r.s.Failf("want a string, found %s", jsontext.Describe(c))
		}
		return nil, r.s.Err
	}
	v, esc := r.s.String(r.buf)
	if esc {
		r.buf = v
	}
	return v, r.fail()
}

func (r *jsonReader) str() (string, error) {
	v, err := r.raw()
	return string(v), err
}

// key reads a member name and its colon; the name is valid until the next string is read.
func (r *jsonReader) key() ([]byte, error) {
	k, err := r.raw()
	if err != nil {
		return nil, err
	}
	return k, r.expect(':')
}

// number returns the text of a JSON number.
func (r *jsonReader) number() ([]byte, error) {
	if c := r.s.Peek(); c != '-' && (c < '0' || c > '9') {
		if r.s.Err == nil {
			r.s.Failf("want a number, found %s", jsontext.Describe(c))
		}
		return nil, r.s.Err
	}
	t := r.s.Number()
	return t, r.fail()
}

// intText reads an integer given as a number or as decimal text.
func (r *jsonReader) intText() ([]byte, error) {
	if r.peek() == '"' {
		return r.raw()
	}
	return r.number()
}

func (r *jsonReader) uint(bits int) (uint64, error) {
	s, err := r.intText()
	if err != nil {
		return 0, err
	}
	u, err := strconv.ParseUint(unsafe.String(unsafe.SliceData(s), len(s)), 10, bits)
	if err != nil {
		return 0, fmt.Errorf("%q is not an unsigned %d-bit integer", s, bits)
	}
	return u, nil
}

func (r *jsonReader) int(bits int) (int64, error) {
	s, err := r.intText()
	if err != nil {
		return 0, err
	}
	i, err := strconv.ParseInt(unsafe.String(unsafe.SliceData(s), len(s)), 10, bits)
	if err != nil {
		return 0, fmt.Errorf("%q is not a signed %d-bit integer", s, bits)
	}
	return i, nil
}

func (r *jsonReader) float(bits int) (float64, error) {
	if r.peek() == '"' {
		s, err := r.raw()
		if err != nil {
			return 0, err
		}
		switch string(s) {
		case "nan":
			return quietNaN, nil
		case "inf":
			return math.Inf(1), nil
		case "-inf":
			return math.Inf(-1), nil
		}
		return 0, fmt.Errorf("%q is not a number", s)
	}
	s, err := r.number()
	if err != nil {
		return 0, err
	}
	f, err := jsontext.ParseFloat(s, bits)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	return f, nil
}

func (r *jsonReader) boolean() (bool, error) {
	switch {
	case r.literal("true"):
		return true, nil
	case r.literal("false"):
		return false, nil
	}
	return false, errors.New("want true or false")
}

func (r *jsonReader) document() (*Document, error) {
	if err := r.expect('{'); err != nil {
		return nil, err
	}
	doc := &Document{Version: 2}
	for first := true; ; first = false {
		if ok, err := r.more(first, '}'); err != nil {
			return nil, err
		} else if !ok {
			break
		}
		k, err := r.key()
		if err != nil {
			return nil, err
		}
		switch string(k) {
		case "version":
			v, err := r.uint(16)
			if err != nil {
				return nil, err
			}
			doc.Version = uint16(v)
		case "bigEndian":
			if doc.BigEndian, err = r.boolean(); err != nil {
				return nil, err
			}
		case "root":
			if r.literal("null") {
				doc.Root = nil
				continue
			}
			if doc.Root, err = r.node(0); err != nil {
				return nil, err
			}
			if !doc.Root.Kind.IsContainer() {
				return nil, fmt.Errorf("root is %s, must be a container", doc.Root.Kind)
			}
		default:
			return nil, fmt.Errorf("unknown document field %q", k)
		}
	}
	return doc, r.expect('}')
}

// kindByName maps the JSON type names to kinds.
var kindByName = func() map[string]Kind {
	m := map[string]Kind{}
	for k := range numKinds {
		m[kindNames[k]] = k
	}
	return m
}()

func (r *jsonReader) node(depth int) (*Node, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("containers nest deeper than %d levels", maxDepth)
	}
	if err := r.expect('{'); err != nil {
		return nil, err
	}
	if k, err := r.raw(); err != nil || string(k) != "type" {
		if err == nil && string(k) == "ref" {
			return r.ref()
		}
		if err == nil {
			err = fmt.Errorf("node starts with %q, want \"type\" or \"ref\"", k)
		}
		return nil, err
	}
	if err := r.expect(':'); err != nil {
		return nil, err
	}
	typ, err := r.raw()
	if err != nil {
		return nil, err
	}
	kind, ok := kindByName[string(typ)]
	if !ok {
		return nil, fmt.Errorf("unknown node type %q", typ)
	}
	n := &Node{Kind: kind}
	if r.peek() == '}' {
		r.s.Pos++
		if kind != Null {
			return nil, fmt.Errorf("%s node without a value", kind)
		}
		return n, nil
	}
	if err := r.expect(','); err != nil {
		return nil, err
	}
	k, err := r.raw()
	var id uint64
	hasID := false
	if err == nil && string(k) == "id" {
		if !kind.outOfLine() {
			return nil, fmt.Errorf("%s node with an \"id\": only containers and big values are shared", kind)
		}
		if err := r.expect(':'); err != nil {
			return nil, err
		}
		if id, err = r.uint(32); err != nil {
			return nil, err
		}
		if _, dup := r.defs[id]; dup {
			return nil, fmt.Errorf("id %d defined twice", id)
		}
		hasID = true
		if err := r.expect(','); err != nil {
			return nil, err
		}
		k, err = r.raw()
	}
	if err == nil && string(k) == "unsorted" {
		if kind != Hash && kind != HashMap32 && kind != HashMap64 {
			return nil, fmt.Errorf("%s node with \"unsorted\": only hashes keep an order", kind)
		}
		if err := r.expect(':'); err != nil {
			return nil, err
		}
		if n.KeepOrder, err = r.boolean(); err != nil {
			return nil, err
		}
		if err := r.expect(','); err != nil {
			return nil, err
		}
		k, err = r.raw()
	}
	if err != nil || string(k) != "value" {
		if err == nil {
			err = fmt.Errorf("node has field %q, want \"value\"", k)
		}
		return nil, err
	}
	if err := r.expect(':'); err != nil {
		return nil, err
	}
	if err := r.value(n, depth); err != nil {
		return nil, err
	}
	if hasID {
		if r.defs == nil {
			r.defs = map[uint64]*Node{}
		}
		r.defs[id] = n
	}
	return n, r.expect('}')
}

// ref reads the rest of {"ref": id}: the node defined earlier with that id.
func (r *jsonReader) ref() (*Node, error) {
	if err := r.expect(':'); err != nil {
		return nil, err
	}
	id, err := r.uint(32)
	if err != nil {
		return nil, err
	}
	n, ok := r.defs[id]
	if !ok {
		return nil, fmt.Errorf("ref %d names no node defined before it (a node cannot contain itself)", id)
	}
	return n, r.expect('}')
}

func (r *jsonReader) value(n *Node, depth int) error {
	var err error
	switch n.Kind {
	case Null:
		if !r.literal("null") {
			return errors.New("null node with a value")
		}
	case String:
		n.Str, err = r.str()
	case Bool:
		var b bool
		if b, err = r.boolean(); b {
			n.Bits = 1
		}
	case Int:
		var i int64
		i, err = r.int(32)
		n.Bits = uint64(i)
	case UInt:
		n.Bits, err = r.uint(32)
	case Int64:
		var i int64
		i, err = r.int(64)
		n.Bits = uint64(i)
	case UInt64:
		n.Bits, err = r.uint(64)
	case Float:
		var f float64
		f, err = r.float(32)
		n.Bits = uint64(math.Float32bits(float32(f)))
	case Double:
		var f float64
		f, err = r.float(64)
		n.Bits = math.Float64bits(f)
	case Binary:
		var s string
		if s, err = r.str(); err == nil {
			n.Data, err = base64.StdEncoding.DecodeString(s)
		}
	case File:
		return r.file(n)
	case Array:
		if err := r.expect('['); err != nil {
			return err
		}
		n.Items = []*Node{}
		for first := true; ; first = false {
			if ok, err := r.more(first, ']'); err != nil {
				return err
			} else if !ok {
				break
			}
			r.steps = append(r.steps, jsonStep{index: uint64(len(n.Items))})
			c, err := r.node(depth + 1)
			if err != nil {
				return err
			}
			r.steps = r.steps[:len(r.steps)-1]
			n.Items = append(n.Items, c)
		}
		return r.expect(']')
	case Hash, HashMap32, HashMap64:
		return r.entries(n, depth)
	}
	return err
}

func (r *jsonReader) file(n *Node) error {
	if err := r.expect('{'); err != nil {
		return err
	}
	var haveA, haveD bool
	for first := true; ; first = false {
		if ok, err := r.more(first, '}'); err != nil {
			return err
		} else if !ok {
			break
		}
		k, err := r.key()
		if err != nil {
			return err
		}
		switch string(k) {
		case "align":
			a, err := r.uint(32)
			if err != nil {
				return err
			}
			if a&(a-1) != 0 {
				return fmt.Errorf("file alignment %d is not a power of two", a)
			}
			n.Align, haveA = uint32(a), true
		case "data":
			s, err := r.str()
			if err != nil {
				return err
			}
			if n.Data, err = base64.StdEncoding.DecodeString(s); err != nil {
				return err
			}
			haveD = true
		default:
			return fmt.Errorf("file value has field %q (only align and data)", k)
		}
	}
	if !haveA || !haveD {
		return errors.New("file value needs align and data")
	}
	return r.expect('}')
}

func (r *jsonReader) entries(n *Node, depth int) error {
	if err := r.expect('['); err != nil {
		return err
	}
	n.Entries = []Entry{}
	for first := true; ; first = false {
		if ok, err := r.more(first, ']'); err != nil {
			return err
		} else if !ok {
			break
		}
		if err := r.expect('['); err != nil {
			return err
		}
		var e Entry
		var err error
		switch n.Kind {
		case Hash:
			e.Key, err = r.str()
		case HashMap32:
			e.Hash, err = r.uint(32)
		default:
			e.Hash, err = r.uint(64)
		}
		if err != nil {
			return err
		}
		if err := r.expect(','); err != nil {
			return err
		}
		r.steps = append(r.steps, jsonStep{key: e.Key, index: e.Hash, byKey: n.Kind == Hash})
		if e.Value, err = r.node(depth + 1); err != nil {
			return err
		}
		r.steps = r.steps[:len(r.steps)-1]
		if err := r.expect(']'); err != nil {
			return err
		}
		n.Entries = append(n.Entries, e)
	}
	if err := sortEntries(n); err != nil {
		return err
	}
	return r.expect(']')
}
