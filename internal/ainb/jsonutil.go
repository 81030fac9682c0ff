package ainb

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"ainbeditor/internal/jsontext"
	"ainbeditor/internal/pyfmt"
)

// object is a JSON object that keeps its key order, so dumps read like the reference tool's.
type object []member

type member struct {
	key string
	val any
}

func (o *object) set(k string, v any) { *o = append(*o, member{k, v}) }

func (o object) MarshalJSON() ([]byte, error) { return o.appendJSON(nil) }

// appendJSON writes the object itself rather than through encoding/json: dumps are made of
// thousands of small objects, and encoding/json would re-validate each one's output.
func (o object) appendJSON(b []byte) ([]byte, error) {
	b = append(b, '{')
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsontext.AppendString(b, m.key)
		b = append(b, ':')
		var err error
		if b, err = appendJSONValue(b, m.val); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendJSONValue writes the value types dumps use directly, and hands anything else to
// encoding/json.
func appendJSONValue(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case object:
		return v.appendJSON(b)
	case []any:
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSONValue(b, x); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	if out, ok := appendJSONScalar(b, v); ok {
		return out, nil
	}
	raw, err := marshalNoEscape(v)
	if err != nil {
		return nil, err
	}
	return append(b, raw...), nil
}

// appendJSONScalar writes the scalar value types dumps use, reporting false for any other.
func appendJSONScalar(b []byte, v any) ([]byte, bool) {
	switch v := v.(type) {
	case string:
		return jsontext.AppendString(b, v), true
	case bool:
		return strconv.AppendBool(b, v), true
	case int:
		return strconv.AppendInt(b, int64(v), 10), true
	case int16:
		return strconv.AppendInt(b, int64(v), 10), true
	case int32:
		return strconv.AppendInt(b, int64(v), 10), true
	case uint8:
		return strconv.AppendUint(b, uint64(v), 10), true
	case uint32:
		return strconv.AppendUint(b, uint64(v), 10), true
	case pyFloat:
		return append(b, PyFloat(float64(v))...), true
	case nil:
		return append(b, "null"...), true
	}
	return b, false
}

// appendIndentMembers writes an object or array of n members, at nesting depth depth, as
// json.Indent lays it out: between open and end, each member on a line of its own one level
// deeper, or just open and end when there are none. member writes member i.
func appendIndentMembers(b []byte, open, end byte, n, depth int, member func(b []byte, i int) ([]byte, error)) ([]byte, error) {
	if n == 0 {
		return append(b, open, end), nil
	}
	b = append(b, open)
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendNewline(b, depth+1)
		var err error
		if b, err = member(b, i); err != nil {
			return nil, err
		}
	}
	return append(appendNewline(b, depth), end), nil
}

// appendIndentJSON writes v as json.Indent lays it out with no prefix and a two-space indent
// (empty objects and arrays stay "{}" and "[]"), v being at nesting depth depth. Objects,
// arrays and scalars are written directly and never pass through encoding/json, which would
// reject the NaN, Infinity and -Infinity that Python's json module writes for non-finite
// floats; only values of other types (the expression disassembly) are marshalled.
func appendIndentJSON(b []byte, v any, depth int) ([]byte, error) {
	switch v := v.(type) {
	case object:
		return appendIndentMembers(b, '{', '}', len(v), depth, func(b []byte, i int) ([]byte, error) {
			b = jsontext.AppendString(b, v[i].key)
			b = append(b, ':', ' ')
			return appendIndentJSON(b, v[i].val, depth+1)
		})
	case []any:
		return appendIndentMembers(b, '[', ']', len(v), depth, func(b []byte, i int) ([]byte, error) {
			return appendIndentJSON(b, v[i], depth+1)
		})
	}
	if out, ok := appendJSONScalar(b, v); ok {
		return out, nil
	}
	raw, err := marshalNoEscape(v)
	if err != nil {
		return nil, err
	}
	out := bytes.NewBuffer(b)
	if err := json.Indent(out, raw, indentPrefix(depth), "  "); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

const indentSpaces = "                                "

func appendNewline(b []byte, depth int) []byte {
	b = append(b, '\n')
	for n := 2 * depth; n > 0; {
		k := min(n, len(indentSpaces))
		b = append(b, indentSpaces[:k]...)
		n -= k
	}
	return b
}

func indentPrefix(depth int) string { return strings.Repeat("  ", depth) }

func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// pyFloat prints a float the way Python's repr does (1.0, 1e-05, -0.0), so dumps match the
// reference tool's text as well as its values. Non-finite values print as Python's json
// module writes them (NaN, Infinity, -Infinity), which is not JSON: encoding/json rejects
// them, so dumps holding pyFloats are written with appendIndentJSON.
type pyFloat float64

func (f pyFloat) MarshalJSON() ([]byte, error) { return []byte(PyFloat(float64(f))), nil }

// PyFloat formats x as Python's json module does: repr for finite values, NaN and Infinity
// otherwise.
func PyFloat(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	}
	return pyfmt.Float(x)
}
