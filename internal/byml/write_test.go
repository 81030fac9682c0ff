package byml

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
)

// firstDiff describes where two byte slices first differ.
func firstDiff(a, b []byte) string {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return fmt.Sprintf("first difference at 0x%x (got %02x, want %02x); lengths %d and %d", i, a[i], b[i], len(a), len(b))
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(a), len(b))
}

func TestCorpusPreserve(t *testing.T) {
	same := map[bool]int{}
	for _, f := range corpusFiles(t) {
		doc, err := Read(f.data)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if !doc.Preserved() {
			t.Errorf("%s: recorded layout does not fit the unedited tree", f.name)
			continue
		}
		out, err := doc.Bytes()
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if !bytes.Equal(out, f.data) {
			t.Errorf("%s: preserve write differs: %s", f.name, firstDiff(out, f.data))
			continue
		}
		same[f.nintendo]++
	}
	t.Logf("byte-identical: %d Nintendo documents, %d re-saved by a third-party tool", same[true], same[false])
}

func TestCorpusCanonical(t *testing.T) {
	for _, f := range corpusFiles(t) {
		doc, err := Read(f.data)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		out, err := doc.BytesCanonical()
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		back, err := Read(out)
		if err != nil {
			t.Fatalf("%s: canonical output does not read back: %v", f.name, err)
		}
		if !Equal(back.Root, doc.Root) || back.Version != doc.Version || back.BigEndian != doc.BigEndian {
			t.Errorf("%s: canonical output reads back different", f.name)
		}
		// The canonical layout is a fixed point: its own output lays out the same.
		again, err := back.BytesCanonical()
		if err != nil || !bytes.Equal(again, out) {
			t.Errorf("%s: canonical layout of the canonical output differs (%v)", f.name, err)
		}
		same := bytes.Equal(out, f.data)
		reason, exception := canonicalExceptions[f.name]
		switch {
		case !same && !exception:
			t.Errorf("%s: canonical layout differs from the file: %s", f.name, firstDiff(out, f.data))
		case same && exception:
			t.Errorf("%s: listed as a canonical exception (%s) but the canonical layout reproduces it", f.name, reason)
		case exception:
			t.Logf("%s: canonical layout differs as expected (%s): %s", f.name, reason, firstDiff(out, f.data))
		}
	}
}

// canonicalExceptions are the corpus files whose bytes the canonical layout does not
// reproduce, and why. Every other file, including all but three of Tears of the Kingdom's
// own files, comes out of BytesCanonical byte for byte.
var canonicalExceptions = map[string]string{
	"A-1_Dynamic.byml":                           botwOrder,
	"ActorInfo.product.byml":                     botwOrder,
	"ActorInfo.product.sbyml":                    botwOrder,
	"EventInfo.product.byml":                     botwOrder,
	"LevelSensor.byml":                           botwOrder,
	"MainFieldStatic.byml":                       botwOrder,
	"USen.byml":                                  "shares most equal containers but not all of them",
	"totk/Tag.Product.120.rstbl.byml.zs":         rstbOrder,
	"totk-resaved/Tag.Product.120.rstbl.byml.zs": rstbOrder,
	"totk/Accessory_Battery+Component+Blackboard+BlackboardParamTable+Accessory.engine__component__BlackboardParamTable.bgyml": noSharing,
	"totk/Armor_006_Upper+Phive+ClothReaction+Belt.phive__ClothReaction.bgyml":                                                 noSharing,
	"totk-resaved/Armor_006_Upper.pack.zs:1":                                                                                   noSharing,
	"totk-resaved/A-4_Static.bcett.byml.zs":                                                                                    "third-party writer: big values after their container, containers shared",
}

const (
	botwOrder = "Breath of the Wild's writer orders a container's child containers by something the tree does not hold (not key order)"
	rstbOrder = "the resource-size-table tool writes big values right after their container"
	noSharing = "this writer did not share equal containers"
)

func TestWriteRejects(t *testing.T) {
	cyc := NewArray()
	cyc.Items = append(cyc.Items, NewHash())
	cyc.Items[0].Set("self", cyc)
	unsorted := NewHash()
	unsorted.Entries = []Entry{{Key: "b", Value: NewInt(1)}, {Key: "a", Value: NewInt(2)}}
	for _, tc := range []struct {
		doc  *Document
		want string
	}{
		{&Document{Version: 0, Root: NewArray()}, "cannot write version 0"},
		{&Document{Version: 8, Root: NewArray()}, "cannot write version 8"},
		{&Document{Version: 2, Root: NewInt(1)}, "root is int, must be a container"},
		{&Document{Version: 2, Root: NewArray(NewInt(1), nil)}, "root[1]: nil node"},
		{&Document{Version: 2, Root: cyc}, "root[0].self: container contains itself"},
		{&Document{Version: 2, Root: NewArray(NewArray(NewString("a\x00b")))}, `root[0][0]: string "a\x00b" contains NUL`},
		{&Document{Version: 7, Root: NewArray(NewFile(nil, 3))}, "alignment 3 is not a power of two"},
		{&Document{Version: 7, Root: &Node{Kind: HashMap32, Entries: []Entry{{Hash: 1 << 32, Value: NewNull()}}}}, "does not fit 32 bits"},
		{&Document{Version: 2, Root: NewArray(unsorted)}, `root[0]: key "a" after "b": hash keys must be sorted`},
	} {
		_, err := tc.doc.Bytes()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want an error containing %q", err, tc.want)
		}
	}
}

// TestCanonicalNewDocument builds a document from nothing, with every kind, and checks the
// canonical layout: tables, big values, then containers, equal containers shared, equal big
// values not.
func TestCanonicalNewDocument(t *testing.T) {
	leaf := func() *Node { return NewArray(NewInt(1), NewFloat(2)) }
	root := NewHash()
	root.Set("b", leaf())
	root.Set("a", leaf())
	root.Set("u1", NewUInt64(7))
	root.Set("u2", NewUInt64(7))
	root.Set("s", NewString("text"))
	root.Set("f", NewFile([]byte{1, 2, 3}, 0x20))
	for _, be := range []bool{false, true} {
		doc := &Document{Version: 7, BigEndian: be, Root: root}
		out, err := doc.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Read(out)
		if err != nil {
			t.Fatal(err)
		}
		if p := diffPath(back.Root, root, "root"); p != "" {
			t.Fatalf("be=%v: differs at %s", be, p)
		}
		if back.Root.Get("a") != back.Root.Get("b") {
			t.Errorf("be=%v: equal arrays not shared", be)
		}
		if back.Root.Get("u1") == back.Root.Get("u2") {
			t.Errorf("be=%v: equal u64 values shared", be)
		}
		l := back.layout
		if l.keyOff != 0x10 || uint64(l.strOff) != alignUp(uint64(l.keys.end()), 4) {
			t.Errorf("be=%v: tables at 0x%x and 0x%x", be, l.keyOff, l.strOff)
		}
		// File data starts on its alignment.
		for _, s := range l.slots {
			if s.node.Kind == File && (s.off+8)%0x20 != 0 {
				t.Errorf("be=%v: file data at 0x%x, not 0x20-aligned", be, s.off+8)
			}
		}
		// Big values come before every container.
		lastBig, firstCont := uint32(0), uint32(math.MaxUint32)
		for _, s := range l.slots {
			if s.node.Kind.IsContainer() {
				firstCont = min(firstCont, s.off)
			} else {
				lastBig = max(lastBig, s.off)
			}
		}
		if lastBig > firstCont {
			t.Errorf("be=%v: a big value at 0x%x after a container at 0x%x", be, lastBig, firstCont)
		}
		if !back.Preserved() {
			t.Errorf("be=%v: re-read canonical file does not preserve", be)
		}
		again, _ := back.Bytes()
		if !bytes.Equal(again, out) {
			t.Errorf("be=%v: canonical file does not reproduce itself", be)
		}
	}
}

// TestMarshalConcurrent writes one document from several goroutines (run with -race).
func TestMarshalConcurrent(t *testing.T) {
	for _, f := range corpusFiles(t) {
		if f.name != "A-1_Dynamic.byml" {
			continue
		}
		doc, err := Read(f.data)
		if err != nil {
			t.Fatal(err)
		}
		errs := make(chan error, 4)
		for range 4 {
			go func() {
				out, err := doc.Bytes()
				if err == nil && !bytes.Equal(out, f.data) {
					err = fmt.Errorf("concurrent Bytes differs: %s", firstDiff(out, f.data))
				}
				errs <- err
			}()
		}
		for range 4 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	t.Fatal("A-1_Dynamic.byml not in the corpus")
}

// TestPreserveOddLayouts: layouts no canonical writer makes still come back byte for byte
// (trailing padding, unused and unsorted strings, gaps), and a file whose nodes overlap,
// which no layout can reproduce from the model, is written canonically instead.
func TestPreserveOddLayouts(t *testing.T) {
	for _, tc := range []struct {
		name     string
		data     []byte
		preserve bool
	}{
		{"trailing padding", file(hdr(0, 0, 0x10), 0x1C0, 0xD1, 5, 0, 0, 0), true},
		{"unused and unsorted strings", file(hdr(0, 0x10, 0x2C), 0x3C2, 0x14, 0x16, 0x18, 0x1A, "z\x00a\x00q\x00\x00\x00", 0x1C0, 0xA0, 1), true},
		{"gap before a node", file(hdr(0, 0, 0x18), 0, 0, 0x1C0, 0xD1, 5), true},
		// A binary whose bytes hold an empty array the root also refers to.
		{"overlapping nodes", file(hdr(0, 0, 0x10), 0x2C0, 0xC0A1, 0x20, 0x24, 8, 0xC0, 0), false},
	} {
		doc, err := Read(tc.data)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if doc.Preserved() != tc.preserve {
			t.Fatalf("%s: Preserved() = %v", tc.name, doc.Preserved())
		}
		out, err := doc.Bytes()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if tc.preserve && !bytes.Equal(out, tc.data) {
			t.Fatalf("%s: %s", tc.name, firstDiff(out, tc.data))
		}
		back, err := Read(out)
		if err != nil || !Equal(back.Root, doc.Root) {
			t.Fatalf("%s: output reads back different (%v)", tc.name, err)
		}
	}
}
