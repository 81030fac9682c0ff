package graph

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"ainbeditor/internal/testcorpus"
)

// Every corpus file: parse, encode, decode and build give the very bytes; decoding and
// encoding again gives the same JSON.
func TestCorpusRoundTrip(t *testing.T) {
	for _, path := range testcorpus.AINB(t) {
		name := filepath.Base(path)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Parse(name, b)
		if err != nil {
			t.Errorf("%s: parse: %v", name, err)
			continue
		}
		js := d.Encode()
		d2, err := Decode(js)
		if err != nil {
			t.Errorf("%s: decode: %v", name, err)
			continue
		}
		if again := d2.Encode(); !bytes.Equal(again, js) {
			t.Errorf("%s: decode/encode is not the identity:\n%s", name, firstDiff(js, again))
		}
		out, err := d2.Build()
		if err != nil {
			t.Errorf("%s: build: %v", name, err)
			continue
		}
		if !bytes.Equal(out, b) {
			t.Errorf("%s: the document did not build the original bytes (%d vs %d bytes, first difference at %#x)", name, len(out), len(b), diffAt(out, b))
		}
	}
}

func diffAt(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func firstDiff(a, b []byte) string {
	i := diffAt(a, b)
	lo := max(i-80, 0)
	return "want ..." + string(a[lo:min(i+80, len(a))]) + "\ngot  ..." + string(b[lo:min(i+80, len(b))])
}

// The size hint is never short (a short hint regrows the whole buffer) and, for files big
// enough for it to matter, never more than half again too long.
func TestEncodedSizeHint(t *testing.T) {
	eachCorpusDocument(t, func(name string, d *Document, data []byte) {
		hint, got := d.EncodedSizeHint(), len(d.Encode())
		if hint < got || len(data) > 50_000 && hint > got*3/2 {
			t.Errorf("%s: hint %d for %d bytes of JSON", name, hint, got)
		}
	})
}

// eachCorpusDocument parses every corpus AINB file and calls fn with its name, its document
// and its bytes; a file that does not parse fails the test.
func eachCorpusDocument(t *testing.T, fn func(name string, d *Document, data []byte)) {
	t.Helper()
	for _, path := range testcorpus.AINB(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		d, err := Parse(name, data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fn(name, d, data)
	}
}
