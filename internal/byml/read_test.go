package byml

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
)

// raw builds a little-endian file from words: each int is a u32, each string raw bytes.
func raw(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch v := p.(type) {
		case int:
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		case string:
			b = append(b, v...)
		}
	}
	return b
}

// hdr is a version-2 little-endian header with the three offsets.
func hdr(keys, strs, root int) []any { return []any{"YB\x02\x00", keys, strs, root} }

func file(h []any, rest ...any) []byte { return raw(append(h, rest...)...) }

func TestReadRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"short", []byte("YB\x02\x00"), "header needs 16"},
		{"magic", raw("XX\x02\x00", 0, 0, 0), "magic"},
		{"version 0", raw("YB\x00\x00", 0, 0, 0), "version 0"},
		{"version 8", raw("YB\x08\x00", 0, 0, 0), "version 8"},
		{"root past end", file(hdr(0, 0, 0x100)), "root node at 0x100: offset is past the end"},
		{"root not container", file(hdr(0, 0, 0x10), 0xD1), "not a container"},
		{"key table type", file(hdr(0x10, 0, 0), 0xC1), "key table at 0x10: type is 0xc1"},
		{"key table count", file(hdr(0x10, 0, 0), 0xFFFFFFC2), "16777215 strings need"},
		{"string offsets decrease", file(hdr(0, 0x10, 0), 0x2C2, 0x14, 0x10, 0x18, "ab\x00\x00cd\x00\x00"), "ends (0x10) before it starts (0x14)"},
		{"string without NUL", file(hdr(0, 0x10, 0), 0x1C2, 0xC, 0xE, "abcd"), "has no NUL"},
		{"array count huge", file(hdr(0, 0, 0x10), 0xFFFFFFC0), "16777215 entries need"},
		{"hash count huge", file(hdr(0, 0, 0x10), 0x00FFFFC1, 0), "entries need"},
		{"unknown child type", file(hdr(0, 0, 0x10), 0x1C0, 0x77, 0), "unknown type 0x77"},
		{"string index", file(hdr(0, 0, 0x10), 0x1C0, 0xA0, 0), "string index 0 out of range (table has 0)"},
		{"key index", file(hdr(0x10, 0, 0x20), 0x1C2, 0xC, 0xE, "a\x00\x00\x00", 0x1C1, 0xD1000005, 1), "key index 5 out of range (table has 1)"},
		{"cycle", file(hdr(0, 0, 0x10), 0x1C0, 0xC0, 0x10), "contains itself (cycle)"},
		{"indirect cycle", file(hdr(0, 0, 0x10), 0x1C0, 0xC0, 0x1C, 0x1C0, 0xC0, 0x10), "contains itself (cycle)"},
		{"offset into header", file(hdr(0, 0, 0x10), 0x1C0, 0xC0, 0x4), "outside the file"},
		{"offset past end", file(hdr(0, 0, 0x10), 0x1C0, 0xD4, 0x1000), "outside the file"},
		{"int64 truncated", file(hdr(0, 0, 0x10), 0x1C0, 0xD4, 0x1C, 0), "runs past the end"},
		{"binary too long", file(hdr(0, 0, 0x10), 0x1C0, 0xA1, 0x1C, 0x7FFFFFFF), "binary of 2147483647 bytes"},
		{"file data too long", file(hdr(0, 0, 0x10), 0x1C0, 0xA2, 0x1C, 100, 4), "file data of 100 bytes"},
		{"file alignment", file(hdr(0, 0, 0x10), 0x1C0, 0xA2, 0x1C, 0, 448), "at 0x20: file alignment 448 is not a power of two"},
		{"type byte mismatch", file(hdr(0, 0, 0x10), 0x1C0, 0xC1, 0x1C, 0x0C0), "parent says 0xc1"},
		{"kind mismatch", file(hdr(0, 0, 0x10), 0x2C0, 0xD5D4, 0x1C, 0x1C, 0, 0), "referenced as int64 and as uint64"},
	} {
		_, err := Read(tc.data)
		var fe *FormatError
		if err == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want a FormatError containing %q", tc.name, err, tc.want)
		}
	}
}

func TestReadDepthLimit(t *testing.T) {
	// maxDepth+1 arrays, each holding the next one.
	parts := hdr(0, 0, 0x10)
	for i := 0; i <= maxDepth; i++ {
		parts = append(parts, 0x1C0, 0xC0, 0x10+12*(i+1))
	}
	parts = append(parts, 0xC0)
	_, err := Read(raw(parts...))
	if err == nil || !strings.Contains(err.Error(), "nest deeper than 1024") {
		t.Fatalf("got %v, want the depth error", err)
	}
}

// TestReadSharing checks that two references to one offset give one *Node, and that
// Bytes writes the sharing back.
func TestReadSharing(t *testing.T) {
	data := file(hdr(0, 0, 0x10), 0x2C0, 0xC0C0, 0x20, 0x20, 0x1C0, 0xD1, 7)
	doc, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Root.Items) != 2 || doc.Root.Items[0] != doc.Root.Items[1] {
		t.Fatalf("shared array read as %v", doc.Root.Items)
	}
	if got := doc.Root.Items[0].Items[0].IntValue(); got != 7 {
		t.Fatalf("shared array holds %d, want 7", got)
	}
	out, err := doc.Bytes()
	if err != nil || string(out) != string(data) {
		t.Fatalf("Bytes = %x, %v; want %x", out, err, data)
	}
}

// TestReadOddOffsets reads containers at offsets that are not a multiple of 4, which the
// reader keeps apart from the aligned ones: two references to one still give one *Node that
// Bytes writes back in its place, and a container holding itself is still a cycle.
func TestReadOddOffsets(t *testing.T) {
	// 0x10: root array of 2, both the array at 0x21; 0x20: a zero byte; 0x21: array [int 7].
	data := raw("YB\x02\x00", 0, 0, 0x10, 0x2C0, 0xC0C0, 0x21, 0x21, "\x00", 0x1C0, 0xD1, 7)
	doc, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Root.Items) != 2 || doc.Root.Items[0] != doc.Root.Items[1] {
		t.Fatalf("shared array at 0x21 read as %v", doc.Root.Items)
	}
	if got := doc.Root.Items[0].Items[0].IntValue(); got != 7 {
		t.Fatalf("shared array holds %d, want 7", got)
	}
	if out, err := doc.Bytes(); err != nil || !bytes.Equal(out, data) {
		t.Fatalf("Bytes = % x, %v; want % x", out, err, data)
	}
	// 0x10: root array [the array at 0x1D]; 0x1C: a zero byte; 0x1D: an array holding itself.
	cycle := raw("YB\x02\x00", 0, 0, 0x10, 0x1C0, 0xC0, 0x1D, "\x00", 0x1C0, 0xC0, 0x1D)
	_, err = Read(cycle)
	if want := "byml: array at 0x1d: array contains itself (cycle)"; err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// TestReadMembersApart grows containers that Read gave their members from one block: each
// keeps its own, and an append to one leaves the next container as it was.
func TestReadMembersApart(t *testing.T) {
	data := raw("YB\x02\x00", 0x10, 0, 0x24,
		0x2C2, 0x10, 0x12, 0x14, "a\x00b\x00", // 0x10: keys "a", "b"
		0x4C0, 0xC0C0C1C1, 0x3C, 0x48, 0x54, 0x60, // 0x24: root array of 4
		0x1C1, 0xD1000000, 1, // 0x3C: {a: 1}
		0x1C1, 0xD1000001, 2, // 0x48: {b: 2}
		0x1C0, 0xD1, 1, // 0x54: [1]
		0x1C0, 0xD1, 2, // 0x60: [2]
	)
	doc, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	h1, h2, a1, a2 := doc.Root.Items[0], doc.Root.Items[1], doc.Root.Items[2], doc.Root.Items[3]
	h1.Set("c", NewInt(3))
	a1.Items = append(a1.Items, NewInt(9))
	if len(h2.Entries) != 1 || h2.Entries[0].Key != "b" || h2.Entries[0].Value.IntValue() != 2 {
		t.Errorf("the second hash is %v after a Set on the first", h2.Entries)
	}
	if len(a2.Items) != 1 || a2.Items[0].IntValue() != 2 {
		t.Errorf("the second array is %v after an append to the first", a2.Items)
	}
	if h1.Get("a").IntValue() != 1 || h1.Get("c").IntValue() != 3 || len(a1.Items) != 2 || a1.Items[0].IntValue() != 1 {
		t.Errorf("the grown containers are %v and %v", h1.Entries, a1.Items)
	}
}

// TestReadExpansionBomb builds arrays that each refer twice to the next: 40 levels are 2^40
// nodes once expanded. The text forms refer to shared nodes instead of repeating them, so
// the document is small, reads, and its JSON and YAML stay small and read back shared.
func TestReadExpansionBomb(t *testing.T) {
	parts := hdr(0, 0, 0x10)
	const levels = 40
	for i := 0; i < levels; i++ {
		next := 0x10 + 16*(i+1)
		parts = append(parts, 0x2C0, 0xC0C0, next, next)
	}
	parts = append(parts, 0xC0)
	data := raw(parts...)
	doc, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	j, err := doc.ToJSON()
	if err != nil || len(j) > 4*len(data) {
		t.Fatalf("JSON of %d bytes from %d: %v", len(j), len(data), err)
	}
	y, err := doc.ToYAML()
	if err != nil || len(y) > 4*len(data) {
		t.Fatalf("YAML of %d bytes from %d: %v", len(y), len(data), err)
	}
	fj, err := FromJSON(j)
	if err != nil || !Equal(fj.Root, doc.Root) || fj.Root.Items[0] != fj.Root.Items[1] {
		t.Fatalf("JSON reads back unshared or different: %v", err)
	}
	fy, err := FromYAML(y)
	if err != nil || !Equal(fy.Root, doc.Root) || fy.Root.Items[0] != fy.Root.Items[1] {
		t.Fatalf("YAML reads back unshared or different: %v", err)
	}
	fj.Version = 2
	if out, err := fj.BytesCanonical(); err != nil || !bytes.Equal(out, data) {
		t.Fatalf("JSON's document writes %d bytes (%v), want the file", len(out), err)
	}

	// One 8000-byte string referenced from 2000 array slots: 16 MB of text from 18 kB.
	long := strings.Repeat("a", 8000) + "\x00"
	parts = hdr(0, 0x10, 0x10+12+len(long))
	parts = append(parts, 0x1C2, 0xC, 0xC+len(long), long, 0x7D0C0)
	parts = append(parts, strings.Repeat("\xA0", 2000))
	for i := 0; i < 2000; i++ {
		parts = append(parts, 0)
	}
	_, err = Read(raw(parts...))
	if err == nil || !strings.Contains(err.Error(), "document at 0x0: its text form would weigh over 292624 (strings repeated at every use), too much for a 18033-byte input") {
		t.Fatalf("string bomb: got %v, want the expansion error", err)
	}
}

// TestExpansionRatio measures how far the corpus's shared subtrees expand, per input byte,
// against the bound Read enforces.
func TestExpansionRatio(t *testing.T) {
	worst, worstName := 0.0, ""
	for _, f := range corpusFiles(t) {
		doc, counted, err := read(f.data)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		n := weight(doc.Root, 1<<62)
		// Read counts the weight as it decodes; it must be the weight of the tree it made.
		if counted != n {
			t.Errorf("%s: Read counted weight %d, the tree weighs %d", f.name, counted, n)
		}
		if r := float64(n) / float64(len(f.data)); r > worst {
			worst, worstName = r, f.name
		}
	}
	t.Logf("largest expansion: weight %.3f per input byte (%s); Read allows %d", worst, worstName, maxExpansion)
	if worst*2 > maxExpansion {
		t.Errorf("corpus expands to weight %.3f per byte, within 2x of the bound %d: raise it", worst, maxExpansion)
	}
}

func TestReadEmptyAndVersions(t *testing.T) {
	for v := 1; v <= 7; v++ {
		for _, magic := range []string{"YB", "BY"} {
			data := []byte(magic + "\x00\x00" + strings.Repeat("\x00", 12))
			if magic == "YB" {
				data[2] = byte(v)
			} else {
				data[3] = byte(v)
			}
			doc, err := Read(data)
			if err != nil {
				t.Fatalf("v%d %s: %v", v, magic, err)
			}
			if doc.Root != nil || int(doc.Version) != v || doc.BigEndian != (magic == "BY") {
				t.Fatalf("v%d %s: read %+v", v, magic, doc)
			}
			out, err := doc.Bytes()
			if err != nil || string(out) != string(data) {
				t.Fatalf("v%d %s: Bytes = %x, %v", v, magic, out, err)
			}
		}
	}
}

// TestReadHashMap64AndFile reads a hand-made version 7 file with the node types no corpus file
// has: a 0x21 hash map (8-byte hash, 4-byte value, then the type bytes) holding a 0x20 hash map
// and 0xA2 file data (size, alignment, data on its alignment).
func TestReadHashMap64AndFile(t *testing.T) {
	// Header (0x10), then the file data at 0x18 so that its bytes start at 0x20.
	data := raw("YB\x07\x00", 0, 0, 0x30,
		0, 0, // 0x10: padding before the file data
		3, 0x10, // 0x18: size, alignment
		"abc\x00", 0, 0, 0, // 0x20: data, padding to 0x30
		// 0x30: hash map 64 with 2 entries: (1, file at 0x18) and (2^64-1, hash map 32 at 0x50)
		0x221, 1, 0, 0x18, -1, -1, 0x50, "\xA2\x20\x00\x00",
		// 0x50: hash map 32 with 1 entry: (7, int 5)
		0x120, 7, 5, "\xD1\x00\x00\x00",
	)
	doc, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	r := doc.Root
	if r.Kind != HashMap64 || len(r.Entries) != 2 || r.Entries[0].Hash != 1 || r.Entries[1].Hash != math.MaxUint64 {
		t.Fatalf("root %+v", r)
	}
	f := r.GetHash(1)
	if f.Kind != File || f.Align != 0x10 || string(f.Data) != "abc" {
		t.Fatalf("file %+v", f)
	}
	h := r.GetHash(math.MaxUint64)
	if h.Kind != HashMap32 || h.GetHash(7).IntValue() != 5 {
		t.Fatalf("hash map 32 %+v", h)
	}
	out, err := doc.Bytes()
	if err != nil || !bytes.Equal(out, data) {
		t.Fatalf("preserve: %v %s", err, firstDiff(out, data))
	}
	// The canonical layout puts the file data first, on its alignment, then the containers
	// 4-aligned right after it: the same bytes up to the data, the root at 0x24.
	canon, err := doc.BytesCanonical()
	if err != nil {
		t.Fatal(err)
	}
	want := append(bytes.Clone(data[:0x23]), 0)
	binary.LittleEndian.PutUint32(want[0xC:], 0x24)
	if !bytes.Equal(canon[:0x24], want) || len(canon) != 0x24+30+2+13 {
		t.Fatalf("canonical: %s, length %d", firstDiff(canon[:0x24], want), len(canon))
	}
	back, err := Read(canon)
	if err != nil || !Equal(back.Root, doc.Root) {
		t.Fatalf("canonical reads back: %v", err)
	}
}

// TestReadOrphans reads a file whose gaps hold containers nothing refers to (as the tool
// behind Super Mario Odyssey's v1 stage files leaves them): they come back at their offsets,
// the tree does not hold them, and an edit that changes the layout drops them.
func TestReadOrphans(t *testing.T) {
	// 0x10: root array [int 7]; 0x1C: an orphan empty hash; 0x20: an orphan array holding
	// the array at 0x30; 0x2C: zero padding; 0x30: the orphan's child.
	data := raw("YB\x01\x00", 0, 0, 0x10,
		0x1C0, 0xD1, 7, // 0x10: array of 1: int 7
		0xC1,              // 0x1C: hash of 0 entries, referenced by nothing
		0x1C0, 0xC0, 0x30, // 0x20: array of 1 holding the array at 0x30
		0,                            // 0x2C: padding
		0x2C0, 0xD0D2, 0x3F800000, 1, // 0x30: array of 2: float 1, bool true
	)
	doc, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Root.Items) != 1 || doc.Root.Items[0].IntValue() != 7 {
		t.Fatalf("root %+v", doc.Root)
	}
	if got := len(doc.layout.slots) - doc.layout.reached; got != 3 {
		t.Fatalf("%d unreferenced containers recorded, want 3", got)
	}
	out, err := doc.Bytes()
	if err != nil || !bytes.Equal(out, data) {
		t.Fatalf("Bytes = % x, %v; want the file", out, err)
	}
	doc.Root.Items = append(doc.Root.Items, NewInt(8))
	out, err = doc.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if want := raw("YB\x01\x00", 0, 0, 0x10, 0x2C0, 0xD1D1, 7, 8); !bytes.Equal(out, want) {
		t.Fatalf("after an edit: % x, want % x", out, want)
	}
	// A gap word that is not a container stops the scan of that gap: what follows is not
	// kept, and nothing half-read stays behind.
	bad := raw("YB\x01\x00", 0, 0, 0x10,
		0x1C0, 0xD1, 7,
		0x1C0, 0xC0, 0x1000, // 0x1C: an array whose child is past the end
		0xC1, // 0x28: would read, but the gap is given up at 0x1C
	)
	doc, err = Read(bad)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(doc.layout.slots) - doc.layout.reached; got != 0 {
		t.Fatalf("%d unreferenced containers kept from a bad gap", got)
	}
	out, _ = doc.Bytes()
	if want := raw("YB\x01\x00", 0, 0, 0x10, 0x1C0, 0xD1, 7, 0, 0, 0, 0); !bytes.Equal(out, want) {
		t.Fatalf("bad gap: % x, want % x", out, want)
	}
}
