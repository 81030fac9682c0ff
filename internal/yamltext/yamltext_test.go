package yamltext

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// oracle encodes y the way the BYML and AAMP dumps used to: yaml.v3, indent 2, compact
// sequences.
func oracle(t *testing.T, y *yaml.Node) ([]byte, bool) {
	t.Helper()
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	enc.CompactSeqIndent()
	if err := enc.Encode(y); err != nil {
		return nil, false
	}
	if err := enc.Close(); err != nil {
		return nil, false
	}
	return b.Bytes(), true
}

// builder drives a Writer and builds the yaml.Node tree that stands for the same calls.
type builder struct {
	w     *Writer
	stack []*yaml.Node
	root  *yaml.Node
}

func (b *builder) add(n *yaml.Node) {
	if len(b.stack) == 0 {
		b.root = n
		return
	}
	p := b.stack[len(b.stack)-1]
	p.Content = append(p.Content, n)
}

func (b *builder) keyNext() bool {
	if len(b.stack) == 0 {
		return false
	}
	p := b.stack[len(b.stack)-1]
	return p.Kind == yaml.MappingNode && len(p.Content)%2 == 0
}

func (b *builder) str(s string) {
	b.w.String(s)
	b.add(&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s})
}

func (b *builder) quoted(tag, s string) {
	b.w.Quoted(tag, s)
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: yaml.DoubleQuotedStyle}
	if tag != "" {
		n.Tag, n.Style = tag, yaml.DoubleQuotedStyle|yaml.TaggedStyle
	}
	b.add(n)
}

func (b *builder) plain(tag, s string) {
	b.w.Plain(tag, s)
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: s, Style: yaml.TaggedStyle}
	if tag == "" {
		n.Tag, n.Style = "!!int", 0 // callers write untagged plain scalars for numbers
	}
	b.add(n)
}

func (b *builder) begin(seq, flow bool, tag string) {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if seq {
		n.Kind, n.Tag = yaml.SequenceNode, "!!seq"
		b.w.BeginSequence(tag, flow)
	} else {
		b.w.BeginMapping(tag, flow)
	}
	if tag != "" {
		n.Tag, n.Style = tag, yaml.TaggedStyle
	}
	if flow {
		n.Style |= yaml.FlowStyle
	}
	b.add(n)
	b.stack = append(b.stack, n)
}

func (b *builder) end() {
	n := b.stack[len(b.stack)-1]
	if n.Kind == yaml.MappingNode && len(n.Content)%2 == 1 {
		b.str("v")
	}
	b.w.End()
	b.stack = b.stack[:len(b.stack)-1]
}

var tags = []string{"", "!u", "!!binary", "!str32", "!h", "!io", "!vec3"}

const maxDepth = 8

// build makes a document from ops, taking scalar texts from texts in turn.
func build(ops []byte, texts []string) *builder {
	b := &builder{w: NewWriter(nil)}
	next := 0
	text := func() string {
		s := texts[next%len(texts)]
		next++
		return s
	}
	for i, op := range ops {
		tag := tags[int(op>>3)%len(tags)]
		if b.root != nil && len(b.stack) == 0 {
			break
		}
		if b.keyNext() && op&7 >= 3 && op&7 <= 6 {
			op = 0 // keys are scalars
		}
		if len(b.stack) >= maxDepth && op&7 >= 3 && op&7 <= 6 {
			op = 7
		}
		switch op & 7 {
		case 0:
			b.str(text())
		case 1:
			b.quoted(tag, text())
		case 2:
			if tag == "" {
				b.plain("", strconv.Itoa(int(op)*1000-i))
			} else {
				b.plain(tag, text())
			}
		case 3, 4:
			b.begin(false, op&7 == 4, tag)
		case 5, 6:
			b.begin(true, op&7 == 6, tag)
		case 7:
			if len(b.stack) > 0 {
				b.end()
			}
		}
	}
	if b.root == nil {
		b.str(text())
	}
	for len(b.stack) > 0 {
		b.end()
	}
	return b
}

// same checks that a read-back node holds what was written: the same kinds, texts and
// tags, and strings written untagged read as strings.
func same(t *testing.T, want, got *yaml.Node) {
	t.Helper()
	if want.Kind != got.Kind || len(want.Content) != len(got.Content) {
		t.Fatalf("read back kind %v with %d members, wrote %v with %d", got.Kind, len(got.Content), want.Kind, len(want.Content))
	}
	if want.Kind == yaml.ScalarNode {
		if got.Value != want.Value {
			t.Fatalf("read back %q, wrote %q", got.Value, want.Value)
		}
		if wt := want.Tag; (wt == "!!str" || want.Style&yaml.TaggedStyle != 0) && got.Tag != wt {
			t.Fatalf("%q read back with tag %s, wrote %s", want.Value, got.Tag, wt)
		}
	} else if want.Style&yaml.TaggedStyle != 0 && got.Tag != want.Tag {
		t.Fatalf("container read back with tag %s, wrote %s", got.Tag, want.Tag)
	}
	for i := range want.Content {
		same(t, want.Content[i], got.Content[i])
	}
}

func check(t *testing.T, ops []byte, texts []string) {
	t.Helper()
	b := build(ops, texts)
	got := b.w.Finish()
	want, ok := oracle(t, b.root)
	if !ok {
		return // yaml.v3 refuses the tree (for instance a key it cannot write)
	}
	// yaml.v3's text is the reference wherever yaml.v3 can read it back; where it cannot (a
	// literal block whose first line starts with a tab), only reading back counts.
	if !bytes.Equal(got, want) && yaml.Unmarshal(want, new(yaml.Node)) == nil {
		t.Fatalf("ops %v texts %q:\ngot:\n%s\nyaml.v3:\n%s", ops, texts, got, want)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(got, &doc); err != nil {
		t.Fatalf("yaml.v3 cannot read the text: %v\n%s", err, got)
	}
	same(t, b.root, doc.Content[0])
	in := 0
	for _, s := range texts {
		in += len(s)
	}
	// Every op writes at most one string, and build writes one more when the ops leave no
	// document (no ops at all, or only ends): hence len(ops)+1 strings.
	if limit := (2*maxDepth + 8) * ((len(ops)+1)*(in+16) + 16); len(got) > limit {
		t.Fatalf("%d bytes of text from %d ops and %d bytes of strings (limit %d)", len(got), len(ops), in, limit)
	}
}

// nasty are strings whose quoting yaml.v3 decides by one rule or another.
var nasty = []string{
	"", "a", "Walk", "hello world", "true", "True", "FALSE", "yes", "no", "on", "off", "y", "n",
	"null", "Null", "~", "<<", "1", "-1", "+1", "0x1F", "0o17", "0b101", "-0b1", "1_000", "1e5",
	"1E+5", ".5", "5.", "-.inf", ".nan", ".NaN", "1.5", "-", "--", "---", "...", "- a", "-a",
	"? a", "?a", ": a", ":a", "a:b", "a: b", "a:", "a #b", "a#b", "#a", ",a", "a,b", "[a]",
	"a[0]", "{a}", "&a", "*a", "!a", "|a", ">a", "'a", "\"a", "%a", "@a", "`a", " a", "a ",
	" ", "a\tb", "\ta", "a\nb", "a\n", "\na", "a\n\n", "\n", "a \nb", "a\n b", "a\rb", "a\u0085b",
	"a\u2028b", "a\u2029b", "\u00a0", "a\u00a0b", "é", "日本語", "歩く 人", "😀", "a😀",
	"\ufeffa b", "\ufeff", "\x00", "\x01\x7f", "\x1b", "a'b", "it's", "a\\b", "a\"b",
	"2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10", "1234-5", "12:30",
	"0.0", "-0", "+", "1__0", "0x", "0xg", "Infinity", "nan", "NaN", strings.Repeat("k", 130),
	strings.Repeat("long key ", 20), "a\n\tb", "  two\nlines  ", "x\n  indented\n", "\t\nb", "\ta\nb",
}

func TestScalarsLikeYAMLv3(t *testing.T) {
	for _, s := range nasty {
		for op := 0; op < 3; op++ {
			for ti := range tags {
				o := byte(op | ti<<3)
				// Alone, as a block mapping key and value, in a block sequence, and in
				// flow containers.
				check(t, []byte{o}, []string{s})
				check(t, []byte{3, o, 0}, []string{s, s})
				check(t, []byte{3, 0, o}, []string{"k", s})
				check(t, []byte{5, o, o}, []string{s})
				check(t, []byte{6, o, o}, []string{s})
				check(t, []byte{4, o, o}, []string{s})
				check(t, []byte{5, 3, 0, o, 3, 0, o}, []string{"k", s})
				check(t, []byte{3, 0, 5, o, 5, o}, []string{"k", s})
			}
		}
	}
}

func TestShapesLikeYAMLv3(t *testing.T) {
	for _, ops := range [][]byte{
		{3, 0, 0, 0, 3, 0, 0, 0, 5, 0, 0, 7, 7, 0, 6, 0, 0, 7},
		{5, 5, 0, 5, 0, 7, 7, 3, 0, 0, 7, 4, 0, 0, 7, 6, 7, 3, 7},
		{3, 0, 5, 3, 0, 0, 0, 0, 7, 3, 0, 0, 7, 7, 0, 3 | 4<<3, 0, 0, 7},
		{3, 0, 5 | 1<<3, 0, 7, 0, 3 | 4<<3, 0, 5, 0, 7},
		{5, 3 | 4<<3, 0, 0, 7, 5 | 1<<3, 0, 7, 6 | 6<<3, 0 | 2<<3, 7},
		{6, 4, 0, 5, 0, 7, 7, 6, 7, 4, 7},
		{3, 0, 3, 0, 3, 0, 3, 0, 5, 5, 5, 0},
		{3},
		{5},
		{4, 0, 3, 0, 7},
	} {
		check(t, ops, []string{"a", "b c", "1", "x\ny", strings.Repeat("k", 129)})
	}
}

func TestResolvesToString(t *testing.T) {
	// Against yaml.v3's own reading of every nasty string, written plain.
	for _, s := range nasty {
		var n yaml.Node
		if strings.ContainsAny(s, "\n\r\t\"'#:{}[],&*!|>%@`?\x00\x01\x1b\x7f\u0085\u2028\u2029\ufeff") || s == "" || s != strings.TrimSpace(s) || strings.HasPrefix(s, "-") && !strings.ContainsAny(s[1:], "0123456789.") {
			continue
		}
		if err := yaml.Unmarshal([]byte(s), &n); err != nil || len(n.Content) != 1 {
			continue
		}
		if got, want := ResolvesToString(s), n.Content[0].Tag == "!!str"; got != want {
			t.Errorf("ResolvesToString(%q) = %v, yaml.v3 reads it with tag %s", s, got, n.Content[0].Tag)
		}
	}
	for s, want := range map[string]bool{
		"": false, "a": true, "true": false, "yes": true, "1": false, "0x1F": false, "1e5": false,
		"1_0": false, "0b2": true, "-0o7": false, ".5": false, ".": true, "2001-12-14": false,
		"2001-13-14": true, "<<": false, "+.inf": false, "inf": true, "-": true, "1.2.3": true,
	} {
		if got := ResolvesToString(s); got != want {
			t.Errorf("ResolvesToString(%q) = %v, want %v", s, got, want)
		}
	}
}

func FuzzYAMLText(f *testing.F) {
	for i, s := range nasty {
		f.Add([]byte{byte(i), 3, byte(i) >> 1, byte(i) >> 2, 5, byte(i), 6, byte(i), 7}, s, nasty[(i*7)%len(nasty)])
	}
	f.Add([]byte{3, 0, 5, 3, 0, 0, 7, 7}, "a: b", "x\ny")
	f.Fuzz(func(t *testing.T, ops []byte, a, b string) {
		if len(ops) > 64 {
			ops = ops[:64]
		}
		a, b = strings.ToValidUTF8(a, "?"), strings.ToValidUTF8(b, "?")
		if !utf8.ValidString(a) || !utf8.ValidString(b) {
			t.Fatal("ToValidUTF8")
		}
		check(t, ops, []string{a, b, a + b})
	})
}
