package server

import (
	"flag"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// loadURL points the tree load run at a server already running (cmd/server), so its peak
// memory can be read from outside (VmHWM in /proc/PID/status) without the test's own.
var (
	loadURL  = flag.String("load-url", "", "tree load test: the base URL of a running server (default: one in the test)")
	loadForm = flag.String("load-form", "", "tree load test: only this form, tagged or compact (default: both, one after the other)")
)

// treeLoadFile is the heaviest tree the editor opens: TotK's ActorInfo, 1.9 MB of BYML with
// some 7,000 actors.
const treeLoadFile = "byml/ActorInfo.product.byml"

// TestLoadTree measures /api/tree on the heaviest tree as TestLoad does parse and build:
// requests per second and latency percentiles with -load-concurrency clients.
//
//	go test ./internal/server -run TestLoadTree -load -v [-load-url http://127.0.0.1:8080] [-load-form compact]
func TestLoadTree(t *testing.T) {
	if !*loadRun {
		t.Skip("load run: pass -load to run it")
	}
	url := *loadURL
	if url == "" {
		defer tuneGC()()
		s := newTestServer(t, func(c *Config) {
			c.MaxConversions = DefaultConfig().MaxConversions
			noRateLimits(c)
		})
		ts := httptest.NewServer(s)
		defer ts.Close()
		url = ts.URL
	}
	client := &http.Client{
		Timeout:   time.Minute,
		Transport: &http.Transport{MaxIdleConnsPerHost: *loadConcurrency},
	}
	data := corpusAt(t, treeLoadFile)
	ct, body := packForm(t, packPart{"file", "ActorInfo.product.byml", data})
	for _, form := range []string{"tagged", "compact"} {
		if *loadForm != "" && form != *loadForm {
			continue
		}
		path := "/api/tree?form=" + form
		cpu := cpuTime()
		r := hammer(t, client, url+path, ct, body)
		cpu = cpuTime() - cpu
		t.Logf("%s: %d requests of %d bytes in %v, %d clients: %.1f req/s; latency p50 %v, p90 %v, p99 %v, max %v; CPU %v per request (this process)",
			path, r.n, len(body), r.elapsed.Round(time.Millisecond), *loadConcurrency, r.rate,
			r.pct(50), r.pct(90), r.pct(99), r.pct(100), (cpu / time.Duration(r.n)).Round(100*time.Microsecond))
	}
}

// BenchmarkOpenTree is /api/tree on the heaviest tree through the handler alone, in the
// tagged form and the compact one.
func BenchmarkOpenTree(b *testing.B) {
	for _, form := range []string{"tagged", "compact"} {
		b.Run(form, func(b *testing.B) {
			s := newTestServer(b, func(c *Config) { noRateLimits(c) })
			data := corpusAt(b, treeLoadFile)
			ct, body := packForm(b, packPart{"file", "ActorInfo.product.byml", data})
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if rec := do(s, "POST", "/api/tree?form="+form, ct, body); rec.Code != http.StatusOK {
					b.Fatalf("%d %s", rec.Code, cut(rec.Body.Bytes()))
				}
			}
		})
	}
}
