package ainb

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
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

// jsonErrorAt adds a line and column to a decoding error.
func jsonErrorAt(data []byte, err error) error {
	var off int64 = -1
	switch e := err.(type) {
	case *pyJSONError:
		off = int64(e.Offset)
	case *json.SyntaxError:
		off = e.Offset
	case *json.UnmarshalTypeError:
		off = e.Offset
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		off, err = int64(len(data)), errors.New("unexpected end of JSON input")
	}
	if off < 0 || off > int64(len(data)) {
		return err
	}
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	col := off - int64(bytes.LastIndexByte(data[:off], '\n'))
	return fmt.Errorf("line %d, column %d: %w", line, col, plainJSONError(err))
}

// plainJSONError says what encoding/json's type errors say in the JSON's own terms: the
// member's path and the kind of value wanted, never a Go type or field name
// ("Elements.Type: want an integer, found a JSON string", not "cannot unmarshal string into
// Go struct field Element.fileAlias.Elements.Type of type ainb.ElementType").
func plainJSONError(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Type == nil {
		return err
	}
	var path []string
	for _, seg := range strings.Split(te.Field, ".") {
		// Go-only segments (the aliases the codec decodes through) start in lower case.
		if seg != "" && !unicode.IsLower(rune(seg[0])) {
			path = append(path, seg)
		}
	}
	want := "a value of another kind"
	switch te.Type.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		want = "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		want = "an integer of 0 or more"
	case reflect.Float32, reflect.Float64:
		want = "a number"
	case reflect.String:
		want = "a string"
	case reflect.Bool:
		want = "true or false"
	case reflect.Slice, reflect.Array:
		want = "a list"
	case reflect.Struct, reflect.Map:
		want = "an object"
	}
	msg := fmt.Sprintf("want %s, found a JSON %s", want, te.Value)
	if len(path) > 0 {
		msg = strings.Join(path, ".") + ": " + msg
	}
	return errors.New(msg)
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

// pyJSONError is a syntax error at a byte offset of the document.
type pyJSONError struct {
	Offset int
	Msg    string
}

func (e *pyJSONError) Error() string { return e.Msg }

// maxJSONDepth bounds the nesting of arrays and objects, as encoding/json does.
const maxJSONDepth = 10000

// parsePyJSON decodes a JSON document as Python's json.loads does: like encoding/json with
// UseNumber (numbers are json.Number, objects map[string]any, arrays []any, invalid UTF-8 and
// lone surrogates in strings read as U+FFFD, the last of repeated keys wins), except that
// NaN, Infinity and -Infinity are values too (pyConst). Nothing may follow the document but
// white space.
func parsePyJSON(data []byte) (any, error) {
	p := pyJSONParser{data: data}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.data) {
		return nil, p.errorf("invalid character %s after top-level value", quoteByte(p.data[p.pos]))
	}
	return v, nil
}

type pyJSONParser struct {
	data  []byte
	pos   int
	depth int
}

func (p *pyJSONParser) errorf(format string, args ...any) error {
	return &pyJSONError{Offset: p.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *pyJSONParser) eof() error {
	return &pyJSONError{Offset: len(p.data), Msg: "unexpected end of JSON input"}
}

// quoteByte quotes a byte for an error message as encoding/json does: 'x'.
func quoteByte(c byte) string {
	switch {
	case c == '\'':
		return `'\''`
	case c == '"':
		return `'"'`
	case c >= 0x20 && c < 0x7f:
		return "'" + string(rune(c)) + "'"
	}
	q := strconv.Quote(string(rune(c)))
	if c >= 0x80 {
		q = fmt.Sprintf(`"\x%02x"`, c)
	}
	return "'" + q[1:len(q)-1] + "'"
}

func (p *pyJSONParser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *pyJSONParser) value() (any, error) {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return nil, p.eof()
	}
	switch c := p.data[p.pos]; c {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		return p.string()
	case 't':
		return true, p.literal("true")
	case 'f':
		return false, p.literal("false")
	case 'n':
		return nil, p.literal("null")
	case 'N':
		return pyConst(math.NaN()), p.literal("NaN")
	case 'I':
		return pyConst(math.Inf(1)), p.literal("Infinity")
	case '-':
		if p.pos+1 < len(p.data) && p.data[p.pos+1] == 'I' {
			return pyConst(math.Inf(-1)), p.literal("-Infinity")
		}
		return p.number()
	default:
		if c >= '0' && c <= '9' {
			return p.number()
		}
		return nil, p.errorf("invalid character %s looking for beginning of value", quoteByte(c))
	}
}

func (p *pyJSONParser) literal(word string) error {
	for i := 0; i < len(word); i++ {
		if p.pos >= len(p.data) {
			return p.eof()
		}
		if c := p.data[p.pos]; c != word[i] {
			return p.errorf("invalid character %s in literal %s (expecting %s)", quoteByte(c), word, quoteByte(word[i]))
		}
		p.pos++
	}
	return nil
}

func (p *pyJSONParser) enter() error {
	if p.depth++; p.depth > maxJSONDepth {
		return p.errorf("exceeded max depth")
	}
	p.pos++
	return nil
}

func (p *pyJSONParser) object() (any, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	m := map[string]any{}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		p.depth--
		return m, nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.eof()
		}
		if c := p.data[p.pos]; c != '"' {
			return nil, p.errorf("invalid character %s looking for beginning of object key string", quoteByte(c))
		}
		key, err := p.string()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.eof()
		}
		if c := p.data[p.pos]; c != ':' {
			return nil, p.errorf("invalid character %s after object key", quoteByte(c))
		}
		p.pos++
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		m[key] = v
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.eof()
		}
		switch c := p.data[p.pos]; c {
		case ',':
			p.pos++
		case '}':
			p.pos++
			p.depth--
			return m, nil
		default:
			return nil, p.errorf("invalid character %s after object key:value pair", quoteByte(c))
		}
	}
}

func (p *pyJSONParser) array() (any, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	a := []any{}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		p.depth--
		return a, nil
	}
	for {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.eof()
		}
		switch c := p.data[p.pos]; c {
		case ',':
			p.pos++
		case ']':
			p.pos++
			p.depth--
			return a, nil
		default:
			return nil, p.errorf("invalid character %s after array element", quoteByte(c))
		}
	}
}

// number reads a JSON number (Python accepts the same grammar) as its literal text.
func (p *pyJSONParser) number() (any, error) {
	start := p.pos
	digits := func(what string) error {
		if p.pos >= len(p.data) {
			return p.eof()
		}
		if c := p.data[p.pos]; c < '0' || c > '9' {
			return p.errorf("invalid character %s %s", quoteByte(c), what)
		}
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
		}
		return nil
	}
	if p.data[p.pos] == '-' {
		p.pos++
	}
	if p.pos < len(p.data) && p.data[p.pos] == '0' {
		p.pos++
	} else if err := digits("in numeric literal"); err != nil {
		return nil, err
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if err := digits("after decimal point in numeric literal"); err != nil {
			return nil, err
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if err := digits("in exponent of numeric literal"); err != nil {
			return nil, err
		}
	}
	return json.Number(p.data[start:p.pos]), nil
}

// string reads a string literal, the parser being at its opening quote.
func (p *pyJSONParser) string() (string, error) {
	p.pos++
	start := p.pos
	plain := true // no escapes and valid UTF-8: the text is the value
	for p.pos < len(p.data) {
		switch c := p.data[p.pos]; {
		case c == '"':
			s := p.data[start:p.pos]
			p.pos++
			if plain {
				return string(s), nil
			}
			return unquotePyJSON(s), nil
		case c == '\\':
			plain = false
			p.pos++
			if p.pos >= len(p.data) {
				return "", p.eof()
			}
			switch e := p.data[p.pos]; e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.pos++
			case 'u':
				p.pos++
				for range 4 {
					if p.pos >= len(p.data) {
						return "", p.eof()
					}
					if !isHex(p.data[p.pos]) {
						return "", p.errorf("invalid character %s in \\u hexadecimal character escape", quoteByte(p.data[p.pos]))
					}
					p.pos++
				}
			default:
				return "", p.errorf("invalid character %s in string escape code", quoteByte(e))
			}
		case c < 0x20:
			return "", p.errorf("invalid character %s in string literal", quoteByte(c))
		case c < utf8.RuneSelf:
			p.pos++
		default:
			r, size := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && size == 1 {
				plain = false
			}
			p.pos += size
		}
	}
	return "", p.eof()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// hex4 reads the four hex digits of a \u escape, or -1.
func hex4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// unquotePyJSON decodes the body of a string literal the scanner has checked: escapes,
// surrogate pairs, and U+FFFD for lone surrogates and for each byte of invalid UTF-8.
func unquotePyJSON(s []byte) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c != '\\' {
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		}
		if e, ok := jsontext.Unescape(s[i+1]); ok {
			b = append(b, e)
			i += 2
			continue
		}
		// \u, the only other escape the scanner lets through.
		r := hex4(s[i:])
		i += 6
		if utf16.IsSurrogate(r) {
			if dec := utf16.DecodeRune(r, hex4(s[i:])); dec != unicode.ReplacementChar {
				r = dec
				i += 6
			} else {
				r = unicode.ReplacementChar
			}
		}
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}
