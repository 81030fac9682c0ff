package diff

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/graph"
	"ainbeditor/internal/testcorpus"
)

// corpusDocs reads every corpus AINB file and every game AINB file the document reads.
func corpusDocs(t testing.TB) map[string][]byte {
	t.Helper()
	if corpus != nil {
		return corpus
	}
	files := testcorpus.AINB(t)
	files = append(files, testcorpus.GameFiles(t, "ainb")...)
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := graph.Parse(filepath.Base(f), b); err != nil {
			continue // the graph tests say why; a diff needs a document
		}
		out[f] = b
	}
	corpus = out
	return out
}

// corpus is corpusDocs' answer, kept for the next test: every test reads it and none changes it.
var corpus map[string][]byte

func parse(t testing.TB, name string, b []byte) *graph.Document {
	t.Helper()
	d, err := graph.Parse(filepath.Base(name), b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return d
}

func largest(t testing.TB) (string, []byte) {
	t.Helper()
	name := filepath.Join(testcorpus.Dir(t), "ainb", "real", "nodedefs_ai_v407.ainb")
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return name, b
}

// renumber gives every node a new id and shuffles the node order, rewriting every reference,
// and moves every node: what a diff must not see.
func renumber(d *graph.Document, r *rand.Rand) {
	ids := map[int]int{}
	perm := r.Perm(len(d.Nodes))
	for i := range d.Nodes {
		ids[d.Nodes[i].ID] = 100000 + perm[i]*3
	}
	to := func(id int) int {
		if n, ok := ids[id]; ok {
			return n
		}
		return id
	}
	src := func(s *graph.Source) {
		if s != nil && s.Node != nil {
			n := to(*s.Node)
			s.Node = &n
		}
	}
	for i := range d.Nodes {
		n := &d.Nodes[i]
		n.ID = to(n.ID)
		n.X, n.Y, n.Pinned = r.Float64()*1000, r.Float64()*1000, !n.Pinned
		for k := range n.Properties {
			src(n.Properties[k].Source)
		}
		for k := range n.Inputs {
			src(n.Inputs[k].Source)
			for j := range n.Inputs[k].Sources {
				src(&n.Inputs[k].Sources[j])
			}
		}
		for k := range n.Children {
			n.Children[k].Node = to(n.Children[k].Node)
		}
		for k := range n.Jumps {
			n.Jumps[k].Node = to(n.Jumps[k].Node)
		}
		for k := range n.Queries {
			n.Queries[k] = to(n.Queries[k])
		}
	}
	for k := range d.Commands {
		d.Commands[k].Root = to(d.Commands[k].Root)
		d.Commands[k].Secondary = to(d.Commands[k].Secondary)
	}
	for k := range d.Replacements {
		d.Replacements[k].Node = to(d.Replacements[k].Node)
		if p := d.Replacements[k].New; p != nil {
			n := to(*p)
			d.Replacements[k].New = &n
		}
	}
	for k := range d.EnumRelocations {
		if t := d.EnumRelocations[k].Target; t != nil && t.Node != nil {
			n := to(*t.Node)
			t.Node = &n
		}
	}
	r.Shuffle(len(d.Nodes), func(i, j int) { d.Nodes[i], d.Nodes[j] = d.Nodes[j], d.Nodes[i] })
}

func text(cs []Change) string {
	var b []byte
	for _, c := range cs {
		b = c.AppendText(b)
		b = append(b, '\n')
	}
	return strings.TrimSuffix(string(b), "\n")
}
