package graph

import (
	"fmt"

	"ainbeditor/internal/ainb"
)

// References that name nothing. The games ship files whose selector children lead to no node
// (node index 0x7FFF) and whose inputs read an output index past the source node's outputs of
// the input's type; ainb keeps them as warnings (ainb.File.Warnings). The document carries
// the two the games use: a child to no node (Child.Node NoNode, JSON null) and a source with
// a missing output (Source.MissingOutput), each built back to the number stored. The others
// ainb accepts (another number for no node, a jump to no node, a source naming a node the
// file lacks, a multi-input source's negative output index) no known file has; the document
// has no way to say them, and a parse refuses them by name rather than build another file.

// childNode is the document's Child.Node for a stored child plug node index: its id (ids are
// file indices when parsing), or NoNode for the games' "no node".
func childNode(stored int32, nodes int) int {
	if stored == ainb.NoNode && nodes <= ainb.NoNode {
		return NoNode
	}
	return int(stored)
}

// missingOutput is a source reading output k of node's outputs of the value's type, which
// the node does not have.
func missingOutput(node, k int) Source {
	return Source{Node: &node, MissingOutput: &k}
}

// expressible refuses a file whose references name nothing in a way the document cannot
// carry, naming the first such reference with ainb's path.
func expressible(f *ainb.File) error {
	n := len(f.Elements)
	refuse := func(i int, path, what string) error {
		return fmt.Errorf("graph: the editor cannot keep Nodes[%d].%s: %s (the ainb command reads and writes it as stored)", i, path, what)
	}
	for i := range f.Elements {
		e := &f.Elements[i]
		for j, p := range e.Plugs.Of(ainb.PlugChild) {
			if (p.Node < 0 || int(p.Node) >= n) && childNode(p.Node, n) != NoNode {
				return refuse(i, fmt.Sprintf("Plugs.Child[%d].Node Index", j), fmt.Sprintf("%d names no node, and only 0x7FFF stands for none", p.Node))
			}
		}
		for j, p := range e.Plugs.Of(ainb.PlugJump) {
			if p.Node < 0 || int(p.Node) >= n {
				return refuse(i, fmt.Sprintf("Plugs.Transition[%d].Node Index", j), fmt.Sprintf("a jump to no node (%d)", p.Node))
			}
		}
		for t := range ainb.NumParamTypes {
			inputs := e.Inputs.Of(t)
			for j := range inputs {
				in := &inputs[j]
				// The path is made only for a refusal: this runs over every source of every
				// file parsed.
				check := func(k int, s ainb.Source) error {
					sub := ""
					if k >= 0 {
						sub = fmt.Sprintf(".Sources[%d]", k)
					}
					if int(s.Node) >= n {
						return refuse(i, fmt.Sprintf("Parameters.Inputs.%s[%d]%s.Node Index", t, j, sub), fmt.Sprintf("a source from no node (%d)", s.Node))
					}
					return refuse(i, fmt.Sprintf("Parameters.Inputs.%s[%d]%s.Output Index", t, j, sub), fmt.Sprintf("a negative output index (%d)", s.Output))
				}
				bad := func(s ainb.Source) bool { return int(s.Node) >= n || (s.Node >= 0 && s.Output < 0) }
				if !in.IsMulti() {
					if bad(in.Source) {
						return check(-1, in.Source)
					}
					continue
				}
				for k, s := range in.Sources {
					if bad(s) {
						return check(k, s)
					}
				}
			}
		}
	}
	return nil
}
