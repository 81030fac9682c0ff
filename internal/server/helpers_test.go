package server

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"ainbeditor/internal/share"
	"ainbeditor/internal/testcorpus"
)

// newTestServer makes a server over a fresh share directory; edit adjusts the defaults.
func newTestServer(t testing.TB, edit func(*Config)) *Server {
	t.Helper()
	cfg := DefaultConfig()
	cfg.MaxConversions = 2
	if edit != nil {
		edit(&cfg)
	}
	store, err := share.OpenDirLimits(t.TempDir(), share.Limits{MaxSize: cfg.MaxShare, Quota: cfg.ShareQuota})
	if err != nil {
		t.Fatal(err)
	}
	return newServerWithStore(t, cfg, store)
}

// noRateLimits lifts the per-client rates, for tests that send far more than a person would.
func noRateLimits(c *Config) { c.ShareRate, c.ConvertRate = 1<<30, 1<<30 }

func newServerWithStore(t testing.TB, cfg Config, store share.Store) *Server {
	t.Helper()
	cfg.AllowedHosts = append(cfg.AllowedHosts, testHost)
	s, err := New(cfg, store, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// testHost is the Host of httptest.NewRequest's requests: the server under test answers to
// it as a server deployed under that name would.
const testHost = "example.com"

// do sends one request through the whole handler, middleware included.
func do(s http.Handler, method, target, contentType string, body []byte) *httptest.ResponseRecorder {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req := httptest.NewRequest(method, target, r)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}

// multipartBody makes a form with the file in the field named field.
func multipartBody(t testing.TB, field, filename string, data []byte) (contentType string, body []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if err := mw.WriteField("note", "ignored"); err != nil {
		t.Fatal(err)
	}
	w, err := mw.CreateFormFile(field, filename)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return mw.FormDataContentType(), buf.Bytes()
}

// errorResponse is an error body with its detail decoded loosely.
type errorResponse struct {
	Error  string         `json:"error"`
	Detail map[string]any `json:"detail"`
}

// wantError checks the status, that the body is the JSON error shape, and returns it.
func wantError(t testing.TB, rec *httptest.ResponseRecorder, status int) errorResponse {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("status %d, want %d; body %s", rec.Code, status, cut(rec.Body.Bytes()))
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("error Content-Type %q, want application/json", ct)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(rec.Body.Bytes(), &raw); err != nil {
		t.Fatalf("error body is not JSON: %v: %s", err, cut(rec.Body.Bytes()))
	}
	if _, ok := raw["error"]; !ok || len(raw) != 2 {
		t.Fatalf("error body %s: want exactly the keys error and detail", cut(rec.Body.Bytes()))
	}
	if _, ok := raw["detail"]; !ok {
		t.Fatalf("error body %s has no detail", cut(rec.Body.Bytes()))
	}
	var e errorResponse
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
		t.Fatal(err)
	}
	return e
}

func cut(b []byte) string {
	if len(b) > 400 {
		return string(b[:400]) + "..."
	}
	return string(b)
}

// corpusFile reads one file of the shared corpus, by its path under ainb/.
func corpusFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "ainb", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// midFile is a mid-size corpus file: 318 nodes, about 200 KB.
const midFile = "random/random_s4_v404_n318.ainb"

// parseOK parses data through the API and returns the document JSON.
func parseOK(t testing.TB, s http.Handler, name string, data []byte) []byte {
	t.Helper()
	rec := do(s, "POST", "/api/parse?name="+name, "application/octet-stream", data)
	if rec.Code != http.StatusOK {
		t.Fatalf("parse %s: status %d: %s", name, rec.Code, cut(rec.Body.Bytes()))
	}
	return rec.Body.Bytes()
}

func httptestRequest(method, target, contentType string, body []byte) *http.Request {
	req := httptest.NewRequest(method, target, bytes.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return req
}

func serve(s http.Handler, req *http.Request) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}
