package aamp

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"ainbeditor/internal/jsontext"
	"ainbeditor/internal/yamltext"
)

// ToYAML dumps the document in oead's text conventions (see the package doc). The text is
// the one yaml.v3's encoder gives for the equivalent yaml.Node tree (TestYAMLTextLikeYAMLv3),
// written straight into one growing buffer.
func ToYAML(pio *ParameterIO) ([]byte, error) { return ToYAMLLimit(pio, jsontext.NoLimit) }

// ToYAMLLimit is ToYAML stopping with a *jsontext.TooLargeError as soon as the text would be
// more than limit bytes (see AppendJSON).
func ToYAMLLimit(pio *ParameterIO, limit int) ([]byte, error) {
	if err := pio.validate(); err != nil {
		return nil, err
	}
	e := &yamlEmitter{nm: NewNamer(pio), w: yamltext.NewWriter(nil), limit: limit}
	w := e.w
	w.BeginMapping("!io", false)
	w.String("version")
	e.scratch = strconv.AppendUint(e.scratch[:0], uint64(pio.Version), 10)
	w.PlainBytes("", e.scratch)
	w.String("type")
	e.str("", pio.Type)
	w.String("param_root")
	e.list(&pio.Root)
	w.End()
	if e.err != nil {
		return nil, inside(e.err, "param_root")
	}
	if out := w.Finish(); len(out) <= limit {
		return out, nil
	}
	return nil, &jsontext.TooLargeError{Limit: limit}
}

type yamlEmitter struct {
	nm      *Namer
	w       *yamltext.Writer
	scratch []byte
	err     error
	limit   int
}

// over reports whether writing least bytes more would pass the budget.
func (e *yamlEmitter) over(least int) bool { return len(e.w.Buf)+least > e.limit }

// step is a list's, object's or parameter's name in a budget error's path.
func (e *yamlEmitter) step(h Name, index int, parent Name) string {
	if s, _ := e.nm.Name(h, index, parent); s != "" {
		return "/" + s
	}
	return fmt.Sprintf("/%#08x", uint32(h))
}

// str writes a string that reads back as a string: quoted whenever the plain form would
// be taken for a bool, number or null. With a tag, the tag says it is a string.
func (e *yamlEmitter) str(tag, s string) {
	if !utf8.ValidString(s) && e.err == nil {
		e.err = fmt.Errorf("aamp: yaml: string %q is not valid UTF-8", s)
	}
	switch {
	case !plainIsString(s):
		e.w.Quoted(tag, s)
	case tag != "":
		e.w.Plain(tag, s)
	default:
		e.w.String(s)
	}
}

func (e *yamlEmitter) key(h Name, index int, parent Name) {
	if s, ok := e.nm.Name(h, index, parent); ok {
		e.str("", s)
		return
	}
	e.uint(uint64(h))
}

func (e *yamlEmitter) uint(x uint64) {
	e.scratch = strconv.AppendUint(e.scratch[:0], x, 10)
	e.w.PlainBytes("", e.scratch)
}

func (e *yamlEmitter) int(x int64) {
	e.scratch = strconv.AppendInt(e.scratch[:0], x, 10)
	e.w.PlainBytes("", e.scratch)
}

func (e *yamlEmitter) float(f float32) {
	e.scratch = yamltext.AppendFloat(e.scratch[:0], float64(f), 32)
	e.w.PlainBytes("", e.scratch)
}

func (e *yamlEmitter) floats(tag string, fs []float32) {
	e.w.BeginSequence(tag, true)
	for _, f := range fs {
		e.float(f)
	}
	e.w.End()
}

func (e *yamlEmitter) list(l *ParameterList) {
	w := e.w
	w.BeginMapping("!list", false)
	w.String("objects")
	w.BeginMapping("", false)
	for i, o := range l.Objects {
		e.key(o.Name, i, l.Name)
		w.BeginMapping("!obj", false)
		for j := range o.Params {
			p := &o.Params[j]
			if e.over(p.size()) && e.err == nil {
				e.err = &jsontext.TooLargeError{Limit: e.limit, Where: e.step(o.Name, i, l.Name) + e.step(p.Name, j, o.Name)}
			}
			if e.err != nil {
				return
			}
			e.key(p.Name, j, o.Name)
			e.value(p)
		}
		w.End()
	}
	w.End()
	w.String("lists")
	w.BeginMapping("", false)
	for i, c := range l.Lists {
		e.key(c.Name, i, l.Name)
		if e.list(c); e.over(0) && e.err == nil {
			e.err = &jsontext.TooLargeError{Limit: e.limit}
		}
		if e.err != nil {
			e.err = inside(e.err, e.step(c.Name, i, l.Name))
			return
		}
	}
	w.End()
	w.End()
}

func (e *yamlEmitter) value(p *Parameter) {
	w := e.w
	switch v := p.Value.(type) {
	case bool:
		w.Plain("", strconv.FormatBool(v))
	case float32:
		e.float(v)
	case int32:
		e.int(int64(v))
	case uint32:
		e.scratch = strconv.AppendUint(append(e.scratch[:0], "0x"...), uint64(v), 16)
		w.PlainBytes("!u", e.scratch)
	case Vec2:
		e.floats("!vec2", v[:])
	case Vec3:
		e.floats("!vec3", v[:])
	case Vec4:
		e.floats("!vec4", v[:])
	case Color:
		e.floats("!color", v[:])
	case Quat:
		e.floats("!quat", v[:])
	case []Curve:
		w.BeginSequence("!curve", true)
		for _, c := range v {
			e.uint(uint64(c.A))
			e.uint(uint64(c.B))
			for _, f := range c.Floats {
				e.float(f)
			}
		}
		w.End()
	case []int32:
		w.BeginSequence("!buffer_int", true)
		for _, x := range v {
			e.int(int64(x))
		}
		w.End()
	case []float32:
		e.floats("!buffer_f32", v)
	case []uint32:
		w.BeginSequence("!buffer_u32", true)
		for _, x := range v {
			e.uint(uint64(x))
		}
		w.End()
	case []byte:
		w.BeginSequence("!buffer_binary", true)
		for _, x := range v {
			e.uint(uint64(x))
		}
		w.End()
	case string:
		switch p.Type {
		case TypeString32:
			e.str("!str32", v)
		case TypeString64:
			e.str("!str64", v)
		case TypeString256:
			e.str("!str256", v)
		default:
			e.str("", v)
		}
	default:
		// unreachable: validate checked every value
		w.Plain("", "null")
	}
}

// plainIsString reports whether resolvePlain reads s as a string, without its cost: only
// text that starts like a number (or is a keyword) can be anything else.
func plainIsString(s string) bool {
	if s == "" {
		return false
	}
	if c := s[0]; c != '+' && c != '-' && c != '.' && (c < '0' || c > '9') {
		return s != "true" && s != "false" && s != "null" && s != "~"
	}
	_, ok := resolvePlain(s).(string)
	return ok
}

// resolvePlain reads an unquoted, untagged scalar as oead does: true/false, a float when
// it has a '.', an integer (any base prefix), null, else a string.
func resolvePlain(s string) any {
	switch s {
	case "true":
		return true
	case "false":
		return false
	case "null", "~", "":
		return nil
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return math.Inf(1)
	case "-.inf", "-.Inf", "-.INF":
		return math.Inf(-1)
	case ".nan", ".NaN", ".NAN":
		return math.NaN()
	}
	if strings.ContainsRune(s, '.') {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
	}
	if i, err := strconv.ParseInt(s, 0, 64); err == nil {
		return i
	}
	if u, err := strconv.ParseUint(s, 0, 64); err == nil {
		return u
	}
	return s
}

// FromYAML builds a document from its YAML form. The result has no recorded layout, so
// Bytes lays it out canonically.
func FromYAML(text []byte) (*ParameterIO, error) {
	if err := yamltext.CheckText(text); err != nil {
		return nil, fmt.Errorf("aamp: yaml: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		return nil, fmt.Errorf("aamp: yaml: %w", yamltext.ParseError(err))
	}
	pio, err := fromYAML(&doc)
	if err != nil {
		return nil, located(err, &doc)
	}
	return pio, nil
}

// fromYAML reads the parsed document; its errors name the node at fault, whose path
// FromYAML adds.
func fromYAML(doc *yaml.Node) (*ParameterIO, error) {
	if err := yamltext.CheckTree(doc, yamltext.MaxExpandedNodes); err != nil {
		return nil, fmt.Errorf("aamp: yaml: %w", err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, fmt.Errorf("aamp: yaml: want one document")
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, yamlErr(root, "the document is not a mapping (want !io)")
	}
	pio := &ParameterIO{Root: ParameterList{Name: RootName}, names: map[Name]string{}}
	var haveVersion, haveType, haveRoot bool
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "version":
			x, err := scalarUint(v, math.MaxUint32)
			if err != nil {
				return nil, err
			}
			pio.Version, haveVersion = uint32(x), true
		case "type":
			if v.Kind != yaml.ScalarNode {
				return nil, yamlErr(v, "type is not a string")
			}
			pio.Type, haveType = v.Value, true
		case "param_root":
			if err := readYAMLList(v, &pio.Root, pio.names); err != nil {
				return nil, err
			}
			haveRoot = true
		default:
			return nil, yamlErr(k, "unknown key %q in !io", k.Value)
		}
	}
	if !haveVersion || !haveType || !haveRoot {
		return nil, yamlErr(root, "!io needs version, type and param_root")
	}
	if err := pio.validate(); err != nil {
		return nil, err
	}
	return pio, nil
}

func yamlErr(n *yaml.Node, format string, args ...any) error {
	return yamltext.NodeErrorf(n, format, args...)
}

func isQuoted(n *yaml.Node) bool {
	return n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
}

// scalarValue resolves a scalar without a custom tag.
func scalarValue(n *yaml.Node) any {
	if isQuoted(n) {
		return n.Value
	}
	switch n.Tag {
	case "!!str":
		// yaml.v3 marks untagged plain scalars with the tag it resolved; oead's rules decide.
		return resolvePlain(n.Value)
	case "!!binary", "!!timestamp", "!!merge":
		return n.Value
	}
	return resolvePlain(n.Value)
}

func scalarUint(n *yaml.Node, max uint64) (uint64, error) {
	if n.Kind != yaml.ScalarNode {
		return 0, yamlErr(n, "want an integer")
	}
	switch v := scalarValue(n).(type) {
	case int64:
		if v >= 0 && uint64(v) <= max {
			return uint64(v), nil
		}
	case uint64:
		if v <= max {
			return v, nil
		}
	}
	return 0, yamlErr(n, "%q is not an integer in 0..%d", n.Value, max)
}

func scalarFloat(n *yaml.Node) (float32, error) {
	if n.Kind == yaml.ScalarNode && !isQuoted(n) {
		switch v := scalarValue(n).(type) {
		case float64:
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return float32(v), nil
			}
			f, err := strconv.ParseFloat(n.Value, 32)
			if err == nil {
				return float32(f), nil
			}
		case int64:
			return float32(v), nil
		case uint64:
			return float32(v), nil
		}
	}
	return 0, yamlErr(n, "%q is not a number", n.Value)
}

// yamlName reads a key: an unquoted integer is a hash, anything else a name, which is
// remembered in names.
func yamlName(k *yaml.Node, names map[Name]string) (Name, error) {
	if k.Kind != yaml.ScalarNode {
		return 0, yamlErr(k, "key is not a scalar")
	}
	if !isQuoted(k) {
		switch v := scalarValue(k).(type) {
		case int64:
			if v >= 0 && v <= math.MaxUint32 {
				return Name(v), nil
			}
			return 0, yamlErr(k, "hash key %d is out of the u32 range", v)
		case uint64:
			if v <= math.MaxUint32 {
				return Name(v), nil
			}
			return 0, yamlErr(k, "hash key %d is out of the u32 range", v)
		}
	}
	h := NameOf(k.Value)
	names[h] = k.Value
	return h, nil
}

func checkMap(n *yaml.Node, tag, what string) error {
	if n.Kind == yaml.AliasNode {
		return yamlErr(n, "aliases are not supported")
	}
	if n.Kind != yaml.MappingNode {
		return yamlErr(n, "%s is not a mapping", what)
	}
	if tag != "" && n.Tag != tag && n.Tag != "!!map" {
		return yamlErr(n, "%s has tag %s, want %s", what, n.Tag, tag)
	}
	return nil
}

func readYAMLList(n *yaml.Node, l *ParameterList, names map[Name]string) error {
	if err := checkMap(n, "!list", "parameter list"); err != nil {
		return err
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "objects":
			if v.Kind == yaml.ScalarNode && (v.Tag == "!!null") {
				continue
			}
			if err := checkMap(v, "", "objects"); err != nil {
				return err
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				name, err := yamlName(v.Content[j], names)
				if err != nil {
					return err
				}
				o := &ParameterObject{Name: name}
				if err := readYAMLObject(v.Content[j+1], o, names); err != nil {
					return err
				}
				l.Objects = append(l.Objects, o)
			}
		case "lists":
			if v.Kind == yaml.ScalarNode && (v.Tag == "!!null") {
				continue
			}
			if err := checkMap(v, "", "lists"); err != nil {
				return err
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				name, err := yamlName(v.Content[j], names)
				if err != nil {
					return err
				}
				c := &ParameterList{Name: name}
				if err := readYAMLList(v.Content[j+1], c, names); err != nil {
					return err
				}
				l.Lists = append(l.Lists, c)
			}
		default:
			return yamlErr(k, "unknown key %q in !list (want objects, lists)", k.Value)
		}
	}
	return nil
}

func readYAMLObject(n *yaml.Node, o *ParameterObject, names map[Name]string) error {
	if err := checkMap(n, "!obj", "parameter object"); err != nil {
		return err
	}
	o.Params = make([]Parameter, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		name, err := yamlName(n.Content[i], names)
		if err != nil {
			return err
		}
		p := Parameter{Name: name}
		if err := readYAMLParam(n.Content[i+1], &p); err != nil {
			return err
		}
		o.Params = append(o.Params, p)
	}
	return nil
}

var seqTypes = map[string]Type{
	"!vec2": TypeVec2, "!vec3": TypeVec3, "!vec4": TypeVec4, "!color": TypeColor, "!quat": TypeQuat,
	"!curve": TypeCurve1, "!buffer_int": TypeBufferInt, "!buffer_f32": TypeBufferF32,
	"!buffer_u32": TypeBufferU32, "!buffer_binary": TypeBufferBinary,
}

func readYAMLParam(n *yaml.Node, p *Parameter) error {
	switch n.Kind {
	case yaml.SequenceNode:
		t, ok := seqTypes[n.Tag]
		if !ok {
			return yamlErr(n, "sequence with tag %q is not a parameter (want !vec2 ... !buffer_binary)", n.Tag)
		}
		p.Type = t
		fl := func(dst []float32) error {
			if len(n.Content) != len(dst) {
				return yamlErr(n, "%s needs %d numbers, has %d", n.Tag, len(dst), len(n.Content))
			}
			for i, c := range n.Content {
				f, err := scalarFloat(c)
				if err != nil {
					return err
				}
				dst[i] = f
			}
			return nil
		}
		switch t {
		case TypeVec2:
			var v Vec2
			err := fl(v[:])
			p.Value = v
			return err
		case TypeVec3:
			var v Vec3
			err := fl(v[:])
			p.Value = v
			return err
		case TypeVec4:
			var v Vec4
			err := fl(v[:])
			p.Value = v
			return err
		case TypeColor:
			var v Color
			err := fl(v[:])
			p.Value = v
			return err
		case TypeQuat:
			var v Quat
			err := fl(v[:])
			p.Value = v
			return err
		case TypeCurve1:
			nc := len(n.Content) / 32
			if len(n.Content)%32 != 0 || nc < 1 || nc > 4 {
				return yamlErr(n, "!curve has %d numbers; want 32, 64, 96 or 128", len(n.Content))
			}
			cs := make([]Curve, nc)
			for i := range cs {
				c := n.Content[32*i : 32*i+32]
				a, err := scalarUint(c[0], math.MaxUint32)
				if err != nil {
					return err
				}
				b, err := scalarUint(c[1], math.MaxUint32)
				if err != nil {
					return err
				}
				cs[i].A, cs[i].B = uint32(a), uint32(b)
				for j := range cs[i].Floats {
					if cs[i].Floats[j], err = scalarFloat(c[2+j]); err != nil {
						return err
					}
				}
			}
			p.Type = TypeCurve1 + Type(nc-1)
			p.Value = cs
		case TypeBufferF32:
			v := make([]float32, len(n.Content))
			err := fl(v)
			p.Value = v
			return err
		case TypeBufferInt:
			v := make([]int32, len(n.Content))
			for i, c := range n.Content {
				x, err := scalarInt32(c)
				if err != nil {
					return err
				}
				v[i] = x
			}
			p.Value = v
		case TypeBufferU32, TypeBufferBinary:
			max := uint64(math.MaxUint32)
			if t == TypeBufferBinary {
				max = 255
			}
			u := make([]uint32, len(n.Content))
			for i, c := range n.Content {
				x, err := scalarUint(c, max)
				if err != nil {
					return err
				}
				u[i] = uint32(x)
			}
			if t == TypeBufferU32 {
				p.Value = u
			} else {
				b := make([]byte, len(u))
				for i, x := range u {
					b[i] = byte(x)
				}
				p.Value = b
			}
		}
		return nil
	case yaml.ScalarNode:
		switch n.Tag {
		case "!str32":
			p.Type, p.Value = TypeString32, n.Value
		case "!str64":
			p.Type, p.Value = TypeString64, n.Value
		case "!str256":
			p.Type, p.Value = TypeString256, n.Value
		case "!u":
			x, err := scalarUint(&yaml.Node{Kind: yaml.ScalarNode, Value: n.Value, Line: n.Line, Column: n.Column}, math.MaxUint32)
			if err != nil {
				return err
			}
			p.Type, p.Value = TypeU32, uint32(x)
		default:
			if strings.HasPrefix(n.Tag, "!") && !strings.HasPrefix(n.Tag, "!!") {
				return yamlErr(n, "unknown scalar tag %s", n.Tag)
			}
			switch v := scalarValue(n).(type) {
			case bool:
				p.Type, p.Value = TypeBool, v
			case float64:
				f, err := scalarFloat(n)
				if err != nil {
					return err
				}
				p.Type, p.Value = TypeF32, f
			case int64, uint64:
				x, err := scalarInt32(n)
				if err != nil {
					return err
				}
				p.Type, p.Value = TypeInt, x
			case string:
				p.Type, p.Value = TypeStringRef, v
			default:
				return yamlErr(n, "null is not a parameter value")
			}
		}
		return nil
	case yaml.AliasNode:
		return yamlErr(n, "aliases are not supported")
	}
	return yamlErr(n, "a mapping is not a parameter value")
}

// scalarInt32 accepts the int range and, like oead, the u32 range wrapped to int.
func scalarInt32(n *yaml.Node) (int32, error) {
	if n.Kind == yaml.ScalarNode && !isQuoted(n) {
		switch v := scalarValue(n).(type) {
		case int64:
			if v >= math.MinInt32 && v <= math.MaxUint32 {
				return int32(v), nil
			}
		case uint64:
			if v <= math.MaxUint32 {
				return int32(uint32(v)), nil
			}
		}
	}
	return 0, yamlErr(n, "%q is not a 32-bit integer", n.Value)
}

// located adds to an error of the reader (a *yamltext.Error, made by NodeErrorf) the path of
// its node and the package's prefix; other errors have theirs.
func located(err error, doc *yaml.Node) error {
	if e, ok := err.(*yamltext.Error); ok {
		return fmt.Errorf("aamp: yaml: %w", yamltext.Locate(e, doc))
	}
	return err
}
