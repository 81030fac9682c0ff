package aamp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
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

type jsonIO struct {
	Version uint32    `json:"version"`
	Type    string    `json:"type"`
	Root    *jsonList `json:"param_root"`
}

type jsonList struct {
	Hash    *uint32       `json:"hash,omitempty"`
	Name    string        `json:"name,omitempty"`
	Lists   []*jsonList   `json:"lists"`
	Objects []*jsonObject `json:"objects"`
}

type jsonObject struct {
	Hash   *uint32      `json:"hash,omitempty"`
	Name   string       `json:"name,omitempty"`
	Params []*jsonParam `json:"params"`
}

type jsonParam struct {
	Hash  *uint32         `json:"hash,omitempty"`
	Name  string          `json:"name,omitempty"`
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

type jsonCurve struct {
	A      uint32          `json:"a"`
	B      uint32          `json:"b"`
	Floats json.RawMessage `json:"floats"`
}

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

// FromJSON decodes the JSON form. The result has no recorded layout.
func FromJSON(data []byte) (*ParameterIO, error) {
	var jio jsonIO
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&jio); err != nil {
		return nil, fmt.Errorf("aamp: json: %w", err)
	}
	if jio.Root == nil {
		return nil, fmt.Errorf("aamp: json: missing param_root")
	}
	pio := &ParameterIO{Version: jio.Version, Type: jio.Type, names: map[Name]string{}}
	resolve := func(where string, h *uint32, s string) (Name, error) {
		switch {
		case h != nil && s != "" && NameOf(s) != Name(*h):
			return 0, fmt.Errorf("aamp: json: %s: name %q hashes to %#08x, not %#08x", where, s, uint32(NameOf(s)), *h)
		case s != "":
			pio.names[NameOf(s)] = s
			return NameOf(s), nil
		case h != nil:
			return Name(*h), nil
		}
		return 0, fmt.Errorf("aamp: json: %s: needs a hash or a name", where)
	}
	var list func(path string, jl *jsonList, l *ParameterList) error
	list = func(path string, jl *jsonList, l *ParameterList) error {
		for i, jc := range jl.Lists {
			p := fmt.Sprintf("%s/lists[%d]", path, i)
			if jc == nil {
				return fmt.Errorf("aamp: json: %s: null list", p)
			}
			n, err := resolve(p, jc.Hash, jc.Name)
			if err != nil {
				return err
			}
			c := &ParameterList{Name: n}
			if err := list(p, jc, c); err != nil {
				return err
			}
			l.Lists = append(l.Lists, c)
		}
		for i, jo := range jl.Objects {
			p := fmt.Sprintf("%s/objects[%d]", path, i)
			if jo == nil {
				return fmt.Errorf("aamp: json: %s: null object", p)
			}
			n, err := resolve(p, jo.Hash, jo.Name)
			if err != nil {
				return err
			}
			o := &ParameterObject{Name: n, Params: make([]Parameter, 0, len(jo.Params))}
			for j, jp := range jo.Params {
				pp := fmt.Sprintf("%s/params[%d]", p, j)
				if jp == nil {
					return fmt.Errorf("aamp: json: %s: null parameter", pp)
				}
				n, err := resolve(pp, jp.Hash, jp.Name)
				if err != nil {
					return err
				}
				par := Parameter{Name: n}
				if err := par.fromJSON(jp.Type, jp.Value); err != nil {
					return fmt.Errorf("aamp: json: %s: %w", pp, err)
				}
				o.Params = append(o.Params, par)
			}
			l.Objects = append(l.Objects, o)
		}
		return nil
	}
	if jio.Root.Name != "" || jio.Root.Hash != nil {
		if n, err := resolve("param_root", jio.Root.Hash, jio.Root.Name); err != nil || n != RootName {
			return nil, fmt.Errorf("aamp: json: the root list must be param_root")
		}
	}
	pio.Root.Name = RootName
	if err := list("param_root", jio.Root, &pio.Root); err != nil {
		return nil, err
	}
	if err := pio.validate(); err != nil {
		return nil, err
	}
	return pio, nil
}

func parseJSONFloat(raw json.RawMessage) (float32, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		switch s {
		case "nan":
			return float32(math.NaN()), nil
		case "inf":
			return float32(math.Inf(1)), nil
		case "-inf":
			return float32(math.Inf(-1)), nil
		}
		return 0, fmt.Errorf("%q is not a number", s)
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(string(n), 32)
	if err != nil {
		return 0, err
	}
	return float32(f), nil
}

func parseJSONFloats(raw json.RawMessage, want int) ([]float32, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, err
	}
	if want >= 0 && len(items) != want {
		return nil, fmt.Errorf("want %d numbers, have %d", want, len(items))
	}
	out := make([]float32, len(items))
	for i, it := range items {
		f, err := parseJSONFloat(it)
		if err != nil {
			return nil, err
		}
		out[i] = f
	}
	return out, nil
}

func (p *Parameter) fromJSON(typ string, raw json.RawMessage) error {
	t := numTypes
	for i, n := range typeNames {
		if n == typ {
			t = Type(i)
		}
	}
	if t == numTypes {
		return fmt.Errorf("unknown type %q", typ)
	}
	if len(raw) == 0 {
		return fmt.Errorf("missing value")
	}
	p.Type = t
	var err error
	switch t {
	case TypeBool:
		var v bool
		err = json.Unmarshal(raw, &v)
		p.Value = v
	case TypeF32:
		var v float32
		v, err = parseJSONFloat(raw)
		p.Value = v
	case TypeInt:
		var v int32
		err = json.Unmarshal(raw, &v)
		p.Value = v
	case TypeU32:
		var v uint32
		err = json.Unmarshal(raw, &v)
		p.Value = v
	case TypeVec2, TypeVec3, TypeVec4, TypeColor, TypeQuat:
		n := map[Type]int{TypeVec2: 2, TypeVec3: 3}[t]
		if n == 0 {
			n = 4
		}
		var fs []float32
		if fs, err = parseJSONFloats(raw, n); err == nil {
			switch t {
			case TypeVec2:
				p.Value = Vec2(fs)
			case TypeVec3:
				p.Value = Vec3(fs)
			case TypeVec4:
				p.Value = Vec4(fs)
			case TypeColor:
				p.Value = Color(fs)
			default:
				p.Value = Quat(fs)
			}
		}
	case TypeBufferF32:
		var fs []float32
		fs, err = parseJSONFloats(raw, -1)
		p.Value = fs
	case TypeCurve1, TypeCurve2, TypeCurve3, TypeCurve4:
		var jc []jsonCurve
		if err = json.Unmarshal(raw, &jc); err != nil {
			break
		}
		if len(jc) != int(t-TypeCurve1)+1 {
			return fmt.Errorf("%s needs %d curves, has %d", t, int(t-TypeCurve1)+1, len(jc))
		}
		cs := make([]Curve, len(jc))
		for i, c := range jc {
			fs, ferr := parseJSONFloats(c.Floats, 30)
			if ferr != nil {
				return ferr
			}
			cs[i] = Curve{A: c.A, B: c.B, Floats: [30]float32(fs)}
		}
		p.Value = cs
	case TypeBufferInt:
		var v []int32
		err = json.Unmarshal(raw, &v)
		if v == nil {
			v = []int32{}
		}
		p.Value = v
	case TypeBufferU32:
		var v []uint32
		err = json.Unmarshal(raw, &v)
		if v == nil {
			v = []uint32{}
		}
		p.Value = v
	case TypeBufferBinary:
		var v []uint8Num
		err = json.Unmarshal(raw, &v)
		b := make([]byte, len(v))
		for i, x := range v {
			b[i] = byte(x)
		}
		p.Value = b
	default: // strings
		var s string
		err = json.Unmarshal(raw, &s)
		p.Value = s
	}
	if err != nil {
		return fmt.Errorf("%s value: %w", t, err)
	}
	return nil
}

// uint8Num decodes a byte from a JSON number (encoding/json reads []byte as base64).
type uint8Num uint8

func (u *uint8Num) UnmarshalJSON(b []byte) error {
	var v uint8
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*u = uint8Num(v)
	return nil
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
