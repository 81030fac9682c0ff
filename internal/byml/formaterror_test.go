package byml

import (
	"encoding/binary"
	"errors"
	"testing"
)

// A corrupted file is refused with a *FormatError naming the byte it could not read.
func TestReadErrorOffset(t *testing.T) {
	doc, err := FromYAML([]byte("a: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	doc.Version = 2
	good, err := doc.BytesCanonical()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Read(good); err != nil {
		t.Fatalf("the uncorrupted file: %v", err)
	}
	for _, c := range []struct {
		name  string
		patch func(b []byte)
		what  string
		at    int64
	}{
		{"magic", func(b []byte) { b[0] = 'X' }, "header", 0},
		{"version", func(b []byte) { binary.LittleEndian.PutUint16(b[2:], 9) }, "header", 2},
		{"root past the end", func(b []byte) { binary.LittleEndian.PutUint32(b[12:], 0x7FFFFFF0) }, "root node", 0x7FFFFFF0},
	} {
		b := append([]byte(nil), good...)
		c.patch(b)
		_, err := Read(b)
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Offset != c.at || fe.What != c.what {
			t.Errorf("%s: %#v, want a *FormatError in the %s at %#x", c.name, err, c.what, c.at)
		}
	}
}
