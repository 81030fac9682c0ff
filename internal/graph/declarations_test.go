package graph

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"ainbeditor/internal/graph/docdecl"
)

// Every declaration derived from types.go is what go generate writes now: a tag changed
// without regenerating, or a derived file edited by hand, fails here.
func TestDocumentDeclarations(t *testing.T) {
	files, err := docdecl.Generate(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 3 {
		t.Fatalf("%d derived files, want 3", len(files))
	}
	for path, want := range files {
		got, err := os.ReadFile(filepath.FromSlash(path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what types.go declares: run go generate ./internal/graph", path)
		}
	}
}

// The encoder writes, for every corpus file, only members types.go declares, in their order.
func TestEncoderFollowsDeclarations(t *testing.T) {
	decl, err := docdecl.Load(".")
	if err != nil {
		t.Fatal(err)
	}
	eachCorpusDocument(t, func(name string, d *Document, _ []byte) {
		if err := decl.CheckJSON(d.Encode()); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	})
}
