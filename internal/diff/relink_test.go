package diff

import (
	"bytes"
	"maps"
	"slices"
	"testing"

	"ainbeditor/internal/change"
	"ainbeditor/internal/graph"
)

// deleteNode removes node x from d as the editor's delete (static/edits.js deleteNodes) does:
// every link to it goes with it (a single source falls back to the value).
func deleteNode(d *graph.Document, x int) {
	to := func(s *graph.Source) bool { return s != nil && s.Node != nil && *s.Node == x }
	for i := range d.Nodes {
		n := &d.Nodes[i]
		for k := range n.Inputs {
			in := &n.Inputs[k]
			if to(in.Source) {
				in.Source, in.UsesDefault = nil, nil
			}
			if in.Sources != nil {
				in.Sources = slices.DeleteFunc(in.Sources, func(s graph.Source) bool { return to(&s) })
			}
		}
		for k := len(n.Children) - 1; k >= 0; k-- {
			if n.Children[k].Node != x {
				continue
			}
			n.Children = slices.Delete(n.Children, k, k+1)
			d.Replacements = slices.DeleteFunc(d.Replacements, func(r graph.Replacement) bool {
				return r.Node == n.ID && r.Type != "removeAttachment" && r.Index == k
			})
			for j := range d.Replacements {
				if r := &d.Replacements[j]; r.Node == n.ID && r.Type != "removeAttachment" && r.Index > k {
					r.Index--
				}
			}
		}
		n.Children = nilIfEmpty(n.Children)
		n.Jumps = nilIfEmpty(slices.DeleteFunc(n.Jumps, func(j graph.Jump) bool { return j.Node == x }))
		n.Queries = nilIfEmpty(slices.DeleteFunc(n.Queries, func(q int) bool { return q == x }))
	}
	d.Replacements = slices.DeleteFunc(d.Replacements, func(r graph.Replacement) bool { return r.Node == x || r.New != nil && *r.New == x })
	d.EnumRelocations = slices.DeleteFunc(d.EnumRelocations, func(r graph.EnumRelocation) bool {
		return r.Target != nil && r.Target.Node != nil && *r.Target.Node == x
	})
	d.Nodes = slices.DeleteFunc(d.Nodes, func(n graph.Node) bool { return n.ID == x })
}

func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// linkCase is a corpus file with a node p linking to node x by one kind of link, x a node the
// editor may delete (no command's root) whose delete is exactly deleteNode's.
type linkCase struct {
	name string
	data []byte
	p, x int
}

// findLink returns the first corpus case (files in name order) where has(d, p, x) holds.
func findLink(t *testing.T, has func(d *graph.Document, p *graph.Node, x int) bool) linkCase {
	t.Helper()
	files := corpusDocs(t)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		d := parse(t, name, files[name])
		if _, err := d.Build(); err != nil {
			continue
		}
		roots := map[int]bool{}
		for _, c := range d.Commands {
			roots[c.Root], roots[c.Secondary] = true, true
		}
		for i := range d.Nodes {
			p := &d.Nodes[i]
			var found *linkCase
			eachLink(p, func(_ linkKind, _ string, id int) {
				if found != nil || id == p.ID || id < 0 || roots[id] || !has(d, p, id) {
					return
				}
				// A selector whose default child is the last one rewrites a condition
				// when its last child goes: more than the delete of the link.
				if _, ok := map[graph.NodeType]bool{"S32Selector": true, "F32Selector": true, "StringSelector": true}[p.Type]; ok {
					return
				}
				found = &linkCase{name, files[name], p.ID, id}
			})
			if found != nil {
				return *found
			}
		}
	}
	t.Fatal("no corpus file has such a link")
	return linkCase{}
}

// madeLink returns the first corpus file (in name order) to which add could add a link from
// node p to node x, x no command's root, that still builds: for links no corpus file has.
func madeLink(t *testing.T, add func(d *graph.Document, p *graph.Node, x *graph.Node) bool) linkCase {
	t.Helper()
	files := corpusDocs(t)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		d := parse(t, name, files[name])
		roots := map[int]bool{}
		for _, c := range d.Commands {
			roots[c.Root], roots[c.Secondary] = true, true
		}
	pairs:
		for i := range d.Nodes {
			for j := range d.Nodes {
				if i == j || roots[d.Nodes[j].ID] || !add(d, &d.Nodes[i], &d.Nodes[j]) {
					continue
				}
				// One try a file: a file that does not take the link takes no other.
				if b, err := d.Build(); err == nil {
					return linkCase{name, b, d.Nodes[i].ID, d.Nodes[j].ID}
				}
				break pairs
			}
		}
	}
	t.Fatal("no corpus file takes such a link")
	return linkCase{}
}

// sides returns base, the side that deletes x (as the editor does, saved and read back, so
// its ids are its own) and the side that renames x.
func (c linkCase) sides(t *testing.T) (base, removed, changed *graph.Document) {
	t.Helper()
	base = parse(t, c.name, c.data)
	removed = parse(t, c.name, c.data)
	deleteNode(removed, c.x)
	removed = parse(t, c.name, build(t, "the side that removed", removed))
	changed = parse(t, c.name, c.data)
	node(changed, c.x).Name += "Changed"
	return base, removed, changed
}

// merged merges and fails on an error, returning the document and the conflicts' paths.
func merged(t *testing.T, what string, base, ours, theirs *graph.Document, prefer change.Prefer) (*graph.Document, []string) {
	t.Helper()
	out, cs, err := Merge(base, ours, theirs, prefer)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var paths []string
	for _, c := range cs {
		paths = append(paths, c.Path.String())
	}
	return out, paths
}

// Base has p linking to x; one side deletes x with the editor's cascade, the other renames
// x. Kept (prefer the side that changed it), x is where it was: every node that linked to it
// is base's again and the merge is the changing side exactly. Removed, the merge is the
// removing side exactly. Both mirrors: ours removes, and theirs removes.
func TestMergeKeptNodeLinks(t *testing.T) {
	source := func(s *graph.Source, x int) bool { return s != nil && s.Node != nil && *s.Node == x }
	kinds := map[string]func(d *graph.Document, p *graph.Node, x int) bool{
		"child": func(_ *graph.Document, p *graph.Node, x int) bool {
			return slices.ContainsFunc(p.Children, func(c graph.Child) bool { return c.Node == x })
		},
		"jump": func(_ *graph.Document, p *graph.Node, x int) bool {
			return slices.ContainsFunc(p.Jumps, func(j graph.Jump) bool { return j.Node == x })
		},
		"query": func(_ *graph.Document, p *graph.Node, x int) bool { return slices.Contains(p.Queries, x) },
		"input source": func(_ *graph.Document, p *graph.Node, x int) bool {
			return slices.ContainsFunc(p.Inputs, func(in graph.Input) bool { return source(in.Source, x) })
		},
		"multi-input source": func(_ *graph.Document, p *graph.Node, x int) bool {
			return slices.ContainsFunc(p.Inputs, func(in graph.Input) bool {
				return slices.ContainsFunc(in.Sources, func(s graph.Source) bool { return source(&s, x) })
			})
		},
		"replacement": func(d *graph.Document, _ *graph.Node, x int) bool {
			return slices.ContainsFunc(d.Replacements, func(r graph.Replacement) bool { return r.Node == x || r.New != nil && *r.New == x })
		},
		"enum relocation": func(d *graph.Document, _ *graph.Node, x int) bool {
			return slices.ContainsFunc(d.EnumRelocations, func(r graph.EnumRelocation) bool {
				return r.Target != nil && r.Target.Node != nil && *r.Target.Node == x
			})
		},
	}
	// No corpus file has one: it is added to one. (A property takes no node's output in a file.)
	made := map[string]func(d *graph.Document, p, x *graph.Node) bool{
		"enum relocation": func(d *graph.Document, _, x *graph.Node) bool {
			if len(x.Properties) == 0 || x.Properties[0].Type != "int" {
				return false
			}
			id, k := x.ID, 0
			d.EnumRelocations = append(d.EnumRelocations, graph.EnumRelocation{ClassName: "Test", ValueName: "Value", Target: &graph.ValueTarget{Node: &id, Property: &k}})
			return true
		},
	}
	for _, kind := range slices.Sorted(maps.Keys(kinds)) {
		t.Run(kind, func(t *testing.T) {
			var c linkCase
			if add := made[kind]; add != nil {
				c = madeLink(t, add)
			} else {
				c = findLink(t, kinds[kind])
			}
			t.Logf("%s: node %d links to node %d", c.name, c.p, c.x)
			for _, oursRemoves := range []bool{true, false} {
				base, rm, ch := c.sides(t)
				ours, theirs, keep, drop := rm, ch, change.Theirs, change.Ours
				if !oursRemoves {
					ours, theirs, keep, drop = ch, rm, change.Ours, change.Theirs
				}
				out, cs := merged(t, "keep", base, ours, theirs, keep)
				if want := []string{NodeStep(node(base, c.x))}; !slices.Equal(cs, want) {
					t.Errorf("ours removes %v: conflicts %q, want %q", oursRemoves, cs, want)
				}
				if d := Diff(ch, out); len(d) > 0 {
					t.Errorf("ours removes %v: keeping the node, the merge differs from the side that changed it:\n%s", oursRemoves, text(d))
				}
				if got, want := unplaced(node(out, c.p)), unplaced(node(base, c.p)); !bytes.Equal(got, want) {
					t.Errorf("ours removes %v: merged node %d\n%s\nwant base's\n%s", oursRemoves, c.p, got, want)
				}
				if !slices.EqualFunc(out.Replacements, base.Replacements, replacementEqual) || len(out.EnumRelocations) != len(base.EnumRelocations) {
					t.Errorf("ours removes %v: replacements %v, enum relocations %d; want base's %v, %d", oursRemoves,
						out.Replacements, len(out.EnumRelocations), base.Replacements, len(base.EnumRelocations))
				}
				out, _ = merged(t, "remove", base, ours, theirs, drop)
				if d := Diff(rm, out); len(d) > 0 || len(out.Nodes) != len(base.Nodes)-1 {
					t.Errorf("ours removes %v: removing the node, %d nodes and the merge differs from the side that removed it:\n%s", oursRemoves, len(out.Nodes), text(d))
				}
			}
		})
	}
}

// unplaced is n's JSON without where it is drawn (a file read back is laid out anew).
func unplaced(n *graph.Node) []byte {
	c := *n
	c.X, c.Y, c.Pinned = 0, 0, false
	return graph.AppendNode(nil, &c)
}

func replacementEqual(a, b graph.Replacement) bool {
	return a.Type == b.Type && a.Node == b.Node && a.Index == b.Index && (a.New == nil) == (b.New == nil) && (a.New == nil || *a.New == *b.New)
}

// A side that removed x and also changed p's children otherwise keeps its children: the link
// does not come back (where among its edits it would go cannot be told), x is kept unlinked
// there and the merge builds. Without that other edit the same merge gives the link back.
func TestMergeKeptNodeParentEdited(t *testing.T) {
	c := findLink(t, func(_ *graph.Document, p *graph.Node, x int) bool {
		return len(p.Children) > 1 && slices.ContainsFunc(p.Children, func(c graph.Child) bool { return c.Node == x })
	})
	for _, edited := range []bool{true, false} {
		base, _, theirs := c.sides(t)
		ours := parse(t, c.name, c.data)
		deleteNode(ours, c.x)
		if edited {
			node(ours, c.p).Children[0].Name += "Renamed"
		}
		want := node(ours, c.p)
		if !edited {
			want = node(base, c.p)
		}
		out, _ := merged(t, "prefer theirs", base, ours, theirs, change.Theirs)
		if got, want := unplaced(node(out, c.p)), unplaced(want); !bytes.Equal(got, want) {
			t.Errorf("children edited %v: merged node %d\n%s\nwant\n%s", edited, c.p, got, want)
		}
		if n := node(out, c.x); n.Name != node(theirs, c.x).Name {
			t.Errorf("children edited %v: kept node named %q, want theirs' %q", edited, n.Name, node(theirs, c.x).Name)
		}
		build(t, "merged", out)
	}
}

// A replacement names a child by its index, so a parent's children and the replacements come
// back together or not at all. Base has p's child 1 (x) and a replacement of p's last child.
// The side that deletes x also edits either p's children or the replacements otherwise, so
// that place stays its own: the other place must stay its own too, or the replacement would
// name the child next to the one it named. Either way it names the same child as in base.
func TestMergeKeptNodeReplacementsAgree(t *testing.T) {
	selector := map[graph.NodeType]bool{"S32Selector": true, "F32Selector": true, "StringSelector": true}
	c := madeLink(t, func(d *graph.Document, p, x *graph.Node) bool {
		if len(p.Children) < 3 || p.Children[1].Node != x.ID || selector[p.Type] || len(d.Replacements) > 0 ||
			slices.ContainsFunc(p.Children, func(c graph.Child) bool { return c.Node == p.ID }) {
			return false
		}
		d.Replacements = []graph.Replacement{{Type: "removeChild", Node: p.ID, Index: len(p.Children) - 1}}
		return true
	})
	t.Logf("%s: node %d, child 1 is node %d", c.name, c.p, c.x)
	for _, edit := range []string{"children", "replacements"} {
		base, _, theirs := c.sides(t)
		bp := node(base, c.p)
		last, first := bp.Children[len(bp.Children)-1].Node, bp.Children[0].Node
		ours := parse(t, c.name, c.data)
		deleteNode(ours, c.x)
		switch edit {
		case "children":
			node(ours, c.p).Children[0].Name += "Renamed"
		case "replacements":
			ours.Replacements = append(ours.Replacements, graph.Replacement{Type: "removeChild", Node: c.p, Index: 0})
		}
		ours = parse(t, c.name, build(t, "ours", ours))
		out, _ := merged(t, "prefer theirs", base, ours, theirs, change.Theirs)
		p := node(out, c.p)
		names := func(r graph.Replacement, child int) bool {
			return r.Node == c.p && r.Type == "removeChild" && r.Index < len(p.Children) && p.Children[r.Index].Node == child
		}
		if !slices.ContainsFunc(out.Replacements, func(r graph.Replacement) bool { return names(r, last) }) {
			t.Errorf("%s edited too: no replacement names node %d (p's last child in base): replacements %v, p's children %v", edit, last, out.Replacements, p.Children)
		}
		if edit == "replacements" && !slices.ContainsFunc(out.Replacements, func(r graph.Replacement) bool { return names(r, first) }) {
			t.Errorf("%s edited too: ours' new replacement no longer names node %d: replacements %v, p's children %v", edit, first, out.Replacements, p.Children)
		}
		if n := node(out, c.x); n.Name != node(theirs, c.x).Name {
			t.Errorf("%s edited too: kept node named %q, want theirs' %q", edit, n.Name, node(theirs, c.x).Name)
		}
		build(t, "merged", out)
	}
}
