package ainb

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"testing"
)

// unusedPlugsFile has plugs of every kind no known file uses: kind 1 among the Plugs and
// kinds 6 to 9 apart, each a node and a word.
func unusedPlugsFile(version uint32) *File {
	f := &File{Version: version, Filename: "Unused", Category: "AI"}
	if version >= Version407 {
		f.Replacement = &ReplacementTable{}
	}
	f.Commands = []Command{{Name: "Main", Root: 0, Secondary: -1}}
	e := Element{Type: Sequential}
	e.Plugs.Set(PlugChild, []Plug{{Node: 1, Name: "a"}})
	e.Plugs.Set(1, []Plug{{Node: 1, Word: 0xdeadbeef}})
	e.UnusedPlugs = &UnusedPlugs{0: {{Node: 1, Word: 6}}, 3: {{Node: -1, Word: 9}, {Node: 0, Word: 0x99}}}
	f.Elements = []Element{e, {Name: "Leaf"}}
	if version < Version407 {
		for i := range f.Elements {
			f.Elements[i].StateInfo = &StateInfo{DesiredState: "S"}
		}
	}
	return f
}

// Plugs of the kinds no known file uses are read as a node and a word and written back
// exactly, in the binary and through both JSON formats.
func TestUnusedPlugKinds(t *testing.T) {
	for _, v := range []uint32{Version404, Version407, Version408} {
		f := unusedPlugsFile(v)
		b, err := f.Bytes()
		if err != nil {
			t.Fatalf("%#x: %v", v, err)
		}
		// The parameter block counts them: (count, first index) per kind, kinds in order.
		entry := headerSize + commandSize
		params := int(binary.LittleEndian.Uint32(b[entry+elementLayout(v).params:]))
		counts := b[params+paramsPlugCounts : params+paramsSize]
		want := []byte{0, 0, 1, 0, 1, 1, 0, 2, 0, 2, 0, 2, 1, 2, 0, 3, 0, 3, 2, 3}
		if !bytes.Equal(counts, want) {
			t.Errorf("%#x: plug counts % x, want % x", v, counts, want)
		}
		// Kind 9's second plug: node 0, word 0x99, the last 8 bytes before the next section.
		last := int(binary.LittleEndian.Uint32(b[params+paramsSize+4*4:]))
		if got := b[last : last+8]; !bytes.Equal(got, []byte{0, 0, 0, 0, 0x99, 0, 0, 0}) {
			t.Errorf("%#x: last plug % x", v, got)
		}

		g, err := Read(b)
		if err != nil {
			t.Fatalf("%#x: %v", v, err)
		}
		if got, want := g.Elements[0].Plugs.Of(1), f.Elements[0].Plugs.Of(1); !reflect.DeepEqual(got, want) {
			t.Errorf("%#x: kind 1 read as %+v, want %+v", v, got, want)
		}
		if got, want := g.Elements[0].UnusedPlugs, f.Elements[0].UnusedPlugs; !reflect.DeepEqual(got, want) {
			t.Errorf("%#x: kinds 6 to 9 read as %+v, want %+v", v, got, want)
		}
		if g.Elements[1].UnusedPlugs != nil {
			t.Errorf("%#x: an element without them has %+v", v, g.Elements[1].UnusedPlugs)
		}
		again, err := g.Bytes()
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("%#x: written again: %v, %s", v, err, firstDiff(b, again))
		}

		for name, load := range map[string]func(*File) (*File, error){
			"community JSON": func(f *File) (*File, error) {
				js, err := f.CompatJSON()
				if err != nil {
					return nil, err
				}
				return ReadCompatJSON(js)
			},
		} {
			h, err := load(g)
			if err != nil {
				t.Fatalf("%#x: %s: %v", v, name, err)
			}
			h.Layout = g.Layout
			out, err := h.Bytes()
			if err != nil || !bytes.Equal(out, b) {
				t.Errorf("%#x: %s: %v, %s", v, name, err, firstDiff(b, out))
			}
		}
	}
}

// The fields whose purpose is unknown, 0 in every known file, are read as they are and
// written back: a file from another producer may hold anything there.
func TestReservedFieldsKept(t *testing.T) {
	for _, v := range []uint32{Version404, Version407, Version408} {
		f := unusedPlugsFile(v)
		f.Blackboard.Params[BBS32] = []BlackboardParam{{Name: "N", Value: Value{Int: 3}}}
		if v >= Version407 {
			f.Replacement.Entries = []Replacement{{Type: RemoveChild, Element: 0, Index: 0, New: -1}}
		}
		good, err := f.Bytes()
		if err != nil {
			t.Fatalf("%#x: %v", v, err)
		}
		b := bytes.Clone(good)
		entry := headerSize + commandSize
		b[entry+elementReserved07] = 0x5a
		binary.LittleEndian.PutUint16(b[entry+elementLayout(v).reserved1E:], 0x1e1e)
		bbAt := int(binary.LittleEndian.Uint32(b[hdrBlackboard:]))
		s32 := 1 // the header entry of the S32 parameters, after the strings'
		binary.LittleEndian.PutUint16(b[bbAt+bbSlotSize*s32+bbSlotUnused:], 0xbbbb)
		if v >= Version407 {
			rt := int(binary.LittleEndian.Uint32(b[hdrReplacement:]))
			b[rt+replacementReserved] = 0x77
			b[rt+replacementHeader+1] = 0x66
		}

		g, err := Read(b)
		if err != nil {
			t.Fatalf("%#x: %v", v, err)
		}
		e := &g.Elements[0]
		if e.Reserved07 != 0x5a || e.Reserved1E != 0x1e1e {
			t.Errorf("%#x: element reserved fields %#x, %#x", v, e.Reserved07, e.Reserved1E)
		}
		if r := g.Blackboard.Reserved; r == nil || *r != [NumBlackboardTypes]uint16{BBS32: 0xbbbb} {
			t.Errorf("%#x: blackboard reserved fields %v", v, r)
		}
		if v >= Version407 && (g.Replacement.Reserved01 != 0x77 || g.Replacement.Entries[0].Reserved01 != 0x66) {
			t.Errorf("%#x: replacement table %+v", v, g.Replacement)
		}
		out, err := g.Bytes()
		if err != nil || !bytes.Equal(out, b) {
			t.Errorf("%#x: written back: %v, %s", v, err, firstDiff(b, out))
		}
		// The untouched file reads with none of them.
		h, err := Read(good)
		if err != nil {
			t.Fatal(err)
		}
		if h.Blackboard.Reserved != nil || h.Elements[0].Reserved07 != 0 {
			t.Errorf("%#x: a file without them reads %v, %#x", v, h.Blackboard.Reserved, h.Elements[0].Reserved07)
		}
	}
}
