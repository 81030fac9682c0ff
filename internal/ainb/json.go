package ainb

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The project's own JSON is the model itself, field by field, with the expression binary as
// its disassembly listing. It keeps everything, layout facts included, so a file dumped and
// built again comes back byte-identical.

// MarshalText prints the GUID in its usual form.
func (g GUID) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// UnmarshalText parses the usual GUID form.
func (g *GUID) UnmarshalText(b []byte) error {
	w := &jv{}
	*g = w.guid("GUID", string(b))
	if w.err != nil {
		return fmt.Errorf("%q is not a GUID like 01234567-89ab-cdef-0123-456789abcdef", b)
	}
	return nil
}

type fileAlias File

// fileJSON shadows the expression binary with its listing.
type fileJSON struct {
	*fileAlias
	Expressions *string `json:",omitempty"`
}

// MarshalJSON writes the project's own JSON for the file.
func (f *File) MarshalJSON() ([]byte, error) {
	v := fileJSON{fileAlias: (*fileAlias)(f)}
	if f.Expressions != nil {
		s, err := expressionsText(f.Expressions)
		if err != nil {
			return nil, err
		}
		v.Expressions = &s
	}
	return marshalNoEscape(v)
}

// UnmarshalJSON reads the project's own JSON, rejecting unknown fields.
func (f *File) UnmarshalJSON(data []byte) error {
	*f = File{}
	v := fileJSON{fileAlias: (*fileAlias)(f)}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return jsonErrorAt(data, err)
	}
	if v.Expressions != nil {
		m, err := expressionsFromText(*v.Expressions)
		if err != nil {
			return fmt.Errorf("Expressions: %w", err)
		}
		f.Expressions = m
	}
	if l := f.Layout; l != nil && len(l.Tails) > 0 {
		found := tailOffsets(l.Strings, l.Tails)
		for i, t := range l.Tails {
			if _, ok := found[t]; !ok {
				return fmt.Errorf("Layout.Tails[%d]: %.40q is not the tail of any string in Layout.Strings", i, t)
			}
		}
	}
	return nil
}

// JSON returns the project's own JSON for the file, indented.
func (f *File) JSON() ([]byte, error) { return indentJSON(f) }

// ReadJSON builds a File from the project's own JSON.
func ReadJSON(data []byte) (*File, error) {
	f := &File{}
	if err := f.UnmarshalJSON(data); err != nil {
		return nil, fmt.Errorf("ainb: invalid JSON: %w", jsonErrorAt(data, err))
	}
	return f, nil
}

// ReadAnyJSON builds a File from either JSON format: the community format has "Nodes", the
// project's own "Elements".
func ReadAnyJSON(data []byte) (*File, error) {
	// The community format is Python's JSON, which may hold NaN and Infinity: probe with the
	// parser that reads them.
	root, err := parsePyJSON(data)
	if err != nil {
		return nil, fmt.Errorf("ainb: invalid JSON: %w", jsonErrorAt(data, err))
	}
	probe, _ := root.(map[string]any)
	if _, ok := probe[keyNodes]; ok {
		return readCompat(root)
	}
	if _, ok := probe["Elements"]; ok {
		return ReadJSON(data)
	}
	return nil, fmt.Errorf("ainb: JSON is neither format: it has no \"Nodes\" (community format) or \"Elements\" (project format)")
}

// The grouped lists print as objects keyed by type name, leaving out empty groups.

func marshalGroups[T any](names []string, groups [][]T) ([]byte, error) {
	var o object
	for i, g := range groups {
		if len(g) > 0 {
			o = append(o, member{names[i], g})
		}
	}
	if o == nil {
		return []byte("{}"), nil
	}
	return o.MarshalJSON()
}

// unmarshalGroups decodes each group straight from the token stream: going through a map of
// raw messages would parse every document twice.
func unmarshalGroups[T any](b []byte, names []string, groups [][]T) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fmt.Errorf("want an object of groups (%v)", names)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		k, _ := tok.(string)
		i := slices.Index(names, k)
		if i < 0 {
			return fmt.Errorf("unknown group %q (want one of %v)", k, names)
		}
		if err := dec.Decode(&groups[i]); err != nil {
			return fmt.Errorf("%s: %w", k, plainJSONError(err))
		}
	}
	_, err := dec.Token()
	return err
}

func (p BlackboardParams) MarshalJSON() ([]byte, error) {
	return marshalGroups(blackboardTypeNames[:], p[:])
}
func (p *BlackboardParams) UnmarshalJSON(b []byte) error {
	return unmarshalGroups(b, blackboardTypeNames[:], p[:])
}

// MarshalJSON writes the float as a number, or its bits when JSON has no number for it. A
// negative zero stays negative.
func (f F32) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmt.Appendf(nil, `"0x%08x"`, math.Float32bits(float32(f))), nil
	}
	return strconv.AppendFloat(nil, x, 'g', -1, 32), nil
}

// UnmarshalJSON reads a number, or a "0x..." string of bits.
func (f *F32) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		bits, err := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 32)
		if err != nil || !strings.HasPrefix(s, "0x") {
			return fmt.Errorf("float %q: want a number or the bits as \"0x7fc00000\"", s)
		}
		*f = F32(math.Float32frombits(uint32(bits)))
		return nil
	}
	x, err := strconv.ParseFloat(string(b), 32)
	if err != nil {
		return fmt.Errorf("float %s: %w", b, err)
	}
	*f = F32(x)
	return nil
}

// MarshalJSON writes the fields of a value that are set. A float counts as set when any of
// its bits are, so a negative zero is kept.
func (v Value) MarshalJSON() ([]byte, error) {
	var o object
	if v.Int != 0 {
		o.set("Int", v.Int)
	}
	if math.Float32bits(float32(v.Float)) != 0 {
		o.set("Float", v.Float)
	}
	if v.String != "" {
		o.set("String", v.String)
	}
	if v.Vec != (Vec3f{}) || math.Signbit(float64(v.Vec[0])) || math.Signbit(float64(v.Vec[1])) || math.Signbit(float64(v.Vec[2])) {
		o.set("Vec", v.Vec)
	}
	if o == nil {
		return []byte("{}"), nil
	}
	return o.MarshalJSON()
}

// UnmarshalJSON reads what MarshalJSON writes.
func (v *Value) UnmarshalJSON(b []byte) error {
	type plain Value
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*v = Value(p)
	return nil
}

// MarshalJSON writes a plug's node and name and only the extra words that are set, so the
// common plugs stay small in documents.
func (p Plug) MarshalJSON() ([]byte, error) {
	o := object{{"Node", p.Node}}
	if p.Jump != nil {
		o.set("Jump", p.Jump)
		return o.MarshalJSON()
	}
	o.set("Name", p.Name)
	if p.Word != 0 {
		o.set("Word", p.Word)
	}
	if p.Int != 0 {
		o.set("Int", p.Int)
	}
	if math.Float32bits(float32(p.Float)) != 0 {
		o.set("Float", p.Float)
	}
	if p.String != "" {
		o.set("String", p.String)
	}
	if p.MaxWord != 0 {
		o.set("MaxWord", p.MaxWord)
	}
	if math.Float32bits(float32(p.MaxFloat)) != 0 {
		o.set("MaxFloat", p.MaxFloat)
	}
	if p.Reserved != [4]uint32{} {
		o.set("Reserved", p.Reserved)
	}
	return o.MarshalJSON()
}

// UnmarshalJSON reads what MarshalJSON writes.
func (p *Plug) UnmarshalJSON(b []byte) error {
	type plain Plug
	var q plain
	if err := json.Unmarshal(b, &q); err != nil {
		return err
	}
	*p = Plug(q)
	return nil
}
