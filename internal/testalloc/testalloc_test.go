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
	// Least takes the smallest measure: 1 MiB once, then nothing.
	calls := 0
	if n := Least(3, func() {
		if calls++; calls == 1 {
			sink = make([]byte, 1<<20)
		}
	}); n > 4<<10 || calls != 3 {
		t.Fatalf("least of 3 measured as %d bytes after %d calls", n, calls)
	}
}
