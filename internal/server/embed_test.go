package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"ainbeditor/internal/share"
)

// TestFramingHeaders: /e/{id} may be framed by any site (frame-ancestors *, no
// X-Frame-Options), unknown shares included; the editor's own pages may not be framed.
func TestFramingHeaders(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	id := createShare(t, s, shareBody(t, smallDoc("Enemy.root.ainb"), `{"command":0}`))
	const framed = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors *; form-action 'self'"
	for _, path := range []string{"/e/" + id, "/e/" + share.NewID()} {
		rec := do(s, "GET", path, "", nil)
		if got := rec.Header().Get("Content-Security-Policy"); got != framed {
			t.Errorf("%s (%d): CSP %q, want %q", path, rec.Code, got, framed)
		}
		if v, ok := rec.Header()["X-Frame-Options"]; ok {
			t.Errorf("%s: X-Frame-Options %q", path, v)
		}
		if got := rec.Header().Get("Cross-Origin-Resource-Policy"); got != "cross-origin" {
			t.Errorf("%s: Cross-Origin-Resource-Policy %q", path, got)
		}
	}
	for _, path := range []string{"/", "/s/" + id, "/s/" + id + "/preview.png", "/s/" + share.NewID()} {
		rec := do(s, "GET", path, "", nil)
		if got := rec.Header().Get("Content-Security-Policy"); !strings.Contains(got, "frame-ancestors 'none'") {
			t.Errorf("%s: CSP %q", path, got)
		}
		if got := rec.Header().Get("X-Frame-Options"); got != "DENY" {
			t.Errorf("%s: X-Frame-Options %q", path, got)
		}
		if got := rec.Header().Get("Cross-Origin-Resource-Policy"); path != "/s/"+id+"/preview.png" && got != "same-origin" {
			t.Errorf("%s: Cross-Origin-Resource-Policy %q", path, got)
		}
	}
}

// TestEmbedPage: the embed is the editor page, read-only, with a link to the share in the
// full editor and the share's description.
func TestEmbedPage(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	id := createShare(t, s, shareBody(t, smallDoc("Enemy.root.ainb"), `{"command":0}`))
	drawn(t, s, id)
	rec := do(s, "GET", "/e/"+id, "", nil)
	if rec.Code != 200 {
		t.Fatalf("embed: %d", rec.Code)
	}
	page := rec.Body.String()
	for _, want := range []string{
		`data-share="` + id + `" data-readonly>`,
		`<a class="embed-open" href="/s/` + id + `" target="_blank" rel="noopener">Open in editor</a>`,
		`<title>Enemy.root.ainb — command Root · AINB editor</title>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("embed lacks %s:\n%s", want, page)
		}
	}
	if got := metaOf(t, page, "property", "og:url"); got != "http://example.com/s/"+id {
		t.Errorf("og:url %q", got)
	}
	// The share page itself is not read-only.
	if p := do(s, "GET", "/s/"+id, "", nil).Body.String(); strings.Contains(p, "data-readonly") || strings.Contains(p, "embed-open") {
		t.Errorf("share page is read-only:\n%s", p)
	}
	if rec := do(s, "GET", "/e/"+share.NewID(), "", nil); rec.Code != 404 {
		t.Errorf("unknown embed: %d", rec.Code)
	}
}

// TestShareCreatedEmbed: the reply to a new share offers the <iframe> that embeds it, at the
// public origin when one is configured.
func TestShareCreatedEmbed(t *testing.T) {
	for _, c := range []struct{ origin, want string }{
		{"", "http://example.com"},
		{"https://ainb.example.org", "https://ainb.example.org"},
	} {
		s := newTestServer(t, func(cfg *Config) { noRateLimits(cfg); cfg.PublicOrigin = c.origin })
		rec := do(s, "POST", "/api/shares", "application/json", shareBody(t, smallDoc("a.ainb"), `{}`))
		var created struct{ ID, URL, Embed string }
		if err := json.Unmarshal(rec.Body.Bytes(), &created); err != nil {
			t.Fatal(err)
		}
		want := `<iframe src="` + c.want + `/e/` + created.ID + `" title="Shared AINB graph" width="960" height="540" style="border:0" loading="lazy" allowfullscreen></iframe>`
		if created.Embed != want {
			t.Errorf("embed %q, want %q", created.Embed, want)
		}
	}
}

func TestPublicOriginConfig(t *testing.T) {
	c, err := ParseConfig(nil, env(map[string]string{"AINB_PUBLIC_ORIGIN": "https://ainb.example.org:8443/", "AINB_PREVIEW_CACHE": "8MiB"}), &bytes.Buffer{})
	if err != nil || c.PublicOrigin != "https://ainb.example.org:8443/" || c.PreviewCache != 8<<20 {
		t.Fatalf("config %+v, %v", c.LinkConfig, err)
	}
	if o, _ := parseOrigin(c.PublicOrigin); o != "https://ainb.example.org:8443" {
		t.Errorf("origin %q", o)
	}
	for _, bad := range []string{"ainb.example.org", "ftp://a", "https://", "https://a/path", "https://a?q=1", "https://u:p@a", "https://a#f", `https://a"b`} {
		var out bytes.Buffer
		if _, err := ParseConfig([]string{"-public-origin", bad}, env(nil), &out); err == nil || !strings.Contains(err.Error(), "public-origin: want scheme://host[:port]") {
			t.Errorf("-public-origin %q: %v", bad, err)
		}
	}
	if _, err := ParseConfig([]string{"-preview-cache", "-1"}, env(nil), &bytes.Buffer{}); err == nil {
		t.Errorf("a negative preview cache was accepted")
	}
}
