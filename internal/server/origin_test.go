package server

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
)

// smallFile is the smallest random corpus file: 5 nodes, 2.7 KB.
const smallFile = "random/random_s1_v404_n5.ainb"

// originRequest is a parse of data with the browser headers given ("" leaves one out).
func originRequest(data []byte, secFetchSite, origin string) *http.Request {
	req := httptestRequest("POST", "/api/parse?name=x.ainb", "application/octet-stream", data)
	if secFetchSite != "" {
		req.Header.Set("Sec-Fetch-Site", secFetchSite)
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	return req
}

func TestCrossOrigin(t *testing.T) {
	s := newTestServer(t, nil)
	data := corpusFile(t, smallFile)
	want := parseOK(t, s, "x.ainb", data)
	// httptest's requests are for the host example.com.
	for _, c := range []struct {
		name, site, origin string
		status             int
		body               string
	}{
		{"no headers (curl, the ainb command)", "", "", 200, ""},
		{"same origin", "same-origin", "http://example.com", 200, ""},
		{"typed in the address bar", "none", "", 200, ""},
		{"old browser, same origin", "", "http://example.com", 200, ""},
		{"old browser, https on the same host", "", "https://example.com", 200, ""},
		{"cross-site", "cross-site", "https://evil.example", 403,
			`{"error":"cross-origin request refused: the browser says it was sent from another site's page (Sec-Fetch-Site: \"cross-site\"); only the editor's own pages, or origins the server is started with (-allow-origins), may call this endpoint","detail":{"origin":"https://evil.example","secFetchSite":"cross-site"}}`},
		{"cross-site, no Origin", "cross-site", "", 403,
			`{"error":"cross-origin request refused: the browser says it was sent from another site's page (Sec-Fetch-Site: \"cross-site\"); only the editor's own pages, or origins the server is started with (-allow-origins), may call this endpoint","detail":{"origin":"","secFetchSite":"cross-site"}}`},
		{"same-site (a sibling subdomain)", "same-site", "http://other.example.com", 403,
			`{"error":"cross-origin request refused: the browser says it was sent from another site's page (Sec-Fetch-Site: \"same-site\"); only the editor's own pages, or origins the server is started with (-allow-origins), may call this endpoint","detail":{"origin":"http://other.example.com","secFetchSite":"same-site"}}`},
		{"old browser, other origin", "", "https://evil.example", 403,
			`{"error":"cross-origin request refused: it was sent from the page of origin \"https://evil.example\", not from this server (\"example.com\"); only the editor's own pages, or origins the server is started with (-allow-origins), may call this endpoint","detail":{"origin":"https://evil.example","secFetchSite":""}}`},
		{"old browser, other port", "", "http://example.com:8081", 403,
			`{"error":"cross-origin request refused: it was sent from the page of origin \"http://example.com:8081\", not from this server (\"example.com\"); only the editor's own pages, or origins the server is started with (-allow-origins), may call this endpoint","detail":{"origin":"http://example.com:8081","secFetchSite":""}}`},
		{"sandboxed page or file://", "", "null", 403,
			`{"error":"cross-origin request refused: it was sent from the page of origin \"null\", not from this server (\"example.com\"); only the editor's own pages, or origins the server is started with (-allow-origins), may call this endpoint","detail":{"origin":"null","secFetchSite":""}}`},
	} {
		rec := serve(s, originRequest(data, c.site, c.origin))
		if c.status == 200 {
			if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), want) {
				t.Errorf("%s: %d %s, want the document", c.name, rec.Code, cut(rec.Body.Bytes()))
			}
			continue
		}
		wantError(t, rec, c.status)
		if got := strings.TrimSuffix(rec.Body.String(), "\n"); got != c.body {
			t.Errorf("%s: body\n%s\nwant\n%s", c.name, got, c.body)
		}
	}
}

// TestCrossOriginEveryEndpoint checks that each state-changing endpoint refuses before it
// looks at the request: a bodiless request of the wrong type would otherwise be a 415.
func TestCrossOriginEveryEndpoint(t *testing.T) {
	s := newTestServer(t, nil)
	for _, path := range []string{"/api/parse", "/api/build", "/api/layout", "/api/shares", "/api/tree/diff", "/api/tree/merge"} {
		req := httptestRequest("POST", path, "text/plain", []byte("x"))
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		e := wantError(t, serve(s, req), http.StatusForbidden)
		if !strings.HasPrefix(e.Error, "cross-origin request refused: ") {
			t.Errorf("%s: %q", path, e.Error)
		}
		// Without the header the request reaches the handler, which refuses the type.
		wantError(t, do(s, "POST", path, "text/plain", []byte("x")), http.StatusUnsupportedMediaType)
	}
	// Reads are not guarded: another site's page cannot read the answer anyway (no CORS
	// headers), and a share link opened from anywhere must work.
	req := httptestRequest("GET", "/api/shares/"+strings.Repeat("a", 26), "", nil)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Origin", "https://evil.example")
	wantError(t, serve(s, req), http.StatusNotFound)
}

func TestCrossOriginAllowList(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.AllowOrigins = []string{"https://tools.example.org", "http://localhost:3000"} })
	data := corpusFile(t, smallFile)
	want := parseOK(t, s, "x.ainb", data)
	for _, c := range []struct{ site, origin string }{
		{"cross-site", "https://tools.example.org"},
		{"", "https://tools.example.org"},
		{"same-site", "http://localhost:3000"},
	} {
		rec := serve(s, originRequest(data, c.site, c.origin))
		if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), want) {
			t.Errorf("%q from %s: %d %s", c.site, c.origin, rec.Code, cut(rec.Body.Bytes()))
		}
	}
	// Only the listed origins: not another scheme or port of them.
	for _, origin := range []string{"http://tools.example.org", "http://localhost:3001", "https://evil.example"} {
		wantError(t, serve(s, originRequest(data, "cross-site", origin)), http.StatusForbidden)
	}
}
