package ainb

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"ainbeditor/internal/testcorpus"
)

func readCorpus(t *testing.T, path string) ([]byte, *File) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Read(b)
	if err != nil {
		t.Fatalf("%s: %v", filepath.Base(path), err)
	}
	return b, f
}

// Every corpus file comes back byte-identical from its model, also when written into a
// buffer that held the previous file (BytesInto, as the server reuses its buffers).
func TestCorpusRoundTrip(t *testing.T) {
	var buf []byte
	for _, path := range testcorpus.AINB(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			b, f := readCorpus(t, path)
			out, err := f.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b, out) {
				t.Fatalf("re-serialized file differs: %s", firstDiff(b, out))
			}
			if buf, err = f.BytesInto(buf); err != nil || !bytes.Equal(b, buf) {
				t.Fatalf("written into a used buffer: %v, same bytes %v", err, bytes.Equal(b, buf))
			}
		})
	}
}

func firstDiff(a, b []byte) string {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return fmt.Sprintf("first difference at %#x: %#02x != %#02x (sizes %d, %d)", i, a[i], b[i], len(a), len(b))
		}
	}
	return fmt.Sprintf("sizes %d and %d, equal up to %#x", len(a), len(b), n)
}

func decodeJSON(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// jsonDiff names the first path where two decoded JSON values differ.
func jsonDiff(path string, a, b any) string {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: object vs %T", path, b)
		}
		for k := range a {
			if _, ok := bm[k]; !ok {
				return fmt.Sprintf("%s.%s: only in the first", path, k)
			}
		}
		for k := range bm {
			if _, ok := a[k]; !ok {
				return fmt.Sprintf("%s.%s: only in the second", path, k)
			}
			if d := jsonDiff(path+"."+k, a[k], bm[k]); d != "" {
				return d
			}
		}
		return ""
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return fmt.Sprintf("%s: array of %d vs %v", path, len(a), b)
		}
		for i := range a {
			if d := jsonDiff(fmt.Sprintf("%s[%d]", path, i), a[i], bl[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Sprintf("%s: %v != %v", path, a, b)
	}
	return ""
}

// The compat dump of every corpus binary equals the reference tool's dump beside it, and
// building that JSON gives a binary whose dump equals it again.
func TestCorpusCompatJSON(t *testing.T) {
	for _, path := range testcorpus.AINB(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			_, f := readCorpus(t, path)
			want, err := os.ReadFile(strings.TrimSuffix(path, ".ainb") + ".json")
			if err != nil {
				t.Fatal(err)
			}
			got, err := f.CompatJSON()
			if err != nil {
				t.Fatal(err)
			}
			wantV := decodeJSON(t, want)
			if d := jsonDiff("", decodeJSON(t, got), wantV); d != "" {
				t.Fatalf("compat dump differs from the reference dump: %s", d)
			}
			built, err := ReadCompatJSON(want)
			if err != nil {
				t.Fatal(err)
			}
			bin, err := built.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			again, err := Read(bin)
			if err != nil {
				t.Fatalf("reading the built binary: %v", err)
			}
			got2, err := again.CompatJSON()
			if err != nil {
				t.Fatal(err)
			}
			if d := jsonDiff("", decodeJSON(t, got2), wantV); d != "" {
				t.Fatalf("built binary's dump differs: %s", d)
			}
		})
	}
}

// checkLoaded is the property of the JSON fuzz targets: whatever loads and passes Validate
// writes a file the reader accepts.
func checkLoaded(t *testing.T, load func([]byte) (*File, error), b []byte) {
	file, err := load(b)
	if err != nil {
		return
	}
	out, err := file.Bytes()
	if err != nil {
		return
	}
	if _, err := Read(out); err != nil {
		t.Fatalf("the writer produced a file its reader rejects: %v", err)
	}
}
