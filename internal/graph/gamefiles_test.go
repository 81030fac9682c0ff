package graph

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/testcorpus"
)

// Every game AINB file the codec reproduces comes back byte for byte through the editor
// document: parse, encode to JSON, decode and build, as /api/parse then /api/build do.
func TestGameFilesDocumentRoundTrip(t *testing.T) {
	exact, skipped := 0, 0
	skipped = eachGameFile(t, func(name string, b []byte, f *ainb.File) {
		// The codec's own exactness is ainb's TestGameFilesRoundTrip; here the document must
		// add no difference of its own.
		if out, err := f.Bytes(); err != nil || !bytes.Equal(out, b) {
			skipped++
			return
		}
		d, err := Parse(name, b)
		if err != nil {
			t.Errorf("%s: parse: %v", name, err)
			return
		}
		d2, err := Decode(d.Encode())
		if err != nil {
			t.Errorf("%s: decode: %v", name, err)
			return
		}
		out, err := d2.Build()
		if err != nil {
			t.Errorf("%s: build: %v", name, err)
			return
		}
		if !bytes.Equal(out, b) {
			t.Errorf("%s: the document did not build the original bytes (%d vs %d bytes, first difference at %#x)", name, len(out), len(b), diffAt(out, b))
			return
		}
		exact++
	})
	t.Logf("game AINB files exact through the document: %d; %d left to the codec's own test", exact, skipped)
}

// eachGameFile calls fn with the name, bytes and model of every game AINB file ainb reads,
// and returns how many it refused (ainb's TestGameFilesRoundTrip says which and why).
func eachGameFile(t *testing.T, fn func(name string, b []byte, f *ainb.File)) (refused int) {
	t.Helper()
	for _, path := range testcorpus.GameFiles(t, "ainb") {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ainb.Read(b)
		if err != nil {
			refused++
			continue
		}
		fn(filepath.Base(path), b, f)
	}
	return refused
}
