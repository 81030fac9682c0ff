package testalloc

import "testing"

var sink []byte

func TestBytes(t *testing.T) {
	if n := Bytes(func() { sink = make([]byte, 1<<20) }); n < 1<<20 || n > 1<<20+64<<10 {
		t.Fatalf("a 1 MiB allocation measured as %d bytes", n)
	}
	if n := Bytes(func() {}); n > 4<<10 {
		t.Fatalf("nothing measured as %d bytes", n)
	}
}
