package graph

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/chunk"
	"ainbeditor/internal/exb"
)

// Problem is one reason a document cannot be built, in the document's own terms.
type Problem struct {
	// Path names the offending value, e.g. "nodes[12].inputs[3].source.node".
	Path string
	// Node is the index in Document.Nodes of the node the problem is in, or -1.
	Node int
	// Line and Column locate a problem in a text (an expression function) or in the JSON; 0
	// when they do not apply.
	Line, Column int
	Msg          string
}

func (p Problem) String() string {
	s := p.Msg
	if p.Line > 0 && p.Column > 0 {
		s = fmt.Sprintf("line %d:%d: %s", p.Line, p.Column, s)
	} else if p.Line > 0 {
		s = fmt.Sprintf("line %d: %s", p.Line, s)
	}
	if p.Path != "" {
		s = p.Path + ": " + s
	}
	return s
}

// CheckFormat reports a document of another format (or version of this one).
func (d *Document) CheckFormat() error {
	if d.Format != Format {
		return &ProblemsError{[]Problem{{Path: "format", Node: -1, Msg: fmt.Sprintf("%q, want %q", d.Format, Format)}}}
	}
	return nil
}

// ProblemsError lists every problem found in a document.
type ProblemsError struct{ Problems []Problem }

func (e *ProblemsError) Error() string { return ainb.ProblemsMessage("document: ", e.Problems) }

// maxProblems bounds the list: a document broken everywhere needs no million-line answer.
const maxProblems = 1000

// Build turns a document into an AINB binary.
func (d *Document) Build() ([]byte, error) {
	return d.BuildInto(nil)
}

// BuildInto is Build writing the file into buf's storage (see ainb.File.BytesInto).
func (d *Document) BuildInto(buf []byte) ([]byte, error) {
	f, err := d.ToFile()
	if err != nil {
		return nil, err
	}
	return f.BytesInto(buf)
}

// ToFile checks a document and turns it into the AINB model: grouped by type, ids turned into
// indices, everything derived that the document leaves out, and the layout facts applied
// where what they describe is unchanged. Every problem is reported, as a *ProblemsError.
func (d *Document) ToFile() (*ainb.File, error) {
	c := &toCtx{d: d}
	f := c.file()
	if len(c.problems) > 0 {
		return nil, &ProblemsError{c.problems}
	}
	return f, nil
}

type toCtx struct {
	d        *Document
	problems []Problem
	facts    *fileFacts
	version  uint32

	// ids: node id -> index, by slice when ids are small, by map otherwise.
	idSlice []int32
	idMap   map[int]int

	bbType    []ainb.BlackboardType // per document blackboard index
	bbIndex   []int                 // index within its type
	bbCount   [ainb.NumBlackboardTypes]int
	nExpr     int
	nodeFacts map[int]*ownerFacts
	attFacts  map[int]*ownerFacts
	h         hasher

	// Blocks for the lists a conversion makes per node: the grouped lists while they are
	// filled, each plug's type and index within its type.
	propLists   chunk.Of[ainb.Property]
	inputLists  chunk.Of[ainb.Input]
	outputLists chunk.Of[ainb.Output]
	types       chunk.Of[ainb.ParamType]
	ints        chunk.Of[int]
	sources     chunk.Of[ainb.Source]

	// Blocks for the elements' and attachments' grouped lists.
	propBlocks   ainb.Blocks[ainb.Property]
	inputBlocks  ainb.Blocks[ainb.Input]
	outputBlocks ainb.Blocks[ainb.Output]
	plugBlocks   ainb.Blocks[ainb.Plug]
}

func (c *toCtx) add(node int, path string, format string, args ...any) {
	if len(c.problems) >= maxProblems {
		return
	}
	c.problems = append(c.problems, Problem{Path: path, Node: node, Msg: fmt.Sprintf(format, args...)})
}

// nodeErr adds a problem inside node i; sub is appended to "nodes[i]".
func (c *toCtx) nodeErr(i int, sub string, format string, args ...any) {
	c.add(i, "nodes["+strconv.Itoa(i)+"]"+sub, format, args...)
}

// index is the node index of id, or -1.
func (c *toCtx) index(id int) int {
	if c.idMap != nil {
		if i, ok := c.idMap[id]; ok {
			return i
		}
		return -1
	}
	if id < 0 || id >= len(c.idSlice) {
		return -1
	}
	return int(c.idSlice[id])
}

func hasNUL(s string) bool { return strings.IndexByte(s, 0) >= 0 }

// str checks a string that goes into the string pool.
func (c *toCtx) str(node int, path func() string, s string) {
	if hasNUL(s) {
		c.add(node, path(), "a string may not contain a NUL character")
	}
}

func (c *toCtx) file() *ainb.File {
	d := c.d
	if d.Format != Format {
		c.add(-1, "format", "%q, want %q", d.Format, Format)
	}
	switch d.Version {
	case ainb.Version404, ainb.Version407, ainb.Version408:
	default:
		c.add(-1, "version", "%d is not a supported version (want 1028, 1031 or 1032)", d.Version)
		return nil
	}
	c.version = d.Version
	facts, err := decodeLayout(d.Layout)
	if err != nil {
		c.add(-1, "layout", "%v", err)
		facts = &fileFacts{}
	}
	c.facts = facts
	f := &ainb.File{Version: d.Version, Filename: d.Filename, Category: d.Category,
		BlackboardID: d.ModuleCall.BlackboardID, ParentBlackboardID: d.ModuleCall.ParentBlackboardID,
		HasSection6C: d.HasSection6C}
	c.str(-1, func() string { return "filename" }, d.Filename)
	c.str(-1, func() string { return "category" }, d.Category)
	f.CategoryID = canonicalCategoryID(d.Version, d.Category)
	if d.Version >= ainb.Version407 {
		if _, ok := ainb.CategoryID(d.Category); !ok {
			c.add(-1, "category", "%q is not a category of this version (want AI, Logic, Sequence, UniqueSequence or UniqueSequenceSPL)", d.Category)
		}
	}
	if facts.categoryID != nil {
		f.CategoryID = *facts.categoryID
	}
	f.Layout = &ainb.Layout{Section6C: facts.section6C, Header54: facts.header54}
	setKept(f.Layout, facts.kept)
	if facts.hasStrings {
		f.Layout.Strings = facts.strings
	}
	if len(facts.tails) > 0 {
		if k := badTail(facts.strings, facts.tails); k >= 0 {
			c.add(-1, "layout", "string pool tail %d is not the end of any string of the pool: send the layout back as /api/parse gave it, or leave it out", k)
		} else {
			f.Layout.Tails = facts.tails
		}
	}

	c.ids()
	// The query table order names nodes; one that is gone drops out, and the writer lays the
	// table out in node order when the rest no longer names each node with queries once.
	for _, id := range facts.queryOrder {
		if k := c.index(id); k >= 0 {
			f.Layout.QueryOrder = append(f.Layout.QueryOrder, k)
		}
	}
	c.blackboard(f)
	c.expressions(f)

	f.Commands = make([]ainb.Command, len(d.Commands))
	for i, cm := range d.Commands {
		c.str(-1, func() string { return fmt.Sprintf("commands[%d].name", i) }, cm.Name)
		r := c.index(cm.Root)
		if r < 0 {
			c.add(-1, fmt.Sprintf("commands[%d].root", i), "no node with id %d", cm.Root)
		}
		s := -1
		if cm.Secondary != -1 {
			if s = c.index(cm.Secondary); s < 0 {
				c.add(-1, fmt.Sprintf("commands[%d].secondary", i), "no node with id %d (-1 for none)", cm.Secondary)
			}
		}
		f.Commands[i] = ainb.Command{Name: cm.Name, GUID: cm.GUID, Root: r, Secondary: s}
	}
	if len(d.Commands) > 0xffff {
		c.add(-1, "commands", "%d commands, at most 65535 fit", len(d.Commands))
	}

	c.nodeFacts = ownerMap(facts.nodes)
	c.attFacts = ownerMap(facts.atts)
	f.Attachments = make([]ainb.Attachment, len(d.Attachments))
	for i := range d.Attachments {
		c.attachment(i, &f.Attachments[i])
	}
	f.Elements = make([]ainb.Element, len(d.Nodes))
	for i := range d.Nodes {
		c.node(i, &f.Elements[i])
	}
	for i := range d.Nodes {
		for j, q := range d.Nodes[i].Queries {
			if k := c.index(q); k >= 0 && !d.Nodes[k].Query {
				c.nodeErr(i, fmt.Sprintf(".queries[%d]", j), "node %d is not a query node", q)
			}
		}
	}

	f.Modules = make([]ainb.Module, len(d.Modules))
	for i, m := range d.Modules {
		c.str(-1, func() string { return fmt.Sprintf("modules[%d].path", i) }, m.Path)
		c.str(-1, func() string { return fmt.Sprintf("modules[%d].category", i) }, m.Category)
		f.Modules[i] = ainb.Module{Path: m.Path, Category: m.Category, Instances: m.Instances}
	}
	c.replacements(f)
	c.relocations(f)
	if s := d.Section58; s != nil {
		c.str(-1, func() string { return "section58.description" }, s.Description)
		f.Section58 = &ainb.Section58{Description: s.Description, Unknown: s.Unknown}
	}
	return f
}

func ownerMap(os []*ownerFacts) map[int]*ownerFacts {
	if len(os) == 0 {
		return nil
	}
	m := make(map[int]*ownerFacts, len(os))
	for _, o := range os {
		m[o.key] = o
	}
	return m
}

func (c *toCtx) ids() {
	d := c.d
	n := len(d.Nodes)
	if n > 0x7fff {
		c.add(-1, "nodes", "%d nodes, at most 32767 fit", n)
	}
	maxID := -1
	for i := range d.Nodes {
		id := d.Nodes[i].ID
		if id < 0 || id > math.MaxInt32 {
			c.nodeErr(i, ".id", "%d is not an id (0 to 2147483647)", id)
			continue
		}
		maxID = max(maxID, id)
	}
	if maxID < 4*n+1024 {
		c.idSlice = make([]int32, maxID+1)
		for i := range c.idSlice {
			c.idSlice[i] = -1
		}
		for i := range d.Nodes {
			id := d.Nodes[i].ID
			if id < 0 || id > maxID {
				continue
			}
			if prev := c.idSlice[id]; prev >= 0 {
				c.nodeErr(i, ".id", "id %d is also the id of nodes[%d]", id, prev)
				continue
			}
			c.idSlice[id] = int32(i)
		}
		return
	}
	c.idMap = make(map[int]int, n)
	for i := range d.Nodes {
		id := d.Nodes[i].ID
		if id < 0 || id > math.MaxInt32 {
			continue
		}
		if prev, ok := c.idMap[id]; ok {
			c.nodeErr(i, ".id", "id %d is also the id of nodes[%d]", id, prev)
			continue
		}
		c.idMap[id] = i
	}
}

func (c *toCtx) blackboard(f *ainb.File) {
	d := c.d
	c.bbType = make([]ainb.BlackboardType, len(d.Blackboard))
	c.bbIndex = make([]int, len(d.Blackboard))
	var counts [ainb.NumBlackboardTypes]int
	refs := map[string]bool{}
	for i := range d.Blackboard {
		p := &d.Blackboard[i]
		path := func(s string) func() string { return func() string { return fmt.Sprintf("blackboard[%d].%s", i, s) } }
		t, ok := blackboardType(p.Type)
		if !ok {
			c.add(-1, path("type")(), "unknown type %q", p.Type)
			c.bbType[i] = 255
			continue
		}
		if t == ainb.BBU32 && c.version < ainb.Version408 {
			c.add(-1, path("type")(), "u32 parameters need version 1032 (0x408)")
		}
		c.bbType[i] = t
		c.bbIndex[i] = counts[t]
		counts[t]++
		c.str(-1, path("name"), p.Name)
		c.str(-1, path("notes"), p.Notes)
		c.str(-1, path("file"), p.File)
		if p.File != "" {
			refs[p.File] = true
		}
		inherit := -1
		for k, n := range inheritNames {
			if n == p.Inherit {
				inherit = k
			}
		}
		if inherit < 0 {
			c.add(-1, path("inherit")(), "%q, want root, parent or none", p.Inherit)
			inherit = 0
		}
		bp := ainb.BlackboardParam{Name: p.Name, Notes: p.Notes, Inherit: ainb.InheritMode(inherit), File: p.File}
		switch t {
		case ainb.BBString:
			c.str(-1, path("value"), p.Value.String)
			bp.Value.String = p.Value.String
		case ainb.BBS32:
			if p.Value.Int < math.MinInt32 || p.Value.Int > math.MaxInt32 {
				c.add(-1, path("value")(), "%d is out of the int range (32 bits, signed)", p.Value.Int)
			}
			bp.Value.Int = int32(p.Value.Int)
		case ainb.BBU32:
			if p.Value.Int < 0 || p.Value.Int > math.MaxUint32 {
				c.add(-1, path("value")(), "%d is out of the u32 range (0 to 4294967295)", p.Value.Int)
			}
			bp.Value.Int = int32(uint32(p.Value.Int))
		case ainb.BBBool:
			if p.Value.Int != 0 && p.Value.Int != 1 {
				c.add(-1, path("value")(), "a bool is 0 or 1")
			}
			bp.Value.Int = int32(p.Value.Int)
		case ainb.BBF32:
			bp.Value.Float = p.Value.Float
		case ainb.BBVec3f:
			bp.Value.Vec = p.Value.Vec
		}
		f.Blackboard.Params[t] = append(f.Blackboard.Params[t], bp)
	}
	for _, w := range c.facts.bbWords {
		if w.a < len(d.Blackboard) && c.bbType[w.a] == ainb.BBBool && d.Blackboard[w.a].Value.Int == 1 {
			f.Blackboard.Params[ainb.BBBool][c.bbIndex[w.a]].Value.Int = int32(w.v)
		}
	}
	c.bbCount = counts
	total, bytes := 0, 0
	for t := range ainb.NumBlackboardTypes {
		total += counts[t]
		if counts[t] > 0xffff {
			c.add(-1, "blackboard", "%d %s parameters, at most 65535 of one type fit", counts[t], blackboardTypes[t])
		}
		if bytes > 0xffff {
			c.add(-1, "blackboard", "the parameters before the %s ones take %d bytes of values, at most 65535 fit", blackboardTypes[t], bytes)
		}
		switch t {
		case ainb.BBVec3f:
			bytes += 12 * counts[t]
		case ainb.BBPointer:
		default:
			bytes += 4 * counts[t]
		}
	}
	if total > 0xffff {
		c.add(-1, "blackboard", "%d parameters, at most 65535 fit", total)
	}
	if len(refs) > 128 {
		c.add(-1, "blackboard", "%d distinct parameter files, at most 128 fit", len(refs))
	}
}

func (c *toCtx) expressions(f *ainb.File) {
	x := c.d.Expressions
	if x == nil {
		return
	}
	c.nExpr = len(x.Functions)
	if x.Version < 1 || x.Version > 3 {
		c.add(-1, "expressions.version", "%d, want 1, 2 or 3", x.Version)
		return
	}
	texts := make([]string, len(x.Functions))
	for i, fn := range x.Functions {
		texts[i] = fn.Text
	}
	if c.facts.exbListing != "" {
		if m, err := exb.ParseListing(c.facts.exbListing); err == nil && m.Version == x.Version {
			if textsHash(texts) == c.facts.exbTexts {
				f.Expressions = m
				return
			}
			if len(m.Functions) == len(x.Functions) {
				// Only the functions whose text changed are compiled, into the module as
				// it was: every other function keeps its bytes.
				if c.editExpressions(m, x) {
					f.Expressions = m
				}
				return
			}
		}
	}
	if c.facts.exbListing == "" && c.facts.exbTexts != 0 && c.editParsed(f, x, texts) {
		return
	}
	m, err := exb.AssembleSourcesUTF8(x.Version, texts, x.utf8Known(texts)) // readable code or listings
	if err != nil {
		c.expressionProblem(-1, err)
		return
	}
	f.Expressions = m
}

// editExpressions sets each function of m whose text differs from m's own to the
// document's text, and reports whether all of them compiled.
func (c *toCtx) editExpressions(m *exb.Module, x *Expressions) bool {
	own, err := m.FunctionSources()
	if err != nil {
		c.expressionProblem(-1, err)
		return false
	}
	ok := true
	for i, fn := range x.Functions {
		if fn.Text == own[i] {
			continue
		}
		if err := m.SetFunctionSource(i, fn.Text); err != nil {
			c.expressionProblem(i, err)
			ok = false
		}
	}
	return ok
}

// editParsed builds a canonical module whose functions the editor changed from the parsed
// texts it sent back (Function.ParsedText): it assembles the module the file had from the
// texts as parsed, then compiles each changed function into it alone, so that every other
// function keeps its block and literals where they were. It reports whether it set
// f.Expressions or reported a problem; false, when no function carries a parsed text or
// the texts with them are not the parse's (their hash is not the layout's): then the
// module is assembled from the current texts, canonically.
// texts are the functions' current texts.
func (c *toCtx) editParsed(f *ainb.File, x *Expressions, texts []string) bool {
	parsed := slices.Clone(texts)
	edited := false
	for i, fn := range x.Functions {
		if fn.ParsedText != nil {
			parsed[i], edited = *fn.ParsedText, true
		}
	}
	if !edited || textsHash(parsed) != c.facts.exbTexts {
		return false
	}
	m, err := exb.AssembleSourcesUTF8(x.Version, parsed, x.utf8Known(parsed))
	if err != nil {
		return false
	}
	ok := true
	for i, text := range texts {
		if text == parsed[i] {
			continue
		}
		if err := m.SetFunctionSource(i, text); err != nil {
			c.expressionProblem(i, err)
			ok = false
		}
	}
	if ok {
		f.Expressions = m
	}
	return true
}

// expressionProblem reports an expression that does not compile: at its function's text,
// line and column when the error says where (fn -1: the error may name the function).
func (c *toCtx) expressionProblem(fn int, err error) {
	p := Problem{Path: "expressions", Node: -1, Msg: err.Error()}
	var fe *exb.FunctionError
	if fn < 0 && errors.As(err, &fe) {
		fn, err = fe.Function, fe.Err
		p.Msg = err.Error()
	}
	if fn >= 0 {
		p.Path = fmt.Sprintf("expressions.functions[%d].text", fn)
		var se *exb.SyntaxError
		if errors.As(err, &se) {
			p.Line, p.Column, p.Msg = se.Line, se.Col, se.Msg
		}
	}
	c.problems = append(c.problems, p)
}

// valueWord converts a value of param type t; ok is false when it is out of range.
func (c *toCtx) value(t ainb.ParamType, v *Value, bad func(format string, args ...any)) ainb.Value {
	var out ainb.Value
	switch t {
	case ainb.ParamInt:
		if v.Int < math.MinInt32 || v.Int > math.MaxInt32 {
			bad("%d is out of the int range (32 bits, signed)", v.Int)
		}
		out.Int = int32(v.Int)
	case ainb.ParamBool:
		if v.Int != 0 && v.Int != 1 {
			bad("a bool is 0 or 1")
		}
		out.Int = int32(v.Int)
	case ainb.ParamFloat:
		out.Float = v.Float
	case ainb.ParamString:
		if hasNUL(v.String) {
			bad("a string may not contain a NUL character")
		}
		out.String = v.String
	case ainb.ParamVec3f:
		out.Vec = v.Vec
	}
	return out
}

// readsBack reports whether a flag word of a value of type t, changed by a layout fact, still
// reads back as the document's source src (node: the value is a node output, which the
// reader takes from the node word) and passes validation.
func (c *toCtx) readsBack(t ainb.ParamType, w ainb.ParamFlags, src *Source, node bool) bool {
	if w.IsExpression() && w.Index() >= c.nExpr {
		return false // ainb's validation refuses it
	}
	if node {
		// The reader takes the node from the node word. Through an expression, the word
		// must still name that expression; a plain node output (kindNode facts, among them
		// those of documents written before a source could name both) takes any word.
		if src != nil && src.Expression != nil {
			return w.IsExpression() && w.Index() == *src.Expression
		}
		return true
	}
	switch {
	case w.IsExpression():
		return src != nil && src.Expression != nil && *src.Expression == w.Index()
	case w.IsBlackboard():
		comp := w.VectorComponent()
		if comp != 0 && t != ainb.ParamFloat {
			break
		}
		bt := sourceBlackboardType(t, comp)
		if w.Index() >= c.bbCount[bt] {
			break
		}
		if src == nil || src.Blackboard == nil || *src.Blackboard < 0 || *src.Blackboard >= len(c.bbType) {
			return false
		}
		b := *src.Blackboard
		want, _ := componentIndex(src.Component)
		return c.bbType[b] == bt && c.bbIndex[b] == w.Index() && want == comp
	}
	return isImmediate(src)
}

// condReadsBack is readsBack for a selector's condition word: bit 31 and an index in range
// read a blackboard parameter of type bt.
func (c *toCtx) condReadsBack(bt ainb.BlackboardType, w uint32, bb *int) bool {
	if w>>31 == 0 || int(w&0xffff) >= c.bbCount[bt] {
		return bb == nil
	}
	return bb != nil && *bb >= 0 && *bb < len(c.bbIndex) && c.bbType[*bb] == bt && c.bbIndex[*bb] == int(w&0xffff)
}

// badTail returns the index of a recorded tail that is no proper suffix of a pool string, or
// -1. Reversed and sorted, the strings that end with a tail follow the reversed tail itself.
func badTail(strs, tails []string) int {
	rev := func(s string) string {
		b := []byte(s)
		slices.Reverse(b)
		return string(b)
	}
	rs := make([]string, len(strs))
	for i, s := range strs {
		rs[i] = rev(s)
	}
	slices.Sort(rs)
	rs = slices.Compact(rs)
	for k, t := range tails {
		rt := rev(t)
		i, _ := slices.BinarySearch(rs, rt)
		if i < len(rs) && rs[i] == rt {
			i++ // a proper suffix: a longer string
		}
		if i >= len(rs) || !strings.HasPrefix(rs[i], rt) {
			return k
		}
	}
	return -1
}

// paramSource checks a source of a value of type t and returns its flag word (derived) and,
// for node sources, the node index and per-type output index. path gives the source's path,
// only when a problem is reported: building paths for every value would cost more than
// checking the values.
func (c *toCtx) paramSource(i int, path func() string, t ainb.ParamType, src *Source, isOutput bool, usesDefault *bool, allowNode, multi bool) (word uint32, node, output int) {
	node, output = -1, 0
	bad := func(sub, format string, args ...any) {
		if i >= 0 {
			c.nodeErr(i, path()+sub, format, args...)
		} else {
			c.add(-1, path()+sub, format, args...)
		}
	}
	bbIndex := 0
	if src != nil {
		n := 0
		if src.Node != nil {
			n++
		}
		if src.Blackboard != nil {
			n++
		}
		if src.Expression != nil && src.Node == nil {
			n++ // beside a node, the expression transforms its output
		}
		if n > 1 {
			bad("", "a source is one of node (optionally through an expression), blackboard and expression")
		}
		if src.Node == nil && src.Output != 0 {
			bad(".output", "output goes with node")
		}
		if src.Node == nil && src.MissingOutput != nil {
			bad(".missingOutput", "missingOutput goes with node")
		}
		if src.Blackboard == nil && src.Component != "" {
			bad(".component", "component goes with blackboard")
		}
		if !multi && (src.IsOutput || src.UsesDefault != nil) {
			bad("", "isOutput and usesDefault go on the value itself; a source has them only in a multi-input's sources")
		}
		switch {
		case src.Node != nil:
			if !allowNode {
				bad(".node", "properties take no node output")
				break
			}
			k := c.index(*src.Node)
			if k < 0 {
				bad(".node", "no node with id %d", *src.Node)
				break
			}
			outs := c.d.Nodes[k].Outputs
			if src.MissingOutput != nil {
				// An output the node lacks, written back as the index the file stored. Once
				// the node has an output of the type at that index, the file would read it:
				// the document must say so with output, not show a link that is not drawn.
				m, have := *src.MissingOutput, 0
				for _, o := range outs {
					if o.Type == valueTypes[t] {
						have++
					}
				}
				switch {
				case src.Output != 0:
					bad(".missingOutput", "a source has output or missingOutput, not both")
				case m < have:
					bad(".missingOutput", "node %d has %s output %d now (of %d): connect that output instead", *src.Node, valueTypes[t], m, have)
				case m > 0x7fff:
					bad(".missingOutput", "%d, at most 32767 fit", m)
				default:
					node, output = k, m
				}
				break
			}
			if src.Output < 0 || src.Output >= len(outs) {
				bad(".output", "%d out of range: node %d has %d outputs", src.Output, *src.Node, len(outs))
				break
			}
			if outs[src.Output].Type != valueTypes[t] {
				bad(".output", "output %d of node %d is %s, the value is %s", src.Output, *src.Node, outs[src.Output].Type, valueTypes[t])
				break
			}
			node = k
			for _, o := range outs[:src.Output] {
				if o.Type == valueTypes[t] {
					output++
				}
			}
		case src.Blackboard != nil:
			b := *src.Blackboard
			comp, ok := componentIndex(src.Component)
			if !ok {
				bad(".component", "%q, want x, y or z", src.Component)
			} else if comp != 0 && t != ainb.ParamFloat {
				bad(".component", "only a float takes one component of a vec3f")
			}
			if b < 0 || b >= len(c.d.Blackboard) {
				bad(".blackboard", "no blackboard parameter %d (%d parameters)", b, len(c.d.Blackboard))
				break
			}
			want := sourceBlackboardType(t, comp)
			if c.bbType[b] != want {
				bad(".blackboard", "parameter %d is %s; a %s value%s reads a %s parameter", b, c.d.Blackboard[b].Type,
					valueTypes[t], map[bool]string{true: " with a component", false: ""}[comp != 0], blackboardTypes[want])
				break
			}
			bbIndex = c.bbIndex[b]
		}
		// Alone or fed a node's output (properties have none: refused above); beside a
		// blackboard parameter it was refused above.
		if src.Expression != nil && src.Blackboard == nil && (src.Node == nil || allowNode) {
			if x := *src.Expression; x < 0 || x >= c.nExpr {
				bad(".expression", "no expression function %d (%d functions)", x, c.nExpr)
			} else if x > 0xffff {
				bad(".expression", "expression %d, at most 65535 fit", x)
			}
		}
	}
	return paramWord(src, bbIndex, isOutput, usesDefault), node, output
}

// properties converts the properties of a node (owner) or attachment (owner -1); base gives
// the path of the list, only when a problem is reported.
func (c *toCtx) properties(owner int, base func() string, ps []Property, o *ownerFacts) (_ ainb.Properties, order []int) {
	if len(ps) == 0 {
		return ainb.Properties{}, nil
	}
	var out [ainb.NumParamTypes][]ainb.Property
	types := c.types.Take(len(ps))
	groupByType(c, owner, &c.propLists, out[:], types,
		func(k int) ValueType { return ps[k].Type },
		func(k int) string { return fmt.Sprintf("%s[%d].type", base(), k) })
	order = c.ints.Take(len(ps)) // per-type index of each
	for k := range ps {
		p := &ps[k]
		t := types[k]
		if t == ainb.NumParamTypes {
			continue
		}
		path := func(s string) string { return fmt.Sprintf("%s[%d]%s", base(), k, s) }
		if hasNUL(p.Name) {
			c.addAt(owner, path(".name"), "a string may not contain a NUL character")
		}
		if p.ClassName != "" && t != ainb.ParamPointer {
			c.addAt(owner, path(".className"), "only pointer values have a class name")
		}
		v := c.value(t, &p.Value, func(format string, args ...any) { c.addAt(owner, path(".value"), format, args...) })
		srcPath := func() string { return strings.TrimPrefix(path(".source"), "nodes["+strconv.Itoa(owner)+"]") }
		w, _, _ := c.paramSource(owner, srcPath, t, p.Source, p.IsOutput, p.UsesDefault, false, false)
		order[k] = len(out[t])
		out[t] = append(out[t], ainb.Property{Name: p.Name, ClassName: p.ClassName, Flags: ainb.ParamFlags(w), Value: v})
	}
	if o != nil {
		for _, fc := range o.words {
			if (fc.kind != fkPropFlags && fc.kind != fkPropWord) || fc.a >= len(ps) || types[fc.a] == ainb.NumParamTypes {
				continue
			}
			p := &ps[fc.a]
			if fc.chk != valueChk(&c.h, fc.kind, p.Type, false, p.Source) {
				continue
			}
			pr := &out[types[fc.a]][order[fc.a]]
			switch fc.kind {
			case fkPropFlags:
				if w := pr.Flags ^ ainb.ParamFlags(fc.v); c.readsBack(types[fc.a], w, p.Source, false) {
					pr.Flags = w
				}
			case fkPropWord:
				if types[fc.a] == ainb.ParamBool && pr.Value.Int == 1 {
					pr.Value.Int = int32(fc.v)
				}
			}
		}
	}
	return ainb.GroupsIn[ainb.ParamType](&c.propBlocks, &out), order
}

// groupByType makes out[t], the list of the properties, inputs or outputs of param type t,
// with room for its entries, and sets types[k] to the param type of entry k of len(types),
// NumParamTypes when unknown (the entry has no place). typeOf(k) is entry k's type in the
// document; an unknown one is reported at typePath(k). counts are the known entries of each
// type. (The caller makes types: a short one then lives on its stack.)
func groupByType[E any](c *toCtx, owner int, lists *chunk.Of[E], out [][]E, types []ainb.ParamType, typeOf func(k int) ValueType, typePath func(k int) string) (counts [ainb.NumParamTypes]int) {
	for k := range types {
		t, ok := paramType(typeOf(k))
		if !ok {
			c.add(owner, typePath(k), "unknown type %q (want int, bool, float, string, vec3f or pointer)", typeOf(k))
			t = ainb.NumParamTypes
		} else {
			counts[t]++
		}
		types[k] = t
	}
	for t := range ainb.NumParamTypes {
		if counts[t] > 0 {
			out[t] = lists.Take(counts[t])[:0]
		}
	}
	return counts
}

// addAt adds a problem in node owner (or, with owner -1, outside any node) at a full path.
func (c *toCtx) addAt(owner int, path, format string, args ...any) {
	c.add(owner, path, format, args...)
}

func (c *toCtx) attachment(i int, a *ainb.Attachment) {
	da := &c.d.Attachments[i]
	o := c.attFacts[i]
	c.str(-1, func() string { return fmt.Sprintf("attachments[%d].name", i) }, da.Name)
	a.Name, a.Debug = da.Name, da.Debug
	a.Properties, _ = c.properties(-1, func() string { return fmt.Sprintf("attachments[%d].properties", i) }, da.Properties, o)
	if o != nil {
		for _, fc := range o.words {
			switch fc.kind {
			case fkEmptyEnd:
				a.EmptyEnd = ainb.Kept{Derived: uint32(fc.a), Stored: fc.v}
			case fkNameHash:
				a.NameHash = ainb.Kept{Derived: uint32(fc.a), Stored: fc.v}
			}
		}
	}
}

func (c *toCtx) node(i int, e *ainb.Element) {
	n := &c.d.Nodes[i]
	o := c.nodeFacts[n.ID]
	typ, ok := nodeTypeByName[n.Type]
	if !ok {
		c.nodeErr(i, ".type", "unknown node type %q", n.Type)
	}
	e.Type = typ
	e.Name = n.Name
	e.GUID = n.GUID
	if hasNUL(n.Name) {
		c.nodeErr(i, ".name", "a string may not contain a NUL character")
	}
	if n.Query {
		e.Flags |= ainb.FlagQuery
	}
	if n.ModuleCaller {
		e.Flags |= ainb.FlagModuleCaller
	}
	if n.ResidentInit {
		e.Flags |= ainb.FlagResidentInit
	}
	if n.MultiParamV2 {
		e.Flags |= ainb.FlagQueryMultiParamV2
	}
	var propOrder []int
	e.Properties, propOrder = c.properties(i, func() string { return "nodes[" + strconv.Itoa(i) + "].properties" }, n.Properties, o)
	_ = propOrder

	// Inputs, grouped by type.
	var inTypes []ainb.ParamType
	var inOrder []int
	if len(n.Inputs) > 0 {
		inTypes = c.types.Take(len(n.Inputs))
		var ins [ainb.NumParamTypes][]ainb.Input
		groupByType(c, i, &c.inputLists, ins[:], inTypes,
			func(k int) ValueType { return n.Inputs[k].Type },
			func(k int) string { return fmt.Sprintf("nodes[%d].inputs[%d].type", i, k) })
		inOrder = c.ints.Take(len(n.Inputs))
		for k := range n.Inputs {
			t := inTypes[k]
			if t == ainb.NumParamTypes {
				continue
			}
			in := &n.Inputs[k]
			sub := func(s string) string { return fmt.Sprintf(".inputs[%d]%s", k, s) }
			if hasNUL(in.Name) {
				c.nodeErr(i, sub(".name"), "a string may not contain a NUL character")
			}
			if in.ClassName != "" && t != ainb.ParamPointer {
				c.nodeErr(i, sub(".className"), "only pointer values have a class name")
			}
			ei := ainb.Input{Name: in.Name, ClassName: in.ClassName, SetBlackboard: in.SetBlackboard}
			ei.Value = c.value(t, &in.Value, func(format string, args ...any) { c.nodeErr(i, sub(".value"), format, args...) })
			if in.Sources != nil {
				if in.Source != nil {
					c.nodeErr(i, sub(".source"), "a multi-input has sources, not a source")
				}
				if in.SetBlackboard {
					c.nodeErr(i, sub(".setBlackboard"), "a multi-input cannot set the blackboard")
				}
				if in.IsOutput || in.UsesDefault != nil {
					c.nodeErr(i, sub(""), "a multi-input has isOutput and usesDefault on each source")
				}
				if len(in.Sources) > 0x7fff {
					c.nodeErr(i, sub(".sources"), "%d sources, at most 32767 fit", len(in.Sources))
				}
				ei.Sources = c.sources.Take(len(in.Sources))
				for m := range in.Sources {
					s := &in.Sources[m]
					var src *Source
					if !isImmediate(s) || s.Output != 0 || s.MissingOutput != nil || s.Component != "" {
						src = s
					}
					w, node, out := c.paramSource(i, func() string { return sub(fmt.Sprintf(".sources[%d]", m)) }, t, src, s.IsOutput, s.UsesDefault, true, true)
					ei.Sources[m] = ainb.Source{Node: int16(node), Output: int16(out), Flags: ainb.ParamFlags(w)}
				}
			} else {
				w, node, out := c.paramSource(i, func() string { return sub(".source") }, t, in.Source, in.IsOutput, in.UsesDefault, true, false)
				ei.Source = ainb.Source{Node: int16(node), Output: int16(out), Flags: ainb.ParamFlags(w)}
			}
			inOrder[k] = len(ins[t])
			ins[t] = append(ins[t], ei)
		}
		e.Inputs = ainb.GroupsIn[ainb.ParamType](&c.inputBlocks, &ins)
	}
	if len(n.Outputs) > 0 {
		types := c.types.Take(len(n.Outputs))
		var outs [ainb.NumParamTypes][]ainb.Output
		counts := groupByType(c, i, &c.outputLists, outs[:], types,
			func(k int) ValueType { return n.Outputs[k].Type },
			func(k int) string { return fmt.Sprintf("nodes[%d].outputs[%d].type", i, k) })
		for k := range n.Outputs {
			out := &n.Outputs[k]
			t := types[k]
			if t == ainb.NumParamTypes {
				continue
			}
			if hasNUL(out.Name) {
				c.nodeErr(i, fmt.Sprintf(".outputs[%d].name", k), "a string may not contain a NUL character")
			}
			if out.ClassName != "" && t != ainb.ParamPointer {
				c.nodeErr(i, fmt.Sprintf(".outputs[%d].className", k), "only pointer values have a class name")
			}
			if counts[t] > 0x7fff {
				c.nodeErr(i, ".outputs", "%d %s outputs, at most 32767 fit", counts[t], valueTypes[t])
			}
			outs[t] = append(outs[t], ainb.Output{Name: out.Name, ClassName: out.ClassName, Connected: out.Connected})
		}
		e.Outputs = ainb.GroupsIn[ainb.ParamType](&c.outputBlocks, &outs)
	}

	// The plug lists are gathered here and become the element's family once, at the end.
	var plugs [ainb.NumPlugKinds][]ainb.Plug
	plugs[ainb.PlugChild] = c.children(i, n, e)
	if len(n.Jumps) > 0 {
		ps := make([]ainb.Plug, len(n.Jumps))
		for j, jp := range n.Jumps {
			k := c.index(jp.Node)
			if k < 0 {
				c.nodeErr(i, fmt.Sprintf(".jumps[%d].node", j), "no node with id %d", jp.Node)
			}
			if jp.Type < 0 || jp.Type > 255 {
				c.nodeErr(i, fmt.Sprintf(".jumps[%d].type", j), "%d out of range (0 to 255)", jp.Type)
			}
			if jp.Type != 0 && jp.Command != "" {
				c.nodeErr(i, fmt.Sprintf(".jumps[%d].command", j), "only type 0 jumps name a command")
			}
			if hasNUL(jp.Command) {
				c.nodeErr(i, fmt.Sprintf(".jumps[%d].command", j), "a string may not contain a NUL character")
			}
			ps[j] = ainb.Plug{Node: int32(k), Jump: &ainb.Jump{Type: uint8(jp.Type), PostCalc: jp.PostCalc, Command: jp.Command}}
		}
		plugs[ainb.PlugJump] = ps
	}
	if len(n.Queries) > 0 {
		e.Queries = c.ints.Take(len(n.Queries))
		for j, q := range n.Queries {
			k := c.index(q)
			if k < 0 {
				c.nodeErr(i, fmt.Sprintf(".queries[%d]", j), "no node with id %d", q)
			}
			e.Queries[j] = k
		}
		if len(n.Queries) > 0xffff {
			c.nodeErr(i, ".queries", "%d queries, at most 65535 fit", len(n.Queries))
		}
	}
	if len(n.Attachments) > 0 {
		e.Attachments = c.ints.Take(len(n.Attachments))
		for j, a := range n.Attachments {
			if a < 0 || a >= len(c.d.Attachments) {
				c.nodeErr(i, fmt.Sprintf(".attachments[%d]", j), "no attachment %d (%d attachments)", a, len(c.d.Attachments))
			}
			e.Attachments[j] = a
		}
		if len(n.Attachments) > 0xffff {
			c.nodeErr(i, ".attachments", "%d attachments, at most 65535 fit", len(n.Attachments))
		}
	}
	if len(n.Actions) > 0 {
		e.Actions = make([]ainb.Action, len(n.Actions))
		for j, a := range n.Actions {
			if hasNUL(a.Slot) || hasNUL(a.Action) {
				c.nodeErr(i, fmt.Sprintf(".actions[%d]", j), "a string may not contain a NUL character")
			}
			e.Actions[j] = ainb.Action{Slot: a.Slot, Action: a.Action}
		}
	}
	if s := n.StateInfo; s != nil {
		if c.version >= ainb.Version407 {
			c.nodeErr(i, ".stateInfo", "only 0x404 files have state info")
		}
		if hasNUL(s.DesiredState) {
			c.nodeErr(i, ".stateInfo.desiredState", "a string may not contain a NUL character")
		}
		e.StateInfo = &ainb.StateInfo{DesiredState: s.DesiredState, Unknown: s.Unknown}
	} else if c.version < ainb.Version407 {
		c.nodeErr(i, ".stateInfo", "every node of a 0x404 file has state info")
	}

	// The facts, then the mirror plugs: as stored while what they derive from is unchanged,
	// else from the inputs as they now are.
	var mirror *[3][]plugFact
	if o != nil {
		if o.mirror != nil && o.fp == mirrorFingerprint(&c.h, n) {
			mirror = o.mirror
		}
		for _, fc := range o.words {
			c.apply(n, e, &plugs, fc, inTypes, inOrder)
		}
	}
	if mirror != nil {
		for k, kind := range mirrorKinds {
			ps := make([]ainb.Plug, len(mirror[k]))
			for j, p := range mirror[k] {
				node := p.node
				if !p.raw {
					if node = c.index(p.node); node < 0 {
						mirror = nil
						break
					}
				}
				ps[j] = ainb.Plug{Node: int32(node), Name: p.name, Word: p.word, Int: p.int,
					Float: Float(math.Float32frombits(p.float)), String: p.string, Vector: p.vector}
				if p.vector {
					for v, x := range p.vec {
						ps[j].Vec[v] = Float(math.Float32frombits(x))
					}
				}
			}
			if mirror == nil {
				break
			}
			plugs[kind] = ps
		}
	}
	if mirror == nil {
		var m [3][]ainb.Plug
		deriveMirror(&m, e, c.version)
		for k, kind := range mirrorKinds {
			if len(m[k]) > 0 {
				plugs[kind] = m[k]
			} else {
				plugs[kind] = nil
			}
		}
	}
	e.Plugs = ainb.GroupsIn[ainb.PlugKind](&c.plugBlocks, &plugs)
	total := 0
	for k := range plugs {
		if len(plugs[k]) > 255 {
			c.nodeErr(i, "", "%d %s plugs (children, jumps or one per input source), at most 255 fit", len(plugs[k]), ainb.PlugKind(k))
		}
		total += len(plugs[k])
	}
	if total > 255 {
		c.nodeErr(i, "", "%d plugs in all (children, jumps and one per input source), at most 255 fit", total)
	}
}

// apply applies one word fact of node n to its element, if the value it describes is still
// there with the kind the fact's check word names (see facts.go) and the word it changes
// still reads back as the document says.
func (c *toCtx) apply(n *Node, e *ainb.Element, plugs *[ainb.NumPlugKinds][]ainb.Plug, fc fact, inTypes []ainb.ParamType, inOrder []int) {
	// The input (and, with multi, its source fc.b) the fact is about, if its check word holds.
	input := func(multi bool) (*Input, *ainb.Input) {
		if fc.a >= len(inTypes) || inTypes[fc.a] == ainb.NumParamTypes {
			return nil, nil
		}
		in := &n.Inputs[fc.a]
		var src *Source
		switch {
		case multi:
			if in.Sources == nil || fc.b >= len(in.Sources) {
				return nil, nil
			}
			src = &in.Sources[fc.b]
		case fc.kind == fkInFlags && in.Sources != nil:
			multi = true // a multi-input's own word
		case fc.kind == fkInRaw && in.Sources != nil:
			return nil, nil
		default:
			src = in.Source
		}
		if fc.chk != valueChk(&c.h, fc.kind, in.Type, multi, src) {
			return nil, nil
		}
		return in, &e.Inputs.Of(inTypes[fc.a])[inOrder[fc.a]]
	}
	raw := func(s *ainb.Source) {
		// Only the words of a source that is no node output: the reader takes those by their
		// flags, so the words change nothing it reads.
		if node, out := int16(fc.v>>16), int16(fc.v); s.Node < 0 && node < 0 {
			s.Node, s.Output = node, out
		}
	}
	switch fc.kind {
	case fkFlags:
		e.Flags ^= ainb.ElementFlags(fc.v)
	case fkReserved10:
		e.Reserved10 = fc.v
	case fkLinks, fkExprSize, fkNameHash:
		if e.Kept == nil {
			e.Kept = new(ainb.ElementKept)
		}
		k := ainb.Kept{Derived: uint32(fc.a), Stored: fc.v}
		switch fc.kind {
		case fkLinks:
			e.Kept.Links = k
		case fkExprSize:
			e.Kept.ExpressionIOSize = k
		default:
			e.Kept.NameHash = k
		}
	case fkInFlags:
		if in, ei := input(false); ei != nil {
			w := ei.Source.Flags ^ ainb.ParamFlags(fc.v)
			if ei.IsMulti() || c.readsBack(inTypes[fc.a], w, in.Source, ei.Source.Node >= 0) {
				ei.Source.Flags = w
			}
		}
	case fkInWord:
		if _, ei := input(false); ei != nil {
			if inTypes[fc.a] == ainb.ParamPointer {
				ei.PointerValue = fc.v
			} else if inTypes[fc.a] == ainb.ParamBool && ei.Value.Int == 1 {
				ei.Value.Int = int32(fc.v)
			}
		}
	case fkInRaw:
		if _, ei := input(false); ei != nil && !ei.IsMulti() {
			raw(&ei.Source)
		}
	case fkSrcFlags, fkSrcRaw:
		in, ei := input(true)
		if ei == nil || fc.b >= len(ei.Sources) {
			return
		}
		s := &ei.Sources[fc.b]
		if fc.kind == fkSrcRaw {
			raw(s)
			return
		}
		w := s.Flags ^ ainb.ParamFlags(fc.v)
		if c.readsBack(inTypes[fc.a], w, &in.Sources[fc.b], s.Node >= 0) {
			s.Flags = w
		}
	case fkChildWord, fkChildMax, fkChildRes:
		ps := plugs[ainb.PlugChild]
		if fc.a >= len(ps) || fc.a >= len(n.Children) || n.Children[fc.a].Condition == nil {
			return
		}
		layout := e.PlugLayoutOf(ainb.PlugChild, &ps[fc.a], c.version)
		cd := n.Children[fc.a].Condition
		bb := cd.Blackboard
		if layout == ainb.LayoutF32Range {
			bb = cd.MinBlackboard
		}
		if fc.kind == fkChildMax {
			bb = cd.MaxBlackboard
		}
		if fc.chk != childChk(&c.h, fc.kind, n.Type, bb != nil) || layout == ainb.LayoutBasic {
			return
		}
		bt := conditionBlackboardType(layout)
		p := &ps[fc.a]
		switch fc.kind {
		case fkChildWord:
			if w := p.Word ^ fc.v; c.condReadsBack(bt, w, bb) {
				p.Word = w
			}
		case fkChildMax:
			if w := p.MaxWord ^ fc.v; layout == ainb.LayoutF32Range && c.condReadsBack(bt, w, bb) {
				p.MaxWord = w
			}
		default:
			if fc.b < 4 && layout == ainb.LayoutF32Range {
				p.Reserved[fc.b] = fc.v
			}
		}
	case fkJump:
		if ps := plugs[ainb.PlugJump]; fc.a < len(ps) {
			ps[fc.a].Jump.Reserved = fc.v & 0x7fffff00
		}
	}
}

func (c *toCtx) children(i int, n *Node, e *ainb.Element) []ainb.Plug {
	if len(n.Children) == 0 {
		return nil
	}
	ps := make([]ainb.Plug, len(n.Children))
	for j := range n.Children {
		ch := &n.Children[j]
		layout := e.PlugLayoutOf(ainb.PlugChild, &ainb.Plug{Name: ch.Name}, c.version)
		bt := conditionBlackboardType(layout)
		sub := func(s string) string { return fmt.Sprintf(".children[%d]%s", j, s) }
		k := ainb.NoNode // a child to no node keeps the games' number for none
		if ch.Node != NoNode {
			if k = c.index(ch.Node); k < 0 {
				c.nodeErr(i, sub(".node"), "no node with id %d", ch.Node)
			}
		}
		if hasNUL(ch.Name) {
			c.nodeErr(i, sub(".name"), "a string may not contain a NUL character")
		}
		p := ainb.Plug{Node: int32(k), Name: ch.Name}
		cd := ch.Condition
		if cd == nil {
			ps[j] = p
			continue
		}
		if layout == ainb.LayoutBasic {
			c.nodeErr(i, sub(".condition"), "children of %s nodes have no condition", nodeKind(n))
			ps[j] = p
			continue
		}
		bb := func(field string, idx *int) uint32 {
			if idx == nil {
				return 0
			}
			b := *idx
			if b < 0 || b >= len(c.d.Blackboard) {
				c.nodeErr(i, sub(".condition."+field), "no blackboard parameter %d (%d parameters)", b, len(c.d.Blackboard))
				return 0
			}
			if c.bbType[b] != bt {
				c.nodeErr(i, sub(".condition."+field), "parameter %d is %s; this selector compares with a %s parameter", b, c.d.Blackboard[b].Type, blackboardTypes[bt])
				return 0
			}
			return wordBlackboard | uint32(c.bbIndex[b])
		}
		not := func(field string, set bool) {
			if set {
				c.nodeErr(i, sub(".condition."+field), "%s nodes do not compare %s", nodeKind(n), field)
			}
		}
		switch layout {
		case ainb.LayoutWordInt:
			if cd.Int != nil {
				p.Int = *cd.Int
			}
			p.Word = bb("blackboard", cd.Blackboard)
			not("string", cd.String != nil)
			not("weight", cd.Weight != nil)
			not("min", cd.Min != nil || cd.MinBlackboard != nil)
			not("max", cd.Max != nil || cd.MaxBlackboard != nil)
		case ainb.LayoutWordString:
			if cd.String != nil {
				p.String = *cd.String
				if hasNUL(p.String) {
					c.nodeErr(i, sub(".condition.string"), "a string may not contain a NUL character")
				}
			}
			p.Word = bb("blackboard", cd.Blackboard)
			not("int", cd.Int != nil)
			not("weight", cd.Weight != nil)
			not("min", cd.Min != nil || cd.MinBlackboard != nil)
			not("max", cd.Max != nil || cd.MaxBlackboard != nil)
		case ainb.LayoutWordFloat:
			if cd.Weight != nil {
				p.Float = *cd.Weight
			}
			p.Word = bb("blackboard", cd.Blackboard)
			not("int", cd.Int != nil)
			not("string", cd.String != nil)
			not("min", cd.Min != nil || cd.MinBlackboard != nil)
			not("max", cd.Max != nil || cd.MaxBlackboard != nil)
		case ainb.LayoutF32Range:
			if cd.Min != nil {
				p.Float = *cd.Min
			}
			if cd.Max != nil {
				p.MaxFloat = *cd.Max
			}
			p.Word = bb("minBlackboard", cd.MinBlackboard)
			p.MaxWord = bb("maxBlackboard", cd.MaxBlackboard)
			not("int", cd.Int != nil)
			not("string", cd.String != nil)
			not("weight", cd.Weight != nil)
			not("blackboard", cd.Blackboard != nil)
		}
		ps[j] = p
	}
	return ps
}

func nodeKind(n *Node) string {
	if n.Type == "UserDefined" {
		return n.Name
	}
	return string(n.Type)
}

func (c *toCtx) replacements(f *ainb.File) {
	d := c.d
	if c.version < ainb.Version407 {
		if len(d.Replacements) > 0 {
			c.add(-1, "replacements", "0x404 files have no replacement table")
		}
		return
	}
	t := &ainb.ReplacementTable{Processed: c.facts.replProc, Entries: make([]ainb.Replacement, len(d.Replacements))}
	if len(d.Replacements) > 0xffff {
		c.add(-1, "replacements", "%d replacements, at most 65535 fit", len(d.Replacements))
	}
	for i, r := range d.Replacements {
		path := func(s string) string { return fmt.Sprintf("replacements[%d]%s", i, s) }
		typ := -1
		for k, n := range replacementNames {
			if n == r.Type {
				typ = k
			}
		}
		if typ < 0 {
			c.add(-1, path(".type"), "%q, want removeChild, replaceChild or removeAttachment", r.Type)
			typ = 0
		}
		k := c.index(r.Node)
		if k < 0 {
			c.add(-1, path(".node"), "no node with id %d", r.Node)
		}
		if r.Index < math.MinInt16 || r.Index > math.MaxInt16 {
			c.add(-1, path(".index"), "%d out of range (16 bits, signed)", r.Index)
		}
		e := ainb.Replacement{Type: ainb.ReplacementType(typ), Element: int16(k), Index: int16(r.Index), New: -1}
		if ainb.ReplacementType(typ) == ainb.ReplaceChild {
			if r.New == nil {
				c.add(-1, path(".new"), "replaceChild names the new node")
			} else if k := c.index(*r.New); k < 0 {
				c.add(-1, path(".new"), "no node with id %d", *r.New)
			} else {
				e.New = int16(k)
			}
		} else if r.New != nil {
			c.add(-1, path(".new"), "only replaceChild names a new node")
		}
		t.Entries[i] = e
	}
	for _, fc := range c.facts.replNew {
		if fc.a < len(t.Entries) && t.Entries[fc.a].Type != ainb.ReplaceChild {
			t.Entries[fc.a].New = int16(fc.v)
		}
	}
	f.Replacement = t
}

func (c *toCtx) relocations(f *ainb.File) {
	d := c.d
	if len(d.EnumRelocations) == 0 {
		return
	}
	offsets := map[int]uint32{}
	for _, fc := range c.facts.relocs {
		offsets[fc.a] = fc.v
	}
	f.EnumRelocations = make([]ainb.EnumRelocation, len(d.EnumRelocations))
	for i, r := range d.EnumRelocations {
		path := func(s string) string { return fmt.Sprintf("enumRelocations[%d]%s", i, s) }
		if hasNUL(r.ClassName) || hasNUL(r.ValueName) {
			c.add(-1, path(""), "a string may not contain a NUL character")
		}
		er := ainb.EnumRelocation{ClassName: r.ClassName, ValueName: r.ValueName}
		if t := r.Target; t != nil {
			er.Target = c.valueRef(path(".target"), t)
		} else {
			er.Offset = offsets[i]
		}
		f.EnumRelocations[i] = er
	}
}

func (c *toCtx) valueRef(path string, t *ValueTarget) *ainb.ValueRef {
	d := c.d
	if (t.Node == nil) == (t.Attachment == nil) {
		c.add(-1, path, "a target names a node or an attachment")
		return nil
	}
	if (t.Property == nil) == (t.Input == nil) {
		c.add(-1, path, "a target names a property or an input")
		return nil
	}
	var props []Property
	ref := &ainb.ValueRef{Element: -1}
	if t.Node != nil {
		k := c.index(*t.Node)
		if k < 0 {
			c.add(-1, path+".node", "no node with id %d", *t.Node)
			return nil
		}
		ref.Element = k
		props = d.Nodes[k].Properties
	} else {
		a := *t.Attachment
		if a < 0 || a >= len(d.Attachments) {
			c.add(-1, path+".attachment", "no attachment %d (%d attachments)", a, len(d.Attachments))
			return nil
		}
		if t.Input != nil {
			c.add(-1, path+".input", "attachments have no inputs")
			return nil
		}
		ref.Attachment = a
		props = d.Attachments[a].Properties
	}
	var typ ValueType
	var idx int
	if t.Input != nil {
		ins := d.Nodes[ref.Element].Inputs
		idx = *t.Input
		if idx < 0 || idx >= len(ins) {
			c.add(-1, path+".input", "%d out of range (%d inputs)", idx, len(ins))
			return nil
		}
		typ = ins[idx].Type
		for _, in := range ins[:idx] {
			if in.Type == typ {
				ref.Index++
			}
		}
		ref.Input = true
	} else {
		idx = *t.Property
		if idx < 0 || idx >= len(props) {
			c.add(-1, path+".property", "%d out of range (%d properties)", idx, len(props))
			return nil
		}
		typ = props[idx].Type
		for _, p := range props[:idx] {
			if p.Type == typ {
				ref.Index++
			}
		}
	}
	pt, ok := paramType(typ)
	if !ok || pt == ainb.ParamPointer {
		c.add(-1, path, "a relocation patches an int, bool, float, string or vec3f value, not %s", typ)
		return nil
	}
	ref.Type = pt
	return ref
}
