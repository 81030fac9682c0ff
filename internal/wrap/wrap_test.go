package wrap

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"ainbeditor/internal/testalloc"
	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/yaz0"
	"ainbeditor/internal/zs"
)

func codec(tb testing.TB) *zs.Codec {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(testcorpus.Dir(tb), "zstd", zs.ZsDicName))
	if err != nil {
		tb.Fatal(err)
	}
	c, err := zs.LoadZsDic(b)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(c.Close)
	return c
}

// wrapped lists every Yaz0 and zstd file of the corpus and the games' zstd and Yaz0 files.
func wrapped(tb testing.TB) []string {
	tb.Helper()
	var out []string
	for _, dir := range []string{testcorpus.Dir(tb), testcorpus.GameDir(tb, "zstd"), testcorpus.GameDir(tb, "yaz0")} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			head := make([]byte, 4)
			n, _ := f.Read(head)
			f.Close()
			if Of(head[:n]).Kind != None {
				out = append(out, p)
			}
			return nil
		})
	}
	if len(out) < 5 {
		tb.Fatalf("%d wrapped files in the corpus; the test needs its Yaz0 and zstd files", len(out))
	}
	return out
}

// Every wrapped corpus file unwraps, says its wrapping as its header does, and wraps back
// into a file that unwraps to the same bytes with the same dictionary or alignment; Yaz0
// at this project's level is byte-exact where the file was written by it.
func TestRoundTrip(t *testing.T) {
	c := codec(t)
	kinds := map[string]int{}
	for _, p := range wrapped(t) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inner, w, err := Unwrap(data, c, 0)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if w != Of(data) {
			t.Errorf("%s: Unwrap says %+v, Of says %+v", p, w, Of(data))
		}
		kinds[w.String()]++
		for _, level := range []zs.Level{zs.Fast, zs.Smallest} {
			out, err := w.Wrap(context.Background(), inner, c, level)
			if err != nil {
				t.Fatalf("%s: wrap: %v", p, err)
			}
			back, w2, err := Unwrap(out, c, uint64(len(inner)))
			if err != nil || w2 != w || !bytes.Equal(back, inner) {
				t.Errorf("%s: level %d: wrapped again as %+v (%v), %d bytes back, want %+v and %d", p, level, w2, err, len(back), w, len(inner))
			}
			if w.Kind == Yaz0 {
				break // one Yaz0 encoder: the level is zstd's
			}
		}
	}
	t.Logf("wrappings: %v", kinds)
	if kinds["Yaz0"] == 0 || kinds["zstd with dictionary 3"] == 0 || kinds["zstd without a dictionary"] == 0 {
		t.Errorf("the corpus lacks a kind of wrapping the test is for: %v", kinds)
	}
}

// Data without a wrapping comes back as it is; Wrap of None gives it back too.
func TestNone(t *testing.T) {
	in := []byte("SARC and the rest")
	out, w, err := Unwrap(in, nil, 0)
	if err != nil || w != (Wrapping{}) || !bytes.Equal(out, in) {
		t.Fatalf("%q %+v %v", out, w, err)
	}
	if b, err := w.Wrap(context.Background(), in, nil, zs.Fast); err != nil || !bytes.Equal(b, in) || w.String() != "none" {
		t.Fatalf("%q %v", b, err)
	}
	if _, err := (Wrapping{Kind: "lz4"}).Wrap(context.Background(), in, nil, zs.Fast); err == nil {
		t.Fatal("an unknown kind wrapped")
	}
}

// Limits and missing dictionaries are typed errors, refused before the output is allocated.
func TestErrors(t *testing.T) {
	dir := testcorpus.Dir(t)
	pack, err := os.ReadFile(filepath.Join(dir, "sarc", "Armor_006_Upper.pack.zs"))
	if err != nil {
		t.Fatal(err)
	}
	var de *zs.DictionaryError
	if _, _, err := Unwrap(pack, nil, 0); !errors.As(err, &de) || de.ID != zs.DictPack {
		t.Errorf("no codec: %v", err)
	}
	var le *zs.LimitError
	if _, _, err := Unwrap(pack, codec(t), 1000); !errors.As(err, &le) || le.Limit != 1000 {
		t.Errorf("zstd past the limit: %v", err)
	}
	y, err := os.ReadFile(filepath.Join(dir, "yaz0", "Demo344_1.sbeventpack"))
	if err != nil {
		t.Fatal(err)
	}
	var wl *LimitError
	var err2 error
	if n := testalloc.Bytes(func() { _, _, err2 = Unwrap(y, nil, 1000) }); n > 4<<10 {
		t.Errorf("refusing the Yaz0 file allocated %d bytes", n)
	}
	if !errors.As(err2, &wl) || wl.Limit != 1000 || err2.Error() != "the file decompresses to 2847908 bytes, more than the limit of 1000" {
		t.Errorf("yaz0 past the limit: %v", err2)
	}
	var fe *zs.FormatError
	if _, _, err := Unwrap(pack[:len(pack)/2], codec(t), 0); !errors.As(err, &fe) || fe.Offset == 0 {
		t.Errorf("cut zstd: %v", err)
	}
	var ye *yaz0.FormatError
	if _, _, err := Unwrap(y[:len(y)/2], nil, 0); !errors.As(err, &ye) {
		t.Errorf("cut Yaz0: %T %v", err, err)
	}
}

// FuzzUnwrap: any input unwraps or fails with a typed error, within the limit, and what
// unwraps wraps back to the same bytes.
func FuzzUnwrap(f *testing.F) {
	for _, p := range wrapped(f) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[:min(len(b), 8192)])
	}
	f.Add([]byte("Yaz0\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00\x00\xff0123456789abcdef"))
	c := codec(f)
	const limit = 1 << 20
	f.Fuzz(func(t *testing.T, data []byte) {
		inner, w, err := Unwrap(data, c, limit)
		if err != nil {
			var (
				fe *zs.FormatError
				de *zs.DictionaryError
				le *zs.LimitError
				ye *yaz0.FormatError
				wl *LimitError
			)
			if !errors.As(err, &fe) && !errors.As(err, &de) && !errors.As(err, &le) && !errors.As(err, &ye) && !errors.As(err, &wl) {
				t.Fatalf("untyped error %T: %v", err, err)
			}
			return
		}
		if len(inner) > limit && w.Kind != None {
			t.Fatalf("%d bytes unwrapped past the limit of %d", len(inner), limit)
		}
		if w.Kind == None {
			return
		}
		out, err := w.Wrap(context.Background(), inner, c, zs.Fast)
		if err != nil {
			t.Fatalf("wrap: %v", err)
		}
		back, _, err := Unwrap(out, c, limit)
		if err != nil || !bytes.Equal(back, inner) {
			t.Fatalf("wrapped again it unwraps to %d bytes (%v), want %d", len(back), err, len(inner))
		}
	})
}
