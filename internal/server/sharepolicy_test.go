package server

import (
	"bytes"
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"ainbeditor/internal/share"
)

// from sends one request as the client at remote (host:port), with X-Forwarded-For when xff
// is not empty.
func from(s http.Handler, remote, xff, method, target, contentType string, body []byte) (int, http.Header, string) {
	req := httptestRequest(method, target, contentType, body)
	req.RemoteAddr = remote
	if xff != "" {
		req.Header.Set("X-Forwarded-For", xff)
	}
	rec := serve(s, req)
	return rec.Code, rec.Header(), rec.Body.String()
}

const (
	bodyShareRate   = `{"error":"too many share creations from your address: at most 2 a minute","detail":{"limit":2,"window_seconds":60}}` + "\n"
	bodyConvertRate = `{"error":"too many conversions from your address: at most 3 a minute","detail":{"limit":3,"window_seconds":60}}` + "\n"
	bodyNoDocument  = `{"error":"invalid share: no document","detail":null}` + "\n"
)

// want429 checks a rate-limited answer: status, exact body and headers.
func want429(t *testing.T, code int, h http.Header, body, wantBody, limit string) {
	t.Helper()
	if code != http.StatusTooManyRequests || body != wantBody {
		t.Fatalf("got %d %q; want 429 %q", code, body, wantBody)
	}
	for k, v := range map[string]string{
		"Retry-After": "60", "X-Ratelimit-Limit": limit, "X-Ratelimit-Remaining": "0",
		"Content-Type": "application/json", "Cache-Control": "no-store",
	} {
		if got := h.Get(k); got != v {
			t.Errorf("%s: %q, want %q", k, got, v)
		}
	}
}

func TestShareRateLimit(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.ShareRate = 2 })
	post := func(remote, xff string) (int, http.Header, string) {
		return from(s, remote, xff, "POST", "/api/shares", "application/json", []byte(`{"view":{}}`))
	}
	// Every attempt counts, a refused one too: it cost the server the same reading.
	for i := range 2 {
		if code, _, body := post("192.0.2.1:1000", ""); code != 400 || body != bodyNoDocument {
			t.Fatalf("attempt %d: %d %s", i, code, body)
		}
	}
	code, h, body := post("192.0.2.1:1001", "")
	want429(t, code, h, body, bodyShareRate, "2")
	// X-Forwarded-For is not trusted by default: a client cannot name itself anew.
	code, h, body = post("192.0.2.1:1002", "198.51.100.77")
	want429(t, code, h, body, bodyShareRate, "2")
	// Another address has its own budget; reading shares and conversions are not counted.
	if code, _, body := post("192.0.2.2:1000", ""); code != 400 {
		t.Fatalf("another client: %d %s", code, body)
	}
	if code, _, _ := from(s, "192.0.2.1:1003", "", "GET", "/api/shares/"+share.NewID(), "", nil); code != 404 {
		t.Fatalf("GET a share when share creation is limited: %d", code)
	}
	if code, _, _ := from(s, "192.0.2.1:1003", "", "POST", "/api/build", "application/json", []byte("{")); code != 400 {
		t.Fatalf("a conversion when share creation is limited: %d", code)
	}
	// An IPv6 client is its /64: another address in it shares the budget.
	for range 2 {
		post("[2001:db8:1:2::1]:1000", "")
	}
	code, h, body = post("[2001:db8:1:2::ffff]:1000", "")
	want429(t, code, h, body, bodyShareRate, "2")
	if code, _, _ := post("[2001:db8:1:3::1]:1000", ""); code != 400 {
		t.Fatalf("another /64: %d", code)
	}
}

func TestConvertRateLimit(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.ConvertRate = 3 })
	const client = "192.0.2.9:4000"
	// Parse, build and layout draw on one budget.
	for _, path := range []string{"/api/parse", "/api/build", "/api/layout"} {
		ct := "application/json"
		if path == "/api/parse" {
			ct = "application/octet-stream"
		}
		if code, _, body := from(s, client, "", "POST", path, ct, nil); code != 400 {
			t.Fatalf("%s: %d %s", path, code, body)
		}
	}
	for _, path := range []string{"/api/parse", "/api/build", "/api/layout"} {
		code, h, body := from(s, client, "", "POST", path, "application/json", []byte("{}"))
		want429(t, code, h, body, bodyConvertRate, "3")
	}
	// Share creation has its own budget.
	if code, _, body := from(s, client, "", "POST", "/api/shares", "application/json", []byte(`{"view":{}}`)); code != 400 || body != bodyNoDocument {
		t.Fatalf("share creation after the conversions ran out: %d %s", code, body)
	}
}

// TestTrustedProxies: X-Forwarded-For names the client only on requests from a trusted proxy,
// and then its rightmost address that is not itself a trusted proxy.
func TestTrustedProxies(t *testing.T) {
	s := newTestServer(t, func(c *Config) {
		c.ShareRate = 1
		c.TrustedProxies = []string{"10.0.0.0/8"}
	})
	post := func(remote, xff string) (int, http.Header, string) {
		return from(s, remote, xff, "POST", "/api/shares", "application/json", []byte(`{"view":{}}`))
	}
	for _, c := range []struct {
		remote, xff string
		limited     bool
	}{
		{"10.0.0.5:80", "198.51.100.1", false},
		{"10.0.0.6:80", "198.51.100.2", false}, // another client behind the proxies
		{"10.0.0.5:80", "198.51.100.1", true},
		// A client's own X-Forwarded-For is to the left of what the proxy appended.
		{"10.0.0.5:80", "203.0.113.50, 198.51.100.2", true},
		// Proxies chained: the first address that is no proxy is the client.
		{"10.0.0.5:80", "198.51.100.3, 10.9.9.9", false},
		{"10.0.0.5:80", "198.51.100.3", true},
		// Straight from the internet, the header is ignored: the peer is the client.
		{"203.0.113.7:80", "198.51.100.4", false},
		{"203.0.113.7:80", "198.51.100.5", true},
	} {
		code, h, body := post(c.remote, c.xff)
		if !c.limited {
			if code != 400 {
				t.Fatalf("%s via %s: %d %s, want 400 (not limited)", c.xff, c.remote, code, body)
			}
			continue
		}
		if code != 429 || h.Get("Retry-After") != "60" || !strings.Contains(body, "at most 1 a minute") {
			t.Fatalf("%s via %s: %d %s, want 429", c.xff, c.remote, code, body)
		}
	}
}

func TestShareTooLarge(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.MaxShare = 1000 })
	const want = `{"error":"the share is too large: the limit is 1000 bytes","detail":{"limit":1000}}` + "\n"
	body := []byte(`{"document":{"x":"` + strings.Repeat("x", 1000) + `"}}`)
	// Announced by Content-Length, and sent without one (chunked): the same answer.
	for _, length := range []int64{int64(len(body)), -1} {
		req := httptestRequest("POST", "/api/shares", "application/json", body)
		req.ContentLength = length
		rec := serve(s, req)
		if rec.Code != 413 || rec.Body.String() != want || rec.Header().Get("Content-Type") != "application/json" {
			t.Fatalf("Content-Length %d: %d %s", length, rec.Code, rec.Body.String())
		}
	}
	// Exactly at the cap is not too large (it fails later, as not a document).
	at := []byte(`{"document":{"x":"` + strings.Repeat("x", 1000-21) + `"}}`)
	if len(at) != 1000 {
		t.Fatalf("test body of %d bytes", len(at))
	}
	if rec := do(s, "POST", "/api/shares", "application/json", at); rec.Code != 422 {
		t.Fatalf("a body at the cap: %d %s", rec.Code, rec.Body.String())
	}
}

// TestShareQuotaFull fills a real directory store's quota with one share: the next is a 507
// without Retry-After, and the stored one still opens.
func TestShareQuotaFull(t *testing.T) {
	big := newTestServer(t, nil)
	doc := parseOK(t, big, "x.ainb", corpusFile(t, midFile))
	body := []byte(`{"document":` + string(bytes.TrimSpace(doc)) + `}`)
	size := len(do(big, "GET", "/api/shares/"+createShare(t, big, body), "", nil).Body.Bytes())

	cfg := DefaultConfig()
	cfg.ShareQuota = int64(size) + 10
	store, err := share.OpenDirLimits(t.TempDir(), share.Limits{MaxSize: cfg.MaxShare, Quota: cfg.ShareQuota})
	if err != nil {
		t.Fatal(err)
	}
	s := newServerWithStore(t, cfg, store)
	id := createShare(t, s, body)
	rec := do(s, "POST", "/api/shares", "application/json", body)
	if rec.Code != 507 || rec.Body.String() != bodyQuota || rec.Header().Get("Retry-After") != "" {
		t.Fatalf("past the quota: %d Retry-After %q %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body.String())
	}
	if rec := do(s, "GET", "/api/shares/"+id, "", nil); rec.Code != 200 {
		t.Fatalf("the stored share: %d", rec.Code)
	}
	if err := store.Writable(context.Background()); err != nil {
		t.Fatalf("a full quota made the store unwritable: %v", err)
	}
}

func TestShareConfig(t *testing.T) {
	c := DefaultConfig()
	if c.Store != "" || c.MaxShare != 64<<20 || c.ShareQuota != 1<<30 || c.ShareRate != 60 || c.ConvertRate != 120 || c.TrustedProxies != nil {
		t.Fatalf("defaults %+v", c.ShareConfig)
	}
	c, err := ParseConfig([]string{"-share-rate", "5", "-trusted-proxies", "10.0.0.0/8, 192.168.0.0/16,fd00::/8"},
		env(map[string]string{
			"AINB_MAX_SHARE": "1MiB", "AINB_SHARE_QUOTA": "2GiB", "AINB_SHARE_RATE": "9",
			"AINB_CONVERT_RATE": "7", "AINB_TRUSTED_PROXIES": "172.16.0.0/12",
			"AINB_STORE": "postgres://ainb@db.internal/ainb?sslmode=require",
		}), &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	want := ShareConfig{Store: "postgres://ainb@db.internal/ainb?sslmode=require", MaxShare: 1 << 20, ShareQuota: 2 << 30, ShareRate: 5, ConvertRate: 7,
		TrustedProxies: []string{"10.0.0.0/8", "192.168.0.0/16", "fd00::/8"}}
	if !reflect.DeepEqual(c.ShareConfig, want) {
		t.Fatalf("got %+v, want %+v", c.ShareConfig, want)
	}
	for _, bad := range []struct {
		args []string
		want string
	}{
		{[]string{"-max-share", "0"}, "max-share: must be positive"},
		{[]string{"-store", "./shares"}, "store: want a postgres:// URL, or nothing for the data directory"},
		{[]string{"-store", "mysql://db/x"}, "store: want a postgres:// URL, or nothing for the data directory"},
		{[]string{"-share-quota", "0"}, "share-quota: must be positive"},
		{[]string{"-share-rate", "0"}, "share-rate: must be positive"},
		{[]string{"-convert-rate", "-1"}, "convert-rate: must be positive"},
		{[]string{"-trusted-proxies", "10.0.0.1"}, `trusted-proxies: "10.0.0.1" is not a network such as 10.0.0.0/8`},
		{[]string{"-trusted-proxies", "proxy.example"}, `trusted-proxies: "proxy.example" is not a network such as 10.0.0.0/8`},
	} {
		var out bytes.Buffer
		if _, err := ParseConfig(bad.args, env(nil), &out); err == nil || !strings.Contains(err.Error(), bad.want) || !strings.Contains(out.String(), bad.want) {
			t.Errorf("%v: %v (output %q), want %q", bad.args, err, out.String(), bad.want)
		}
	}
	var out bytes.Buffer
	ParseConfig([]string{"-h"}, env(nil), &out)
	for _, want := range []string{"-max-share [AINB_MAX_SHARE]", `(default "64MiB")`, "-share-quota [AINB_SHARE_QUOTA]", `(default "1GiB")`,
		"-share-rate [AINB_SHARE_RATE]", "-convert-rate [AINB_CONVERT_RATE]", "-trusted-proxies [AINB_TRUSTED_PROXIES]", "-store [AINB_STORE]"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("usage lacks %q", want)
		}
	}
}
