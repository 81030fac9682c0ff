package graph

import (
	"math"
	"strconv"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/jsontext"
)

// The document's JSON, written by hand: one pass, appending to one buffer, no reflection.
// Members come in the order types.go declares them; optional ones are left out when empty.

// Encode returns the document as compact JSON.
func (d *Document) Encode() []byte {
	return d.AppendJSON(make([]byte, 0, d.EncodedSizeHint()))
}

// EncodedSizeHint estimates the length of the document's JSON, so the buffer it is written to
// seldom grows and is not much larger than needed: the fixed members of each node, plug and
// child, plus every name, string value, expression text (with an eighth for escaped
// newlines) and the layout, counted as they are. Nodes range from 150 to 1,000 bytes in the
// corpus, so a flat rate per node was either short (a regrow, copying the whole text) or
// megabytes too long.
func (d *Document) EncodedSizeHint() int {
	n := 1024 + len(d.Layout) + 200*len(d.Attachments) + 120*len(d.Blackboard) + 100*len(d.Commands)
	for i := range d.Nodes {
		nd := &d.Nodes[i]
		n += 130 + len(nd.Name) + 8*(len(nd.Queries)+len(nd.Attachments)) + 40*len(nd.Jumps) + 80*len(nd.Actions)
		if nd.StateInfo != nil {
			n += 100
		}
		for j := range nd.Properties {
			p := &nd.Properties[j]
			n += 64 + len(p.Name) + len(p.ClassName) + len(p.Value.String)
		}
		for j := range nd.Inputs {
			p := &nd.Inputs[j]
			n += 64 + len(p.Name) + len(p.ClassName) + len(p.Value.String) + 24*len(p.Sources)
		}
		for j := range nd.Outputs {
			n += 40 + len(nd.Outputs[j].Name) + len(nd.Outputs[j].ClassName)
		}
		for j := range nd.Children {
			n += 40 + len(nd.Children[j].Name)
			if c := nd.Children[j].Condition; c != nil {
				n += 40
				if c.String != nil {
					n += len(*c.String)
				}
			}
		}
	}
	if d.Expressions != nil {
		for _, f := range d.Expressions.Functions {
			n += len(f.Text) + len(f.Text)/8 + 16
			if f.ParsedText != nil {
				n += len(*f.ParsedText) + len(*f.ParsedText)/8 + 16
			}
		}
	}
	return n
}

// MarshalJSON makes encoding/json write the document as Encode does.
func (d *Document) MarshalJSON() ([]byte, error) { return d.Encode(), nil }

func appendRaw(b []byte, s string) []byte  { return append(b, s...) }
func appendInt(b []byte, v int64) []byte   { return strconv.AppendInt(b, v, 10) }
func appendUint(b []byte, v uint64) []byte { return strconv.AppendUint(b, v, 10) }

// appendValueType writes a type: nearly always one of the few words below, which need no
// quoting (quoting them was a third of the strings a document writes).
func appendValueType(b []byte, t ValueType) []byte {
	switch t {
	case "int", "bool", "float", "string", "vec3f", "pointer", "u32":
		b = append(b, '"')
		b = append(b, t...)
		return append(b, '"')
	}
	return jsontext.AppendString(b, string(t))
}
func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// sep appends a comma when something was written since n.
func sep(b []byte, n int) []byte {
	if len(b) > n {
		return append(b, ',')
	}
	return b
}

// appendFloat writes a float32: the shortest number that reads back as the same float32, or
// for NaN, infinities and -0 the string of its bits. Whole numbers below a million, the
// common case, are written as integers without going through the float formatter.
func appendFloat(b []byte, f Float) []byte {
	bits := math.Float32bits(float32(f))
	if bits&0x7f800000 == 0x7f800000 || bits == 0x80000000 {
		const hex = "0123456789abcdef"
		b = append(b, '"', '0', 'x')
		for s := 28; s >= 0; s -= 4 {
			b = append(b, hex[bits>>uint(s)&0xf])
		}
		return append(b, '"')
	}
	if v := float32(f); v > -1e6 && v < 1e6 && v == float32(int32(v)) {
		return appendInt(b, int64(v))
	}
	return strconv.AppendFloat(b, float64(f), 'g', -1, 32)
}

// position writes a canvas coordinate.
func appendPosition(b []byte, x float64) []byte {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		x = 0
	}
	if x > -1e15 && x < 1e15 && x == math.Trunc(x) {
		return appendInt(b, int64(x))
	}
	return strconv.AppendFloat(b, x, 'g', -1, 64)
}

func appendGUID(b []byte, g *ainb.GUID) []byte {
	const hex = "0123456789abcdef"
	var t [38]byte // written whole, then appended once: a GUID's 36 appends were noticeable
	t[0], t[9], t[14], t[19], t[24], t[37] = '"', '-', '-', '-', '-', '"'
	for i, at := range guidDigits {
		t[1+at], t[2+at] = hex[g[i]>>4], hex[g[i]&0xf]
	}
	return append(b, t[:]...)
}

// value writes an immediate value of type t.
func appendValue(b []byte, t ValueType, v *Value) []byte {
	switch t {
	case "int", "u32":
		b = appendInt(b, v.Int)
	case "bool":
		b = appendBool(b, v.Int != 0)
	case "float":
		b = appendFloat(b, v.Float)
	case "string":
		b = jsontext.AppendString(b, v.String)
	case "vec3f":
		b = append(b, '[')
		b = appendFloat(b, v.Vec[0])
		b = append(b, ',')
		b = appendFloat(b, v.Vec[1])
		b = append(b, ',')
		b = appendFloat(b, v.Vec[2])
		b = append(b, ']')
	default:
		b = appendRaw(b, "null")
	}
	return b
}

func appendOptInt(b []byte, k string, p *int) []byte {
	if p != nil {
		b = appendRaw(b, k)
		b = appendInt(b, int64(*p))
	}
	return b
}

func appendOptBool(b []byte, k string, p *bool) []byte {
	if p != nil {
		b = appendRaw(b, k)
		b = appendBool(b, *p)
	}
	return b
}

func appendFlag(b []byte, k string, v bool) []byte {
	if v {
		b = appendRaw(b, k)
		b = appendRaw(b, "true")
	}
	return b
}

// appendInts writes an array of integers (node indices, or the u32 words of unknown fields).
func appendInts[T int | uint32](b []byte, v []T) []byte {
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendInt(b, int64(x))
	}
	b = append(b, ']')
	return b
}

func appendSource(b []byte, s *Source) []byte {
	b = append(b, '{')
	n := len(b)
	if s.Node != nil {
		b = append(sep(b, n), `"node":`...)
		b = appendInt(b, int64(*s.Node))
	}
	if s.Output != 0 {
		b = append(sep(b, n), `"output":`...)
		b = appendInt(b, int64(s.Output))
	}
	if s.MissingOutput != nil {
		b = append(sep(b, n), `"missingOutput":`...)
		b = appendInt(b, int64(*s.MissingOutput))
	}
	if s.Blackboard != nil {
		b = append(sep(b, n), `"blackboard":`...)
		b = appendInt(b, int64(*s.Blackboard))
	}
	if s.Component != "" {
		b = append(sep(b, n), `"component":`...)
		b = jsontext.AppendString(b, s.Component)
	}
	if s.Expression != nil {
		b = append(sep(b, n), `"expression":`...)
		b = appendInt(b, int64(*s.Expression))
	}
	if s.IsOutput {
		b = append(sep(b, n), `"isOutput":true`...)
	}
	if s.UsesDefault != nil {
		b = append(sep(b, n), `"usesDefault":`...)
		b = appendBool(b, *s.UsesDefault)
	}
	b = append(b, '}')
	return b
}

// appendParamHead opens the object of a property, input or output with the members they all
// start with: name, type and, when it has one, className.
func appendParamHead(b []byte, name string, t ValueType, className string) []byte {
	b = appendRaw(b, `{"name":`)
	b = jsontext.AppendString(b, name)
	b = appendRaw(b, `,"type":`)
	b = appendValueType(b, t)
	if className != "" {
		b = appendRaw(b, `,"className":`)
		b = jsontext.AppendString(b, className)
	}
	return b
}

// appendValueSource writes the value of a property or input and, when it has one, its source.
func appendValueSource(b []byte, t ValueType, v *Value, s *Source) []byte {
	b = appendRaw(b, `,"value":`)
	b = appendValue(b, t, v)
	if s != nil {
		b = appendRaw(b, `,"source":`)
		b = appendSource(b, s)
	}
	return b
}

func appendProperties(b []byte, ps []Property) []byte {
	b = append(b, '[')
	for i := range ps {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendProperty(b, &ps[i])
	}
	b = append(b, ']')
	return b
}

func appendNode(b []byte, n *Node) []byte {
	b = appendRaw(b, `{"id":`)
	b = appendInt(b, int64(n.ID))
	b = appendRaw(b, `,"type":`)
	if n.Type == "UserDefined" {
		// Most nodes of most files (every one of the 7,130-node file's): the word needs
		// no quoting.
		b = appendRaw(b, `"UserDefined"`)
	} else {
		b = jsontext.AppendString(b, string(n.Type))
	}
	b = appendRaw(b, `,"name":`)
	b = jsontext.AppendString(b, n.Name)
	b = appendRaw(b, `,"guid":`)
	b = appendGUID(b, &n.GUID)
	b = appendFlag(b, `,"query":`, n.Query)
	b = appendFlag(b, `,"moduleCaller":`, n.ModuleCaller)
	b = appendFlag(b, `,"residentInit":`, n.ResidentInit)
	b = appendFlag(b, `,"multiParamV2":`, n.MultiParamV2)
	b = appendRaw(b, `,"x":`)
	b = appendPosition(b, n.X)
	b = appendRaw(b, `,"y":`)
	b = appendPosition(b, n.Y)
	b = appendFlag(b, `,"pinned":`, n.Pinned)
	if len(n.Properties) > 0 {
		b = appendRaw(b, `,"properties":`)
		b = appendProperties(b, n.Properties)
	}
	if len(n.Inputs) > 0 {
		b = appendRaw(b, `,"inputs":[`)
		for i := range n.Inputs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendInput(b, &n.Inputs[i])
		}
		b = append(b, ']')
	}
	if len(n.Outputs) > 0 {
		b = appendRaw(b, `,"outputs":[`)
		for i := range n.Outputs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendOutput(b, &n.Outputs[i])
		}
		b = append(b, ']')
	}
	if len(n.Children) > 0 {
		b = appendRaw(b, `,"children":[`)
		for i := range n.Children {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendChild(b, &n.Children[i])
		}
		b = append(b, ']')
	}
	if len(n.Jumps) > 0 {
		b = appendRaw(b, `,"jumps":[`)
		for i := range n.Jumps {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJump(b, &n.Jumps[i])
		}
		b = append(b, ']')
	}
	if len(n.Queries) > 0 {
		b = appendRaw(b, `,"queries":`)
		b = appendInts(b, n.Queries)
	}
	if len(n.Attachments) > 0 {
		b = appendRaw(b, `,"attachments":`)
		b = appendInts(b, n.Attachments)
	}
	if len(n.Actions) > 0 {
		b = appendRaw(b, `,"actions":[`)
		for i, a := range n.Actions {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendRaw(b, `{"slot":`)
			b = jsontext.AppendString(b, a.Slot)
			b = appendRaw(b, `,"action":`)
			b = jsontext.AppendString(b, a.Action)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if s := n.StateInfo; s != nil {
		b = appendRaw(b, `,"stateInfo":{"desiredState":`)
		b = jsontext.AppendString(b, s.DesiredState)
		b = appendRaw(b, `,"unknown":`)
		b = appendInts(b, s.Unknown[:])
		b = append(b, '}')
	}
	b = append(b, '}')
	return b
}

func appendInput(b []byte, in *Input) []byte {
	b = appendParamHead(b, in.Name, in.Type, in.ClassName)
	b = appendValueSource(b, in.Type, &in.Value, in.Source)
	if in.Sources != nil {
		b = appendRaw(b, `,"sources":[`)
		for k := range in.Sources {
			if k > 0 {
				b = append(b, ',')
			}
			b = appendSource(b, &in.Sources[k])
		}
		b = append(b, ']')
	}
	b = appendFlag(b, `,"setBlackboard":`, in.SetBlackboard)
	b = appendFlag(b, `,"isOutput":`, in.IsOutput)
	b = appendOptBool(b, `,"usesDefault":`, in.UsesDefault)
	return append(b, '}')
}

func appendOutput(b []byte, o *Output) []byte {
	b = appendParamHead(b, o.Name, o.Type, o.ClassName)
	b = appendFlag(b, `,"connected":`, o.Connected)
	return append(b, '}')
}

func appendChild(b []byte, c *Child) []byte {
	b = appendRaw(b, `{"node":`)
	if c.Node == NoNode {
		b = appendRaw(b, `null`)
	} else {
		b = appendInt(b, int64(c.Node))
	}
	b = appendRaw(b, `,"name":`)
	b = jsontext.AppendString(b, c.Name)
	if k := c.Condition; k != nil {
		b = appendRaw(b, `,"condition":{`)
		n := len(b)
		if k.Int != nil {
			b = append(sep(b, n), `"int":`...)
			b = appendInt(b, int64(*k.Int))
		}
		if k.String != nil {
			b = append(sep(b, n), `"string":`...)
			b = jsontext.AppendString(b, *k.String)
		}
		if k.Weight != nil {
			b = append(sep(b, n), `"weight":`...)
			b = appendFloat(b, *k.Weight)
		}
		if k.Min != nil {
			b = append(sep(b, n), `"min":`...)
			b = appendFloat(b, *k.Min)
		}
		if k.Max != nil {
			b = append(sep(b, n), `"max":`...)
			b = appendFloat(b, *k.Max)
		}
		if k.Blackboard != nil {
			b = append(sep(b, n), `"blackboard":`...)
			b = appendInt(b, int64(*k.Blackboard))
		}
		if k.MinBlackboard != nil {
			b = append(sep(b, n), `"minBlackboard":`...)
			b = appendInt(b, int64(*k.MinBlackboard))
		}
		if k.MaxBlackboard != nil {
			b = append(sep(b, n), `"maxBlackboard":`...)
			b = appendInt(b, int64(*k.MaxBlackboard))
		}
		b = append(b, '}')
	}
	b = append(b, '}')
	return b
}

func appendJump(b []byte, j *Jump) []byte {
	b = appendRaw(b, `{"node":`)
	b = appendInt(b, int64(j.Node))
	b = appendRaw(b, `,"type":`)
	b = appendInt(b, int64(j.Type))
	if j.Command != "" {
		b = appendRaw(b, `,"command":`)
		b = jsontext.AppendString(b, j.Command)
	}
	b = appendFlag(b, `,"postCalc":`, j.PostCalc)
	return append(b, '}')
}

func appendCommand(b []byte, c *Command) []byte {
	b = appendRaw(b, `{"name":`)
	b = jsontext.AppendString(b, c.Name)
	b = appendRaw(b, `,"guid":`)
	b = appendGUID(b, &c.GUID)
	b = appendRaw(b, `,"root":`)
	b = appendInt(b, int64(c.Root))
	b = appendRaw(b, `,"secondary":`)
	b = appendInt(b, int64(c.Secondary))
	return append(b, '}')
}

func appendAttachment(b []byte, a *Attachment) []byte {
	b = appendRaw(b, `{"name":`)
	b = jsontext.AppendString(b, a.Name)
	b = appendRaw(b, `,"debug":`)
	b = appendUint(b, uint64(a.Debug))
	if len(a.Properties) > 0 {
		b = appendRaw(b, `,"properties":`)
		b = appendProperties(b, a.Properties)
	}
	return append(b, '}')
}

func appendBlackboardParam(b []byte, p *BlackboardParam) []byte {
	b = appendRaw(b, `{"name":`)
	b = jsontext.AppendString(b, p.Name)
	b = appendRaw(b, `,"type":`)
	b = appendValueType(b, p.Type)
	if p.Notes != "" {
		b = appendRaw(b, `,"notes":`)
		b = jsontext.AppendString(b, p.Notes)
	}
	b = appendRaw(b, `,"inherit":`)
	b = jsontext.AppendString(b, p.Inherit)
	if p.File != "" {
		b = appendRaw(b, `,"file":`)
		b = jsontext.AppendString(b, p.File)
	}
	b = appendRaw(b, `,"value":`)
	b = appendValue(b, p.Type, &p.Value)
	return append(b, '}')
}

func appendModule(b []byte, m *Module) []byte {
	b = appendRaw(b, `{"path":`)
	b = jsontext.AppendString(b, m.Path)
	b = appendRaw(b, `,"category":`)
	b = jsontext.AppendString(b, m.Category)
	b = appendRaw(b, `,"instances":`)
	b = appendUint(b, uint64(m.Instances))
	return append(b, '}')
}

// AppendJSON appends the document's JSON to b.
func (d *Document) AppendJSON(b []byte) []byte {
	b, _ = d.AppendJSONLimit(b, jsontext.NoLimit)
	return b
}

// AppendJSONLimit appends the document's JSON to b, stopping with a *jsontext.TooLargeError
// once b would hold more than limit bytes. The budget is checked after each node,
// attachment, blackboard entry and expression function, and before a long expression text,
// so a document far beyond its file is refused having written at most limit bytes and one
// part; the error's Where names that part ("node 4031").
func (d *Document) AppendJSONLimit(b []byte, limit int) ([]byte, error) {
	// A buffer sized from EncodedSizeHint seldom grows; once append has had to grow it
	// (text the hint did not foresee, such as escapes) it doubles instead (see jsontext.Grow).
	sized := cap(b)
	b = appendRaw(b, `{"format":`)
	b = jsontext.AppendString(b, d.Format)
	b = appendRaw(b, `,"name":`)
	b = jsontext.AppendString(b, d.Name)
	b = appendRaw(b, `,"version":`)
	b = appendUint(b, uint64(d.Version))
	b = appendRaw(b, `,"filename":`)
	b = jsontext.AppendString(b, d.Filename)
	b = appendRaw(b, `,"category":`)
	b = jsontext.AppendString(b, d.Category)

	b = appendRaw(b, `,"commands":[`)
	for i := range d.Commands {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCommand(b, &d.Commands[i])
	}
	b = appendRaw(b, `],"nodes":[`)
	for i := range d.Nodes {
		if i > 0 {
			b = append(b, ',')
		}
		if len(b)+nodeTextAtLeast(&d.Nodes[i]) > limit {
			// One node may hold most of the document (a file's names all one long string).
			return nil, tooLarge(limit, "node", i)
		}
		b = appendNode(b, &d.Nodes[i])
		if len(b) > limit {
			return nil, tooLarge(limit, "node", i)
		}
		if cap(b) != sized {
			b = jsontext.Grow(b, limit)
		}
	}
	b = appendRaw(b, `],"attachments":[`)
	for i := range d.Attachments {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendAttachment(b, &d.Attachments[i])
		if len(b) > limit {
			return nil, tooLarge(limit, "attachment", i)
		}
		if cap(b) != sized {
			b = jsontext.Grow(b, limit)
		}
	}
	b = appendRaw(b, `],"blackboard":[`)
	for i := range d.Blackboard {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendBlackboardParam(b, &d.Blackboard[i])
		if len(b) > limit {
			return nil, tooLarge(limit, "blackboard entry", i)
		}
		if cap(b) != sized {
			b = jsontext.Grow(b, limit)
		}
	}
	b = appendRaw(b, `],"expressions":`)
	if x := d.Expressions; x == nil {
		b = appendRaw(b, "null")
	} else {
		b = appendRaw(b, `{"version":`)
		b = appendUint(b, uint64(x.Version))
		b = appendRaw(b, `,"functions":[`)
		for i, f := range x.Functions {
			if i > 0 {
				b = append(b, ',')
			}
			if len(b)+len(f.Text) > limit {
				return nil, &jsontext.TooLargeError{Limit: limit, Where: "expression function " + strconv.Itoa(i)}
			}
			b = appendRaw(b, `{"text":`)
			b = jsontext.AppendString(b, f.Text)
			if f.ParsedText != nil {
				b = appendRaw(b, `,"parsedText":`)
				b = jsontext.AppendString(b, *f.ParsedText)
			}
			b = append(b, '}')
			if len(b) > limit {
				return nil, tooLarge(limit, "expression function", i)
			}
			if cap(b) != sized {
				b = jsontext.Grow(b, limit)
			}
		}
		b = appendRaw(b, `]}`)
	}
	b = appendRaw(b, `,"modules":[`)
	for i := range d.Modules {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendModule(b, &d.Modules[i])
		if len(b) > limit {
			return nil, tooLarge(limit, "module", i)
		}
		if cap(b) != sized {
			b = jsontext.Grow(b, limit)
		}
	}
	b = appendRaw(b, `],"moduleCall":{"blackboardId":`)
	b = appendUint(b, uint64(d.ModuleCall.BlackboardID))
	b = appendRaw(b, `,"parentBlackboardId":`)
	b = appendUint(b, uint64(d.ModuleCall.ParentBlackboardID))
	b = appendRaw(b, `},"replacements":`)
	if d.Replacements == nil {
		b = appendRaw(b, "null")
	} else {
		b = append(b, '[')
		for i, r := range d.Replacements {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendRaw(b, `{"type":`)
			b = jsontext.AppendString(b, r.Type)
			b = appendRaw(b, `,"node":`)
			b = appendInt(b, int64(r.Node))
			b = appendRaw(b, `,"index":`)
			b = appendInt(b, int64(r.Index))
			b = appendOptInt(b, `,"new":`, r.New)
			b = append(b, '}')
			if len(b) > limit {
				return nil, tooLarge(limit, "replacement", i)
			}
			if cap(b) != sized {
				b = jsontext.Grow(b, limit)
			}
		}
		b = append(b, ']')
	}
	b = appendRaw(b, `,"enumRelocations":[`)
	for i, r := range d.EnumRelocations {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendRaw(b, `{"className":`)
		b = jsontext.AppendString(b, r.ClassName)
		b = appendRaw(b, `,"valueName":`)
		b = jsontext.AppendString(b, r.ValueName)
		if t := r.Target; t != nil {
			b = appendRaw(b, `,"target":{`)
			n := len(b)
			for _, f := range []struct {
				k string
				p *int
			}{{`"node":`, t.Node}, {`"attachment":`, t.Attachment}, {`"property":`, t.Property}, {`"input":`, t.Input}} {
				if f.p == nil {
					continue
				}
				if len(b) > n {
					b = append(b, ',')
				}
				b = appendRaw(b, f.k)
				b = appendInt(b, int64(*f.p))
			}
			b = append(b, '}')
		}
		b = append(b, '}')
		if len(b) > limit {
			return nil, tooLarge(limit, "enum relocation", i)
		}
		if cap(b) != sized {
			b = jsontext.Grow(b, limit)
		}
	}
	b = appendRaw(b, `],"section58":`)
	if s := d.Section58; s == nil {
		b = appendRaw(b, "null")
	} else {
		b = appendRaw(b, `{"description":`)
		b = jsontext.AppendString(b, s.Description)
		b = appendRaw(b, `,"unknown":`)
		b = appendInts(b, s.Unknown[:])
		b = append(b, '}')
	}
	b = appendRaw(b, `,"hasSection6C":`)
	b = appendBool(b, d.HasSection6C)
	if d.Layout != "" {
		b = appendRaw(b, `,"layout":`)
		b = jsontext.AppendString(b, d.Layout)
	}
	b = append(b, '}')
	if len(b) > limit {
		return nil, &jsontext.TooLargeError{Limit: limit}
	}
	return b, nil
}

// AppendPositions appends {"positions":[{"id":..,"x":..,"y":..[,"pinned":true]},...]}: where
// every node is, in the document's order. It is the answer of /api/layout.
func AppendPositions(b []byte, d *Document) []byte {
	b = append(b, `{"positions":[`...)
	for i := range d.Nodes {
		n := &d.Nodes[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = appendInt(b, int64(n.ID))
		b = append(b, `,"x":`...)
		b = appendPosition(b, n.X)
		b = append(b, `,"y":`...)
		b = appendPosition(b, n.Y)
		b = appendFlag(b, `,"pinned":`, n.Pinned)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// tooLarge is the budget error of AppendJSONLimit, in part what number i.
func tooLarge(limit int, what string, i int) error {
	return &jsontext.TooLargeError{Limit: limit, Where: what + " " + strconv.Itoa(i)}
}

// nodeTextAtLeast is the least the node's JSON takes: its names and string values, written
// at least once each (escapes only make them longer).
func nodeTextAtLeast(nd *Node) int {
	n := len(nd.Name)
	for j := range nd.Properties {
		p := &nd.Properties[j]
		n += len(p.Name) + len(p.ClassName) + len(p.Value.String)
	}
	for j := range nd.Inputs {
		p := &nd.Inputs[j]
		n += len(p.Name) + len(p.ClassName) + len(p.Value.String)
	}
	for j := range nd.Outputs {
		n += len(nd.Outputs[j].Name) + len(nd.Outputs[j].ClassName)
	}
	return n
}
