package server

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/zs"
)

// form is a multipart body of the fields given in order: name, file name ("" for a plain
// field) and content.
func form(t *testing.T, fields ...[3]string) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, f := range fields {
		var w interface{ Write([]byte) (int, error) }
		var err error
		if f[1] != "" {
			w, err = mw.CreateFormFile(f[0], f[1])
		} else {
			w, err = mw.CreateFormField(f[0])
		}
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(f[2]))
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return mw.FormDataContentType(), buf.Bytes()
}

// A loose TotK .ainb.zs opens and saves on a server without -zstd-dicts when the request
// brings the game's ZsDic.pack.zs: /api/parse with the fields "zsdic" and "file", and
// /api/build?zstd=1 with "zsdic" and "document"; the saved file decompresses to what a plain
// build gives.
func TestParseBuildWithRequestZsDic(t *testing.T) {
	zsdic, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "zstd", "ZsDic.pack.zs"))
	if err != nil {
		t.Fatal(err)
	}
	codec, err := zs.LoadZsDic(zsdic)
	if err != nil {
		t.Fatal(err)
	}
	defer codec.Close()
	plain := corpusFile(t, midFile)
	z, err := codec.Compress(1, plain, zs.Fast)
	if err != nil {
		t.Fatal(err)
	}
	s := newTestServer(t, nil)

	// Without the field: the dictionary the frame needs is named.
	e := wantError(t, do(s, "POST", "/api/parse?name=Enemy.ainb.zs", "application/zstd", z), http.StatusUnprocessableEntity)
	if e.Detail["dictionary"] != float64(1) {
		t.Fatalf("without zsdic: %+v", e)
	}

	ct, body := form(t, [3]string{"zsdic", "ZsDic.pack.zs", string(zsdic)}, [3]string{"file", "Enemy.ainb.zs", string(z)})
	rec := do(s, "POST", "/api/parse", ct, body)
	if rec.Code != http.StatusOK {
		t.Fatalf("with zsdic: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}
	if got := rec.Header().Get(zstdDictHeader); got != "1" {
		t.Errorf("%s: %q, want 1", zstdDictHeader, got)
	}
	doc := rec.Body.Bytes()
	if !bytes.Equal(doc, parseOK(t, s, "Enemy.ainb", plain)) {
		t.Fatal("the document of the .zs differs from the plain file's")
	}

	want := do(s, "POST", "/api/build", "application/json", doc)
	if want.Code != http.StatusOK {
		t.Fatalf("plain build: %d %s", want.Code, cut(want.Body.Bytes()))
	}
	ct, body = form(t, [3]string{"zsdic", "ZsDic.pack.zs", string(zsdic)}, [3]string{"document", "", string(doc)})
	rec = do(s, "POST", "/api/build?zstd=1", ct, body)
	if rec.Code != http.StatusOK {
		t.Fatalf("build with zsdic: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}
	if id, err := zs.FrameDictID(rec.Body.Bytes()); err != nil || id != 1 {
		t.Errorf("saved with dictionary %d (%v), want 1", id, err)
	}
	out, err := codec.Decompress(rec.Body.Bytes(), zs.MaxSize)
	if err != nil || !bytes.Equal(out, want.Body.Bytes()) {
		t.Errorf("the saved .zs does not decompress to the plain build (%v)", err)
	}
	if got := rec.Header().Get("Content-Disposition"); !strings.Contains(got, `.ainb.zs"`) {
		t.Errorf("Content-Disposition %q", got)
	}
	if got := rec.Header().Get(zstdDictHeader); got != "1" {
		t.Errorf("%s: %q, want 1", zstdDictHeader, got)
	}

	// A frame without a dictionary decodes with the request's dictionaries as without them.
	z0, err := codec.Compress(0, plain, zs.Fast)
	if err != nil {
		t.Fatal(err)
	}
	ct, body = form(t, [3]string{"zsdic", "ZsDic.pack.zs", string(zsdic)}, [3]string{"file", "Enemy.ainb.zs", string(z0)})
	if rec := do(s, "POST", "/api/parse", ct, body); rec.Code != http.StatusOK || rec.Header().Get(zstdDictHeader) != "0" || !bytes.Equal(rec.Body.Bytes(), doc) {
		t.Errorf("a .zs without dictionary, sent with zsdic: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}

	// The multipart form without the dictionaries, and with a file that is not them.
	ct, body = form(t, [3]string{"document", "", string(doc)})
	e = wantError(t, do(s, "POST", "/api/build?zstd=1", ct, body), http.StatusUnprocessableEntity)
	if e.Detail["dictionary"] != float64(1) {
		t.Errorf("build without zsdic: %+v", e)
	}
	ct, body = form(t, [3]string{"zsdic", "ZsDic.pack.zs", "not the dictionaries"}, [3]string{"file", "Enemy.ainb.zs", string(z)})
	e = wantError(t, do(s, "POST", "/api/parse", ct, body), http.StatusUnprocessableEntity)
	if !strings.HasPrefix(e.Error, "the zsdic field is not the game's ZsDic.pack.zs") {
		t.Errorf("parse with a bad zsdic: %q", e.Error)
	}
	ct, body = form(t, [3]string{"zsdic", "ZsDic.pack.zs", string(zsdic)})
	e = wantError(t, do(s, "POST", "/api/build?zstd=1", ct, body), http.StatusBadRequest)
	if e.Error != `no multipart field "document": send the document as JSON in it` {
		t.Errorf("build without a document: %q", e.Error)
	}
	// A damaged .zs is named damaged, with the place, as without the field.
	ct, body = form(t, [3]string{"zsdic", "ZsDic.pack.zs", string(zsdic)}, [3]string{"file", "Enemy.ainb.zs", string(z[:len(z)-10])})
	e = wantError(t, do(s, "POST", "/api/parse", ct, body), http.StatusUnprocessableEntity)
	if !strings.HasPrefix(e.Error, "not a valid zstd file: the file ends at byte ") {
		t.Errorf("a cut .zs with zsdic: %q", e.Error)
	}
}
