package exb

import (
	"bytes"
	"os"
	"testing"

	"ainbeditor/internal/testalloc"
)

// A section that folds nowhere, found by graph's FuzzParse: 260 instructions whose
// assignments were each tried at every chain length with long strings, every try compiled.
// Decompiling it allocated 167 MB; the checked attempts' budget (checkRatio) bounds it
// (5.8 MB),
// and its text still compiles back to the very bytes.
func TestDecompileCheckBudget(t *testing.T) {
	b, err := os.ReadFile("testdata/check_amplifier.exb")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Read(b)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	alloc := testalloc.Bytes(func() { texts, err = m.FunctionSources() })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d-byte section, %d instructions: decompiling allocated %d bytes", len(b), len(m.Instructions), alloc)
	if limit := uint64(4<<20 + 256*len(b)); alloc > limit {
		t.Fatalf("decompiling a %d-byte section allocated %d bytes (limit %d)", len(b), alloc, limit)
	}
	for i, text := range texts {
		if err := m.SetFunctionSource(i, text); err != nil {
			t.Fatalf("function %d: own text does not compile: %v", i, err)
		}
	}
	if out, err := m.AppendBinary(nil); err != nil || !bytes.Equal(out, b) {
		t.Fatalf("setting every function's own text changed the bytes (%v)", err)
	}
}
