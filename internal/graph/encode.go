package graph

import (
	"math"
	"strconv"
	"unicode/utf8"

	"ainbeditor/internal/ainb"
)

// The document's JSON, written by hand: one pass, appending to one buffer, no reflection.
// Members come in the order types.go declares them; optional ones are left out when empty.

// Encode returns the document as compact JSON.
func (d *Document) Encode() []byte {
	return d.AppendJSON(make([]byte, 0, 4096+len(d.Nodes)*400))
}

// MarshalJSON makes encoding/json write the document as Encode does.
func (d *Document) MarshalJSON() ([]byte, error) { return d.Encode(), nil }

type enc struct{ b []byte }

func (e *enc) raw(s string)  { e.b = append(e.b, s...) }
func (e *enc) key(k string)  { e.b = append(e.b, k...) } // k is `"name":` with a leading comma where needed
func (e *enc) int(v int64)   { e.b = strconv.AppendInt(e.b, v, 10) }
func (e *enc) uint(v uint64) { e.b = strconv.AppendUint(e.b, v, 10) }
func (e *enc) bool(v bool) {
	if v {
		e.raw("true")
	} else {
		e.raw("false")
	}
}

func (e *enc) str(s string) { e.b = appendString(e.b, s) }

// float writes a float32: the shortest number that reads back as the same float32, or for
// NaN, infinities and -0 the string of its bits.
func (e *enc) float(f Float) { e.b = appendFloat(e.b, f) }

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
	return strconv.AppendFloat(b, float64(f), 'g', -1, 32)
}

// position writes a canvas coordinate.
func (e *enc) position(x float64) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		x = 0
	}
	e.b = strconv.AppendFloat(e.b, x, 'g', -1, 64)
}

// appendString quotes s as JSON. Control characters, quotes and backslashes are escaped, and
// U+2028 and U+2029, which end lines in JavaScript; bytes that are not UTF-8 become U+FFFD.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, "\\ufffd"...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func (e *enc) guid(g *ainb.GUID) {
	const hex = "0123456789abcdef"
	// The first three groups are little-endian integers, the last two plain bytes.
	order := [16]int{3, 2, 1, 0, -1, 5, 4, -1, 7, 6, -1, 8, 9, -1, 10, 11}
	e.b = append(e.b, '"')
	for _, i := range order {
		if i < 0 {
			e.b = append(e.b, '-')
			continue
		}
		e.b = append(e.b, hex[g[i]>>4], hex[g[i]&0xf])
	}
	for i := 12; i < 16; i++ {
		e.b = append(e.b, hex[g[i]>>4], hex[g[i]&0xf])
	}
	e.b = append(e.b, '"')
}

// value writes an immediate value of type t.
func (e *enc) value(t ValueType, v *Value) {
	switch t {
	case "int", "u32":
		e.int(v.Int)
	case "bool":
		e.bool(v.Int != 0)
	case "float":
		e.float(v.Float)
	case "string":
		e.str(v.String)
	case "vec3f":
		e.b = append(e.b, '[')
		e.float(v.Vec[0])
		e.b = append(e.b, ',')
		e.float(v.Vec[1])
		e.b = append(e.b, ',')
		e.float(v.Vec[2])
		e.b = append(e.b, ']')
	default:
		e.raw("null")
	}
}

func (e *enc) optInt(k string, p *int) {
	if p != nil {
		e.key(k)
		e.int(int64(*p))
	}
}

func (e *enc) optBool(k string, p *bool) {
	if p != nil {
		e.key(k)
		e.bool(*p)
	}
}

func (e *enc) flag(k string, v bool) {
	if v {
		e.key(k)
		e.raw("true")
	}
}

func (e *enc) ints(v []int) {
	e.b = append(e.b, '[')
	for i, x := range v {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.int(int64(x))
	}
	e.b = append(e.b, ']')
}

func (e *enc) uints(v []uint32) {
	e.b = append(e.b, '[')
	for i, x := range v {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.uint(uint64(x))
	}
	e.b = append(e.b, ']')
}

func (e *enc) source(s *Source) {
	e.b = append(e.b, '{')
	n := len(e.b)
	comma := func(k string) {
		if len(e.b) > n {
			e.b = append(e.b, ',')
		}
		e.key(k)
	}
	if s.Node != nil {
		comma(`"node":`)
		e.int(int64(*s.Node))
	}
	if s.Output != 0 {
		comma(`"output":`)
		e.int(int64(s.Output))
	}
	if s.Blackboard != nil {
		comma(`"blackboard":`)
		e.int(int64(*s.Blackboard))
	}
	if s.Component != "" {
		comma(`"component":`)
		e.str(s.Component)
	}
	if s.Expression != nil {
		comma(`"expression":`)
		e.int(int64(*s.Expression))
	}
	if s.IsOutput {
		comma(`"isOutput":true`)
	}
	if s.UsesDefault != nil {
		comma(`"usesDefault":`)
		e.bool(*s.UsesDefault)
	}
	e.b = append(e.b, '}')
}

func (e *enc) properties(ps []Property) {
	e.b = append(e.b, '[')
	for i := range ps {
		p := &ps[i]
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.key(`{"name":`)
		e.str(p.Name)
		e.key(`,"type":`)
		e.str(string(p.Type))
		if p.ClassName != "" {
			e.key(`,"className":`)
			e.str(p.ClassName)
		}
		e.key(`,"value":`)
		e.value(p.Type, &p.Value)
		if p.Source != nil {
			e.key(`,"source":`)
			e.source(p.Source)
		}
		e.flag(`,"isOutput":`, p.IsOutput)
		e.optBool(`,"usesDefault":`, p.UsesDefault)
		e.b = append(e.b, '}')
	}
	e.b = append(e.b, ']')
}

func (e *enc) node(n *Node) {
	e.key(`{"id":`)
	e.int(int64(n.ID))
	e.key(`,"type":`)
	e.str(string(n.Type))
	e.key(`,"name":`)
	e.str(n.Name)
	e.key(`,"guid":`)
	e.guid(&n.GUID)
	e.flag(`,"query":`, n.Query)
	e.flag(`,"moduleCaller":`, n.ModuleCaller)
	e.flag(`,"residentInit":`, n.ResidentInit)
	e.flag(`,"multiParamV2":`, n.MultiParamV2)
	e.key(`,"x":`)
	e.position(n.X)
	e.key(`,"y":`)
	e.position(n.Y)
	e.flag(`,"pinned":`, n.Pinned)
	if len(n.Properties) > 0 {
		e.key(`,"properties":`)
		e.properties(n.Properties)
	}
	if len(n.Inputs) > 0 {
		e.key(`,"inputs":[`)
		for i := range n.Inputs {
			in := &n.Inputs[i]
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.key(`{"name":`)
			e.str(in.Name)
			e.key(`,"type":`)
			e.str(string(in.Type))
			if in.ClassName != "" {
				e.key(`,"className":`)
				e.str(in.ClassName)
			}
			e.key(`,"value":`)
			e.value(in.Type, &in.Value)
			if in.Source != nil {
				e.key(`,"source":`)
				e.source(in.Source)
			}
			if in.Sources != nil {
				e.key(`,"sources":[`)
				for k := range in.Sources {
					if k > 0 {
						e.b = append(e.b, ',')
					}
					e.source(&in.Sources[k])
				}
				e.b = append(e.b, ']')
			}
			e.flag(`,"setBlackboard":`, in.SetBlackboard)
			e.flag(`,"isOutput":`, in.IsOutput)
			e.optBool(`,"usesDefault":`, in.UsesDefault)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	if len(n.Outputs) > 0 {
		e.key(`,"outputs":[`)
		for i := range n.Outputs {
			o := &n.Outputs[i]
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.key(`{"name":`)
			e.str(o.Name)
			e.key(`,"type":`)
			e.str(string(o.Type))
			if o.ClassName != "" {
				e.key(`,"className":`)
				e.str(o.ClassName)
			}
			e.flag(`,"connected":`, o.Connected)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	if len(n.Children) > 0 {
		e.key(`,"children":[`)
		for i := range n.Children {
			c := &n.Children[i]
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.key(`{"node":`)
			e.int(int64(c.Node))
			e.key(`,"name":`)
			e.str(c.Name)
			if k := c.Condition; k != nil {
				e.key(`,"condition":{`)
				n := len(e.b)
				comma := func(key string) {
					if len(e.b) > n {
						e.b = append(e.b, ',')
					}
					e.key(key)
				}
				if k.Int != nil {
					comma(`"int":`)
					e.int(int64(*k.Int))
				}
				if k.String != nil {
					comma(`"string":`)
					e.str(*k.String)
				}
				if k.Weight != nil {
					comma(`"weight":`)
					e.float(*k.Weight)
				}
				if k.Min != nil {
					comma(`"min":`)
					e.float(*k.Min)
				}
				if k.Max != nil {
					comma(`"max":`)
					e.float(*k.Max)
				}
				if k.Blackboard != nil {
					comma(`"blackboard":`)
					e.int(int64(*k.Blackboard))
				}
				if k.MinBlackboard != nil {
					comma(`"minBlackboard":`)
					e.int(int64(*k.MinBlackboard))
				}
				if k.MaxBlackboard != nil {
					comma(`"maxBlackboard":`)
					e.int(int64(*k.MaxBlackboard))
				}
				e.b = append(e.b, '}')
			}
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	if len(n.Jumps) > 0 {
		e.key(`,"jumps":[`)
		for i := range n.Jumps {
			j := &n.Jumps[i]
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.key(`{"node":`)
			e.int(int64(j.Node))
			e.key(`,"type":`)
			e.int(int64(j.Type))
			if j.Command != "" {
				e.key(`,"command":`)
				e.str(j.Command)
			}
			e.flag(`,"postCalc":`, j.PostCalc)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	if len(n.Queries) > 0 {
		e.key(`,"queries":`)
		e.ints(n.Queries)
	}
	if len(n.Attachments) > 0 {
		e.key(`,"attachments":`)
		e.ints(n.Attachments)
	}
	if len(n.Actions) > 0 {
		e.key(`,"actions":[`)
		for i, a := range n.Actions {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.key(`{"slot":`)
			e.str(a.Slot)
			e.key(`,"action":`)
			e.str(a.Action)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	if s := n.StateInfo; s != nil {
		e.key(`,"stateInfo":{"desiredState":`)
		e.str(s.DesiredState)
		e.key(`,"unknown":`)
		e.uints(s.Unknown[:])
		e.b = append(e.b, '}')
	}
	e.b = append(e.b, '}')
}

// AppendJSON appends the document's JSON to b.
func (d *Document) AppendJSON(b []byte) []byte {
	e := &enc{b: b}
	e.key(`{"format":`)
	e.str(d.Format)
	e.key(`,"name":`)
	e.str(d.Name)
	e.key(`,"version":`)
	e.uint(uint64(d.Version))
	e.key(`,"filename":`)
	e.str(d.Filename)
	e.key(`,"category":`)
	e.str(d.Category)

	e.key(`,"commands":[`)
	for i := range d.Commands {
		c := &d.Commands[i]
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.key(`{"name":`)
		e.str(c.Name)
		e.key(`,"guid":`)
		e.guid(&c.GUID)
		e.key(`,"root":`)
		e.int(int64(c.Root))
		e.key(`,"secondary":`)
		e.int(int64(c.Secondary))
		e.b = append(e.b, '}')
	}
	e.key(`],"nodes":[`)
	for i := range d.Nodes {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.node(&d.Nodes[i])
	}
	e.key(`],"attachments":[`)
	for i := range d.Attachments {
		a := &d.Attachments[i]
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.key(`{"name":`)
		e.str(a.Name)
		e.key(`,"debug":`)
		e.uint(uint64(a.Debug))
		if len(a.Properties) > 0 {
			e.key(`,"properties":`)
			e.properties(a.Properties)
		}
		e.b = append(e.b, '}')
	}
	e.key(`],"blackboard":[`)
	for i := range d.Blackboard {
		p := &d.Blackboard[i]
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.key(`{"name":`)
		e.str(p.Name)
		e.key(`,"type":`)
		e.str(string(p.Type))
		if p.Notes != "" {
			e.key(`,"notes":`)
			e.str(p.Notes)
		}
		e.key(`,"inherit":`)
		e.str(p.Inherit)
		if p.File != "" {
			e.key(`,"file":`)
			e.str(p.File)
		}
		e.key(`,"value":`)
		e.value(p.Type, &p.Value)
		e.b = append(e.b, '}')
	}
	e.key(`],"expressions":`)
	if x := d.Expressions; x == nil {
		e.raw("null")
	} else {
		e.key(`{"version":`)
		e.uint(uint64(x.Version))
		e.key(`,"functions":[`)
		for i, f := range x.Functions {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.key(`{"text":`)
			e.str(f.Text)
			e.b = append(e.b, '}')
		}
		e.key(`]}`)
	}
	e.key(`,"modules":[`)
	for i, m := range d.Modules {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.key(`{"path":`)
		e.str(m.Path)
		e.key(`,"category":`)
		e.str(m.Category)
		e.key(`,"instances":`)
		e.uint(uint64(m.Instances))
		e.b = append(e.b, '}')
	}
	e.key(`],"moduleCall":{"blackboardId":`)
	e.uint(uint64(d.ModuleCall.BlackboardID))
	e.key(`,"parentBlackboardId":`)
	e.uint(uint64(d.ModuleCall.ParentBlackboardID))
	e.key(`},"replacements":`)
	if d.Replacements == nil {
		e.raw("null")
	} else {
		e.b = append(e.b, '[')
		for i, r := range d.Replacements {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.key(`{"type":`)
			e.str(r.Type)
			e.key(`,"node":`)
			e.int(int64(r.Node))
			e.key(`,"index":`)
			e.int(int64(r.Index))
			e.optInt(`,"new":`, r.New)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	e.key(`,"enumRelocations":[`)
	for i, r := range d.EnumRelocations {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.key(`{"className":`)
		e.str(r.ClassName)
		e.key(`,"valueName":`)
		e.str(r.ValueName)
		if t := r.Target; t != nil {
			e.key(`,"target":{`)
			n := len(e.b)
			for _, f := range []struct {
				k string
				p *int
			}{{`"node":`, t.Node}, {`"attachment":`, t.Attachment}, {`"property":`, t.Property}, {`"input":`, t.Input}} {
				if f.p == nil {
					continue
				}
				if len(e.b) > n {
					e.b = append(e.b, ',')
				}
				e.key(f.k)
				e.int(int64(*f.p))
			}
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, '}')
	}
	e.key(`],"section58":`)
	if s := d.Section58; s == nil {
		e.raw("null")
	} else {
		e.key(`{"description":`)
		e.str(s.Description)
		e.key(`,"unknown":`)
		e.uints(s.Unknown[:])
		e.b = append(e.b, '}')
	}
	e.key(`,"hasSection6C":`)
	e.bool(d.HasSection6C)
	if d.Layout != "" {
		e.key(`,"layout":`)
		e.str(d.Layout)
	}
	e.b = append(e.b, '}')
	return e.b
}
