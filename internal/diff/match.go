package diff

import (
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
	}
	// What is left: by class and name, in document order.
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
	for i := range a.Nodes {
		if m.ab[i] >= 0 {
			continue
		}
		c := class{a.Nodes[i].Type, a.Nodes[i].Name}
		js := left[c]
		for k, j := range js {
			if pairable(i, j) {
				m.ab[i], m.ba[j] = j, i
				left[c] = append(js[:k:k], js[k+1:]...)
				break
			}
		}
	}
	return m
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
