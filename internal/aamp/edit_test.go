package aamp

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"ainbeditor/internal/testcorpus"
)

func loadCorpus(t testing.TB, rel string) ([]byte, *ParameterIO) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "aamp", rel))
	if err != nil {
		t.Fatal(err)
	}
	pio, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	return data, pio
}

// writeRead writes pio and reads the result back, failing the test on any error.
func writeRead(t *testing.T, pio *ParameterIO) ([]byte, *ParameterIO) {
	t.Helper()
	out, err := pio.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Read(out)
	if err != nil {
		t.Fatalf("reading the written file: %v", err)
	}
	return out, back
}

// TestEdits applies one edit at a time to a corpus document and checks that the written
// file reads back as exactly the edited model, and that the edit really changed the file.
func TestEdits(t *testing.T) {
	orig, base := loadCorpus(t, "Horse.bdmgparam")
	rate := NameOf("DamageRate")
	edits := []struct {
		name string
		edit func(p *ParameterIO)
		// preserved: the recorded layout still fits, so only the edited bytes change.
		preserved bool
	}{
		{"change f32 in place", func(p *ParameterIO) {
			// GanonBeam (0.5) is the only parameter with that value, so its data is not shared.
			p.Root.Lists[0].Object(rate).Param(NameOf("GanonBeam")).Value = float32(0.25)
		}, true},
		{"change shared f32", func(p *ParameterIO) {
			// Sword's 1.0 is stored once for all the 1.0 rates: the layout cannot keep it.
			p.Root.Lists[0].Object(rate).Param(NameOf("Sword")).Value = float32(2)
		}, false},
		{"change string to a longer one", func(p *ParameterIO) {
			p.Root.Lists[0].Object(NameOf("DamageType")).Param(NameOf("Key")).Value = "A much longer damage type name than before"
		}, false},
		{"change type of a parameter", func(p *ParameterIO) {
			q := p.Root.Lists[0].Object(rate).Param(NameOf("Arrow"))
			q.Type, q.Value = TypeVec3, Vec3{1, 2, 3}
		}, false},
		{"add parameter", func(p *ParameterIO) {
			o := p.Root.Lists[0].Object(rate)
			o.Params = append(o.Params, Parameter{NameOf("Extra"), TypeBufferInt, []int32{7, 8, 9}})
		}, false},
		{"remove parameter", func(p *ParameterIO) {
			o := p.Root.Lists[0].Object(rate)
			o.Params = o.Params[1:]
		}, false},
		{"add object", func(p *ParameterIO) {
			l := p.Root.Lists[0]
			l.Objects = append(l.Objects, &ParameterObject{Name: NameOf("NewObj"), Params: []Parameter{{NameOf("Q"), TypeQuat, Quat{0, 0, 0, 1}}}})
		}, false},
		{"remove object", func(p *ParameterIO) {
			l := p.Root.Lists[0]
			l.Objects = l.Objects[:len(l.Objects)-1]
		}, false},
		{"add list", func(p *ParameterIO) {
			p.Root.Lists = append(p.Root.Lists, &ParameterList{Name: NameOf("NewList"), Objects: []*ParameterObject{{Name: NameOf("O"), Params: []Parameter{{NameOf("S"), TypeString64, "hello"}}}}})
		}, false},
		{"remove list", func(p *ParameterIO) {
			p.Root.Lists = nil
		}, false},
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			p := base.Clone()
			e.edit(p)
			if diffIO(p, base) == "" {
				t.Fatal("the edit did not change the model")
			}
			out, back := writeRead(t, p)
			if d := diffIO(p, back); d != "" {
				t.Fatalf("read back differs from the edited model: %s", d)
			}
			if d := diffIO(base, back); d == "" {
				t.Fatal("the written file lost the edit")
			}
			canon, err := p.BytesCanonical()
			if err != nil {
				t.Fatal(err)
			}
			if e.preserved {
				if len(out) != len(orig) {
					t.Fatalf("preserved write is %d bytes, original %d", len(out), len(orig))
				}
				n := 0
				for i := range out {
					if out[i] != orig[i] {
						n++
					}
				}
				if n == 0 || n > 4 {
					t.Errorf("preserved write changed %d bytes, want 1..4 (one f32)", n)
				}
			} else if !bytes.Equal(out, canon) {
				t.Error("layout no longer fits, but the output is not the canonical layout")
			}
		})
	}
	// Undoing an edit brings back the original bytes.
	p := base.Clone()
	q := p.Root.Lists[0].Object(rate).Param(NameOf("Sword"))
	q.Value = float32(3)
	q.Value = float32(1)
	if out, _ := writeRead(t, p); !bytes.Equal(out, orig) {
		t.Error("edit then undo did not restore the original bytes")
	}
}

// TestCanonicalNewDocument builds a document from scratch with every type, checks dedup of
// identical data and strings, and reads it back.
func TestCanonicalNewDocument(t *testing.T) {
	var curves []Curve
	for n := 0; n < 4; n++ {
		curves = append(curves, Curve{A: uint32(n), B: 2})
	}
	params := []Parameter{
		{NameOf("b"), TypeBool, true}, {NameOf("f"), TypeF32, float32(1.5)}, {NameOf("i"), TypeInt, int32(-3)},
		{NameOf("v2"), TypeVec2, Vec2{1, 2}}, {NameOf("v3"), TypeVec3, Vec3{1, 2, 3}}, {NameOf("v4"), TypeVec4, Vec4{1, 2, 3, 4}},
		{NameOf("c"), TypeColor, Color{1, 0, 0, 1}}, {NameOf("s32"), TypeString32, "same"}, {NameOf("s64"), TypeString64, "same"},
		{NameOf("c1"), TypeCurve1, curves[:1]}, {NameOf("c2"), TypeCurve2, curves[:2]}, {NameOf("c3"), TypeCurve3, curves[:3]},
		{NameOf("c4"), TypeCurve4, curves[:4]}, {NameOf("bi"), TypeBufferInt, []int32{1, 2}}, {NameOf("bf"), TypeBufferF32, []float32{1, 2}},
		{NameOf("s256"), TypeString256, "other"}, {NameOf("q"), TypeQuat, Quat{0, 0, 0, 1}}, {NameOf("u"), TypeU32, uint32(2)},
		{NameOf("bu"), TypeBufferU32, []uint32{}}, {NameOf("bb"), TypeBufferBinary, []byte{1, 2, 3}}, {NameOf("sr"), TypeStringRef, "same"},
	}
	pio := &ParameterIO{Version: 1, Type: "xml", Root: ParameterList{Name: RootName,
		Objects: []*ParameterObject{{Name: NameOf("All"), Params: params}}}}
	out, err := pio.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if d := diffIO(pio, back); d != "" {
		t.Fatal(d)
	}
	// Three "same" strings share one entry: "same\0" (8 with padding) + "other\0" (8).
	if got := le.Uint32(out[0x28:]); got != 16 {
		t.Errorf("string section is %d bytes, want 16 (identical strings stored once)", got)
	}
	// Data dedup: identical bytes anywhere in the data section (at a word boundary) are
	// reused, including the inside of a buffer.
	small := &ParameterIO{Type: "xml", Root: ParameterList{Name: RootName, Objects: []*ParameterObject{{Name: 1, Params: []Parameter{
		{1, TypeBool, true}, {2, TypeU32, uint32(1)}, {3, TypeInt, int32(1)},
		{4, TypeBufferInt, []int32{5, 1}}, {5, TypeU32, uint32(5)}, {6, TypeBufferInt, []int32{5, 1}},
	}}}}}
	out, err = small.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	paramBlock := uint32(0x34) + listRecSize + objRecSize
	dataStart := paramBlock + 6*paramRecSize
	if got := le.Uint32(out[0x24:]); got != 16 {
		t.Errorf("data section is %d bytes, want 16 (1 | count 2, 5, 1)", got)
	}
	for i, want := range []uint32{0, 0, 0, 8, 8, 8} {
		rec := paramBlock + uint32(i)*paramRecSize
		if got := rec + 4*(le.Uint32(out[rec+4:])&0xffffff) - dataStart; got != want {
			t.Errorf("param %d: data at +%d, want +%d", i+1, got, want)
		}
	}
	if back, err := Read(out); err != nil || diffIO(small, back) != "" {
		t.Errorf("dedup document does not read back: %v", err)
	}
	if _, err := (&ParameterIO{Root: ParameterList{Objects: []*ParameterObject{{Params: []Parameter{{Type: TypeVec3, Value: Vec2{}}}}}}}).Bytes(); err == nil {
		t.Error("a vec3 parameter holding a Vec2 was written")
	}
}
