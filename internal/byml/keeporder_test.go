package byml

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Hashes whose keys are out of order or repeat, as modding tools write them, read as
// KeepOrder hashes and come back as they were from every writer and text form.
func TestKeepOrder(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, json, warning string
		data                      []byte
	}{
		{"unsorted keys",
			"!unsorted {b: 1, a: 2}\n",
			`{"version":2,"bigEndian":false,"root":{"type":"hash","unsorted":true,"value":[["b",{"type":"int","value":1}],["a",{"type":"int","value":2}]]}}`,
			`keys are not sorted ("a" comes after "b"): the game binary-searches keys and may not find some entries. Saving keeps the entries as they are.`,
			file(hdr(0x10, 0, 0x24), 0x2C2, 0x10, 0x12, 0x14, "a\x00b\x00", 0x2C1, 0xD1000001, 1, 0xD1000000, 2)},
		{"repeated key",
			"!unsorted {a: 1, a: 2}\n",
			`{"version":2,"bigEndian":false,"root":{"type":"hash","unsorted":true,"value":[["a",{"type":"int","value":1}],["a",{"type":"int","value":2}]]}}`,
			`key "a" appears 2 times: the game binary-searches keys and may not find some entries. Saving keeps the entries as they are.`,
			file(hdr(0x10, 0, 0x20), 0x1C2, 0xC, 0xE, "a\x00\x00\x00", 0x2C1, 0xD1000000, 1, 0xD1000000, 2)},
		{"repeated hash",
			"!h-unsorted {5: 0, 5: 0}\n",
			`{"version":2,"bigEndian":false,"root":{"type":"hashmap32","unsorted":true,"value":[[5,{"type":"int","value":0}],[5,{"type":"int","value":0}]]}}`,
			`key 0x5 appears 2 times: the game binary-searches keys and may not find some entries. Saving keeps the entries as they are.`,
			file(hdr(0, 0, 0x10), 0x220, 5, 0, 5, 0, 0xD1D1)},
	} {
		doc, err := Read(tc.data)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !doc.Root.KeepOrder {
			t.Fatalf("%s: not marked KeepOrder", tc.name)
		}
		w := doc.Warnings()
		if len(w) != 1 || w[0] != (Warning{Path: "", Offset: int64(doc.layout.rootOff), Message: tc.warning}) {
			t.Fatalf("%s: warnings %#v", tc.name, w)
		}
		if out, err := doc.Bytes(); err != nil || !bytes.Equal(out, tc.data) {
			t.Fatalf("%s: Bytes: %v, %s", tc.name, err, firstDiff(out, tc.data))
		}
		// The canonical layout keeps the order too.
		canon, err := doc.BytesCanonical()
		if err != nil {
			t.Fatalf("%s: canonical: %v", tc.name, err)
		}
		back, err := Read(canon)
		if err != nil || !back.Root.KeepOrder || !Equal(back.Root, doc.Root) {
			t.Fatalf("%s: canonical file reads back as %+v, %v", tc.name, back, err)
		}
		y, err := doc.ToYAML()
		if err != nil || string(y) != tc.yaml {
			t.Fatalf("%s: YAML %q, %v; want %q", tc.name, y, err, tc.yaml)
		}
		fy, err := FromYAML(y)
		if err != nil || !fy.Root.KeepOrder || !Equal(fy.Root, doc.Root) {
			t.Fatalf("%s: YAML reads back as %+v, %v", tc.name, fy, err)
		}
		j, err := doc.ToJSON()
		if err != nil || string(j) != tc.json {
			t.Fatalf("%s: JSON %s, %v; want %s", tc.name, j, err, tc.json)
		}
		fj, err := FromJSON(j)
		if err != nil || !fj.Root.KeepOrder || !Equal(fj.Root, doc.Root) {
			t.Fatalf("%s: JSON reads back as %+v, %v", tc.name, fj, err)
		}
		if w := fj.Warnings(); len(w) != 1 || w[0].Offset != -1 || w[0].Message != tc.warning {
			t.Fatalf("%s: warnings of the JSON document %#v", tc.name, w)
		}
	}
}

// Without the mark, unsorted input is sorted and a repeated key is an error, as before; the
// mark is refused on what is not a hash. Get and Set on a KeepOrder hash take the first
// match and append new keys.
func TestKeepOrderMarkAndAccess(t *testing.T) {
	if _, err := FromYAML([]byte("{a: 1, a: 2}")); err == nil || !strings.Contains(err.Error(), `key a appears twice`) {
		t.Fatalf("unmarked repeated YAML key: %v", err)
	}
	if _, err := FromJSON([]byte(`{"root":{"type":"array","unsorted":true,"value":[]}}`)); err == nil || !strings.Contains(err.Error(), `array node with "unsorted"`) {
		t.Fatalf("unsorted array: %v", err)
	}
	doc, err := FromJSON([]byte(`{"root":{"type":"hash","value":[["b",{"type":"int","value":1}],["a",{"type":"int","value":2}]]}}`))
	if err != nil || doc.Root.KeepOrder || doc.Root.Entries[0].Key != "a" {
		t.Fatalf("unmarked JSON hash: %+v, %v", doc, err)
	}
	h := &Node{Kind: Hash, KeepOrder: true, Entries: []Entry{{Key: "b", Value: NewInt(1)}, {Key: "a", Value: NewInt(2)}, {Key: "b", Value: NewInt(3)}}}
	if v := h.Get("b"); v == nil || v.IntValue() != 1 {
		t.Fatalf("Get(b) = %+v, want the first b", v)
	}
	h.Set("b", NewInt(4))
	h.Set("c", NewInt(5))
	var got []string
	for _, e := range h.Entries {
		got = append(got, e.Key+"="+string(rune('0'+e.Value.IntValue())))
	}
	if strings.Join(got, " ") != "b=4 a=2 b=3 c=5" {
		t.Fatalf("after Set: %s", strings.Join(got, " "))
	}
	if !h.Delete("b") || h.Entries[0].Key != "a" || len(h.Entries) != 3 {
		t.Fatalf("Delete(b) removed another entry: %+v", h.Entries)
	}
}

// A key table out of order or with a key twice (the format wants it sorted and unique) still
// reads each hash's order by its keys, not by their indices in the table: entries in key order
// are sorted whatever their indices, and entries out of key order, or repeating a key, keep
// their order.
func TestKeepOrderUnsortedKeyTable(t *testing.T) {
	const saving = ": the game binary-searches it and may not find some keys. Saving keeps it while the edits keep the file's layout " +
		"(values changed in place, no container grown or shrunk, no key or string the file lacks); otherwise the table is written sorted."
	for _, tc := range []struct {
		name     string
		keep     bool
		data     []byte
		warnings []string
	}{
		// (The writer names a key by its first index, so the third file is not written back
		// byte for byte; its reading is what is tested.)
		{"keys in order, indices not", false, file(hdr(0x10, 0, 0x24), 0x2C2, 0x10, 0x12, 0x14, "b\x00a\x00", 0x2C1, 0xD1000001, 1, 0xD1000000, 2),
			[]string{`16: the key table is not sorted ("a" comes after "b")` + saving}},
		{"indices in order, keys not", true, file(hdr(0x10, 0, 0x24), 0x2C2, 0x10, 0x12, 0x14, "b\x00a\x00", 0x2C1, 0xD1000000, 1, 0xD1000001, 2),
			[]string{`16: the key table is not sorted ("a" comes after "b")` + saving,
				`36: keys are not sorted ("a" comes after "b"): the game binary-searches keys and may not find some entries. Saving keeps the entries as they are.`}},
		{"one key at two indices", true, file(hdr(0x10, 0, 0x24), 0x2C2, 0x10, 0x12, 0x14, "a\x00a\x00", 0x2C1, 0xD1000000, 1, 0xD1000001, 2),
			[]string{`16: the key table is not sorted (key "a" is in it twice)` + saving,
				`36: key "a" appears 2 times: the game binary-searches keys and may not find some entries. Saving keeps the entries as they are.`}},
	} {
		doc, err := Read(tc.data)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if doc.Root.KeepOrder != tc.keep {
			t.Errorf("%s: KeepOrder %v, want %v", tc.name, doc.Root.KeepOrder, tc.keep)
		}
		var ws []string
		for _, w := range doc.Warnings() {
			ws = append(ws, fmt.Sprintf("%d: %s", w.Offset, w.Message))
		}
		if !slices.Equal(ws, tc.warnings) {
			t.Errorf("%s: warnings\n%s\nwant\n%s", tc.name, strings.Join(ws, "\n"), strings.Join(tc.warnings, "\n"))
		}
		if out, err := doc.Bytes(); tc.name != "one key at two indices" && (err != nil || !bytes.Equal(out, tc.data)) {
			t.Errorf("%s: Bytes: %v, %s", tc.name, err, firstDiff(out, tc.data))
		}
	}
}

// What the key table's warning says saving does: a value changed in place keeps the table as
// it is, a key added writes it sorted.
func TestUnsortedKeyTableSaved(t *testing.T) {
	data := file(hdr(0x10, 0, 0x24), 0x2C2, 0x10, 0x12, 0x14, "b\x00a\x00", 0x2C1, 0xD1000001, 1, 0xD1000000, 2)
	doc, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	doc.Root.Entries[0].Value = &Node{Kind: Int, Bits: 5} // "a": 1 becomes 5, in place
	out, err := doc.Bytes()
	want := slices.Clone(data)
	want[0x2C] = 5
	if err != nil || !bytes.Equal(out, want) {
		t.Fatalf("value edited in place: %v, %s", err, firstDiff(out, want))
	}
	doc.Root.Set("c", &Node{Kind: Int, Bits: 7})
	if out, err = doc.Bytes(); err != nil {
		t.Fatal(err)
	}
	back, err := Read(out)
	if err != nil || !back.layout.keys.ascending() || strings.Join(back.layout.keys.strs, " ") != "a b c" || back.Warnings() != nil {
		t.Fatalf("key added: table %q, warnings %v, %v", back.layout.keys.strs, back.Warnings(), err)
	}
}
