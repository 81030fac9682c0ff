package server

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

var (
	loadRun         = flag.Bool("load", false, "run the load test (TestLoad): parse and build on loopback")
	loadRequests    = flag.Int("load-requests", 400, "load test: most requests per endpoint")
	loadDuration    = flag.Duration("load-duration", 5*time.Second, "load test: most time per endpoint")
	loadConcurrency = flag.Int("load-concurrency", 4, "load test: clients sending at once")
)

// loadFile is the file of the load run: 369 nodes, about 210 KB, with expressions.
const loadFile = "random/random_s29_v407_n369.ainb"

// TestLoad measures parse and build of a mid-size file through the whole stack on loopback:
// requests per second and latency percentiles. It is bounded both in requests and in time.
// The client asks for compressed answers, as browsers do, so the server pays for compressing
// every parse answer (zstd fastest: about 2 ms of the 210 KB file's 265 KB document, some
// 15% of the run's CPU). The client itself is kept cheap, since it shares the machine's cores
// with the server and whatever it spends lowers the figure: setting Accept-Encoding itself
// turns off the transport's transparent decompression, and the replies are read into
// io.Discard and checked for status and length only, never decompressed nor parsed (about 1%
// of the run's CPU in a profile).
//
//	go test ./internal/server -run TestLoad -load -v
func TestLoad(t *testing.T) {
	if !*loadRun {
		t.Skip("load run: pass -load to run it")
	}
	defer tuneGC()() // the collector settings Run uses
	s := newTestServer(t, func(c *Config) {
		c.MaxConversions = DefaultConfig().MaxConversions
		noRateLimits(c) // the load comes from one address
	})
	ts := httptest.NewServer(s) // loopback only
	defer ts.Close()
	client := &http.Client{
		Timeout:   time.Minute,
		Transport: &http.Transport{MaxIdleConnsPerHost: *loadConcurrency},
	}
	data := corpusFile(t, loadFile)
	doc := parseOK(t, s, "x.ainb", data)

	for _, ep := range []struct {
		name, path, contentType string
		body                    []byte
	}{
		{"parse", "/api/parse?name=x.ainb", "application/octet-stream", data},
		{"build", "/api/build", "application/json", doc},
	} {
		cpu := cpuTime()
		r := hammer(t, client, ts.URL+ep.path, ep.contentType, ep.body)
		cpu = cpuTime() - cpu
		t.Logf("%s: %d requests of %d bytes in %v, %d clients: %.1f req/s; latency p50 %v, p90 %v, p99 %v, max %v; CPU %v per request (client included)",
			ep.name, r.n, len(ep.body), r.elapsed.Round(time.Millisecond), *loadConcurrency, r.rate,
			r.pct(50), r.pct(90), r.pct(99), r.pct(100), (cpu / time.Duration(r.n)).Round(100*time.Microsecond))
	}
}

type loadResult struct {
	n         int
	elapsed   time.Duration
	rate      float64
	latencies []time.Duration // sorted
}

func (r loadResult) pct(p int) time.Duration {
	i := (len(r.latencies)*p+99)/100 - 1
	return r.latencies[max(i, 0)].Round(100 * time.Microsecond)
}

// hammer sends POSTs from several clients until the request budget or the time runs out.
func hammer(t *testing.T, c *http.Client, url, contentType string, body []byte) loadResult {
	var (
		next      atomic.Int64
		mu        sync.Mutex
		latencies []time.Duration
		wg        sync.WaitGroup
		failed    atomic.Value
	)
	start := time.Now()
	deadline := start.Add(*loadDuration)
	for range *loadConcurrency {
		wg.Go(func() {
			for next.Add(1) <= int64(*loadRequests) && time.Now().Before(deadline) {
				t0 := time.Now()
				req, err := http.NewRequest("POST", url, bytes.NewReader(body))
				if err != nil {
					failed.Store(err)
					return
				}
				req.Header.Set("Content-Type", contentType)
				req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd") // as Chromium sends it
				resp, err := c.Do(req)
				if err == nil {
					var n int64
					n, err = io.Copy(io.Discard, resp.Body) // as sent: not decompressed
					resp.Body.Close()
					switch {
					case err != nil:
					case resp.StatusCode != http.StatusOK:
						err = fmt.Errorf("status %d", resp.StatusCode)
					case n == 0 || resp.ContentLength >= 0 && n != resp.ContentLength:
						err = fmt.Errorf("answer of %d bytes (Content-Length %d)", n, resp.ContentLength)
					}
				}
				if err != nil {
					failed.Store(err)
					return
				}
				d := time.Since(t0)
				mu.Lock()
				latencies = append(latencies, d)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	elapsed := time.Since(start)
	slices.Sort(latencies)
	return loadResult{n: len(latencies), elapsed: elapsed, rate: float64(len(latencies)) / elapsed.Seconds(), latencies: latencies}
}
