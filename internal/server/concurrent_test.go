package server

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentRequests sends parses, builds, layouts, shares and scrapes at once through a
// real listener, so the race detector (the CI runs this package with -race) sees the state
// requests share: the conversion limiter, the zstd decoders, the body budget, the metrics,
// the share store and the codec's pools. Every answer must be the one a lone request gets,
// and the counters must add up exactly.
func TestConcurrentRequests(t *testing.T) {
	s := newTestServer(t, nil)
	ts := httptest.NewServer(s)
	defer ts.Close()
	data := corpusFile(t, smallFile)
	doc := parseOK(t, s, "x.ainb", data)
	shareBody := []byte(`{"document": ` + string(doc) + `, "view": {"command": 0}}`)

	const workers, rounds = 6, 4
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds*5)
	post := func(path, ct string, body []byte, status int, want []byte) {
		resp, err := http.Post(ts.URL+path, ct, bytes.NewReader(body))
		if err != nil {
			errs <- err
			return
		}
		defer resp.Body.Close()
		got, err := io.ReadAll(resp.Body)
		if err != nil {
			errs <- err
			return
		}
		if resp.StatusCode != status || want != nil && !bytes.Equal(got, want) {
			errs <- fmt.Errorf("%s: %d %s", path, resp.StatusCode, cut(got))
		}
	}
	for range workers {
		wg.Go(func() {
			for range rounds {
				post("/api/parse?name=x.ainb", "application/octet-stream", data, 200, doc)
				post("/api/build", "application/json", doc, 200, data)
				post("/api/layout", "application/json", doc, 200, nil)
				post("/api/shares", "application/json", shareBody, 201, nil)
				resp, err := http.Get(ts.URL + "/metrics")
				if err != nil {
					errs <- err
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	got := scrape(t, s)
	n := fmt.Sprint(workers * rounds)
	for k, v := range map[string]string{
		`ainb_http_requests_total{code="200",method="POST",route="/api/parse"}`:  fmt.Sprint(workers*rounds + 1), // and parseOK's
		`ainb_http_requests_total{code="200",method="POST",route="/api/build"}`:  n,
		`ainb_http_requests_total{code="200",method="POST",route="/api/layout"}`: n,
		`ainb_http_requests_total{code="201",method="POST",route="/api/shares"}`: n,
		`ainb_http_requests_total{code="200",method="GET",route="/metrics"}`:     n,
		`ainb_http_request_body_bytes_total{route="/api/build"}`:                 fmt.Sprint(workers * rounds * len(doc)),
		`ainb_conversions_in_flight`:                                             "0",
		`ainb_body_budget_reserved_bytes`:                                        "0",
	} {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	for k, v := range got {
		if strings.HasPrefix(k, "ainb_http_requests_total{") && !strings.Contains(k, `code="20`) {
			t.Errorf("%s = %s: every request should have succeeded", k, v)
		}
	}
}
