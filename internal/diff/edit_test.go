package diff

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"ainbeditor/internal/change"
	"ainbeditor/internal/graph"
)

// A seeded generator of edits to a document, each recording the exact changes Diff must
// report for it. Edits find what they change by node id, parameter name or function index,
// so one edit applies alike to any parse of the same file; every node, parameter, command
// and function an edit touches or links to is reserved, so the edits of one generator
// touch disjoint places (and a node one edit removes is linked to by no other).

type edit struct {
	what    string
	apply   func(d *graph.Document)
	changes []Change
	// place is the merge's path of the place the edit changes, for conflict tests, and
	// before and after its value there.
	place         change.Path
	before, after []byte
}

type generator struct {
	src      *rand.PCG
	r        *rand.Rand
	salt     int             // added to every new value, so two generators in one state make different edits
	d        *graph.Document // the base, never changed
	used     map[int]bool    // node ids
	usedBB   map[string]bool
	usedFn   map[int]bool
	usedCmd  map[string]bool
	nextID   int
	refs     map[int]int // node id -> how many references it has (children, jumps, queries, sources, commands, ...)
	parentOf map[int]int // node id -> id of the node listing it as last child, when that is its only reference
	fnUses   map[int]int // function -> how many sources use it
}

func newGenerator(d *graph.Document, seed uint64) *generator {
	src := rand.NewPCG(seed, 7)
	g := &generator{src: src, r: rand.New(src), d: d, used: map[int]bool{}, usedBB: map[string]bool{}, usedFn: map[int]bool{}, usedCmd: map[string]bool{},
		refs: map[int]int{}, parentOf: map[int]int{}, fnUses: map[int]int{}}
	for i := range d.Nodes {
		g.nextID = max(g.nextID, d.Nodes[i].ID+1)
	}
	count := func(s *graph.Source) {
		if s == nil {
			return
		}
		if s.Node != nil {
			g.refs[*s.Node]++
		}
		if s.Expression != nil {
			g.fnUses[*s.Expression]++
		}
	}
	for i := range d.Nodes {
		n := &d.Nodes[i]
		for k, c := range n.Children {
			g.refs[c.Node]++
			if k == len(n.Children)-1 {
				g.parentOf[c.Node] = n.ID
			}
		}
		for _, j := range n.Jumps {
			g.refs[j.Node]++
		}
		for _, q := range n.Queries {
			g.refs[q]++
		}
		for k := range n.Properties {
			count(n.Properties[k].Source)
		}
		for k := range n.Inputs {
			count(n.Inputs[k].Source)
			for j := range n.Inputs[k].Sources {
				count(&n.Inputs[k].Sources[j])
			}
		}
	}
	for k := range d.Attachments {
		for j := range d.Attachments[k].Properties {
			count(d.Attachments[k].Properties[j].Source)
		}
	}
	for _, c := range d.Commands {
		g.refs[c.Root] += 2 // never removable
		g.refs[c.Secondary] += 2
	}
	for _, r := range d.Replacements {
		g.refs[r.Node] += 2
		if r.New != nil {
			g.refs[*r.New] += 2
		}
	}
	for _, r := range d.EnumRelocations {
		if r.Target != nil && r.Target.Node != nil {
			g.refs[*r.Target.Node] += 2
		}
	}
	return g
}

// fork returns a generator in g's state whose new values differ from g's.
func (g *generator) fork() *generator {
	src := *g.src
	f := *g
	f.src, f.r, f.salt = &src, rand.New(&src), g.salt+1
	f.used, f.usedBB, f.usedFn, f.usedCmd = maps.Clone(g.used), maps.Clone(g.usedBB), maps.Clone(g.usedFn), maps.Clone(g.usedCmd)
	return &f
}

func node(d *graph.Document, id int) *graph.Node {
	for i := range d.Nodes {
		if d.Nodes[i].ID == id {
			return &d.Nodes[i]
		}
	}
	panic(fmt.Sprintf("no node %d", id))
}

// pickNode returns a random unreserved node that ok accepts, or nil.
func (g *generator) pickNode(ok func(n *graph.Node) bool) *graph.Node {
	n := len(g.d.Nodes)
	if n == 0 {
		return nil
	}
	start := g.r.IntN(n)
	for k := range n {
		nd := &g.d.Nodes[(start+k)%n]
		if !g.used[nd.ID] && ok(nd) {
			return nd
		}
	}
	return nil
}

func uniqueName[T any](list []T, k int, name func(*T) string) bool {
	c := 0
	for i := range list {
		if name(&list[i]) == name(&list[k]) {
			c++
		}
	}
	return c == 1
}

// next returns a random edit of a random kind, or nil when the document offers none.
func (g *generator) next() *edit {
	kinds := []func() *edit{g.propertyValue, g.inputValue, g.retarget, g.addChildNode, g.removeChild, g.removeLeaf, g.renameParam, g.editFunction, g.commandRoot, g.swapInputs}
	start := g.r.IntN(len(kinds))
	for k := range kinds {
		if e := kinds[(start+k)%len(kinds)](); e != nil {
			return e
		}
	}
	return nil
}

func (g *generator) newValue(t graph.ValueType, v graph.Value) graph.Value {
	switch t {
	case "int":
		delta := 1 + int64(g.r.IntN(1000)) + int64(g.salt)*100000
		if v.Int+delta > math.MaxInt32 {
			delta = -delta
		}
		v.Int += delta
	case "bool":
		v.Int = 1 - v.Int
	case "float":
		v.Float += graph.Float(1 + g.r.IntN(1000) + g.salt*100000)
	case "string":
		v.String += "_e" + strconv.Itoa(g.salt) + "_" + strconv.Itoa(g.r.IntN(1000))
	}
	return v
}

func editable(t graph.ValueType) bool {
	return t == "int" || t == "bool" || t == "float" || t == "string"
}

// propertyValue changes the immediate value of a property.
func (g *generator) propertyValue() *edit {
	var k int
	n := g.pickNode(func(n *graph.Node) bool {
		for k = range n.Properties {
			p := &n.Properties[k]
			if p.Source == nil && editable(p.Type) && uniqueName(n.Properties, k, func(p *graph.Property) string { return p.Name }) {
				return true
			}
		}
		return false
	})
	if n == nil {
		return nil
	}
	g.used[n.ID] = true
	id, old := n.ID, n.Properties[k]
	nv := g.newValue(old.Type, old.Value)
	nw := old
	nw.Value = nv
	step := NodeStep(n)
	return &edit{
		what:  "property value",
		apply: func(d *graph.Document) { node(d, id).Properties[k].Value = nv },
		changes: []Change{{change.Change{Op: change.Changed, Path: change.Path{step, "property " + old.Name, "value"},
			Old: graph.AppendValue(nil, old.Type, &old.Value), New: graph.AppendValue(nil, old.Type, &nv)}, id, id}},
		place:  change.Path{step, "property " + old.Name},
		before: graph.AppendProperty(nil, &old), after: graph.AppendProperty(nil, &nw),
	}
}

// inputValue changes the default value of an input without a source.
func (g *generator) inputValue() *edit {
	var k int
	n := g.pickNode(func(n *graph.Node) bool {
		for k = range n.Inputs {
			p := &n.Inputs[k]
			if p.Source == nil && p.Sources == nil && editable(p.Type) && uniqueName(n.Inputs, k, func(p *graph.Input) string { return p.Name }) {
				return true
			}
		}
		return false
	})
	if n == nil {
		return nil
	}
	g.used[n.ID] = true
	id, old := n.Inputs[k].Name, n.Inputs[k]
	nid := n.ID
	nv := g.newValue(old.Type, old.Value)
	nw := old
	nw.Value = nv
	step := NodeStep(n)
	return &edit{
		before: graph.AppendInput(nil, &old), after: graph.AppendInput(nil, &nw),
		what:  "input value",
		apply: func(d *graph.Document) { node(d, nid).Inputs[k].Value = nv },
		changes: []Change{{change.Change{Op: change.Changed, Path: change.Path{step, "input " + id, "value"},
			Old: graph.AppendValue(nil, old.Type, &old.Value), New: graph.AppendValue(nil, old.Type, &nv)}, nid, nid}},
		place: change.Path{step, "input " + id},
	}
}

// retarget connects an input fed by a node output to another node's output of its type.
func (g *generator) retarget() *edit {
	var k int
	n := g.pickNode(func(n *graph.Node) bool {
		for k = range n.Inputs {
			p := &n.Inputs[k]
			if s := p.Source; s != nil && s.Node != nil && s.Expression == nil && s.MissingOutput == nil &&
				uniqueName(n.Inputs, k, func(p *graph.Input) string { return p.Name }) {
				return true
			}
		}
		return false
	})
	if n == nil {
		return nil
	}
	in := n.Inputs[k]
	var out int
	m := g.pickNode(func(m *graph.Node) bool {
		if m.ID == n.ID || m.ID == *in.Source.Node {
			return false
		}
		for out = range m.Outputs {
			if m.Outputs[out].Type == in.Type && m.Outputs[out].ClassName == in.ClassName {
				return true
			}
		}
		return false
	})
	if m == nil {
		return nil
	}
	g.used[n.ID], g.used[m.ID] = true, true
	nid, mid := n.ID, m.ID
	ns := *in.Source
	ns.Node, ns.Output = &mid, out
	step := NodeStep(n)
	return &edit{
		what: "retarget",
		apply: func(d *graph.Document) {
			s := ns
			node(d, nid).Inputs[k].Source = &s
		},
		changes: []Change{{change.Change{Op: change.Changed, Path: change.Path{step, "input " + in.Name, "source"},
			Old: graph.AppendSource(nil, in.Source), New: graph.AppendSource(nil, &ns)}, nid, nid}},
		place: change.Path{step, "input " + in.Name},
	}
}

// plainParent accepts a node whose children carry no conditions (no selector).
func plainParent(n *graph.Node) bool {
	if len(n.Children) == 0 {
		return false
	}
	for _, c := range n.Children {
		if c.Condition != nil || c.Node == graph.NoNode {
			return false
		}
	}
	return true
}

// addChildNode adds a copy of a leaf node, without its sources, as the last child of a node.
func (g *generator) addChildNode() *edit {
	p := g.pickNode(plainParent)
	if p == nil {
		return nil
	}
	g.used[p.ID] = true
	leaf := g.pickNode(func(n *graph.Node) bool {
		return n.Type == "UserDefined" && len(n.Children) == 0 && len(n.Jumps) == 0 && len(n.Queries) == 0 && !n.ModuleCaller && len(n.Properties)+len(n.Inputs) < 8
	})
	if leaf == nil {
		g.used[p.ID] = false
		return nil
	}
	c := *leaf
	c.ID = g.nextID
	g.nextID++
	for k := range c.GUID {
		c.GUID[k] = byte(g.r.IntN(256))
	}
	c.Properties = slices.Clone(leaf.Properties)
	for k := range c.Properties {
		c.Properties[k].Source, c.Properties[k].UsesDefault = nil, nil
	}
	c.Inputs = slices.Clone(leaf.Inputs)
	for k := range c.Inputs {
		c.Inputs[k].Source, c.Inputs[k].Sources, c.Inputs[k].UsesDefault = nil, nil, nil
	}
	c.Outputs = slices.Clone(leaf.Outputs)
	c.Attachments = slices.Clone(leaf.Attachments)
	c.Actions = slices.Clone(leaf.Actions)
	if leaf.StateInfo != nil {
		s := *leaf.StateInfo
		c.StateInfo = &s
	}
	child := graph.Child{Node: c.ID, Name: p.Children[len(p.Children)-1].Name}
	pid, k := p.ID, len(p.Children)
	return &edit{
		what: "add node as child",
		apply: func(d *graph.Document) {
			n := c
			n.Properties, n.Inputs, n.Outputs = slices.Clone(c.Properties), slices.Clone(c.Inputs), slices.Clone(c.Outputs)
			d.Nodes = append(d.Nodes, n)
			q := node(d, pid)
			q.Children = append(slices.Clip(q.Children), child)
		},
		changes: []Change{
			{change.Change{Op: change.Added, Path: change.Path{NodeStep(&c)}, New: graph.AppendNode(nil, &c)}, -1, c.ID},
			{change.Change{Op: change.Added, Path: change.Path{NodeStep(p), "child " + strconv.Itoa(k)}, New: graph.AppendChild(nil, &child)}, pid, pid},
		},
		place: change.Path{NodeStep(p), "child " + strconv.Itoa(k)},
	}
}

// removeChild removes the last of several children of a node (the child node stays).
func (g *generator) removeChild() *edit {
	p := g.pickNode(func(n *graph.Node) bool { return plainParent(n) && len(n.Children) >= 2 })
	if p == nil {
		return nil
	}
	g.used[p.ID] = true
	last := p.Children[len(p.Children)-1]
	g.used[last.Node] = true
	pid, k := p.ID, len(p.Children)-1
	return &edit{
		what: "remove child",
		apply: func(d *graph.Document) {
			q := node(d, pid)
			q.Children = slices.Clip(q.Children[:k])
		},
		changes: []Change{{change.Change{Op: change.Removed, Path: change.Path{NodeStep(p), "child " + strconv.Itoa(k)}, Old: graph.AppendChild(nil, &last)}, pid, pid}},
		place:   change.Path{NodeStep(p), "child " + strconv.Itoa(k)},
	}
}

// removeLeaf removes a node linked to only as the last child of one node, and that child.
func (g *generator) removeLeaf() *edit {
	leaf := g.pickNode(func(n *graph.Node) bool {
		par, ok := g.parentOf[n.ID]
		return ok && g.refs[n.ID] == 1 && !g.used[par] && len(n.Children) == 0 && len(n.Jumps) == 0 && len(n.Queries) == 0 &&
			plainParent(node(g.d, par))
	})
	if leaf == nil {
		return nil
	}
	p := node(g.d, g.parentOf[leaf.ID])
	g.used[leaf.ID], g.used[p.ID] = true, true
	lid, pid, k := leaf.ID, p.ID, len(p.Children)-1
	last := p.Children[k]
	return &edit{
		what: "remove leaf node",
		apply: func(d *graph.Document) {
			q := node(d, pid)
			q.Children = slices.Clip(q.Children[:k])
			d.Nodes = slices.DeleteFunc(d.Nodes, func(n graph.Node) bool { return n.ID == lid })
		},
		changes: []Change{
			{change.Change{Op: change.Removed, Path: change.Path{NodeStep(leaf)}, Old: graph.AppendNode(nil, leaf)}, lid, -1},
			{change.Change{Op: change.Removed, Path: change.Path{NodeStep(p), "child " + strconv.Itoa(k)}, Old: graph.AppendChild(nil, &last)}, pid, pid},
		},
		place: change.Path{NodeStep(leaf)},
	}
}

// renameParam renames a blackboard parameter.
func (g *generator) renameParam() *edit {
	bb := g.d.Blackboard
	if len(bb) == 0 {
		return nil
	}
	i := g.r.IntN(len(bb))
	old := bb[i]
	if g.usedBB[old.Name] || !uniqueName(bb, i, func(p *graph.BlackboardParam) string { return p.Name }) {
		return nil
	}
	g.usedBB[old.Name] = true
	nw := old
	nw.Name = old.Name + "_r" + strconv.Itoa(g.salt) + "_" + strconv.Itoa(g.r.IntN(1000))
	g.usedBB[nw.Name] = true
	return &edit{
		what:    "rename parameter",
		apply:   func(d *graph.Document) { d.Blackboard[i].Name = nw.Name },
		changes: []Change{{change.Change{Op: change.Changed, Path: change.Path{"blackboard " + old.Name}, Old: graph.AppendBlackboardParam(nil, &old), New: graph.AppendBlackboardParam(nil, &nw)}, -1, -1}},
		place:   change.Path{"blackboard " + old.Name},
		before:  graph.AppendBlackboardParam(nil, &old), after: graph.AppendBlackboardParam(nil, &nw),
	}
}

// editFunction edits the text of a function one input or property of a node uses.
func (g *generator) editFunction() *edit {
	var steps []string
	var fn int
	n := g.pickNode(func(n *graph.Node) bool {
		found := false
		(&view{d: g.d}).eachExpression(n, func(s []string, f int) {
			if !found && g.fnUses[f] == 1 && !g.usedFn[f] {
				steps, fn, found = s, f, true
			}
		})
		return found
	})
	if n == nil {
		return nil
	}
	g.used[n.ID], g.usedFn[fn] = true, true
	old := g.d.Expressions.Functions[fn].Text
	nw := old + "\n// edit " + strconv.Itoa(g.salt) + " " + strconv.Itoa(g.r.IntN(1000))
	nid := n.ID
	path := append(append(change.Path{NodeStep(n)}, steps...), "expression")
	return &edit{
		what: "edit function",
		apply: func(d *graph.Document) {
			f := &d.Expressions.Functions[fn]
			if f.ParsedText == nil {
				t := f.Text
				f.ParsedText = &t
			}
			f.Text = nw
		},
		changes: []Change{{change.Change{Op: change.Changed, Path: path, Old: appendString(nil, old), New: appendString(nil, nw)}, nid, nid}},
		place:   path,
		before:  appendString(nil, old), after: appendString(nil, nw),
	}
}

// commandRoot points a command at another node.
func (g *generator) commandRoot() *edit {
	if len(g.d.Commands) == 0 {
		return nil
	}
	k := g.r.IntN(len(g.d.Commands))
	old := g.d.Commands[k]
	if g.usedCmd[old.Name] || commandIndex(g.d, old.Name) != k {
		return nil
	}
	n := g.pickNode(func(n *graph.Node) bool { return n.ID != old.Root && n.ID != old.Secondary })
	if n == nil {
		return nil
	}
	g.usedCmd[old.Name], g.used[n.ID] = true, true
	nw := old
	nw.Root = n.ID
	return &edit{
		what:    "command root",
		apply:   func(d *graph.Document) { d.Commands[k].Root = nw.Root },
		changes: []Change{{change.Change{Op: change.Changed, Path: change.Path{"command " + old.Name}, Old: graph.AppendCommand(nil, &old), New: graph.AppendCommand(nil, &nw)}, -1, -1}},
		place:   change.Path{"command " + old.Name},
	}
}

// swapInputs swaps two inputs of one type: the file keeps their order within the type.
func (g *generator) swapInputs() *edit {
	var x, y int
	n := g.pickNode(func(n *graph.Node) bool {
		ns := names(len(n.Inputs), func(k int) string { return n.Inputs[k].Name })
		for x = range n.Inputs {
			for y = x + 1; y < len(n.Inputs); y++ {
				if n.Inputs[x].Type == n.Inputs[y].Type && !strings.Contains(ns[x], "#") && !strings.Contains(ns[y], "#") &&
					uniqueName(n.Inputs, x, func(p *graph.Input) string { return p.Name }) && uniqueName(n.Inputs, y, func(p *graph.Input) string { return p.Name }) {
					return true
				}
			}
		}
		return false
	})
	if n == nil {
		return nil
	}
	g.used[n.ID] = true
	before := names(len(n.Inputs), func(k int) string { return n.Inputs[k].Name })
	after := slices.Clone(before)
	after[x], after[y] = after[y], after[x]
	id := n.ID
	return &edit{
		what: "swap inputs",
		apply: func(d *graph.Document) {
			m := node(d, id)
			m.Inputs = slices.Clone(m.Inputs)
			m.Inputs[x], m.Inputs[y] = m.Inputs[y], m.Inputs[x]
		},
		changes: []Change{{change.Change{Op: change.Changed, Path: change.Path{NodeStep(n), "order of inputs"}, Old: orderKey(before), New: orderKey(after)}, id, id}},
		place:   change.Path{NodeStep(n), "order of inputs"},
	}
}
