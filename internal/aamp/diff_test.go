package aamp

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"ainbeditor/internal/change"
	"ainbeditor/internal/testcorpus"
)

func readLargest(tb testing.TB) *ParameterIO {
	data, err := os.ReadFile(filepath.Join(testcorpus.Dir(tb), "aamp", "AIProgram", "Lizalfos_Ice.baiprog"))
	if err != nil {
		tb.Skip(err)
	}
	pio, err := Read(data)
	if err != nil {
		tb.Fatal(err)
	}
	return pio
}

func lines(cs []change.Change) []string {
	var s []string
	for _, c := range cs {
		s = append(s, string(c.AppendText(nil)))
	}
	slices.Sort(s)
	return s
}

func TestDiffSmall(t *testing.T) {
	a := &ParameterIO{Version: 0, Type: "xml", Root: ParameterList{Name: NameOf("param_root"), Objects: []*ParameterObject{
		{Name: NameOf("Obj"), Params: []Parameter{{Name: NameOf("Speed"), Type: TypeInt, Value: int32(1)}, {Name: 0x1234abcd, Type: TypeBool, Value: true}}},
	}}}
	b := a.Clone()
	b.Root.Objects[0].Params[0] = Parameter{Name: NameOf("Speed"), Type: TypeF32, Value: float32(1)}
	b.Root.Objects[0].Params = b.Root.Objects[0].Params[:1]
	b.Root.Lists = []*ParameterList{{Name: NameOf("Sub")}}
	got := lines(Diff(a, b))
	want := []string{
		`+ param_root/0x604fc43c: {"hash":1615840316,"lists":[],"objects":[]}`, // no names table knows "Sub",
		`- param_root/0x7e2b928c/0x1234abcd: {"hash":305441741,"type":"bool","value":true}`,
		`~ param_root/0x7e2b928c/Speed: {"hash":` + fmt.Sprint(uint32(NameOf("Speed"))) + `,"name":"Speed","type":"int","value":1} -> {"hash":` + fmt.Sprint(uint32(NameOf("Speed"))) + `,"name":"Speed","type":"f32","value":1}`,
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("Diff =\n%q\nwant\n%q", got, want)
	}
	if d := Diff(a, a.Clone()); len(d) != 0 {
		t.Fatalf("Diff with itself: %q", lines(d))
	}
}

// TestDiffRandomEdits changes random int/f32 parameters of the corpus's largest AAMP and
// checks that Diff lists exactly those changes.
func TestDiffRandomEdits(t *testing.T) {
	base := readLargest(t)
	if d := Diff(base, base.Clone()); len(d) != 0 {
		t.Fatalf("Diff with itself: %q", lines(d))
	}
	for seed := int64(1); seed <= 5; seed++ {
		edited := base.Clone()
		var objs []*ParameterObject
		var walk func(l *ParameterList)
		walk = func(l *ParameterList) {
			for _, c := range l.Lists {
				walk(c)
			}
			objs = append(objs, l.Objects...)
		}
		walk(&edited.Root)
		r := rand.New(rand.NewSource(seed))
		edits := 0
		for _, k := range r.Perm(len(objs))[:20] {
			o := objs[k]
			for i := range o.Params {
				if o.Params[i].Type == TypeInt {
					o.Params[i].Value = o.Params[i].Value.(int32) + 1
					edits++
					break
				}
			}
		}
		got := Diff(base, edited)
		if len(got) != edits {
			t.Fatalf("seed %d: %d changes for %d edits: %q", seed, len(got), edits, lines(got))
		}
		for _, c := range got {
			if c.Op != change.Changed || c.Path[0] != "param_root" {
				t.Fatalf("seed %d: %s", seed, c.AppendText(nil))
			}
		}
	}
}

func BenchmarkDiffLargest(b *testing.B) {
	base := readLargest(b)
	edited := base.Clone()
	edited.Root.Lists = edited.Root.Lists[:len(edited.Root.Lists)-1]
	b.ReportAllocs()
	for b.Loop() {
		Diff(base, edited)
	}
}
