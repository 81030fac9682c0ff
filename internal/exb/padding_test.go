package exb

import (
	"strings"
	"testing"
)

// The bytes END, JMP and JZE leave unused may hold anything in a file from another producer:
// they are read as they are and written back exactly, through the model and the listing.
func TestPaddingKept(t *testing.T) {
	const text = ".input BOOL\n.output INT\n.main\n" +
		"JZE bool In[0x0], 0x18\nSTR int Out[0x0], int 1\nJMP 0x20\nSTR int Out[0x0], int 2\nEND\n"
	for _, version := range []uint32{1, 2, 3} {
		m := section(t, version, text)
		good, err := m.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		instr := int(le.Uint32(good[0x1C:])) + 4
		b := clone(good)
		b[instr+0*8+3] = 0x99                                       // JZE: RHS source
		copy(b[instr+2*8+1:], []byte{0x7f, 0x55, 0x66, 0xef, 0xbe}) // JMP: type, sources, LHS value
		copy(b[instr+4*8+1:], []byte{0xff, 0xee, 0xdd, 0xcc, 0xbb, 0xaa, 0x01})
		m = roundTrip(t, b)
		if got := m.Instructions[4]; got.Op != OpTerminator || got.LHS.Src != 0xee || got.RHS.Val != 0x01aa {
			t.Errorf("version %d: END read as %+v", version, got)
		}
		if got := m.Instructions[2]; got.RHS.Val != 4 || got.LHS.Val != 0xbeef || got.RHS.Src != 0x66 {
			t.Errorf("version %d: JMP read as %+v", version, got)
		}

		// A type byte an opcode does use must still be a known type.
		bad := clone(good)
		bad[instr+1*8+1] = 0x7f
		if _, err := Read(bad); err == nil || !strings.Contains(err.Error(), "unknown data type 127") {
			t.Errorf("version %d: STR with type byte 0x7f: %v", version, err)
		}
	}
}

// padType is one to one over every byte, so any padding byte comes back.
func TestPadTypeBijective(t *testing.T) {
	for _, version := range []uint32{1, 2, 3} {
		seen := map[DataType]bool{}
		for raw := range 256 {
			d := padType(uint8(raw), version)
			if seen[d] {
				t.Fatalf("version %d: byte %#x maps to %v twice", version, raw, d)
			}
			seen[d] = true
			if back := padTypeByte(d, version); back != uint8(raw) {
				t.Fatalf("version %d: byte %#x -> %v -> %#x", version, raw, d, back)
			}
			if known, ok := decodeType(uint16(raw), version); ok && known != d {
				t.Fatalf("version %d: byte %#x is %v, padType says %v", version, raw, known, d)
			}
		}
	}
}
