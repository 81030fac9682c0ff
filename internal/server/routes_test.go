package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"ainbeditor/internal/share"
)

func TestHealthz(t *testing.T) {
	s := newTestServer(t, nil)
	rec := do(s, "GET", "/healthz", "", nil)
	if rec.Code != 200 || rec.Body.String() != "{\"status\":\"ok\"}\n" {
		t.Fatalf("healthz: %d %q", rec.Code, rec.Body.String())
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q", ct)
	}
	if rec := do(s, "HEAD", "/healthz", "", nil); rec.Code != 200 {
		t.Fatalf("HEAD /healthz: %d", rec.Code)
	}
}

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	s := newTestServer(t, nil)
	want := map[string]string{
		"Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
		"X-Content-Type-Options":  "nosniff",
		"Referrer-Policy":         "no-referrer",
		"X-Frame-Options":         "DENY",
	}
	for _, rq := range []struct{ method, path, ct string }{
		{"GET", "/", ""}, {"GET", "/static/main.js", ""}, {"GET", "/healthz", ""},
		{"GET", "/nope", ""}, {"DELETE", "/api/parse", ""}, {"POST", "/api/parse", "application/json"},
		{"GET", "/api/shares/" + strings.Repeat("a", 26), ""},
	} {
		rec := do(s, rq.method, rq.path, rq.ct, nil)
		for k, v := range want {
			if got := rec.Header().Get(k); got != v {
				t.Errorf("%s %s (%d): %s = %q, want %q", rq.method, rq.path, rec.Code, k, got, v)
			}
		}
	}
}

func TestEditorPage(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.MaxUpload = 1000 })
	rec := do(s, "GET", "/", "", nil)
	if rec.Code != 200 {
		t.Fatalf("GET /: %d", rec.Code)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Fatalf("Content-Type %q", ct)
	}
	body := rec.Body.String()
	for _, want := range []string{
		`<link rel="stylesheet" href="/static/editor.css">`,
		`<script type="module" src="/static/main.js"></script>`,
		`<div id="app" data-max-upload="1000">`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %s:\n%s", want, body)
		}
	}
	if strings.Contains(body, "data-share") {
		t.Errorf("empty editor names a share:\n%s", body)
	}
	// The CSP forbids inline script and style: the page must have none.
	if strings.Count(body, "<script") != 1 || strings.Contains(body, "<style") || strings.Contains(body, "style=") {
		t.Errorf("page has inline script or style:\n%s", body)
	}
}

func TestStaticAssets(t *testing.T) {
	s := newTestServer(t, nil)
	for path, ct := range map[string]string{
		"/static/main.js":    "text/javascript; charset=utf-8",
		"/static/editor.css": "text/css; charset=utf-8",
	} {
		rec := do(s, "GET", path, "", nil)
		if rec.Code != 200 {
			t.Fatalf("GET %s: %d", path, rec.Code)
		}
		if got := rec.Header().Get("Content-Type"); got != ct {
			t.Errorf("%s: Content-Type %q, want %q", path, got, ct)
		}
		if got := rec.Header().Get("Cache-Control"); got != "no-cache" {
			t.Errorf("%s: Cache-Control %q, want no-cache", path, got)
		}
		name := strings.TrimPrefix(path, "/static/")
		if rec.Body.String() != string(s.assets[name].data) || rec.Body.Len() == 0 {
			t.Errorf("%s: body differs from the embedded file", path)
		}
		etag := rec.Header().Get("ETag")
		if len(etag) != 26 || etag[0] != '"' {
			t.Fatalf("%s: ETag %q, want a quoted 24-digit hash", path, etag)
		}
		for _, inm := range []string{etag, "W/" + etag, `"x", ` + etag, "*"} {
			req := httptest.NewRequest("GET", path, nil)
			req.Header.Set("If-None-Match", inm)
			rec2 := httptest.NewRecorder()
			s.ServeHTTP(rec2, req)
			if rec2.Code != http.StatusNotModified || rec2.Body.Len() != 0 {
				t.Errorf("%s If-None-Match %s: %d with %d bytes, want 304 and nothing", path, inm, rec2.Code, rec2.Body.Len())
			}
		}
		req := httptest.NewRequest("GET", path, nil)
		req.Header.Set("If-None-Match", `"stale"`)
		rec3 := httptest.NewRecorder()
		s.ServeHTTP(rec3, req)
		if rec3.Code != 200 {
			t.Errorf("%s with a stale ETag: %d, want 200", path, rec3.Code)
		}
	}
	for _, path := range []string{"/static/", "/static/nope.js", "/static/../go.mod", "/static/embed.go", "/static/%2e%2e/go.mod"} {
		wantError(t, do(s, "GET", path, "", nil), http.StatusNotFound)
	}
}

func TestCompressesJSON(t *testing.T) {
	s := newTestServer(t, nil)
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if got := rec.Header().Get("Content-Encoding"); got != "gzip" {
		t.Fatalf("Content-Encoding %q, want gzip", got)
	}
}

func TestNotFound(t *testing.T) {
	s := newTestServer(t, nil)
	e := wantError(t, do(s, "GET", "/api/nope", "", nil), http.StatusNotFound)
	if e.Error != "not found" {
		t.Fatalf("error %q", e.Error)
	}
	wantError(t, do(s, "GET", "/nope", "", nil), http.StatusNotFound)
	// A browser gets a page.
	req := httptest.NewRequest("GET", "/nope", nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != 404 || !strings.Contains(rec.Body.String(), "<h1>Not Found</h1>") {
		t.Fatalf("browser 404: %d %s", rec.Code, rec.Body.String())
	}
}

func TestMethodNotAllowed(t *testing.T) {
	s := newTestServer(t, nil)
	for _, c := range []struct{ method, path, allow string }{
		{"GET", "/api/parse", "POST"},
		{"PUT", "/api/build", "POST"},
		{"DELETE", "/api/shares", "POST"},
		{"POST", "/healthz", "GET, HEAD"},
		{"POST", "/", "GET, HEAD"},
		{"DELETE", "/api/shares/" + strings.Repeat("a", 26), "GET, HEAD"},
	} {
		rec := do(s, c.method, c.path, "", nil)
		e := wantError(t, rec, http.StatusMethodNotAllowed)
		if got := rec.Header().Get("Allow"); got != c.allow {
			t.Errorf("%s %s: Allow %q, want %q", c.method, c.path, got, c.allow)
		}
		if e.Error != "method "+c.method+" not allowed" {
			t.Errorf("%s %s: error %q", c.method, c.path, e.Error)
		}
	}
}

// panicStore fails the way a bug would.
type panicStore struct{ secretStore }

func (panicStore) Get(ctx context.Context, id string) ([]byte, error) {
	panic("secret internal state /var/lib/x")
}

func TestPanicBecomesOpaque500(t *testing.T) {
	s := newServerWithStore(t, DefaultConfig(), panicStore{})
	rec := do(s, "GET", "/api/shares/"+share.NewID(), "", nil)
	e := wantError(t, rec, http.StatusInternalServerError)
	if e.Error != "internal server error" || e.Detail != nil || strings.Contains(rec.Body.String(), "secret") {
		t.Fatalf("500 body %q reveals too much", rec.Body.String())
	}
}
