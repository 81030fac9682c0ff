package sarc

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/klauspost/compress/zstd"

	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/yaz0"
)

type corpusArchive struct {
	name  string
	data  []byte // decompressed SARC bytes
	files int
	big   bool
}

// corpusArchives loads every SARC of the corpus: the plain ones, the two TotK .pack.zs
// (decompressed with the corpus's pack dictionary) and the Yaz0-wrapped .sbeventpack.
func corpusArchives(tb testing.TB) []corpusArchive {
	tb.Helper()
	dir := testcorpus.Dir(tb)
	dict, err := os.ReadFile(filepath.Join(dir, "zstd", "pack.zsdic"))
	if err != nil {
		tb.Fatal(err)
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderDicts(dict), zstd.WithDecoderConcurrency(1))
	if err != nil {
		tb.Fatal(err)
	}
	defer dec.Close()
	want := map[string]corpusArchive{
		"sarc/A-1.00.sarc":                     {files: 14},
		"sarc/ActorObserverByActorTagTag.sarc": {files: 3},
		"sarc/test.sarc":                       {files: 6, big: true},
		"sarc/Accessory_Battery.pack.zs":       {files: 18},
		"sarc/Armor_006_Upper.pack.zs":         {files: 18},
		"yaz0/Demo344_1.sbeventpack":           {files: 15},
	}
	all, _ := filepath.Glob(filepath.Join(dir, "sarc", "*"))
	if len(all) != 5 {
		tb.Fatalf("corpus sarc/ has %d files, want 5", len(all))
	}
	var out []corpusArchive
	for _, rel := range []string{"sarc/A-1.00.sarc", "sarc/ActorObserverByActorTagTag.sarc", "sarc/test.sarc",
		"sarc/Accessory_Battery.pack.zs", "sarc/Armor_006_Upper.pack.zs", "yaz0/Demo344_1.sbeventpack"} {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			tb.Fatal(err)
		}
		switch {
		case strings.HasSuffix(rel, ".zs"):
			if b, err = dec.DecodeAll(b, nil); err != nil {
				tb.Fatalf("%s: %v", rel, err)
			}
		case yaz0.IsYaz0(b):
			if _, b, err = yaz0.Decode(b); err != nil {
				tb.Fatalf("%s: %v", rel, err)
			}
		}
		c := want[rel]
		c.name, c.data = rel, b
		out = append(out, c)
	}
	return out
}

func TestCorpusRoundTrip(t *testing.T) {
	for _, c := range corpusArchives(t) {
		t.Run(c.name, func(t *testing.T) {
			a, err := Read(c.data)
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Files) != c.files || a.BigEndian != c.big || a.HashMultiplier != 0x65 {
				t.Fatalf("%d files big endian %v multiplier %#x, want %d %v 0x65", len(a.Files), a.BigEndian, a.HashMultiplier, c.files, c.big)
			}
			for i, f := range a.Files {
				if f.Name == "" || len(f.Data) == 0 {
					t.Fatalf("file %d: name %q, %d bytes", i, f.Name, len(f.Data))
				}
			}
			// The writer must work from the model: after reading, scribble over every input
			// byte that is not file data (header, tables, names, padding). Only the model knows
			// them now.
			in := bytes.Clone(c.data)
			a, err = Read(in)
			if err != nil {
				t.Fatal(err)
			}
			isData := make([]bool, len(in))
			base := &in[0]
			for _, f := range a.Files {
				off := int(uintptrDiff(base, &f.Data[0]))
				for j := range f.Data {
					isData[off+j] = true
				}
			}
			for j := range in {
				if !isData[j] {
					in[j] = 0xEE
				}
			}
			out, err := a.Write()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, c.data) {
				t.Fatalf("rewrite differs at 0x%x (len %d, want %d)", firstDiff(out, c.data), len(out), len(c.data))
			}
			if &out[0] == &in[0] {
				t.Fatal("Write returned the input buffer")
			}
		})
	}
}

func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// uintptrDiff is the offset of p from base within one slice.
func uintptrDiff(base, p *byte) uintptr {
	return uintptr(unsafe.Pointer(p)) - uintptr(unsafe.Pointer(base))
}
