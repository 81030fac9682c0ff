package graph

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/exb"
	"ainbeditor/internal/testcorpus"
)

// A corrupt instruction in a file's expression binary reaches the document's caller as the
// AINB reader's FormatError at the byte's absolute offset, wrapping the exb reader's error
// at its offset inside the section.
func TestParseErrorKeepsFormatErrors(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "ainb", "synthetic", "expressions_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	sec, err := ainb.ExpressionSection(good)
	if err != nil || sec == nil {
		t.Fatalf("no expression binary: %v", err)
	}
	base := bytes.Index(good, sec[:64])
	// The EXB header holds the instruction table's offset at 0x1c; the table starts with
	// its count, and the opcode is an instruction's first byte.
	instr := int(binary.LittleEndian.Uint32(sec[0x1c:]))
	at := instr + 4 + 2*8 // the third instruction
	b := bytes.Clone(good)
	b[base+at] = 0xee

	_, err = Parse("x.ainb", b)
	var fe *ainb.FormatError
	if !errors.As(err, &fe) || fe.Offset != int64(base+at) {
		t.Fatalf("got %v, want an ainb.FormatError at %#x", err, base+at)
	}
	var xe *exb.FormatError
	if !errors.As(err, &xe) || xe.Offset != int64(at) {
		t.Fatalf("got %v, want an exb.FormatError at %#x in the section", err, at)
	}
}
