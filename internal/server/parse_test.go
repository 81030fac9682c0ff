package server

import (
	"ainbeditor/internal/zs"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"ainbeditor/internal/graph"
	"ainbeditor/internal/testcorpus"
)

func TestParseRaw(t *testing.T) {
	s := newTestServer(t, nil)
	data := corpusFile(t, midFile)
	rec := do(s, "POST", "/api/parse?name=Enemy.ainb", "application/octet-stream", data)
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, cut(rec.Body.Bytes()))
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q", ct)
	}
	doc, err := graph.Decode(rec.Body.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if doc.Name != "Enemy.ainb" || doc.Format != graph.Format {
		t.Fatalf("name %q format %q", doc.Name, doc.Format)
	}
	if len(doc.Nodes) != 318 {
		t.Fatalf("%d nodes, want 318", len(doc.Nodes))
	}
	// The response is exactly what graph.Parse makes of the file.
	want, err := graph.Parse("Enemy.ainb", data)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON := want.Encode()
	if !bytes.Equal(bytes.TrimSuffix(rec.Body.Bytes(), []byte("\n")), wantJSON) {
		t.Fatal("response differs from graph.Parse's document")
	}
	// Without a content type, as a fetch of an untyped Blob sends it.
	if rec := do(s, "POST", "/api/parse", "", data); rec.Code != 200 {
		t.Fatalf("untyped upload: %d", rec.Code)
	}
}

func TestParseMultipart(t *testing.T) {
	s := newTestServer(t, nil)
	data := corpusFile(t, midFile)
	ct, body := multipartBody(t, "file", `C:\fakepath\Enemy_Return.ainb`, data)
	rec := do(s, "POST", "/api/parse?name=ignored.ainb", ct, body)
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, cut(rec.Body.Bytes()))
	}
	var doc struct{ Name string }
	json.Unmarshal(rec.Body.Bytes(), &doc)
	if doc.Name != "Enemy_Return.ainb" {
		t.Fatalf("name %q, want Enemy_Return.ainb", doc.Name)
	}

	ct, body = multipartBody(t, "upload", "x.ainb", data)
	e := wantError(t, do(s, "POST", "/api/parse", ct, body), http.StatusBadRequest)
	if e.Error != `no multipart field "file": send the .ainb file in it` {
		t.Fatalf("error %q", e.Error)
	}
	wantError(t, do(s, "POST", "/api/parse", "multipart/form-data; boundary=xyz", []byte("garbage")), http.StatusBadRequest)
	wantError(t, do(s, "POST", "/api/parse", "multipart/form-data", data), http.StatusBadRequest)
}

func TestUploadName(t *testing.T) {
	for in, want := range map[string]string{
		"":                          "file.ainb",
		"Enemy.ainb":                "Enemy.ainb",
		"Enemy.ainb.zs":             "Enemy.ainb",
		"Enemy.ainb.ZS":             "Enemy.ainb",
		".zs":                       "file.ainb",
		"../../etc/passwd":          "passwd",
		`C:\Users\me\Enemy.ainb.zs`: "Enemy.ainb",
		"a\"b\r\nc\x00d.ainb":       "abcd.ainb",
		"..":                        "file.ainb",
		"/":                         "file.ainb",
		"  spaced.ainb  ":           "spaced.ainb",
		"ドラゴン.ainb":                 "ドラゴン.ainb",
		"bad\xffutf8.ainb":          "badutf8.ainb",
		strings.Repeat("é", 150):    strings.Repeat("é", 100),
	} {
		if got := uploadName(in); got != want {
			t.Errorf("uploadName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	s := newTestServer(t, nil)
	data := corpusFile(t, midFile)

	e := wantError(t, do(s, "POST", "/api/parse", "application/octet-stream", nil), http.StatusBadRequest)
	if !strings.HasPrefix(e.Error, "empty upload") {
		t.Errorf("empty body: %q", e.Error)
	}

	// Truncated: where the file stops, in plain words, and the reader's own message beside.
	half := len(data) / 2
	e = wantError(t, do(s, "POST", "/api/parse", "application/octet-stream", data[:half]), http.StatusUnprocessableEntity)
	if want := fmt.Sprintf("this file is truncated at byte %d: an AINB file ends with its string pool, and this one stops before its end", half); e.Error != want ||
		e.Detail["offset"] != float64(half) || !strings.HasPrefix(fmt.Sprint(e.Detail["reason"]), "ainb: ") {
		t.Errorf("truncated: %+v", e)
	}

	// Another kind of file, named.
	e = wantError(t, do(s, "POST", "/api/parse", "application/octet-stream", []byte("PK\x03\x04 this is a zip, not an AINB file at all................................................................................................................................")), http.StatusUnprocessableEntity)
	if e.Error != "this is a ZIP archive, not an AINB file" || e.Detail["kind"] != "a ZIP archive" {
		t.Errorf("not an AINB: %+v", e)
	}

	for _, ct := range []string{"application/json", "text/plain", "application/x-www-form-urlencoded", "not a / type;;"} {
		e = wantError(t, do(s, "POST", "/api/parse", ct, data), http.StatusUnsupportedMediaType)
		if !strings.HasPrefix(e.Error, "unsupported content type ") {
			t.Errorf("%s: %q", ct, e.Error)
		}
		accepted, _ := e.Detail["accepted"].([]any)
		if len(accepted) != 4 || accepted[0] != "multipart/form-data" || accepted[1] != "application/octet-stream" {
			t.Errorf("%s: accepted %v", ct, e.Detail["accepted"])
		}
	}
}

func TestParseTooLarge(t *testing.T) {
	s := newTestServer(t, nil) // the default 16 MiB
	big := make([]byte, 17<<20)
	copy(big, corpusFile(t, midFile))
	wantLimit := func(e errorResponse) {
		t.Helper()
		if e.Error != "request body too large: the limit is 16777216 bytes" || e.Detail["limit"] != float64(16<<20) {
			t.Errorf("413: %+v", e)
		}
	}
	// Refused on its Content-Length, before reading.
	wantLimit(wantError(t, do(s, "POST", "/api/parse", "application/octet-stream", big), http.StatusRequestEntityTooLarge))
	// Without a length (chunked), refused while reading.
	req := httptestRequest("POST", "/api/parse", "application/octet-stream", big)
	req.ContentLength = -1
	wantLimit(wantError(t, serve(s, req), http.StatusRequestEntityTooLarge))
	// In a form.
	ct, body := multipartBody(t, "file", "big.ainb", big)
	wantLimit(wantError(t, do(s, "POST", "/api/parse", ct, body), http.StatusRequestEntityTooLarge))
	req = httptestRequest("POST", "/api/parse", ct, body)
	req.ContentLength = -1
	wantLimit(wantError(t, serve(s, req), http.StatusRequestEntityTooLarge))
	// Exactly at the limit is read (and then is no AINB).
	small := newTestServer(t, func(c *Config) { c.MaxUpload = 1000 })
	wantError(t, do(small, "POST", "/api/parse", "", make([]byte, 1000)), http.StatusUnprocessableEntity)
	wantError(t, do(small, "POST", "/api/parse", "", make([]byte, 1001)), http.StatusRequestEntityTooLarge)
}

func zstdEncode(t testing.TB, data []byte, opts ...zstd.EOption) []byte {
	t.Helper()
	enc, err := zstd.NewWriter(nil, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll(data, nil)
}

func TestParseZstd(t *testing.T) {
	s := newTestServer(t, nil)
	data := corpusFile(t, midFile)
	plain := parseOK(t, s, "x.ainb", data)
	z := zstdEncode(t, data)
	if len(z) >= len(data) || !zs.IsZstd(z) {
		t.Fatalf("compressed %d -> %d bytes", len(data), len(z))
	}
	for _, c := range []struct{ ct, name string }{{"application/zstd", "x.ainb.zs"}, {"application/octet-stream", "x.ainb.zs"}, {"", "x.ainb"}} {
		rec := do(s, "POST", "/api/parse?name="+c.name, c.ct, z)
		if rec.Code != 200 {
			t.Fatalf("%s: status %d: %s", c.ct, rec.Code, cut(rec.Body.Bytes()))
		}
		if !bytes.Equal(rec.Body.Bytes(), plain) {
			t.Fatalf("%s: the zstd upload's document differs from the plain one", c.ct)
		}
	}
	// Round trip: the document of the compressed file builds the decompressed file.
	rec := do(s, "POST", "/api/build", "application/json", plain)
	if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), data) {
		t.Fatalf("build of the zstd upload: %d, equal %v", rec.Code, bytes.Equal(rec.Body.Bytes(), data))
	}
	// Streamed frames (no content size in the header) and several frames in a row.
	var buf bytes.Buffer
	w, _ := zstd.NewWriter(&buf)
	w.Write(data[:1000])
	w.Close()
	w.Reset(&buf)
	w.Write(data[1000:])
	w.Close()
	ct, body := multipartBody(t, "file", "Enemy.ainb.zs", buf.Bytes())
	rec = do(s, "POST", "/api/parse", ct, body)
	if rec.Code != 200 {
		t.Fatalf("two streamed frames: %d: %s", rec.Code, cut(rec.Body.Bytes()))
	}
	var doc struct{ Name string }
	json.Unmarshal(rec.Body.Bytes(), &doc)
	if doc.Name != "Enemy.ainb" {
		t.Fatalf("name %q, want the .zs stripped", doc.Name)
	}
}

func TestParseZstdCorrupt(t *testing.T) {
	s := newTestServer(t, nil)
	z := zstdEncode(t, corpusFile(t, midFile))
	var h zstd.Header
	if err := h.Decode(z); err != nil {
		t.Fatal(err)
	}
	// A frame header whose content size cannot fit in the blocks that follow: a garbled
	// header, which the decoder alone reported as a file too big to decompress.
	// The first block's header: its size, and the end of the data it needs.
	block := int(uint32(z[h.HeaderSize])|uint32(z[h.HeaderSize+1])<<8|uint32(z[h.HeaderSize+2])<<16) >> 3
	end := h.HeaderSize + 3 + block
	// One small frame of one raw block, its header changed to claim 4 GiB of content.
	small := zstdEncode(t, []byte("abcdefgh"))
	var sh zstd.Header
	if err := sh.Decode(small); err != nil || !sh.FirstBlock.Last || sh.FirstBlock.Compressed || !sh.HasCheckSum {
		t.Fatalf("small frame: %v %+v", err, sh)
	}
	// single segment, 8-byte content size, no checksum, no dictionary
	huge := append([]byte{0x28, 0xb5, 0x2f, 0xfd, 0xe0}, 0, 0, 0, 0, 1, 0, 0, 0)
	huge = append(huge, small[sh.HeaderSize:len(small)-4]...) // its block, not its checksum
	stray := append(append([]byte{}, z...), 1, 2)
	for name, c := range map[string]struct {
		b    []byte
		want string
	}{
		"truncated":  {z[:end-10], fmt.Sprintf("not a valid zstd file: the file ends at byte %d, inside the block at byte %d, which needs 10 bytes more (the file is cut short)", end-10, h.HeaderSize)},
		"magic only": {z[:4], "not a valid zstd file: the frame header at byte 0 is damaged (unexpected EOF)"},
		"flipped":    {append(append([]byte{}, z[:end]...), 0xf9, 0xff, 0xff), fmt.Sprintf("not a valid zstd file: the block at byte %d declares 2097151 bytes, more than zstd's 131072", end)},
		"huge size":  {huge, "not a valid zstd file: the frame header at byte 0 declares 4294967296 bytes of content, more than its blocks can hold (8)"},
		"stray":      {stray, fmt.Sprintf("not a valid zstd file: 2 stray bytes at byte %d after the last frame", len(z))},
		"reserved":   {append(append([]byte{}, z[:h.HeaderSize]...), 0x07, 0, 0), fmt.Sprintf("not a valid zstd file: the block at byte %d has the reserved type 3", h.HeaderSize)},
	} {
		e := wantError(t, do(s, "POST", "/api/parse", "", c.b), http.StatusUnprocessableEntity)
		if e.Error != c.want {
			t.Errorf("%s: %q\nwant %q", name, e.Error, c.want)
		}
	}
	// Damage inside a block's data, past what the block headers show, is left to the decoder.
	bad := append([]byte{}, z...)
	for i := h.HeaderSize + 3; i < h.HeaderSize+40; i++ {
		bad[i] ^= 0x5a
	}
	e := wantError(t, do(s, "POST", "/api/parse", "", bad), http.StatusUnprocessableEntity)
	if !strings.HasPrefix(e.Error, "not a valid zstd file: its compressed data is damaged (zstd: ") {
		t.Errorf("damaged block: %q", e.Error)
	}
}

// TestParseZstdDictionary builds frames that need a dictionary, as TotK's .ainb.zs files do,
// with the dictionary's id in the frame header.
func TestParseZstdDictionary(t *testing.T) {
	data := corpusFile(t, midFile)
	dictPath := filepath.Join(testcorpus.Dir(t), "zstd", "zs.zsdic")
	dict, err := os.ReadFile(dictPath)
	if err != nil {
		t.Fatal(err)
	}
	z := zstdEncode(t, data, zstd.WithEncoderDict(dict))
	var h zstd.Header
	if err := h.Decode(z); err != nil || h.DictionaryID != 1 {
		t.Fatalf("frame header: %v, dictionary %d; want 1", err, h.DictionaryID)
	}

	s := newTestServer(t, nil)
	e := wantError(t, do(s, "POST", "/api/parse?name=Enemy.ainb.zs", "application/zstd", z), http.StatusUnprocessableEntity)
	if want := "zstd frame needs dictionary 1 (TotK's zs.zsdic); upload the decompressed .ainb"; e.Error != want {
		t.Fatalf("error %q, want %q", e.Error, want)
	}
	if e.Detail["dictionary"] != float64(1) {
		t.Fatalf("detail %v", e.Detail)
	}

	// Any dictionary id: a raw-content dictionary with id 0x12345678.
	z2 := zstdEncode(t, data, zstd.WithEncoderDictRaw(0x12345678, []byte(strings.Repeat("Some dictionary bytes. ", 100))))
	e = wantError(t, do(s, "POST", "/api/parse", "", z2), http.StatusUnprocessableEntity)
	if want := "zstd frame needs dictionary 305419896; upload the decompressed .ainb"; e.Error != want {
		t.Fatalf("error %q, want %q", e.Error, want)
	}

	// A server given the dictionary by its operator decompresses the frame.
	withDict := newTestServer(t, func(c *Config) { c.ZstdDicts = []string{dictPath} })
	rec := do(withDict, "POST", "/api/parse?name=x.ainb", "application/zstd", z)
	if rec.Code != 200 {
		t.Fatalf("with the dictionary: %d: %s", rec.Code, cut(rec.Body.Bytes()))
	}
	if !bytes.Equal(rec.Body.Bytes(), parseOK(t, withDict, "x.ainb", data)) {
		t.Fatal("the dictionary-compressed upload's document differs from the plain one")
	}
	// ... and still names a dictionary it lacks.
	e = wantError(t, do(withDict, "POST", "/api/parse", "", zstdEncode(t, data, zstd.WithEncoderDictRaw(2, []byte("x")))), http.StatusUnprocessableEntity)
	if want := "zstd frame needs dictionary 2 (TotK's bcett.byml.zsdic); upload the decompressed .ainb"; e.Error != want {
		t.Fatalf("error %q, want %q", e.Error, want)
	}

	// A file that is not a dictionary is refused at start.
	cfg := DefaultConfig()
	cfg.ZstdDicts = []string{filepath.Join(testcorpus.Dir(t), "ainb", midFile)}
	if _, err := New(cfg, nil, nil); err == nil {
		t.Fatal("New accepted an AINB file as a zstd dictionary")
	}
}

// TestParseZstdBomb sends small uploads that decompress past the limit (4 x MaxUpload).
func TestParseZstdBomb(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.MaxUpload = 1 << 20 })
	zeros := make([]byte, 4<<20+1)
	sized := zstdEncode(t, zeros) // the frame header states the size
	var buf bytes.Buffer
	w, _ := zstd.NewWriter(&buf) // streamed: no size in the header
	w.Write(zeros)
	w.Close()
	for name, z := range map[string][]byte{"sized": sized, "streamed": buf.Bytes()} {
		if len(z) > 1<<20 {
			t.Fatalf("%s: %d bytes compressed, too big to be a bomb", name, len(z))
		}
		e := wantError(t, do(s, "POST", "/api/parse", "", z), http.StatusRequestEntityTooLarge)
		if e.Error != "the file decompresses to more than 4194304 bytes, the limit" || e.Detail["limit"] != float64(4<<20) {
			t.Errorf("%s: %+v", name, e)
		}
	}
	// Exactly at the limit decompresses (and is no AINB).
	e := wantError(t, do(s, "POST", "/api/parse", "", zstdEncode(t, zeros[:4<<20])), http.StatusUnprocessableEntity)
	if e.Error != `this file decompresses to something that is not an AINB file: an AINB file starts with the bytes "AIB "` {
		t.Errorf("at the limit: %q", e.Error)
	}
}
