package byml

import (
	"bytes"
	"testing"
)

// An unedited tree grafted onto its file gives the file's bytes, for every corpus document,
// although the tree came through the JSON form and holds none of the file's nodes.
func TestGraftUneditedGivesFile(t *testing.T) {
	for _, c := range corpusFiles(t) {
		orig, err := Read(c.data)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want, err := orig.Bytes()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		js, err := orig.ToJSON()
		if err != nil {
			t.Fatal(err)
		}
		edited, err := FromJSON(js)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		orig.Graft(edited)
		got, err := orig.Bytes()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: grafted unedited tree writes %d bytes unlike the file's %d", c.name, len(got), len(want))
		}
	}
}

// A value edit that fits the layout changes that value's bytes only; a node shared between
// two parents stays shared while both uses are equal and splits when one use is edited.
func TestGraftEditsAndSharing(t *testing.T) {
	shared := NewArray(NewInt(7), NewString("x"))
	root := NewArray(shared, shared, NewInt(1))
	file, err := (&Document{Version: 2, Root: root}).BytesCanonical()
	if err != nil {
		t.Fatal(err)
	}
	read := func() *Document {
		d, err := Read(file)
		if err != nil {
			t.Fatal(err)
		}
		if d.Root.Items[0] != d.Root.Items[1] {
			t.Fatal("the canonical writer did not share the equal subtrees")
		}
		return d
	}
	edit := func(f func(*Node)) *Document {
		js, err := read().ToJSON()
		if err != nil {
			t.Fatal(err)
		}
		e, err := FromJSON(js)
		if err != nil {
			t.Fatal(err)
		}
		f(e.Root)
		return e
	}

	// The last int: four bytes change, nothing else.
	orig := read()
	orig.Graft(edit(func(r *Node) { r.Items[2] = NewInt(2) }))
	if orig.Root.Items[0] != orig.Root.Items[1] {
		t.Error("an edit elsewhere split the shared node")
	}
	got, err := orig.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(file) {
		t.Fatalf("value edit: %d bytes, the file has %d", len(got), len(file))
	}
	diff := 0
	for i := range got {
		if got[i] != file[i] {
			diff++
		}
	}
	if diff != 1 {
		t.Errorf("value edit 1 -> 2 changed %d bytes, want 1", diff)
	}
	back, err := Read(got)
	if err != nil || back.Root.Items[2].Bits != 2 {
		t.Fatalf("read back: %v, %+v", err, back)
	}

	// One use of the shared node given its own value (the JSON form shares a node by
	// reference, so an edit through it would change both uses): the uses part.
	orig = read()
	orig.Graft(edit(func(r *Node) { r.Items[1] = NewArray(NewInt(8), NewString("x")) }))
	if orig.Root.Items[0] == orig.Root.Items[1] {
		t.Fatal("uses that differ still share one node")
	}
	got, err = orig.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	back, err = Read(got)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := back.Root.Items[0].Items[0].Bits, back.Root.Items[1].Items[0].Bits; a != 7 || b != 8 {
		t.Errorf("read back the two uses as %d and %d, want 7 and 8", a, b)
	}
}
