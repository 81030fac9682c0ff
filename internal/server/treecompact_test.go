package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"

	"ainbeditor/internal/byml"
	"ainbeditor/internal/jsontext"
	"ainbeditor/internal/testcorpus"
)

// /api/tree?form=compact answers what /api/tree does, the document in byml's compact form
// ("compact" instead of "document"): the form the model writes, to the byte, whether the
// server wrote it straight from the file or through the model (a file with unsorted hashes,
// which warns); the same warnings; the same errors for a damaged file and past the budget.
// AAMP has no compact form and answers its JSON form.
func TestTreeCompact(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	dir := testcorpus.GameDir(t, "byml")
	for _, tc := range []struct{ path, name string }{
		{filepath.Join(dir, "TotK__Enemy_Drake_Lord.engine__actor__GameParameterTable.bgyml__5fd9985622.byml"), "unsorted.byml"},
		{filepath.Join(dir, "SMO__WaterfallWorldHomeStageMap.byml__35f150b19f.byml"), "shared.byml"},
		{filepath.Join(testcorpus.Dir(t), "byml", "ActorInfo.product.sbyml"), "ActorInfo.product.sbyml"},
	} {
		data := readFile(t, tc.path)
		ct, body := packForm(t, packPart{"file", tc.name, data})
		var full, compact map[string]json.RawMessage
		for _, q := range []struct {
			path string
			into *map[string]json.RawMessage
		}{{"/api/tree", &full}, {"/api/tree?form=compact", &compact}} {
			rec := do(s, "POST", q.path, ct, body)
			if rec.Code != http.StatusOK {
				t.Fatalf("%s %s: %d %s", tc.name, q.path, rec.Code, cut(rec.Body.Bytes()))
			}
			if err := json.Unmarshal(rec.Body.Bytes(), q.into); err != nil {
				t.Fatalf("%s %s: %v", tc.name, q.path, err)
			}
		}
		if _, ok := compact["document"]; ok || len(compact) != len(full) {
			t.Errorf("%s: compact reply has members %v, want those of %v with compact for document", tc.name, keys(compact), keys(full))
		}
		for k, v := range full {
			if k != "document" && !bytes.Equal(compact[k], v) {
				t.Errorf("%s: %s is %s, want %s", tc.name, k, compact[k], v)
			}
		}
		doc, err := byml.FromJSON(full["document"])
		if err != nil {
			t.Fatal(err)
		}
		want, err := doc.AppendCompact(nil, jsontext.NoLimit)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(compact["compact"], want) {
			t.Errorf("%s: compact form of %d bytes is not the model's (%d bytes)", tc.name, len(compact["compact"]), len(want))
		}
	}

	// A damaged file, a file past the budget: the errors of the tagged form.
	bymlIn := corpusAt(t, "byml/LevelSensor.byml")
	tight := newTestServer(t, nil)
	tight.replyBase, tight.replyRatio = 1000, 0 // the compact form is smaller than the file
	for _, c := range []struct {
		s    *Server
		data []byte
	}{{s, bymlIn[:len(bymlIn)/2]}, {tight, bymlIn}} {
		ct, body := packForm(t, packPart{"file", "x.byml", c.data})
		was := wantError(t, do(c.s, "POST", "/api/tree", ct, body), http.StatusUnprocessableEntity)
		got := wantError(t, do(c.s, "POST", "/api/tree?form=compact", ct, body), http.StatusUnprocessableEntity)
		if c.s == s && got.Error != was.Error || c.s == tight && (got.Detail["limit"] != float64(1000) || was.Detail["limit"] != float64(1000)) {
			t.Errorf("%d bytes: %q %v, the tagged form's %q %v", len(c.data), got.Error, got.Detail, was.Error, was.Detail)
		}
	}

	// AAMP: its JSON form.
	ct, body := packForm(t, packPart{"file", "x.bxml", corpusAt(t, "aamp/TBox_Field_Stone.bxml")})
	a, b := do(s, "POST", "/api/tree", ct, body), do(s, "POST", "/api/tree?form=compact", ct, body)
	if a.Code != http.StatusOK || !bytes.Equal(a.Body.Bytes(), b.Body.Bytes()) {
		t.Errorf("AAMP: %d, compact answer the same %v", a.Code, bytes.Equal(a.Body.Bytes(), b.Body.Bytes()))
	}
}

func keys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// The tree answer comes compressed for a browser, in zstd frames whose window (which each
// answer in flight holds about twice over) is zstdWindow, and decompresses to the answer.
func TestTreeCompactCompressed(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	ct, body := packForm(t, packPart{"file", "ActorInfo.product.byml", corpusAt(t, treeLoadFile)})
	plain := do(s, "POST", "/api/tree?form=compact", ct, body)
	req := httptestRequest("POST", "/api/tree?form=compact", ct, body)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
	rec := serve(s, req)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "zstd" {
		t.Fatalf("%d, Content-Encoding %q", rec.Code, rec.Header().Get("Content-Encoding"))
	}
	var h zstd.Header
	if err := h.Decode(rec.Body.Bytes()); err != nil || h.WindowSize != zstdWindow {
		t.Errorf("frame window %d (%v), want %d", h.WindowSize, err, zstdWindow)
	}
	d, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	got, err := d.DecodeAll(rec.Body.Bytes(), nil)
	if err != nil || !bytes.Equal(got, plain.Body.Bytes()) {
		t.Errorf("decompressed to %d bytes (%v), want the %d of the plain answer", len(got), err, plain.Body.Len())
	}
}
