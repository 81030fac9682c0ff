package yamltext

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Error is a YAML text a reader refuses, and where: every reader of YAML in the project
// returns one (wrapped), so that callers such as the server point at the place without
// reading messages.
type Error struct {
	Line, Column int    // 1-based; 0 when not known
	Path         string // the keys and indices from the root to the node ("Actors/2/Name"); may be empty
	Msg          string

	node *yaml.Node // the node at fault, until Locate names its path
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		b.WriteString("line ")
		b.WriteString(strconv.Itoa(e.Line))
		if e.Column > 0 {
			b.WriteString(" column ")
			b.WriteString(strconv.Itoa(e.Column))
		}
	}
	if e.Path != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("(at ")
		b.WriteString(e.Path)
		b.WriteByte(')')
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// LimitError is a text or tree past one of the limits.
type LimitError = Error

// NodeErrorf is the error of node n, at its line and column; Locate adds its path. Readers
// return it unwrapped until the path is known.
func NodeErrorf(n *yaml.Node, format string, args ...any) *Error {
	return &Error{Line: n.Line, Column: n.Column, Msg: fmt.Sprintf(format, args...), node: n}
}

// ParseError makes an error of yaml.v3's parser an *Error. The parser gives its line only in
// its message ("yaml: line 3: did not find expected key"); this is the one place that reads
// it there. Errors of other kinds are returned as they are.
func ParseError(err error) error {
	var e *Error
	if err == nil || errors.As(err, &e) {
		return err
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	out := &Error{Msg: msg}
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ": "); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil && n > 0 {
				out.Line, out.Msg = n, rest[i+2:]
			}
		}
	}
	return out
}

// Locate names the path of the node e (made by NodeErrorf) is about, searching the document
// doc from its root, and returns e. Paths are found only when an error is reported, so
// readers keep no path as they read. Readers call it before wrapping e, since a wrapping
// error keeps the text e had.
func Locate(e *Error, doc *yaml.Node) *Error {
	if e.node != nil && e.Path == "" {
		var steps []string
		if pathTo(doc, e.node, &steps, 0) {
			e.Path = strings.Join(steps, "/")
		}
	}
	return e
}

// pathTo appends the steps from n down to target, reporting whether target is below n. It
// does not follow aliases (an aliased node is found where its anchor is) and stops at
// MaxDepth.
func pathTo(n, target *yaml.Node, steps *[]string, depth int) bool {
	if n == target {
		return true
	}
	if depth > MaxDepth {
		return false
	}
	switch n.Kind {
	case yaml.DocumentNode:
		return len(n.Content) > 0 && pathTo(n.Content[0], target, steps, depth+1)
	case yaml.SequenceNode:
		for i, c := range n.Content {
			*steps = append(*steps, strconv.Itoa(i))
			if pathTo(c, target, steps, depth+1) {
				return true
			}
			*steps = (*steps)[:len(*steps)-1]
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			*steps = append(*steps, n.Content[i].Value)
			if n.Content[i] == target || pathTo(n.Content[i+1], target, steps, depth+1) {
				return true
			}
			*steps = (*steps)[:len(*steps)-1]
		}
	}
	return false
}
