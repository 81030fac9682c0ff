package yamltext

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"ainbeditor/internal/testalloc"
)

// nodes counts a parsed tree's nodes, aliases as one.
func nodes(n *yaml.Node) int {
	c := 1
	for _, k := range n.Content {
		c += nodes(k)
	}
	return c
}

func TestEstimateNodes(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"", 1},
		{"[0,0,0]", 10},         // the document, '[' three, two commas two each, the line
		{"a: b\nc: d\n", 7},     // two lines, two values
		{"- - - a\n", 9},        // the line, three entries
		{"a: 'x, y: z'\n", 7},   // quoted text counts too
		{"x: *a\n", 5},          // an alias
		{"key:value\n", 3},      // no value without a space after the colon
		{"{a: [b, c]}\n", 12},   // '{', ':', '[', ',', the line
		{"{0}", 6},              // a key with an implied null value
		{"[a: b]", 7},           // a single-pair mapping
		{"\n\n  \n# c, d\n", 5}, // blank lines count nothing; a comment's characters do
	} {
		got := EstimateNodes([]byte(c.text))
		if got != c.want {
			t.Errorf("EstimateNodes(%q) = %d, want %d", c.text, got, c.want)
		}
		var doc yaml.Node
		if yaml.Unmarshal([]byte(c.text), &doc) == nil && nodes(&doc) > got {
			t.Errorf("%q: %d nodes, estimated %d", c.text, nodes(&doc), got)
		}
	}
}

// A flow sequence of zeros, 2 bytes a node, is refused before it is parsed, from its
// characters alone. (64 MiB of it, 32 million nodes, exhausted memory in yaml.v3.)
func TestCheckTextFlowZeros(t *testing.T) {
	// The document, '[', the line and two a comma: MaxNodes/2-3 commas fit.
	const fit = MaxNodes/2 - 3
	text := append([]byte("["), bytes.Repeat([]byte("0,"), fit+1)...)
	text = append(text, "0]"...)
	var err error
	n := testalloc.Least(3, func() { err = CheckText(text) })
	want := fmt.Sprintf("the text holds about %d nodes, more than the %d allowed", MaxNodes+2, MaxNodes)
	var le *LimitError
	if !errors.As(err, &le) || err.Error() != want {
		t.Fatalf("CheckText: %v, want %q", err, want)
	}
	if n > 4<<10 {
		t.Errorf("checking %d bytes allocated %d", len(text), n)
	}
	text = append([]byte("["), bytes.Repeat([]byte("0,"), fit)...)
	if err := CheckText(append(text, "0]"...)); err != nil {
		t.Errorf("at the limit: %v", err)
	}
}

// laughs is a document of levels anchored sequences, each holding width aliases to the one
// before: width^levels nodes written out, in a few kilobytes.
func laughs(levels, width int) []byte {
	var b bytes.Buffer
	b.WriteString("l0: &l0 [0]\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d,", i-1), width), ","))
	}
	return b.Bytes()
}

func TestCheckTreeAliases(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal(laughs(12, 10), &doc); err != nil {
		t.Fatal(err)
	}
	var err error
	n := testalloc.Bytes(func() { err = CheckTree(&doc, MaxExpandedNodes) })
	// Level 7 expands to 1+10*(1+10*(...)) = 11,111,112 nodes; level 6 to 1,111,112 fits.
	// yaml.v3 places an anchored node at its anchor.
	want := fmt.Sprintf("line 8 column 5: with its aliases expanded the document holds more than %d nodes", MaxExpandedNodes)
	if err == nil || err.Error() != want {
		t.Fatalf("CheckTree: %v, want %q", err, want)
	}
	if n > 64<<10 {
		t.Errorf("checking allocated %d bytes", n)
	}
	doc = yaml.Node{}
	if err := yaml.Unmarshal(laughs(5, 10), &doc); err != nil {
		t.Fatal(err)
	}
	if err := CheckTree(&doc, MaxExpandedNodes); err != nil {
		t.Errorf("111,112 nodes expanded: %v", err)
	}
	// A reader that shares aliased nodes counts each alias once.
	doc = yaml.Node{}
	if err := yaml.Unmarshal(laughs(12, 10), &doc); err != nil {
		t.Fatal(err)
	}
	if err := CheckTree(&doc, 0); err != nil {
		t.Errorf("shared: %v", err)
	}
}

func TestCheckTreeDepth(t *testing.T) {
	for _, c := range []struct {
		depth int
		want  string
	}{
		// The document and the block mapping come first: bracket k is at depth k+1.
		{MaxDepth - 1, ""},
		{MaxDepth, "line 1 column 1027: the document nests deeper than 1024 levels"},
	} {
		text := "a: " + strings.Repeat("[", c.depth) + strings.Repeat("]", c.depth)
		var doc yaml.Node
		if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
			t.Fatal(err)
		}
		err := CheckTree(&doc, 0)
		if c.want == "" && err != nil || c.want != "" && (err == nil || err.Error() != c.want) {
			t.Errorf("depth %d: %v, want %q", c.depth, err, c.want)
		}
	}
}

// The estimate is never below the nodes yaml.v3 makes of a text, and checking a parsed
// tree never fails on a tree within the limits.
func FuzzEstimateNodes(f *testing.F) {
	for _, s := range []string{"[0,0,0]", "a: b\nc: [d, e]\n", "- - a\n- b: c\n", "x: &a [1]\ny: *a\n",
		"? a\n: b\n", "a: |\n  text, more\n", "{a: b, c: {d: e}}", "\"a #\", 0, 0", "- [a, {b: c}]\n", string(laughs(3, 3))} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		est := EstimateNodes(text)
		var doc yaml.Node
		if yaml.Unmarshal(text, &doc) != nil {
			return
		}
		if n := nodes(&doc); n > est {
			t.Fatalf("%d nodes, estimated %d", n, est)
		}
		if err := CheckTree(&doc, MaxExpandedNodes); err != nil && len(text) < 1000 {
			var le *LimitError
			if !errors.As(err, &le) || !strings.Contains(err.Error(), "deeper") && !strings.Contains(err.Error(), "expanded") {
				t.Fatalf("CheckTree: %v", err)
			}
		}
	})
}
