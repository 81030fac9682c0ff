package diff

import (
	"strconv"

	"ainbeditor/internal/graph"
)

// view is one document with its references rewritten into the numbering of the document it
// is compared with, so that equal JSON means equal meaning: node ids through the node
// matching, blackboard indices through the parameter matching. References that have no
// counterpart become negative numbers (-1 - own index), which no document uses.
//
// Expression functions are compared by their text where a node uses them (diff: fn is nil,
// and a source only says that it has an expression) or by their merged index (merge). A
// node's attachments are compared by content (att nil) or by merged index.
type view struct {
	d    *graph.Document
	node map[int]int // own id -> compared id; nil: the same
	bb   []int       // own blackboard index -> compared; nil: the same
	fn   []int       // own function index -> compared; nil: compared by text elsewhere
	att  []int       // own attachment index -> compared; nil: compared by content
	// restored: own id -> the node as translate gives it, with the links a merge gives
	// back to nodes this side removed and the merge keeps (see relink).
	restored map[int]graph.Node
}

var zero = 0

func (v *view) nodeID(id int) int {
	if v.node == nil || id == graph.NoNode {
		return id
	}
	if t, ok := v.node[id]; ok {
		return t
	}
	return id // a reference to no node stays as it is, so both sides show it alike
}

func (v *view) mapIndex(m []int, p *int) *int {
	if p == nil || m == nil {
		return p
	}
	t := *p
	if t >= 0 && t < len(m) {
		t = m[t]
	}
	return &t
}

func (v *view) source(s *graph.Source) *graph.Source {
	if s == nil {
		return nil
	}
	c := *s
	if c.Node != nil {
		id := v.nodeID(*c.Node)
		c.Node = &id
	}
	c.Blackboard = v.mapIndex(v.bb, c.Blackboard)
	if c.Expression != nil {
		if v.fn == nil {
			c.Expression = &zero
		} else {
			c.Expression = v.mapIndex(v.fn, c.Expression)
		}
	}
	return &c
}

func (v *view) property(p *graph.Property) graph.Property {
	c := *p
	c.Source = v.source(p.Source)
	return c
}

func (v *view) input(in *graph.Input) graph.Input {
	c := *in
	c.Source = v.source(in.Source)
	if in.Sources != nil {
		c.Sources = make([]graph.Source, len(in.Sources))
		for k := range in.Sources {
			c.Sources[k] = *v.source(&in.Sources[k])
		}
	}
	return c
}

func (v *view) child(ch *graph.Child) graph.Child {
	c := *ch
	c.Node = v.nodeID(ch.Node)
	if k := ch.Condition; k != nil && v.bb != nil {
		kc := *k
		kc.Blackboard = v.mapIndex(v.bb, k.Blackboard)
		kc.MinBlackboard = v.mapIndex(v.bb, k.MinBlackboard)
		kc.MaxBlackboard = v.mapIndex(v.bb, k.MaxBlackboard)
		c.Condition = &kc
	}
	return c
}

func (v *view) jump(j *graph.Jump) graph.Jump {
	c := *j
	c.Node = v.nodeID(j.Node)
	return c
}

func (v *view) ids(ids []int) []int {
	out := make([]int, len(ids))
	for k, id := range ids {
		out[k] = v.nodeID(id)
	}
	return out
}

func (v *view) attachment(a *graph.Attachment) graph.Attachment {
	c := *a
	if len(a.Properties) > 0 {
		c.Properties = make([]graph.Property, len(a.Properties))
		for k := range a.Properties {
			c.Properties[k] = v.property(&a.Properties[k])
		}
	}
	return c
}

// translate returns a copy of n in the compared numbering. Lists that references are
// rewritten in are new; the rest is shared with n.
func (v *view) translate(n *graph.Node) graph.Node {
	if r, ok := v.restored[n.ID]; ok {
		return r
	}
	c := *n
	c.ID = v.nodeID(n.ID)
	if len(n.Properties) > 0 {
		c.Properties = make([]graph.Property, len(n.Properties))
		for k := range n.Properties {
			c.Properties[k] = v.property(&n.Properties[k])
		}
	}
	if len(n.Inputs) > 0 {
		c.Inputs = make([]graph.Input, len(n.Inputs))
		for k := range n.Inputs {
			c.Inputs[k] = v.input(&n.Inputs[k])
		}
	}
	if len(n.Children) > 0 {
		c.Children = make([]graph.Child, len(n.Children))
		for k := range n.Children {
			c.Children[k] = v.child(&n.Children[k])
		}
	}
	if len(n.Jumps) > 0 {
		c.Jumps = make([]graph.Jump, len(n.Jumps))
		for k := range n.Jumps {
			c.Jumps[k] = v.jump(&n.Jumps[k])
		}
	}
	if len(n.Queries) > 0 {
		c.Queries = v.ids(n.Queries)
	}
	if v.att != nil {
		c.Attachments = v.ids2(v.att, n.Attachments)
	}
	return c
}

// nodeKey appends what a node says, in the compared numbering, leaving out where it is drawn:
// two nodes with equal keys are the same node for a diff or a merge.
func (v *view) nodeKey(b []byte, n *graph.Node) []byte {
	c := v.translate(n)
	c.X, c.Y, c.Pinned = 0, 0, false
	if v.att == nil {
		c.Attachments = nil
	}
	b = graph.AppendNode(b, &c)
	if v.att == nil {
		for _, k := range n.Attachments {
			b = v.appendAttachment(b, k)
		}
	}
	if v.fn == nil {
		v.eachExpression(n, func(_ []string, fn int) { b = v.appendFunction(b, fn) })
	}
	return b
}

func (v *view) ids2(m []int, idx []int) []int {
	if idx == nil {
		return nil
	}
	out := make([]int, len(idx))
	for k, i := range idx {
		out[k] = i
		if i >= 0 && i < len(m) {
			out[k] = m[i]
		}
	}
	return out
}

// appendAttachment appends attachment k's content, or null when there is none.
func (v *view) appendAttachment(b []byte, k int) []byte {
	if k < 0 || k >= len(v.d.Attachments) {
		return append(b, "null"...)
	}
	a := v.attachment(&v.d.Attachments[k])
	b = graph.AppendAttachment(b, &a)
	if v.fn == nil {
		for _, p := range v.d.Attachments[k].Properties {
			if p.Source != nil && p.Source.Expression != nil {
				b = v.appendFunction(append(b, ','), *p.Source.Expression)
			}
		}
	}
	return b
}

// appendFunction appends function fn's text as a JSON string, or null when there is none.
func (v *view) appendFunction(b []byte, fn int) []byte {
	if x := v.d.Expressions; x != nil && fn >= 0 && fn < len(x.Functions) {
		return appendString(b, x.Functions[fn].Text)
	}
	return append(b, "null"...)
}

// eachExpression calls f with the steps (under the node) of each property, input or
// multi-input source of n that goes through an expression function, and that function's index.
func (v *view) eachExpression(n *graph.Node, f func(steps []string, fn int)) {
	for k := range n.Properties {
		if s := n.Properties[k].Source; s != nil && s.Expression != nil {
			f([]string{"property " + n.Properties[k].Name}, *s.Expression)
		}
	}
	for k := range n.Inputs {
		in := &n.Inputs[k]
		if in.Source != nil && in.Source.Expression != nil {
			f([]string{"input " + in.Name}, *in.Source.Expression)
		}
		for j, s := range in.Sources {
			if s.Expression != nil {
				f([]string{"input " + in.Name, "sources " + strconv.Itoa(j)}, *s.Expression)
			}
		}
	}
}
