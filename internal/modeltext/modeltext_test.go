package modeltext

import (
	"math"
	"testing"
)

type leaf struct {
	Name   string
	Float  float32
	hidden int
}

// groups keeps its content unexported, as ainb.Groups does.
type groups struct{ l *[2][]int }

func (g groups) Lists() [2][]int { return *g.l }

type opaque struct{ p *int }

type tree struct {
	Groups groups
	Opaque opaque
	Leaves []leaf
	Ptr    *leaf
	Map    map[string]int
	Data   []byte
	Nil    []int
}

func TestText(t *testing.T) {
	v := tree{
		Groups: groups{&[2][]int{{7}, nil}},
		Leaves: []leaf{{Name: "a", Float: 1.5, hidden: 9}, {Name: "b\n", Float: float32(math.Copysign(0, -1))}},
		Map:    map[string]int{"z": 1, "a": 2},
		Data:   []byte{1, 0xab},
	}
	want := `Groups = len 2
Groups[0] = len 1
Groups[0][0] = 7
Groups[1] = nil
Opaque = (opaque modeltext.opaque)
Leaves = len 2
Leaves[0].Name = "a"
Leaves[0].Float = 1.5 (0x3fc00000)
Leaves[1].Name = "b\n"
Leaves[1].Float = -0 (0x80000000)
Ptr = nil
Map = len 2
Map[a] = 2
Map[z] = 1
Data = 01 ab
Nil = nil
`
	if got := string(Text(&v)); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	v.Leaves[0].hidden = 10
	if string(Text(&v)) != want {
		t.Fatal("an unexported field changed the text")
	}
}
