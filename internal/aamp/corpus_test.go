package aamp

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"ainbeditor/internal/testcorpus"
)

// corpusFiles lists every binary AAMP file under the corpus's aamp folder.
func corpusFiles(tb testing.TB) []string {
	tb.Helper()
	dir := filepath.Join(testcorpus.Dir(tb), "aamp")
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && !strings.HasSuffix(p, ".yml") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(out)
	if len(out) < 1800 {
		tb.Fatalf("found %d AAMP files under %s, want 1,800+", len(out), dir)
	}
	return out
}

func TestCorpusPreserve(t *testing.T) {
	canonSame := 0
	files := corpusFiles(t)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pio, err := Read(data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		// The recorded layout must be used (no silent fallback) and reproduce the file.
		sh, err := pio.survey()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out, ok := pio.writePreserved(sh)
		if !ok {
			t.Errorf("%s: recorded layout does not fit the unedited model", f)
		} else if !bytes.Equal(out, data) {
			t.Errorf("%s: preserved write differs from the file at %#x", f, firstDiff(out, data))
		}
		c, err := pio.BytesCanonical()
		if err != nil {
			t.Errorf("%s: canonical write: %v", f, err)
			continue
		}
		if bytes.Equal(c, data) {
			canonSame++
		} else {
			t.Logf("%s: canonical layout differs at %#x", f, firstDiff(c, data))
		}
	}
	// Every Nintendo file in the corpus is laid out exactly as the canonical writer does it.
	if canonSame != len(files) {
		t.Errorf("%d of %d files: canonical writer output equals Nintendo's bytes", canonSame, len(files))
	}
}

func firstDiff(a, b []byte) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
