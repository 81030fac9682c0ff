package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ainbeditor/internal/hostile"
	"ainbeditor/internal/testalloc"
)

// checkAlloc runs ainb check on b, written to a file, and returns its output, exit status
// and the bytes it allocated (after a first run, so one-time setup is not counted).
func checkAlloc(t *testing.T, b []byte) (out string, code int, alloc uint64, took time.Duration) {
	t.Helper()
	name := filepath.Join(t.TempDir(), "amp.ainb")
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
	runCLI(t, "check", name)
	t0 := time.Now()
	alloc = testalloc.Bytes(func() { out, _, code = runCLI(t, "check", name) })
	return strings.ReplaceAll(out, name, "FILE"), code, alloc, time.Since(t0)
}

// ainb check on a 1.2 MB file of names at inner offsets of one 20,000-byte string once took
// 5.6 s and 1.9 GB: the reader copied the string's rest for every distinct offset, and the
// check held all of them. Now the text budget refuses it, saying why, and the run allocates
// within 16 times the file. The same shape with a 200-byte string hands out less than the
// budget and checks ok, also within 16 times the file.
func TestCheckInnerOffsetAmplifier(t *testing.T) {
	for _, c := range []struct {
		long int
		want string
		code int
	}{
		{20000, "the file would expand without bound\n", 1},
		{200, "ok FILE\n", 0},
	} {
		b := hostile.SharedNamesAINB(t, 98000, c.long, true)
		out, code, alloc, took := checkAlloc(t, b)
		t.Logf("names into a %d-byte string, a %d-byte file: exit %d in %v, allocated %d bytes: %s",
			c.long, len(b), code, took.Round(time.Millisecond), alloc, strings.TrimSpace(out))
		if code != c.code || !strings.HasSuffix(out, c.want) || strings.Count(out, "\n") != 1 {
			t.Errorf("%d-byte string: exit %d, output %q; want exit %d and one line ending %q", c.long, code, out, c.code, c.want)
		}
		if alloc > 16*uint64(len(b)) {
			t.Errorf("%d-byte string: checking a %d-byte file allocated %d bytes, more than 16 times its size", c.long, len(b), alloc)
		}
	}
}
