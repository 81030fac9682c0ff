package ainb

import (
	"fmt"
	"strings"
)

// Problem is one reason a File cannot be written, or (from Warnings) one thing a File says
// that names nothing but is kept and written as it is.
type Problem struct {
	// Path names the offending value in the terms of the community JSON, e.g.
	// "Nodes[12].Parameters.Inputs.Float[0].Node Index".
	Path string
	// Element is the index of the element (node) the problem is in, or -1.
	Element int
	Msg     string
}

func (p Problem) String() string { return p.Path + ": " + p.Msg }

// ValidationError lists every problem Validate found.
type ValidationError struct{ Problems []Problem }

func (e *ValidationError) Error() string { return ProblemsMessage("ainb: invalid file: ", e.Problems) }

// ProblemsMessage is the message of an error that lists problems: prefix, then the first ten
// problems separated by "; " and how many more there are. It is ValidationError's, and the
// message of the editor document's problems.
func ProblemsMessage[P fmt.Stringer](prefix string, problems []P) string {
	var b strings.Builder
	b.WriteString(prefix)
	for i, p := range problems {
		if i == 10 {
			fmt.Fprintf(&b, "; and %d more", len(problems)-10)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return b.String()
}

type validator struct {
	f        *File
	problems []Problem
	warnings []Problem
}

func (v *validator) add(elem int, path, format string, args ...any) {
	v.problems = append(v.problems, Problem{Path: path, Element: elem, Msg: fmt.Sprintf(format, args...)})
}

func (v *validator) warn(elem int, path, format string, args ...any) {
	v.warnings = append(v.warnings, Problem{Path: path, Element: elem, Msg: fmt.Sprintf(format, args...)})
}

// NoNode is the node index the games store in a plug that leads nowhere: the False branch of
// a BoolSelector or an S32Selector's default branch left empty.
const NoNode = 0x7fff

// Validate checks everything the writer relies on: indices that point at something, plug and
// output types that agree, and counts that fit their fields.
//
// A few references that name nothing are not problems but warnings (see Warnings): the games
// ship files with them and load those files, and the model keeps the stored numbers, so the
// writer gives the same bytes back.
func (f *File) Validate() error {
	v := &validator{f: f}
	v.check()
	if len(v.problems) > 0 {
		return &ValidationError{Problems: v.problems}
	}
	return nil
}

// Warnings lists what the file stores that names nothing, which Validate accepts and the
// writer keeps as stored: a child or jump plug whose node index names no node (the games store
// NoNode for an empty branch), and an input source naming a node the file lacks or an output
// index past the source node's outputs of the input's type (Tears of the Kingdom and Super
// Mario Bros. Wonder ship both). Paths are Validate's; nil when there are none. A file Validate
// refuses may have warnings too.
func (f *File) Warnings() []Problem {
	v := &validator{f: f}
	v.check()
	return v.warnings
}

func (v *validator) check() {
	f := v.f
	switch f.Version {
	case Version404, Version407, Version408:
	default:
		v.add(-1, "Version", "unsupported version %#x (want 0x404, 0x407 or 0x408)", f.Version)
		return
	}
	n := len(f.Elements)
	if n > 0x7fff {
		v.add(-1, "Nodes", "%d nodes, at most 32767 fit", n)
	}
	if f.Version >= Version407 {
		if id, ok := CategoryID(f.Category); !ok {
			v.add(-1, "Category", "unknown category %q (want AI, Logic, Sequence, UniqueSequence or UniqueSequenceSPL)", f.Category)
		} else if id != f.CategoryID {
			v.add(-1, "CategoryID", "%d does not match category %q (%d)", f.CategoryID, f.Category, id)
		}
	}
	for i, c := range f.Commands {
		if c.Root < 0 || c.Root >= n {
			v.add(-1, fmt.Sprintf("Commands[%d].Root Node Index", i), "%d out of range (%d nodes)", c.Root, n)
		}
		if c.Secondary < -1 || c.Secondary >= n {
			v.add(-1, fmt.Sprintf("Commands[%d].Secondary Root Node Index", i), "%d out of range (%d nodes)", c.Secondary, n)
		}
	}
	nExpr := 0
	if f.Expressions != nil {
		nExpr = expressionCount(f.Expressions)
	}
	for i := range f.Elements {
		v.element(i, nExpr)
	}
	for i := range f.Attachments {
		for t := range NumParamTypes {
			for j, pr := range f.Attachments[i].Properties.Of(t) {
				v.flags(-1, func() string { return fmt.Sprintf("Attachments[%d].Properties.%s[%d]", i, t.String(), j) }, pr.Flags, nExpr)
			}
		}
	}
	refs := map[string]bool{}
	for t := range NumBlackboardTypes {
		ps := f.Blackboard.Params[t]
		if len(ps) > 0 && t == BBU32 && f.Version < Version408 {
			v.add(-1, "Blackboard.U32", "U32 blackboard parameters need version 0x408")
		}
		if len(ps) > 0xffff {
			v.add(-1, "Blackboard", "%d parameters of one type, at most 65535 fit", len(ps))
		}
		for _, p := range ps {
			if p.File != "" {
				refs[p.File] = true
			}
			if p.Inherit > DontInherit {
				v.add(-1, "Blackboard."+p.Name, "inherit mode %d out of range", p.Inherit)
			}
		}
	}
	if len(refs) > 128 {
		v.add(-1, "Blackboard", "%d distinct file references, at most 128 fit", len(refs))
	}
	for i, r := range f.EnumRelocations {
		if r.Target != nil && !v.validRef(r.Target) {
			v.add(-1, fmt.Sprintf("EnumRelocations[%d].Target", i), "%+v names no property or input value", *r.Target)
		}
	}
	if f.Replacement != nil {
		for i, r := range f.Replacement.Entries {
			if r.Type > RemoveAttachment {
				v.add(-1, fmt.Sprintf("Replacement Table[%d].Type", i), "unknown replacement type %d", r.Type)
			}
			if int(r.Element) < 0 || int(r.Element) >= n {
				v.add(-1, fmt.Sprintf("Replacement Table[%d].Node Index", i), "%d out of range (%d nodes)", r.Element, n)
			}
			if r.Type == ReplaceChild && (int(r.New) < 0 || int(r.New) >= n) {
				v.add(-1, fmt.Sprintf("Replacement Table[%d].Replacement Node Index", i), "%d out of range (%d nodes)", r.New, n)
			}
		}
	}
}

func (v *validator) flags(elem int, path func() string, fl ParamFlags, nExpr int) {
	if fl.IsExpression() && fl.Index() >= nExpr {
		v.add(elem, path()+".Expression Index", "%d out of range (%d expressions)", fl.Index(), nExpr)
	}
}

// Paths are formatted only when something is wrong: validation runs before every write and
// must stay cheap on large files.

func (v *validator) element(i, nExpr int) {
	f := v.f
	e := &f.Elements[i]
	n := len(f.Elements)
	base := func() string { return fmt.Sprintf("Nodes[%d]", i) }
	if len(e.Attachments) > 0xffff {
		v.add(i, base()+".Attachments", "%d attachments, at most 65535 fit", len(e.Attachments))
	}
	for j, a := range e.Attachments {
		if a < 0 || a >= len(f.Attachments) {
			v.add(i, fmt.Sprintf("%s.Attachments[%d]", base(), j), "%d out of range (%d attachments)", a, len(f.Attachments))
		}
	}
	for j, q := range e.Queries {
		if q < 0 || q >= n {
			v.add(i, fmt.Sprintf("%s.Queries[%d]", base(), j), "%d out of range (%d nodes)", q, n)
		} else if f.Elements[q].Flags&FlagQuery == 0 {
			v.add(i, fmt.Sprintf("%s.Queries[%d]", base(), j), "node %d is not a query node", q)
		}
	}
	if f.Version < Version407 && e.StateInfo == nil {
		v.add(i, base()+".State Info", "every node of a 0x404 file needs state info")
	}
	for t := range NumParamTypes {
		for j, pr := range e.Properties.Of(t) {
			if pr.Flags.IsExpression() {
				v.flags(i, func() string { return fmt.Sprintf("%s.Properties.%s[%d]", base(), t.String(), j) }, pr.Flags, nExpr)
			}
		}
		inList := e.Inputs.Of(t)
		for j := range inList {
			in := &inList[j]
			path := func() string { return fmt.Sprintf("%s.Parameters.Inputs.%s[%d]", base(), t.String(), j) }
			if !in.IsMulti() {
				v.source(i, path, t, in.Source, false, nExpr)
				continue
			}
			if len(in.Sources) > 0x7fff {
				v.add(i, path()+".Sources", "%d sources, at most 32767 fit", len(in.Sources))
			}
			for k, s := range in.Sources {
				v.source(i, func() string { return fmt.Sprintf("%s.Sources[%d]", path(), k) }, t, s, true, nExpr)
			}
		}
	}
	total := 0
	kinds := PlugKind(NumPlugKinds)
	if e.UnusedPlugs != nil {
		kinds = plugTables
	}
	for k := range kinds {
		ps := e.plugsOf(k)
		if len(ps) == 0 {
			continue
		}
		total += len(ps)
		path := func() string { return fmt.Sprintf("%s.Plugs.%s", base(), k.String()) }
		if k >= NumPlugKinds {
			path = func() string { return fmt.Sprintf("%s.UnusedPlugs[%d]", base(), k-NumPlugKinds) }
		}
		if len(ps) > 255 {
			v.add(i, path(), "%d plugs, at most 255 of one kind fit", len(ps))
		}
		for j, pl := range ps {
			if k == PlugJump && pl.Jump == nil {
				v.add(i, fmt.Sprintf("%s[%d]", path(), j), "jump plug without a jump")
			}
			// The node index is written back as stored, so one that names no node is kept:
			// the games use NoNode, and since the writer gives any other value back just as
			// well, a file from another tool that stored -1 opens too.
			if (k == PlugChild || k == PlugJump) && (pl.Node < 0 || int(pl.Node) >= n) {
				note := ""
				if pl.Node == NoNode {
					note = ", 0x7FFF: the games' empty branch"
				}
				v.warn(i, fmt.Sprintf("%s[%d].Node Index", path(), j), "%d names no node (%d nodes%s)", pl.Node, n, note)
			}
		}
	}
	// Every kind's base index is a byte, and kinds after the last used one start at the total.
	if total > 255 {
		v.add(i, base()+".Plugs", "%d plugs in all, at most 255 fit", total)
	}
}

func (v *validator) source(elem int, path func() string, t ParamType, s Source, multi bool, nExpr int) {
	f := v.f
	v.flags(elem, path, s.Flags, nExpr)
	if s.Node < 0 {
		return
	}
	// A source's node and output index are written back as stored, so one that names nothing
	// is a warning. A single source's output index is 15 bits (the top bit is SetBlackboard),
	// so a negative one would come back as another model: that alone is refused.
	if !multi && s.Output < 0 {
		v.add(elem, path()+".Output Index", "%d is negative (a single source's index is 0 to 32767)", s.Output)
		return
	}
	if int(s.Node) >= len(f.Elements) {
		v.warn(elem, path()+".Node Index", "%d names no node (%d nodes)", s.Node, len(f.Elements))
		return
	}
	outs := f.Elements[s.Node].Outputs.Of(t)
	if s.Output < 0 || int(s.Output) >= len(outs) {
		v.warn(elem, path()+".Output Index", "%d names no output: node %d has %d %s outputs", s.Output, s.Node, len(outs), t.String())
	}
}

// validRef reports whether a ValueRef names an existing non-pointer value.
func (v *validator) validRef(r *ValueRef) bool {
	f := v.f
	if r.Type < 0 || r.Type >= ParamPointer || r.Index < 0 {
		return false
	}
	switch {
	case r.Element >= len(f.Elements):
		return false
	case r.Element >= 0 && r.Input:
		return r.Index < len(f.Elements[r.Element].Inputs.Of(r.Type))
	case r.Element >= 0:
		return r.Index < len(f.Elements[r.Element].Properties.Of(r.Type))
	case r.Element == -1 && !r.Input && r.Attachment >= 0 && r.Attachment < len(f.Attachments):
		return r.Index < len(f.Attachments[r.Attachment].Properties.Of(r.Type))
	}
	return false
}
