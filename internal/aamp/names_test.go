package aamp

import (
	"os"
	"strings"
	"testing"
)

// TestNamesList checks the generated list: sorted, unique, and each name's hash is one
// that occurs in a corpus file (the generator's promise).
func TestNamesList(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(namesTxt, "\n"), "\n")
	if len(lines) < 1000 {
		t.Fatalf("names.txt has %d names, want 1000+", len(lines))
	}
	for i := 1; i < len(lines); i++ {
		if lines[i] <= lines[i-1] {
			t.Fatalf("names.txt not sorted/unique at line %d: %q after %q", i+1, lines[i], lines[i-1])
		}
	}
	seen := map[Name]bool{}
	var namesSeen, total int
	var walk func(l *ParameterList, parent Name, idx int, nm *Namer)
	walk = func(l *ParameterList, parent Name, idx int, nm *Namer) {
		seen[l.Name] = true
		total++
		if _, ok := nm.Name(l.Name, idx, parent); ok {
			namesSeen++
		}
		for i, c := range l.Lists {
			walk(c, l.Name, i, nm)
		}
		for i, o := range l.Objects {
			seen[o.Name] = true
			total++
			if _, ok := nm.Name(o.Name, i, l.Name); ok {
				namesSeen++
			}
			for j, p := range o.Params {
				seen[p.Name] = true
				total++
				if _, ok := nm.Name(p.Name, j, o.Name); ok {
					namesSeen++
				}
			}
		}
	}
	for _, f := range corpusFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pio, err := Read(data)
		if err != nil {
			t.Fatal(err)
		}
		walk(&pio.Root, 0, 0, NewNamer(pio))
	}
	for _, l := range lines {
		if !seen[NameOf(l)] {
			t.Errorf("names.txt: %q (%#08x) occurs in no corpus file", l, uint32(NameOf(l)))
		}
	}
	t.Logf("corpus: %d of %d structure and parameter names resolve (%.1f%%)", namesSeen, total, 100*float64(namesSeen)/float64(total))
}

func TestNamerGuessesNumberedChildren(t *testing.T) {
	nm := NewNamer(&ParameterIO{Type: "xml", Root: ParameterList{Name: RootName, Objects: []*ParameterObject{
		{Name: 1, Params: []Parameter{{Name: 2, Type: TypeStringRef, Value: "MyCustomList"}}},
	}}})
	cases := []struct {
		h      Name
		idx    int
		parent Name
		want   string
	}{
		{NameOf("MyCustomList"), 0, 0, "MyCustomList"}, // from a string value
		{NameOf("xml"), 0, 0, "xml"},                   // from the type string
		{NameOf("MyCustomList_03"), 3, NameOf("MyCustomList"), "MyCustomList_03"},
		{NameOf("MyCustom7"), 6, NameOf("MyCustomList"), "MyCustom7"}, // singular, index+1
		{NameOf("Child12"), 12, NameOf("MyCustomList"), "Child12"},
		{NameOf("param_root"), 0, 0, "param_root"},
	}
	for _, c := range cases {
		got, ok := nm.Name(c.h, c.idx, c.parent)
		if !ok || got != c.want {
			t.Errorf("Name(%#08x, %d, parent) = %q, %v; want %q", uint32(c.h), c.idx, got, ok, c.want)
		}
	}
	if got, ok := nm.Name(NameOf("MyCustomList_09"), 3, NameOf("MyCustomList")); ok {
		t.Errorf("index 9 guessed at position 3: %q", got)
	}
	if got, ok := nm.Name(0xdeadbeef, 0, 0); ok {
		t.Errorf("0xdeadbeef resolved to %q", got)
	}
}
