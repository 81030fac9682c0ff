package byml

import (
	"bytes"
	"testing"
)

// firstOf returns the first node under n (depth-first, entry order) for which ok is true,
// with a function that replaces it in its parent.
func firstOf(n *Node, ok func(*Node) bool) (*Node, func(*Node)) {
	for i, it := range n.Items {
		if ok(it) {
			return it, func(v *Node) { n.Items[i] = v }
		}
		if f, set := firstOf(it, ok); f != nil {
			return f, set
		}
	}
	for i := range n.Entries {
		e := &n.Entries[i]
		if ok(e.Value) {
			return e.Value, func(v *Node) { e.Value = v }
		}
		if f, set := firstOf(e.Value, ok); f != nil {
			return f, set
		}
	}
	return nil, nil
}

// editFiles are the corpus files the edit tests run on: BotW and TotK, v2 to v7.
var editFiles = map[string]bool{
	"A-1_Dynamic.byml": true,
	"Mrg_01e57204_MrgD100_B4-B3-B2-1A90E17A.bcett.byml":                                           true,
	"totk/A-4_Static.bcett.byml.zs":                                                               true,
	"totk/Armor_006_Upper+Component+ArmorParam+Armor_006_Upper.game__component__ArmorParam.bgyml": true,
	"USen.byml": true,
}

// TestEditInPlace changes one number: the recorded layout still fits, so the output differs
// from the original in exactly the bytes of that value.
func TestEditInPlace(t *testing.T) {
	n := 0
	for _, f := range corpusFiles(t) {
		if !editFiles[f.name] {
			continue
		}
		n++
		doc, err := Read(f.data)
		if err != nil {
			t.Fatal(err)
		}
		v, _ := firstOf(doc.Root, func(n *Node) bool { return n.Kind == Int || n.Kind == Float || n.Kind == UInt })
		if v == nil {
			t.Fatalf("%s: no number to edit", f.name)
		}
		v.Bits ^= 0x01020304
		if !doc.Preserved() {
			t.Fatalf("%s: a changed number no longer fits the recorded layout", f.name)
		}
		out, err := doc.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		var diff []int
		for i := range out {
			if out[i] != f.data[i] {
				diff = append(diff, i)
			}
		}
		if len(out) != len(f.data) || len(diff) != 4 || diff[3]-diff[0] != 3 {
			t.Fatalf("%s: edit changed bytes %v (want one 4-byte value), lengths %d/%d", f.name, diff, len(out), len(f.data))
		}
		back, err := Read(out)
		if err != nil {
			t.Fatal(err)
		}
		if !Equal(back.Root, doc.Root) {
			t.Fatalf("%s: edited file reads back different", f.name)
		}
	}
	if n != len(editFiles) {
		t.Fatalf("ran on %d files, want %d", n, len(editFiles))
	}
}

// TestEditStructure adds a key, removes an array element and changes a string to a new one.
// Each makes the recorded layout unusable: Bytes falls back to the canonical layout, and
// the file it writes reads back as exactly the edited tree (checked against an edited copy
// of the original, which must differ from the original).
func TestEditStructure(t *testing.T) {
	edits := []struct {
		name string
		edit func(t *testing.T, root *Node)
	}{
		{"add key", func(t *testing.T, root *Node) {
			h, _ := firstOf(&Node{Kind: Array, Items: []*Node{root}}, func(n *Node) bool { return n.Kind == Hash })
			if h == nil {
				t.Skip("no hash") // never for editFiles: each has one (checked by the count below)
			}
			h.Set("ZZ_added_by_test", NewUInt64(0xDEADBEEF12345678))
		}},
		{"remove element", func(t *testing.T, root *Node) {
			a, _ := firstOf(&Node{Kind: Array, Items: []*Node{root}}, func(n *Node) bool { return n.Kind == Array && len(n.Items) > 0 })
			if a == nil {
				t.Skip("no array")
			}
			a.Items = a.Items[1:]
		}},
		{"new string", func(t *testing.T, root *Node) {
			s, set := firstOf(root, func(n *Node) bool { return n.Kind == String })
			if s == nil {
				// USen.byml has no strings: its root is a hash map.
				set = func(v *Node) { root.SetHash(0xFFFFFFFF, v) }
			}
			set(NewString("a string no table has"))
		}},
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			n := 0
			for _, f := range corpusFiles(t) {
				if !editFiles[f.name] {
					continue
				}
				doc, err := Read(f.data)
				if err != nil {
					t.Fatal(err)
				}
				orig, _ := Read(f.data)
				want := doc.Root.Clone()
				// The edit goes to both the document and an independent copy.
				e.edit(t, doc.Root)
				e.edit(t, want)
				if Equal(want, orig.Root) {
					t.Fatalf("%s: edit changed nothing", f.name)
				}
				if doc.Preserved() {
					t.Fatalf("%s: recorded layout claims to fit a structural edit", f.name)
				}
				out, err := doc.Bytes()
				if err != nil {
					t.Fatalf("%s: %v", f.name, err)
				}
				canon, _ := doc.BytesCanonical()
				if !bytes.Equal(out, canon) {
					t.Fatalf("%s: fallback is not the canonical layout", f.name)
				}
				back, err := Read(out)
				if err != nil {
					t.Fatalf("%s: %v", f.name, err)
				}
				if !Equal(back.Root, want) {
					t.Fatalf("%s: read back differs from the edited tree", f.name)
				}
				if back.Version != orig.Version || back.BigEndian != orig.BigEndian {
					t.Fatalf("%s: header changed", f.name)
				}
				n++
			}
			if n != len(editFiles) {
				t.Fatalf("ran on %d files, want %d", n, len(editFiles))
			}
		})
	}
}

// TestEditSharedNode edits a container the file shares between parents: the edit shows in
// every parent, since they hold one node, and the file still writes and reads back.
func TestEditSharedNode(t *testing.T) {
	for _, f := range corpusFiles(t) {
		if f.name != "A-1_Dynamic.byml" {
			continue
		}
		doc, err := Read(f.data)
		if err != nil {
			t.Fatal(err)
		}
		// How many places each node appears in, the tree expanded (A-1_Dynamic shares
		// little, so expanding it is cheap).
		refs := map[*Node]int{}
		walkExpanded(doc.Root, func(n *Node) { refs[n]++ })
		var shared *Node
		walk(doc.Root, func(n *Node) {
			if shared == nil && n.Kind == Hash && refs[n] > 1 {
				shared = n
			}
		})
		if shared == nil {
			t.Fatal("A-1_Dynamic has no shared hash")
		}
		shared.Set("!shared_edit", NewInt(42))
		out, err := doc.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Read(out)
		if err != nil {
			t.Fatal(err)
		}
		if !Equal(back.Root, doc.Root) {
			t.Fatal("read back differs from the edited tree")
		}
		seen := 0
		walkExpanded(back.Root, func(n *Node) {
			if n.Kind == Hash && n.Get("!shared_edit") != nil {
				seen++
			}
		})
		if seen != refs[shared] {
			t.Fatalf("edit seen in %d places, the node had %d parents", seen, refs[shared])
		}
		return
	}
	t.Fatal("A-1_Dynamic.byml not in the corpus")
}

// walkExpanded calls fn at every place of the tree, a shared node once per place.
func walkExpanded(n *Node, fn func(*Node)) {
	fn(n)
	for _, it := range n.Items {
		walkExpanded(it, fn)
	}
	for _, e := range n.Entries {
		walkExpanded(e.Value, fn)
	}
}
