package diff

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/change"
	"ainbeditor/internal/graph"
)

// A document compared with itself, and with itself renumbered, shuffled and moved, has no
// changes.
func TestDiffSelfAndRenumbered(t *testing.T) {
	for name, b := range corpusDocs(t) {
		a := parse(t, name, b)
		if cs := Diff(a, parse(t, name, b)); len(cs) > 0 {
			t.Errorf("%s: diff with itself:\n%s", name, text(cs[:min(5, len(cs))]))
			continue
		}
		c := parse(t, name, b)
		renumber(c, rand.New(rand.NewPCG(1, uint64(len(b)))))
		cs, ren := DiffRenumbered(a, c)
		if len(cs) > 0 {
			t.Errorf("%s: diff with itself renumbered:\n%s", name, text(cs[:min(5, len(cs))]))
		}
		// Every node is renumbered, each to its own new id.
		if len(ren) != len(a.Nodes) {
			t.Errorf("%s: %d nodes renumbered, want %d", name, len(ren), len(a.Nodes))
			continue
		}
		ids := map[int]*graph.Node{}
		for i := range c.Nodes {
			ids[c.Nodes[i].ID] = &c.Nodes[i]
		}
		for k, p := range ren {
			na, nc := &a.Nodes[k], ids[p[1]]
			if p[0] != na.ID || nc == nil || nc.GUID != na.GUID || nc.Type != na.Type || nc.Name != na.Name {
				t.Errorf("%s: renumbered pair %d is %v: not node %d and its copy", name, k, p, na.ID)
				break
			}
		}
	}
}

// Two versions of the largest corpus file (7,130 nodes): the second renumbered, shuffled and
// moved, so every node goes through the matching and the comparison of its references.
func BenchmarkDiffLargest(b *testing.B) {
	name, data := largest(b)
	x, y := parse(b, name, data), parse(b, name, data)
	renumber(y, rand.New(rand.NewPCG(1, 2)))
	y.Nodes[100].Name += "X"
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if cs := Diff(x, y); len(cs) != 1 {
			b.Fatalf("%d changes, want 1", len(cs))
		}
	}
}

func TestChangeJSON(t *testing.T) {
	c := Change{change.Change{Op: change.Changed, Path: change.Path{"node 3 Root", "input Speed", "value"}, Old: []byte(`1`), New: []byte(`2`)}, 3, 7}
	if got, want := string(c.AppendJSON(nil)), `{"op":"changed","path":["node 3 Root","input Speed","value"],"old":1,"new":2,"nodeA":3,"nodeB":7}`; got != want {
		t.Errorf("AppendJSON = %s, want %s", got, want)
	}
	c = Change{change.Change{Op: change.Added, Path: change.Path{"blackboard X"}, New: []byte(`{}`)}, -1, -1}
	if got, want := string(c.AppendJSON(nil)), `{"op":"added","path":["blackboard X"],"new":{}}`; got != want {
		t.Errorf("AppendJSON = %s, want %s", got, want)
	}
}

// Without GUIDs nodes are matched by place and class: renumbered, shuffled and moved, a
// document still has no changes.
func TestDiffWithoutGUIDs(t *testing.T) {
	bad := 0
	for name, b := range corpusDocs(t) {
		a, c := parse(t, name, b), parse(t, name, b)
		for _, d := range []*graph.Document{a, c} {
			for i := range d.Nodes {
				d.Nodes[i].GUID = ainb.GUID{}
			}
		}
		renumber(c, rand.New(rand.NewPCG(2, uint64(len(b)))))
		if cs := Diff(a, c); len(cs) > 0 {
			bad++
			t.Errorf("%s: %d changes, first:\n%s", name, len(cs), text(cs[:min(3, len(cs))]))
		}
	}
}

// The same without GUIDs: every node is matched by place, content and class.
func BenchmarkDiffLargestWithoutGUIDs(b *testing.B) {
	name, data := largest(b)
	x, y := parse(b, name, data), parse(b, name, data)
	for _, d := range []*graph.Document{x, y} {
		for i := range d.Nodes {
			d.Nodes[i].GUID = ainb.GUID{}
		}
	}
	renumber(y, rand.New(rand.NewPCG(1, 2)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if cs := Diff(x, y); len(cs) != 0 {
			b.Fatalf("%d changes, want 0", len(cs))
		}
	}
}

// A function no node uses is compared by its index.
func TestDiffUnusedFunction(t *testing.T) {
	name, b := largestWithExpressions(t)
	a, c := parse(t, name, b), parse(t, name, b)
	k := len(c.Expressions.Functions)
	c.Expressions.Functions = append(c.Expressions.Functions, graph.Function{Text: c.Expressions.Functions[0].Text})
	want := `+ expression function ` + strconv.Itoa(k) + `: ` + string(appendString(nil, c.Expressions.Functions[0].Text))
	if got := text(Diff(a, c)); got != want {
		t.Errorf("diff: %s\nwant %s", got, want)
	}
}

// largestWithExpressions is the corpus file with the most expression functions.
func largestWithExpressions(t *testing.T) (string, []byte) {
	best, most := "", 0
	var data []byte
	for name, b := range corpusDocs(t) {
		if d := parse(t, name, b); nfn(d) > most || nfn(d) == most && name < best {
			best, most, data = name, nfn(d), b
		}
	}
	if most == 0 {
		t.Fatal("no corpus file has expressions")
	}
	return best, data
}
