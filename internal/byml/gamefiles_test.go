package byml

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/testcorpus"
)

// gameFile is one BYML file of ../shared/gamefiles/byml, read.
type gameFile struct {
	name string
	data []byte
	doc  *Document
	err  error
}

func gameFiles(t *testing.T) []gameFile {
	t.Helper()
	var out []gameFile
	for _, p := range testcorpus.GameFiles(t, "byml") {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		g := gameFile{name: filepath.Base(p), data: data}
		g.doc, g.err = Read(data)
		out = append(out, g)
	}
	return out
}

// pendingGameFiles are the game files not yet exact, each with the start of the error Read
// gives. The list shrinks as the package learns them; a file on it that reads fails the test.
var pendingGameFiles = map[string]string{}

// TestGameFilesExact reads every BYML file of the games and writes it again from the model:
// each must come back byte for byte (preserve mode: the tree and the recorded layout).
func TestGameFilesExact(t *testing.T) {
	files := gameFiles(t)
	exact := 0
	for _, g := range files {
		if want, ok := pendingGameFiles[g.name]; ok {
			if g.err == nil || !strings.HasPrefix(g.err.Error(), want) {
				t.Errorf("%s: Read error %v, the pending list says %q", g.name, g.err, want)
			}
			continue
		}
		if g.err != nil {
			t.Errorf("%s: %v", g.name, g.err)
			continue
		}
		out, err := g.doc.Bytes()
		if err != nil {
			t.Errorf("%s: Bytes: %v", g.name, err)
			continue
		}
		if !bytes.Equal(out, g.data) {
			t.Errorf("%s: written file differs: %s", g.name, firstDiff(out, g.data))
			continue
		}
		exact++
	}
	t.Logf("%d of %d game BYML files come back byte for byte", exact, len(files))
	if want := len(files) - len(pendingGameFiles); exact != want {
		t.Errorf("%d files exact, want %d", exact, want)
	}
}

// TestGameFilesVersion1BothOrders writes every version 1 file (Super Mario Odyssey, Splatoon
// 2) in the other byte order from its recorded layout, reads that back to the same tree,
// writes it again to the same bytes, and turns it back: the original.
func TestGameFilesVersion1BothOrders(t *testing.T) {
	n := 0
	for _, g := range gameFiles(t) {
		if g.err != nil || g.doc.Version != 1 {
			continue
		}
		n++
		orig := g.doc.BigEndian
		g.doc.BigEndian = !orig
		be, err := g.doc.Bytes()
		if err != nil {
			t.Fatalf("%s: other byte order: %v", g.name, err)
		}
		magic := "BY\x00\x01"
		if orig {
			magic = "YB\x01\x00"
		}
		if string(be[:4]) != magic || len(be) != len(g.data) {
			t.Fatalf("%s: other byte order header % x, %d bytes (was %d)", g.name, be[:4], len(be), len(g.data))
		}
		back, err := Read(be)
		if err != nil {
			t.Fatalf("%s: reading the big-endian file: %v", g.name, err)
		}
		if back.BigEndian == orig || back.Version != 1 || !Equal(back.Root, g.doc.Root) {
			t.Fatalf("%s: big-endian file reads back as another document", g.name)
		}
		if again, err := back.Bytes(); err != nil || !bytes.Equal(again, be) {
			t.Fatalf("%s: big-endian file does not come back: %v", g.name, err)
		}
		back.BigEndian = orig
		le, err := back.Bytes()
		if err != nil || !bytes.Equal(le, g.data) {
			t.Fatalf("%s: little endian again: %v, %s", g.name, err, firstDiff(le, g.data))
		}
	}
	if n == 0 {
		t.Error("no version 1 file among the game files (SMO and Splatoon 2 have them)")
	}
	t.Logf("%d version 1 files in both byte orders", n)
}
