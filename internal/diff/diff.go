package diff

import (
	"bytes"
	"slices"
	"strconv"

	"ainbeditor/internal/change"
	"ainbeditor/internal/graph"
	"ainbeditor/internal/jsontext"
)

// Change is a change between two documents and the node it belongs to on each side, so the
// browser can mark the node and set the place back. NodeA and NodeB are node ids in A and
// in B, -1 where the change belongs to no node on that side (a command, a blackboard
// parameter, a node that exists on one side only). The ids live here, beside change.Change
// and not in it, because change.Change is the vocabulary of every format and nodes are
// AINB's.
type Change struct {
	change.Change
	NodeA, NodeB int
}

// Diff lists every change from a to b: document fields, commands (by name), blackboard
// parameters (by name, or by place and type when renamed), modules (by path), expression
// functions no node uses (by index) and nodes, matched as match says. Within a node: its own
// fields, properties, inputs and outputs (by name, and their order: "order of inputs"),
// children, jumps and attachments (by place), queries, and the text of each expression
// function a property or input goes through (".../input Speed/expression"). References are compared through the matchings,
// so a node that only moved or was renumbered is no change; node positions and the layout
// facts are never changes.
//
// A path names the place as it is in a, or in b when a has no such place; Old is in a's
// numbering, New in b's, each as the document's JSON writes it.
func Diff(a, b *graph.Document) []Change {
	cs, _ := DiffRenumbered(a, b)
	return cs
}

// DiffRenumbered is Diff, and also the nodes it matched whose ids differ, as {id in a, id in
// b} in a's order: a change lists the nodes it belongs to, but a reference in a value (a
// child, a source) may lead to a matched node no change names, and whoever sets a's value
// into b must know that node's id in b.
func DiffRenumbered(a, b *graph.Document) ([]Change, [][2]int) {
	m := match(a, b)
	var renumbered [][2]int
	for i, j := range m.ab {
		if j >= 0 && a.Nodes[i].ID != b.Nodes[j].ID {
			renumbered = append(renumbered, [2]int{a.Nodes[i].ID, b.Nodes[j].ID})
		}
	}
	bbA, bbB := matchBlackboard(a, b)
	va := &view{d: a, node: make(map[int]int, len(a.Nodes)), bb: bbA}
	vb := &view{d: b}
	for i := range a.Nodes {
		if j := m.ab[i]; j >= 0 {
			va.node[a.Nodes[i].ID] = b.Nodes[j].ID
		} else {
			va.node[a.Nodes[i].ID] = -1 - i
		}
	}
	d := &differ{}
	d.document(a, b, va, vb)
	for _, c := range a.Commands {
		k := commandIndex(b, c.Name)
		if k < 0 {
			d.add(change.Removed, change.Path{"command " + c.Name}, graph.AppendCommand(nil, &c), nil, -1, -1)
			continue
		}
		x := c
		x.Root, x.Secondary = va.nodeID(c.Root), va.nodeID(c.Secondary)
		if !bytes.Equal(graph.AppendCommand(nil, &x), graph.AppendCommand(nil, &b.Commands[k])) {
			d.add(change.Changed, change.Path{"command " + c.Name}, graph.AppendCommand(nil, &c), graph.AppendCommand(nil, &b.Commands[k]), -1, -1)
		}
	}
	for k := range b.Commands {
		if commandIndex(a, b.Commands[k].Name) < 0 {
			d.add(change.Added, change.Path{"command " + b.Commands[k].Name}, nil, graph.AppendCommand(nil, &b.Commands[k]), -1, -1)
		}
	}
	for i := range a.Blackboard {
		p := &a.Blackboard[i]
		step := change.Path{paramStep(a, i)}
		if bbA[i] < 0 {
			d.add(change.Removed, step, graph.AppendBlackboardParam(nil, p), nil, -1, -1)
		} else if o, n := graph.AppendBlackboardParam(nil, p), graph.AppendBlackboardParam(nil, &b.Blackboard[bbA[i]]); !bytes.Equal(o, n) {
			d.add(change.Changed, step, o, n, -1, -1)
		}
	}
	for j := range b.Blackboard {
		if bbB[j] < 0 {
			d.add(change.Added, change.Path{paramStep(b, j)}, nil, graph.AppendBlackboardParam(nil, &b.Blackboard[j]), -1, -1)
		}
	}
	for i := range a.Modules {
		k := moduleIndex(b, a.Modules[i].Path)
		step := change.Path{"module " + a.Modules[i].Path}
		if k < 0 {
			d.add(change.Removed, step, graph.AppendModule(nil, &a.Modules[i]), nil, -1, -1)
		} else if o, n := graph.AppendModule(nil, &a.Modules[i]), graph.AppendModule(nil, &b.Modules[k]); !bytes.Equal(o, n) {
			d.add(change.Changed, step, o, n, -1, -1)
		}
	}
	for j := range b.Modules {
		if moduleIndex(a, b.Modules[j].Path) < 0 {
			d.add(change.Added, change.Path{"module " + b.Modules[j].Path}, nil, graph.AppendModule(nil, &b.Modules[j]), -1, -1)
		}
	}
	d.unusedFunctions(a, b)
	var ka, kb []byte
	for i := range a.Nodes {
		na := &a.Nodes[i]
		j := m.ab[i]
		if j < 0 {
			d.add(change.Removed, change.Path{NodeStep(na)}, graph.AppendNode(nil, na), nil, na.ID, -1)
			continue
		}
		nb := &b.Nodes[j]
		ka, kb = va.nodeKey(ka[:0], na), vb.nodeKey(kb[:0], nb)
		if !bytes.Equal(ka, kb) {
			d.node(va, vb, na, nb)
		}
	}
	for j := range b.Nodes {
		if m.ba[j] < 0 {
			nb := &b.Nodes[j]
			d.add(change.Added, change.Path{NodeStep(nb)}, nil, graph.AppendNode(nil, nb), -1, nb.ID)
		}
	}
	return d.out, renumbered
}

// unusedFunctions compares, by index, the expression functions no node or attachment uses on
// either side: a used function is compared where it is used.
func (d *differ) unusedFunctions(a, b *graph.Document) {
	ua, ub := usedFunctions(a), usedFunctions(b)
	for k := 0; k < max(nfn(a), nfn(b)); k++ {
		if ua[k] || ub[k] {
			continue
		}
		var o, n []byte
		if k < nfn(a) {
			o = appendString(nil, a.Expressions.Functions[k].Text)
		}
		if k < nfn(b) {
			n = appendString(nil, b.Expressions.Functions[k].Text)
		}
		d.value(change.Path{"expression function " + strconv.Itoa(k)}, o, n, o, n, -1, -1)
	}
}

// usedFunctions marks the functions a source of a node or attachment goes through.
func usedFunctions(d *graph.Document) map[int]bool {
	used := map[int]bool{}
	v := &view{d: d}
	for i := range d.Nodes {
		v.eachExpression(&d.Nodes[i], func(_ []string, fn int) { used[fn] = true })
	}
	for k := range d.Attachments {
		for _, p := range d.Attachments[k].Properties {
			if p.Source != nil && p.Source.Expression != nil {
				used[*p.Source.Expression] = true
			}
		}
	}
	return used
}

// NodeStep is the path step naming a node: "node 12 Root", with its GUID when it has one:
// "node 12 Root (guid 01234567-89ab-cdef-0123-456789abcdef)". Built-in nodes, which have no
// class name, are named by their type.
func NodeStep(n *graph.Node) string {
	b := append(make([]byte, 0, 64), "node "...)
	b = strconv.AppendInt(b, int64(n.ID), 10)
	b = append(b, ' ')
	if n.Name != "" {
		b = append(b, n.Name...)
	} else {
		b = append(b, n.Type...)
	}
	if n.GUID != ([16]byte{}) {
		g := graph.AppendGUID(nil, &n.GUID)
		b = append(b, " (guid "...)
		b = append(b, g[1:len(g)-1]...)
		b = append(b, ')')
	}
	return string(b)
}

type differ struct {
	out []Change
}

func (d *differ) add(op change.Op, p change.Path, old, new []byte, na, nb int) {
	d.out = append(d.out, Change{Change: change.Change{Op: op, Path: p, Old: old, New: new}, NodeA: na, NodeB: nb})
}

// value compares one place given its compared keys and shown values (nil: absent).
func (d *differ) value(p change.Path, ka, kb, old, new []byte, na, nb int) {
	switch {
	case ka == nil && kb == nil:
	case ka == nil:
		d.add(change.Added, p, nil, new, na, nb)
	case kb == nil:
		d.add(change.Removed, p, old, nil, na, nb)
	case !bytes.Equal(ka, kb):
		d.add(change.Changed, p, old, new, na, nb)
	}
}

func (d *differ) document(a, b *graph.Document, va, vb *view) {
	str := func(s string) []byte { return appendString(nil, s) }
	num := func(v uint64) []byte { return strconv.AppendUint(nil, v, 10) }
	same := func(step string, o, n []byte) { d.value(change.Path{step}, o, n, o, n, -1, -1) }
	same("version", num(uint64(a.Version)), num(uint64(b.Version)))
	same("filename", str(a.Filename), str(b.Filename))
	same("category", str(a.Category), str(b.Category))
	same("moduleCall", moduleCall(a), moduleCall(b))
	same("section58", section58(a), section58(b))
	same("hasSection6C", strconv.AppendBool(nil, a.HasSection6C), strconv.AppendBool(nil, b.HasSection6C))
	same("expressions version", expressionsVersion(a), expressionsVersion(b))
	d.value(change.Path{"replacements"}, replacements(va), replacements(vb), replacements(&view{d: a}), replacements(&view{d: b}), -1, -1)
	d.value(change.Path{"enumRelocations"}, relocations(va), relocations(vb), relocations(&view{d: a}), relocations(&view{d: b}), -1, -1)
}

// node lists the changes between two matched nodes.
func (d *differ) node(va, vb *view, na, nb *graph.Node) {
	base := change.Path{NodeStep(na)}
	ia, ib := na.ID, nb.ID
	field := func(step string, o, n []byte) { d.value(base.Child(step), o, n, o, n, ia, ib) }
	field("type", appendString(nil, string(na.Type)), appendString(nil, string(nb.Type)))
	field("name", appendString(nil, na.Name), appendString(nil, nb.Name))
	field("guid", graph.AppendGUID(nil, &na.GUID), graph.AppendGUID(nil, &nb.GUID))
	field("query", strconv.AppendBool(nil, na.Query), strconv.AppendBool(nil, nb.Query))
	field("moduleCaller", strconv.AppendBool(nil, na.ModuleCaller), strconv.AppendBool(nil, nb.ModuleCaller))
	field("residentInit", strconv.AppendBool(nil, na.ResidentInit), strconv.AppendBool(nil, nb.ResidentInit))
	field("multiParamV2", strconv.AppendBool(nil, na.MultiParamV2), strconv.AppendBool(nil, nb.MultiParamV2))
	field("stateInfo", stateInfo(na), stateInfo(nb))
	field("actions", actions(na), actions(nb))

	// Properties and inputs: by name (a repeated name by its occurrence).
	pa, pb := names(len(na.Properties), func(k int) string { return na.Properties[k].Name }), names(len(nb.Properties), func(k int) string { return nb.Properties[k].Name })
	pairs(pa, pb, func(name string, x, y int) {
		p := base.Child("property " + name)
		switch {
		case y < 0:
			d.add(change.Removed, p, graph.AppendProperty(nil, &na.Properties[x]), nil, ia, ib)
		case x < 0:
			d.add(change.Added, p, nil, graph.AppendProperty(nil, &nb.Properties[y]), ia, ib)
		default:
			d.property(p, va, vb, &na.Properties[x], &nb.Properties[y], ia, ib)
		}
	})
	qa, qb := names(len(na.Inputs), func(k int) string { return na.Inputs[k].Name }), names(len(nb.Inputs), func(k int) string { return nb.Inputs[k].Name })
	pairs(qa, qb, func(name string, x, y int) {
		p := base.Child("input " + name)
		switch {
		case y < 0:
			d.add(change.Removed, p, graph.AppendInput(nil, &na.Inputs[x]), nil, ia, ib)
		case x < 0:
			d.add(change.Added, p, nil, graph.AppendInput(nil, &nb.Inputs[y]), ia, ib)
		default:
			d.input(p, va, vb, &na.Inputs[x], &nb.Inputs[y], ia, ib)
		}
	})
	d.order(base.Child("order of properties"), pa, pb, ia, ib)
	d.order(base.Child("order of inputs"), qa, qb, ia, ib)
	oa, ob := names(len(na.Outputs), func(k int) string { return na.Outputs[k].Name }), names(len(nb.Outputs), func(k int) string { return nb.Outputs[k].Name })
	pairs(oa, ob, func(name string, x, y int) {
		var o, n []byte
		if x >= 0 {
			o = graph.AppendOutput(nil, &na.Outputs[x])
		}
		if y >= 0 {
			n = graph.AppendOutput(nil, &nb.Outputs[y])
		}
		field("output "+name, o, n)
	})
	d.order(base.Child("order of outputs"), oa, ob, ia, ib)
	for k := 0; k < max(len(na.Children), len(nb.Children)); k++ {
		var ka, kb, o, n []byte
		if k < len(na.Children) {
			c := va.child(&na.Children[k])
			ka, o = graph.AppendChild(nil, &c), graph.AppendChild(nil, &na.Children[k])
		}
		if k < len(nb.Children) {
			c := vb.child(&nb.Children[k])
			kb, n = graph.AppendChild(nil, &c), graph.AppendChild(nil, &nb.Children[k])
		}
		d.value(base.Child("child "+strconv.Itoa(k)), ka, kb, o, n, ia, ib)
	}
	for k := 0; k < max(len(na.Jumps), len(nb.Jumps)); k++ {
		var ka, kb, o, n []byte
		if k < len(na.Jumps) {
			c := va.jump(&na.Jumps[k])
			ka, o = graph.AppendJump(nil, &c), graph.AppendJump(nil, &na.Jumps[k])
		}
		if k < len(nb.Jumps) {
			c := vb.jump(&nb.Jumps[k])
			kb, n = graph.AppendJump(nil, &c), graph.AppendJump(nil, &nb.Jumps[k])
		}
		d.value(base.Child("jump "+strconv.Itoa(k)), ka, kb, o, n, ia, ib)
	}
	d.value(base.Child("queries"), listKey(va.ids(na.Queries)), listKey(vb.ids(nb.Queries)), listKey(na.Queries), listKey(nb.Queries), ia, ib)
	for k := 0; k < max(len(na.Attachments), len(nb.Attachments)); k++ {
		var ka, kb, o, n []byte
		if k < len(na.Attachments) {
			ka, o = va.appendAttachment(nil, na.Attachments[k]), attachment(va.d, na.Attachments[k])
		}
		if k < len(nb.Attachments) {
			kb, n = vb.appendAttachment(nil, nb.Attachments[k]), attachment(vb.d, nb.Attachments[k])
		}
		d.value(base.Child("attachment "+strconv.Itoa(k)), ka, kb, o, n, ia, ib)
	}
}

// order reports a change in the order of the items both lists have: the file keeps it (within
// a type), so it is a change even when no item changed. The values are the lists of names.
func (d *differ) order(p change.Path, a, b []string, ia, ib int) {
	if ka, kb := orderKey(a, b), orderKey(b, a); !bytes.Equal(ka, kb) {
		d.add(change.Changed, p, orderKey(a), orderKey(b), ia, ib)
	}
}

// orderKey is the JSON array of the names of ns that every list of in also has.
func orderKey(ns []string, in ...[]string) []byte {
	b := []byte{'['}
	n := 0
next:
	for _, s := range ns {
		for _, l := range in {
			if !slices.Contains(l, s) {
				continue next
			}
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = appendString(b, s)
	}
	return append(b, ']')
}

// property compares two properties of one name: the whole property when its type changed,
// otherwise its value, source, flags and the text of its expression one by one.
func (d *differ) property(p change.Path, va, vb *view, a, b *graph.Property, ia, ib int) {
	if a.Type != b.Type || a.ClassName != b.ClassName {
		d.add(change.Changed, p, graph.AppendProperty(nil, a), graph.AppendProperty(nil, b), ia, ib)
		return
	}
	d.plug(p, va, vb, a.Type, &a.Value, &b.Value, a.Source, b.Source, ia, ib)
	d.flag(p.Child("isOutput"), a.IsOutput, b.IsOutput, ia, ib)
	d.value(p.Child("usesDefault"), optBool(a.UsesDefault), optBool(b.UsesDefault), optBool(a.UsesDefault), optBool(b.UsesDefault), ia, ib)
}

func (d *differ) input(p change.Path, va, vb *view, a, b *graph.Input, ia, ib int) {
	if a.Type != b.Type || a.ClassName != b.ClassName {
		d.add(change.Changed, p, graph.AppendInput(nil, a), graph.AppendInput(nil, b), ia, ib)
		return
	}
	d.plug(p, va, vb, a.Type, &a.Value, &b.Value, a.Source, b.Source, ia, ib)
	d.value(p.Child("sources"), sourcesKey(va, a.Sources), sourcesKey(vb, b.Sources), sourcesKey(&view{d: va.d}, a.Sources), sourcesKey(&view{d: vb.d}, b.Sources), ia, ib)
	for k := 0; k < len(a.Sources) && k < len(b.Sources); k++ {
		d.expression(p.Child("sources "+strconv.Itoa(k)).Child("expression"), va, vb, &a.Sources[k], &b.Sources[k], ia, ib)
	}
	d.flag(p.Child("setBlackboard"), a.SetBlackboard, b.SetBlackboard, ia, ib)
	d.flag(p.Child("isOutput"), a.IsOutput, b.IsOutput, ia, ib)
	d.value(p.Child("usesDefault"), optBool(a.UsesDefault), optBool(b.UsesDefault), optBool(a.UsesDefault), optBool(b.UsesDefault), ia, ib)
}

// plug compares the value and source of a property or input.
func (d *differ) plug(p change.Path, va, vb *view, t graph.ValueType, a, b *graph.Value, sa, sb *graph.Source, ia, ib int) {
	o, n := graph.AppendValue(nil, t, a), graph.AppendValue(nil, t, b)
	d.value(p.Child("value"), o, n, o, n, ia, ib)
	d.value(p.Child("source"), sourceKey(va, sa), sourceKey(vb, sb), sourceKey(&view{d: va.d}, sa), sourceKey(&view{d: vb.d}, sb), ia, ib)
	d.expression(p.Child("expression"), va, vb, sa, sb, ia, ib)
}

// expression compares the text of the functions two sources go through.
func (d *differ) expression(p change.Path, va, vb *view, sa, sb *graph.Source, ia, ib int) {
	var o, n []byte
	if sa != nil && sa.Expression != nil {
		o = va.appendFunction(nil, *sa.Expression)
	}
	if sb != nil && sb.Expression != nil {
		n = vb.appendFunction(nil, *sb.Expression)
	}
	d.value(p, o, n, o, n, ia, ib)
}

func (d *differ) flag(p change.Path, a, b bool, ia, ib int) {
	if a != b {
		d.add(change.Changed, p, strconv.AppendBool(nil, a), strconv.AppendBool(nil, b), ia, ib)
	}
}

func sourceKey(v *view, s *graph.Source) []byte {
	if s == nil {
		return nil
	}
	return graph.AppendSource(nil, v.source(s))
}

func sourcesKey(v *view, ss []graph.Source) []byte {
	if ss == nil {
		return nil
	}
	b := []byte{'['}
	for k := range ss {
		if k > 0 {
			b = append(b, ',')
		}
		b = graph.AppendSource(b, v.source(&ss[k]))
	}
	return append(b, ']')
}

func optBool(p *bool) []byte {
	if p == nil {
		return nil
	}
	return strconv.AppendBool(nil, *p)
}

func listKey(ids []int) []byte {
	if len(ids) == 0 {
		return nil
	}
	return graph.AppendIDs(nil, ids)
}

// names keys the items of a list by name, a repeated name by its occurrence ("Speed#2").
func names(n int, name func(int) string) []string {
	out := make([]string, n)
	seen := map[string]int{}
	for k := range out {
		s := name(k)
		if c := seen[s]; c > 0 {
			seen[s] = c + 1
			s += "#" + strconv.Itoa(c+1)
		} else {
			seen[s] = 1
		}
		out[k] = s
	}
	return out
}

// pairs calls f for each key of a (with its index in b, or -1) in a's order, then for each
// key only b has.
func pairs(a, b []string, f func(key string, x, y int)) {
	for x, k := range a {
		y := -1
		for j, kb := range b {
			if kb == k {
				y = j
				break
			}
		}
		f(k, x, y)
	}
	for y, k := range b {
		found := false
		for _, ka := range a {
			if ka == k {
				found = true
				break
			}
		}
		if !found {
			f(k, -1, y)
		}
	}
}

// matchBlackboard pairs the blackboard parameters of a and b: by name and type (a name the
// file repeats within one type by its occurrence), then a parameter left over in a with the
// one left over in b at the same index and of the same type (a rename). It returns a's index
// -> b's and b's -> a's, -1 for no counterpart.
func matchBlackboard(a, b *graph.Document) (ab, ba []int) {
	ab, ba = fill(len(a.Blackboard)), fill(len(b.Blackboard))
	type key struct {
		name string
		t    graph.ValueType
		nth  int
	}
	keys := func(d *graph.Document) []key {
		seen := map[key]int{}
		out := make([]key, len(d.Blackboard))
		for i, p := range d.Blackboard {
			k := key{p.Name, p.Type, 0}
			k.nth = seen[k]
			seen[key{p.Name, p.Type, 0}]++
			out[i] = k
		}
		return out
	}
	byKey := map[key]int{}
	for j, k := range keys(b) {
		byKey[k] = j
	}
	for i, k := range keys(a) {
		if j, ok := byKey[k]; ok {
			ab[i], ba[j] = j, i
		}
	}
	// A rename only between names each file has once: a repeated name is known by its
	// occurrence, which a rename into it would shift.
	for i := range a.Blackboard {
		if ab[i] < 0 && i < len(b.Blackboard) && ba[i] < 0 && a.Blackboard[i].Type == b.Blackboard[i].Type &&
			!repeated(a, i) && !repeated(b, i) {
			ab[i], ba[i] = i, i
		}
	}
	return ab, ba
}

// paramStep is the path step naming blackboard parameter i: "blackboard Speed", with its type
// when the file has another parameter of that name ("blackboard Speed (float)").
func paramStep(d *graph.Document, i int) string {
	p := &d.Blackboard[i]
	if repeated(d, i) {
		return "blackboard " + p.Name + " (" + string(p.Type) + ")"
	}
	return "blackboard " + p.Name
}

// repeated reports whether another blackboard parameter has the name of parameter i.
func repeated(d *graph.Document, i int) bool {
	for k := range d.Blackboard {
		if k != i && d.Blackboard[k].Name == d.Blackboard[i].Name {
			return true
		}
	}
	return false
}

func commandIndex(d *graph.Document, name string) int {
	for k := range d.Commands {
		if d.Commands[k].Name == name {
			return k
		}
	}
	return -1
}

func moduleIndex(d *graph.Document, path string) int {
	for k := range d.Modules {
		if d.Modules[k].Path == path {
			return k
		}
	}
	return -1
}

func appendString(b []byte, s string) []byte { return jsontext.AppendString(b, s) }

func moduleCall(d *graph.Document) []byte {
	b := append([]byte(nil), `{"blackboardId":`...)
	b = strconv.AppendUint(b, uint64(d.ModuleCall.BlackboardID), 10)
	b = append(b, `,"parentBlackboardId":`...)
	b = strconv.AppendUint(b, uint64(d.ModuleCall.ParentBlackboardID), 10)
	return append(b, '}')
}

func section58(d *graph.Document) []byte {
	s := d.Section58
	if s == nil {
		return []byte("null")
	}
	b := append([]byte(nil), `{"description":`...)
	b = appendString(b, s.Description)
	b = appendUnknown(b, s.Unknown[:])
	return append(b, '}')
}

func expressionsVersion(d *graph.Document) []byte {
	if d.Expressions == nil {
		return []byte("null")
	}
	return strconv.AppendUint(nil, uint64(d.Expressions.Version), 10)
}

func stateInfo(n *graph.Node) []byte {
	s := n.StateInfo
	if s == nil {
		return nil
	}
	b := append([]byte(nil), `{"desiredState":`...)
	b = appendString(b, s.DesiredState)
	b = appendUnknown(b, s.Unknown[:])
	return append(b, '}')
}

// appendUnknown appends the words a document keeps unread: ,"unknown":[...].
func appendUnknown(b []byte, words []uint32) []byte {
	b = append(b, `,"unknown":[`...)
	for k, u := range words {
		if k > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendUint(b, uint64(u), 10)
	}
	return append(b, ']')
}

func actions(n *graph.Node) []byte {
	if len(n.Actions) == 0 {
		return nil
	}
	b := []byte{'['}
	for k, a := range n.Actions {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"slot":`...)
		b = appendString(b, a.Slot)
		b = append(b, `,"action":`...)
		b = appendString(b, a.Action)
		b = append(b, '}')
	}
	return append(b, ']')
}

func replacements(v *view) []byte {
	rs := v.d.Replacements
	if rs == nil {
		return []byte("null")
	}
	b := []byte{'['}
	for k, r := range rs {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":`...)
		b = appendString(b, r.Type)
		b = append(b, `,"node":`...)
		b = strconv.AppendInt(b, int64(v.nodeID(r.Node)), 10)
		b = append(b, `,"index":`...)
		b = strconv.AppendInt(b, int64(r.Index), 10)
		if r.New != nil {
			b = append(b, `,"new":`...)
			b = strconv.AppendInt(b, int64(v.nodeID(*r.New)), 10)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

func relocations(v *view) []byte {
	b := []byte{'['}
	for k, r := range v.d.EnumRelocations {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"className":`...)
		b = appendString(b, r.ClassName)
		b = append(b, `,"valueName":`...)
		b = appendString(b, r.ValueName)
		if t := r.Target; t != nil {
			b = append(b, `,"target":{`...)
			n := len(b)
			one := func(k string, p *int, id bool) {
				if p == nil {
					return
				}
				if len(b) > n {
					b = append(b, ',')
				}
				b = append(b, k...)
				x := *p
				if id {
					x = v.nodeID(x)
				}
				b = strconv.AppendInt(b, int64(x), 10)
			}
			one(`"node":`, t.Node, true)
			one(`"attachment":`, t.Attachment, false)
			one(`"property":`, t.Property, false)
			one(`"input":`, t.Input, false)
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// attachment is attachment k of d as the document writes it, null when there is none.
func attachment(d *graph.Document, k int) []byte {
	if k < 0 || k >= len(d.Attachments) {
		return []byte("null")
	}
	return graph.AppendAttachment(nil, &d.Attachments[k])
}

// AppendJSON appends the change as change.Change.AppendJSON does, with "nodeA" and "nodeB"
// members for the node ids it belongs to (left out where it belongs to none).
func (c Change) AppendJSON(b []byte) []byte {
	b = c.Change.AppendJSON(b)
	b = b[:len(b)-1]
	if c.NodeA >= 0 {
		b = append(b, `,"nodeA":`...)
		b = strconv.AppendInt(b, int64(c.NodeA), 10)
	}
	if c.NodeB >= 0 {
		b = append(b, `,"nodeB":`...)
		b = strconv.AppendInt(b, int64(c.NodeB), 10)
	}
	return append(b, '}')
}
