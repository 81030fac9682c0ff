package graph

import (
	"bytes"
	"errors"
	"testing"

	"ainbeditor/internal/jsontext"
)

// The document's JSON comes whole at its own size; one byte short, and within a budget that
// ends inside the first node, it stops with the budget and the part it was writing.
func TestAppendJSONLimit(t *testing.T) {
	d, err := Parse("x.ainb", readCorpus(t, midFile))
	if err != nil {
		t.Fatal(err)
	}
	full := d.Encode()
	if got, err := d.AppendJSONLimit(nil, len(full)); err != nil || !bytes.Equal(got, full) {
		t.Fatalf("at its own size %d: %v", len(full), err)
	}
	var tl *jsontext.TooLargeError
	if _, err := d.AppendJSONLimit(nil, len(full)-1); !errors.As(err, &tl) || tl.Limit != len(full)-1 {
		t.Errorf("one byte short: %v", err)
	}
	limit := bytes.Index(full, []byte(`"nodes":[`)) + 20
	if _, err := d.AppendJSONLimit(nil, limit); !errors.As(err, &tl) || tl.Limit != limit || tl.Where != "node 0" {
		t.Errorf("within %d bytes: %v", limit, err)
	}
	// What the buffer held before counts too: the budget is of b's whole length.
	if _, err := d.AppendJSONLimit(make([]byte, 10), len(full)+9); !errors.As(err, &tl) {
		t.Errorf("after 10 bytes, within %d: %v", len(full)+9, err)
	}
}
