package share

import (
	"strings"
	"testing"
)

func TestNewIDWellFormedAndUnique(t *testing.T) {
	seen := make(map[string]bool)
	for range 10000 {
		id := NewID()
		if len(id) != IDLen {
			t.Fatalf("id %q has length %d, want %d", id, len(id), IDLen)
		}
		if !ValidID(id) {
			t.Fatalf("NewID returned %q, which ValidID rejects", id)
		}
		if strings.Trim(id, "abcdefghijklmnopqrstuvwxyz234567") != "" {
			t.Fatalf("id %q has characters outside lower-case base32", id)
		}
		if seen[id] {
			t.Fatalf("id %q repeated", id)
		}
		seen[id] = true
	}
}

func TestValidID(t *testing.T) {
	good := "abcdefghijklmnopqrstuvwxyq" // last character q = 10000b: unused bits zero
	if !ValidID(good) {
		t.Fatalf("ValidID(%q) = false, want true", good)
	}
	for _, id := range []string{
		"",
		"abc",
		"abcdefghijklmnopqrstuvwxyz",    // z = 11001b: non-zero unused bits, a second spelling
		"abcdefghijklmnopqrstuvwxyqa",   // too long
		"ABCDEFGHIJKLMNOPQRSTUVWXYQ",    // upper case
		"abcdefghijklmnopqrstuvwx0q",    // 0 is not base32
		"abcdefghijklmnopqrstuvwx=q",    // padding
		"../../../../etc/passwd/xxxx",   // 27 characters
		"../../../../../etc/passwd1",    // 26 characters, a path
		"abcdefghijklmnopqrstuvwx/q",    // separator
		"abcdefghijklmnopqrstuvwx\x00q", // NUL
		"abcdefghijklmnopqrstuvwxyq\n",
		".tmp-abcdefghijklmnopqrstu",
	} {
		if ValidID(id) {
			t.Errorf("ValidID(%q) = true, want false", id)
		}
	}
}
