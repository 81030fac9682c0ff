package byml

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"ainbeditor/internal/jsontext"
)

// The JSON form, for the editor. A document is
//
//	{"version": 7, "bigEndian": false, "root": NODE or null}
//
// and every node is an object whose "type" comes first:
//
//	{"type": "null"}
//	{"type": "string", "value": "text"}
//	{"type": "bool", "value": true}
//	{"type": "int", "value": -5}               int32
//	{"type": "uint", "value": 5}               uint32
//	{"type": "int64", "value": "-5"}           decimal text: JavaScript numbers hold 53 bits
//	{"type": "uint64", "value": "5"}
//	{"type": "float", "value": 1.5}            float32: the shortest decimal that reads back
//	{"type": "double", "value": 1.5}           as the same value; "nan", "inf" and "-inf"
//	                                           as strings, since JSON has no such numbers
//	{"type": "binary", "value": "AAE="}        base64
//	{"type": "file", "value": {"align": 4096, "data": "AAE="}}
//	{"type": "array", "value": [NODE, ...]}
//	{"type": "hash", "value": [["key", NODE], ...]}        sorted by key
//	{"type": "hashmap32", "value": [[123, NODE], ...]}     sorted by hash
//	{"type": "hashmap64", "value": [["123", NODE], ...]}   hash as decimal text
//
// Members are pairs in arrays rather than object members because JavaScript reorders object
// keys that look like integers. Shared nodes are written out at each use.

// ToJSON writes the document in the JSON form above.
func (d *Document) ToJSON() ([]byte, error) {
	b := []byte(`{"version":`)
	b = strconv.AppendUint(b, uint64(d.Version), 10)
	b = append(b, `,"bigEndian":`...)
	b = strconv.AppendBool(b, d.BigEndian)
	b = append(b, `,"root":`...)
	if d.Root == nil {
		b = append(b, "null"...)
	} else {
		var err error
		if b, err = appendJSON(b, d.Root, 0); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
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

func appendJSON(b []byte, n *Node, depth int) ([]byte, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("byml: containers nest deeper than %d levels", maxDepth)
	}
	b = append(b, `{"type":"`...)
	b = append(b, n.Kind.String()...)
	b = append(b, '"')
	if n.Kind == Null {
		return append(b, '}'), nil
	}
	b = append(b, `,"value":`...)
	var err error
	switch n.Kind {
	case String:
		if b, err = appendJSONString(b, n.Str); err != nil {
			return nil, err
		}
	case Bool:
		b = strconv.AppendBool(b, n.Bits != 0)
	case Int:
		b = strconv.AppendInt(b, int64(int32(n.Bits)), 10)
	case UInt:
		b = strconv.AppendUint(b, uint64(uint32(n.Bits)), 10)
	case Int64:
		b = append(strconv.AppendInt(append(b, '"'), int64(n.Bits), 10), '"')
	case UInt64:
		b = append(strconv.AppendUint(append(b, '"'), n.Bits, 10), '"')
	case Float:
		b = appendJSONFloat(b, float64(n.FloatValue()), 32)
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
			if b, err = appendJSON(b, it, depth+1); err != nil {
				return nil, err
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
			if b, err = appendJSON(b, e.Value, depth+1); err != nil {
				return nil, err
			}
			b = append(b, ']')
		}
		b = append(b, ']')
	default:
		return nil, fmt.Errorf("byml: invalid kind %d", n.Kind)
	}
	return append(b, '}'), nil
}

// FromJSON reads a document in the JSON form above. Hash members are sorted; a repeated key
// is an error. The document has no recorded layout.
func FromJSON(data []byte) (*Document, error) {
	r := &jsonReader{dec: json.NewDecoder(bytes.NewReader(data))}
	r.dec.UseNumber()
	doc, err := r.document()
	if err != nil {
		return nil, fmt.Errorf("byml: json at byte %d: %w", r.dec.InputOffset(), err)
	}
	if _, err := r.dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("byml: json at byte %d: data after the document", r.dec.InputOffset())
	}
	return doc, nil
}

type jsonReader struct {
	dec *json.Decoder
}

func (r *jsonReader) token() (json.Token, error) {
	t, err := r.dec.Token()
	if err == io.EOF {
		return nil, io.ErrUnexpectedEOF
	}
	return t, err
}

func (r *jsonReader) delim(want json.Delim) error {
	t, err := r.token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		return fmt.Errorf("got %v, want %v", t, want)
	}
	return nil
}

func (r *jsonReader) str() (string, error) {
	t, err := r.token()
	if err != nil {
		return "", err
	}
	s, ok := t.(string)
	if !ok {
		return "", fmt.Errorf("got %v, want a string", t)
	}
	return s, nil
}

// uint reads an unsigned integer given as a number or as decimal text.
func (r *jsonReader) uint(bits int) (uint64, error) {
	t, err := r.token()
	if err != nil {
		return 0, err
	}
	var s string
	switch v := t.(type) {
	case json.Number:
		s = string(v)
	case string:
		s = v
	default:
		return 0, fmt.Errorf("got %v, want an unsigned integer", t)
	}
	u, err := strconv.ParseUint(s, 10, bits)
	if err != nil {
		return 0, fmt.Errorf("%q is not an unsigned %d-bit integer", s, bits)
	}
	return u, nil
}

func (r *jsonReader) int(bits int) (int64, error) {
	t, err := r.token()
	if err != nil {
		return 0, err
	}
	var s string
	switch v := t.(type) {
	case json.Number:
		s = string(v)
	case string:
		s = v
	default:
		return 0, fmt.Errorf("got %v, want an integer", t)
	}
	i, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		return 0, fmt.Errorf("%q is not a signed %d-bit integer", s, bits)
	}
	return i, nil
}

func (r *jsonReader) float(bits int) (float64, error) {
	t, err := r.token()
	if err != nil {
		return 0, err
	}
	switch v := t.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(v), bits)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("%q is not a number", v)
		}
		return f, nil
	case string:
		switch v {
		case "nan":
			return math.NaN(), nil
		case "inf":
			return math.Inf(1), nil
		case "-inf":
			return math.Inf(-1), nil
		}
	}
	return 0, fmt.Errorf("got %v, want a number", t)
}

func (r *jsonReader) document() (*Document, error) {
	if err := r.delim('{'); err != nil {
		return nil, err
	}
	doc := &Document{Version: 2}
	for r.dec.More() {
		k, err := r.str()
		if err != nil {
			return nil, err
		}
		switch k {
		case "version":
			v, err := r.uint(16)
			if err != nil {
				return nil, err
			}
			doc.Version = uint16(v)
		case "bigEndian":
			t, err := r.token()
			if err != nil {
				return nil, err
			}
			b, ok := t.(bool)
			if !ok {
				return nil, fmt.Errorf("bigEndian is %v, want true or false", t)
			}
			doc.BigEndian = b
		case "root":
			if doc.Root, err = r.node(0); err != nil {
				return nil, err
			}
			if doc.Root != nil && !doc.Root.Kind.IsContainer() {
				return nil, fmt.Errorf("root is %s, must be a container", doc.Root.Kind)
			}
		default:
			return nil, fmt.Errorf("unknown document field %q", k)
		}
	}
	return doc, r.delim('}')
}

// node reads one node; a JSON null (allowed for the root only) gives nil.
func (r *jsonReader) node(depth int) (*Node, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("containers nest deeper than %d levels", maxDepth)
	}
	t, err := r.token()
	if err != nil {
		return nil, err
	}
	if t == nil && depth == 0 {
		return nil, nil
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("got %v, want a node object", t)
	}
	if k, err := r.str(); err != nil || k != "type" {
		if err == nil {
			err = fmt.Errorf("node starts with %q, want \"type\"", k)
		}
		return nil, err
	}
	typ, err := r.str()
	if err != nil {
		return nil, err
	}
	kind := numKinds
	for k := range numKinds {
		if kindNames[k] == typ {
			kind = k
		}
	}
	if kind == numKinds {
		return nil, fmt.Errorf("unknown node type %q", typ)
	}
	n := &Node{Kind: kind}
	if !r.dec.More() {
		if kind != Null {
			return nil, fmt.Errorf("%s node without a value", kind)
		}
		return n, r.delim('}')
	}
	if k, err := r.str(); err != nil || k != "value" {
		if err == nil {
			err = fmt.Errorf("node has field %q, want \"value\"", k)
		}
		return nil, err
	}
	if err := r.value(n, depth); err != nil {
		return nil, err
	}
	return n, r.delim('}')
}

func (r *jsonReader) value(n *Node, depth int) error {
	var err error
	switch n.Kind {
	case Null:
		t, err := r.token()
		if err == nil && t != nil {
			err = fmt.Errorf("null node with value %v", t)
		}
		return err
	case String:
		n.Str, err = r.str()
	case Bool:
		t, err := r.token()
		if err != nil {
			return err
		}
		b, ok := t.(bool)
		if !ok {
			return fmt.Errorf("bool value is %v", t)
		}
		*n = *NewBool(b)
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
		if err := r.delim('['); err != nil {
			return err
		}
		n.Items = []*Node{}
		for r.dec.More() {
			c, err := r.node(depth + 1)
			if err != nil {
				return err
			}
			n.Items = append(n.Items, c)
		}
		return r.delim(']')
	case Hash, HashMap32, HashMap64:
		return r.entries(n, depth)
	}
	return err
}

func (r *jsonReader) file(n *Node) error {
	if err := r.delim('{'); err != nil {
		return err
	}
	var haveA, haveD bool
	for r.dec.More() {
		k, err := r.str()
		if err != nil {
			return err
		}
		switch k {
		case "align":
			a, err := r.uint(32)
			if err != nil {
				return err
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
	return r.delim('}')
}

func (r *jsonReader) entries(n *Node, depth int) error {
	if err := r.delim('['); err != nil {
		return err
	}
	n.Entries = []Entry{}
	for r.dec.More() {
		if err := r.delim('['); err != nil {
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
		if e.Value, err = r.node(depth + 1); err != nil {
			return err
		}
		if err := r.delim(']'); err != nil {
			return err
		}
		n.Entries = append(n.Entries, e)
	}
	if err := sortEntries(n); err != nil {
		return err
	}
	return r.delim(']')
}
