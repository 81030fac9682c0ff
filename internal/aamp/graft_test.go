package aamp

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// An unedited tree grafted onto its file gives the file's bytes, although it came through
// the JSON form (every 25th corpus file: the walk is the same for all).
func TestGraftUneditedGivesFile(t *testing.T) {
	files := corpusFiles(t)
	for i := 0; i < len(files); i += 25 {
		data, err := os.ReadFile(files[i])
		if err != nil {
			t.Fatal(err)
		}
		orig, err := Read(data)
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(files[i]), err)
		}
		js, err := ToJSON(orig)
		if err != nil {
			t.Fatal(err)
		}
		edited, err := FromJSON(js)
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(files[i]), err)
		}
		orig.Graft(edited)
		got, err := orig.Bytes()
		if err != nil {
			t.Fatalf("%s: %v", filepath.Base(files[i]), err)
		}
		if !bytes.Equal(got, data) {
			t.Errorf("%s: grafted unedited tree writes %d bytes unlike the file's %d", filepath.Base(files[i]), len(got), len(data))
		}
	}
}
