package aamp

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// The YAML writer before yamltext, kept as the test oracle: it builds a yaml.Node tree and
// encodes it with yaml.v3.

// oracleYAML is the old ToYAML: it dumps the document in oead's text conventions (see the package doc).
func oracleYAML(pio *ParameterIO) ([]byte, error) {
	if err := pio.validate(); err != nil {
		return nil, err
	}
	e := &oracleEmitter{nm: NewNamer(pio)}
	root := mapping("!io")
	root.Content = append(root.Content,
		plainStr("version"), intNode(strconv.FormatUint(uint64(pio.Version), 10)),
		plainStr("type"), e.strNode(pio.Type),
		plainStr("param_root"), e.list(&pio.Root))
	if e.err != nil {
		return nil, e.err
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return nil, fmt.Errorf("aamp: yaml: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("aamp: yaml: %w", err)
	}
	return buf.Bytes(), nil
}

type oracleEmitter struct {
	nm  *Namer
	err error
}

func mapping(tag string) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: tag}
}

func plainStr(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
func intNode(s string) *yaml.Node  { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: s} }

// strNode is an untagged string that reads back as a string: quoted whenever the plain
// form would be taken for a bool, number or null.
func (e *oracleEmitter) strNode(s string) *yaml.Node {
	if !utf8.ValidString(s) && e.err == nil {
		e.err = fmt.Errorf("aamp: yaml: string %q is not valid UTF-8", s)
	}
	n := plainStr(s)
	if _, isStr := resolvePlain(s).(string); !isStr || s == "" {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

func (e *oracleEmitter) key(h Name, index int, parent Name) *yaml.Node {
	if s, ok := e.nm.Name(h, index, parent); ok {
		return e.strNode(s)
	}
	return intNode(strconv.FormatUint(uint64(h), 10))
}

func (e *oracleEmitter) list(l *ParameterList) *yaml.Node {
	n := mapping("!list")
	objs := mapping("")
	for i, o := range l.Objects {
		obj := mapping("!obj")
		for j := range o.Params {
			p := &o.Params[j]
			obj.Content = append(obj.Content, e.key(p.Name, j, o.Name), e.value(p))
		}
		objs.Content = append(objs.Content, e.key(o.Name, i, l.Name), obj)
	}
	lists := mapping("")
	for i, c := range l.Lists {
		lists.Content = append(lists.Content, e.key(c.Name, i, l.Name), e.list(c))
	}
	if len(objs.Content) == 0 {
		objs.Style = yaml.FlowStyle
	}
	if len(lists.Content) == 0 {
		lists.Style = yaml.FlowStyle
	}
	n.Content = append(n.Content, plainStr("objects"), objs, plainStr("lists"), lists)
	return n
}

// formatFloat writes the shortest form that reads back as the same float32, always with a
// '.' so that it is not taken for an int.
func formatFloat(f float32) string {
	switch {
	case math.IsNaN(float64(f)):
		return ".nan"
	case math.IsInf(float64(f), 1):
		return ".inf"
	case math.IsInf(float64(f), -1):
		return "-.inf"
	}
	s := strconv.FormatFloat(float64(f), 'g', -1, 32)
	if strings.ContainsRune(s, '.') {
		return s
	}
	if i := strings.IndexByte(s, 'e'); i >= 0 {
		return s[:i] + ".0" + s[i:]
	}
	return s + ".0"
}

func floatNode(f float32) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: formatFloat(f)}
}

func seq(tag string, items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: tag, Style: yaml.FlowStyle, Content: items}
}

func floatSeq(tag string, fs []float32) *yaml.Node {
	n := seq(tag)
	for _, f := range fs {
		n.Content = append(n.Content, floatNode(f))
	}
	return n
}

func (e *oracleEmitter) value(p *Parameter) *yaml.Node {
	switch v := p.Value.(type) {
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v)}
	case float32:
		return floatNode(v)
	case int32:
		return intNode(strconv.FormatInt(int64(v), 10))
	case uint32:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!u", Value: "0x" + strconv.FormatUint(uint64(v), 16)}
	case Vec2:
		return floatSeq("!vec2", v[:])
	case Vec3:
		return floatSeq("!vec3", v[:])
	case Vec4:
		return floatSeq("!vec4", v[:])
	case Color:
		return floatSeq("!color", v[:])
	case Quat:
		return floatSeq("!quat", v[:])
	case []Curve:
		n := seq("!curve")
		for _, c := range v {
			n.Content = append(n.Content, intNode(strconv.FormatUint(uint64(c.A), 10)), intNode(strconv.FormatUint(uint64(c.B), 10)))
			for _, f := range c.Floats {
				n.Content = append(n.Content, floatNode(f))
			}
		}
		return n
	case []int32:
		n := seq("!buffer_int")
		for _, x := range v {
			n.Content = append(n.Content, intNode(strconv.FormatInt(int64(x), 10)))
		}
		return n
	case []float32:
		return floatSeq("!buffer_f32", v)
	case []uint32:
		n := seq("!buffer_u32")
		for _, x := range v {
			n.Content = append(n.Content, intNode(strconv.FormatUint(uint64(x), 10)))
		}
		return n
	case []byte:
		n := seq("!buffer_binary")
		for _, x := range v {
			n.Content = append(n.Content, intNode(strconv.Itoa(int(x))))
		}
		return n
	case string:
		var tag string
		switch p.Type {
		case TypeString32:
			tag = "!str32"
		case TypeString64:
			tag = "!str64"
		case TypeString256:
			tag = "!str256"
		default:
			return e.strNode(v)
		}
		n := e.strNode(v)
		n.Tag = tag
		return n
	}
	return nil // unreachable: validate checked every value
}
