package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/testalloc"
)

// innerOffsetFile is an AINB file whose names (property names, as many as names) point at
// 50 successive offsets inside one string long bytes long, recorded as the layout's tails as
// the reader records them, so the file stores the string once.
func innerOffsetFile(t *testing.T, long, names int) []byte {
	t.Helper()
	s := strings.Repeat("Amplify", long/7+1)[:long]
	props := make([]ainb.Property, names)
	for i := range props {
		props[i].Name = s[1+i%50:]
	}
	f := &ainb.File{Version: ainb.Version407, Filename: "Amp", Category: "AI", HasSection6C: true,
		Replacement: &ainb.ReplacementTable{},
		Commands:    []ainb.Command{{Name: "Walk", Root: 0, Secondary: -1}},
		Elements:    []ainb.Element{{Name: "Leaf"}},
		Layout:      &ainb.Layout{Strings: []string{s}}}
	for i := range min(names, 50) {
		f.Layout.Tails = append(f.Layout.Tails, s[1+i:])
	}
	f.Elements[0].Properties.Set(ainb.ParamInt, props)
	b, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

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
		b := innerOffsetFile(t, c.long, 98000)
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
