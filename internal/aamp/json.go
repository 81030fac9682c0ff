package aamp

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"ainbeditor/internal/jsontext"
)

// The JSON form, for the editor, keeps order and duplicate names and never guesses types:
//
//	{"version": 0, "type": "xml", "param_root": LIST}
//	LIST   = {"hash": 123, "name": "Foo", "lists": [LIST...], "objects": [OBJECT...]}
//	OBJECT = {"hash": 123, "name": "Foo", "params": [PARAM...]}
//	PARAM  = {"hash": 123, "name": "Foo", "type": "vec3", "value": VALUE}
//
// "hash" is the u32 name hash; "name" is present when a name is known. On input either
// may be given; when both are, the name's CRC32 must equal the hash. "type" is one of
// bool f32 int u32 vec2 vec3 vec4 color quat string32 string64 string256 string_ref
// curve1..curve4 buffer_int buffer_f32 buffer_u32 buffer_binary. VALUE is a JSON bool,
// number, string or array of numbers (buffer_binary: numbers 0..255); curves are arrays of
// {"a": u32, "b": u32, "floats": [30 numbers]}. Non-finite floats are the strings "nan",
// "inf" and "-inf". The root list's hash and name are optional (always param_root).

// ToJSON encodes the document in the JSON form described above.
func ToJSON(pio *ParameterIO) ([]byte, error) { return AppendJSON(nil, pio, jsontext.NoLimit) }

// AppendJSON appends the document's JSON form to b, stopping with a *jsontext.TooLargeError
// once b would hold more than limit bytes; its Where is the path of names (or hashes) of the
// list, object or parameter being written, from param_root. The text is written straight
// into b: the structs encoding/json took made ten times the text in garbage.
func AppendJSON(b []byte, pio *ParameterIO, limit int) ([]byte, error) {
	if err := pio.validate(); err != nil {
		return nil, err
	}
	if !utf8.ValidString(pio.Type) {
		return nil, fmt.Errorf("aamp: json: type string %q is not valid UTF-8", pio.Type)
	}
	w := &jsonWriter{nm: NewNamer(pio), limit: limit}
	b = append(b, `{"version":`...)
	b = strconv.AppendUint(b, uint64(pio.Version), 10)
	b = append(b, `,"type":`...)
	b = jsontext.AppendString(b, pio.Type)
	b = append(b, `,"param_root":`...)
	b, err := w.list(b, &pio.Root, 0, 0)
	if err != nil {
		return nil, inside(err, "param_root")
	}
	if b = append(b, '}'); len(b) > limit {
		return nil, &jsontext.TooLargeError{Limit: limit}
	}
	return b, nil
}

type jsonWriter struct {
	nm    *Namer
	limit int
}

// head appends the members every list, object and parameter starts with: its hash and, when
// known, its name.
func (w *jsonWriter) head(b []byte, h Name, idx int, parent Name) []byte {
	b = append(b, `{"hash":`...)
	b = strconv.AppendUint(b, uint64(h), 10)
	if name, _ := w.nm.Name(h, idx, parent); name != "" {
		b = append(b, `,"name":`...)
		b = jsontext.AppendString(b, name)
	}
	return b
}

// step is a list's, object's or parameter's name, or its hash in hex, in a budget error's
// path.
func (w *jsonWriter) step(h Name, idx int, parent Name) string {
	if name, _ := w.nm.Name(h, idx, parent); name != "" {
		return "/" + name
	}
	return fmt.Sprintf("/%#08x", uint32(h))
}

// within checks the budget after a member was written.
func (w *jsonWriter) within(b []byte) ([]byte, error) {
	if len(b) > w.limit {
		return nil, &jsontext.TooLargeError{Limit: w.limit}
	}
	return jsontext.Grow(b, w.limit), nil
}

// inside puts step in front of the place a budget error names; other errors pass as they are.
func inside(err error, step string) error {
	if tl, ok := err.(*jsontext.TooLargeError); ok {
		tl.Where = step + tl.Where
	}
	return err
}

func (w *jsonWriter) list(b []byte, l *ParameterList, idx int, parent Name) ([]byte, error) {
	b = w.head(b, l.Name, idx, parent)
	b = append(b, `,"lists":[`...)
	for i, c := range l.Lists {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = w.list(b, c, i, l.Name); err == nil {
			b, err = w.within(b)
		}
		if err != nil {
			return nil, inside(err, w.step(c.Name, i, l.Name))
		}
	}
	b = append(b, `],"objects":[`...)
	for i, o := range l.Objects {
		if i > 0 {
			b = append(b, ',')
		}
		b = w.head(b, o.Name, i, l.Name)
		b = append(b, `,"params":[`...)
		for j := range o.Params {
			p := &o.Params[j]
			if j > 0 {
				b = append(b, ',')
			}
			b = w.head(b, p.Name, j, o.Name)
			b = append(b, `,"type":`...)
			b = jsontext.AppendString(b, p.Type.String())
			b = append(b, `,"value":`...)
			var err error
			if b, err = w.value(b, p); err == nil {
				b, err = w.within(b)
			}
			if err != nil {
				return nil, inside(err, w.step(o.Name, i, l.Name)+w.step(p.Name, j, o.Name))
			}
			b = append(b, '}')
		}
		b = append(b, "]}"...)
	}
	return append(b, "]}"...), nil
}

func jsonFloat(b []byte, f float32) []byte {
	switch {
	case math.IsNaN(float64(f)):
		return append(b, `"nan"`...)
	case math.IsInf(float64(f), 1):
		return append(b, `"inf"`...)
	case math.IsInf(float64(f), -1):
		return append(b, `"-inf"`...)
	}
	return strconv.AppendFloat(b, float64(f), 'g', -1, 32)
}

func jsonFloats(b []byte, fs []float32) []byte {
	b = append(b, '[')
	for i, f := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonFloat(b, f)
	}
	return append(b, ']')
}

// value appends a parameter's value. A long string or buffer is refused before it is
// written: it may be most of the file.
func (w *jsonWriter) value(b []byte, p *Parameter) ([]byte, error) {
	if len(b)+p.size() > w.limit {
		return nil, &jsontext.TooLargeError{Limit: w.limit}
	}
	switch v := p.Value.(type) {
	case bool:
		b = strconv.AppendBool(b, v)
	case float32:
		b = jsonFloat(b, v)
	case int32:
		b = strconv.AppendInt(b, int64(v), 10)
	case uint32:
		b = strconv.AppendUint(b, uint64(v), 10)
	case Vec2:
		b = jsonFloats(b, v[:])
	case Vec3:
		b = jsonFloats(b, v[:])
	case Vec4:
		b = jsonFloats(b, v[:])
	case Color:
		b = jsonFloats(b, v[:])
	case Quat:
		b = jsonFloats(b, v[:])
	case []float32:
		b = jsonFloats(b, v)
	case []Curve:
		b = append(b, '[')
		for i, c := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = fmt.Appendf(b, `{"a":%d,"b":%d,"floats":`, c.A, c.B)
			b = jsonFloats(b, c.Floats[:])
			b = append(b, '}')
		}
		b = append(b, ']')
	case []int32:
		b = jsonInts(b, v)
	case []uint32:
		b = jsonInts(b, v)
	case []byte:
		b = jsonInts(b, v)
	case string:
		if !utf8.ValidString(v) {
			return nil, fmt.Errorf("aamp: json: parameter %#08x: string %q is not valid UTF-8", uint32(p.Name), v)
		}
		b = jsontext.AppendString(b, v)
	}
	return b, nil
}

// FromJSON decodes the JSON form. The result has no recorded layout. Text that is not JSON
// is a *jsontext.SyntaxError (wrapped), with the path of the member being read; the form's
// own errors are a *jsontext.FormError with the line, column and path where reading stopped.
func FromJSON(data []byte) (*ParameterIO, error) {
	r := &jsonReader{s: jsontext.Scanner{Data: data, MaxDepth: 2*maxDepth + 8}}
	r.s.Path = r.where
	pio := r.io()
	r.s.End()
	if r.s.Err != nil {
		if e := r.s.Err; r.form {
			return nil, &jsontext.FormError{Reader: "aamp", Offset: e.Offset, Line: e.Line, Column: e.Column, Path: e.Path, Err: errors.New(e.Reason)}
		}
		return nil, fmt.Errorf("aamp: %w", r.s.Err)
	}
	if err := pio.validate(); err != nil {
		return nil, err
	}
	return pio, nil
}

// jsonReader reads the JSON form through jsontext's scanner, in one pass and without
// reflection.
type jsonReader struct {
	s    jsontext.Scanner
	pio  *ParameterIO
	path []byte // where the reader is: "param_root/lists[0]/params[3]"
	buf  []byte // the value of the last escaped string
	form bool   // the error is one of the form, not of JSON syntax
}

func (r *jsonReader) where() string { return string(r.path) }

// fail stops reading at offset at with an error of the form (not of JSON syntax).
func (r *jsonReader) fail(at int, format string, args ...any) {
	if r.s.Err == nil {
		r.s.FailAt(at, fmt.Sprintf(format, args...))
		r.form = true
	}
}

// step appends a step to the path and returns the path's length before it.
func (r *jsonReader) step(name string, i int) int {
	n := len(r.path)
	if n > 0 {
		r.path = append(r.path, '/')
	}
	r.path = append(r.path, name...)
	if i >= 0 {
		r.path = append(r.path, '[')
		r.path = strconv.AppendInt(r.path, int64(i), 10)
		r.path = append(r.path, ']')
	}
	return n
}

// members reads an object, calling member for each name (valid until the next string is
// read) with Pos at its value. A name given twice is an error: readers disagree on which one
// counts.
func (r *jsonReader) members(names []string, member func(i int)) {
	if !r.s.Open('{') {
		return
	}
	var seen uint32
	for n := 0; r.s.More('}', n); n++ {
		at := r.s.Pos
		k := r.key()
		if r.s.Err != nil {
			return
		}
		i := slices.Index(names, string(k))
		switch {
		case i < 0:
			r.fail(at, "unknown member %q", k)
		case seen&(1<<i) != 0:
			r.fail(at, "a second member %q (member names must be unique)", k)
		default:
			seen |= 1 << i
			member(i)
		}
	}
}

func (r *jsonReader) key() []byte {
	k, esc := r.s.Key(r.buf)
	if esc {
		r.buf = k
	}
	return k
}

// str reads a string value.
func (r *jsonReader) str() string {
	if c := r.s.Peek(); c != '"' {
		r.fail(r.s.Pos, "want a string, found %s", jsontext.Describe(c))
		return ""
	}
	v, esc := r.s.String(r.buf)
	if esc {
		r.buf = v
	}
	return string(v)
}

// number reads a number's text, failing for any other value.
func (r *jsonReader) number() []byte {
	if c := r.s.Peek(); c != '-' && (c < '0' || c > '9') {
		r.fail(r.s.Pos, "want a number, found %s", jsontext.Describe(c))
		return nil
	}
	return r.s.Number()
}

// integer reads an integer in [lo, hi].
func (r *jsonReader) integer(lo, hi int64) int64 {
	at := r.s.Pos
	t := r.number()
	if r.s.Err != nil {
		return 0
	}
	v, ok := jsontext.ParseInt(t)
	if !ok || v < lo || v > hi {
		r.fail(at, "%s is not an integer from %d to %d", t, lo, hi)
	}
	return v
}

// hash reads a name's hash.
func (r *jsonReader) hash() *uint32 {
	h := uint32(r.integer(0, math.MaxUint32))
	return &h
}

// f32 reads a float: a number or "nan", "inf", "-inf".
func (r *jsonReader) f32() float32 {
	at := r.s.Peek()
	pos := r.s.Pos
	if at == '"' {
		switch s := r.str(); s {
		case "nan":
			return float32(math.NaN())
		case "inf":
			return float32(math.Inf(1))
		case "-inf":
			return float32(math.Inf(-1))
		default:
			r.fail(pos, "%q is not a number", s)
			return 0
		}
	}
	t := r.number()
	if r.s.Err != nil {
		return 0
	}
	f, err := jsontext.ParseFloat(t, 32)
	if err != nil {
		r.fail(pos, "%s is out of the float range (32 bits)", t)
	}
	return float32(f)
}

// array reads an array, calling elem with each element's index and Pos at it.
func (r *jsonReader) array(elem func(i int)) {
	if c := r.s.Peek(); c != '[' {
		r.fail(r.s.Pos, "want an array, found %s", jsontext.Describe(c))
		return
	}
	r.s.Open('[')
	for n := 0; r.s.More(']', n); n++ {
		elem(n)
	}
}

// floats reads an array of want floats (any number when want < 0); it returns want floats
// even when reading fails.
func (r *jsonReader) floats(want int) []float32 {
	at := r.s.Pos
	var fs []float32
	if want > 0 {
		fs = make([]float32, 0, want)
	}
	r.array(func(int) { fs = append(fs, r.f32()) })
	if want >= 0 && len(fs) != want {
		// Reading stops, but the callers convert to arrays of want floats.
		r.fail(at, "want %d numbers, have %d", want, len(fs))
		return make([]float32, want)
	}
	if fs == nil {
		fs = []float32{}
	}
	return fs
}

var (
	ioMembers     = []string{"version", "type", "param_root"}
	listMembers   = []string{"hash", "name", "lists", "objects"}
	objectMembers = []string{"hash", "name", "params"}
	paramMembers  = []string{"hash", "name", "type", "value"}
	curveMembers  = []string{"a", "b", "floats"}
)

func (r *jsonReader) io() *ParameterIO {
	pio := &ParameterIO{names: map[Name]string{}}
	r.pio = pio
	start := r.s.Pos
	haveRoot := false
	r.members(ioMembers, func(i int) {
		switch i {
		case 0:
			pio.Version = uint32(r.integer(0, math.MaxUint32))
		case 1:
			pio.Type = r.str()
		case 2:
			haveRoot = true
			at := r.s.Pos
			r.step("param_root", -1)
			var h *uint32
			var name string
			r.list(&pio.Root, 0, &h, &name)
			if r.s.Err == nil && (name != "" || h != nil) {
				if n, ok := r.resolve(at, h, name); !ok || n != RootName {
					r.fail(at, "the root list must be param_root")
				}
			}
			r.path = r.path[:0]
			pio.Root.Name = RootName
		}
	})
	if r.s.Err == nil && !haveRoot {
		r.fail(start, "missing param_root")
	}
	return pio
}

// resolve gives the name a hash and a name (either may be missing) stand for.
func (r *jsonReader) resolve(at int, h *uint32, s string) (Name, bool) {
	switch {
	case h != nil && s != "" && NameOf(s) != Name(*h):
		r.fail(at, "name %q hashes to %#08x, not %#08x", s, uint32(NameOf(s)), *h)
		return 0, false
	case s != "":
		r.pio.names[NameOf(s)] = s
		return NameOf(s), true
	case h != nil:
		return Name(*h), true
	}
	r.fail(at, "needs a hash or a name")
	return 0, false
}

// list reads a list into l; its hash and name are left in h and name for the caller.
func (r *jsonReader) list(l *ParameterList, depth int, h **uint32, name *string) {
	if depth > maxDepth {
		r.fail(r.s.Pos, "lists nested deeper than %d levels", maxDepth)
		return
	}
	if c := r.s.Peek(); c != '{' {
		r.fail(r.s.Pos, "want a list (an object), found %s", jsontext.Describe(c))
		return
	}
	r.members(listMembers, func(i int) {
		switch i {
		case 0:
			*h = r.hash()
		case 1:
			*name = r.str()
		case 2:
			r.array(func(j int) {
				back := r.step("lists", j)
				at := r.s.Pos
				var ch *uint32
				var cn string
				c := &ParameterList{}
				r.list(c, depth+1, &ch, &cn)
				if r.s.Err == nil {
					c.Name, _ = r.resolve(at, ch, cn)
				}
				l.Lists = append(l.Lists, c)
				r.path = r.path[:back]
			})
		case 3:
			r.array(func(j int) {
				back := r.step("objects", j)
				l.Objects = append(l.Objects, r.object())
				r.path = r.path[:back]
			})
		}
	})
}

func (r *jsonReader) object() *ParameterObject {
	at := r.s.Pos
	if c := r.s.Peek(); c != '{' {
		r.fail(r.s.Pos, "want an object, found %s", jsontext.Describe(c))
		return nil
	}
	o := &ParameterObject{}
	var h *uint32
	var name string
	r.members(objectMembers, func(i int) {
		switch i {
		case 0:
			h = r.hash()
		case 1:
			name = r.str()
		case 2:
			r.array(func(j int) {
				back := r.step("params", j)
				o.Params = append(o.Params, r.param())
				r.path = r.path[:back]
			})
		}
	})
	if r.s.Err == nil {
		o.Name, _ = r.resolve(at, h, name)
	}
	return o
}

func (r *jsonReader) param() Parameter {
	at := r.s.Pos
	var p Parameter
	if c := r.s.Peek(); c != '{' {
		r.fail(r.s.Pos, "want a parameter (an object), found %s", jsontext.Describe(c))
		return p
	}
	var h *uint32
	var name string
	haveType, haveValue := false, false
	r.members(paramMembers, func(i int) {
		switch i {
		case 0:
			h = r.hash()
		case 1:
			name = r.str()
		case 2:
			tat := r.s.Pos
			typ := r.str()
			t := Type(slices.Index(typeNames[:], typ))
			if r.s.Err == nil && (t < 0 || t >= numTypes) {
				r.fail(tat, "unknown type %q", typ)
			}
			p.Type, haveType = t, true
		case 3:
			if !haveType {
				r.fail(r.s.Pos, "the value comes before the type")
				return
			}
			r.value(&p)
			haveValue = true
		}
	})
	if r.s.Err == nil {
		switch {
		case !haveType:
			r.fail(at, "missing type")
		case !haveValue:
			r.fail(at, "missing value")
		default:
			p.Name, _ = r.resolve(at, h, name)
		}
	}
	return p
}

// value reads a value of p.Type.
func (r *jsonReader) value(p *Parameter) {
	at := r.s.Pos
	switch t := p.Type; t {
	case TypeBool:
		v, ok := r.s.Bool()
		if !ok && r.s.Err == nil {
			r.fail(at, "want true or false, found %s", jsontext.Describe(r.s.Peek()))
		}
		p.Value = v
	case TypeF32:
		p.Value = r.f32()
	case TypeInt:
		p.Value = int32(r.integer(math.MinInt32, math.MaxInt32))
	case TypeU32:
		p.Value = uint32(r.integer(0, math.MaxUint32))
	case TypeVec2:
		p.Value = Vec2(r.floats(2))
	case TypeVec3:
		p.Value = Vec3(r.floats(3))
	case TypeVec4:
		p.Value = Vec4(r.floats(4))
	case TypeColor:
		p.Value = Color(r.floats(4))
	case TypeQuat:
		p.Value = Quat(r.floats(4))
	case TypeBufferF32:
		p.Value = r.floats(-1)
	case TypeCurve1, TypeCurve2, TypeCurve3, TypeCurve4:
		var cs []Curve
		r.array(func(int) { cs = append(cs, r.curve()) })
		if want := int(t-TypeCurve1) + 1; r.s.Err == nil && len(cs) != want {
			r.fail(at, "%s needs %d curves, has %d", t, want, len(cs))
		}
		p.Value = cs
	case TypeBufferInt:
		v := []int32{}
		r.array(func(int) { v = append(v, int32(r.integer(math.MinInt32, math.MaxInt32))) })
		p.Value = v
	case TypeBufferU32:
		v := []uint32{}
		r.array(func(int) { v = append(v, uint32(r.integer(0, math.MaxUint32))) })
		p.Value = v
	case TypeBufferBinary:
		v := []byte{}
		r.array(func(int) { v = append(v, byte(r.integer(0, math.MaxUint8))) })
		p.Value = v
	default: // strings
		p.Value = r.str()
	}
}

func (r *jsonReader) curve() Curve {
	var c Curve
	at := r.s.Pos
	var have uint8
	r.members(curveMembers, func(i int) {
		have |= 1 << i
		switch i {
		case 0:
			c.A = uint32(r.integer(0, math.MaxUint32))
		case 1:
			c.B = uint32(r.integer(0, math.MaxUint32))
		case 2:
			c.Floats = [30]float32(r.floats(30))
		}
	})
	if r.s.Err == nil && have != 7 {
		r.fail(at, "a curve needs a, b and floats")
	}
	return c
}

// jsonInts appends v as a JSON array of numbers.
func jsonInts[T int32 | uint32 | byte](b []byte, v []T) []byte {
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

// size is the least a parameter's value takes in the JSON form (a digit and a comma for each
// number of a buffer), to refuse a long value before writing it.
func (p *Parameter) size() int {
	switch v := p.Value.(type) {
	case string:
		return len(v) + 2
	case []byte:
		return 2 * len(v)
	case []int32:
		return 2 * len(v)
	case []uint32:
		return 2 * len(v)
	case []float32:
		return 2 * len(v)
	case []Curve:
		return 60 * len(v)
	}
	return 0
}
