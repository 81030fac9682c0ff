package ainb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// Changing one value changes exactly its four bytes.
func TestEditOneValue(t *testing.T) {
	orig := corpusFile(t, "synthetic/params_v407.ainb")
	f, err := Read(orig)
	if err != nil {
		t.Fatal(err)
	}
	var target *Property
	for i := range f.Elements {
		if ps := f.Elements[i].Properties.Of(ParamFloat); len(ps) > 0 {
			target = &ps[0]
			break
		}
	}
	if target == nil {
		t.Fatal("no float property in the file")
	}
	old := target.Value.Float
	target.Value.Float = 12.5
	out, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(orig) {
		t.Fatalf("size changed: %d -> %d", len(orig), len(out))
	}
	var diffs []int
	for i := range out {
		if out[i] != orig[i] {
			diffs = append(diffs, i)
		}
	}
	if len(diffs) == 0 || len(diffs) > 4 || diffs[len(diffs)-1]-diffs[0] > 3 {
		t.Fatalf("bytes changed at %v, want one 4-byte value", diffs)
	}
	again, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	for i := range again.Elements {
		if ps := again.Elements[i].Properties.Of(ParamFloat); len(ps) > 0 {
			if ps[0].Value.Float != 12.5 {
				t.Fatalf("read back %v, want 12.5 (was %v)", ps[0].Value.Float, old)
			}
			break
		}
	}
}

// Renaming an element appends its new name to the pool and stores the new name hash.
func TestRenameElement(t *testing.T) {
	f, err := Read(corpusFile(t, "synthetic/minimal_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	f.Elements[0].Name = "Renamed"
	out, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	again, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := again.Elements[0].Name; got != "Renamed" {
		t.Fatalf("name %q", got)
	}
	if got, want := binary.LittleEndian.Uint32(out[headerSize+commandSize*len(f.Commands)+0xc:]), Hash("Renamed"); got != want {
		t.Fatalf("name hash %#x, want %#x", got, want)
	}
	pool := out[binary.LittleEndian.Uint32(out[0x24:]):]
	if !bytes.HasSuffix(pool, []byte("OneShotDoNothing\x00Renamed\x00")) {
		t.Fatalf("pool %q: the old strings should stay and the new one follow", pool)
	}
}

// The name hashes the writer computes agree with the ones in the corpus files.
func TestNameHashes(t *testing.T) {
	b := corpusFile(t, "synthetic/kitchen_sink_v407.ainb")
	f, err := Read(b)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range f.Elements {
		at := headerSize + commandSize*len(f.Commands) + i*0x3c + 0xc
		if got := binary.LittleEndian.Uint32(b[at:]); got != Hash(e.Name) {
			t.Fatalf("element %d %q: file has hash %#x, Hash gives %#x", i, e.Name, got, Hash(e.Name))
		}
	}
	if Hash("") != 0 {
		t.Fatalf("Hash(\"\") = %#x, want 0", Hash(""))
	}
}

func TestValidateProblems(t *testing.T) {
	f := &File{Version: Version407, Category: "AI"}
	f.Elements = make([]Element, 3)
	f.Commands = []Command{{Name: "Root", Root: 7, Secondary: -1}}
	f.Elements[1].Inputs.Set(ParamFloat, []Input{{Name: "x", Source: Source{Node: 2, Output: 0}}, {Name: "z", Source: Source{Node: 2, Output: -2}}})
	f.Elements[2].Outputs.Set(ParamInt, []Output{{Name: "y"}})
	f.Elements[0].Plugs.Set(PlugChild, []Plug{{Node: 9}})
	f.Elements[0].Plugs.Set(PlugJump, []Plug{{Node: 83886080, Jump: &Jump{Command: "Root"}}})
	f.Elements[0].Queries = []int{2}
	f.Replacement = &ReplacementTable{Entries: []Replacement{{Type: ReplaceChild, Element: 0, New: -6396}, {Type: RemoveChild, Element: 1, New: -1}}}
	f.Elements[0].Plugs.Set(1, []Plug{{}}) // a kind no known file uses, laid out as LayoutRaw
	f.Elements[1].UnusedPlugs = &UnusedPlugs{2: make([]Plug, 256)}
	for range 256 {
		f.Elements[2].Plugs.Set(PlugGeneric, append(f.Elements[2].Plugs.Of(PlugGeneric), Plug{}))
	}
	_, err := f.Bytes()
	var verr *ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("got %v, want a ValidationError", err)
	}
	var got []string
	for _, p := range verr.Problems {
		got = append(got, p.String())
	}
	want := []string{
		"Commands[0].Root Node Index: 7 out of range (3 nodes)",
		"Nodes[0].Queries[0]: node 2 is not a query node",
		"Nodes[1].Parameters.Inputs.Float[1].Output Index: -2 is negative (a single source's index is 0 to 32767)",
		"Nodes[1].UnusedPlugs[2]: 256 plugs, at most 255 of one kind fit",
		"Nodes[1].Plugs: 256 plugs in all, at most 255 fit",
		"Nodes[2].Plugs.Generic: 256 plugs, at most 255 of one kind fit",
		"Nodes[2].Plugs: 256 plugs in all, at most 255 fit",
		"Replacement Table[0].Replacement Node Index: -6396 out of range (3 nodes)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if verr.Problems[2].Element != 1 {
		t.Fatalf("problem names element %d, want 1", verr.Problems[2].Element)
	}
	// References that name nothing are written back as stored: warnings, not problems.
	got = got[:0]
	for _, p := range f.Warnings() {
		got = append(got, p.String())
	}
	want = []string{
		"Nodes[0].Plugs.Child[0].Node Index: 9 names no node (3 nodes)",
		"Nodes[0].Plugs.Transition[0].Node Index: 83886080 names no node (3 nodes)",
		"Nodes[1].Parameters.Inputs.Float[0].Output Index: 0 names no output: node 2 has 0 Float outputs",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A file built from scratch gets the canonical layout and reads back equal.
func TestBuildFromScratch(t *testing.T) {
	for _, v := range []uint32{Version404, Version407, Version408} {
		f := &File{Version: v, Filename: "Scratch", Category: "Logic", HasSection6C: true}
		if v >= Version407 {
			f.CategoryID = 1
			f.Replacement = &ReplacementTable{}
		}
		f.Commands = []Command{{Name: "Main", Root: 0, Secondary: -1}}
		e := Element{Type: Sequential, Flags: FlagResidentInit}
		e.Plugs.Set(PlugChild, []Plug{{Node: 1, Name: "a"}})
		leaf := Element{Name: "Leaf"}
		leaf.Properties.Set(ParamFloat, []Property{{Name: "Speed", Value: Value{Float: F32(math.Pi)}}})
		leaf.Inputs.Set(ParamVec3f, []Input{{Name: "Pos", Source: Source{Node: -1}, Value: Value{Vec: Vec3f{1, 2, 3}}}})
		f.Elements = []Element{e, leaf}
		f.Blackboard.Params[BBF32] = []BlackboardParam{{Name: "Speed", File: "Work/AI/A.root.ainb", Value: Value{Float: 2}}}
		if v >= Version408 {
			f.Blackboard.Params[BBU32] = []BlackboardParam{{Name: "Count", Value: Value{Int: 7}}}
		}
		if v < Version407 {
			for i := range f.Elements {
				f.Elements[i].StateInfo = &StateInfo{DesiredState: "S"}
			}
		}
		b, err := f.Bytes()
		if err != nil {
			t.Fatalf("%#x: %v", v, err)
		}
		g, err := Read(b)
		if err != nil {
			t.Fatalf("%#x: %v", v, err)
		}
		b2, err := g.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, b2) {
			t.Fatalf("%#x: %s", v, firstDiff(b, b2))
		}
		if got := g.Elements[1].Properties.Of(ParamFloat)[0].Value.Float; got != F32(math.Pi) {
			t.Fatalf("%#x: speed %v", v, got)
		}
		if got := g.Blackboard.Params[BBF32][0].File; got != "Work/AI/A.root.ainb" {
			t.Fatalf("%#x: file reference %q", v, got)
		}
	}
}

// A string offset into the tail of a longer pool string reads as that tail and is written
// back pointing at the same place.
func TestStringTailReference(t *testing.T) {
	b := bytes.Clone(corpusFile(t, "synthetic/minimal_v407.ainb"))
	name := headerSize + commandSize + 8 // element 0's name
	at := binary.LittleEndian.Uint32(b[name:])
	binary.LittleEndian.PutUint32(b[name:], at+7) // "OneShotDoNothing" -> "DoNothing"
	f, err := Read(b)
	if err != nil {
		t.Fatal(err)
	}
	if f.Elements[0].Name != "DoNothing" {
		t.Fatalf("name %q", f.Elements[0].Name)
	}
	if !slices.Equal(f.Layout.Tails, []string{"DoNothing"}) {
		t.Fatalf("tails %q, want the one the file points into", f.Layout.Tails)
	}
	// The name hash on disk still belongs to the old name: it is kept while the name is
	// unedited (a file stores what it stores), and derived again once the name changes.
	out, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, b) {
		t.Fatalf("tail reference not kept: %s", firstDiff(b, out))
	}
	if k := f.Elements[0].Kept; k == nil || k.NameHash != (Kept{Hash("DoNothing"), Hash("OneShotDoNothing")}) {
		t.Fatalf("kept %+v, want the stored hash of the old name beside the derived one", k)
	}
	f.Elements[0].Name = "DoSomething"
	out, err = f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if got := binary.LittleEndian.Uint32(out[name+4:]); got != Hash("DoSomething") {
		t.Fatalf("renamed element's hash %#x, want %#x", got, Hash("DoSomething"))
	}
}

// A blackboard name whose pool offset needs more than the 22 bits of its field is an error,
// not a silently truncated offset.
func TestPackedOffsetOverflow(t *testing.T) {
	f := &File{Version: Version407, Category: "AI", Elements: []Element{{Name: strings.Repeat("x", 1<<22)}}}
	f.Blackboard.Params[BBS32] = []BlackboardParam{{Name: "Late"}}
	_, err := f.Bytes()
	want := `ainb: blackboard parameter name "Late" lands at string pool offset 0x400005, past the 22 bits its field has`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

// Enum relocations follow the values they patch when an edit moves them.
func TestEnumRelocationsFollowValues(t *testing.T) {
	f := &File{Version: Version404, Category: "AI", HasSection6C: true}
	f.Elements = make([]Element, 2)
	for i := range f.Elements {
		f.Elements[i].StateInfo = &StateInfo{}
	}
	f.Elements[1].Properties.Set(ParamInt, []Property{{Name: "Team", Value: Value{Int: 7}}})
	f.Elements[1].Inputs.Set(ParamInt, []Input{{Name: "Mode", Source: Source{Node: -1}, Value: Value{Int: 3}}})
	f.EnumRelocations = []EnumRelocation{
		{Target: &ValueRef{Element: 1, Type: ParamInt}, ClassName: "Lp::Team", ValueName: "Alpha"},
		{Target: &ValueRef{Element: 1, Input: true, Type: ParamInt}, ClassName: "Lp::Mode", ValueName: "Turf"},
	}
	check := func(b []byte, want ...int32) {
		t.Helper()
		g, err := Read(b)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range g.EnumRelocations {
			if r.Target == nil || *r.Target != *f.EnumRelocations[i].Target {
				t.Fatalf("relocation %d resolves to %+v, want %+v", i, r.Target, f.EnumRelocations[i].Target)
			}
			if got := int32(binary.LittleEndian.Uint32(b[r.Offset:])); got != want[i] {
				t.Fatalf("relocation %d points at %d, want the value %d", i, got, want[i])
			}
		}
	}
	b, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	check(b, 7, 3)
	// Properties and inputs of element 0 now come first in their tables, moving element 1's.
	f.Elements[0].Properties.Set(ParamInt, []Property{{Name: "Extra", Value: Value{Int: 100}}})
	f.Elements[0].Inputs.Set(ParamInt, []Input{{Name: "Extra", Source: Source{Node: -1}, Value: Value{Int: 200}}})
	b2, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	check(b2, 7, 3)
	f.EnumRelocations[0].Target.Index = 5
	if _, err := f.Bytes(); err == nil || !strings.Contains(err.Error(), "EnumRelocations[0].Target") {
		t.Fatalf("a dangling relocation target: %v", err)
	}
}

// The unknown header word at 0x54 survives a round trip.
func TestHeader54Kept(t *testing.T) {
	b := bytes.Clone(corpusFile(t, "synthetic/minimal_v404.ainb"))
	binary.LittleEndian.PutUint32(b[0x54:], 0xdeadbeef)
	f, err := Read(b)
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, b) {
		t.Fatal(firstDiff(b, out))
	}
}
