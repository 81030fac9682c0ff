package ainb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"ainbeditor/internal/exb"
)

// A corrupt instruction in the expression binary is reported at its own byte of the file,
// and the exb reader's error stays reachable with its offset inside the section.
func TestExpressionErrorOffset(t *testing.T) {
	good := corpusFile(t, "synthetic/expressions_v407.ainb")
	base := int(binary.LittleEndian.Uint32(good[0x44:]))
	// The EXB header holds the instruction table's offset at 0x1c, its count first.
	instr := int(binary.LittleEndian.Uint32(good[base+0x1c:]))
	if n := binary.LittleEndian.Uint32(good[base+instr:]); n < 3 {
		t.Fatalf("want an expression binary with at least 3 instructions, have %d", n)
	}
	at := instr + 4 + 2*8 // the opcode of the third instruction
	b := bytes.Clone(good)
	b[base+at] = 0xee

	_, err := Read(b)
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v is not an ainb FormatError", err)
	}
	if fe.Section != "expression binary" || fe.Offset != int64(base+at) {
		t.Errorf("ainb error at %s %#x, want expression binary %#x (section at %#x): %v", fe.Section, fe.Offset, base+at, base, err)
	}
	var xe *exb.FormatError
	if !errors.As(err, &xe) {
		t.Fatalf("error %v does not wrap an exb FormatError", err)
	}
	if xe.Section != "instruction table" || xe.Offset != int64(at) {
		t.Errorf("exb error at %s %#x, want instruction table %#x", xe.Section, xe.Offset, at)
	}
	want := fmt.Sprintf("ainb: expression binary at offset %#x: instruction table at %#x in the section: instruction 2: unknown opcode", base+at, at)
	if got := err.Error(); !strings.HasPrefix(got, want) {
		t.Errorf("message\n%s\nwant it to start with\n%s", got, want)
	}
}

// ExpressionSection cuts out exactly the bytes Read hands to the exb reader.
func TestExpressionSection(t *testing.T) {
	b := corpusFile(t, "synthetic/expressions_v407.ainb")
	sec, err := ExpressionSection(b)
	if err != nil {
		t.Fatal(err)
	}
	start, end := binary.LittleEndian.Uint32(b[0x44:]), binary.LittleEndian.Uint32(b[0x5c:])
	if !bytes.Equal(sec, b[start:end]) || string(sec[:4]) != "EXB " {
		t.Errorf("section is %d bytes starting %q, want %#x..%#x", len(sec), sec[:min(4, len(sec))], start, end)
	}
	if sec, err := ExpressionSection(corpusFile(t, "synthetic/minimal_v407.ainb")); sec != nil || err != nil {
		t.Errorf("a file without expressions: %d bytes, %v", len(sec), err)
	}
	var fe *FormatError
	if _, err := ExpressionSection(b[:0x50]); !errors.As(err, &fe) || fe.Offset != 0 {
		t.Errorf("a cut header: %v", err)
	}
	bad := bytes.Clone(b)
	binary.LittleEndian.PutUint32(bad[0x5c:], uint32(len(b)+1))
	if _, err := ExpressionSection(bad); !errors.As(err, &fe) || fe.Section != "expression binary" || fe.Offset != int64(start) {
		t.Errorf("a section past the end: %v", err)
	}
}

// An expression of the community JSON that does not assemble is reported at its JSON path,
// and the assembler's error stays reachable.
func TestCompatExpressionErrorWrapped(t *testing.T) {
	js := corpusFile(t, "synthetic/expressions_v407.json")
	const good = `"0x0008    ADD int LMem32[0x0], int 3"`
	if !bytes.Contains(js, []byte(good)) {
		t.Fatalf("expressions_v407.json lacks %s", good)
	}
	bad := bytes.Replace(js, []byte(good), []byte(`"0x0008    ADD int LMem32[0x0], int"`), 1)
	_, err := ReadCompatJSON(bad)
	var pe *PathError
	if !errors.As(err, &pe) || pe.Path != "Expressions" {
		t.Fatalf("error %v is not a PathError at Expressions", err)
	}
	var se *exb.SyntaxError
	if !errors.As(err, &se) || se.Line != 2 {
		t.Fatalf("error %v does not wrap the assembler's SyntaxError at line 2", err)
	}
}
