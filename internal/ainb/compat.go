package ainb

import (
	"fmt"
)

// This file writes the JSON format of the public Python library `ainb` (the community
// format); compat_load.go reads it back.

var vectorComponentNames = [4]string{"NONE", "X", "Y", "Z"}

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

func (f *File) compat() (object, error) {
	var o object
	o.set("Version", f.Version)
	o.set("Filename", f.Filename)
	o.set("Category", f.Category)
	o.set("Blackboard ID", f.BlackboardID)
	o.set("Parent Blackboard ID", f.ParentBlackboardID)
	cmds := make([]any, len(f.Commands))
	for i, c := range f.Commands {
		var co object
		co.set("Name", c.Name)
		co.set("GUID", c.GUID.String())
		co.set("Root Node Index", c.Root)
		if c.Secondary >= 0 {
			co.set("Secondary Root Node Index", c.Secondary)
		}
		cmds[i] = co
	}
	o.set("Commands", cmds)
	nodes := make([]any, len(f.Elements))
	for i := range f.Elements {
		nodes[i] = f.compatElement(i)
	}
	o.set("Nodes", nodes)
	o.set("Blackboard", f.compatBlackboard())
	if f.Expressions != nil {
		x, err := expressionsCompat(f.Expressions)
		if err != nil {
			return nil, err
		}
		o.set("Expressions", x)
	} else {
		o.set("Expressions", object{})
	}
	if f.Version >= Version407 {
		var rs []any
		if f.Replacement != nil {
			for _, r := range f.Replacement.Entries {
				var ro object
				if int(r.Type) < len(replacementTypeNames) {
					ro.set("Type", r.Type.String())
				} else {
					ro.set("Type", int(r.Type))
				}
				ro.set("Node Index", r.Element)
				if r.Type == RemoveAttachment {
					ro.set("Attachment Index", r.Index)
				} else {
					ro.set("Child Plug Index", r.Index)
					if r.Type == ReplaceChild {
						ro.set("Replacement Node Index", r.New)
					}
				}
				rs = append(rs, ro)
			}
		}
		o.set("Replacement Table", orEmpty(rs))
	}
	mods := make([]any, len(f.Modules))
	for i, m := range f.Modules {
		mods[i] = object{{"Path", m.Path}, {"Category", m.Category}, {"Instance Count", m.Instances}}
	}
	o.set("Modules", mods)
	if s := f.Section58; s != nil {
		o.set("Unknown Section 0x58", object{{"Description", s.Description}, {"Unknown04", s.Unknown[0]},
			{"Unknown08", s.Unknown[1]}, {"Unknown0C", s.Unknown[2]}})
	} else {
		o.set("Unknown Section 0x58", object{})
	}
	o.set("Has Section 0x6C", f.HasSection6C)
	return o, nil
}

func orEmpty(v []any) []any {
	if v == nil {
		return []any{}
	}
	return v
}

func compatValue(t ParamType, v Value) any {
	switch t {
	case ParamInt:
		return v.Int
	case ParamBool:
		return v.Int != 0
	case ParamFloat:
		return pyFloat(v.Float)
	case ParamString:
		return v.String
	case ParamVec3f:
		return []any{pyFloat(v.Vec[0]), pyFloat(v.Vec[1]), pyFloat(v.Vec[2])}
	}
	return nil
}

func compatFlags(o *object, fl ParamFlags) {
	names := []any{}
	if fl&ParamUsesDefault != 0 {
		names = append(names, "Uses Default")
	}
	if fl&ParamIsOutput != 0 {
		names = append(names, "Is Output")
	}
	o.set("Flags", names)
	if fl.IsExpression() {
		o.set("Expression Index", fl.Index())
	} else if fl.IsBlackboard() {
		o.set("Blackboard Index", fl.Index())
		if c := fl.VectorComponent(); c != 0 {
			o.set("Vector Component", vectorComponentNames[c])
		}
	}
}

func compatProperties(ps *Properties) object {
	o := object{}
	for t := range NumParamTypes {
		props := ps.Of(t)
		if len(props) == 0 {
			continue
		}
		list := make([]any, len(props))
		for i, p := range props {
			var po object
			po.set("Name", p.Name)
			if t == ParamPointer {
				po.set("Classname", p.ClassName)
			}
			po.set("Default Value", compatValue(t, p.Value))
			compatFlags(&po, p.Flags)
			list[i] = po
		}
		o.set(t.String(), list)
	}
	return o
}

func compatSource(o *object, s Source) {
	o.set("Node Index", s.Node)
	o.set("Output Index", s.Output)
	compatFlags(o, s.Flags)
}

func (f *File) compatElement(i int) object {
	e := &f.Elements[i]
	var o object
	if name, ok := e.Type.name(); ok {
		o.set("Node Type", name)
	} else {
		o.set("Node Type", int(e.Type))
	}
	o.set("Node Index", i)
	o.set("Name", e.Name)
	o.set("GUID", e.GUID.String())
	flags := []any{}
	for _, fl := range []struct {
		bit  ElementFlags
		name string
	}{{FlagQuery, "Is Query"}, {FlagModuleCaller, "Is Module"}, {FlagResidentInit, "Is Root Node"}, {FlagQueryMultiParamV2, "Use MultiParam Type 2"}} {
		if e.Flags&fl.bit != 0 {
			flags = append(flags, fl.name)
		}
	}
	o.set("Flags", flags)
	qs := make([]any, len(e.Queries))
	for j, q := range e.Queries {
		qs[j] = q
	}
	o.set("Queries", qs)
	atts := make([]any, len(e.Attachments))
	for j, a := range e.Attachments {
		at := &f.Attachments[a]
		atts[j] = object{{"Name", at.Name}, {"Debug", at.Debug}, {"Properties", compatProperties(&at.Properties)}}
	}
	o.set("Attachments", atts)
	o.set("Properties", compatProperties(&e.Properties))
	ins, outs := object{}, object{}
	for t := range NumParamTypes {
		if inList := e.Inputs.Of(t); len(inList) > 0 {
			list := make([]any, len(inList))
			for j := range inList {
				in := &inList[j]
				var io object
				io.set("Name", in.Name)
				if t == ParamPointer {
					io.set("Classname", in.ClassName)
				}
				io.set("Default Value", compatValue(t, in.Value))
				if in.IsMulti() {
					srcs := make([]any, len(in.Sources))
					for k, s := range in.Sources {
						var so object
						compatSource(&so, s)
						srcs[k] = so
					}
					io.set("Sources", srcs)
				} else {
					compatSource(&io, in.Source)
				}
				if in.SetBlackboard {
					io.set("Is Set Blackboard", true)
				}
				list[j] = io
			}
			ins.set(t.String(), list)
		}
		if outputs := e.Outputs.Of(t); len(outputs) > 0 {
			list := make([]any, len(outputs))
			for j, out := range outputs {
				var oo object
				oo.set("Name", out.Name)
				if t == ParamPointer {
					oo.set("Classname", out.ClassName)
				}
				oo.set("Is Output", out.Connected)
				list[j] = oo
			}
			outs.set(t.String(), list)
		}
	}
	o.set("Parameters", object{{"Inputs", ins}, {"Outputs", outs}})
	acts := make([]any, len(e.Actions))
	for j, a := range e.Actions {
		acts[j] = object{{"Action Slot", a.Slot}, {"Action", a.Action}}
	}
	o.set("XLink Actions", acts)
	if s := e.StateInfo; s != nil && f.Version < Version407 {
		o.set("State Info", object{{"Desired State", s.DesiredState}, {"Unknown04", s.Unknown[0]},
			{"Unknown08", s.Unknown[1]}, {"Unknown0C", s.Unknown[2]}, {"Unknown10", s.Unknown[3]}})
	}
	plugs := object{}
	for k := range PlugKind(plugTables) {
		ps := e.plugsOf(k)
		if len(ps) == 0 {
			continue
		}
		layout, _ := e.PlugLayout(k, f.Version)
		list := make([]any, len(ps))
		for j := range ps {
			list[j] = compatPlug(e, k, layout, &ps[j], j == len(ps)-1)
		}
		plugs.set(k.String(), list)
	}
	o.set("Plugs", plugs)
	return o
}

// usesBlackboard reads the blackboard flag of a selector word: bit 31, index in the low half.
func usesBlackboard(w uint32) bool { return w>>31 != 0 }

func compatPlug(e *Element, k PlugKind, layout PlugLayout, p *Plug, last bool) object {
	var o object
	o.set("Node Index", p.Node)
	if layout == LayoutJump {
		o.set("Transition Type", p.Jump.Type)
		o.set("Update Post Calc", p.Jump.PostCalc)
		if p.Jump.Type == 0 {
			o.set("Transition Name", p.Jump.Command)
		}
		return o
	}
	if layout == LayoutRaw {
		// The kinds no known file uses, which the reference tool refuses: this format's
		// extension keeps their word.
		o.set("Value", p.Word)
		return o
	}
	o.set("Name", p.Name)
	if layout == LayoutBasic {
		return o
	}
	bbIndex := int16(p.Word)
	if k == PlugChild {
		isDefault := last && (e.Type == S32Selector || e.Type == F32Selector || e.Type == StringSelector)
		switch {
		case isDefault:
			o.set("Is Default", true)
		case e.Type == S32Selector:
			if usesBlackboard(p.Word) {
				o.set("Blackboard Index", bbIndex)
				o.set("Default Condition", p.Int)
			} else {
				o.set("Condition", p.Int)
			}
		case e.Type == StringSelector:
			if usesBlackboard(p.Word) {
				o.set("Blackboard Index", bbIndex)
				o.set("Default Condition", p.String)
			} else {
				o.set("Condition", p.String)
			}
		case e.Type == F32Selector:
			if usesBlackboard(p.Word) {
				o.set("Condition Min Blackboard Index", bbIndex)
			} else {
				o.set("Condition Min", pyFloat(p.Float))
			}
			if usesBlackboard(p.MaxWord) {
				o.set("Condition Max Blackboard Index", int16(p.MaxWord))
			} else {
				o.set("Condition Max", pyFloat(p.MaxFloat))
			}
		case e.Type == RandomSelector:
			if usesBlackboard(p.Word) {
				o.set("Blackboard Index", bbIndex)
				o.set("Default Weight", pyFloat(p.Float))
			} else {
				o.set("Weight", pyFloat(p.Float))
			}
		default: // BSA selectors
			if usesBlackboard(p.Word) {
				o.set("Child Enum BB Index", p.Word&0xffff)
			} else {
				o.set("Child Enum Value", uint32(p.Int))
			}
		}
		return o
	}
	switch {
	case k == PlugGeneric && e.Type == BoolSelector:
		o.set("Unknown 1", p.Word)
		o.set("Unknown 2", uint32(p.Int))
	case k == PlugGeneric && e.Type == F32Selector:
		o.set("Unknown 1", p.Word)
		o.set("Unknown 2", pyFloat(p.Float))
	case layout == LayoutWordString:
		o.set("Unknown", p.Word)
		o.set("Default Value", p.String)
	default:
		o.set("Unknown", p.Word)
		o.set("Default Value", p.Int)
	}
	return o
}

func (f *File) compatBlackboard() object {
	o := object{}
	for t := range NumBlackboardTypes {
		ps := f.Blackboard.Params[t]
		if len(ps) == 0 {
			continue
		}
		list := make([]any, len(ps))
		for i, p := range ps {
			var po object
			po.set("Blackboard Index", i)
			po.set("Name", p.Name)
			po.set("Notes", p.Notes)
			if p.File != "" {
				po.set("Source File", p.File)
			}
			if int(p.Inherit) < len(inheritModeNames) {
				po.set("Inherit Mode", p.Inherit.String())
			} else {
				po.set("Inherit Mode", int(p.Inherit))
			}
			var v any
			switch t {
			case BBString:
				v = p.Value.String
			case BBS32:
				v = p.Value.Int
			case BBU32:
				v = uint32(p.Value.Int)
			case BBF32:
				v = pyFloat(p.Value.Float)
			case BBBool:
				v = p.Value.Int != 0
			case BBVec3f:
				v = []any{pyFloat(p.Value.Vec[0]), pyFloat(p.Value.Vec[1]), pyFloat(p.Value.Vec[2])}
			}
			po.set("Default Value", v)
			list[i] = po
		}
		o.set(t.String(), list)
	}
	return o
}
