package graph

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/testcorpus"
)

func warningStrings(f *ainb.File) []string {
	var out []string
	for _, p := range f.Warnings() {
		out = append(out, p.String())
	}
	return out
}

// danglers counts a document's children to no node and sources of a missing output.
func danglers(d *Document) (children, outputs int) {
	for i := range d.Nodes {
		n := &d.Nodes[i]
		for _, c := range n.Children {
			if c.Node == NoNode {
				children++
			}
		}
		for k := range n.Inputs {
			in := &n.Inputs[k]
			if in.Source != nil && in.Source.MissingOutput != nil {
				outputs++
			}
			for _, s := range in.Sources {
				if s.MissingOutput != nil {
					outputs++
				}
			}
		}
	}
	return
}

// Every game file with references that name nothing (ainb warnings) parses to a document
// that carries each of them (a child with node null, a source with missingOutput), is valid
// against the schema, and goes through JSON to the bytes ainb writes from the model: the
// original bytes wherever ainb gives them (the other files differ from their input in fields
// unrelated to these references, which ainb's own test lists). An edit elsewhere keeps them.
func TestGameFilesDanglingDocument(t *testing.T) {
	s := compileSchema(t)
	files := 0
	for _, path := range testcorpus.GameFiles(t, "ainb") {
		name := filepath.Base(path)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ainb.Read(b)
		if err != nil {
			continue
		}
		warnings := warningStrings(f)
		if len(warnings) == 0 {
			continue
		}
		files++
		want, err := f.Bytes()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		d, err := Parse(name, b)
		if err != nil {
			t.Errorf("%s: parse: %v", name, err)
			continue
		}
		var wantChildren, wantOutputs int
		for _, w := range warnings {
			switch {
			case strings.Contains(w, ".Plugs.Child[") && strings.Contains(w, ": 32767 names no node"):
				wantChildren++
			case strings.Contains(w, ".Output Index: ") && strings.Contains(w, " names no output: "):
				wantOutputs++
			default:
				t.Errorf("%s: unexpected warning %s", name, w)
			}
		}
		if c, o := danglers(d); c != wantChildren || o != wantOutputs {
			t.Errorf("%s: document has %d children to no node and %d missing outputs, want %d and %d", name, c, o, wantChildren, wantOutputs)
		}
		js := d.Encode()
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s: schema: %v", name, err)
		}
		d2, err := Decode(js)
		if err != nil {
			t.Errorf("%s: decode: %v", name, err)
			continue
		}
		out, err := d2.Build()
		if err != nil {
			t.Errorf("%s: build: %v", name, err)
			continue
		}
		if !bytes.Equal(out, want) {
			t.Errorf("%s: the document built other bytes than ainb writes (first difference at %#x)", name, diffAt(out, want))
		}
		if !bytes.Equal(out, b) {
			t.Errorf("%s: bytes differ from the input at %#x", name, diffAt(out, b))
		}

		// An edit elsewhere: a node that reads nothing is renamed and a node is added at the
		// end. The references that named nothing still do, with the new node count.
		d2.Filename += "_edited"
		d2.Nodes = append(d2.Nodes, Node{ID: 1 << 30, Type: "Sequential", Name: ""})
		out, err = d2.Build()
		if err != nil {
			t.Errorf("%s: edited build: %v", name, err)
			continue
		}
		g, err := ainb.Read(out)
		if err != nil {
			t.Errorf("%s: edited file: %v", name, err)
			continue
		}
		n := len(f.Elements)
		var wantEdited []string
		for _, w := range warnings {
			wantEdited = append(wantEdited, strings.Replace(w, "("+itoa(n)+" nodes", "("+itoa(n+1)+" nodes", 1))
		}
		if got := warningStrings(g); !slices.Equal(got, wantEdited) {
			t.Errorf("%s: edited file has warnings\n%s\nwant\n%s", name, strings.Join(got, "\n"), strings.Join(wantEdited, "\n"))
		}
	}
	if files != 20 {
		t.Errorf("%d game files with references that name nothing, want 20", files)
	}
}

// A document from the browser may add children to no node and sources of missing outputs:
// they build to the stored numbers, read back with ainb's warnings and parse to the same
// document; what would not read back as the document says is a problem with its path.
func TestDanglingDocument(t *testing.T) {
	base, _ := parseFile(t, "random/random_s29_v407_n369.ainb")
	withChild, withInput, src := -1, -1, -1
	for i := range base.Nodes {
		n := &base.Nodes[i]
		if withChild < 0 && len(n.Children) > 0 && n.Type == "Sequential" {
			withChild = i
		}
		if withInput < 0 && len(n.Inputs) > 0 && n.Inputs[0].Type == "float" && n.Inputs[0].Sources == nil {
			withInput = i
		}
		if src < 0 && len(n.Outputs) == 0 && i != withInput {
			src = i
		}
	}
	if withChild < 0 || withInput < 0 || src < 0 {
		t.Fatal("the test file lacks a sequence, a float input or a node without outputs")
	}
	d := viaJSON(t, base)
	d.Nodes[withChild].Children = append(d.Nodes[withChild].Children, Child{Node: NoNode, Name: "None"})
	srcID, two := d.Nodes[src].ID, 2
	d.Nodes[withInput].Inputs[0].Source = &Source{Node: &srcID, MissingOutput: &two}
	d.Nodes[withInput].Inputs[0].UsesDefault = nil
	js := d.Encode()
	if !bytes.Contains(js, []byte(`{"node":null,"name":"None"}`)) || !bytes.Contains(js, []byte(`"source":{"node":`+itoa(srcID)+`,"missingOutput":2}`)) {
		t.Fatal("the JSON lacks the child to no node or the missing output")
	}
	d2, err := Decode(js)
	if err != nil {
		t.Fatal(err)
	}
	out, err := d2.Build()
	if err != nil {
		t.Fatal(err)
	}
	f, err := ainb.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	k := len(d.Nodes[withChild].Children) - 1
	want := []string{
		itoaPath("Nodes[%d].", withChild) + itoaPath("Plugs.Child[%d].Node Index: 32767 names no node (", k) + itoa(len(d.Nodes)) + " nodes, 0x7FFF: the games' empty branch)",
		itoaPath("Nodes[%d].Parameters.Inputs.Float[0].Output Index: 2 names no output: node ", withInput) + itoa(src) + " has 0 Float outputs",
	}
	if got := warningStrings(f); !slices.Equal(got, want) {
		t.Fatalf("warnings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	again, err := Parse("again", out)
	if err != nil {
		t.Fatal(err)
	}
	if c := again.Nodes[withChild].Children[k]; c.Node != NoNode || c.Name != "None" {
		t.Fatalf("child read back as %+v", c)
	}
	if s := again.Nodes[withInput].Inputs[0].Source; s == nil || s.Node == nil || *s.Node != srcID || s.Output != 0 || s.MissingOutput == nil || *s.MissingOutput != 2 {
		t.Fatalf("source read back as %+v", s)
	}

	at := itoaPath("nodes[%d].inputs[0].source", withInput)
	for _, c := range []struct {
		name string
		edit func(d *Document, s *Source)
		want string
	}{
		{"with output", func(_ *Document, s *Source) { s.Output = 1 }, at + ".missingOutput: a source has output or missingOutput, not both"},
		{"without node", func(_ *Document, s *Source) { s.Node = nil }, at + ".missingOutput: missingOutput goes with node"},
		{"too large", func(_ *Document, s *Source) { v := 40000; s.MissingOutput = &v }, at + ".missingOutput: 40000, at most 32767 fit"},
		{"now present", func(d *Document, _ *Source) {
			d.Nodes[src].Outputs = []Output{{Name: "A", Type: "float"}, {Name: "B", Type: "int"}, {Name: "C", Type: "float"}, {Name: "D", Type: "float"}}
		}, at + ".missingOutput: node " + itoa(srcID) + " has float output 2 now (of 3): connect that output instead"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := viaJSON(t, d)
			c.edit(d, d.Nodes[withInput].Inputs[0].Source)
			if got := problems(t, d); !slices.Equal(got, []string{c.want}) {
				t.Fatalf("problems\n%s\nwant\n%s", strings.Join(got, "\n"), c.want)
			}
		})
	}
}

// What ainb keeps but the document cannot say is refused by name when parsing, never turned
// into another file.
func TestDanglingNotExpressible(t *testing.T) {
	data := readCorpus(t, "random/random_s29_v407_n369.ainb")
	for _, c := range []struct {
		name string
		edit func(f *ainb.File)
		want string
	}{
		{"child to -1", func(f *ainb.File) {
			f.Elements[3].Plugs.Set(ainb.PlugChild, append(slices.Clone(f.Elements[3].Plugs.Of(ainb.PlugChild)), ainb.Plug{Node: -1}))
		}, "Nodes[3].Plugs.Child[@].Node Index: -1 names no node, and only 0x7FFF stands for none"},
		{"jump to no node", func(f *ainb.File) {
			f.Elements[3].Plugs.Set(ainb.PlugJump, append(slices.Clone(f.Elements[3].Plugs.Of(ainb.PlugJump)), ainb.Plug{Node: ainb.NoNode, Jump: &ainb.Jump{Command: "X"}}))
		}, "Nodes[3].Plugs.Transition[@].Node Index: a jump to no node (32767)"},
		{"source from no node", func(f *ainb.File) {
			f.Elements[3].Inputs.Set(ainb.ParamInt, append(slices.Clone(f.Elements[3].Inputs.Of(ainb.ParamInt)), ainb.Input{Name: "X", Source: ainb.Source{Node: 5000}}))
		}, "Nodes[3].Parameters.Inputs.Int[@].Node Index: a source from no node (5000)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := ainb.Read(data)
			if err != nil {
				t.Fatal(err)
			}
			c.edit(f)
			var at int
			switch {
			case strings.Contains(c.want, "Child"):
				at = len(f.Elements[3].Plugs.Of(ainb.PlugChild)) - 1
			case strings.Contains(c.want, "Transition"):
				at = len(f.Elements[3].Plugs.Of(ainb.PlugJump)) - 1
			default:
				at = len(f.Elements[3].Inputs.Of(ainb.ParamInt)) - 1
			}
			want := "graph: the editor cannot keep " + strings.Replace(c.want, "@", itoa(at), 1) + " (the ainb command reads and writes it as stored)"
			if _, err := FromFile("x", f, nil); err == nil || err.Error() != want {
				t.Fatalf("got %v\nwant %s", err, want)
			}
		})
	}
}
