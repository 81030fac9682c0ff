package yamltext

import (
	"fmt"
	"math"

	"go.yaml.in/yaml/v3"
)

// The readers of YAML (byml.FromYAML, aamp.FromYAML) parse with yaml.v3, which holds a
// node of about 250 bytes (measured) for every scalar, collection and alias of the text: a
// 64 MiB flow sequence of zeros is 32 million nodes and exhausted memory. So a text is
// checked twice. CheckText, before parsing, estimates from the text alone how many nodes it
// holds, never fewer than yaml.v3 will make, and refuses a text past MaxNodes; this bounds
// what the parse holds. CheckTree, after parsing, refuses a tree nesting deeper than
// MaxDepth and, for a reader that copies what aliases refer to, one whose aliases expand it
// past a limit: every alias counts as the whole node it refers to, as a document written out
// without aliases would hold it. (byml's reader shares an aliased node instead, as BYML
// files share offsets, and bounds what the shared tree weighs itself.)
const (
	// MaxNodes bounds the estimated nodes of a text: 1.66 times the largest game file's
	// estimate (ActorInfo's 4.3 MB of YAML makes 388,084 nodes, estimated 632,595; the
	// corpus's texts are estimated at 1.6 to 2.1 times their nodes, base64 blobs more). A
	// text at the limit costs yaml.v3 at most about 270 MB of allocation.
	MaxNodes = 1 << 20
	// MaxExpandedNodes bounds the nodes of a document once its aliases are expanded, for a
	// reader that copies aliased nodes.
	MaxExpandedNodes = 4 * MaxNodes
	// MaxDepth bounds nesting, as byml's reader does; game files nest fewer than 20 levels.
	MaxDepth = 1024
)

// CheckText refuses a text whose estimated nodes exceed MaxNodes, without parsing it.
func CheckText(text []byte) error {
	if n := EstimateNodes(text); n > MaxNodes {
		return &LimitError{Msg: fmt.Sprintf("the text holds about %d nodes, more than the %d allowed", n, MaxNodes)}
	}
	return nil
}

// EstimateNodes bounds from above the nodes yaml.v3 makes of text, reading only its
// characters: each line holding anything counts two (a node and the block collection it may
// open), each block entry "- " or key "? " two (a key may come with an implied null value),
// each flow entry two (after a comma: a key and its implied value, or a single-pair mapping
// and its key), each opening bracket three (the collection and its first entry), and each
// alias "*" and value ":" one. Quotes, comments and block scalars are not told apart from
// the rest: their characters may only add to the count, so no text can hide nodes from it.
func EstimateNodes(text []byte) int {
	n := 1 // the document
	lineHasContent := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		next := byte('\n')
		if i+1 < len(text) {
			next = text[i+1]
		}
		spaceNext := next == ' ' || next == '\t' || next == '\n' || next == '\r'
		switch c {
		case '\n', '\r':
			if lineHasContent {
				n += 2
			}
			lineHasContent = false
			continue
		case ' ', '\t':
			continue
		case '[', '{':
			n += 3
		case ',':
			n += 2
		case '*':
			n++
		case '-', '?':
			if spaceNext {
				n += 2
			}
		case ':':
			if spaceNext || next == ',' || next == ']' || next == '}' {
				n++
			}
		}
		lineHasContent = true
	}
	if lineHasContent {
		n += 2
	}
	return n
}

// CheckTree refuses a parsed document that nests deeper than MaxDepth or, unless
// maxExpanded is 0, whose aliases expand it past maxExpanded nodes (MaxExpandedNodes for a
// reader that copies aliased nodes). It visits each node once, so its own work is bounded
// by the text's nodes.
func CheckTree(doc *yaml.Node, maxExpanded int64) error {
	c := treeCheck{size: map[*yaml.Node]int64{}, max: maxExpanded}
	if c.max == 0 {
		c.max = math.MaxInt64 / 2 // the raw count, bounded by CheckText, cannot come near
	}
	_, err := c.walk(doc, 0)
	return err
}

type treeCheck struct {
	size map[*yaml.Node]int64 // expanded node counts of nodes aliases refer to
	max  int64
}

// walk returns the nodes under n, n included, with every alias counted as its target.
func (c *treeCheck) walk(n *yaml.Node, depth int) (int64, error) {
	if depth > MaxDepth {
		return 0, &LimitError{Line: n.Line, Column: n.Column, Msg: fmt.Sprintf("the document nests deeper than %d levels", MaxDepth)}
	}
	if n.Kind == yaml.AliasNode {
		if n.Alias == nil {
			return 1, nil
		}
		if s, ok := c.size[n.Alias]; ok {
			return s, nil
		}
		// An alias to a node not yet closed (a node containing its own alias): the readers
		// refuse it; count it as one here.
		return 1, nil
	}
	total := int64(1)
	for _, child := range n.Content {
		s, err := c.walk(child, depth+1)
		if err != nil {
			return 0, err
		}
		if total += s; total > c.max {
			return 0, &LimitError{Line: n.Line, Column: n.Column, Msg: fmt.Sprintf("with its aliases expanded the document holds more than %d nodes", c.max)}
		}
	}
	if n.Anchor != "" {
		c.size[n] = total
	}
	return total, nil
}
