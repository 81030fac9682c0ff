package graph

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"testing"

	"ainbeditor/internal/ainb"
)

// propIndex and inputIndex return the index of the property or input named name.
func propIndex(t *testing.T, ps []Property, name string) int {
	t.Helper()
	return namedIndex(t, "property", name, len(ps), func(k int) string { return ps[k].Name })
}

func inputIndex(t *testing.T, ins []Input, name string) int {
	t.Helper()
	return namedIndex(t, "input", name, len(ins), func(k int) string { return ins[k].Name })
}

// namedIndex returns the first k below n whose nameOf is name, failing the test without one.
func namedIndex(t *testing.T, what, name string, n int, nameOf func(k int) string) int {
	t.Helper()
	for k := range n {
		if nameOf(k) == name {
			return k
		}
	}
	t.Fatalf("no %s %q", what, name)
	return -1
}

// An ordinary value edit changes the built file in that value's bytes and nowhere else, also
// on a node whose stored mirror plugs are not the canonical ones (node 3 stores none).
func TestEditValueChangesOnlyItsBytes(t *testing.T) {
	d, data := parseFile(t, "synthetic/params_v407.ainb")
	facts, err := decodeLayout(d.Layout)
	if err != nil {
		t.Fatal(err)
	}
	if o := ownerMap(facts.nodes)[3]; o == nil || o.mirror == nil {
		t.Fatal("node 3 has no stored mirror plugs: the test lost its point")
	}
	d = viaJSON(t, d)
	p := &d.Nodes[3].Properties[propIndex(t, d.Nodes[3].Properties, "PFloat")]
	old := math.Float32bits(float32(p.Value.Float))
	p.Value.Float = Float(float32(1.1))
	out, err := viaJSON(t, d).Build()
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(data) {
		t.Fatalf("the file is %d bytes, was %d", len(out), len(data))
	}
	var diff []int
	for i := range out {
		if out[i] != data[i] {
			diff = append(diff, i)
		}
	}
	if len(diff) == 0 || len(diff) > 4 || diff[len(diff)-1]-diff[0] > 3 {
		t.Fatalf("bytes differ at %v, want within one 4-byte value", diff)
	}
	// The 4-byte window holding the differences is the value: old bits before, new after.
	for at := max(diff[len(diff)-1]-3, 0); at <= diff[0]; at++ {
		if binary.LittleEndian.Uint32(data[at:]) == old && binary.LittleEndian.Uint32(out[at:]) == math.Float32bits(1.1) {
			return
		}
	}
	t.Fatalf("bytes differ at %v, not where PFloat (%#x) was", diff, old)
}

// Connecting another source to an input drops the node's stored mirror plugs (they are
// canonical again) and changes no other node.
func TestEditSourceDropsMirrorOnly(t *testing.T) {
	d, data := parseFile(t, "synthetic/params_v407.ainb")
	orig, err := ainb.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	n := &d.Nodes[3]
	k := inputIndex(t, n.Inputs, "IConst")
	if n.Inputs[k].Source != nil {
		t.Fatal("IConst has a source")
	}
	out := -1
	for j, o := range d.Nodes[1].Outputs {
		if o.Type == n.Inputs[k].Type {
			out = j
			break
		}
	}
	if out < 0 {
		t.Fatal("node 1 has no int output")
	}
	one := 1
	n.Inputs[k].Source = &Source{Node: &one, Output: out}
	f, again := rebuild(t, d)
	sameContent(t, d, again)
	var m [3][]ainb.Plug
	deriveMirror(&m, &f.Elements[3], f.Version)
	if !sameMirror(&m, &f.Elements[3]) {
		t.Fatal("node 3 keeps its stored mirror plugs after a source change")
	}
	if len(f.Elements[3].Plugs.Of(ainb.PlugInt)) == 0 {
		t.Fatal("node 3 has no canonical Int plugs")
	}
	before, after := compatNodes(t, orig), compatNodes(t, f)
	for i := range after {
		if i == 3 {
			continue
		}
		if g, w := mustJSON(after[i]), mustJSON(before[i]); g != w {
			t.Fatalf("node %d changed:\n got %s\nwant %s", i, g, w)
		}
	}

	// Editing anything else of a node keeps them: its name, a property, an input's default.
	d, _ = parseFile(t, "synthetic/params_v407.ainb")
	d.Nodes[3].Name += "Renamed"
	d.Nodes[3].Properties = d.Nodes[3].Properties[1:]
	d.Nodes[4].Inputs[0].Value.Int = 77
	f, _ = rebuild(t, d)
	after = compatNodes(t, f)
	for _, i := range []int{3, 4} {
		if g, w := mustJSON(after[i]["Plugs"]), mustJSON(before[i]["Plugs"]); g != w {
			t.Fatalf("node %d: plugs\n%s\nwant the stored\n%s", i, g, w)
		}
	}
}

// Word facts follow the value they describe: kept through other edits of the node, dropped
// when the value's source kind changes, and dropped when the word would read back otherwise.
func TestEditWordFactsFollowTheirValue(t *testing.T) {
	f, err := ainb.Read(readCorpus(t, "synthetic/params_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	e := &f.Elements[3]
	nbb := len(f.Blackboard.Params[ainb.BBS32])
	ints := e.Properties.Of(ainb.ParamInt)                // PInt, PIntBB, PIntExpr, PIntNeg
	ints[0].Flags = 0x80000000 | ainb.ParamFlags(nbb)     // a blackboard index past the last: immediate
	ints[1].Flags |= 1 << 20                              // a blackboard source with a bit of its own
	e.Inputs.Of(ainb.ParamInt)[0].Source.Flags |= 1 << 20 // IConst, immediate
	data, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	parse := func() *Document {
		d, err := Parse("words", data)
		if err != nil {
			t.Fatal(err)
		}
		facts, err := decodeLayout(d.Layout)
		if err != nil {
			t.Fatal(err)
		}
		if o := ownerMap(facts.nodes)[3]; o == nil || len(o.words) != 3 {
			t.Fatalf("node 3 facts %+v, want 3 word facts", o)
		}
		return viaJSON(t, d)
	}
	flags := func(f *ainb.File) (pInt, pIntBB, iConst ainb.ParamFlags) {
		e := &f.Elements[3]
		return e.Properties.Of(ainb.ParamInt)[0].Flags, e.Properties.Of(ainb.ParamInt)[1].Flags, e.Inputs.Of(ainb.ParamInt)[0].Source.Flags
	}

	// Unedited, and with another value of the node edited: the same words.
	d := parse()
	d.Nodes[3].Properties[propIndex(t, d.Nodes[3].Properties, "PIntNeg")].Value.Int = 42
	d.Nodes[3].Name = "Renamed"
	g, _ := rebuild(t, d)
	if a, b, c := flags(g); a != ints[0].Flags || b != ints[1].Flags || c != f.Elements[3].Inputs.Of(ainb.ParamInt)[0].Source.Flags {
		t.Fatalf("flags %#x %#x %#x after unrelated edits, want the stored ones", a, b, c)
	}

	// Source kinds changed: PInt reads blackboard parameter 0, IConst a node output.
	d = parse()
	bb := -1
	for i, p := range d.Blackboard {
		if p.Type == "int" {
			bb = i
			break
		}
	}
	k := propIndex(t, d.Nodes[3].Properties, "PInt")
	d.Nodes[3].Properties[k].Source, d.Nodes[3].Properties[k].UsesDefault = &Source{Blackboard: &bb}, nil
	in := &d.Nodes[3].Inputs[inputIndex(t, d.Nodes[3].Inputs, "IConst")]
	one := 1
	in.Source, in.UsesDefault = &Source{Node: &one}, nil
	g, again := rebuild(t, d)
	sameContent(t, d, again)
	if a, b, c := flags(g); a != 0x80000000 || b != ints[1].Flags || c != 0 {
		t.Fatalf("flags %#x %#x %#x, want 0x80000000 (derived), the stored %#x, 0 (derived)", a, b, c, ints[1].Flags)
	}

	// The blackboard grows to hold the index PInt stored: the fact would make it a reference.
	d = parse()
	addParam(d, BlackboardParam{Name: "More", Type: "int", Inherit: "none"})
	g, again = rebuild(t, d)
	sameContent(t, d, again)
	if a, _, _ := flags(g); a != 0 {
		t.Fatalf("PInt flags %#x, want 0: immediate", a)
	}

	// Node 2 deleted (and every source reading it): node 3, now at index 2, keeps its words.
	d = parse()
	for i := range d.Nodes {
		d.Nodes[i].Queries = slices.DeleteFunc(d.Nodes[i].Queries, func(q int) bool { return q == 2 })
		for k := range d.Nodes[i].Inputs {
			in := &d.Nodes[i].Inputs[k]
			if in.Source != nil && in.Source.Node != nil && *in.Source.Node == 2 {
				in.Source, in.UsesDefault = nil, nil
			}
			if in.Sources != nil {
				kept := []Source{}
				for _, s := range in.Sources {
					if s.Node == nil || *s.Node != 2 {
						kept = append(kept, s)
					}
				}
				in.Sources = kept
			}
		}
	}
	if referenced(d, 2) {
		t.Fatal("node 2 is still referenced")
	}
	d.Nodes = append(d.Nodes[:2], d.Nodes[3:]...)
	g, again = rebuild(t, d)
	sameContent(t, d, again)
	e = &g.Elements[2]
	if a, b, c := e.Properties.Of(ainb.ParamInt)[0].Flags, e.Properties.Of(ainb.ParamInt)[1].Flags, e.Inputs.Of(ainb.ParamInt)[0].Source.Flags; a != ints[0].Flags || b != ints[1].Flags || c != f.Elements[3].Inputs.Of(ainb.ParamInt)[0].Source.Flags {
		t.Fatalf("flags %#x %#x %#x after deleting node 2, want the stored ones", a, b, c)
	}
}

// A file that points into the tail of a pool string ("alk" inside "Walk") builds its own bytes
// again through the document; a layout whose tail is no pool string's end is a problem.
func TestLayoutPoolTails(t *testing.T) {
	f := &ainb.File{Version: ainb.Version407, Filename: "Tiny", Category: "AI", HasSection6C: true,
		Replacement: &ainb.ReplacementTable{},
		Commands:    []ainb.Command{{Name: "alk", Root: 0, Secondary: -1}},
		Elements:    []ainb.Element{{Name: "Leaf"}},
		Layout:      &ainb.Layout{Strings: []string{"Walk", "Tiny", "AI", "Leaf"}, Tails: []string{"alk"}}}
	data, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if read, err := ainb.Read(data); err != nil || !slices.Equal(read.Layout.Tails, []string{"alk"}) {
		t.Fatalf("the hand-made file reads back with tails %v (%v)", read.Layout.Tails, err)
	}
	d, err := Parse("tails", data)
	if err != nil {
		t.Fatal(err)
	}
	out, err := viaJSON(t, d).Build()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, data) {
		t.Fatalf("built %d bytes, want the %d read: %s", len(out), len(data), firstDiff(data, out))
	}

	facts, err := decodeLayout(d.Layout)
	if err != nil {
		t.Fatal(err)
	}
	facts.tails = []string{"Walks"}
	d.Layout = encodeLayout(facts)
	_, err = d.Build()
	var pe *ProblemsError
	if !errors.As(err, &pe) || pe.Problems[0].Path != "layout" {
		t.Fatalf("a tail no string ends with: %v, want a problem at layout", err)
	}
}

// A GUID reads as the format's mixed-endian text: three little-endian groups, then bytes.
func TestAppendGUID(t *testing.T) {
	var g ainb.GUID
	for i := range g {
		g[i] = byte(i)
	}
	if got, want := string(appendGUID([]byte("x"), &g)), `x"03020100-0504-0706-0809-0a0b0c0d0e0f"`; got != want {
		t.Fatalf("appendGUID = %s, want %s", got, want)
	}
}

// parseGUID reads what appendGUID writes, in either case, and refuses a text with any other
// byte in place of a digit or a dash.
func TestParseGUID(t *testing.T) {
	const text = "03020100-0504-0706-0809-0A0B0c0d0E0f"
	var g ainb.GUID
	if !parseGUID([]byte(text), &g) {
		t.Fatal("refused")
	}
	for i := range g {
		if g[i] != byte(i) {
			t.Fatalf("byte %d is %#x, want %#x", i, g[i], i)
		}
	}
	for at := range len(text) {
		for _, c := range []byte{'g', 'G', '-', ' ', '/', ':', '@', '`', 0, 0xff} {
			if c == text[at] {
				continue
			}
			b := []byte(text)
			b[at] = c
			if parseGUID(b, &g) {
				t.Errorf("%q read", b)
			}
		}
	}
	if parseGUID([]byte(text[:35]), &g) || parseGUID([]byte(text+"0"), &g) {
		t.Error("a GUID of the wrong length read")
	}
}
