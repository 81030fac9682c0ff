package ainb

import (
	"fmt"
	"math"

	"ainbeditor/internal/chunk"
)

// This file declares the JSON format of the public Python library `ainb` (the community
// format) once, for both directions. Each object of the format is a members method that names
// its members in the order the reference tool writes them; run by a writing codec it appends
// them from the model, run by a reading codec it fills the model from a decoded document,
// with Python's leniency where the reference tool has it (see the jv readers in
// compat_load.go) and the path of the first bad value in the error.

// String prints a GUID as the community JSON does: the first three groups are little-endian
// integers, the last two plain bytes.
func (g GUID) String() string {
	return fmt.Sprintf("%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		uint32(g[0])|uint32(g[1])<<8|uint32(g[2])<<16|uint32(g[3])<<24,
		uint16(g[4])|uint16(g[5])<<8, uint16(g[6])|uint16(g[7])<<8,
		g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15])
}

// CompatJSON returns the file in the community JSON format, indented as the reference tool
// writes it. Like the reference tool (Python's json module), it writes NaN, Infinity and
// -Infinity for non-finite floats, so the text is not strict JSON when a file holds any.
func (f *File) CompatJSON() ([]byte, error) {
	v, err := f.compat()
	if err != nil {
		return nil, err
	}
	out, err := appendIndentJSON(make([]byte, 0, 64<<10), v, 0)
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// compat is the file's community JSON object.
func (f *File) compat() (object, error) {
	c := newCodec(f, nil)
	c.file(f)
	return c.done(c), c.werr
}

// ReadCompatJSON builds a File from the community JSON format. The file gets the canonical
// layout. Like the reference tool (Python's json module) it reads NaN, Infinity and -Infinity
// where a float belongs; a NaN reads as the quiet NaN 0x7fc00000, as Python stores one.
func ReadCompatJSON(data []byte) (*File, error) {
	root, err := parsePyJSON(data)
	if err != nil {
		return nil, fmt.Errorf("ainb: %w", err) // a *jsontext.SyntaxError: "invalid JSON at line 2, column 15: …"
	}
	return readCompat(root)
}

// readCompat builds a File from a decoded community JSON document.
func readCompat(root any) (*File, error) {
	f := &File{}
	c := newCodec(f, &jv{})
	c.m = c.w.obj("", root)
	if c.w.err == nil {
		c.file(f)
	}
	if c.w.err != nil {
		return nil, c.w.err
	}
	return f, nil
}

// codec writes or reads one object of the community JSON. A writing codec (w == nil)
// appends the object's members to the shared scratch; a reading codec reads them from m,
// the object at path.
type codec struct {
	*codecs
	depth int // of the object in the document
	start int // where the object's members start in scratch
	path  string
	m     map[string]any
}

// codecs is what the codecs of one document share. Objects are written and read depth first,
// so each depth needs one codec at a time, and the members of the objects being written
// form a stack.
type codecs struct {
	f    *File
	werr error // the first error of a writing codec (an expression binary without a listing)
	w    *jv
	n    int // the document's node count, which node indices are checked against

	stack   [maxCodecDepth]codec
	scratch []member
	members chunk.Of[member] // the finished objects' members
}

// maxCodecDepth is the deepest the format nests objects, plus one: a node's attachment's
// properties of one type (Nodes[i].Attachments[j].Properties.Int[k]).
const maxCodecDepth = 8

func newCodec(f *File, w *jv) *codec {
	cs := &codecs{f: f, w: w}
	if w == nil {
		cs.scratch = make([]member, 0, 64)
	}
	c := &cs.stack[0]
	c.codecs = cs
	return c
}

func (c *codec) reading() bool { return c.w != nil }

// presence says when a member is written and whether a document must have it.
type presence struct {
	kind uint8
	set  bool // for ifSet: whether the model has the member
}

const (
	kindRequired  = iota // always written; a document must have it
	kindOptional         // always written; a document may leave it out
	kindIfSet            // written when the model has it; a document may leave it out
	kindWriteOnly        // written, never read (an index the document's order implies)
)

var (
	required  = presence{kind: kindRequired}
	optional  = presence{kind: kindOptional}
	writeOnly = presence{kind: kindWriteOnly}
)

// ifSet is a member written only when set.
func ifSet(set bool) presence { return presence{kind: kindIfSet, set: set} }

// member starts a member: a writing codec reports whether to write it, a reading codec
// whether the document has it (failing on a required one it lacks) and its value.
func (c *codec) member(key string, p presence) (any, bool) {
	if !c.reading() {
		return nil, p.kind != kindIfSet || p.set
	}
	if p.kind == kindWriteOnly || c.w.err != nil {
		return nil, false
	}
	v, ok := c.m[key]
	if !ok && p.kind == kindRequired && c.m != nil {
		c.w.fail(c.path, "missing key %q", key)
	}
	return v, ok
}

func (c *codec) put(key string, v any) { c.scratch = append(c.scratch, member{key, v}) }

func (c *codec) at(key string) string { return join(c.path, key) }

// sub is a codec for a nested object at path: for writing, an empty one; for reading, one
// on v. Only one is in use per depth.
func (c *codec) sub(path string, v any) *codec {
	s := &c.stack[c.depth+1]
	*s = codec{codecs: c.codecs, depth: c.depth + 1, start: len(c.scratch), path: path}
	if c.reading() {
		s.m = c.w.obj(path, v)
	}
	return s
}

// done returns the object a writing codec s wrote, taking its members off the scratch.
func (c *codec) done(s *codec) object {
	o := object(chunk.Clone(&c.members, c.scratch[s.start:]))
	clear(c.scratch[s.start:])
	c.scratch = c.scratch[:s.start]
	if o == nil {
		return object{}
	}
	return o
}

// str, boolean and the rest are the members of one value each, read and written through
// scalar.

// scalar is a member of one value: read turns what was parsed at its path into the model's
// value, write gives what is written for it.
func scalar[T any](c *codec, key string, p presence, x *T, read func(path string, v any) T, write func(T) any) bool {
	v, ok := c.member(key, p)
	if ok {
		if c.reading() {
			*x = read(c.at(key), v)
		} else {
			c.put(key, write(*x))
		}
	}
	return ok
}

func asIs[T any](x T) any { return x }

func (c *codec) str(key string, p presence, s *string) bool {
	return scalar(c, key, p, s, c.w.str, asIs[string])
}

func (c *codec) boolean(key string, p presence, b *bool) bool {
	return scalar(c, key, p, b, c.w.boolean, asIs[bool])
}

type integerType interface {
	~int | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32
}

// integer is a whole number in [lo, hi]; it is written as a value of its type.
func integer[T integerType](c *codec, key string, p presence, i *T, lo, hi int64) bool {
	read := func(path string, v any) T { return T(c.w.integer(path, v, lo, hi)) }
	return scalar(c, key, p, i, read, asIs[T])
}

// word32 is a 32-bit word written unsigned and read from any number in [lo, hi].
func word32[T ~int32 | ~uint32](c *codec, key string, p presence, i *T, lo, hi int64) bool {
	read := func(path string, v any) T { return T(c.w.integer(path, v, lo, hi)) }
	return scalar(c, key, p, i, read, func(w T) any { return uint32(w) })
}

// nodeIndex is the index of a node of the document; the model may hold it in any integer.
func nodeIndex[T ~int | ~int16 | ~int32](c *codec, key string, p presence, i *T) bool {
	read := func(path string, v any) T { return T(c.w.nodeIndex(path, v, c.n)) }
	return scalar(c, key, p, i, read, asIs[T])
}

func (c *codec) f32(key string, p presence, x *F32) bool {
	return scalar(c, key, p, x, c.w.f32, func(f F32) any { return pyFloat(f) })
}

func (c *codec) guid(key string, p presence, g *GUID) bool {
	return scalar(c, key, p, g, c.w.guid, func(g GUID) any { return g.String() })
}

// blackboardWord is a plug's selector word that names a blackboard parameter: bit 31 set
// and the index in the low half, written as the index (signed, or unsigned for the BSA
// selectors' enum index).
func (c *codec) blackboardWord(key string, p presence, w *uint32, unsigned bool) bool {
	v, ok := c.member(key, p)
	if ok {
		switch {
		case c.reading():
			*w = blackboardFlag | uint32(uint16(c.w.integer(c.at(key), v, -0x8000, 0xffff)))
		case unsigned:
			c.put(key, *w&0xffff)
		default:
			c.put(key, int16(*w))
		}
	}
	return ok
}

// enum is a value with names, written by name when it has one and as a number otherwise; a
// document names it.
func enum[T ~uint8](c *codec, key string, p presence, e *T, names []string, what string, want []string) bool {
	v, ok := c.member(key, p)
	if !ok {
		return false
	}
	if !c.reading() {
		if int(*e) < len(names) {
			c.put(key, names[*e])
		} else {
			c.put(key, int(*e))
		}
		return true
	}
	s := c.w.str(c.at(key), v)
	i, found := enumParse(names, s)
	if !found && c.w.err == nil {
		c.w.fail(c.at(key), "unknown %s %q%s", what, s, wantNames(want))
	}
	*e = T(i)
	return true
}

// elementType is a node's type, by name or (one no known file has) by number.
func (c *codec) elementType(key string, p presence, t *ElementType) {
	v, ok := c.member(key, p)
	if !ok {
		return
	}
	if !c.reading() {
		if name, ok := t.name(); ok {
			c.put(key, name)
		} else {
			c.put(key, int(*t))
		}
		return
	}
	if s, isStr := v.(string); isStr {
		et, found := ParseElementType(s)
		if !found {
			c.w.fail(c.at(key), "unknown node type %q", s)
		}
		*t = et
		return
	}
	*t = ElementType(c.w.integer(c.at(key), v, 0, 0xffff))
}

// flag is a member that is there or not: written as true when set, read as there whatever
// its value, as the reference tool tests it ("Is Default" in plug).
func (c *codec) flag(key string, set bool) bool {
	_, ok := c.member(key, ifSet(set))
	if ok && !c.reading() {
		c.put(key, true)
	}
	return ok
}

// wantNames lists the names a value may take, for an error: " (want A, B or C)".
func wantNames(names []string) string {
	s := " (want "
	for i, n := range names {
		switch {
		case i == len(names)-1:
			s += " or "
		case i > 0:
			s += ", "
		}
		s += n
	}
	return s + ")"
}

// flagList is a list of the names of the bits set, in the order of names.
func flagList[T ~uint8 | ~uint32](c *codec, key string, p presence, fl *T, bits []T, names []string) {
	v, ok := c.member(key, p)
	if !ok {
		return
	}
	if !c.reading() {
		list := []any{}
		for i, b := range bits {
			if *fl&b != 0 {
				list = append(list, names[i])
			}
		}
		c.put(key, list)
		return
	}
	path := c.at(key)
	for j, x := range c.w.arr(path, v) {
		s := c.w.str(index(path, j), x)
		i, found := enumParse(names, s)
		if !found {
			if c.w.err == nil {
				c.w.fail(index(path, j), "unknown flag %q%s", s, wantNames(names))
			}
			continue
		}
		*fl |= bits[i]
	}
}

// object is a member holding an object.
func (c *codec) object(key string, p presence, members func(*codec)) bool {
	v, ok := c.member(key, p)
	if !ok {
		return false
	}
	if !c.reading() {
		members(c.sub("", nil))
		c.put(key, c.done(&c.stack[c.depth+1]))
		return true
	}
	members(c.sub(c.at(key), v))
	return true
}

// list is a member holding an array of objects: written from the model's list, read into a
// list as long as the document's.
func list[T any](c *codec, key string, p presence, l *[]T, members func(c *codec, i int, x *T)) bool {
	v, ok := c.member(key, p)
	if !ok {
		return false
	}
	if !c.reading() {
		out := make([]any, len(*l))
		for i := range *l {
			s := c.sub("", nil)
			members(s, i, &(*l)[i])
			out[i] = c.done(s)
		}
		c.put(key, out)
		return true
	}
	path := c.at(key)
	items := c.w.arr(path, v)
	if c.w.err != nil || len(items) == 0 {
		return true
	}
	*l = make([]T, len(items))
	for i, it := range items {
		members(c.sub(index(path, i), it), i, &(*l)[i])
		if c.w.err != nil {
			*l = nil
			return true
		}
	}
	return true
}

// byName is a member holding an object of lists, one per name ({"Int": [...], ...}), which
// each calls members for: lists are written when not empty, and a document may name no
// other lists.
func (c *codec) byName(key string, p presence, names []string, what string, members func(c *codec, i int, name string)) {
	c.object(key, p, func(s *codec) {
		for i, name := range names {
			members(s, i, name)
		}
		if s.reading() {
			s.w.onlyKeys(s.path, s.m, names, what)
		}
	})
}

// The objects of the format, outside in.

func (c *codec) file(f *File) {
	integer(c, "Version", required, &f.Version, 0, math.MaxUint32)
	if c.reading() && c.w.err == nil {
		switch f.Version {
		case Version404, Version407, Version408:
		default:
			c.w.fail("Version", "unsupported version %d (want 1028, 1031 or 1032: 0x404, 0x407 or 0x408)", f.Version)
			return
		}
	}
	c.str("Filename", required, &f.Filename)
	if c.str("Category", required, &f.Category) && c.reading() && f.Version >= Version407 {
		id, ok := CategoryID(f.Category)
		if !ok {
			c.w.fail("Category", "unknown category %q%s", f.Category, wantNames(categoryNames[:]))
		}
		f.CategoryID = id
	}
	integer(c, "Blackboard ID", optional, &f.BlackboardID, 0, math.MaxUint32)
	integer(c, "Parent Blackboard ID", optional, &f.ParentBlackboardID, 0, math.MaxUint32)
	if c.reading() {
		// Commands come first but refer to nodes.
		v, _ := c.member(keyNodes, required)
		c.n = len(c.w.arr(keyNodes, v))
	}
	list(c, "Commands", required, &f.Commands, func(c *codec, _ int, cmd *Command) {
		if c.reading() {
			cmd.Secondary = -1
		}
		c.str("Name", required, &cmd.Name)
		c.guid("GUID", required, &cmd.GUID)
		nodeIndex(c, "Root Node Index", required, &cmd.Root)
		integer(c, "Secondary Root Node Index", ifSet(cmd.Secondary >= 0), &cmd.Secondary, -1, int64(c.n)-1)
	})
	list(c, keyNodes, required, &f.Elements, (*codec).element)
	if c.reading() && f.Elements == nil {
		f.Elements = []Element{}
	}
	if c.reading() && c.w.err == nil {
		for i := range f.Elements {
			for j, q := range f.Elements[i].Queries {
				if f.Elements[q].Flags&FlagQuery == 0 {
					c.w.fail(index(join(index(keyNodes, i), keyQueries), j), "node %d is not a query node (its Flags lack \"Is Query\")", q)
					return
				}
			}
		}
	}
	c.byName("Blackboard", optional, blackboardTypeNames[:], "blackboard type", func(c *codec, t int, name string) {
		list(c, name, ifSet(len(f.Blackboard.Params[t]) > 0), &f.Blackboard.Params[t], func(c *codec, i int, p *BlackboardParam) {
			c.blackboardParam(BlackboardType(t), i, p)
		})
	})
	c.expressions("Expressions", optional, f)
	if f.Version >= Version407 {
		rt := f.Replacement
		if c.reading() || rt == nil {
			rt = &ReplacementTable{}
		}
		list(c, "Replacement Table", optional, &rt.Entries, (*codec).replacement)
		if c.reading() {
			f.Replacement = rt
		}
	}
	list(c, "Modules", optional, &f.Modules, func(c *codec, _ int, m *Module) {
		c.str("Path", required, &m.Path)
		c.str("Category", required, &m.Category)
		integer(c, "Instance Count", required, &m.Instances, 0, math.MaxUint32)
	})
	c.section58("Unknown Section 0x58", optional, f)
	c.boolean("Has Section 0x6C", optional, &f.HasSection6C)
}

// Keys that an error's path names outside their member.
const (
	keyNodes   = "Nodes"
	keyQueries = "Queries"
)

// section58 is an object, empty when the file has no section 0x58.
func (c *codec) section58(key string, p presence, f *File) {
	v, ok := c.member(key, p)
	if !ok {
		return
	}
	path := ""
	if c.reading() {
		path = c.at(key)
	}
	s := c.sub(path, v)
	if (c.reading() && len(s.m) == 0) || (!c.reading() && f.Section58 == nil) {
		if !c.reading() {
			c.put(key, c.done(s))
		}
		return
	}
	if c.reading() {
		f.Section58 = &Section58{}
	}
	x := f.Section58
	s.str("Description", required, &x.Description)
	integer(s, "Unknown04", required, &x.Unknown[0], 0, math.MaxUint32)
	integer(s, "Unknown08", required, &x.Unknown[1], 0, math.MaxUint32)
	integer(s, "Unknown0C", required, &x.Unknown[2], 0, math.MaxUint32)
	if !c.reading() {
		c.put(key, c.done(s))
	}
}

// expressions is the expression binary in the reference tool's form, an empty object when
// the file has none.
func (c *codec) expressions(key string, p presence, f *File) {
	v, ok := c.member(key, p)
	if !ok {
		return
	}
	if !c.reading() {
		if f.Expressions == nil {
			c.put(key, object{})
			return
		}
		x, err := expressionsCompat(f.Expressions)
		if err != nil && c.werr == nil {
			c.werr = err
		}
		c.put(key, x)
		return
	}
	if xm := c.w.obj(key, v); len(xm) == 0 {
		return
	}
	if c.w.noPyConsts(key, v); c.w.err != nil {
		return
	}
	mod, err := expressionsFromCompat(v)
	if err != nil {
		c.w.err = &PathError{Path: key, Msg: err.Error(), Err: err}
		return
	}
	f.Expressions = mod
}

func (c *codec) replacement(_ int, r *Replacement) {
	if c.reading() {
		r.New = -1
	}
	enum(c, "Type", required, &r.Type, replacementTypeNames[:], "replacement type", replacementTypeNames[:])
	nodeIndex(c, "Node Index", required, &r.Element)
	if r.Type == RemoveAttachment {
		integer(c, "Attachment Index", required, &r.Index, -0x8000, 0x7fff)
		return
	}
	integer(c, "Child Plug Index", required, &r.Index, -0x8000, 0x7fff)
	if r.Type == ReplaceChild {
		nodeIndex(c, "Replacement Node Index", required, &r.New)
	}
}

func (c *codec) blackboardParam(t BlackboardType, i int, p *BlackboardParam) {
	if c.reading() {
		p.Inherit = DontInherit
	}
	integer(c, "Blackboard Index", writeOnly, &i, 0, 0)
	c.str("Name", required, &p.Name)
	c.str("Notes", optional, &p.Notes)
	c.str("Source File", ifSet(p.File != ""), &p.File)
	enum(c, "Inherit Mode", optional, &p.Inherit, inheritModeNames[:], "inherit mode", inheritModeNames[:])
	c.blackboardValue("Default Value", required, t, &p.Value)
}

func (c *codec) blackboardValue(key string, p presence, t BlackboardType, x *Value) {
	switch t {
	case BBString:
		c.str(key, p, &x.String)
	case BBS32:
		integer(c, key, p, &x.Int, math.MinInt32, math.MaxInt32)
	case BBU32:
		word32(c, key, p, &x.Int, 0, math.MaxUint32)
	case BBF32:
		c.f32(key, p, &x.Float)
	case BBBool:
		c.boolInt(key, p, &x.Int)
	case BBVec3f:
		c.vec3(key, p, &x.Vec)
	case BBPointer:
		c.null(key, p)
	}
}

// value is a property's or input's immediate value, of its type.
func (c *codec) value(key string, p presence, t ParamType, x *Value) {
	switch t {
	case ParamInt:
		integer(c, key, p, &x.Int, math.MinInt32, math.MaxInt32)
	case ParamBool:
		c.boolInt(key, p, &x.Int)
	case ParamFloat:
		c.f32(key, p, &x.Float)
	case ParamString:
		c.str(key, p, &x.String)
	case ParamVec3f:
		c.vec3(key, p, &x.Vec)
	case ParamPointer:
		c.null(key, p)
	}
}

// boolInt is a boolean held as 0 or 1.
func (c *codec) boolInt(key string, p presence, i *int32) {
	b := *i != 0
	if c.boolean(key, p, &b) && c.reading() && b {
		*i = 1
	}
}

func (c *codec) vec3(key string, p presence, x *Vec3f) {
	v, ok := c.member(key, p)
	if !ok {
		return
	}
	if c.reading() {
		*x = c.w.vec3(c.at(key), v)
		return
	}
	c.put(key, []any{pyFloat(x[0]), pyFloat(x[1]), pyFloat(x[2])})
}

// null is the value of pointers, which have none.
func (c *codec) null(key string, p presence) {
	v, ok := c.member(key, p)
	if !ok {
		return
	}
	if !c.reading() {
		c.put(key, nil)
	} else if v != nil {
		c.w.fail(c.at(key), "pointer values must be null, got %s", kind(v))
	}
}

// nameAndClass are the name, and the class name of pointers.
func (c *codec) nameAndClass(t ParamType, name, class *string) {
	c.str("Name", required, name)
	if t == ParamPointer {
		c.str("Classname", required, class)
	}
}

// paramFlags are the flags of a property or an input source: where its value comes from.
func (c *codec) paramFlags(fl *ParamFlags) {
	flagList(c, "Flags", optional, fl, paramFlagBits[:], paramFlagNames[:])
	x := fl.Index()
	if integer(c, "Expression Index", ifSet(fl.IsExpression()), &x, 0, 0xffff) {
		if c.reading() {
			*fl |= paramExpression | ParamFlags(x)
		}
		return
	}
	if !integer(c, "Blackboard Index", ifSet(fl.IsBlackboard()), &x, 0, 0xffff) {
		return
	}
	comp := uint8(fl.VectorComponent())
	if c.reading() {
		*fl |= paramBlackboard | ParamFlags(x)
	}
	if enum(c, "Vector Component", ifSet(comp != 0), &comp, vectorComponentNames[:], "component", vectorComponentNames[1:]) && c.reading() {
		*fl |= ParamFlags(comp) << paramComponentShift
	}
}

// properties are an element's or attachment's properties, by type.
func (c *codec) properties(key string, p presence, ps *Properties) {
	lists := ps.Lists()
	c.byName(key, p, paramTypeNames[:], "type", func(c *codec, t int, name string) {
		list(c, name, ifSet(len(lists[t]) > 0), &lists[t], func(c *codec, _ int, pr *Property) {
			c.nameAndClass(ParamType(t), &pr.Name, &pr.ClassName)
			c.value("Default Value", required, ParamType(t), &pr.Value)
			c.paramFlags(&pr.Flags)
		})
	})
	if c.reading() {
		ps.SetAll(lists)
	}
}

func (c *codec) source(s *Source) {
	node := int64(s.Node)
	if v, ok := c.member("Node Index", required); ok {
		if c.reading() {
			node = c.w.integer(c.at("Node Index"), v, -1, 0x7fff)
			if c.w.err == nil && node >= int64(c.n) {
				c.w.fail(c.at("Node Index"), "%d out of range (%d nodes)", node, c.n)
			}
			s.Node = int16(node)
		} else {
			c.put("Node Index", s.Node)
		}
	}
	integer(c, "Output Index", required, &s.Output, -0x8000, 0x7fff)
	c.paramFlags(&s.Flags)
}

func (c *codec) parameters(e *Element) {
	inputs, outputs := e.Inputs.Lists(), e.Outputs.Lists()
	c.byName("Inputs", optional, paramTypeNames[:], "type", func(c *codec, t int, name string) {
		list(c, name, ifSet(len(inputs[t]) > 0), &inputs[t], func(c *codec, _ int, in *Input) {
			c.nameAndClass(ParamType(t), &in.Name, &in.ClassName)
			c.value("Default Value", required, ParamType(t), &in.Value)
			if !list(c, "Sources", ifSet(in.IsMulti()), &in.Sources, func(c *codec, _ int, s *Source) { c.source(s) }) {
				c.source(&in.Source)
			} else if c.reading() && in.Sources == nil {
				in.Sources = []Source{}
			}
			c.boolean("Is Set Blackboard", ifSet(in.SetBlackboard), &in.SetBlackboard)
		})
	})
	c.byName("Outputs", optional, paramTypeNames[:], "type", func(c *codec, t int, name string) {
		list(c, name, ifSet(len(outputs[t]) > 0), &outputs[t], func(c *codec, _ int, o *Output) {
			c.nameAndClass(ParamType(t), &o.Name, &o.ClassName)
			c.boolean("Is Output", optional, &o.Connected)
		})
	})
	if c.reading() {
		e.Inputs.SetAll(inputs)
		e.Outputs.SetAll(outputs)
	}
}

func (c *codec) element(i int, e *Element) {
	f := c.f
	c.elementType("Node Type", required, &e.Type)
	integer(c, "Node Index", writeOnly, &i, 0, 0)
	c.str("Name", required, &e.Name)
	c.guid("GUID", optional, &e.GUID)
	flagList(c, "Flags", optional, &e.Flags, elementFlagBits[:], elementFlagNames[:])
	v, ok := c.member(keyQueries, optional)
	if ok {
		if c.reading() {
			path := c.at(keyQueries)
			for j, q := range c.w.arr(path, v) {
				e.Queries = append(e.Queries, int(c.w.nodeIndex(index(path, j), q, c.n)))
			}
		} else {
			qs := make([]any, len(e.Queries))
			for j, q := range e.Queries {
				qs[j] = q
			}
			c.put(keyQueries, qs)
		}
	}
	// Attachments are the file's, listed by index; a document lists each under its node.
	var atts []Attachment
	if !c.reading() {
		atts = make([]Attachment, len(e.Attachments))
		for j, a := range e.Attachments {
			atts[j] = f.Attachments[a]
		}
	}
	list(c, "Attachments", optional, &atts, func(c *codec, _ int, a *Attachment) {
		c.str("Name", required, &a.Name)
		integer(c, "Debug", optional, &a.Debug, 0, math.MaxUint32)
		c.properties("Properties", optional, &a.Properties)
	})
	if c.reading() {
		for _, a := range atts {
			e.Attachments = append(e.Attachments, len(f.Attachments))
			f.Attachments = append(f.Attachments, a)
		}
	}
	c.properties("Properties", optional, &e.Properties)
	c.object("Parameters", optional, func(c *codec) { c.parameters(e) })
	list(c, "XLink Actions", optional, &e.Actions, func(c *codec, _ int, a *Action) {
		c.str("Action Slot", required, &a.Slot)
		c.str("Action", required, &a.Action)
	})
	if f.Version < Version407 {
		if c.reading() {
			e.StateInfo = &StateInfo{}
		}
		if s := e.StateInfo; s != nil {
			c.object("State Info", optional, func(c *codec) {
				c.str("Desired State", required, &s.DesiredState)
				integer(c, "Unknown04", required, &s.Unknown[0], 0, math.MaxUint32)
				integer(c, "Unknown08", required, &s.Unknown[1], 0, math.MaxUint32)
				integer(c, "Unknown0C", required, &s.Unknown[2], 0, math.MaxUint32)
				integer(c, "Unknown10", required, &s.Unknown[3], 0, math.MaxUint32)
			})
		}
	}
	c.plugs(e)
}

func (c *codec) plugs(e *Element) {
	var plugs [plugTables][]Plug
	if !c.reading() {
		for k := range PlugKind(plugTables) {
			plugs[k] = e.plugsOf(k)
		}
	}
	c.byName("Plugs", optional, plugKindNames[:], "plug kind", func(c *codec, k int, name string) {
		layout, _ := e.PlugLayout(PlugKind(k), c.f.Version)
		ps := &plugs[k]
		list(c, name, ifSet(len(*ps) > 0), ps, func(c *codec, j int, p *Plug) {
			// The reader learns the list's length as it reads it.
			last := j == len(*ps)-1
			c.plug(e, PlugKind(k), layout, p, last)
		})
	})
	if !c.reading() || c.w.err != nil {
		return
	}
	lists := e.Plugs.Lists()
	for k := range PlugKind(plugTables) {
		if len(plugs[k]) == 0 {
			continue
		}
		if k < NumPlugKinds {
			lists[k] = plugs[k]
			continue
		}
		if e.UnusedPlugs == nil {
			e.UnusedPlugs = new(UnusedPlugs)
		}
		e.UnusedPlugs[k-NumPlugKinds] = plugs[k]
	}
	e.Plugs.SetAll(lists)
}

const blackboardFlag = 1 << 31

// usesBlackboard reads the blackboard flag of a selector word: bit 31, index in the low half.
func usesBlackboard(w uint32) bool { return w>>31 != 0 }

// plug is a plug of kind k; its members depend on the element's type and the plug's layout.
// last says whether it ends its list, which for some selectors makes it the default case.
func (c *codec) plug(e *Element, k PlugKind, layout PlugLayout, p *Plug, last bool) {
	if v, ok := c.member("Node Index", required); ok {
		if c.reading() {
			node := c.w.integer(c.at("Node Index"), v, math.MinInt32, math.MaxInt32)
			if c.w.err == nil && k == PlugChild && (node < 0 || node >= int64(c.n)) {
				c.w.fail(c.at("Node Index"), "%d out of range (%d nodes)", node, c.n)
			}
			p.Node = int32(node)
		} else {
			c.put("Node Index", p.Node)
		}
	}
	switch layout {
	case LayoutJump:
		if c.reading() {
			p.Jump = &Jump{}
		}
		j := p.Jump
		integer(c, "Transition Type", required, &j.Type, 0, 255)
		c.boolean("Update Post Calc", optional, &j.PostCalc)
		if j.Type == 0 {
			c.str("Transition Name", optional, &j.Command)
		}
		return
	case LayoutRaw:
		// The kinds no known file uses, which the reference tool refuses: this format's
		// extension keeps their word.
		integer(c, "Value", required, &p.Word, 0, math.MaxUint32)
		return
	}
	c.str("Name", required, &p.Name)
	if layout == LayoutBasic {
		return
	}
	if k == PlugChild {
		c.childCase(e, p, last)
		return
	}
	switch {
	case k == PlugGeneric && e.Type == BoolSelector:
		word32(c, "Unknown 1", required, &p.Word, math.MinInt32, math.MaxUint32)
		word32(c, "Unknown 2", required, &p.Int, math.MinInt32, math.MaxUint32)
	case k == PlugGeneric && e.Type == F32Selector:
		word32(c, "Unknown 1", required, &p.Word, math.MinInt32, math.MaxUint32)
		c.f32("Unknown 2", required, &p.Float)
	case layout == LayoutWordString:
		if word32(c, "Unknown", optional, &p.Word, math.MinInt32, math.MaxUint32) {
			c.str("Default Value", required, &p.String)
		}
	default:
		if word32(c, "Unknown", optional, &p.Word, math.MinInt32, math.MaxUint32) {
			integer(c, "Default Value", required, &p.Int, math.MinInt32, math.MaxUint32)
		}
	}
}

// childCase is what a selector's child plug selects on: a condition, or a blackboard
// parameter and its default.
func (c *codec) childCase(e *Element, p *Plug, last bool) {
	// The last plug of these selectors is always the default case, whatever it says.
	if e.Type == S32Selector || e.Type == F32Selector || e.Type == StringSelector {
		if c.flag("Is Default", last) || last {
			if c.reading() && e.Type == StringSelector {
				p.String = "その他"
			}
			return
		}
	}
	// A document holds either the value or a blackboard index and (but for F32 ranges and
	// BSA enums) its default.
	switch e.Type {
	case S32Selector:
		if !integer(c, "Condition", ifSet(!usesBlackboard(p.Word)), &p.Int, math.MinInt32, math.MaxUint32) {
			c.blackboardWord("Blackboard Index", required, &p.Word, false)
			integer(c, "Default Condition", required, &p.Int, math.MinInt32, math.MaxUint32)
		}
	case StringSelector:
		if !c.str("Condition", ifSet(!usesBlackboard(p.Word)), &p.String) {
			c.blackboardWord("Blackboard Index", required, &p.Word, false)
			c.str("Default Condition", required, &p.String)
		}
	case F32Selector:
		if !c.f32("Condition Min", ifSet(!usesBlackboard(p.Word)), &p.Float) {
			c.blackboardWord("Condition Min Blackboard Index", required, &p.Word, false)
		}
		if !c.f32("Condition Max", ifSet(!usesBlackboard(p.MaxWord)), &p.MaxFloat) {
			c.blackboardWord("Condition Max Blackboard Index", required, &p.MaxWord, false)
		}
	case RandomSelector:
		if !c.f32("Weight", ifSet(!usesBlackboard(p.Word)), &p.Float) {
			c.blackboardWord("Blackboard Index", required, &p.Word, false)
			c.f32("Default Weight", required, &p.Float)
		}
	default: // BSA selectors
		if !word32(c, "Child Enum Value", ifSet(!usesBlackboard(p.Word)), &p.Int, math.MinInt32, math.MaxUint32) {
			c.blackboardWord("Child Enum BB Index", required, &p.Word, true)
		}
	}
}
