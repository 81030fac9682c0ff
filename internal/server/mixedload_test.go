package server

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

// Normal clients keep being served while hostile ones send amplifying files, garbage and
// bodies past the limit at the same time: every normal parse answers 200 with the whole
// document, every hostile request its 4xx. Latencies are logged; with -load the run is
// longer (-load-requests per client).
func TestMixedHostileLoad(t *testing.T) {
	s := newTestServer(t, func(c *Config) {
		c.MaxConversions = DefaultConfig().MaxConversions
		noRateLimits(c) // all clients come from one address
	})
	ts := httptest.NewServer(s)
	defer ts.Close()
	normal := corpusFile(t, loadFile)
	want := len(parseOK(t, s, "x.ainb", normal))
	garbage := bytes.Repeat([]byte("AIB \x07\x04\x00\x00"), 1<<14)
	hostile := []struct {
		name   string
		body   []byte
		length int64 // declared Content-Length, when it is not the body's
		status int
	}{
		{"name amplifier", nameAmplifier(t), 0, 422},
		{"garbage", garbage, 0, 422},
		{"past the limit", []byte("x"), DefaultConfig().MaxUpload + 1, 413},
	}
	requests := 12
	if *loadRun {
		requests = *loadRequests
	}
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	var (
		mu        sync.Mutex
		latencies []time.Duration
		errs      []string
		wg        sync.WaitGroup
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		errs = append(errs, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	send := func(body []byte, length int64) (int, int, time.Duration, error) {
		req, err := http.NewRequest("POST", ts.URL+"/api/parse?name=x.ainb", bytes.NewReader(body))
		if err != nil {
			return 0, 0, 0, err
		}
		req.Header.Set("Content-Type", "application/octet-stream")
		if length > 0 {
			req.ContentLength = length
		}
		t0 := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			return 0, 0, 0, err
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, int(n), time.Since(t0), err
	}
	start := time.Now()
	for _, h := range hostile {
		wg.Go(func() {
			for range requests {
				code, _, _, err := send(h.body, h.length)
				// A body past the limit may be cut off while it is sent: the server answers
				// 413 without reading it, and the client may see the connection close.
				if err == nil && code != h.status {
					fail("%s: status %d, want %d", h.name, code, h.status)
				}
			}
		})
	}
	for range 2 {
		wg.Go(func() {
			for range requests {
				code, n, d, err := send(normal, 0)
				if err != nil || code != 200 || n != want {
					fail("normal parse: status %d, %d bytes (want %d): %v", code, n, want, err)
					continue
				}
				mu.Lock()
				latencies = append(latencies, d)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for _, e := range errs {
		t.Error(e)
	}
	slices.Sort(latencies)
	if len(latencies) > 0 {
		r := loadResult{n: len(latencies), elapsed: time.Since(start), latencies: latencies}
		t.Logf("normal clients: %d parses in %v beside %d hostile requests; latency p50 %v, p90 %v, max %v",
			r.n, r.elapsed.Round(time.Millisecond), len(hostile)*requests, r.pct(50), r.pct(90), r.pct(100))
	}
}
