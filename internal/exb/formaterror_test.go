package exb

import (
	"encoding/binary"
	"errors"
	"testing"
)

// A corrupted section is refused with a *FormatError naming the field's offset.
func TestReadErrorOffset(t *testing.T) {
	good, err := (&Module{Version: 2}).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Read(good); err != nil {
		t.Fatalf("the uncorrupted section: %v", err)
	}
	for _, c := range []struct {
		name  string
		patch func(b []byte)
		at    int64
	}{
		{"magic", func(b []byte) { b[1] = 'Y' }, 0},
		{"version", func(b []byte) { binary.LittleEndian.PutUint32(b[4:], 9) }, 4},
		{"second section offset", func(b []byte) { binary.LittleEndian.PutUint32(b[0x1C:], 0xFFFFFF) }, 0x1C},
	} {
		b := append([]byte(nil), good...)
		c.patch(b)
		_, err := Read(b)
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Offset != c.at || fe.Section != secHeader {
			t.Errorf("%s: %#v, want a *FormatError in the header at %#x", c.name, err, c.at)
		}
	}
}
