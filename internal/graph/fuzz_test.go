package graph

import (
	"os"
	"path/filepath"
	"testing"

	"ainbeditor/internal/testalloc"
	"ainbeditor/internal/testcorpus"
)

// Bounded work: whatever the input, what a conversion writes and allocates stays within a
// fixed multiple of the input's size plus a constant. The corpus stays far inside these
// (documents are at most 1.3 times their file, parsing allocates at most 8 times the file
// beyond a few hundred kilobytes of fixed cost); hostile files once made a reply a thousand
// times their size.
const (
	maxOutputRatio = 64
	maxOutputBase  = 4 << 20
	maxAllocRatio  = 256
	maxAllocBase   = 32 << 20
)

// checkBounded fails when a conversion of in bytes wrote out bytes or allocated alloc bytes
// beyond the bounds.
func checkBounded(t *testing.T, what string, in, out int, alloc uint64) {
	t.Helper()
	if out > maxOutputBase+maxOutputRatio*in {
		t.Fatalf("%s: %d bytes in, %d bytes out", what, in, out)
	}
	if alloc > maxAllocBase+maxAllocRatio*uint64(in) {
		t.Fatalf("%s: %d bytes in, %d bytes allocated", what, in, alloc)
	}
}

// FuzzParse: whatever the file, Parse never panics, and parsing and encoding the document
// write and allocate within the bounds; a document it makes builds.
func FuzzParse(f *testing.F) {
	for _, path := range testcorpus.AINB(f) {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) < 64<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var (
			d   *Document
			js  []byte
			err error
		)
		n := testalloc.Bytes(func() {
			if d, err = Parse("x.ainb", data); err == nil {
				js = d.Encode()
			}
		})
		checkBounded(t, "parse and encode", len(data), len(js), n)
		if err != nil {
			return
		}
		if _, err := d.Build(); err != nil {
			t.Fatalf("a parsed document does not build: %v", err)
		}
	})
}

// The corpus is far inside the bounds; the fuzz targets guard the rest.
func TestCorpusBounded(t *testing.T) {
	for _, path := range testcorpus.AINB(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var js []byte
		n := testalloc.Bytes(func() {
			d, err := Parse(filepath.Base(path), data)
			if err != nil {
				t.Fatal(err)
			}
			js = d.Encode()
		})
		if len(js) > 2*len(data)+4096 || n > 16*uint64(len(data))+4<<20 {
			t.Errorf("%s: %d bytes: %d bytes of JSON, %d allocated", filepath.Base(path), len(data), len(js), n)
		}
	}
}
