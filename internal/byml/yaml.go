package byml

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"ainbeditor/internal/jsontext"
	"ainbeditor/internal/yamltext"
)

// YAML tags, as oead and roead write them. BymlLibrary's spellings are read too.
const (
	tagUInt    = "!u"
	tagInt64   = "!l"
	tagUInt64  = "!ul"
	tagDouble  = "!f64"
	tagBinary  = "!!binary"
	tagFile    = "!!file"
	tagHash32  = "!h" // roead's tag for hash maps with 32-bit keys
	tagHash64  = "!h64"
	tagHash32b = "!h32" // BymlLibrary's
	// A hash whose keys are not sorted or repeat (Node.KeepOrder): no other tool has a tag
	// for it, as none keeps such a hash. The mapping's order is the entries' order, and its
	// keys may repeat.
	tagUnsorted       = "!unsorted"
	tagHash32Unsorted = "!h-unsorted"
	tagHash64Unsorted = "!h64-unsorted"
)

// mappingTag is the tag a hash of kind k is written with.
func mappingTag(k Kind, keepOrder bool) string {
	switch {
	case k == HashMap32 && keepOrder:
		return tagHash32Unsorted
	case k == HashMap32:
		return tagHash32
	case k == HashMap64 && keepOrder:
		return tagHash64Unsorted
	case k == HashMap64:
		return tagHash64
	case keepOrder:
		return tagUnsorted
	}
	return ""
}

const (
	// flowMax is the largest container oead writes in flow style (when it holds no
	// containers).
	flowMax = 10
	// flowDepth is the depth from which every container is written in flow style. Block
	// style indents each line by the depth, so deep documents would grow quadratically;
	// flow style keeps the text proportional to the tree. Real files nest less deeply.
	flowDepth = 16
)

// ToYAML writes the document as YAML in oead's conventions (see the package doc). An empty
// document is "null". Strings and keys must be valid UTF-8.
func (d *Document) ToYAML() ([]byte, error) {
	return NodeToYAMLLimit(d.Root, jsontext.NoLimit)
}

// ToYAMLLimit is ToYAML stopping with a *jsontext.TooLargeError as soon as the text would be
// more than limit bytes (see AppendJSON).
func (d *Document) ToYAMLLimit(limit int) ([]byte, error) {
	return NodeToYAMLLimit(d.Root, limit)
}

// NodeToYAML writes one node (nil meaning null) as a YAML document. The text is the one
// yaml.v3's encoder gives for the equivalent yaml.Node tree (TestYAMLTextLikeYAMLv3), written
// straight into one growing buffer: the encoder kept every event of the document and took
// some 280 bytes per byte of a large file.
func NodeToYAML(n *Node) ([]byte, error) { return NodeToYAMLLimit(n, jsontext.NoLimit) }

// NodeToYAMLLimit is NodeToYAML within a budget of limit bytes (see ToYAMLLimit).
func NodeToYAMLLimit(n *Node, limit int) ([]byte, error) {
	e := yamlWriter{w: yamltext.NewWriter(nil), limit: limit}
	if n != nil {
		e.uses, e.anchors = uses(n), map[*Node]string{}
	}
	if n == nil {
		e.w.Plain("", "null")
	} else if err := e.node(n, 0, "root"); err != nil {
		return nil, err
	}
	if out := e.w.Finish(); len(out) <= limit {
		return out, nil
	}
	return nil, &jsontext.TooLargeError{Limit: limit}
}

type yamlWriter struct {
	w       *yamltext.Writer
	scratch []byte
	// A node used from several places (see uses) is written at its first use with an
	// anchor and as an alias elsewhere, so shared subtrees are written once.
	uses    map[*Node]int
	anchors map[*Node]string
	limit   int
}

// within checks the budget after a member was written (see jsonWriter.within).
func (e *yamlWriter) within() error {
	if len(e.w.Buf) > e.limit {
		return &jsontext.TooLargeError{Limit: e.limit}
	}
	return nil
}

// str writes s so that it reads back as a string: quoted whenever the plain text would
// read as something else, by oead's rules or yaml.v3's.
func (e *yamlWriter) str(s, path string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("byml: %s: string %q is not UTF-8, YAML cannot hold it", path, s)
	}
	if k, _, _ := resolvePlain(s); k != String {
		e.w.Quoted("", s)
	} else {
		e.w.String(s)
	}
	return nil
}

// plain writes the text in e.scratch.
func (e *yamlWriter) plain(tag string) {
	e.w.PlainBytes(tag, e.scratch)
}

func (e *yamlWriter) binary(tag string, data []byte) {
	e.scratch = base64.StdEncoding.AppendEncode(e.scratch[:0], data)
	e.plain(tag)
}

func (e *yamlWriter) node(n *Node, depth int, path string) error {
	if depth > maxDepth {
		return fmt.Errorf("byml: %s: containers nest deeper than %d levels", path, maxDepth)
	}
	if a, ok := e.anchors[n]; ok {
		e.w.Alias(a)
		return nil
	}
	if e.uses[n] > 1 {
		a := "s" + strconv.Itoa(len(e.anchors))
		e.anchors[n] = a
		e.w.Anchor(a)
	}
	// A long value is refused before it is written (see jsonWriter.node).
	if len(e.w.Buf)+len(n.Str)+base64.StdEncoding.EncodedLen(len(n.Data)) > e.limit {
		return &jsontext.TooLargeError{Limit: e.limit}
	}
	b := e.scratch[:0]
	switch n.Kind {
	case Null:
		e.w.Plain("", "null")
	case String:
		return e.str(n.Str, path)
	case Binary:
		e.binary(tagBinary, n.Data)
	case File:
		e.w.BeginMapping(tagFile, true)
		e.w.String("Alignment")
		e.scratch = strconv.AppendUint(b, uint64(n.Align), 10)
		e.plain("")
		e.w.String("Data")
		e.binary(tagBinary, n.Data)
		e.w.End()
	case Bool:
		e.w.Plain("", strconv.FormatBool(n.Bits != 0))
	case Int:
		e.scratch = strconv.AppendInt(b, int64(int32(n.Bits)), 10)
		e.plain("")
	case Float:
		e.scratch = yamltext.AppendFloat(b, float64(n.FloatValue()), 32)
		e.plain("")
	case UInt:
		const hex = "0123456789abcdef"
		b = append(b, "0x"...)
		for s := 28; s >= 0; s -= 4 {
			b = append(b, hex[n.Bits>>s&0xF])
		}
		e.scratch = b
		e.plain(tagUInt)
	case Int64:
		e.scratch = strconv.AppendInt(b, int64(n.Bits), 10)
		e.plain(tagInt64)
	case UInt64:
		e.scratch = strconv.AppendUint(b, n.Bits, 10)
		e.plain(tagUInt64)
	case Double:
		e.scratch = yamltext.AppendFloat(b, n.DoubleValue(), 64)
		e.plain(tagDouble)
	case Array:
		e.w.BeginSequence("", flow(n, depth))
		for i, it := range n.Items {
			err := e.node(it, depth+1, path)
			if err == nil {
				err = e.within()
			}
			if err != nil {
				return inside(err, strconv.Itoa(i))
			}
		}
		e.w.End()
	case Hash, HashMap32, HashMap64:
		e.w.BeginMapping(mappingTag(n.Kind, n.KeepOrder), flow(n, depth))
		for _, en := range n.Entries {
			if n.Kind == Hash {
				if err := e.str(en.Key, path); err != nil {
					return err
				}
			} else {
				e.scratch = strconv.AppendUint(e.scratch[:0], en.Hash, 10)
				e.plain("")
			}
			err := e.node(en.Value, depth+1, path)
			if err == nil {
				err = e.within()
			}
			if err != nil {
				return inside(err, pointerKey(n, en))
			}
		}
		e.w.End()
	default:
		return fmt.Errorf("byml: %s: invalid kind %d", path, n.Kind)
	}
	return nil
}

// flow reports whether a container is written in flow style: oead's rule (at most 10
// members, none of them containers) or deep enough that block indentation would add up.
func flow(n *Node, depth int) bool {
	if depth >= flowDepth {
		return true
	}
	if len(n.Items)+len(n.Entries) > flowMax {
		return false
	}
	for _, it := range n.Items {
		if it.Kind.IsContainer() {
			return false
		}
	}
	for _, e := range n.Entries {
		if e.Value.Kind.IsContainer() {
			return false
		}
	}
	return true
}

// resolvePlain reads an untagged, unquoted scalar the way oead does: true/false, null (not ~), a
// number with a decimal point (or .inf/.nan) as Float, an integer (decimal or 0x hex) as Int
// (or the smallest of UInt, Int64, UInt64 that holds it), anything else as a string.
func resolvePlain(s string) (Kind, uint64, bool) {
	switch s {
	case "true":
		return Bool, 1, true
	case "false":
		return Bool, 0, true
	case "null":
		return Null, 0, true
	}
	if s == "" || !strings.ContainsRune("0123456789+-.", rune(s[0])) {
		return String, 0, false
	}
	if strings.ContainsRune(s, '.') {
		if f, ok := parseFloat(s, 32); ok {
			return Float, uint64(math.Float32bits(float32(f))), true
		}
	}
	if neg, u, ok := parseInt(s); ok {
		switch {
		case neg && u <= 1<<31:
			return Int, uint64(int64(-int64(u))), true
		case neg && u <= 1<<63:
			return Int64, uint64(-int64(u)), true
		case neg:
			return String, 0, false
		case u <= math.MaxInt32:
			return Int, u, true
		case u <= math.MaxUint32:
			return UInt, u, true
		case u <= math.MaxInt64:
			return Int64, u, true
		default:
			return UInt64, u, true
		}
	}
	return String, 0, false
}

// parseInt reads an optionally signed decimal or 0x-prefixed hexadecimal integer.
func parseInt(s string) (neg bool, u uint64, ok bool) {
	if s == "" {
		return false, 0, false
	}
	switch s[0] {
	case '-':
		neg, s = true, s[1:]
	case '+':
		s = s[1:]
	}
	base := 10
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		base, s = 16, s[2:]
	}
	if s == "" || s[0] == '+' || s[0] == '-' || strings.IndexByte(s, '_') >= 0 {
		return false, 0, false
	}
	u, err := strconv.ParseUint(s, base, 64)
	return neg, u, err == nil
}

func parseFloat(s string, bits int) (float64, bool) {
	switch s {
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return math.Inf(1), true
	case "-.inf", "-.Inf", "-.INF":
		return math.Inf(-1), true
	case ".nan", ".NaN", ".NAN":
		return quietNaN, true
	}
	if strings.IndexByte(s, '_') >= 0 || strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, bits)
	if err != nil {
		// Out of range parses to ±Inf with an error; the text was a number all the same.
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	if math.IsNaN(f) {
		// strconv also reads "nan" and "NaN", as math.NaN, whose payload bit the text forms
		// do not keep: every NaN read from text is quietNaN.
		return quietNaN, true
	}
	return f, true
}

// FromYAML reads a YAML document in oead's conventions (see the package doc). The document
// it returns has version 2, little endian, and no recorded layout: set Version and
// BigEndian before writing if the file needs others. Hash keys are sorted; a repeated key
// is an error. Anchors and aliases become shared nodes.
func FromYAML(text []byte) (*Document, error) {
	root, err := NodeFromYAML(text)
	if err != nil {
		return nil, err
	}
	return &Document{Version: 2, Root: root}, nil
}

// NodeFromYAML reads a YAML document into a node; "null" or an empty document gives nil.
func NodeFromYAML(text []byte) (*Node, error) {
	if err := yamltext.CheckText(text); err != nil {
		return nil, fmt.Errorf("byml: yaml: %w", err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(text, &doc); err != nil {
		return nil, fmt.Errorf("byml: yaml: %w", yamltext.ParseError(err))
	}
	// Aliases become shared nodes, not copies: checkExpansion bounds what they weigh.
	if err := yamltext.CheckTree(&doc, 0); err != nil {
		return nil, fmt.Errorf("byml: yaml: %w", err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, nil
	}
	r := &yamlReader{memo: map[*yaml.Node]*Node{}, open: map[*yaml.Node]bool{}}
	y := doc.Content[0]
	for y.Kind == yaml.AliasNode && y.Alias != nil {
		y = y.Alias
	}
	if y.Kind == yaml.ScalarNode && y.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0 && (y.Value == "null" || y.Value == "") {
		return nil, nil
	}
	n, err := r.node(y)
	if err != nil {
		return nil, located(err, &doc)
	}
	if !n.Kind.IsContainer() {
		return nil, located(r.errorf(y, "the document is a %s; a BYML root must be an array or a hash", n.Kind), &doc)
	}
	// Aliases share nodes like a BYML file shares offsets: bound what they expand to.
	if err := checkExpansion(n, len(text)); err != nil {
		return nil, err
	}
	return n, nil
}

type yamlReader struct {
	memo map[*yaml.Node]*Node
	open map[*yaml.Node]bool
}

func (r *yamlReader) errorf(y *yaml.Node, format string, args ...any) error {
	return yamltext.NodeErrorf(y, format, args...)
}

func (r *yamlReader) node(y *yaml.Node) (*Node, error) {
	if y.Kind == yaml.AliasNode {
		if y.Alias == nil {
			return nil, r.errorf(y, "alias to nothing")
		}
		y = y.Alias
	}
	if n, ok := r.memo[y]; ok {
		return n, nil
	}
	if r.open[y] {
		return nil, r.errorf(y, "alias refers to a node that contains it")
	}
	r.open[y] = true
	n, err := r.convert(y)
	delete(r.open, y)
	if err != nil {
		return nil, err
	}
	if y.Anchor != "" {
		r.memo[y] = n
	}
	return n, nil
}

func (r *yamlReader) convert(y *yaml.Node) (*Node, error) {
	tag := ""
	if y.Style&yaml.TaggedStyle != 0 {
		tag = y.Tag
	}
	switch y.Kind {
	case yaml.SequenceNode:
		if tag != "" && tag != "!!seq" {
			return nil, r.errorf(y, "unknown sequence tag %s", tag)
		}
		n := &Node{Kind: Array, Items: make([]*Node, len(y.Content))}
		for i, c := range y.Content {
			v, err := r.node(c)
			if err != nil {
				return nil, err
			}
			n.Items[i] = v
		}
		return n, nil
	case yaml.MappingNode:
		switch tag {
		case "", "!!map":
			return r.mapping(y, Hash, false)
		case tagHash32, tagHash32b:
			return r.mapping(y, HashMap32, false)
		case tagHash64:
			return r.mapping(y, HashMap64, false)
		case tagUnsorted:
			return r.mapping(y, Hash, true)
		case tagHash32Unsorted:
			return r.mapping(y, HashMap32, true)
		case tagHash64Unsorted:
			return r.mapping(y, HashMap64, true)
		case tagFile:
			return r.fileMap(y)
		}
		return nil, r.errorf(y, "unknown mapping tag %s", tag)
	case yaml.ScalarNode:
		return r.scalar(y, tag)
	}
	return nil, r.errorf(y, "unexpected YAML node kind %d", y.Kind)
}

// mapping reads a hash of kind k. keepOrder (the !unsorted tags) keeps the mapping's order
// and repeated keys; otherwise the entries are sorted and a repeated key is an error.
func (r *yamlReader) mapping(y *yaml.Node, k Kind, keepOrder bool) (*Node, error) {
	if len(y.Content)%2 != 0 {
		return nil, r.errorf(y, "mapping with an odd number of nodes")
	}
	n := &Node{Kind: k, KeepOrder: keepOrder, Entries: make([]Entry, 0, len(y.Content)/2)}
	for i := 0; i < len(y.Content); i += 2 {
		ky := y.Content[i]
		for ky.Kind == yaml.AliasNode && ky.Alias != nil {
			ky = ky.Alias
		}
		if ky.Kind != yaml.ScalarNode {
			return nil, r.errorf(ky, "mapping key is not a scalar")
		}
		v, err := r.node(y.Content[i+1])
		if err != nil {
			return nil, err
		}
		e := Entry{Key: ky.Value, Value: v}
		if k != Hash {
			neg, h, ok := parseInt(ky.Value)
			if !ok || neg || k == HashMap32 && h > math.MaxUint32 {
				return nil, r.errorf(ky, "hash map key %q is not an unsigned %d-bit integer", ky.Value, map[Kind]int{HashMap32: 32, HashMap64: 64}[k])
			}
			e = Entry{Hash: h, Value: v}
		}
		n.Entries = append(n.Entries, e)
	}
	if err := sortEntries(n); err != nil {
		return nil, r.errorf(y, "%v", err)
	}
	return n, nil
}

// fileMap reads a File node written as {Alignment: n, Data: !!binary ...}.
func (r *yamlReader) fileMap(y *yaml.Node) (*Node, error) {
	n := &Node{Kind: File}
	var haveA, haveD bool
	for i := 0; i+1 < len(y.Content); i += 2 {
		k, v := y.Content[i], y.Content[i+1]
		if v.Kind != yaml.ScalarNode {
			return nil, r.errorf(v, "!!file %s is not a scalar", k.Value)
		}
		switch k.Value {
		case "Alignment":
			neg, a, ok := parseInt(v.Value)
			if !ok || neg || a > math.MaxUint32 {
				return nil, r.errorf(v, "!!file alignment %q is not a 32-bit unsigned integer", v.Value)
			}
			if a&(a-1) != 0 {
				return nil, r.errorf(v, "!!file alignment %d is not a power of two", a)
			}
			n.Align, haveA = uint32(a), true
		case "Data":
			b, err := decodeBase64(v.Value)
			if err != nil {
				return nil, r.errorf(v, "!!file data: %v", err)
			}
			n.Data, haveD = b, true
		default:
			return nil, r.errorf(k, "!!file has no field %q (only Alignment and Data)", k.Value)
		}
	}
	if !haveA || !haveD {
		return nil, r.errorf(y, "!!file needs both Alignment and Data")
	}
	return n, nil
}

func decodeBase64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, s)
	return base64.StdEncoding.DecodeString(s)
}

func (r *yamlReader) scalar(y *yaml.Node, tag string) (*Node, error) {
	s := y.Value
	intTag := func(k Kind, min int64, max uint64) (*Node, error) {
		neg, u, ok := parseInt(s)
		if !ok || neg && (min == 0 || u > uint64(-min)) || !neg && u > max {
			return nil, r.errorf(y, "%s value %q is not an integer in range", tag, s)
		}
		if neg {
			u = uint64(-int64(u))
		}
		if k == Int {
			u = uint64(int64(int32(u)))
		}
		return &Node{Kind: k, Bits: u}, nil
	}
	switch tag {
	case "":
	case "!!str":
		return &Node{Kind: String, Str: s}, nil
	case tagUInt, "!u32":
		return intTag(UInt, 0, math.MaxUint32)
	case tagInt64, "!s64":
		return intTag(Int64, math.MinInt64, math.MaxInt64)
	case tagUInt64, "!u64":
		return intTag(UInt64, 0, math.MaxUint64)
	case "!s", "!s32":
		return intTag(Int, math.MinInt32, math.MaxInt32)
	case "!!int":
		k, bits, ok := resolvePlain(s)
		if !ok || k != Int && k != UInt && k != Int64 && k != UInt64 {
			return nil, r.errorf(y, "!!int value %q is not an integer", s)
		}
		return &Node{Kind: k, Bits: bits}, nil
	case tagDouble, "!d":
		f, ok := parseFloat(s, 64)
		if !ok {
			return nil, r.errorf(y, "%s value %q is not a number", tag, s)
		}
		return NewDouble(f), nil
	case "!f", "!f32", "!!float":
		f, ok := parseFloat(s, 32)
		if !ok {
			return nil, r.errorf(y, "%s value %q is not a number", tag, s)
		}
		return NewFloat(float32(f)), nil
	case "!!bool":
		if s != "true" && s != "false" {
			return nil, r.errorf(y, "!!bool value %q is not true or false", s)
		}
		return NewBool(s == "true"), nil
	case "!!null":
		return NewNull(), nil
	case tagBinary:
		b, err := decodeBase64(s)
		if err != nil {
			return nil, r.errorf(y, "!!binary: %v", err)
		}
		return NewBinary(b), nil
	case tagFile:
		// roead writes file data as a bare base64 scalar and 0x1000 as its alignment.
		b, err := decodeBase64(s)
		if err != nil {
			return nil, r.errorf(y, "!!file: %v", err)
		}
		return NewFile(b, 0x1000), nil
	default:
		return nil, r.errorf(y, "unknown scalar tag %s", tag)
	}
	if y.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return &Node{Kind: String, Str: s}, nil
	}
	k, bits, _ := resolvePlain(s)
	if k == String {
		return &Node{Kind: String, Str: s}, nil
	}
	return &Node{Kind: k, Bits: bits}, nil
}

// located adds to an error of the reader (a *yamltext.Error, made by NodeErrorf) the path of
// its node and the package's prefix; other errors have theirs.
func located(err error, doc *yaml.Node) error {
	if e, ok := err.(*yamltext.Error); ok {
		return fmt.Errorf("byml: yaml: %w", yamltext.Locate(e, doc))
	}
	return err
}
