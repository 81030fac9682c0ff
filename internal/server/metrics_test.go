package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"ainbeditor/internal/share"
)

// scrape reads /metrics and returns each sample line by its name and labels, as exposed.
func scrape(t *testing.T, s http.Handler) map[string]string {
	t.Helper()
	rec := do(s, "GET", "/metrics", "", nil)
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("/metrics: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	samples := map[string]string{}
	sc := bufio.NewScanner(rec.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		samples[line[:i]] = line[i+1:]
	}
	return samples
}

func TestMetrics(t *testing.T) {
	s := newTestServer(t, nil)
	for range 3 {
		do(s, "GET", "/healthz", "", nil)
	}
	missing := "/api/shares/" + strings.Repeat("a", 26)
	do(s, "GET", missing, "", nil)
	do(s, "GET", "/api/shares/"+strings.Repeat("b", 26), "", nil)
	do(s, "GET", "/no/such/page", "", nil)
	do(s, "GET", "/api/nope", "", nil)
	do(s, "BREW", "/healthz", "", nil)
	do(s, "POST", "/api/layout", "application/json", []byte("not json"))
	req := httptestRequest("POST", "/api/parse", "application/octet-stream", []byte("abc"))
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	serve(s, req)
	// A conversion slot held, as by a parse in progress.
	release, err := s.conversions.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s.metrics.storeError()
	s.metrics.storeError()

	got := scrape(t, s)
	release()
	for k, v := range map[string]string{
		`ainb_http_requests_total{code="200",method="GET",route="/healthz"}`:         "3",
		`ainb_http_requests_total{code="404",method="GET",route="/api/shares/{id}"}`: "2",
		`ainb_http_requests_total{code="404",method="GET",route="unmatched"}`:        "1",
		// A path under /api that matches nothing is labelled by the mount chi tried.
		`ainb_http_requests_total{code="404",method="GET",route="/api/*"}`:       "1",
		`ainb_http_requests_total{code="405",method="other",route="unmatched"}`:  "1",
		`ainb_http_requests_total{code="400",method="POST",route="/api/layout"}`: "1",
		`ainb_http_requests_total{code="403",method="POST",route="/api/parse"}`:  "1",
		`ainb_http_request_duration_seconds_count{route="/healthz"}`:             "3",
		`ainb_http_request_duration_seconds_bucket{route="/healthz",le="+Inf"}`:  "3",
		`ainb_http_response_body_bytes_total{route="/healthz"}`:                  "48", // 3 × {"status":"ok"}\n
		`ainb_http_request_body_bytes_total{route="/api/layout"}`:                "8",
		`ainb_http_request_body_bytes_total{route="/api/parse"}`:                 "0", // refused unread
		`ainb_conversions_in_flight`:                                             "1",
		`ainb_conversions_max`:                                                   "2",
		`ainb_body_budget_bytes`:                                                 "2.68435456e+08",
		`ainb_body_budget_reserved_bytes`:                                        "0",
		`ainb_body_budget_refusals_total`:                                        "0",
		`ainb_share_store_errors_total`:                                          "2",
	} {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	// Only route patterns label requests: no path of a share, page or probe.
	for k := range got {
		if strings.Contains(k, "aaaa") || strings.Contains(k, "/no/such") || strings.Contains(k, "/api/nope") || strings.Contains(k, "BREW") {
			t.Errorf("raw request data in a label: %s", k)
		}
	}
	if _, ok := got[`go_goroutines`]; !ok {
		t.Error("no Go runtime metrics")
	}

	// The scrape itself is counted from the next one on; the conversion slot is free again.
	got = scrape(t, s)
	if v := got[`ainb_http_requests_total{code="200",method="GET",route="/metrics"}`]; v != "1" {
		t.Errorf("scrapes counted: %q, want 1", v)
	}
	if v := got[`ainb_conversions_in_flight`]; v != "0" {
		t.Errorf("conversions in flight after release: %q", v)
	}

	// Each server counts its own requests.
	other := newTestServer(t, nil)
	got = scrape(t, other)
	if v, ok := got[`ainb_http_requests_total{code="200",method="GET",route="/healthz"}`]; ok {
		t.Errorf("a new server counts another's health checks: %s", v)
	}
	if v := got[`ainb_share_store_errors_total`]; v != "0" {
		t.Errorf("a new server's store errors: %q", v)
	}
}

// logLine is one access log line as the JSON handler writes it.
type logLine struct {
	Level        string `json:"level"`
	Msg          string `json:"msg"`
	Method       string `json:"method"`
	Route        string `json:"route"`
	Path         string `json:"path"`
	Status       int    `json:"status"`
	Bytes        int    `json:"bytes"`
	RequestBytes int    `json:"request_bytes"`
	Duration     *int64 `json:"duration"`
	Remote       string `json:"remote"`
}

func TestAccessLog(t *testing.T) {
	var buf bytes.Buffer
	cfg := DefaultConfig()
	cfg.AllowedHosts = []string{testHost}
	store, err := share.OpenDir(t.TempDir(), cfg.MaxDocument)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(cfg, store, slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	id := strings.Repeat("q", 26)
	do(s, "GET", "/api/shares/"+id, "", nil)
	do(s, "POST", "/api/layout", "application/json", []byte("not json"))
	do(s, "GET", "/healthz", "", nil)
	do(s, "GET", "/wp-login.php", "", nil)

	var lines []logLine
	for _, l := range bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
		if bytes.Contains(l, []byte(id)) {
			t.Errorf("a share id in the log: %s", l)
		}
		var ll logLine
		if err := json.Unmarshal(l, &ll); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		if ll.Duration == nil || *ll.Duration < 0 {
			t.Errorf("no duration: %s", l)
		}
		ll.Duration = nil
		lines = append(lines, ll)
	}
	// One line per request, in order; what the tests send comes from httptest's remote.
	const remote = "192.0.2.1:1234"
	want := []logLine{
		{"INFO", "request", "GET", "/api/shares/{id}", "", 404, len(`{"error":"no such share","detail":null}` + "\n"), 0, nil, remote},
		{"INFO", "request", "POST", "/api/layout", "", 400, len(`{"error":"invalid JSON at line 1, column 2: invalid literal: want null, found 'o'","detail":{"column":2,"line":1,"offset":1}}` + "\n"), 8, nil, remote},
		{"DEBUG", "request", "GET", "/healthz", "", 200, 16, 0, nil, remote},
		{"INFO", "request", "GET", "unmatched", "/wp-login.php", 404, len(`{"error":"not found","detail":null}` + "\n"), 0, nil, remote},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d log lines, want %d:\n%s", len(lines), len(want), buf.String())
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d: %+v\nwant %+v", i, lines[i], want[i])
		}
	}
}

// brokenStore fails every read and write, as a store whose disk or database is gone.
type brokenStore struct{ share.Store }

func (brokenStore) Put(context.Context, []byte) (string, error) {
	return "", errors.New("disk gone")
}
func (brokenStore) Get(context.Context, string) ([]byte, error) { return nil, errors.New("disk gone") }
func (brokenStore) Stat(context.Context, string) (share.Info, error) {
	return share.Info{}, errors.New("disk gone")
}

// Store faults are counted where the handlers meet them (a create, a read, a share page);
// a share that does not exist is an answer, not a fault.
func TestMetricsStoreErrors(t *testing.T) {
	dir, err := share.OpenDir(t.TempDir(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	s := newServerWithStore(t, DefaultConfig(), brokenStore{dir})
	doc := parseOK(t, s, "x.ainb", corpusFile(t, "synthetic/minimal_v407.ainb"))
	id := strings.Repeat("a", 26)
	for _, c := range []struct {
		method, path string
		body         []byte
		status       int
	}{
		{"POST", "/api/shares", []byte(`{"document":` + string(doc) + `}`), 500},
		{"GET", "/api/shares/" + id, nil, 500},
		{"GET", "/s/" + id, nil, 500},
		{"GET", "/api/shares/not-an-id", nil, 404},
	} {
		if rec := do(s, c.method, c.path, "application/json", c.body); rec.Code != c.status {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, rec.Code, c.status)
		}
	}
	if got := scrape(t, s)["ainb_share_store_errors_total"]; got != "3" {
		t.Errorf("store errors %s, want 3", got)
	}
}
