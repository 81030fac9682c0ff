package ainb

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"ainbeditor/internal/jsontext"
)

// PathError reports a bad value in a JSON document, with the path to it.
type PathError struct {
	Path string
	Msg  string
	Err  error // the error of a nested reader (the expressions' exb.SyntaxError, say), or nil
}

func (e *PathError) Error() string { return e.Path + ": " + e.Msg }

func (e *PathError) Unwrap() error { return e.Err }

// jv reads the values of a decoded community JSON document with the reference tool's
// leniency (Python's int() and bool() on numbers, NaN and the infinities where a float
// belongs), each at its path for errors. The first error sticks, so the codec reads straight
// through and checks err once per entry.
type jv struct {
	err *PathError
}

func (w *jv) fail(path, format string, args ...any) {
	if w.err == nil {
		w.err = &PathError{Path: path, Msg: fmt.Sprintf(format, args...)}
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func (w *jv) obj(path string, v any) map[string]any {
	m, ok := v.(map[string]any)
	if !ok && w.err == nil {
		w.fail(path, "want an object, got %s", kind(v))
	}
	return m
}

func (w *jv) arr(path string, v any) []any {
	if v == nil {
		return nil
	}
	a, ok := v.([]any)
	if !ok {
		w.fail(path, "want an array, got %s", kind(v))
	}
	return a
}

func kind(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "the number " + v.String()
	case string:
		return strconv.Quote(v)
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case pyConst:
		return PyFloat(float64(v))
	}
	return fmt.Sprintf("%T", v)
}

func (w *jv) str(path string, v any) string {
	s, ok := v.(string)
	if !ok {
		w.fail(path, "want a string, got %s", kind(v))
	}
	return s
}

func (w *jv) boolean(path string, v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case json.Number:
		// The reference tool applies Python's bool() to defaults: any non-zero number is true.
		f, err := v.Float64()
		if err == nil {
			return f != 0
		}
	case pyConst:
		return true // bool(nan) and bool(inf) are true too
	}
	w.fail(path, "want a boolean, got %s", kind(v))
	return false
}

// integer reads a whole number in [lo, hi].
func (w *jv) integer(path string, v any, lo, hi int64) int64 {
	n, ok := v.(json.Number)
	if !ok {
		w.fail(path, "want an integer, got %s", kind(v))
		return 0
	}
	i, err := strconv.ParseInt(n.String(), 10, 64)
	if err != nil {
		// Accept 3.0 as 3, as Python's int() does.
		f, ferr := strconv.ParseFloat(n.String(), 64)
		if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<62 {
			w.fail(path, "want an integer, got %s", n)
			return 0
		}
		i = int64(f)
	}
	if i < lo || i > hi {
		w.fail(path, "%d out of range %d..%d", i, lo, hi)
		return 0
	}
	return i
}

// quietNaN is the float32 NaN Python's struct.pack('<f', float('nan')) writes: the community
// JSON keeps no NaN payload or sign, so every NaN reads back as this one.
const quietNaN = 0x7fc00000

func (w *jv) f32(path string, v any) F32 {
	n, ok := v.(json.Number)
	if !ok {
		if c, ok := v.(pyConst); ok {
			if math.IsNaN(float64(c)) {
				return F32(math.Float32frombits(quietNaN))
			}
			return F32(c) // an infinity
		}
		w.fail(path, "want a number, got %s", kind(v))
		return 0
	}
	f, err := strconv.ParseFloat(n.String(), 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		w.fail(path, "want a number, got %s", n)
	}
	return F32(f)
}

func (w *jv) vec3(path string, v any) Vec3f {
	a := w.arr(path, v)
	if len(a) != 3 {
		w.fail(path, "want three numbers, got %d values", len(a))
		return Vec3f{}
	}
	return Vec3f{w.f32(index(path, 0), a[0]), w.f32(index(path, 1), a[1]), w.f32(index(path, 2), a[2])}
}

func (w *jv) guid(path string, v any) (g GUID) {
	s := w.str(path, v)
	parts := strings.Split(s, "-")
	if len(parts) != 5 || len(parts[0]) != 8 || len(parts[1]) != 4 || len(parts[2]) != 4 || len(parts[3]) != 4 || len(parts[4]) != 12 {
		w.fail(path, "%q is not a GUID like 01234567-89ab-cdef-0123-456789abcdef", s)
		return g
	}
	hex := func(s string) uint64 {
		n, err := strconv.ParseUint(s, 16, 64)
		if err != nil {
			w.fail(path, "%q is not a GUID: %q is not hexadecimal", v, s)
		}
		return n
	}
	a, b, c := hex(parts[0]), hex(parts[1]), hex(parts[2])
	g[0], g[1], g[2], g[3] = byte(a), byte(a>>8), byte(a>>16), byte(a>>24)
	g[4], g[5], g[6], g[7] = byte(b), byte(b>>8), byte(c), byte(c>>8)
	tail := parts[3] + parts[4]
	for i := range 8 {
		g[8+i] = byte(hex(tail[2*i : 2*i+2]))
	}
	return g
}

func (w *jv) nodeIndex(path string, v any, n int) int64 {
	i := w.integer(path, v, math.MinInt32, math.MaxInt32)
	if w.err == nil && (i < 0 || i >= int64(n)) {
		w.fail(path, "%d out of range (%d nodes)", i, n)
	}
	return i
}

// onlyKeys fails on the first key of m that is not one of names, a what: "unknown type
// (want Int, ...)".
func (w *jv) onlyKeys(path string, m map[string]any, names []string, what string) {
	for key := range m {
		if !slices.Contains(names, key) && w.err == nil {
			want := wantNames(names)
			if what == "plug kind" {
				want = " (want Generic, Child, Transition, String or Int; _01 and _06 to _09 for the kinds no known file uses)"
			}
			w.fail(join(path, key), "unknown %s%s", what, want)
		}
	}
}

// noPyConsts fails on the first NaN or infinity in v, which holds no floats (the expression
// disassembly is text).
func (w *jv) noPyConsts(path string, v any) {
	switch v := v.(type) {
	case pyConst:
		w.fail(path, "want a string, number, boolean, array or object, got %s", kind(v))
	case []any:
		for i, x := range v {
			w.noPyConsts(index(path, i), x)
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			w.noPyConsts(join(path, k), v[k])
		}
	}
}

// pyConst is a NaN or infinity, which Python's json module writes as the bare words NaN,
// Infinity and -Infinity and reads back wherever a value belongs.
type pyConst float64

// maxJSONDepth bounds the nesting of arrays and objects, as encoding/json does.
const maxJSONDepth = 10000

// parsePyJSON decodes a JSON document as Python's json.loads does: like encoding/json with
// UseNumber (numbers are json.Number, objects map[string]any, arrays []any, invalid UTF-8 and
// lone surrogates in strings read as U+FFFD, the last of repeated keys wins), except that
// NaN, Infinity and -Infinity are values too (pyConst). Nothing may follow the document but
// white space. Text that is not JSON is a *jsontext.SyntaxError.
func parsePyJSON(data []byte) (any, error) {
	p := pyJSONParser{s: jsontext.Scanner{Data: data, NonFinite: true, MaxDepth: maxJSONDepth}}
	p.s.BadUTF8 = func(int, int, byte) { p.bad = true }
	v := p.value()
	p.s.End()
	if p.s.Err != nil {
		return nil, p.s.Err
	}
	return v, nil
}

// pyJSONParser makes the tree of a document from jsontext's tokens.
type pyJSONParser struct {
	s   jsontext.Scanner
	buf []byte
	bad bool // the string just read is not UTF-8
}

func (p *pyJSONParser) value() any {
	switch c := p.s.Peek(); {
	case p.s.Err != nil:
		return nil
	case c == '{':
		p.s.Open('{')
		m := map[string]any{}
		for n := 0; p.s.More('}', n); n++ {
			k, esc := p.s.Key(p.buf)
			key := p.text(k, esc)
			m[key] = p.value()
		}
		return m
	case c == '[':
		p.s.Open('[')
		a := []any{}
		for n := 0; p.s.More(']', n); n++ {
			a = append(a, p.value())
		}
		return a
	case c == '"':
		v, esc := p.s.String(p.buf)
		return p.text(v, esc)
	case c == 't' || c == 'f':
		v, _ := p.s.Bool()
		return v
	case c == 'n':
		p.s.Literal("null")
		return nil
	case p.s.IsNumber(c):
		t := p.s.Number()
		switch string(t) {
		case "NaN", "Infinity", "-Infinity":
			f, _ := jsontext.ParseFloat(t, 64)
			return pyConst(f)
		}
		return json.Number(t)
	}
	p.s.Skip() // says what is wrong
	return nil
}

// text makes a string of a value String or Key read, keeping an escaped value's buffer, and
// U+FFFD of each byte that is not UTF-8 (as Python's surrogateescape-free decoding and
// encoding/json do).
func (p *pyJSONParser) text(v []byte, escaped bool) string {
	if escaped {
		p.buf = v
	}
	if !p.bad {
		return string(v)
	}
	p.bad = false
	b := make([]byte, 0, len(v)+8)
	for i := 0; i < len(v); {
		r, n := utf8.DecodeRune(v[i:])
		b = utf8.AppendRune(b, r)
		i += n
	}
	return string(b)
}
