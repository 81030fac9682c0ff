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

// jv walks a decoded JSON value, remembering its path for errors. The first error sticks, so
// loaders read straight through and check err once per entry.
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

// need returns m[key], failing when it is absent.
func (w *jv) need(path string, m map[string]any, key string) any {
	v, ok := m[key]
	if !ok && w.err == nil && m != nil {
		w.fail(path, "missing key %q", key)
	}
	return v
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

// ReadCompatJSON builds a File from the community JSON format. The file gets the canonical
// layout. Like the reference tool (Python's json module) it reads NaN, Infinity and -Infinity
// where a float belongs; a NaN reads as the quiet NaN 0x7fc00000, as Python stores one.
func ReadCompatJSON(data []byte) (*File, error) {
	root, err := parsePyJSON(data)
	if err != nil {
		return nil, fmt.Errorf("ainb: invalid JSON: %w", jsonErrorAt(data, err))
	}
	w := &jv{}
	f := w.file(root)
	if w.err != nil {
		return nil, w.err
	}
	return f, nil
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

func (w *jv) file(root any) *File {
	m := w.obj("", root)
	if w.err != nil {
		return nil
	}
	f := &File{}
	f.Version = uint32(w.integer("Version", w.need("", m, "Version"), 0, math.MaxUint32))
	switch f.Version {
	case Version404, Version407, Version408:
	default:
		if w.err == nil {
			w.fail("Version", "unsupported version %d (want 1028, 1031 or 1032: 0x404, 0x407 or 0x408)", f.Version)
		}
		return nil
	}
	f.Filename = w.str("Filename", w.need("", m, "Filename"))
	f.Category = w.str("Category", w.need("", m, "Category"))
	if f.Version >= Version407 {
		id, ok := CategoryID(f.Category)
		if !ok {
			w.fail("Category", "unknown category %q (want AI, Logic, Sequence, UniqueSequence or UniqueSequenceSPL)", f.Category)
		}
		f.CategoryID = id
	}
	if v, ok := m["Blackboard ID"]; ok {
		f.BlackboardID = uint32(w.integer("Blackboard ID", v, 0, math.MaxUint32))
	}
	if v, ok := m["Parent Blackboard ID"]; ok {
		f.ParentBlackboardID = uint32(w.integer("Parent Blackboard ID", v, 0, math.MaxUint32))
	}
	nodes := w.arr("Nodes", w.need("", m, "Nodes"))
	n := len(nodes)
	for i, c := range w.arr("Commands", w.need("", m, "Commands")) {
		p := index("Commands", i)
		cm := w.obj(p, c)
		cmd := Command{Secondary: -1}
		cmd.Name = w.str(join(p, "Name"), w.need(p, cm, "Name"))
		cmd.GUID = w.guid(join(p, "GUID"), w.need(p, cm, "GUID"))
		cmd.Root = int(w.nodeIndex(join(p, "Root Node Index"), w.need(p, cm, "Root Node Index"), n))
		if v, ok := cm["Secondary Root Node Index"]; ok {
			cmd.Secondary = int(w.integer(join(p, "Secondary Root Node Index"), v, -1, int64(n)-1))
		}
		f.Commands = append(f.Commands, cmd)
		if w.err != nil {
			return nil
		}
	}
	f.Elements = make([]Element, n)
	for i, node := range nodes {
		w.element(f, i, node, n)
		if w.err != nil {
			return nil
		}
	}
	for i := range f.Elements {
		for j, q := range f.Elements[i].Queries {
			if f.Elements[q].Flags&FlagQuery == 0 {
				w.fail(index(join(index("Nodes", i), "Queries"), j), "node %d is not a query node (its Flags lack \"Is Query\")", q)
				return nil
			}
		}
	}
	if bb, ok := m["Blackboard"]; ok {
		w.blackboard(f, bb)
	}
	if x, ok := m["Expressions"]; ok {
		if xm := w.obj("Expressions", x); len(xm) > 0 {
			if w.noPyConsts("Expressions", x); w.err != nil {
				return nil
			}
			mod, err := expressionsFromCompat(x)
			if err != nil {
				w.err = &PathError{Path: "Expressions", Msg: err.Error(), Err: err}
				return nil
			}
			f.Expressions = mod
		}
	}
	if f.Version >= Version407 {
		f.Replacement = &ReplacementTable{}
		for i, r := range w.arr("Replacement Table", m["Replacement Table"]) {
			p := index("Replacement Table", i)
			rm := w.obj(p, r)
			e := Replacement{New: -1}
			typ := w.str(join(p, "Type"), w.need(p, rm, "Type"))
			rt, ok := ParseReplacementType(typ)
			if !ok {
				w.fail(join(p, "Type"), "unknown replacement type %q (want RemoveChild, ReplaceChild or RemoveAttachment)", typ)
			}
			e.Type = rt
			e.Element = int16(w.nodeIndex(join(p, "Node Index"), w.need(p, rm, "Node Index"), n))
			if e.Type == RemoveAttachment {
				e.Index = int16(w.integer(join(p, "Attachment Index"), w.need(p, rm, "Attachment Index"), -0x8000, 0x7fff))
			} else {
				e.Index = int16(w.integer(join(p, "Child Plug Index"), w.need(p, rm, "Child Plug Index"), -0x8000, 0x7fff))
			}
			if e.Type == ReplaceChild {
				e.New = int16(w.nodeIndex(join(p, "Replacement Node Index"), w.need(p, rm, "Replacement Node Index"), n))
			}
			f.Replacement.Entries = append(f.Replacement.Entries, e)
		}
	}
	for i, mo := range w.arr("Modules", m["Modules"]) {
		p := index("Modules", i)
		mm := w.obj(p, mo)
		f.Modules = append(f.Modules, Module{
			Path:      w.str(join(p, "Path"), w.need(p, mm, "Path")),
			Category:  w.str(join(p, "Category"), w.need(p, mm, "Category")),
			Instances: uint32(w.integer(join(p, "Instance Count"), w.need(p, mm, "Instance Count"), 0, math.MaxUint32)),
		})
	}
	if s, ok := m["Unknown Section 0x58"]; ok {
		p := "Unknown Section 0x58"
		if sm := w.obj(p, s); len(sm) > 0 {
			f.Section58 = &Section58{Description: w.str(join(p, "Description"), w.need(p, sm, "Description"))}
			for i, k := range []string{"Unknown04", "Unknown08", "Unknown0C"} {
				f.Section58.Unknown[i] = uint32(w.integer(join(p, k), w.need(p, sm, k), 0, math.MaxUint32))
			}
		}
	}
	if v, ok := m["Has Section 0x6C"]; ok {
		f.HasSection6C = w.boolean("Has Section 0x6C", v)
	}
	if w.err != nil {
		return nil
	}
	return f
}

func (w *jv) nodeIndex(path string, v any, n int) int64 {
	i := w.integer(path, v, math.MinInt32, math.MaxInt32)
	if w.err == nil && (i < 0 || i >= int64(n)) {
		w.fail(path, "%d out of range (%d nodes)", i, n)
	}
	return i
}

func (w *jv) element(f *File, i int, v any, n int) {
	p := index("Nodes", i)
	m := w.obj(p, v)
	if w.err != nil {
		return
	}
	e := &f.Elements[i]
	tv := w.need(p, m, "Node Type")
	switch t := tv.(type) {
	case string:
		et, ok := ParseElementType(t)
		if !ok {
			w.fail(join(p, "Node Type"), "unknown node type %q", t)
		}
		e.Type = et
	default:
		e.Type = ElementType(w.integer(join(p, "Node Type"), tv, 0, 0xffff))
	}
	e.Name = w.str(join(p, "Name"), w.need(p, m, "Name"))
	if g, ok := m["GUID"]; ok {
		e.GUID = w.guid(join(p, "GUID"), g)
	}
	for j, fl := range w.arr(join(p, "Flags"), m["Flags"]) {
		switch s := w.str(index(join(p, "Flags"), j), fl); s {
		case "Is Query":
			e.Flags |= FlagQuery
		case "Is Module":
			e.Flags |= FlagModuleCaller
		case "Is Root Node":
			e.Flags |= FlagResidentInit
		case "Use MultiParam Type 2":
			e.Flags |= FlagQueryMultiParamV2
		default:
			if w.err == nil {
				w.fail(index(join(p, "Flags"), j), "unknown flag %q (want Is Query, Is Module, Is Root Node or Use MultiParam Type 2)", s)
			}
		}
	}
	for j, q := range w.arr(join(p, "Queries"), m["Queries"]) {
		e.Queries = append(e.Queries, int(w.nodeIndex(index(join(p, "Queries"), j), q, n)))
	}
	for j, a := range w.arr(join(p, "Attachments"), m["Attachments"]) {
		ap := index(join(p, "Attachments"), j)
		am := w.obj(ap, a)
		att := Attachment{Name: w.str(join(ap, "Name"), w.need(ap, am, "Name"))}
		if d, ok := am["Debug"]; ok {
			att.Debug = uint32(w.integer(join(ap, "Debug"), d, 0, math.MaxUint32))
		}
		if pr, ok := am["Properties"]; ok {
			w.properties(join(ap, "Properties"), pr, &att.Properties)
		}
		e.Attachments = append(e.Attachments, len(f.Attachments))
		f.Attachments = append(f.Attachments, att)
	}
	if pr, ok := m["Properties"]; ok {
		w.properties(join(p, "Properties"), pr, &e.Properties)
	}
	if pv, ok := m["Parameters"]; ok {
		pm := w.obj(join(p, "Parameters"), pv)
		if in, ok := pm["Inputs"]; ok {
			w.inputs(join(join(p, "Parameters"), "Inputs"), in, e, n)
		}
		if out, ok := pm["Outputs"]; ok {
			w.outputs(join(join(p, "Parameters"), "Outputs"), out, e)
		}
	}
	for j, a := range w.arr(join(p, "XLink Actions"), m["XLink Actions"]) {
		ap := index(join(p, "XLink Actions"), j)
		am := w.obj(ap, a)
		e.Actions = append(e.Actions, Action{
			Slot:   w.str(join(ap, "Action Slot"), w.need(ap, am, "Action Slot")),
			Action: w.str(join(ap, "Action"), w.need(ap, am, "Action")),
		})
	}
	if f.Version < Version407 {
		e.StateInfo = &StateInfo{}
		if s, ok := m["State Info"]; ok {
			sp := join(p, "State Info")
			sm := w.obj(sp, s)
			e.StateInfo.DesiredState = w.str(join(sp, "Desired State"), w.need(sp, sm, "Desired State"))
			for k, key := range []string{"Unknown04", "Unknown08", "Unknown0C", "Unknown10"} {
				e.StateInfo.Unknown[k] = uint32(w.integer(join(sp, key), w.need(sp, sm, key), 0, math.MaxUint32))
			}
		}
	}
	if pv, ok := m["Plugs"]; ok {
		pp := join(p, "Plugs")
		pm := w.obj(pp, pv)
		plugs := e.Plugs.Lists()
		defer func() { e.Plugs.SetAll(plugs) }()
		for k := range PlugKind(plugTables) {
			list, ok := pm[k.String()]
			if !ok {
				continue
			}
			kp := join(pp, k.String())
			items := w.arr(kp, list)
			if len(items) == 0 {
				continue
			}
			layout, _ := e.PlugLayout(k, f.Version)
			ps := make([]Plug, len(items))
			for j, it := range items {
				w.plug(index(kp, j), it, e, k, layout, &ps[j], j == len(items)-1, n)
			}
			if k < NumPlugKinds {
				plugs[k] = ps
				continue
			}
			if e.UnusedPlugs == nil {
				e.UnusedPlugs = new(UnusedPlugs)
			}
			e.UnusedPlugs[k-NumPlugKinds] = ps
		}
		w.onlyKeys(pp, pm, plugKindNames[:], "plug kind (want Generic, Child, Transition, String or Int; _01 and _06 to _09 for the kinds no known file uses)")
	}
}

func (w *jv) flags(path string, m map[string]any) ParamFlags {
	var fl ParamFlags
	for j, s := range w.arr(join(path, "Flags"), m["Flags"]) {
		switch name := w.str(index(join(path, "Flags"), j), s); name {
		case "Uses Default":
			fl |= ParamUsesDefault
		case "Is Output":
			fl |= ParamIsOutput
		default:
			w.fail(index(join(path, "Flags"), j), "unknown flag %q (want Uses Default or Is Output)", name)
		}
	}
	if x, ok := m["Expression Index"]; ok {
		fl |= paramExpression | ParamFlags(w.integer(join(path, "Expression Index"), x, 0, 0xffff))
	} else if b, ok := m["Blackboard Index"]; ok {
		fl |= paramBlackboard | ParamFlags(w.integer(join(path, "Blackboard Index"), b, 0, 0xffff))
		if c, ok := m["Vector Component"]; ok {
			s := w.str(join(path, "Vector Component"), c)
			if k, ok := enumParse(vectorComponentNames[:], s); ok {
				fl |= ParamFlags(k) << paramComponentShift
			} else {
				w.fail(join(path, "Vector Component"), "unknown component %q (want X, Y or Z)", s)
			}
		}
	}
	return fl
}

func (w *jv) value(path string, t ParamType, v any) (out Value) {
	switch t {
	case ParamInt:
		out.Int = int32(w.integer(path, v, math.MinInt32, math.MaxInt32))
	case ParamBool:
		if w.boolean(path, v) {
			out.Int = 1
		}
	case ParamFloat:
		out.Float = w.f32(path, v)
	case ParamString:
		out.String = w.str(path, v)
	case ParamVec3f:
		out.Vec = w.vec3(path, v)
	case ParamPointer:
		if v != nil {
			w.fail(path, "pointer values must be null, got %s", kind(v))
		}
	}
	return out
}

// eachTyped calls fn for every entry of an object of per-type lists ({"Int": [...], ...}),
// with the entry's path and object, and rejects unknown type names.
func (w *jv) eachTyped(path string, v any, fn func(t ParamType, ip string, im map[string]any)) {
	m := w.obj(path, v)
	for t := range NumParamTypes {
		list, ok := m[t.String()]
		if !ok {
			continue
		}
		tp := join(path, t.String())
		for j, it := range w.arr(tp, list) {
			ip := index(tp, j)
			fn(t, ip, w.obj(ip, it))
		}
	}
	w.onlyKeys(path, m, paramTypeNames[:], "type (want Int, Bool, Float, String, Vector3F or Pointer)")
}

// nameAndClass reads "Name", and "Classname" for pointers.
func (w *jv) nameAndClass(t ParamType, ip string, im map[string]any) (name, class string) {
	name = w.str(join(ip, "Name"), w.need(ip, im, "Name"))
	if t == ParamPointer {
		class = w.str(join(ip, "Classname"), w.need(ip, im, "Classname"))
	}
	return name, class
}

func (w *jv) properties(path string, v any, ps *Properties) {
	lists := ps.Lists()
	defer func() { ps.SetAll(lists) }()
	w.eachTyped(path, v, func(t ParamType, ip string, im map[string]any) {
		pr := Property{}
		pr.Name, pr.ClassName = w.nameAndClass(t, ip, im)
		pr.Value = w.value(join(ip, "Default Value"), t, w.need(ip, im, "Default Value"))
		pr.Flags = w.flags(ip, im)
		lists[t] = append(lists[t], pr)
	})
}

// onlyKeys fails on the first key of m that is not one of names.
func (w *jv) onlyKeys(path string, m map[string]any, names []string, what string) {
	for key := range m {
		if !slices.Contains(names, key) {
			w.fail(join(path, key), "unknown %s", what)
		}
	}
}

func (w *jv) source(path string, m map[string]any, n int) Source {
	s := Source{}
	node := w.integer(join(path, "Node Index"), w.need(path, m, "Node Index"), -1, 0x7fff)
	if w.err == nil && node >= int64(n) {
		w.fail(join(path, "Node Index"), "%d out of range (%d nodes)", node, n)
	}
	s.Node = int16(node)
	s.Output = int16(w.integer(join(path, "Output Index"), w.need(path, m, "Output Index"), -0x8000, 0x7fff))
	s.Flags = w.flags(path, m)
	return s
}

func (w *jv) inputs(path string, v any, e *Element, n int) {
	lists := e.Inputs.Lists()
	defer func() { e.Inputs.SetAll(lists) }()
	w.eachTyped(path, v, func(t ParamType, ip string, im map[string]any) {
		in := Input{}
		in.Name, in.ClassName = w.nameAndClass(t, ip, im)
		in.Value = w.value(join(ip, "Default Value"), t, w.need(ip, im, "Default Value"))
		if srcs, ok := im["Sources"]; ok {
			sp := join(ip, "Sources")
			in.Sources = []Source{}
			for k, s := range w.arr(sp, srcs) {
				in.Sources = append(in.Sources, w.source(index(sp, k), w.obj(index(sp, k), s), n))
			}
		} else {
			in.Source = w.source(ip, im, n)
		}
		if b, ok := im["Is Set Blackboard"]; ok {
			in.SetBlackboard = w.boolean(join(ip, "Is Set Blackboard"), b)
		}
		lists[t] = append(lists[t], in)
	})
}

func (w *jv) outputs(path string, v any, e *Element) {
	lists := e.Outputs.Lists()
	defer func() { e.Outputs.SetAll(lists) }()
	w.eachTyped(path, v, func(t ParamType, ip string, im map[string]any) {
		o := Output{}
		o.Name, o.ClassName = w.nameAndClass(t, ip, im)
		if c, ok := im["Is Output"]; ok {
			o.Connected = w.boolean(join(ip, "Is Output"), c)
		}
		lists[t] = append(lists[t], o)
	})
}

const blackboardFlag = 1 << 31

func (w *jv) plug(path string, v any, e *Element, k PlugKind, layout PlugLayout, p *Plug, last bool, n int) {
	m := w.obj(path, v)
	if w.err != nil {
		return
	}
	node := w.integer(join(path, "Node Index"), w.need(path, m, "Node Index"), math.MinInt32, math.MaxInt32)
	if w.err == nil && k == PlugChild && (node < 0 || node >= int64(n)) {
		w.fail(join(path, "Node Index"), "%d out of range (%d nodes)", node, n)
	}
	p.Node = int32(node)
	if layout == LayoutRaw {
		p.Word = uint32(w.integer(join(path, "Value"), w.need(path, m, "Value"), 0, math.MaxUint32))
		return
	}
	if layout == LayoutJump {
		j := &Jump{Type: uint8(w.integer(join(path, "Transition Type"), w.need(path, m, "Transition Type"), 0, 255))}
		if pc, ok := m["Update Post Calc"]; ok {
			j.PostCalc = w.boolean(join(path, "Update Post Calc"), pc)
		}
		if j.Type == 0 {
			if name, ok := m["Transition Name"]; ok {
				j.Command = w.str(join(path, "Transition Name"), name)
			}
		}
		p.Jump = j
		return
	}
	p.Name = w.str(join(path, "Name"), w.need(path, m, "Name"))
	if layout == LayoutBasic {
		return
	}
	bb := func(key string) uint32 {
		return blackboardFlag | uint32(uint16(w.integer(join(path, key), m[key], -0x8000, 0xffff)))
	}
	has := func(key string) bool { _, ok := m[key]; return ok }
	i32 := func(key string) int32 {
		return int32(w.integer(join(path, key), w.need(path, m, key), math.MinInt32, math.MaxUint32))
	}
	u32 := func(key string) uint32 {
		return uint32(w.integer(join(path, key), w.need(path, m, key), math.MinInt32, math.MaxUint32))
	}
	if k == PlugChild {
		isDefault := (e.Type == S32Selector || e.Type == F32Selector || e.Type == StringSelector) &&
			(last || has("Is Default"))
		switch {
		case isDefault:
			// The last plug of these selectors is always the default case, whatever it says.
			if e.Type == StringSelector {
				p.String = "その他"
			}
		case e.Type == S32Selector:
			if has("Condition") {
				p.Int = i32("Condition")
			} else {
				p.Word, p.Int = bb("Blackboard Index"), i32("Default Condition")
			}
		case e.Type == StringSelector:
			if has("Condition") {
				p.String = w.str(join(path, "Condition"), m["Condition"])
			} else {
				p.Word = bb("Blackboard Index")
				p.String = w.str(join(path, "Default Condition"), w.need(path, m, "Default Condition"))
			}
		case e.Type == F32Selector:
			if has("Condition Min") {
				p.Float = w.f32(join(path, "Condition Min"), m["Condition Min"])
			} else {
				p.Word = bb("Condition Min Blackboard Index")
			}
			if has("Condition Max") {
				p.MaxFloat = w.f32(join(path, "Condition Max"), m["Condition Max"])
			} else {
				p.MaxWord = bb("Condition Max Blackboard Index")
			}
		case e.Type == RandomSelector:
			if has("Weight") {
				p.Float = w.f32(join(path, "Weight"), m["Weight"])
			} else {
				p.Word = bb("Blackboard Index")
				p.Float = w.f32(join(path, "Default Weight"), w.need(path, m, "Default Weight"))
			}
		default: // BSA selectors
			if has("Child Enum Value") {
				p.Int = int32(u32("Child Enum Value"))
			} else {
				p.Word = bb("Child Enum BB Index")
			}
		}
		return
	}
	switch {
	case k == PlugGeneric && e.Type == BoolSelector:
		p.Word, p.Int = u32("Unknown 1"), int32(u32("Unknown 2"))
	case k == PlugGeneric && e.Type == F32Selector:
		p.Word = u32("Unknown 1")
		p.Float = w.f32(join(path, "Unknown 2"), w.need(path, m, "Unknown 2"))
	case layout == LayoutWordString:
		if has("Unknown") {
			p.Word = u32("Unknown")
			p.String = w.str(join(path, "Default Value"), w.need(path, m, "Default Value"))
		}
	default:
		if has("Unknown") {
			p.Word, p.Int = u32("Unknown"), i32("Default Value")
		}
	}
}

func (w *jv) blackboard(f *File, v any) {
	m := w.obj("Blackboard", v)
	for t := range NumBlackboardTypes {
		list, ok := m[t.String()]
		if !ok {
			continue
		}
		tp := join("Blackboard", t.String())
		for j, it := range w.arr(tp, list) {
			ip := index(tp, j)
			im := w.obj(ip, it)
			bp := BlackboardParam{Name: w.str(join(ip, "Name"), w.need(ip, im, "Name")), Inherit: DontInherit}
			if notes, ok := im["Notes"]; ok {
				bp.Notes = w.str(join(ip, "Notes"), notes)
			}
			if file, ok := im["Source File"]; ok {
				bp.File = w.str(join(ip, "Source File"), file)
			}
			if mode, ok := im["Inherit Mode"]; ok {
				s := w.str(join(ip, "Inherit Mode"), mode)
				im, found := ParseInheritMode(s)
				bp.Inherit = im
				if !found {
					w.fail(join(ip, "Inherit Mode"), "unknown inherit mode %q (want InheritFromRoot, InheritFromParent or DontInherit)", s)
				}
			}
			dv := w.need(ip, im, "Default Value")
			dp := join(ip, "Default Value")
			switch t {
			case BBString:
				bp.Value.String = w.str(dp, dv)
			case BBS32:
				bp.Value.Int = int32(w.integer(dp, dv, math.MinInt32, math.MaxInt32))
			case BBU32:
				bp.Value.Int = int32(uint32(w.integer(dp, dv, 0, math.MaxUint32)))
			case BBF32:
				bp.Value.Float = w.f32(dp, dv)
			case BBBool:
				if w.boolean(dp, dv) {
					bp.Value.Int = 1
				}
			case BBVec3f:
				bp.Value.Vec = w.vec3(dp, dv)
			case BBPointer:
				if dv != nil {
					w.fail(dp, "pointer values must be null, got %s", kind(dv))
				}
			}
			f.Blackboard.Params[t] = append(f.Blackboard.Params[t], bp)
		}
	}
	w.onlyKeys("Blackboard", m, blackboardTypeNames[:], "blackboard type (want String, S32, U32, F32, Bool, Vec3f or VoidPtr)")
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
