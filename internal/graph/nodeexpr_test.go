package graph

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/testcorpus"
)

// A source may read a node's output through an expression: the game stores the node and
// output words and, in the flag word, the expression (0xC2000000|index); the output is the
// expression's In and the value its result. The document says {"node", "output",
// "expression"} and derives the word, so no layout fact is needed and renumbering the
// expressions renumbers the source like any other.

// nodeExprDoc is synthetic/expressions_v407.ainb with two sources through an expression:
// node 3's float input X reads node 1's float output F (output 2) through function 1 (FLOAT
// to FLOAT), and the first source of node 2's bool multi-input IM reads node 1's bool
// output B (output 1) through function 6 (BOOL to BOOL).
func nodeExprDoc(t *testing.T) *Document {
	t.Helper()
	d, _ := parseFile(t, "synthetic/expressions_v407.ainb")
	x := &d.Nodes[3].Inputs[inputIndex(t, d.Nodes[3].Inputs, "X")]
	if x.Source == nil || x.Source.Node == nil || *x.Source.Node != 1 || x.Source.Output != 2 || x.Source.Expression != nil {
		t.Fatalf("node 3's X reads %+v, not node 1's output 2 alone: the test lost its point", x.Source)
	}
	one, f1, f6 := 1, 1, 6
	x.Source.Expression = &f1
	im := &d.Nodes[2].Inputs[inputIndex(t, d.Nodes[2].Inputs, "IM")]
	if len(im.Sources) == 0 {
		t.Fatal("node 2's IM has no sources")
	}
	im.Sources[0] = Source{Node: &one, Output: 1, Expression: &f6}
	if d.Nodes[1].Outputs[1].Type != "bool" || d.Nodes[1].Outputs[2].Type != "float" || d.Expressions.Functions[1].Text[:26] != ".input FLOAT\n.output FLOAT" || d.Expressions.Functions[6].Text[:24] != ".input BOOL\n.output BOOL" {
		t.Fatal("the test file's outputs or functions are not what the test expects")
	}
	return d
}

// nodeExprSeed is nodeExprDoc for the fuzz targets' seeds: the same two sources.
func nodeExprSeed(tb testing.TB) *Document {
	tb.Helper()
	d, err := Parse("seed", readCorpus(tb, "synthetic/expressions_v407.ainb"))
	if err != nil {
		tb.Fatal(err)
	}
	x, im := &d.Nodes[3].Inputs[0], &d.Nodes[2].Inputs[1]
	if x.Name != "X" || x.Source == nil || im.Name != "IM" || len(im.Sources) == 0 {
		tb.Fatal("synthetic/expressions_v407.ainb changed: node 3's input 0 is no longer X with a source, or node 2's input 1 IM with sources")
	}
	one, six := 1, 6
	x.Source.Expression = &one
	im.Sources[0] = Source{Node: &one, Output: 1, Expression: &six}
	return d
}

// nodeFacts returns the word facts of node id whose kind is one of kinds.
func nodeFacts(t *testing.T, d *Document, id int, kinds ...uint8) []fact {
	t.Helper()
	facts, err := decodeLayout(d.Layout)
	if err != nil {
		t.Fatal(err)
	}
	var out []fact
	if o := ownerMap(facts.nodes)[id]; o != nil {
		for _, f := range o.words {
			for _, k := range kinds {
				if f.kind == k {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// sourceString is a source as the document's JSON writes it.
func sourceString(s *Source) string {
	if s == nil {
		return "null"
	}
	return string(appendSource(nil, s))
}

func TestNodeExpressionSource(t *testing.T) {
	d := nodeExprDoc(t)
	out, err := viaJSON(t, d).Build()
	if err != nil {
		t.Fatal(err)
	}
	f, err := ainb.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	// The words the game would store: node 1, its first float (bool) output, the expression.
	if got, want := f.Elements[3].Inputs.Of(ainb.ParamFloat)[0].Source, (ainb.Source{Node: 1, Output: 0, Flags: 0xC2000001}); got != want {
		t.Errorf("node 3's X is stored as %+v, want %+v", got, want)
	}
	if got, want := f.Elements[2].Inputs.Of(ainb.ParamBool)[1].Sources[0], (ainb.Source{Node: 1, Output: 0, Flags: 0xC2000006}); got != want {
		t.Errorf("node 2's IM source 0 is stored as %+v, want %+v", got, want)
	}
	// Parsed back: the same sources, no fact about their words, the same bytes again.
	again, err := Parse("again", out)
	if err != nil {
		t.Fatal(err)
	}
	if got := sourceString(again.Nodes[3].Inputs[inputIndex(t, again.Nodes[3].Inputs, "X")].Source); got != `{"node":1,"output":2,"expression":1}` {
		t.Errorf("X parses as %s", got)
	}
	if got := sourceString(&again.Nodes[2].Inputs[inputIndex(t, again.Nodes[2].Inputs, "IM")].Sources[0]); got != `{"node":1,"output":1,"expression":6}` {
		t.Errorf("IM source 0 parses as %s", got)
	}
	for _, id := range []int{2, 3} {
		if fs := nodeFacts(t, again, id, fkInFlags, fkSrcFlags, fkInRaw, fkSrcRaw); len(fs) != 0 {
			t.Errorf("node %d has source facts %+v", id, fs)
		}
	}
	if out2, err := viaJSON(t, again).Build(); err != nil || !bytes.Equal(out2, out) {
		t.Fatalf("the parsed file builds other bytes (%v)", err)
	}

	// Editing: another expression, and then none (a plain link).
	x := &again.Nodes[3].Inputs[inputIndex(t, again.Nodes[3].Inputs, "X")]
	five := 5
	x.Source.Expression = &five
	g, _ := rebuild(t, again)
	if got := g.Elements[3].Inputs.Of(ainb.ParamFloat)[0].Source; got != (ainb.Source{Node: 1, Output: 0, Flags: 0xC2000005}) {
		t.Errorf("through expression 5, X is stored as %+v", got)
	}
	x.Source.Expression = nil
	g, _ = rebuild(t, again)
	if got := g.Elements[3].Inputs.Of(ainb.ParamFloat)[0].Source; got != (ainb.Source{Node: 1, Output: 0}) {
		t.Errorf("without its expression, X is stored as %+v", got)
	}
}

// A document written before a source could name a node and an expression both has such a
// source as the plain node output, with a fact holding the expression bits (XOR the derived
// word 0) checked against a node source. It builds the very bytes it was parsed from; once
// its input is given an expression (the source's kind changes), the stale fact is dropped
// and the word is the derived one.
func TestNodeExpressionOldLayout(t *testing.T) {
	want, err := viaJSON(t, nodeExprDoc(t)).Build()
	if err != nil {
		t.Fatal(err)
	}
	d, err := Parse("old", want)
	if err != nil {
		t.Fatal(err)
	}
	// Make it what the parser wrote before: node sources alone, the flag words as facts.
	facts, err := decodeLayout(d.Layout)
	if err != nil {
		t.Fatal(err)
	}
	owners := ownerMap(facts.nodes)
	var h hasher
	kx := inputIndex(t, d.Nodes[3].Inputs, "X")
	x := d.Nodes[3].Inputs[kx].Source
	x.Expression = nil
	o3 := owners[3]
	if o3 == nil {
		o3 = &ownerFacts{key: 3}
		facts.nodes = append(facts.nodes, o3)
	}
	o3.add(fkInFlags, kx, 0, 0xC2000001, valueChk(&h, fkInFlags, "float", false, x))
	kim := inputIndex(t, d.Nodes[2].Inputs, "IM")
	s := &d.Nodes[2].Inputs[kim].Sources[0]
	s.Expression = nil
	o2 := owners[2]
	if o2 == nil {
		o2 = &ownerFacts{key: 2}
		facts.nodes = append(facts.nodes, o2)
	}
	o2.add(fkSrcFlags, kim, 0, 0xC2000006, valueChk(&h, fkSrcFlags, "bool", true, s))
	d.Layout = encodeLayout(facts)

	if out, err := viaJSON(t, d).Build(); err != nil || !bytes.Equal(out, want) {
		t.Fatalf("the old document builds other bytes (%v; first difference at %#x)", err, diffAt(out, want))
	}
	three := 3
	x.Expression = &three
	f, _ := rebuild(t, d)
	if got := f.Elements[3].Inputs.Of(ainb.ParamFloat)[0].Source; got != (ainb.Source{Node: 1, Output: 0, Flags: 0xC2000003}) {
		t.Errorf("the old document's X through expression 3 is stored as %+v", got)
	}

	// A fact about bits the document has no name for (here bit 16) on a plain node source
	// applies while the source stays a plain node output, and is dropped with the change of
	// kind an expression makes, though the word would still name that expression.
	kv := inputIndex(t, d.Nodes[3].Inputs, "V")
	v := d.Nodes[3].Inputs[kv].Source
	if v == nil || v.Node == nil || v.Expression != nil {
		t.Fatalf("V reads %s, not a plain node output", sourceString(v))
	}
	o3.add(fkInFlags, kv, 0, 0x00010000, valueChk(&h, fkInFlags, "vec3f", false, v))
	d.Layout = encodeLayout(facts)
	f, _ = rebuild(t, d)
	if got := f.Elements[3].Inputs.Of(ainb.ParamVec3f)[0].Source.Flags; got != 0x00010000 {
		t.Errorf("V's flag word with the fact is %#x, want 0x10000", got)
	}
	v.Expression = &three
	f, _ = rebuild(t, d)
	if got := f.Elements[3].Inputs.Of(ainb.ParamVec3f)[0].Source.Flags; got != 0xC2000003 {
		t.Errorf("V's flag word through expression 3 is %#x, want 0xc2000003", got)
	}
	if got := f.Elements[2].Inputs.Of(ainb.ParamBool)[1].Sources[0]; got != (ainb.Source{Node: 1, Output: 0, Flags: 0xC2000006}) {
		t.Errorf("the old document's unedited IM source 0 is stored as %+v", got)
	}
}

// Invalid combinations are problems with their paths.
func TestNodeExpressionProblems(t *testing.T) {
	one, seven, minus := 1, 7, -1
	for _, c := range []struct {
		name string
		edit func(d *Document)
		want []string
	}{
		{"expression past the last function", func(d *Document) {
			d.Nodes[3].Inputs[inputIndex(t, d.Nodes[3].Inputs, "X")].Source.Expression = &seven
		}, []string{"nodes[3].inputs[0].source.expression: no expression function 7 (7 functions)"}},
		{"negative expression in a multi-input source", func(d *Document) {
			d.Nodes[2].Inputs[inputIndex(t, d.Nodes[2].Inputs, "IM")].Sources[0].Expression = &minus
		}, []string{"nodes[2].inputs[1].sources[0].expression: line 1:"}},
		{"no expression binary", func(d *Document) { d.Expressions = nil }, nil}, // every source reading one: checked below
		{"node, blackboard and expression", func(d *Document) {
			bb := addParam(d, BlackboardParam{Name: "F", Type: "float", Inherit: "root"})
			d.Nodes[3].Inputs[inputIndex(t, d.Nodes[3].Inputs, "X")].Source.Blackboard = &bb
		}, []string{"nodes[3].inputs[0].source: a source is one of node (optionally through an expression), blackboard and expression"}},
		{"a property through an expression from a node", func(d *Document) {
			d.Nodes[1].Properties = append(d.Nodes[1].Properties, Property{Name: "P", Type: "float", Source: &Source{Node: &one, Output: 2, Expression: &one}})
		}, []string{"nodes[1].properties[", "].source.node: properties take no node output"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := nodeExprDoc(t)
			c.edit(d)
			got := problems(t, d)
			joined := strings.Join(got, "\n")
			if c.want == nil {
				// Each source reading an expression is one problem: the two through an
				// expression among them.
				for _, w := range []string{"nodes[3].inputs[0].source.expression: no expression function 1 (0 functions)",
					"nodes[2].inputs[1].sources[0].expression: no expression function 6 (0 functions)"} {
					if !strings.Contains(joined, w) {
						t.Errorf("problems:\n%s\nwant %q", joined, w)
					}
				}
				return
			}
			if len(got) != 1 {
				t.Errorf("problems:\n%s\nwant 1", joined)
			}
			for _, w := range c.want {
				if !strings.Contains(joined, w) {
					t.Errorf("problems:\n%s\nwant one with %q", joined, w)
				}
			}
		})
	}
}

// The game's own files: each source from a node whose flag word names an expression (230
// in 86 files) is in the document as node and expression, with no layout fact about its
// words.
func TestGameFilesNodeExpression(t *testing.T) {
	sources, files := 0, 0
	for _, path := range testcorpus.GameFiles(t, "ainb") {
		name := filepath.Base(path)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ainb.Read(b)
		if err != nil {
			continue // the two files ainb refuses, as TestGameFilesDocumentRoundTrip skips them
		}
		d, err := Parse(name, b)
		if err != nil {
			t.Errorf("%s: parse: %v", name, err)
			continue
		}
		facts, err := decodeLayout(d.Layout)
		if err != nil {
			t.Fatal(err)
		}
		owners := ownerMap(facts.nodes)
		inFile := 0
		for i := range f.Elements {
			e, n := &f.Elements[i], &d.Nodes[i]
			hasFact := func(kind uint8, a, b int) bool {
				if o := owners[n.ID]; o != nil {
					for _, fc := range o.words {
						if fc.kind == kind && fc.a == a && fc.b == b {
							return true
						}
					}
				}
				return false
			}
			k := 0
			for ty := range ainb.NumParamTypes {
				for _, in := range e.Inputs.Of(ty) {
					check := func(s ainb.Source, ds *Source, kind uint8, m int, where string) {
						if s.Node < 0 || !s.Flags.IsExpression() {
							return
						}
						inFile++
						if ds == nil || ds.Node == nil || *ds.Node != int(s.Node) || ds.Expression == nil || *ds.Expression != s.Flags.Index() {
							t.Errorf("%s: nodes[%d].inputs[%d]%s is %s, want node %d through expression %d", name, i, k, where, sourceString(ds), s.Node, s.Flags.Index())
						}
						if hasFact(kind, k, m) {
							t.Errorf("%s: nodes[%d].inputs[%d]%s has a flag word fact", name, i, k, where)
						}
					}
					if in.IsMulti() {
						for m, s := range in.Sources {
							check(s, &n.Inputs[k].Sources[m], fkSrcFlags, m, ".sources["+itoa(m)+"]")
						}
					} else {
						check(in.Source, n.Inputs[k].Source, fkInFlags, 0, ".source")
					}
					k++
				}
			}
		}
		// And nothing else in the document reads a node through an expression.
		inDoc := 0
		for i := range d.Nodes {
			for _, in := range d.Nodes[i].Inputs {
				if s := in.Source; s != nil && s.Node != nil && s.Expression != nil {
					inDoc++
				}
				for _, s := range in.Sources {
					if s.Node != nil && s.Expression != nil {
						inDoc++
					}
				}
			}
		}
		if inDoc != inFile {
			t.Errorf("%s: %d sources read a node through an expression in the document, %d in the file", name, inDoc, inFile)
		}
		sources += inFile
		if inFile > 0 {
			files++
		}
	}
	if sources != 230 || files != 86 {
		t.Errorf("%d sources through an expression from a node in %d files, want 230 in 86", sources, files)
	}
}
