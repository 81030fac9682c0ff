package graph

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/testcorpus"
)

// parseFile parses a corpus file, checking it builds its own bytes first.
func parseFile(t *testing.T, name string) (*Document, []byte) {
	t.Helper()
	data := readCorpus(t, name)
	d, err := Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return d, data
}

// viaJSON sends a document through its JSON, as the browser does.
func viaJSON(t *testing.T, d *Document) *Document {
	t.Helper()
	d2, err := Decode(d.Encode())
	if err != nil {
		t.Fatal(err)
	}
	return d2
}

// rebuild builds an edited document (through its JSON) and reads the result back.
func rebuild(t *testing.T, d *Document) (*ainb.File, *Document) {
	t.Helper()
	out, err := viaJSON(t, d).Build()
	if err != nil {
		t.Fatal(err)
	}
	f, err := ainb.Read(out)
	if err != nil {
		t.Fatalf("the built file does not read back: %v", err)
	}
	again, err := Parse("again", out)
	if err != nil {
		t.Fatal(err)
	}
	return f, again
}

// content is a document's JSON without what a build does not keep: positions, layout, and
// ids (nodes are numbered by index).
func content(d *Document) string {
	c, err := Decode(d.Encode()) // a deep copy
	if err != nil {
		panic(err)
	}
	index := nodeIndex(d)
	re := func(id *int) {
		if i := index(*id); i >= 0 {
			*id = i
		}
	}
	for i := range c.Commands {
		re(&c.Commands[i].Root)
		if c.Commands[i].Secondary >= 0 {
			re(&c.Commands[i].Secondary)
		}
	}
	for i := range c.Replacements {
		re(&c.Replacements[i].Node)
		if c.Replacements[i].New != nil {
			re(c.Replacements[i].New)
		}
	}
	for _, r := range c.EnumRelocations {
		if r.Target != nil && r.Target.Node != nil {
			re(r.Target.Node)
		}
	}
	for i := range c.Nodes {
		n := &c.Nodes[i]
		n.X, n.Y, n.Pinned = 0, 0, false
		re(&n.ID)
		for j := range n.Children {
			re(&n.Children[j].Node)
		}
		for j := range n.Jumps {
			re(&n.Jumps[j].Node)
		}
		for j := range n.Queries {
			re(&n.Queries[j])
		}
		for j := range n.Inputs {
			in := &n.Inputs[j]
			if in.Source != nil && in.Source.Node != nil {
				re(in.Source.Node)
			}
			for k := range in.Sources {
				if in.Sources[k].Node != nil {
					re(in.Sources[k].Node)
				}
			}
		}
	}
	c.Layout, c.Name = "", ""
	return string(c.Encode())
}

// addParam adds a blackboard parameter at the end of its type's group, as the file orders
// them, renumbering the references to the parameters after it; it returns its index.
func addParam(d *Document, p BlackboardParam) int {
	t, _ := blackboardType(p.Type)
	at := 0
	for at < len(d.Blackboard) {
		u, _ := blackboardType(d.Blackboard[at].Type)
		if u > t {
			break
		}
		at++
	}
	d.Blackboard = append(d.Blackboard[:at], append([]BlackboardParam{p}, d.Blackboard[at:]...)...)
	bump := func(b *int) {
		if b != nil && *b >= at {
			*b++
		}
	}
	src := func(s *Source) {
		if s != nil {
			bump(s.Blackboard)
		}
	}
	props := func(ps []Property) {
		for i := range ps {
			src(ps[i].Source)
		}
	}
	for i := range d.Attachments {
		props(d.Attachments[i].Properties)
	}
	for i := range d.Nodes {
		n := &d.Nodes[i]
		props(n.Properties)
		for j := range n.Inputs {
			src(n.Inputs[j].Source)
			for k := range n.Inputs[j].Sources {
				src(&n.Inputs[j].Sources[k])
			}
		}
		for j := range n.Children {
			if c := n.Children[j].Condition; c != nil {
				bump(c.Blackboard)
				bump(c.MinBlackboard)
				bump(c.MaxBlackboard)
			}
		}
	}
	return at
}

// sameContent checks that the rebuilt document says exactly what the edited one said.
func sameContent(t *testing.T, edited, again *Document) {
	t.Helper()
	if a, b := content(edited), content(again); a != b {
		t.Fatalf("the rebuilt file does not read back as the edit:\n%s", firstDiff([]byte(a), []byte(b)))
	}
}

// compatNodes returns the community JSON of each node of f.
func compatNodes(t *testing.T, f *ainb.File) []map[string]any {
	t.Helper()
	js, err := f.CompatJSON()
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Nodes []map[string]any }
	if err := json.Unmarshal(js, &v); err != nil {
		t.Fatal(err)
	}
	return v.Nodes
}

// remap renumbers node indices in community JSON after node del was deleted from n nodes.
// Numbers that named no node (stored as they were) stay.
func remap(v any, del, n int) any {
	fix := func(x any) any {
		f, ok := x.(float64)
		if !ok || f < 0 || f >= float64(n) || int(f) < del {
			return x
		}
		return f - 1
	}
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			switch k {
			case "Node Index", "Replacement Node Index":
				out[k] = fix(x)
			case "Queries":
				qs := []any{}
				for _, q := range x.([]any) {
					qs = append(qs, fix(q))
				}
				out[k] = qs
			default:
				out[k] = remap(x, del, n)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = remap(x, del, n)
		}
		return out
	}
	return v
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// referenced reports whether anything in d refers to node id.
func referenced(d *Document, id int) bool {
	for _, c := range d.Commands {
		if c.Root == id || c.Secondary == id {
			return true
		}
	}
	for _, r := range d.Replacements {
		if r.Node == id || r.New != nil && *r.New == id {
			return true
		}
	}
	for _, r := range d.EnumRelocations {
		if r.Target != nil && r.Target.Node != nil && *r.Target.Node == id {
			return true
		}
	}
	for i := range d.Nodes {
		n := &d.Nodes[i]
		for _, c := range n.Children {
			if c.Node == id {
				return true
			}
		}
		for _, j := range n.Jumps {
			if j.Node == id {
				return true
			}
		}
		for _, q := range n.Queries {
			if q == id {
				return true
			}
		}
		for _, in := range n.Inputs {
			if in.Source != nil && in.Source.Node != nil && *in.Source.Node == id {
				return true
			}
			for _, s := range in.Sources {
				if s.Node != nil && *s.Node == id {
					return true
				}
			}
		}
	}
	return false
}

// Deleting a node nothing refers to changes no other node: they keep their facts (kept by
// node id), whatever their index becomes.
func TestEditDeleteNode(t *testing.T) {
	done, withFacts := 0, 0
	for _, path := range testcorpus.AINB(t) {
		name := strings.TrimPrefix(filepath.ToSlash(path), filepath.ToSlash(testcorpus.Dir(t))+"/ainb/")
		if done == 6 || strings.Contains(name, "nodedefs") {
			continue
		}
		d, data := parseFile(t, name)
		orig, err := ainb.Read(data)
		if err != nil {
			t.Fatal(err)
		}
		before := compatNodes(t, orig)
		// A node nothing refers to, early in the file so that most nodes move down.
		del := -1
		for i := range d.Nodes {
			if !referenced(d, d.Nodes[i].ID) {
				del = i
				break
			}
		}
		if del < 0 {
			continue // every node is referenced
		}
		done++
		if facts, err := decodeLayout(d.Layout); err != nil {
			t.Fatal(err)
		} else if len(facts.nodes) > 0 {
			withFacts++
		}
		n := len(d.Nodes)
		d.Nodes = append(d.Nodes[:del], d.Nodes[del+1:]...)
		f, again := rebuild(t, d)
		sameContent(t, d, again)
		after := compatNodes(t, f)
		if len(after) != n-1 {
			t.Fatalf("%s: %d nodes, want %d", name, len(after), n-1)
		}
		for i, got := range after {
			old := i
			if i >= del {
				old++
			}
			want := remap(before[old], del, n).(map[string]any)
			if g, w := mustJSON(got), mustJSON(want); g != w {
				t.Fatalf("%s: node %d (was %d) changed:\n got %s\nwant %s", name, i, old, g, w)
			}
		}
	}
	if done < 6 {
		t.Fatalf("deleted a node of %d files, want 6", done)
	}
	if withFacts == 0 {
		t.Fatal("no file had node facts: the test checks nothing about keeping them")
	}
}

// A tail of a string already in the pool, as a new name: the writer may point into the
// middle of the longer string; reading back must give exactly the new name.
func TestEditRenameToTail(t *testing.T) {
	d, _ := parseFile(t, "random/random_s29_v407_n369.ainb")
	tail := func(s string) string {
		if len(s) < 3 {
			t.Fatalf("%q is too short to take a tail of", s)
		}
		return s[len(s)/2:]
	}
	var in *Input
	for i := range d.Nodes {
		if len(d.Nodes[i].Inputs) > 0 {
			in = &d.Nodes[i].Inputs[0]
			break
		}
	}
	var named []int
	for i := range d.Nodes {
		if len(d.Nodes[i].Name) >= 4 {
			named = append(named, i)
		}
	}
	d.Nodes[named[0]].Name = tail(d.Nodes[named[1]].Name)
	d.Commands[0].Name = tail(d.Commands[len(d.Commands)-1].Name + "Command")
	in.Name = tail(d.Nodes[named[2]].Name)
	f, again := rebuild(t, d)
	sameContent(t, d, again)
	if f.Elements[named[0]].Name != d.Nodes[named[0]].Name || f.Commands[0].Name != d.Commands[0].Name {
		t.Fatalf("names read back as %q and %q", f.Elements[named[0]].Name, f.Commands[0].Name)
	}
}

// sourceEdits sets the source of an input to each kind in turn.
func TestEditSources(t *testing.T) {
	d, _ := parseFile(t, "synthetic/kitchen_sink_v407.ainb")
	// A float input, a node with a float output, a float blackboard parameter and a vec3f one.
	var target *Node
	var k int
	for i := range d.Nodes {
		for j, in := range d.Nodes[i].Inputs {
			if in.Type == "float" && in.Sources == nil && target == nil {
				target, k = &d.Nodes[i], j
			}
		}
	}
	if target == nil {
		t.Fatal("no float input")
	}
	producer, out := -1, -1
	for i := range d.Nodes {
		for j, o := range d.Nodes[i].Outputs {
			if o.Type == "float" && &d.Nodes[i] != target && producer < 0 {
				producer, out = d.Nodes[i].ID, j
			}
		}
	}
	vb := addParam(d, BlackboardParam{Name: "Where", Type: "vec3f", Inherit: "none", Value: Value{Vec: [3]Float{1, 2, 3}}})
	fb := addParam(d, BlackboardParam{Name: "Speed", Type: "float", Inherit: "root", Value: Value{Float: 1.5}})
	vb++
	if producer < 0 {
		// Give a node a float output to read.
		d.Nodes[0].Outputs = append(d.Nodes[0].Outputs, Output{Name: "Out", Type: "float"})
		producer, out = d.Nodes[0].ID, len(d.Nodes[0].Outputs)-1
	}
	one := 1
	expr := -1
	if d.Expressions != nil && len(d.Expressions.Functions) > 0 {
		expr = 0
	}
	for _, src := range []*Source{
		{Node: &producer, Output: out},
		{Blackboard: &fb},
		{Blackboard: &vb, Component: "y"},
		{Expression: &expr},
		nil,
		{Node: &producer, Output: out},
	} {
		if src != nil && src.Expression != nil && expr < 0 {
			continue
		}
		target.Inputs[k].Source = src
		target.Inputs[k].UsesDefault = nil
		if src != nil && src.Node != nil && target.Inputs[k].IsOutput {
			target.Inputs[k].IsOutput, target.Inputs[k].UsesDefault = false, &[]bool{true}[0]
		}
		target.Inputs[k].IsOutput = !target.Inputs[k].IsOutput
		f, again := rebuild(t, d)
		sameContent(t, d, again)
		// The flag word says the same in the model's terms.
		e := &f.Elements[indexOf(d, target.ID)]
		var fi *ainb.Input
		n := 0
		for _, in := range target.Inputs[:k] {
			if in.Type == "float" {
				n++
			}
		}
		fi = &e.Inputs.Of(ainb.ParamFloat)[n]
		switch {
		case src == nil:
			if fi.Source.Node != -1 || fi.Source.Flags&^ainb.ParamIsOutput != ainb.ParamUsesDefault {
				t.Fatalf("immediate: %+v", fi.Source)
			}
		case src.Node != nil:
			if int(fi.Source.Node) != indexOf(d, producer) || fi.Source.Flags&^(ainb.ParamIsOutput|ainb.ParamUsesDefault) != 0 {
				t.Fatalf("node source: %+v", fi.Source)
			}
		case src.Blackboard != nil && src.Component == "y":
			if !fi.Source.Flags.IsBlackboard() || fi.Source.Flags.VectorComponent() != 2 || fi.Source.Flags.Index() != len(f.Blackboard.Params[ainb.BBVec3f])-1 {
				t.Fatalf("vec3f component source: %#x", fi.Source.Flags)
			}
		case src.Blackboard != nil:
			if !fi.Source.Flags.IsBlackboard() || fi.Source.Flags.Index() != len(f.Blackboard.Params[ainb.BBF32])-1 {
				t.Fatalf("blackboard source: %#x", fi.Source.Flags)
			}
		case src.Expression != nil:
			if !fi.Source.Flags.IsExpression() || fi.Source.Flags.Index() != 0 {
				t.Fatalf("expression source: %#x", fi.Source.Flags)
			}
		}
	}
	_ = one
}

func indexOf(d *Document, id int) int {
	for i := range d.Nodes {
		if d.Nodes[i].ID == id {
			return i
		}
	}
	return -1
}

func TestEditChildren(t *testing.T) {
	d, _ := parseFile(t, "synthetic/kitchen_sink_v407.ainb")
	var seq *Node
	for i := range d.Nodes {
		if d.Nodes[i].Type == "Sequential" && len(d.Nodes[i].Children) > 0 {
			seq = &d.Nodes[i]
			break
		}
	}
	if seq == nil {
		t.Fatal("no sequential node with children")
	}
	seq.Children = append(seq.Children, Child{Node: d.Nodes[len(d.Nodes)-1].ID, Name: "Added"})
	f, again := rebuild(t, d)
	sameContent(t, d, again)
	ps := f.Elements[indexOf(d, seq.ID)].Plugs.Of(ainb.PlugChild)
	if last := ps[len(ps)-1]; int(last.Node) != len(d.Nodes)-1 || last.Name != "Added" {
		t.Fatalf("added child reads back as %+v", last)
	}
	seq.Children = seq.Children[1:]
	_, again = rebuild(t, d)
	sameContent(t, d, again)

	// A condition on a selector's child.
	for i := range d.Nodes {
		n := &d.Nodes[i]
		if n.Type == "S32Selector" && len(n.Children) > 0 {
			v := int32(-77)
			n.Children[0].Condition = &Condition{Int: &v}
			f, again := rebuild(t, d)
			sameContent(t, d, again)
			if got := f.Elements[i].Plugs.Of(ainb.PlugChild)[0]; got.Int != -77 || got.Word != 0 {
				t.Fatalf("condition reads back as %+v", got)
			}
		}
	}
}

func TestEditValues(t *testing.T) {
	d, _ := parseFile(t, "synthetic/kitchen_sink_v408.ainb")
	n := &d.Nodes[0]
	nan := Float(math.Float32frombits(0x7fc00001))
	negZero := Float(math.Float32frombits(0x80000000))
	inf := Float(math.Inf(-1))
	n.Properties = []Property{
		{Name: "I", Type: "int", Value: Value{Int: math.MinInt32}},
		{Name: "B", Type: "bool", Value: Value{Int: 1}},
		{Name: "F", Type: "float", Value: Value{Float: nan}},
		{Name: "Z", Type: "float", Value: Value{Float: negZero}},
		{Name: "S", Type: "string", Value: Value{String: "ドラゴン \"quoted\"\n\u2028"}},
		{Name: "V", Type: "vec3f", Value: Value{Vec: [3]Float{inf, negZero, 0.1}}},
		{Name: "P", Type: "pointer", ClassName: "game::Thing"},
	}
	addParam(d, BlackboardParam{Name: "U", Type: "u32", Inherit: "parent", Value: Value{Int: math.MaxUint32}})
	js := string(d.Encode())
	for _, want := range []string{`"value":"0x7fc00001"`, `"value":"0x80000000"`, `"value":["0xff800000","0x80000000",0.1]`, `"value":4294967295`, `"value":-2147483648`} {
		if !strings.Contains(js, want) {
			t.Errorf("the JSON lacks %s", want)
		}
	}
	f, again := rebuild(t, d)
	sameContent(t, d, again)
	ps := f.Elements[0].Properties.Lists()
	bits := func(x ainb.F32) uint32 { return math.Float32bits(float32(x)) }
	if ps[ainb.ParamInt][0].Value.Int != math.MinInt32 || ps[ainb.ParamBool][0].Value.Int != 1 ||
		bits(ps[ainb.ParamFloat][0].Value.Float) != 0x7fc00001 || bits(ps[ainb.ParamFloat][1].Value.Float) != 0x80000000 ||
		ps[ainb.ParamString][0].Value.String != "ドラゴン \"quoted\"\n\u2028" ||
		bits(ps[ainb.ParamVec3f][0].Value.Vec[0]) != 0xff800000 || bits(ps[ainb.ParamVec3f][0].Value.Vec[1]) != 0x80000000 ||
		ps[ainb.ParamPointer][0].ClassName != "game::Thing" {
		t.Fatalf("values read back as %+v", ps)
	}
	u := f.Blackboard.Params[ainb.BBU32]
	if uint32(u[len(u)-1].Value.Int) != math.MaxUint32 {
		t.Fatalf("u32 reads back as %d", uint32(u[len(u)-1].Value.Int))
	}
}

// An untouched node keeps facts the document cannot express; so does a renamed one (its
// mirror plugs derive from its type and inputs only); one whose input source changed gets the
// canonical mirror plugs.
func TestEditFactsFollowFingerprints(t *testing.T) {
	d, data := parseFile(t, "random/random_s29_v407_n369.ainb")
	facts, err := decodeLayout(d.Layout)
	if err != nil || len(facts.nodes) < 2 {
		t.Fatalf("want a file with node facts: %v", err)
	}
	orig, _ := ainb.Read(data)
	kept, renamed := facts.nodes[0].key, facts.nodes[1].key
	d.Nodes[renamed].Name += "X"
	// A node with stored mirror plugs and an input fed by another node: disconnect it.
	edited := -1
	for _, o := range facts.nodes[2:] {
		for k, in := range d.Nodes[o.key].Inputs {
			if o.mirror != nil && in.Source != nil && in.Source.Node != nil && edited < 0 {
				edited = o.key
				d.Nodes[o.key].Inputs[k].Source, d.Nodes[o.key].Inputs[k].UsesDefault = nil, nil
			}
		}
	}
	if edited < 0 {
		t.Fatal("no node with mirror facts and a node source")
	}
	f, again := rebuild(t, d)
	sameContent(t, d, again)
	before, after := compatNodes(t, orig), compatNodes(t, f)
	if mustJSON(before[kept]) != mustJSON(after[kept]) {
		t.Fatalf("untouched node %d changed", kept)
	}
	if mustJSON(before[renamed]["Plugs"]) != mustJSON(after[renamed]["Plugs"]) {
		t.Fatalf("renamed node %d lost its stored plugs", renamed)
	}
	// The edited node's mirror plugs are the canonical ones now.
	var m [3][]ainb.Plug
	deriveMirror(&m, &f.Elements[edited], f.Version)
	if !sameMirror(&m, &f.Elements[edited]) {
		t.Fatalf("edited node %d keeps stored mirror plugs", edited)
	}
}
