package sarc

import (
	"bytes"
	"fmt"
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
			if _, b, err = yaz0.Decompress(b); err != nil {
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
			out, err := a.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, c.data) {
				t.Fatalf("rewrite differs at 0x%x (len %d, want %d)", firstDiff(out, c.data), len(out), len(c.data))
			}
			if &out[0] == &in[0] {
				t.Fatal("Bytes returned the input buffer")
			}
			// Appended to a reused buffer that held other bytes (0xEE past a prefix): the
			// prefix stays, the archive follows it byte for byte, padding included.
			prefix := []byte("prefix")
			dirty := append(bytes.Repeat([]byte{0xEE}, len(c.data)+64)[:0], prefix...)
			app, err := a.AppendBinary(dirty)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(app[:len(prefix)], prefix) || !bytes.Equal(app[len(prefix):], c.data) {
				t.Fatalf("appended rewrite differs at 0x%x (len %d, want %d)", firstDiff(app[len(prefix):], c.data), len(app)-len(prefix), len(c.data))
			}
			if &app[0] != &dirty[:1][0] {
				t.Fatal("AppendBinary did not write into the buffer it was given, which had room")
			}
			// Without room, the prefix moves into one new buffer of exactly the size needed.
			short := append([]byte(nil), prefix...)
			app, err = a.AppendBinary(short[:len(short):len(short)])
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(app[:len(prefix)], prefix) || !bytes.Equal(app[len(prefix):], c.data) {
				t.Fatalf("rewrite appended to a full buffer differs at 0x%x", firstDiff(app[len(prefix):], c.data))
			}
			if cap(app) != len(prefix)+len(c.data) {
				t.Fatalf("grown buffer has capacity %d, want %d", cap(app), len(prefix)+len(c.data))
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

// The layout facts Read infers from the corpus archives: minimum alignment for new files,
// data section alignment, and each file's alignment (no archive needs explicit padding).
func TestCorpusLayoutFacts(t *testing.T) {
	want := map[string]string{
		"sarc/A-1.00.sarc":                     "min 4 data 4: 4 4 4 4 4 4 4 4 4 4 4 4 4 4",
		"sarc/ActorObserverByActorTagTag.sarc": "min 4 data 8: 4 4 4",
		"sarc/test.sarc":                       "min 4 data 800: 4 4 4 800 800 800",
		"sarc/Accessory_Battery.pack.zs":       "min 8 data 8: 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8",
		"sarc/Armor_006_Upper.pack.zs":         "min 8 data 10: 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8 8",
		"yaz0/Demo344_1.sbeventpack":           "min 100 data 400: 100 100 100 100 100 100 100 100 100 100 100 100 100 100 100",
	}
	for _, c := range corpusArchives(t) {
		a, err := Read(c.data)
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprintf("min %x data %x:", a.MinAlignment, a.layout.dataAlign)
		for _, f := range a.Files {
			if f.placed.pad != 0 {
				got += fmt.Sprintf(" pad%x", f.placed.pad)
			} else {
				got += fmt.Sprintf(" %x", f.placed.align)
			}
		}
		if got != want[c.name] {
			t.Errorf("%s: %s\nwant %s", c.name, got, want[c.name])
		}
	}
}

func TestInferAlign(t *testing.T) {
	cases := []struct{ prevEnd, begin, want, align, pad uint32 }{
		{0x10, 0x10, 4, 4, 0},            // no gap, rule fits
		{0x12, 0x18, 4, 8, 0},            // rule 4 would give 0x14: smallest fitting is 8
		{0x594, 0x800, 4, 0x400, 0},      // 0x400 and 0x800 explain the jump: nearest to 4
		{0x101, 0x200, 0x1000, 0x200, 0}, // rule too big: largest fitting
		{0x100, 0x180, 4, 1, 0x80},       // gap as large as begin's alignment: explicit pad
		{0, 0, 0x2000, 0x2000, 0},
	}
	for _, c := range cases {
		al, pad := inferAlign(c.prevEnd, c.begin, c.want)
		if al != c.align || pad != c.pad {
			t.Errorf("inferAlign(%#x, %#x, %#x) = %#x, %#x; want %#x, %#x", c.prevEnd, c.begin, c.want, al, pad, c.align, c.pad)
		}
	}
}
