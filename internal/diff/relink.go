package diff

import (
	"bytes"
	"slices"

	"ainbeditor/internal/change"
	"ainbeditor/internal/graph"
)

// A merge that keeps a node one side removed (the other side changed it and the preference
// settles that conflict for the other side) keeps it where it was. The editor's delete drops
// every link to the node it removes (children, jumps, queries, input sources, replacements,
// enum relocations; a property takes no node's output in a file), and those dropped links
// would leave the kept node orphaned. Where the removing side did nothing at a place but that
// drop, the place is taken as base's (without the links to nodes that do go), so the
// three-way merge there gives the other side's version or base's, with the link. Where the
// side changed the place in other ways too, its version stays: which of its edits the link
// would go back among cannot be told, and the merge then has the node unlinked there, as a
// merge without this step would. The places are compared and restored in the merged
// numbering (the side's own ids may have moved up when it saved without the node).

// removedNodes returns the base ids of the nodes side s removed (s: ours with ms, other its
// counterpart) and of those among them the merge keeps: the other side changed them, and the
// preference is for the other side (keep names it). It decides what decide would, without
// recording the conflict the node loop records.
func (mg *merger) removedNodes(vb, other *view, ms, mOther matching, keep change.Prefer) (removed, kept map[int]bool) {
	var kb, ko []byte
	for i := range mg.base.Nodes {
		if ms.ab[i] >= 0 {
			continue
		}
		nb := &mg.base.Nodes[i]
		if removed == nil {
			removed = map[int]bool{}
		}
		removed[nb.ID] = true
		j := mOther.ab[i]
		if mg.prefer != keep || j < 0 {
			continue
		}
		kb, ko = vb.nodeKey(kb[:0], nb), other.nodeKey(ko[:0], &other.d.Nodes[j])
		if !bytes.Equal(kb, ko) {
			if kept == nil {
				kept = map[int]bool{}
			}
			kept[nb.ID] = true
		}
	}
	return removed, kept
}

// relink sets side s's view (vs, matched to base by ms) to show base's links to the kept
// nodes at every place where s only dropped the links to the nodes it removed, and returns
// the views the document's replacements and enum relocations are to be read through.
func (mg *merger) relink(vb, vs *view, ms matching, removed, kept map[int]bool) (reps, relocs *view) {
	reps, relocs = vs, vs
	if len(kept) == 0 {
		return reps, relocs
	}
	gone := map[int]bool{}
	for id := range removed {
		if !kept[id] {
			gone[id] = true
		}
	}
	// A replacement names a child by its index, so a parent's children and the replacements
	// are given back together or not at all: either alone would leave the replacements of
	// that parent pointing one child off (the side's delete moved them down).
	unlinkReps := func(x []graph.Replacement, set map[int]bool) []graph.Replacement {
		return unlinkReplacements(x, set, removedChildren(vb, set))
	}
	repsKey := func(x []graph.Replacement) []byte { return replacements(&view{d: &graph.Document{Replacements: x}}) }
	bReps, sReps := vb.replacementList(), vs.replacementList()
	rs, repsBack := relinkPlace(bReps, sReps, removed, gone, unlinkReps, repsKey)
	// Whether the side did nothing to the replacements but its delete's cascade (then they
	// follow the children back, or need nothing given back).
	repsCascade := bytes.Equal(repsKey(unlinkReps(bReps, removed)), repsKey(sReps))
	replaced := map[int]bool{} // parents with a replacement of a child in base
	for _, r := range bReps {
		if r.Type != "removeAttachment" {
			replaced[r.Node] = true
		}
	}
	restored := map[int]graph.Node{} // the side's node index -> the node with links given back
	for i := range mg.base.Nodes {
		j := ms.ab[i]
		if j < 0 {
			continue
		}
		b := vb.translate(&mg.base.Nodes[i])
		if !linksTo(&b, kept) {
			continue
		}
		sn := &vs.d.Nodes[j]
		s := vs.translate(sn)
		var r [4]bool
		s.Children, r[0] = relinkPlace(b.Children, s.Children, removed, gone, unlinkList(func(c graph.Child) int { return c.Node }), listJSON(graph.AppendChild))
		s.Jumps, r[1] = relinkPlace(b.Jumps, s.Jumps, removed, gone, unlinkList(func(j graph.Jump) int { return j.Node }), listJSON(graph.AppendJump))
		s.Queries, r[2] = relinkPlace(b.Queries, s.Queries, removed, gone, unlinkList(func(q int) int { return q }), listKey)
		s.Inputs, r[3] = relinkNamed(b.Inputs, s.Inputs, removed, gone, func(x *graph.Input) string { return x.Name }, unlinkInput,
			func(x graph.Input) []byte { return graph.AppendInput(nil, &x) })
		if replaced[b.ID] && !r[0] && linksToChild(&b, kept) {
			repsBack, repsCascade = false, false
		}
		if slices.Contains(r[:], true) {
			restored[j] = s
		}
	}
	if !repsCascade {
		// The replacements stay the side's, and so do the children of the parents they name.
		for j, n := range restored {
			if replaced[n.ID] {
				n.Children = vs.translate(&vs.d.Nodes[j]).Children
				restored[j] = n
			}
		}
	}
	if len(restored) > 0 {
		vs.restored = make(map[int]graph.Node, len(restored))
		for j, n := range restored {
			vs.restored[vs.d.Nodes[j].ID] = n
		}
	}
	// The document's lists are compared in the merged numbering: a view of a document
	// holding them so translated reads them as they are.
	if repsBack {
		reps = &view{d: &graph.Document{Replacements: rs}}
	}
	ls, r := relinkPlace(vb.relocationList(), vs.relocationList(), removed, gone, unlinkRelocations,
		func(x []graph.EnumRelocation) []byte {
			return relocations(&view{d: &graph.Document{EnumRelocations: x}})
		})
	if r {
		relocs = &view{d: &graph.Document{EnumRelocations: ls}}
	}
	return reps, relocs
}

// relinkPlace returns base's value b without the links to the nodes that go when side s's
// value is b without the links to every node s removed, and true; otherwise s itself and
// false (also when the kept nodes had no link there).
func relinkPlace[T any](b, s T, removed, gone map[int]bool, unlink func(T, map[int]bool) T, key func(T) []byte) (T, bool) {
	all := key(unlink(b, removed))
	if !bytes.Equal(all, key(s)) {
		return s, false
	}
	r := unlink(b, gone)
	if bytes.Equal(key(r), all) {
		return s, false
	}
	return r, true
}

// relinkNamed does relinkPlace for each item of a named list (inputs, properties) that both
// base and the side have: each is a place of its own in the merge.
func relinkNamed[T any](b, s []T, removed, gone map[int]bool, name func(*T) string, unlink func(T, map[int]bool) T, key func(T) []byte) ([]T, bool) {
	var out []T
	for k := range s {
		for l := range b {
			if name(&b[l]) != name(&s[k]) {
				continue
			}
			if r, ok := relinkPlace(b[l], s[k], removed, gone, unlink, key); ok {
				if out == nil {
					out = slices.Clone(s)
				}
				out[k] = r
			}
			break
		}
	}
	if out == nil {
		return s, false
	}
	return out, true
}

// linksToChild says whether a child of n leads to a node of set.
func linksToChild(n *graph.Node, set map[int]bool) bool {
	return slices.ContainsFunc(n.Children, func(c graph.Child) bool { return set[c.Node] })
}

// linksTo says whether n links to a node of set.
func linksTo(n *graph.Node, set map[int]bool) bool {
	found := false
	eachLink(n, func(_ linkKind, _ string, id int) { found = found || set[id] })
	return found
}

// The unlink functions drop the links to the nodes of set as the editor's delete does.

// unlinkList drops the items of a list (children, jumps, queries) that lead to a node of set;
// a list left empty goes, as the editor prunes it.
func unlinkList[T any](node func(T) int) func([]T, map[int]bool) []T {
	return func(list []T, set map[int]bool) []T {
		out := slices.DeleteFunc(slices.Clone(list), func(x T) bool { return set[node(x)] })
		if len(out) == 0 {
			return nil
		}
		return out
	}
}

func linked(s *graph.Source, set map[int]bool) bool { return s != nil && s.Node != nil && set[*s.Node] }

// unlinkInput: a single source falls back to the input's value; a multi-input loses the
// sources (an empty list stays one).
func unlinkInput(in graph.Input, set map[int]bool) graph.Input {
	if linked(in.Source, set) {
		in.Source, in.UsesDefault = nil, nil
	}
	if in.Sources != nil {
		in.Sources = slices.DeleteFunc(slices.Clone(in.Sources), func(s graph.Source) bool { return linked(&s, set) })
	}
	return in
}

// removedChildren lists the places (node id, child index) of base's children that lead to a
// node of set.
func removedChildren(vb *view, set map[int]bool) map[[2]int]bool {
	out := map[[2]int]bool{}
	for i := range vb.d.Nodes {
		n := &vb.d.Nodes[i]
		for k, c := range n.Children {
			if set[vb.nodeID(c.Node)] {
				out[[2]int{vb.nodeID(n.ID), k}] = true
			}
		}
	}
	return out
}

// unlinkReplacements drops the replacements naming a node of set and, as removing a child
// does, those of the removed children, moving the later children's indices down.
func unlinkReplacements(rs []graph.Replacement, set map[int]bool, children map[[2]int]bool) []graph.Replacement {
	if rs == nil {
		return nil
	}
	out := make([]graph.Replacement, 0, len(rs))
	for _, r := range rs {
		if set[r.Node] || r.New != nil && set[*r.New] {
			continue
		}
		if r.Type != "removeAttachment" {
			if children[[2]int{r.Node, r.Index}] {
				continue
			}
			shift := 0
			for k := range r.Index {
				if children[[2]int{r.Node, k}] {
					shift++
				}
			}
			r.Index -= shift
		}
		out = append(out, r)
	}
	return out
}

func unlinkRelocations(rs []graph.EnumRelocation, set map[int]bool) []graph.EnumRelocation {
	return slices.DeleteFunc(slices.Clone(rs), func(r graph.EnumRelocation) bool {
		return r.Target != nil && r.Target.Node != nil && set[*r.Target.Node]
	})
}

// listJSON makes a key of a list from its items' JSON.
func listJSON[T any](item func([]byte, *T) []byte) func([]T) []byte {
	return func(list []T) []byte {
		var b []byte
		for k := range list {
			b = item(b, &list[k])
		}
		return b
	}
}
