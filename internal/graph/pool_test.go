package graph

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/testcorpus"
)

// canonicalPool is the parse's prediction of the writer: where it says a file's pool is
// canonical, writing the model without the recorded pool gives the very same file, so the
// document may leave the pool out. Both answers must occur, and the game's files, whose
// pools are seldom in first-use order (the walk stops where the order breaks), are held to
// the same prediction.
func TestCanonicalPoolPredictsWriter(t *testing.T) {
	var yes, no int
	check := func(name string, b []byte) {
		f, err := ainb.Read(b)
		if err != nil {
			return // the readers' own tests say why
		}
		if out, err := f.Bytes(); err != nil || !bytes.Equal(out, b) {
			return // not reproduced even with its pool: the codec's own tests cover it
		}
		strs := slices.Clone(f.Layout.Strings)
		canonical := canonicalPool(f, b)
		f.Layout.Strings, f.Layout.Tails = nil, nil
		out, err := f.Bytes()
		if err != nil {
			t.Errorf("%s: written without its pool: %v", name, err)
			return
		}
		if canonical {
			yes++
			if !bytes.Equal(out, b) {
				t.Errorf("%s: pool said canonical, but the file written without it differs at %#x", name, diffAt(out, b))
			}
			return
		}
		no++
		back, err := ainb.Read(out)
		if err != nil {
			t.Errorf("%s: written without its pool, it does not read back: %v", name, err)
			return
		}
		if bytes.Equal(out, b) && slices.Equal(back.Layout.Strings, strs) {
			t.Errorf("%s: pool said not canonical, yet the writer gives the same file without it", name)
		}
	}
	for _, path := range append(testcorpus.AINB(t), testcorpus.GameFiles(t, "ainb")...) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		check(filepath.Base(path), b)
	}
	if yes == 0 || no == 0 {
		t.Fatalf("canonical pools %d, others %d: both kinds are needed", yes, no)
	}
	t.Logf("canonical pools %d, others %d", yes, no)
}
