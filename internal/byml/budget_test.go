package byml

import (
	"errors"
	"strings"
	"testing"

	"ainbeditor/internal/jsontext"
	"ainbeditor/internal/testalloc"
)

// The JSON, YAML and compact writers answer the whole text at its size and stop one byte short of it
// with the budget and the node's JSON Pointer; a long string is refused before it is written.
func TestTextBudget(t *testing.T) {
	long := &Node{Kind: String, Str: strings.Repeat("long ", 2000)}
	doc := &Document{Version: 2, Root: &Node{Kind: Hash, Entries: []Entry{
		{Key: "A", Value: &Node{Kind: Int, Bits: 1}},
		{Key: "B/C", Value: &Node{Kind: Array, Items: []*Node{{Kind: Int}, long}}},
	}}}
	for _, w := range []struct {
		name  string
		write func(limit int) ([]byte, error)
	}{
		{"json", func(limit int) ([]byte, error) { return doc.AppendJSON(nil, limit) }},
		{"yaml", doc.ToYAMLLimit},
		{"compact", func(limit int) ([]byte, error) { return doc.AppendCompact(nil, limit) }},
	} {
		full, err := w.write(jsontext.NoLimit)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := w.write(len(full)); err != nil || string(got) != string(full) {
			t.Errorf("%s at its own size %d: %v", w.name, len(full), err)
		}
		_, err = w.write(len(full) - 1)
		var tl *jsontext.TooLargeError
		if !errors.As(err, &tl) || tl.Limit != len(full)-1 {
			t.Errorf("%s one byte short: %v", w.name, err)
		}
		_, err = w.write(1000)
		if !errors.As(err, &tl) || tl.Limit != 1000 || tl.Where != "/B~1C/1" {
			t.Errorf("%s within 1000 bytes: %v", w.name, err)
		}
	}
}

// A chain of arrays whose every item is the next array stands for more nodes than there are
// atoms, and its text forms name each shared array once: a few bytes per item.
func TestTextOfSharedChain(t *testing.T) {
	const levels, width = 40, 1000
	next := &Node{Kind: Int, Bits: 7}
	for range levels {
		a := &Node{Kind: Array, Items: make([]*Node, width)}
		for i := range a.Items {
			a.Items[i] = next
		}
		next = a
	}
	doc := &Document{Version: 2, Root: next}
	file, err := doc.BytesCanonical()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Read(file)
	if err != nil {
		t.Fatal(err)
	}
	j, err := back.AppendJSON(nil, 4*len(file))
	if err != nil {
		t.Fatalf("a %d-byte file: %v", len(file), err)
	}
	y, err := back.ToYAMLLimit(4 * len(file))
	if err != nil {
		t.Fatalf("a %d-byte file: %v", len(file), err)
	}
	t.Logf("a %d-byte file: %d bytes of JSON, %d of YAML", len(file), len(j), len(y))
	if want := `{"type":"array","id":0,"value":[{"type":"array","id":1,"value":[`; !strings.Contains(string(j), want) {
		t.Errorf("JSON %.200s", j)
	}
}

// A thousand nested hashes under one 1,000-byte key, each with the key twice: every hash
// warns, and each path repeats the keys above it. The warnings stop once their paths hold
// a mebibyte, and the paths of the containers that do not warn are never built (they were
// half a gigabyte).
func TestWarningsOfDeepLongKeys(t *testing.T) {
	key := strings.Repeat("k", 1000)
	var n *Node = &Node{Kind: Int}
	for range 1000 {
		n = &Node{Kind: Hash, KeepOrder: true, Entries: []Entry{{Key: key, Value: n}, {Key: key, Value: &Node{Kind: Int}}}}
	}
	doc := &Document{Version: 2, Root: n}
	var ws []Warning
	alloc := testalloc.Bytes(func() { ws = doc.Warnings() })
	paths := 0
	for _, w := range ws {
		paths += len(w.Path)
	}
	last := ws[len(ws)-1].Path
	t.Logf("%d warnings, %d bytes of paths, %d bytes allocated", len(ws), paths, alloc)
	if paths-len(last) > maxWarningPaths || paths <= maxWarningPaths || len(last) != 1001*(len(ws)-1) {
		t.Errorf("%d warnings with %d bytes of paths, the last %d bytes", len(ws), paths, len(last))
	}
	if ws[1].Path != "/"+key || !strings.HasPrefix(ws[0].Message, `key "kkkk`) {
		t.Errorf("first warnings %q, %.40q", ws[1].Path, ws[0].Message)
	}
	if alloc > 4*maxWarningPaths {
		t.Errorf("the warnings allocated %d bytes", alloc)
	}
}
