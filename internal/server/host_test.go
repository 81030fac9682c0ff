package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const evilHostRefusal = `this server does not answer to the host "evil.example": open it by its address or as localhost, or start it with -allowed-hosts "evil.example" (AINB_ALLOWED_HOSTS)`

// TestHostCheck checks a request naming a host the server is not known by is refused on
// every kind of route, as a DNS-rebinding page's would be, and the hosts it is known by pass.
func TestHostCheck(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.Addr = "mybox.lan:8080" })
	data := corpusFile(t, smallFile)
	for _, c := range []struct{ method, path, contentType string }{
		{"GET", "/", ""},
		{"GET", "/metrics", ""},
		{"GET", "/static/app.js", ""},
		{"GET", "/s/" + strings.Repeat("q", 26), ""},
		{"GET", "/api/shares/" + strings.Repeat("q", 26), ""},
		{"POST", "/api/parse?name=x.ainb", "application/octet-stream"},
		{"POST", "/api/shares", "application/json"},
		{"GET", "/nope", ""},
	} {
		for _, host := range []string{"evil.example:8080", "EVIL.example.", "evil.example"} {
			req := httptestRequest(c.method, c.path, c.contentType, data)
			req.Host = host
			e := wantError(t, serve(s, req), http.StatusMisdirectedRequest)
			if e.Error != evilHostRefusal || e.Detail["host"] != host {
				t.Errorf("%s %s for %s: %q %v", c.method, c.path, host, e.Error, e.Detail)
			}
		}
	}
	// A person who typed the name is shown a page saying what to do.
	req := httptestRequest("GET", "/", "", nil)
	req.Host = "evil.example"
	req.Header.Set("Accept", "text/html")
	rec := serve(s, req)
	if rec.Code != http.StatusMisdirectedRequest || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") ||
		!strings.Contains(rec.Body.String(), "-allowed-hosts &#34;evil.example&#34;") {
		t.Errorf("page for a foreign host: %d %s %s", rec.Code, rec.Header().Get("Content-Type"), cut(rec.Body.Bytes()))
	}
	// The balancer's probe is answered whatever name it uses.
	req = httptestRequest("GET", "/healthz", "", nil)
	req.Host = "evil.example"
	if rec := serve(s, req); rec.Code != http.StatusOK {
		t.Errorf("/healthz for a foreign host: %d", rec.Code)
	}

	for _, host := range []string{
		"127.0.0.1:8080", "127.0.0.1", "10.1.2.3:80", "[::1]:8080", "[::1]", "[fe80::1%25eth0]:80",
		"localhost:8080", "LOCALHOST.", "editor.localhost:8080",
		"mybox.lan:8080", "MyBox.lan", // the host of -addr
		"example.com", // -allowed-hosts, as the tests' servers have it
		"",            // HTTP/1.0 without a Host: not a browser
	} {
		req := httptestRequest("GET", "/metrics", "", nil)
		req.Host = host
		if rec := serve(s, req); rec.Code != http.StatusOK {
			t.Errorf("/metrics for %q: %d %s", host, rec.Code, cut(rec.Body.Bytes()))
		}
	}
	for _, host := range []string{"localhost.evil.example", "127.0.0.1.evil.example", "mybox.lan.evil.example", "example.com.evil.example"} {
		req := httptestRequest("GET", "/metrics", "", nil)
		req.Host = host
		wantError(t, serve(s, req), http.StatusMisdirectedRequest)
	}

	// "*" turns the check off.
	s = newTestServer(t, func(c *Config) { c.AllowedHosts = []string{"*"} })
	req = httptestRequest("GET", "/metrics", "", nil)
	req.Host = "evil.example"
	if rec := serve(s, req); rec.Code != http.StatusOK {
		t.Errorf("/metrics for a foreign host with -allowed-hosts '*': %d", rec.Code)
	}
}

// TestHostCheckOverTheNetwork sends what a rebound page's browser sends: a connection to the
// server's own address, naming the attacker's host.
func TestHostCheckOverTheNetwork(t *testing.T) {
	ts := httptest.NewServer(newTestServer(t, nil))
	defer ts.Close()
	for _, c := range []struct {
		host   string
		status int
	}{
		{"evil.example:" + ts.URL[strings.LastIndexByte(ts.URL, ':')+1:], http.StatusMisdirectedRequest},
		{"", http.StatusOK}, // the listener's address, as httptest's URL has it
	} {
		req, err := http.NewRequest("GET", ts.URL+"/metrics", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = c.host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("Host %q: %d, want %d", c.host, resp.StatusCode, c.status)
		}
	}
}

func TestAllowedHostsConfig(t *testing.T) {
	env := map[string]string{"AINB_ALLOWED_HOSTS": "editor.example.com, other.example"}
	c, err := ParseConfig(nil, func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.AllowedHosts, "|") != "editor.example.com|other.example" {
		t.Errorf("from the environment: %q", c.AllowedHosts)
	}
	c, err = ParseConfig([]string{"-allowed-hosts", "cli.example"}, func(k string) string { return env[k] }, io.Discard)
	if err != nil || strings.Join(c.AllowedHosts, "|") != "cli.example" {
		t.Errorf("the flag over the environment: %q %v", c.AllowedHosts, err)
	}
	var out strings.Builder
	_, err = ParseConfig([]string{"-allowed-hosts", "https://editor.example.com,ok.example,host:8080,::1"}, func(string) string { return "" }, &out)
	want := "allowed-hosts: \"https://editor.example.com\": want a host name without scheme, port or path, such as editor.example.com\n" +
		"\"host:8080\": want a host name without scheme, port or path, such as editor.example.com"
	if err == nil || err.Error() != want {
		t.Errorf("bad hosts: %v, want %s", err, want)
	}
}

// The name in -public-origin is one the server answers to: it is the one its links give out.
func TestHostCheckPublicOrigin(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.PublicOrigin = "https://ainb.example.org" })
	for host, want := range map[string]int{
		"ainb.example.org":      http.StatusOK,
		"ainb.example.org:443":  http.StatusOK,
		"AINB.example.org.":     http.StatusOK,
		"other.example.org":     http.StatusMisdirectedRequest,
		"ainb.example.org.evil": http.StatusMisdirectedRequest,
	} {
		req := httptestRequest("GET", "/metrics", "", nil)
		req.Host = host
		if rec := serve(s, req); rec.Code != want {
			t.Errorf("Host %s: %d, want %d", host, rec.Code, want)
		}
	}
}
