package static_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Files that are no AINB file, picked by mistake, are refused in plain words: what they are,
// or where an AINB file was cut short. The document open before stays open.
func TestOpenErrorsInPlainWords(t *testing.T) {
	p := newBrowser(t)
	p.allowed = append(p.allowed, "/api/parse")
	p.open(corpusFile(t, "synthetic/minimal_v407.ainb"))
	plain, err := os.ReadFile(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"Screenshot.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10"), "this is a PNG image, not an AINB file"},
		{"photo.jpg", []byte{0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 'J', 'F', 'I', 'F', 0}, "this is a JPEG image, not an AINB file"},
		{"mod.zip", []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00"), "this is a ZIP archive, not an AINB file"},
		{"notes.txt", []byte("Enemy AI: make the boss wait longer\n"), "this is plain text, not an AINB file"},
		{"Tree.ainb", []byte(`{"format": "ainb-editor-document/2", "nodes": []}`), "this is JSON text, not an AINB file"},
		{"Cut.ainb", plain[:len(plain)/3], fmt.Sprintf("this file is truncated at byte %d: an AINB file ends with its string pool, and this one stops before its end", len(plain)/3)},
	} {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		p.upload("#file-input", path)
		p.waitFor(`document.querySelectorAll(".toast").length > 0`)
		want := fmt.Sprintf("error: Could not open %s: %s", c.name, c.want)
		if got := p.toasts(); len(got) != 1 || got[0] != want {
			t.Errorf("%s: toasts %q\nwant %q", c.name, got, want)
		}
		p.run(`document.querySelectorAll(".toast").forEach((t) => t.remove())`)
		if got := eval[string](p, `ainbEditor.document() ? ainbEditor.document().name : ""`); got != "minimal_v407.ainb" {
			t.Errorf("after %s the open document is %q", c.name, got)
		}
	}
}
