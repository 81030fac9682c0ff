package diff

import (
	"hash/fnv"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/graph"
)

// matching pairs the nodes of two documents by index: ab[i] is the index in B of A's node i,
// ba[j] the index in A of B's node j, -1 where the node has no counterpart.
type matching struct {
	ab, ba []int
}

// match pairs the nodes of a and b. A node is known by its GUID where it has one that no other
// node of its document shares: two such nodes match only when their GUIDs are equal, since two
// different GUIDs are two different nodes whatever their class. Nodes without such a GUID are
// matched by their place in the tree (the same command's root, the same child, jump or query
// of matched nodes) and then, for what is left, by class and name in document order.
func match(a, b *graph.Document) matching {
	m := matching{ab: make([]int, len(a.Nodes)), ba: make([]int, len(b.Nodes))}
	for i := range m.ab {
		m.ab[i] = -1
	}
	for j := range m.ba {
		m.ba[j] = -1
	}
	ga, gb := uniqueGUIDs(a), uniqueGUIDs(b)
	for i := range a.Nodes {
		if !ga.known(a, i) {
			continue
		}
		if j, ok := gb.index[a.Nodes[i].GUID]; ok && j >= 0 {
			m.ab[i], m.ba[j] = j, i
		}
	}
	// pairable: neither is matched, they agree on class, and their GUIDs do not say they
	// are different nodes.
	pairable := func(i, j int) bool {
		if i < 0 || j < 0 || m.ab[i] >= 0 || m.ba[j] >= 0 {
			return false
		}
		na, nb := &a.Nodes[i], &b.Nodes[j]
		if na.Type != nb.Type || na.Name != nb.Name {
			return false
		}
		return !(ga.known(a, i) && gb.known(b, j))
	}
	ia, ib := indexByID(a), indexByID(b)
	var queue [][2]int
	pair := func(i, j int) {
		if pairable(i, j) {
			m.ab[i], m.ba[j] = j, i
			queue = append(queue, [2]int{i, j})
		}
	}
	for i := range m.ab {
		if j := m.ab[i]; j >= 0 {
			queue = append(queue, [2]int{i, j})
		}
	}
	for _, ca := range a.Commands {
		for _, cb := range b.Commands {
			if ca.Name == cb.Name {
				pair(lookup(ia, ca.Root), lookup(ib, cb.Root))
				pair(lookup(ia, ca.Secondary), lookup(ib, cb.Secondary))
			}
		}
	}
	propagate := func() {
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			na, nb := &a.Nodes[p[0]], &b.Nodes[p[1]]
			for k := 0; k < len(na.Children) && k < len(nb.Children); k++ {
				pair(lookup(ia, na.Children[k].Node), lookup(ib, nb.Children[k].Node))
			}
			for k := 0; k < len(na.Jumps) && k < len(nb.Jumps); k++ {
				pair(lookup(ia, na.Jumps[k].Node), lookup(ib, nb.Jumps[k].Node))
			}
			for k := 0; k < len(na.Queries) && k < len(nb.Queries); k++ {
				pair(lookup(ia, na.Queries[k]), lookup(ib, nb.Queries[k]))
			}
			// The nodes feeding inputs and properties of one name.
			for k := range na.Inputs {
				x := &na.Inputs[k]
				for l := range nb.Inputs {
					if y := &nb.Inputs[l]; y.Name == x.Name {
						pairSources(pair, ia, ib, x.Source, y.Source)
						for s := 0; s < len(x.Sources) && s < len(y.Sources); s++ {
							pairSources(pair, ia, ib, &x.Sources[s], &y.Sources[s])
						}
						break
					}
				}
			}
			for k := range na.Properties {
				for l := range nb.Properties {
					if nb.Properties[l].Name == na.Properties[k].Name {
						pairSources(pair, ia, ib, na.Properties[k].Source, nb.Properties[l].Source)
						break
					}
				}
			}
		}
	}
	propagate()
	if allMatched(m) {
		return m
	}
	// What is left: first nodes whose content, links aside, and whose linked nodes' content
	// (a hash through the links) is found once on each side, then by class and name; each
	// pairing is followed through its links before the next guess.
	ka, kb := deepKeys(a, ia), deepKeys(b, ib)
	countA, countB := map[uint64]int{}, map[uint64]int{}
	for _, k := range ka {
		countA[k]++
	}
	for _, k := range kb {
		countB[k]++
	}
	byKey := map[uint64]int{}
	for j, k := range kb {
		if countB[k] == 1 {
			byKey[k] = j
		}
	}
	for i, k := range ka {
		if countA[k] == 1 && countB[k] == 1 {
			pair(i, byKey[k])
			propagate()
		}
	}
	type class struct {
		t    graph.NodeType
		name string
	}
	left := map[class][]int{}
	for j := range b.Nodes {
		if m.ba[j] < 0 {
			c := class{b.Nodes[j].Type, b.Nodes[j].Name}
			left[c] = append(left[c], j)
		}
	}
	// Nodes nothing links to go first, so their pairing decides their descendants; a
	// candidate that says the same, links aside, goes before the others.
	linked := linkedNodes(a, ia)
	order := make([]int, 0, len(a.Nodes))
	for _, second := range []bool{false, true} {
		for i := range a.Nodes {
			if linked[i] == second {
				order = append(order, i)
			}
		}
	}
	for _, sameKey := range []bool{true, false} {
		for _, i := range order {
			if m.ab[i] >= 0 {
				continue
			}
			for _, j := range left[class{a.Nodes[i].Type, a.Nodes[i].Name}] {
				if pairable(i, j) && (!sameKey || ka[i] == kb[j]) {
					pair(i, j)
					propagate()
					break
				}
			}
		}
	}
	return m
}

// linkedNodes marks the nodes another node or a command links to.
func linkedNodes(d *graph.Document, index map[int]int) []bool {
	out := make([]bool, len(d.Nodes))
	mark := func(id int) {
		if i := lookup(index, id); i >= 0 {
			out[i] = true
		}
	}
	for _, c := range d.Commands {
		mark(c.Root)
		mark(c.Secondary)
	}
	for i := range d.Nodes {
		eachLink(&d.Nodes[i], func(_ linkKind, _ string, id int) { mark(id) })
	}
	return out
}

// A linkKind is which of a node's links names another node.
type linkKind uint8

const (
	linkChild linkKind = iota
	linkJump
	linkQuery
	linkInput    // an input's source (or one of its sources)
	linkProperty // a property's source
)

var linkWords = [...]string{"child", "jump", "query", "input", "property"}

// eachLink calls f with every node n links to, in one order: children, jumps, queries, the
// inputs' sources, the properties' sources; plug is the input's or property's name.
func eachLink(n *graph.Node, f func(kind linkKind, plug string, id int)) {
	for _, c := range n.Children {
		f(linkChild, "", c.Node)
	}
	for _, j := range n.Jumps {
		f(linkJump, "", j.Node)
	}
	for _, q := range n.Queries {
		f(linkQuery, "", q)
	}
	for k := range n.Inputs {
		in := &n.Inputs[k]
		if in.Source != nil && in.Source.Node != nil {
			f(linkInput, in.Name, *in.Source.Node)
		}
		for l := range in.Sources {
			if s := &in.Sources[l]; s.Node != nil {
				f(linkInput, in.Name, *s.Node)
			}
		}
	}
	for k := range n.Properties {
		if p := &n.Properties[k]; p.Source != nil && p.Source.Node != nil {
			f(linkProperty, p.Name, *p.Source.Node)
		}
	}
}

func allMatched(m matching) bool {
	for _, j := range m.ab {
		if j < 0 {
			return false
		}
	}
	return true
}

// deepKeys hashes what each node says apart from its links (every node reference blanked,
// positions left out) together with the same of the nodes it links to, through every link
// (children, jumps, queries, sources), so two nodes with equal keys head equal structures. A
// link back into a node being hashed counts as a mark of its own.
func deepKeys(d *graph.Document, index map[int]int) []uint64 {
	blank := make(map[int]int, len(d.Nodes))
	for i := range d.Nodes {
		blank[d.Nodes[i].ID] = 0
	}
	v := &view{d: d, node: blank}
	local := make([]uint64, len(d.Nodes))
	var buf []byte
	for i := range d.Nodes {
		buf = v.nodeKey(buf[:0], &d.Nodes[i])
		h := fnv.New64a()
		h.Write(buf)
		local[i] = h.Sum64()
	}
	const (
		todo = iota
		busy
		done
	)
	state := make([]uint8, len(d.Nodes))
	deep := make([]uint64, len(d.Nodes))
	var visit func(i int) uint64
	visit = func(i int) uint64 {
		switch state[i] {
		case busy:
			return 0x9e3779b97f4a7c15 // a cycle
		case done:
			return deep[i]
		}
		state[i] = busy
		h := local[i]
		eachLink(&d.Nodes[i], func(_ linkKind, _ string, id int) {
			x := uint64(0x51ed27)
			if k := lookup(index, id); k >= 0 {
				x = visit(k)
			}
			h = (h ^ x) * 0x100000001b3
		})
		state[i], deep[i] = done, h
		return h
	}
	for i := range d.Nodes {
		visit(i)
	}
	return deep
}

// pairSources pairs the nodes two sources read from.
func pairSources(pair func(i, j int), ia, ib map[int]int, x, y *graph.Source) {
	if x != nil && y != nil && x.Node != nil && y.Node != nil {
		pair(lookup(ia, *x.Node), lookup(ib, *y.Node))
	}
}

// guids indexes a document's nodes by GUID: the node's index, or -1 for a GUID two nodes share.
type guids struct {
	index map[ainb.GUID]int
}

func uniqueGUIDs(d *graph.Document) guids {
	g := guids{index: make(map[ainb.GUID]int, len(d.Nodes))}
	for i := range d.Nodes {
		id := d.Nodes[i].GUID
		if id == (ainb.GUID{}) {
			continue
		}
		if _, dup := g.index[id]; dup {
			g.index[id] = -1
		} else {
			g.index[id] = i
		}
	}
	return g
}

// known reports whether node i has a GUID of its own.
func (g guids) known(d *graph.Document, i int) bool {
	id := d.Nodes[i].GUID
	return id != (ainb.GUID{}) && g.index[id] == i
}

// indexByID maps node ids to indices.
func indexByID(d *graph.Document) map[int]int {
	m := make(map[int]int, len(d.Nodes))
	for i := range d.Nodes {
		m[d.Nodes[i].ID] = i
	}
	return m
}

func lookup(m map[int]int, id int) int {
	if i, ok := m[id]; ok {
		return i
	}
	return -1
}
