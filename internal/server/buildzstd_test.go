package server

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"

	"ainbeditor/internal/testcorpus"
)

// A .zs upload is answered with its dictionary id, and /api/build?zstd=ID compresses the
// saved file with that dictionary again, named .zs, so a .zs file saves back as .zs.
func TestBuildZstd(t *testing.T) {
	data := corpusFile(t, midFile)
	dictPath := filepath.Join(testcorpus.Dir(t), "zstd", "zs.zsdic")
	dict, err := os.ReadFile(dictPath)
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, func(c *Config) { c.ZstdDicts = []string{dictPath} })
	plainDoc := parseOK(t, s, "x.ainb", data)
	if rec := do(s, "POST", "/api/parse?name=x.ainb", "", data); rec.Header().Get(zstdDictHeader) != "" {
		t.Errorf("plain upload answered with %s: %q", zstdDictHeader, rec.Header().Get(zstdDictHeader))
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderDicts(dict))
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()

	for _, c := range []struct {
		name string
		z    []byte
		dict string
	}{
		{"Enemy.ainb.zs", zstdEncode(t, data, zstd.WithEncoderDict(dict)), "1"},
		{"Enemy.ainb.zs", zstdEncode(t, data), "0"},
	} {
		rec := do(s, "POST", "/api/parse?name="+c.name, "application/zstd", c.z)
		if rec.Code != 200 || rec.Header().Get(zstdDictHeader) != c.dict {
			t.Fatalf("dict %s: parse %d, %s %q", c.dict, rec.Code, zstdDictHeader, rec.Header().Get(zstdDictHeader))
		}
		doc := rec.Body.Bytes()
		rec = do(s, "POST", "/api/build?zstd="+c.dict, "application/json", doc)
		if rec.Code != 200 {
			t.Fatalf("dict %s: build %d: %s", c.dict, rec.Code, cut(rec.Body.Bytes()))
		}
		h := rec.Header()
		if h.Get("Content-Type") != "application/zstd" || h.Get("Content-Disposition") != `attachment; filename="Enemy.ainb.zs"` || h.Get(zstdDictHeader) != c.dict {
			t.Errorf("dict %s: headers %v", c.dict, h)
		}
		out := rec.Body.Bytes()
		var fh zstd.Header
		if err := fh.Decode(out); err != nil {
			t.Fatal(err)
		}
		if want := map[string]uint32{"0": 0, "1": 1}[c.dict]; fh.DictionaryID != want || !fh.HasFCS || fh.FrameContentSize != uint64(len(data)) || fh.HasCheckSum {
			t.Errorf("dict %s: frame header %+v; want dictionary %d, content size %d, no checksum", c.dict, fh, want, len(data))
		}
		got, err := dec.DecodeAll(out, nil)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("dict %s: the .zs decodes to %d bytes (%v), want the %d-byte file", c.dict, len(got), err, len(data))
		}
		if len(out) >= len(data) {
			t.Errorf("dict %s: %d bytes compressed from %d", c.dict, len(out), len(data))
		}
	}
	// Without ?zstd the build is the plain file, as before.
	if rec := do(s, "POST", "/api/build", "application/json", plainDoc); rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), data) || rec.Header().Get(zstdDictHeader) != "" {
		t.Errorf("plain build: %d, equal %v", rec.Code, bytes.Equal(rec.Body.Bytes(), data))
	}

	// A dictionary the server lacks, and a parameter that is no id, are refused before the
	// document is read.
	e := wantError(t, do(s, "POST", "/api/build?zstd=3", "application/json", plainDoc), http.StatusUnprocessableEntity)
	if want := "the server has no zstd dictionary 3 (TotK's pack.zsdic) to compress the file with; save it as .ainb"; e.Error != want || e.Detail["dictionary"] != float64(3) {
		t.Errorf("missing dictionary: %q %v, want %q", e.Error, e.Detail, want)
	}
	for _, v := range []string{"x", "-1", "4294967296", ""} {
		e := wantError(t, do(s, "POST", "/api/build?zstd="+v, "application/json", []byte("not read")), http.StatusBadRequest)
		if want := "zstd=\"" + v + "\": give the dictionary id as a decimal number, 0 for none"; e.Error != want {
			t.Errorf("zstd=%s: %q, want %q", v, e.Error, want)
		}
	}
}
