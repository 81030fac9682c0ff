package byml

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// The YAML writer before yamltext, kept as the test oracle: it builds a yaml.Node tree and
// encodes it with yaml.v3, large block containers member by member (which
// TestYAMLChunkedSameText shows gives the text of one encoder for the whole tree).

// oracleYAML is the old NodeToYAML.
func oracleYAML(n *Node) ([]byte, error) {
	var y *yaml.Node
	if n == nil {
		y = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	} else {
		var err error
		sh := &oracleShare{uses: uses(n), first: map[*Node]*yaml.Node{}}
		if y, err = toYAML(n, 0, "root", sh); err != nil {
			return nil, err
		}
	}
	var buf bytes.Buffer
	if err := emitBlock(&buf, y, ""); err != nil {
		return nil, fmt.Errorf("byml: yaml: %w", err)
	}
	return buf.Bytes(), nil
}

// chunkNodes is the subtree size from which a block container is written member by member.
var chunkNodes = 512

// yamlSize counts the nodes of a YAML tree, stopping at limit.
func yamlSize(y *yaml.Node, limit int) int {
	n := 1
	for _, c := range y.Content {
		if n += yamlSize(c, limit-n); n >= limit {
			break
		}
	}
	return n
}

// chunkable reports whether y is a block container worth writing member by member.
func chunkable(y *yaml.Node) bool {
	// An anchored container is written by one encoder: writing its members one by one
	// would drop the anchor.
	return (y.Kind == yaml.SequenceNode || y.Kind == yaml.MappingNode) && y.Style&yaml.FlowStyle == 0 && y.Anchor == "" &&
		len(y.Content) > 0 && yamlSize(y, chunkNodes) >= chunkNodes
}

// emitBlock writes y with every line indented by prefix. yaml.v3's encoder keeps every event
// of a document until the document ends, so one encoder for a large file holds hundreds of
// megabytes; large block containers are therefore written one member at a time, each member
// through a fresh encoder, which gives the same text (TestYAMLChunkedSameText).
func emitBlock(buf *bytes.Buffer, y *yaml.Node, prefix string) error {
	if !chunkable(y) {
		return encodeIndented(buf, y, prefix)
	}
	tag := ""
	if y.Style&yaml.TaggedStyle != 0 {
		tag = y.Tag
	}
	if y.Kind == yaml.SequenceNode {
		if tag != "" {
			return encodeIndented(buf, y, prefix)
		}
		for _, item := range y.Content {
			if item.Kind == yaml.MappingNode && item.Style&yaml.TaggedStyle == 0 && chunkable(item) {
				// "- " takes the place of the indentation of the mapping's first line.
				var b bytes.Buffer
				if err := emitBlock(&b, item, prefix+"  "); err != nil {
					return err
				}
				out := b.Bytes()
				buf.WriteString(prefix)
				buf.WriteString("- ")
				buf.Write(out[len(prefix)+2:])
				continue
			}
			one := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{item}}
			if err := encodeIndented(buf, one, prefix); err != nil {
				return err
			}
		}
		return nil
	}
	if tag != "" {
		buf.WriteString(prefix)
		buf.WriteString(tag)
		buf.WriteString("\n")
	}
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if chunkable(v) {
			if key, ok := keyText(k); ok {
				buf.WriteString(prefix)
				buf.WriteString(key)
				buf.WriteString(":")
				vtag := ""
				if v.Style&yaml.TaggedStyle != 0 {
					vtag = v.Tag
					buf.WriteString(" ")
					buf.WriteString(vtag)
				}
				buf.WriteString("\n")
				inner := prefix + "  "
				if v.Kind == yaml.SequenceNode && vtag == "" {
					inner = prefix // compact sequences: "- " under the key
				}
				if err := emitBlock(buf, v, inner); err != nil {
					return err
				}
				continue
			}
		}
		one := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{k, v}}
		if err := encodeIndented(buf, one, prefix); err != nil {
			return err
		}
	}
	return nil
}

// keyText returns how a mapping key is written, when it fits on one line as a simple key.
func keyText(k *yaml.Node) (string, bool) {
	var b bytes.Buffer
	one := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{k, scalar("!!str", "x")}}
	if err := encodeIndented(&b, one, ""); err != nil {
		return "", false
	}
	s, ok := strings.CutSuffix(b.String(), ": x\n")
	if !ok || strings.ContainsRune(s, '\n') || strings.HasPrefix(s, "?") {
		return "", false
	}
	return s, true
}

func encodeIndented(buf *bytes.Buffer, y *yaml.Node, prefix string) error {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	enc.CompactSeqIndent()
	if err := enc.Encode(y); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	if prefix == "" {
		buf.Write(b.Bytes())
		return nil
	}
	for line := range bytes.Lines(b.Bytes()) {
		if len(line) > 1 {
			buf.WriteString(prefix)
		}
		buf.Write(line)
	}
	return nil
}

func scalar(tag, value string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
}

func tagged(tag, value string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value, Style: yaml.TaggedStyle}
}

// stringNode writes s so that it reads back as a string: quoted whenever the plain text
// would read as something else.
func stringNode(s, path string) (*yaml.Node, error) {
	if !utf8.ValidString(s) {
		return nil, fmt.Errorf("byml: %s: string %q is not UTF-8, YAML cannot hold it", path, s)
	}
	y := scalar("!!str", s)
	if k, _, _ := resolvePlain(s); k != String {
		y.Style = yaml.DoubleQuotedStyle
	}
	return y, nil
}

// oracleShare gives nodes used from several places an anchor at their first use and an
// alias at the others.
type oracleShare struct {
	uses  map[*Node]int
	first map[*Node]*yaml.Node
	next  int
}

func toYAML(n *Node, depth int, path string, sh *oracleShare) (*yaml.Node, error) {
	if y, ok := sh.first[n]; ok {
		return &yaml.Node{Kind: yaml.AliasNode, Alias: y, Value: y.Anchor}, nil
	}
	// Numbered at the first use, before the members, as NodeToYAML numbers them.
	name := ""
	if sh.uses[n] > 1 {
		name = "s" + strconv.Itoa(sh.next)
		sh.next++
	}
	y, err := toYAMLNode(n, depth, path, sh)
	if err == nil && name != "" {
		y.Anchor = name
		sh.first[n] = y
	}
	return y, err
}

func toYAMLNode(n *Node, depth int, path string, sh *oracleShare) (*yaml.Node, error) {
	switch n.Kind {
	case Null:
		return scalar("!!null", "null"), nil
	case String:
		return stringNode(n.Str, path)
	case Binary:
		return tagged(tagBinary, base64.StdEncoding.EncodeToString(n.Data)), nil
	case File:
		m := &yaml.Node{Kind: yaml.MappingNode, Tag: tagFile, Style: yaml.TaggedStyle | yaml.FlowStyle}
		m.Content = []*yaml.Node{
			scalar("!!str", "Alignment"), scalar("!!int", strconv.FormatUint(uint64(n.Align), 10)),
			scalar("!!str", "Data"), tagged(tagBinary, base64.StdEncoding.EncodeToString(n.Data)),
		}
		return m, nil
	case Bool:
		return scalar("!!bool", strconv.FormatBool(n.Bits != 0)), nil
	case Int:
		return scalar("!!int", strconv.FormatInt(int64(int32(n.Bits)), 10)), nil
	case Float:
		return scalar("!!float", formatFloat(float64(n.FloatValue()), 32)), nil
	case UInt:
		return tagged(tagUInt, fmt.Sprintf("0x%08x", uint32(n.Bits))), nil
	case Int64:
		return tagged(tagInt64, strconv.FormatInt(int64(n.Bits), 10)), nil
	case UInt64:
		return tagged(tagUInt64, strconv.FormatUint(n.Bits, 10)), nil
	case Double:
		return tagged(tagDouble, formatFloat(n.DoubleValue(), 64)), nil
	case Array:
		y := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: make([]*yaml.Node, len(n.Items))}
		if flow(n, depth) {
			y.Style = yaml.FlowStyle
		}
		for i, it := range n.Items {
			c, err := toYAML(it, depth+1, path, sh)
			if err != nil {
				return nil, err
			}
			y.Content[i] = c
		}
		return y, nil
	case Hash, HashMap32, HashMap64:
		y := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: make([]*yaml.Node, 0, 2*len(n.Entries))}
		if tag := mappingTag(n.Kind, n.KeepOrder); tag != "" {
			y.Tag, y.Style = tag, yaml.TaggedStyle
		}
		if flow(n, depth) {
			y.Style |= yaml.FlowStyle
		}
		for _, e := range n.Entries {
			var k *yaml.Node
			if n.Kind == Hash {
				var err error
				if k, err = stringNode(e.Key, path); err != nil {
					return nil, err
				}
			} else {
				k = scalar("!!int", strconv.FormatUint(e.Hash, 10))
			}
			v, err := toYAML(e.Value, depth+1, path, sh)
			if err != nil {
				return nil, err
			}
			y.Content = append(y.Content, k, v)
		}
		return y, nil
	}
	return nil, fmt.Errorf("byml: %s: invalid kind %d", path, n.Kind)
}

// formatFloat is the float formatting of the old writer.
func formatFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return ".nan"
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, bits)
	if strings.ContainsRune(s, '.') {
		return s
	}
	if i := strings.IndexByte(s, 'e'); i >= 0 {
		return s[:i] + ".0" + s[i:]
	}
	return s + ".0"
}
