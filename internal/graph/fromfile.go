package graph

import (
	"encoding/binary"
	"fmt"
	"math"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/chunk"
	"ainbeditor/internal/exb"
)

// slab hands out pointers to small values without one allocation each.
type slab struct {
	ints  []int
	bools []bool
}

func (s *slab) int(v int) *int {
	if len(s.ints) == cap(s.ints) {
		s.ints = make([]int, 0, 512)
	}
	s.ints = append(s.ints, v)
	return &s.ints[len(s.ints)-1]
}

func (s *slab) bool(v bool) *bool {
	if len(s.bools) == cap(s.bools) {
		s.bools = make([]bool, 0, 512)
	}
	s.bools = append(s.bools, v)
	return &s.bools[len(s.bools)-1]
}

// lists hand out a document's short lists (see package chunk).
type lists struct {
	props    chunk.Of[Property]
	inputs   chunk.Of[Input]
	outputs  chunk.Of[Output]
	children chunk.Of[Child]
	sources  chunk.Of[Source]
	conds    chunk.Of[Condition]
	ints     chunk.Of[int]
}

// newSource returns a new source from l's block.
func (l *lists) newSource(s Source) *Source {
	p := l.sources.New()
	*p = s
	return p
}

// copyInts returns a copy of v, nil when v is empty.
func (l *lists) copyInts(v []int) []int { return chunk.Clone(&l.ints, v) }

// reserve makes one block of each kind, exactly as long as the lists of es and as need: a
// parse knows them all before it makes the first.
func (l *lists) reserve(es []ainb.Element, as []ainb.Attachment) {
	var props, inputs, outputs, children int
	for i := range as {
		props += as[i].Properties.Len()
	}
	for i := range es {
		e := &es[i]
		props += e.Properties.Len()
		inputs += e.Inputs.Len()
		outputs += e.Outputs.Len()
		children += len(e.Plugs.Of(ainb.PlugChild))
	}
	l.props.Reserve(props)
	l.inputs.Reserve(inputs)
	l.outputs.Reserve(outputs)
	l.children.Reserve(children)
}

// Parse reads an AINB binary into a document, laid out automatically.
func Parse(name string, data []byte) (*Document, error) {
	f, err := ainb.Read(data)
	if err != nil {
		return nil, err
	}
	return FromFile(name, f, data)
}

// FromFile makes a document of a model, with every node laid out automatically. input is the
// binary the model was read from: it is only measured (is its string pool the canonical one?),
// never kept. With nil input, a model read from a file is assumed to end its string pool with
// a NUL.
func FromFile(name string, f *ainb.File, input []byte) (*Document, error) {
	// The reader reads what the writer would refuse (a command rooted at a node the file does
	// not have, a category its version does not define, ...), and a document must build
	// again: such a file is refused here, with the writer's own problems (0.3 ms for the
	// 7,130-node file).
	if err := f.Validate(); err != nil {
		return nil, fmt.Errorf("graph: the file cannot be written back as it is: %w", err)
	}
	if err := expressible(f); err != nil {
		return nil, err
	}
	c := &fromCtx{f: f, input: input, facts: &fileFacts{}}
	d, err := c.document(name)
	if err != nil {
		return nil, err
	}
	Layout(d)
	return d, nil
}

type fromCtx struct {
	f      *ainb.File
	input  []byte
	d      *Document
	facts  *fileFacts
	bbBase [ainb.NumBlackboardTypes]int
	nExpr  int
	slab   slab
	lists  lists
	owner  ownerFacts // scratch: see node
	h      hasher
	mirror [3][]ainb.Plug // scratch for the canonical mirror plugs
}

func (c *fromCtx) document(name string) (*Document, error) {
	f := c.f
	d := &Document{Format: Format, Name: name, Version: f.Version, Filename: f.Filename,
		Category: f.Category, HasSection6C: f.HasSection6C}
	c.d = d
	d.ModuleCall = ModuleCall{BlackboardID: f.BlackboardID, ParentBlackboardID: f.ParentBlackboardID}
	if f.Layout != nil {
		c.facts.section6C = f.Layout.Section6C
		c.facts.header54 = f.Layout.Header54
		c.facts.kept = keptOf(f.Layout)
	}
	if want := canonicalCategoryID(f.Version, f.Category); want != f.CategoryID {
		v := f.CategoryID
		c.facts.categoryID = &v
	}

	// Blackboard, one flat list in type order.
	n := 0
	for t := range ainb.NumBlackboardTypes {
		c.bbBase[t] = n
		n += len(f.Blackboard.Params[t])
	}
	d.Blackboard = make([]BlackboardParam, 0, n)
	for t := range ainb.NumBlackboardTypes {
		for _, p := range f.Blackboard.Params[t] {
			if int(p.Inherit) >= len(inheritNames) {
				return nil, fmt.Errorf("graph: blackboard parameter %q has inherit mode %d, which no file may have", p.Name, p.Inherit)
			}
			bp := BlackboardParam{Name: p.Name, Type: blackboardTypes[t], Notes: p.Notes,
				Inherit: inheritNames[p.Inherit], File: p.File}
			switch t {
			case ainb.BBString:
				bp.Value.String = p.Value.String
			case ainb.BBS32:
				bp.Value.Int = int64(p.Value.Int)
			case ainb.BBU32:
				bp.Value.Int = int64(uint32(p.Value.Int))
			case ainb.BBBool:
				if p.Value.Int != 0 {
					bp.Value.Int = 1
				}
				if p.Value.Int != 0 && p.Value.Int != 1 {
					c.facts.bbWords = append(c.facts.bbWords, fact{a: len(d.Blackboard), v: uint32(p.Value.Int)})
				}
			case ainb.BBF32:
				bp.Value.Float = p.Value.Float
			case ainb.BBVec3f:
				bp.Value.Vec = p.Value.Vec
			}
			d.Blackboard = append(d.Blackboard, bp)
		}
	}

	// The expression texts need nothing from the nodes; their error is reported after the
	// nodes' own. They are decompiled here, not in a goroutine beside the nodes: that made a
	// parse of the game's largest files 15 % slower and cost a quarter more CPU (a fresh
	// goroutine's stack grew through the decompiler's recursion, and the two halves woke and
	// waited on each other), and on the 210 KB fixture it saved no time.
	var exprsErr error
	if m := f.Expressions; m != nil {
		c.nExpr = len(m.Functions)
		d.Expressions, c.facts.exbListing, c.facts.exbTexts, exprsErr = expressions(m)
	}

	d.Commands = make([]Command, len(f.Commands))
	for i, cm := range f.Commands {
		d.Commands[i] = Command{Name: cm.Name, GUID: cm.GUID, Root: cm.Root, Secondary: cm.Secondary}
	}

	d.Nodes = make([]Node, len(f.Elements))
	c.lists.reserve(f.Elements, f.Attachments)
	for i := range f.Elements {
		if err := c.node(i, &f.Elements[i], &d.Nodes[i]); err != nil {
			return nil, err
		}
	}

	d.Attachments = make([]Attachment, len(f.Attachments))
	for i := range f.Attachments {
		a := &f.Attachments[i]
		o := &ownerFacts{key: i}
		d.Attachments[i] = Attachment{Name: a.Name, Debug: a.Debug, Properties: c.properties(&a.Properties, o)}
		if k := a.EmptyEnd; k != (ainb.Kept{}) {
			o.add(fkEmptyEnd, int(k.Derived), 0, k.Stored, 0)
		}
		if k := a.NameHash; k != (ainb.Kept{}) {
			o.add(fkNameHash, int(k.Derived), 0, k.Stored, 0)
		}
		if len(o.words) > 0 {
			c.facts.atts = append(c.facts.atts, o)
		}
	}

	d.Modules = make([]Module, len(f.Modules))
	for i, m := range f.Modules {
		d.Modules[i] = Module{Path: m.Path, Category: m.Category, Instances: m.Instances}
	}

	if r := f.Replacement; r != nil {
		c.facts.replProc = r.Processed
		d.Replacements = make([]Replacement, len(r.Entries))
		for i, e := range r.Entries {
			if int(e.Type) >= len(replacementNames) {
				return nil, fmt.Errorf("graph: replacement %d has type %d, which no file may have", i, e.Type)
			}
			rp := Replacement{Type: replacementNames[e.Type], Node: int(e.Element), Index: int(e.Index)}
			derived := int16(-1)
			if e.Type == ainb.ReplaceChild {
				rp.New = c.slab.int(int(e.New))
				derived = e.New
			}
			if e.New != derived {
				c.facts.replNew = append(c.facts.replNew, fact{a: i, v: uint32(uint16(e.New))})
			}
			d.Replacements[i] = rp
		}
	}

	d.EnumRelocations = make([]EnumRelocation, len(f.EnumRelocations))
	for i, r := range f.EnumRelocations {
		er := EnumRelocation{ClassName: r.ClassName, ValueName: r.ValueName}
		if t := r.Target; t != nil {
			vt := &ValueTarget{}
			var list int
			if t.Element >= 0 {
				vt.Node = c.slab.int(t.Element)
				e := &f.Elements[t.Element]
				if t.Input {
					list = e.Inputs.Before(t.Type) + t.Index
				} else {
					list = e.Properties.Before(t.Type) + t.Index
				}
			} else {
				vt.Attachment = c.slab.int(t.Attachment)
				list = f.Attachments[t.Attachment].Properties.Before(t.Type) + t.Index
			}
			if t.Input {
				vt.Input = c.slab.int(list)
			} else {
				vt.Property = c.slab.int(list)
			}
			er.Target = vt
		} else {
			c.facts.relocs = append(c.facts.relocs, fact{a: i, v: r.Offset})
		}
		d.EnumRelocations[i] = er
	}

	if s := f.Section58; s != nil {
		d.Section58 = &Section58{Description: s.Description, Unknown: s.Unknown}
	}

	if f.Layout != nil && !canonicalPool(f, c.input) {
		c.facts.hasStrings = true
		c.facts.strings = f.Layout.Strings
		// The tails the file pointed into: only these may be pointed into again (a tail
		// reference makes the pool non-canonical, so they always go with the pool order).
		c.facts.tails = f.Layout.Tails
	}
	if f.Layout != nil {
		c.facts.queryOrder = f.Layout.QueryOrder // node ids are element indices at parse
	}
	if exprsErr != nil {
		return nil, exprsErr
	}
	d.Layout = encodeLayout(c.facts)
	return d, nil
}

func canonicalCategoryID(version uint32, category string) uint32 {
	if version < ainb.Version407 {
		return 0
	}
	id, _ := ainb.CategoryID(category)
	return id
}

// expressions turns the expression binary into function texts (readable code, which
// compiles back to the very instructions), and records the binary as a listing when
// assembling those texts again would not give it back.
// expressions converts the expression binary: its function texts, and when the canonical
// layout does not give the stored bytes back, the listing to build them from (used while the
// texts hash as they did); texts is that hash, with a listing or several functions.
func expressions(m *exb.Module) (x *Expressions, listing string, texts uint64, err error) {
	x = &Expressions{Version: m.Version, Functions: make([]Function, len(m.Functions))}
	sources, err := m.FunctionSources()
	if err != nil {
		return nil, "", 0, fmt.Errorf("graph: expressions: %w", err)
	}
	for i, t := range sources {
		x.Functions[i].Text = t
	}
	// Building assembles the texts; the canonical layout is the very instructions the texts
	// spell (AssembleSources and the decompiler round-trip), so whether it reproduces the
	// module tells the same at a fraction of the cost: no text is compiled.
	if !m.CanonicalReproduces() {
		if listing, err = m.Listing(); err != nil {
			return nil, "", 0, fmt.Errorf("graph: expression binary: %w", err)
		}
	}
	// The texts' hash goes with the listing and with a canonical module of several
	// functions: it tells a build whether the parsed texts the editor sends back
	// (Function.ParsedText) are this parse's, so that it may edit the changed functions
	// alone in the module they assemble to.
	if listing != "" || len(x.Functions) > 1 {
		texts = textsHash(sources)
	}
	return x, listing, texts, nil
}

// value converts an immediate value; word reports a bool stored as a word other than 0 or 1.
func value(t ainb.ParamType, v ainb.Value) (out Value, word uint32, odd bool) {
	switch t {
	case ainb.ParamInt:
		out.Int = int64(v.Int)
	case ainb.ParamBool:
		if v.Int != 0 {
			out.Int = 1
		}
		return out, uint32(v.Int), v.Int != 0 && v.Int != 1
	case ainb.ParamFloat:
		out.Float = v.Float
	case ainb.ParamString:
		out.String = v.String
	case ainb.ParamVec3f:
		out.Vec = v.Vec
	}
	return out, 0, false
}

// source reads where a value of type t comes from by its flag word (the node field aside),
// and the per-type blackboard index the derived word uses.
func (c *fromCtx) source(t ainb.ParamType, fl ainb.ParamFlags) (*Source, int) {
	switch {
	case fl.IsExpression():
		if fl.Index() < c.nExpr {
			return c.lists.newSource(Source{Expression: c.slab.int(fl.Index())}), 0
		}
	case fl.IsBlackboard():
		comp := fl.VectorComponent()
		if comp != 0 && t != ainb.ParamFloat {
			break
		}
		bt := sourceBlackboardType(t, comp)
		if fl.Index() < len(c.f.Blackboard.Params[bt]) {
			return c.lists.newSource(Source{Blackboard: c.slab.int(c.bbBase[bt] + fl.Index()), Component: componentNames[comp]}), fl.Index()
		}
	}
	return nil, 0
}

// flags sets isOutput and usesDefault from a flag word and returns the bits the source and
// those two do not give, as an XOR against the derived word.
func (c *fromCtx) flags(fl ainb.ParamFlags, src *Source, bbIndex int, isOutput *bool, usesDefault **bool) uint32 {
	*isOutput = fl&ainb.ParamIsOutput != 0
	ud := fl&ainb.ParamUsesDefault != 0
	if ud != isImmediate(src) {
		*usesDefault = c.slab.bool(ud)
	}
	return uint32(fl) ^ paramWord(src, bbIndex, *isOutput, *usesDefault)
}

func (c *fromCtx) properties(ps *ainb.Properties, o *ownerFacts) []Property {
	n := ps.Len()
	if n == 0 {
		return nil
	}
	out := c.lists.props.Take(n)[:0]
	for t := range ainb.NumParamTypes {
		for _, p := range ps.Of(t) {
			k := len(out)
			v, word, odd := value(t, p.Value)
			pr := Property{Name: p.Name, Type: valueTypes[t], ClassName: p.ClassName, Value: v}
			if odd {
				o.add(fkPropWord, k, 0, word, valueChk(&c.h, fkPropWord, pr.Type, false, nil))
			}
			var bb int
			pr.Source, bb = c.source(t, p.Flags)
			if x := c.flags(p.Flags, pr.Source, bb, &pr.IsOutput, &pr.UsesDefault); x != 0 {
				o.add(fkPropFlags, k, 0, x, valueChk(&c.h, fkPropFlags, pr.Type, false, pr.Source))
			}
			out = append(out, pr)
		}
	}
	return out
}

// nodeSource reads a source with a node field: another node's output, or by its flags.
// It returns the source, the per-type blackboard index and whether the node and output
// fields are what the source derives.
//
// A node output whose flags also name an expression (0xC2000000|index, which the games
// store on 230 sources: the node's output is the expression's In, the input gets its
// result) is a source with both node and expression; the flag word then derives exactly.
// Other source bits beside a node (the games have a few blackboard words) stay layout facts.
func (c *fromCtx) nodeSource(t ainb.ParamType, s ainb.Source) (*Source, int, bool) {
	if s.Node >= 0 {
		node := int(s.Node)
		out := int(s.Output)
		var src Source
		if node < len(c.f.Elements) {
			if s.Output >= int16(len(c.f.Elements[node].Outputs.Of(t))) {
				src = missingOutput(node, int(s.Output))
			} else {
				out += c.f.Elements[node].Outputs.Before(t)
			}
		}
		if src.Node == nil {
			src = Source{Node: c.slab.int(node), Output: out}
		}
		if s.Flags.IsExpression() && s.Flags.Index() < c.nExpr {
			src.Expression = c.slab.int(s.Flags.Index())
		}
		return c.lists.newSource(src), 0, src.MissingOutput != nil || s.Output >= 0
	}
	src, bb := c.source(t, s.Flags)
	return src, bb, s.Node == -1 && s.Output == 0
}

// unusedPlugs reports whether e has plugs of the kinds package ainb keeps as raw words.
func unusedPlugs(e *ainb.Element) bool {
	if len(e.Plugs.Of(1)) > 0 {
		return true
	}
	if e.UnusedPlugs != nil {
		for _, ps := range e.UnusedPlugs {
			if len(ps) > 0 {
				return true
			}
		}
	}
	return false
}

func rawSource(s ainb.Source) uint32 { return uint32(uint16(s.Node))<<16 | uint32(uint16(s.Output)) }

func (c *fromCtx) node(i int, e *ainb.Element, n *Node) error {
	f := c.f
	typ, ok := nodeTypeName(e.Type)
	if !ok {
		return fmt.Errorf("graph: node %d has type %d, which the editor does not know", i, e.Type)
	}
	if unusedPlugs(e) {
		return fmt.Errorf("graph: node %d has plugs of a kind no known file uses (1 or 6 to 9), which the editor document cannot hold", i)
	}
	// Most nodes have no facts: their record is the context's scratch one, copied out only
	// when it has something in it.
	o := &c.owner
	*o = ownerFacts{key: i, words: o.words[:0]}
	// n is a fresh node of the document's list: its fields are set one by one, not by
	// writing a whole node (nearly 300 bytes) over it.
	n.ID, n.Type, n.Name, n.GUID = i, typ, e.Name, e.GUID
	n.Query, n.ModuleCaller = e.Flags&ainb.FlagQuery != 0, e.Flags&ainb.FlagModuleCaller != 0
	n.ResidentInit, n.MultiParamV2 = e.Flags&ainb.FlagResidentInit != 0, e.Flags&ainb.FlagQueryMultiParamV2 != 0
	if x := e.Flags &^ 0xf; x != 0 {
		o.add(fkFlags, 0, 0, uint32(x), 0)
	}
	if e.Reserved10 != 0 {
		o.add(fkReserved10, 0, 0, e.Reserved10, 0)
	}
	if k := e.Kept; k != nil {
		// Kept counts hold while the count derives as when read (ainb.Kept): an edit that
		// changes what it counts gets the derived value.
		if k.Links != (ainb.Kept{}) {
			o.add(fkLinks, int(k.Links.Derived), 0, k.Links.Stored, 0)
		}
		if k.ExpressionIOSize != (ainb.Kept{}) {
			o.add(fkExprSize, int(k.ExpressionIOSize.Derived), 0, k.ExpressionIOSize.Stored, 0)
		}
		if k.NameHash != (ainb.Kept{}) {
			o.add(fkNameHash, int(k.NameHash.Derived), 0, k.NameHash.Stored, 0)
		}
	}
	n.Properties = c.properties(&e.Properties, o)

	nIn := e.Inputs.Len()
	nOut := e.Outputs.Len()
	if nIn > 0 {
		n.Inputs = c.lists.inputs.Take(nIn)[:0]
	}
	for t := range ainb.NumParamTypes {
		if nIn == 0 {
			break // half the nodes of the 7,130-node file
		}
		inList := e.Inputs.Of(t)
		for j := range inList {
			in := &inList[j]
			k := len(n.Inputs)
			v, word, odd := value(t, in.Value)
			typ := valueTypes[t]
			if odd {
				o.add(fkInWord, k, 0, word, valueChk(&c.h, fkInWord, typ, false, nil))
			}
			if t == ainb.ParamPointer && in.PointerValue != 0 {
				o.add(fkInWord, k, 0, in.PointerValue, valueChk(&c.h, fkInWord, typ, false, nil))
			}
			di := Input{Name: in.Name, Type: typ, ClassName: in.ClassName, Value: v, SetBlackboard: in.SetBlackboard}
			if in.IsMulti() {
				di.Sources = make([]Source, len(in.Sources))
				for m, s := range in.Sources {
					src, bb, exact := c.nodeSource(t, s)
					var ds Source
					if src != nil {
						ds = *src
					}
					if !exact {
						o.add(fkSrcRaw, k, m, rawSource(s), valueChk(&c.h, fkSrcRaw, typ, true, src))
					}
					if x := c.flags(s.Flags, src, bb, &ds.IsOutput, &ds.UsesDefault); x != 0 {
						o.add(fkSrcFlags, k, m, x, valueChk(&c.h, fkSrcFlags, typ, true, src))
					}
					di.Sources[m] = ds
				}
				if in.Source.Flags != 0 {
					o.add(fkInFlags, k, 0, uint32(in.Source.Flags), valueChk(&c.h, fkInFlags, typ, true, nil))
				}
			} else {
				src, bb, exact := c.nodeSource(t, in.Source)
				if !exact {
					o.add(fkInRaw, k, 0, rawSource(in.Source), valueChk(&c.h, fkInRaw, typ, false, src))
				}
				di.Source = src
				if x := c.flags(in.Source.Flags, src, bb, &di.IsOutput, &di.UsesDefault); x != 0 {
					o.add(fkInFlags, k, 0, x, valueChk(&c.h, fkInFlags, typ, false, src))
				}
			}
			n.Inputs = append(n.Inputs, di)
		}
	}
	if nOut > 0 {
		n.Outputs = c.lists.outputs.Take(nOut)[:0]
		for t := range ainb.NumParamTypes {
			for _, out := range e.Outputs.Of(t) {
				n.Outputs = append(n.Outputs, Output{Name: out.Name, Type: valueTypes[t], ClassName: out.ClassName, Connected: out.Connected})
			}
		}
	}

	if ps := e.Plugs.Of(ainb.PlugChild); len(ps) > 0 {
		n.Children = c.lists.children.Take(len(ps))
		for j := range ps {
			p := &ps[j]
			// A child named __CHILD_ENUM... keeps an enum value whatever its node's type. Where
			// only its name gives it that room, an enum of 0 is no condition at all, as a child
			// renamed so in the editor is built: the document reads back as it was edited.
			layout := e.PlugLayoutOf(ainb.PlugChild, p, f.Version)
			if kind, _ := e.PlugLayout(ainb.PlugChild, f.Version); kind == ainb.LayoutBasic && p.Int == 0 && p.Word == 0 {
				layout = ainb.LayoutBasic
			}
			bt := conditionBlackboardType(layout)
			ch := Child{Node: childNode(p.Node, len(f.Elements)), Name: p.Name}
			if layout != ainb.LayoutBasic {
				cd := c.lists.conds.New()
				var bb *int
				var derived uint32
				bb, derived = c.conditionBlackboard(bt, p.Word)
				switch layout {
				case ainb.LayoutWordInt:
					v := p.Int
					cd.Int = &v
					cd.Blackboard = bb
				case ainb.LayoutWordString:
					v := p.String
					cd.String = &v
					cd.Blackboard = bb
				case ainb.LayoutWordFloat:
					v := p.Float
					cd.Weight = &v
					cd.Blackboard = bb
				case ainb.LayoutF32Range:
					lo, hi := p.Float, p.MaxFloat
					cd.Min, cd.Max = &lo, &hi
					cd.MinBlackboard = bb
					var dmax uint32
					cd.MaxBlackboard, dmax = c.conditionBlackboard(bt, p.MaxWord)
					if x := p.MaxWord ^ dmax; x != 0 {
						o.add(fkChildMax, j, 0, x, childChk(&c.h, fkChildMax, typ, cd.MaxBlackboard != nil))
					}
					for r, w := range p.Reserved {
						if w != 0 {
							o.add(fkChildRes, j, r, w, childChk(&c.h, fkChildRes, typ, false))
						}
					}
				}
				if x := p.Word ^ derived; x != 0 {
					o.add(fkChildWord, j, 0, x, childChk(&c.h, fkChildWord, typ, bb != nil))
				}
				ch.Condition = cd
			}
			n.Children[j] = ch
		}
	}
	if ps := e.Plugs.Of(ainb.PlugJump); len(ps) > 0 {
		n.Jumps = make([]Jump, len(ps))
		for j, p := range ps {
			if p.Jump == nil {
				return fmt.Errorf("graph: node %d: jump %d has no table entry", i, j)
			}
			n.Jumps[j] = Jump{Node: int(p.Node), Type: int(p.Jump.Type), Command: p.Jump.Command, PostCalc: p.Jump.PostCalc}
			if p.Jump.Reserved != 0 {
				o.add(fkJump, j, 0, p.Jump.Reserved, 0)
			}
		}
	}
	if len(e.Queries) > 0 {
		n.Queries = c.lists.copyInts(e.Queries)
	}
	if len(e.Attachments) > 0 {
		n.Attachments = c.lists.copyInts(e.Attachments)
	}
	if len(e.Actions) > 0 {
		n.Actions = make([]Action, len(e.Actions))
		for j, a := range e.Actions {
			n.Actions[j] = Action{Slot: a.Slot, Action: a.Action}
		}
	}
	if s := e.StateInfo; s != nil {
		n.StateInfo = &StateInfo{DesiredState: s.DesiredState, Unknown: s.Unknown}
	}

	// Mirror plugs: recorded only when they are not what the inputs derive.
	deriveMirror(&c.mirror, e, f.Version)
	// A node with mirror facts is kept with them in one allocation (random files have them
	// on nearly every node).
	var km *keptMirror
	if !sameMirror(&c.mirror, e) {
		km = new(keptMirror)
		m := &km.mirror
		total := 0
		for _, kind := range mirrorKinds {
			total += len(e.Plugs.Of(kind))
		}
		all := make([]plugFact, total)
		for k, kind := range mirrorKinds {
			ps := e.Plugs.Of(kind)
			m[k], all = all[:len(ps):len(ps)], all[len(ps):]
			for j, p := range ps {
				pf := plugFact{node: int(p.Node), name: p.Name, word: p.Word, int: p.Int,
					float: math.Float32bits(float32(p.Float)), string: p.String}
				pf.raw = p.Node < 0 || int(p.Node) >= len(f.Elements)
				if p.Vector {
					pf.vector = true
					for v, x := range p.Vec {
						pf.vec[v] = math.Float32bits(float32(x))
					}
				}
				m[k][j] = pf
			}
		}
		o.mirror = m
	}
	if o.mirror != nil {
		o.fp = mirrorFingerprint(&c.h, n)
	}
	if len(o.words) > 0 || o.mirror != nil {
		var kept *ownerFacts
		if km != nil {
			kept = &km.facts
		} else {
			kept = new(ownerFacts)
		}
		*kept = *o
		c.facts.nodes = append(c.facts.nodes, kept)
		o.words = nil // kept has them now
	}
	return nil
}

// keptMirror is a node's facts and the mirror plugs they point at.
type keptMirror struct {
	facts  ownerFacts
	mirror [3][]plugFact
}

// conditionBlackboard reads a selector word: bit 31 says a blackboard parameter of type bt
// (index in the low half) is compared with. It returns the parameter's document index and the
// word the document derives.
func (c *fromCtx) conditionBlackboard(bt ainb.BlackboardType, w uint32) (*int, uint32) {
	if w>>31 == 0 {
		return nil, 0
	}
	idx := int(w & 0xffff)
	if idx >= len(c.f.Blackboard.Params[bt]) {
		return nil, 0
	}
	return c.slab.int(c.bbBase[bt] + idx), wordBlackboard | uint32(idx)
}

// deriveMirror computes the canonical mirror plugs of an element from its inputs: for
// selectors and expressions one plug per input source, in input order, with the input's name
// and default value; for other nodes one per source that is another node's output. Int inputs
// go to the Int list, string inputs to the String list, the rest to Generic.
func deriveMirror(m *[3][]ainb.Plug, e *ainb.Element, version uint32) {
	for k := range m {
		m[k] = m[k][:0]
	}
	all := false
	switch e.Type {
	case ainb.S32Selector, ainb.F32Selector, ainb.StringSelector, ainb.RandomSelector, ainb.BoolSelector, ainb.Expression:
		all = true
	}
	if e.Inputs.Empty() {
		return
	}
	for t := range ainb.NumParamTypes {
		k := 0
		switch t {
		case ainb.ParamInt:
			k = 2
		case ainb.ParamString:
			k = 1
		}
		inList := e.Inputs.Of(t)
		for j := range inList {
			in := &inList[j]
			add := func(s ainb.Source) {
				if !all && s.Node < 0 {
					return
				}
				p := ainb.Plug{Node: int32(s.Node), Name: in.Name}
				if s.Node < 0 {
					p.Node = -1
				}
				if all {
					switch t {
					case ainb.ParamFloat:
						p.Int = int32(math.Float32bits(float32(in.Value.Float)))
					default:
						p.Int = in.Value.Int
					}
					p.Float = in.Value.Float
					p.String = in.Value.String
					// The game gives an expression's vector input a plug with three floats.
					if t == ainb.ParamVec3f && e.Type == ainb.Expression && version >= ainb.Version407 {
						p.Vector, p.Vec = true, in.Value.Vec
					}
				}
				m[k] = append(m[k], p)
			}
			if in.IsMulti() {
				for _, s := range in.Sources {
					add(s)
				}
			} else {
				add(in.Source)
			}
		}
	}
}

// sameMirror reports whether an element's stored mirror plugs are the derived ones, in the
// fields its plug layouts store.
func sameMirror(m *[3][]ainb.Plug, e *ainb.Element) bool {
	for k, kind := range mirrorKinds {
		ps := e.Plugs.Of(kind)
		if len(ps) != len(m[k]) {
			return false
		}
		for j := range ps {
			a, b := &ps[j], &m[k][j]
			if a.Node != b.Node || a.Name != b.Name || a.Word != b.Word || a.Int != b.Int ||
				math.Float32bits(float32(a.Float)) != math.Float32bits(float32(b.Float)) || a.String != b.String ||
				a.Vector != b.Vector || vecBits(a.Vec) != vecBits(b.Vec) ||
				a.MaxWord != 0 || a.MaxFloat != 0 || a.Reserved != [4]uint32{} || a.Jump != nil {
				return false
			}
		}
	}
	return true
}

// vecBits are the bits of a vector's floats, so that NaNs compare by what is stored.
func vecBits(v ainb.Vec3f) [3]uint32 {
	return [3]uint32{math.Float32bits(float32(v[0])), math.Float32bits(float32(v[1])), math.Float32bits(float32(v[2]))}
}

// canonicalPool reports whether writing f without a recorded string pool gives the pool it
// was read with: the pool is exactly the distinct strings in the order the writer first uses
// them, ends with a NUL, and nothing points into the middle of a string. It walks the model
// in the writer's order instead of writing it.
func canonicalPool(f *ainb.File, input []byte) bool {
	strs := f.Layout.Strings
	if input != nil && len(input) >= 0x28 {
		size := 0
		for _, s := range strs {
			size += len(s) + 1
		}
		at := int(binary.LittleEndian.Uint32(input[0x24:]))
		if at > len(input) || len(input)-at != size {
			return false
		}
	}
	p := &poolWalk{strs: strs, offset: f.Layout.StringIndex()}
	p.file(f)
	return p.ok() && p.k == len(strs)
}

// poolWalk checks that the strings used, in order, are the pool's strings in first-use
// order. Since strs[:k] are exactly the strings used so far, a string was used before if and
// only if its first pool offset is below that of strs[k]: the reader's offset index answers
// that without a set of the strings seen.
type poolWalk struct {
	strs   []string
	k      int
	at     uint32 // pool offset of strs[k]
	offset func(string) (uint32, bool)
	bad    bool
}

func (p *poolWalk) ok() bool { return !p.bad }

func (p *poolWalk) use(s string) {
	if p.bad {
		return
	}
	o, ok := p.offset(s)
	switch {
	case !ok || o > p.at || o == p.at && p.k == len(p.strs):
		p.bad = true // not a whole pool string, or used before the strings ahead of it
	case o == p.at:
		p.k++ // the first use of the next string
		p.at += uint32(len(s)) + 1
	}
}

// elementsWith lists the elements that have properties, inputs and outputs. The writer goes
// through the elements once per param type for each of these: most elements of the
// 7,130-node file have no properties or outputs and half have no inputs, and visiting every
// one eighteen times cost more than the strings.
func elementsWith(es []ainb.Element) (props, inputs, outputs []int32) {
	buf := make([]int32, 3*len(es))
	props, inputs, outputs = buf[:0:len(es)], buf[len(es):len(es):2*len(es)], buf[2*len(es):2*len(es)]
	for i := range es {
		e := &es[i]
		if !e.Properties.Empty() {
			props = append(props, int32(i))
		}
		if !e.Inputs.Empty() {
			inputs = append(inputs, int32(i))
		}
		if !e.Outputs.Empty() {
			outputs = append(outputs, int32(i))
		}
	}
	return props, inputs, outputs
}

// file uses the strings in the order (*ainb.File).Bytes writes them. It stops after the
// part where the order first breaks: a game file's pool is seldom in first-use order, and
// walking the rest of the model to no purpose was a twentieth of a parse.
func (p *poolWalk) file(f *ainb.File) {
	p.use(f.Filename)
	p.use(f.Category)
	for _, c := range f.Commands {
		p.use(c.Name)
	}
	for i := range f.Elements {
		p.use(f.Elements[i].Name)
	}
	if p.bad {
		return
	}
	slots := []ainb.BlackboardType{ainb.BBString, ainb.BBS32, ainb.BBU32, ainb.BBF32, ainb.BBBool, ainb.BBVec3f, ainb.BBPointer}
	if f.Version < ainb.Version408 {
		slots = append(slots[:2], slots[3:]...)
	}
	for _, t := range slots {
		for _, bp := range f.Blackboard.Params[t] {
			p.use(bp.Name)
			p.use(bp.Notes)
		}
	}
	for _, bp := range f.Blackboard.Params[ainb.BBString] {
		p.use(bp.Value.String)
	}
	for _, t := range slots {
		for _, bp := range f.Blackboard.Params[t] {
			if bp.File != "" {
				p.use(bp.File)
			}
		}
	}
	if p.bad {
		return
	}
	for i := range f.Elements {
		e := &f.Elements[i]
		for k := range ainb.PlugKind(ainb.NumPlugKinds) {
			ps := e.Plugs.Of(k)
			if len(ps) == 0 {
				continue // most kinds are empty: their layout is not looked up
			}
			l, _ := e.PlugLayout(k, f.Version)
			if l == ainb.LayoutJump {
				continue
			}
			for _, pl := range ps {
				p.use(pl.Name)
				if l == ainb.LayoutWordString {
					p.use(pl.String)
				}
			}
		}
	}
	if p.bad {
		return
	}
	for i := range f.Attachments {
		p.use(f.Attachments[i].Name)
	}
	// A property's or input's strings: its name, a pointer's class name, a string's value.
	param := func(t ainb.ParamType, name, className string, v *ainb.Value) {
		p.use(name)
		if t == ainb.ParamPointer {
			p.use(className)
		}
		if t == ainb.ParamString {
			p.use(v.String)
		}
	}
	props := func(t ainb.ParamType, list []ainb.Property) {
		for j := range list {
			param(t, list[j].Name, list[j].ClassName, &list[j].Value)
		}
	}
	if p.bad {
		return
	}
	withProps, withInputs, withOutputs := elementsWith(f.Elements)
	for t := range ainb.NumParamTypes {
		for _, i := range withProps {
			props(t, f.Elements[i].Properties.Of(t))
		}
		for i := range f.Attachments {
			props(t, f.Attachments[i].Properties.Of(t))
		}
	}
	if p.bad {
		return
	}
	for t := range ainb.NumParamTypes {
		for _, i := range withInputs {
			inList := f.Elements[i].Inputs.Of(t)
			for j := range inList {
				in := &inList[j]
				param(t, in.Name, in.ClassName, &in.Value)
			}
		}
		for _, i := range withOutputs {
			for _, o := range f.Elements[i].Outputs.Of(t) {
				p.use(o.Name)
				if t == ainb.ParamPointer {
					p.use(o.ClassName)
				}
			}
		}
	}
	if p.bad {
		return
	}
	for i := range f.Elements {
		for _, pl := range f.Elements[i].Plugs.Of(ainb.PlugJump) {
			if pl.Jump != nil && pl.Jump.Type == 0 {
				p.use(pl.Jump.Command)
			}
		}
	}
	for _, m := range f.Modules {
		p.use(m.Path)
		p.use(m.Category)
	}
	for i := range f.Elements {
		for _, a := range f.Elements[i].Actions {
			p.use(a.Slot)
			p.use(a.Action)
		}
	}
	if s := f.Section58; s != nil {
		p.use(s.Description)
	}
	if f.Version < ainb.Version407 {
		for i := range f.Elements {
			if s := f.Elements[i].StateInfo; s != nil {
				p.use(s.DesiredState)
			}
		}
	}
	for _, r := range f.EnumRelocations {
		p.use(r.ClassName)
		p.use(r.ValueName)
	}
}
