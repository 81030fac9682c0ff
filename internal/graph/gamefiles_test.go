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
	for _, path := range testcorpus.GameFiles(t, "ainb") {
		name := filepath.Base(path)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// The codec's own exactness is ainb's TestGameFilesRoundTrip; here the document must
		// add no difference of its own.
		f, err := ainb.Read(b)
		if err != nil {
			skipped++
			continue
		}
		if out, err := f.Bytes(); err != nil || !bytes.Equal(out, b) {
			skipped++
			continue
		}
		d, err := Parse(name, b)
		if err != nil {
			t.Errorf("%s: parse: %v", name, err)
			continue
		}
		d2, err := Decode(d.Encode())
		if err != nil {
			t.Errorf("%s: decode: %v", name, err)
			continue
		}
		out, err := d2.Build()
		if err != nil {
			t.Errorf("%s: build: %v", name, err)
			continue
		}
		if !bytes.Equal(out, b) {
			t.Errorf("%s: the document did not build the original bytes (%d vs %d bytes, first difference at %#x)", name, len(out), len(b), diffAt(out, b))
			continue
		}
		exact++
	}
	t.Logf("game AINB files exact through the document: %d; %d left to the codec's own test", exact, skipped)
}
