package exb

import (
	"fmt"
	"strings"
	"testing"

	"ainbeditor/internal/testalloc"
)

// A text past MaxTextSize is refused before it is read: 60 MB of it exhausted memory.
func TestTextSizeLimit(t *testing.T) {
	text := strings.Repeat("\n", MaxTextSize+1) // no .main line: readable code
	var err error
	n := testalloc.Bytes(func() { _, err = ConvertFunction(3, text, true) })
	want := fmt.Sprintf("line 1: the text is %d bytes, more than the %d a function may hold", MaxTextSize+1, MaxTextSize)
	if err == nil || err.Error() != want {
		t.Fatalf("ConvertFunction: %v, want %q", err, want)
	}
	if n > 4<<10 {
		t.Errorf("refusing allocated %d bytes", n)
	}
	m := &Module{Version: 3, Functions: []Function{{}}}
	if err := m.SetFunctionSource(0, text); err == nil || err.Error() != want {
		t.Errorf("SetFunctionSource: %v", err)
	}
	if _, err := AssembleSources(3, []string{"", text}); err == nil || err.Error() != "exb: function 1: "+want {
		t.Errorf("AssembleSources: %v", err)
	}
}

// An assignment of more operations than a block may hold instructions is refused as its
// chain is flattened, not after a chain of them was built: a 4 MB "1+1+..." allocated
// 5.5 GB, 1,320 times the text; now about 360 times, the lexing and parsing of its line.
func TestLongChainRefusedEarly(t *testing.T) {
	text := "LMem32[0x0] = " + strings.Repeat("1+", maxSourceStmts+1) + "1\n"
	var err error
	n := testalloc.Bytes(func() { _, err = ConvertFunction(3, text, true) })
	want := fmt.Sprintf("line 1:15: an assignment may hold at most %d operations", maxSourceStmts)
	if err == nil || err.Error() != want {
		t.Fatalf("ConvertFunction: %v, want %q", err, want)
	}
	t.Logf("%d-byte text: allocated %d bytes (%.0f times)", len(text), n, float64(n)/float64(len(text)))
	if n > 400*uint64(len(text)) {
		t.Errorf("a %d-byte text allocated %d bytes", len(text), n)
	}
	// One operation fewer compiles.
	ok := "LMem32[0x0] = " + strings.Repeat("1+", maxSourceStmts-3) + "1\n"
	if _, err := ConvertFunction(3, ok, true); err != nil {
		t.Errorf("%d operations: %v", maxSourceStmts-3, err)
	}
}

// A listing is bounded by its size alone (MaxTextSize is for readable text): a listing of a
// million empty lines takes its line headers, 16 bytes a line, where growing them took 82.
func TestListingLinesProportional(t *testing.T) {
	text := strings.Repeat("\n", 1<<20) + ".main\n"
	var err error
	n := testalloc.Bytes(func() { _, err = ConvertFunction(3, text, true) })
	if err != nil {
		t.Fatal(err)
	}
	// 16 bytes a line, twice that under the race detector (its sync.Pool drops what is put
	// back, so scratch space is made again); growing the headers took 82.
	if n > 40*uint64(len(text)) {
		t.Errorf("a listing of %d empty lines allocated %d bytes", 1<<20, n)
	}
}
