package aamp

import (
	"bytes"
	"math/rand"
	"slices"
	"testing"

	"ainbeditor/internal/change"
)

// intParams lists the int parameters of pio, in walk order (the same in every clone).
func intParams(pio *ParameterIO) []*Parameter {
	var ps []*Parameter
	var walk func(l *ParameterList)
	walk = func(l *ParameterList) {
		for _, c := range l.Lists {
			walk(c)
		}
		for _, o := range l.Objects {
			for i := range o.Params {
				if o.Params[i].Type == TypeInt {
					ps = append(ps, &o.Params[i])
				}
			}
		}
	}
	walk(&pio.Root)
	return ps
}

// TestMergeRandomEdits: 10 int parameters edited by ours, 10 others by theirs, 5 alike on
// both, and 3 differently: exactly those 3 conflict; without them the merge is both sides'
// edits, byte for byte when written; a preference takes its side.
func TestMergeRandomEdits(t *testing.T) {
	base := readLargest(t)
	n := len(intParams(base))
	for seed := int64(1); seed <= 3; seed++ {
		r := rand.New(rand.NewSource(seed))
		perm := r.Perm(n)[:28]
		make3 := func(conflicts bool) (ours, theirs, both, po, pt *ParameterIO) {
			ours, theirs, both, po, pt = base.Clone(), base.Clone(), base.Clone(), base.Clone(), base.Clone()
			pO, pT, pB, pPO, pPT := intParams(ours), intParams(theirs), intParams(both), intParams(po), intParams(pt)
			for i, k := range perm {
				v := pO[k].Value.(int32)
				switch {
				case i < 10:
					pO[k].Value, pB[k].Value, pPO[k].Value, pPT[k].Value = v+1, v+1, v+1, v+1
				case i < 20:
					pT[k].Value, pB[k].Value, pPO[k].Value, pPT[k].Value = v+2, v+2, v+2, v+2
				case i < 25:
					pO[k].Value, pT[k].Value, pB[k].Value, pPO[k].Value, pPT[k].Value = v+3, v+3, v+3, v+3, v+3
				case conflicts:
					pO[k].Value, pT[k].Value, pPO[k].Value, pPT[k].Value = v+4, v+5, v+4, v+5
				}
			}
			return
		}
		ours, theirs, both, _, _ := make3(false)
		got, conflicts, err := Merge(base, ours, theirs, change.NoPreference)
		if err != nil || len(conflicts) != 0 {
			t.Fatalf("seed %d: %v %d conflicts", seed, err, len(conflicts))
		}
		x, err1 := ToJSON(got)
		y, err2 := ToJSON(both)
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
			t.Fatalf("seed %d: merge differs from both edits applied", seed)
		}
		if x, err1 = got.BytesCanonical(); err1 == nil {
			y, err1 = both.BytesCanonical()
		}
		if err1 != nil || !bytes.Equal(x, y) {
			t.Fatalf("seed %d: merged file differs from both edits applied (%v)", seed, err1)
		}
		ours, theirs, _, po, pt := make3(true)
		got, conflicts, _ = Merge(base, ours, theirs, change.NoPreference)
		if got != nil || len(conflicts) != 3 {
			t.Fatalf("seed %d: %d conflicts, want 3", seed, len(conflicts))
		}
		for _, c := range conflicts {
			if !bytes.Contains(c.Ours, []byte(`"type":"int"`)) || slices.Equal(c.Ours, c.Theirs) || c.Base == nil {
				t.Fatalf("seed %d: conflict %s", seed, c.AppendText(nil))
			}
		}
		for _, tc := range []struct {
			prefer change.Prefer
			want   *ParameterIO
		}{{change.Ours, po}, {change.Theirs, pt}} {
			got, conflicts, _ = Merge(base, ours, theirs, tc.prefer)
			x, _ := ToJSON(got)
			y, _ := ToJSON(tc.want)
			if len(conflicts) != 3 || !bytes.Equal(x, y) {
				t.Fatalf("seed %d prefer %d: wrong result", seed, tc.prefer)
			}
		}
	}
}

func TestMergeAddRemove(t *testing.T) {
	obj := func(name string, ps ...Parameter) *ParameterObject {
		return &ParameterObject{Name: NameOf(name), Params: ps}
	}
	p := func(name string, v int32) Parameter { return Parameter{Name: NameOf(name), Type: TypeInt, Value: v} }
	base := &ParameterIO{Type: "xml", Root: ParameterList{Name: NameOf("param_root"), Objects: []*ParameterObject{obj("A", p("x", 1), p("y", 2))}}}
	ours, theirs := base.Clone(), base.Clone()
	ours.Root.Objects[0].Params = ours.Root.Objects[0].Params[:1]                    // removes y
	theirs.Root.Objects[0].Params = append(theirs.Root.Objects[0].Params, p("z", 3)) // adds z
	theirs.Root.Objects = append(theirs.Root.Objects, obj("B"))                      // adds B
	got, conflicts, err := Merge(base, ours, theirs, change.NoPreference)
	if err != nil || len(conflicts) != 0 {
		t.Fatalf("%v %d conflicts", err, len(conflicts))
	}
	want := &ParameterIO{Type: "xml", Root: ParameterList{Name: NameOf("param_root"), Objects: []*ParameterObject{obj("A", p("x", 1), p("z", 3)), obj("B")}}}
	x, _ := ToJSON(got)
	y, _ := ToJSON(want)
	if !bytes.Equal(x, y) {
		t.Fatalf("merged\n%s\nwant\n%s", x, y)
	}
	// Removed on one side, changed on the other: a conflict with no value for ours.
	theirs = base.Clone()
	theirs.Root.Objects[0].Params[1].Value = int32(9)
	_, conflicts, _ = Merge(base, ours, theirs, change.NoPreference)
	if len(conflicts) != 1 || conflicts[0].Ours != nil || conflicts[0].Base == nil || conflicts[0].Theirs == nil {
		t.Fatalf("conflicts %v", conflicts)
	}
}

// MergeSettling takes each conflict's own side: x for ours, y for theirs and the reverse,
// and no archive while one is open.
func TestMergeSettlingEach(t *testing.T) {
	p := func(name string, v int32) Parameter { return Parameter{Name: NameOf(name), Type: TypeInt, Value: v} }
	io := func(x, y int32) *ParameterIO {
		return &ParameterIO{Type: "xml", Root: ParameterList{Name: NameOf("param_root"),
			Objects: []*ParameterObject{{Name: NameOf("A"), Params: []Parameter{p("x", x), p("y", y)}}}}}
	}
	base, ours, theirs := io(1, 2), io(10, 20), io(100, 200)
	for _, c := range []struct {
		choices []change.Prefer
		x, y    int32
	}{
		{[]change.Prefer{change.Ours, change.Theirs}, 10, 200},
		{[]change.Prefer{change.Theirs, change.Ours}, 100, 20},
	} {
		got, conflicts, err := MergeSettling(base, ours, theirs, change.Each(c.choices, change.NoPreference))
		if err != nil || got == nil || len(conflicts) != 2 {
			t.Fatalf("%v: %v, %d conflicts", c.choices, err, len(conflicts))
		}
		ps := got.Root.Objects[0].Params
		// The names are in no names table: the steps are their hashes.
		if ps[0].Value != c.x || ps[1].Value != c.y || conflicts[0].Path.String() != "param_root/0xd3d99e8b/0x8cdc1683" || conflicts[1].Path.String() != "param_root/0xd3d99e8b/0xfbdb2615" {
			t.Errorf("%v: x %v, y %v, conflicts at %s %s; want %d, %d", c.choices, ps[0].Value, ps[1].Value, conflicts[0].Path, conflicts[1].Path, c.x, c.y)
		}
	}
	if got, _, _ := MergeSettling(base, ours, theirs, change.Each([]change.Prefer{change.Ours}, change.NoPreference)); got != nil {
		t.Error("a conflict left open gave an archive")
	}
}
