package zs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"

	"ainbeditor/internal/testcorpus"
)

// zstdCorpus are the corpus's zstd files: TotK archives compressed with and without a
// dictionary.
var zstdCorpus = []string{"zstd/ZsDic.pack.zs", "sarc/Accessory_Battery.pack.zs", "sarc/Armor_006_Upper.pack.zs"}

// FuzzBound: Bound never panics, its work is one step per block header, and
// whatever it accepts decompresses (when it does) to no more than the bound it gives, so
// the bound it reports can be trusted to tell a damaged header from a big file.
func FuzzBound(f *testing.F) {
	dir := testcorpus.Dir(f)
	for _, rel := range zstdCorpus {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 4096)]) // a head: enough for headers and cut-short blocks
	}
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(false))
	sized := enc.EncodeAll([]byte("abcdefgh abcdefgh abcdefgh"), nil)
	f.Add(sized)
	f.Add(append(append([]byte{}, sized...), sized...))
	f.Add(append([]byte{0x50, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, 9, 9}, sized...)) // skippable frame first
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd})
	dec, err := zstd.NewReader(nil, zstd.WithDecoderMaxMemory(64<<20), zstd.WithDecoderConcurrency(1))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(dec.Close)
	f.Fuzz(func(t *testing.T, data []byte) {
		bound, err := Bound(data)
		if err != nil {
			if _, ok := err.(*FormatError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		// Each block header is at least 3 bytes and adds at most 128 KiB.
		if limit := uint64(len(data)/3+1) * blockMax; bound > limit {
			t.Fatalf("bound %d for %d bytes, beyond %d", bound, len(data), limit)
		}
		if bound > 64<<20 {
			return
		}
		out, err := dec.DecodeAll(data, nil)
		if err == nil && uint64(len(out)) > bound {
			t.Fatalf("decoded %d bytes, more than the bound %d", len(out), bound)
		}
	})
}

// The corpus's zstd files pass Bound whole, with a bound at least their decoded size.
func TestBoundCorpus(t *testing.T) {
	dir := testcorpus.Dir(t)
	var dicts []zstd.DOption
	for _, name := range []string{"zs.zsdic", "bcett.byml.zsdic", "pack.zsdic"} {
		b, err := os.ReadFile(filepath.Join(dir, "zstd", name))
		if err != nil {
			t.Fatal(err)
		}
		dicts = append(dicts, zstd.WithDecoderDicts(b))
	}
	dec, err := zstd.NewReader(nil, dicts...)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	for _, rel := range zstdCorpus {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		bound, err := Bound(b)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		out, err := dec.DecodeAll(b, nil)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if bound < uint64(len(out)) {
			t.Errorf("%s: bound %d below the decoded %d bytes", rel, bound, len(out))
		}
	}
}
