package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	rtmetrics "runtime/metrics"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"ainbeditor/internal/hostile"
)

// traffic is one kind of request a client of the mixed load sends over and over.
type traffic struct {
	name                      string
	method, path, contentType string
	body                      []byte
	length                    int64 // a body of this many zero bytes, sent as they are read, instead of body
	stall                     bool  // send 20 bytes of the announced length, then nothing
	statuses                  []int // the answers it may get
	workers                   int   // clients sending it at once (1 when 0)
}

// Normal clients keep being served while hostile ones send amplifying files (shared names,
// inner offsets, expressions), garbage, bodies past the limit, floods of share creations and
// concurrent reads of a large share at the same time: every normal parse answers 200 with the
// whole document, every normal share is created and read back, every hostile request gets
// one of its expected answers. Each client has its own address (through a trusted proxy's
// X-Forwarded-For), so the share rate applies per client as in production; conversions are
// not rate-limited here, so the hostile conversions reach the handlers. Latencies and the
// heap's peak are logged; with -load the run is longer (-load-requests per client).
func TestMixedHostileLoad(t *testing.T) {
	defer tuneGC()() // the collector settings Run uses
	s := newTestServer(t, func(c *Config) {
		c.MaxConversions = DefaultConfig().MaxConversions
		c.ConvertRate = 1 << 30
		c.TrustedProxies = []string{"127.0.0.0/8"}
		// Idle uploads are cut after a second rather than ten, so that each stalling
		// client sends its requests within the run.
		c.BodyIdleTimeout = time.Second
	})
	ts := httptest.NewServer(s)
	defer ts.Close()
	normal := corpusFile(t, loadFile)
	doc := parseOK(t, s, "x.ainb", normal)
	want := len(doc)
	garbage := bytes.Repeat([]byte("AIB \x07\x04\x00\x00"), 1<<14)
	// A large share to read, and a share of about 1 MiB to create again and again.
	bigID, _ := bigShare(t, s.store, 8<<20)
	floodShare := []byte(`{"document":` + strings.TrimSpace(string(doc)) + `,"view":{"pad":"` + strings.Repeat("x", 700<<10) + `"}}`)
	normalShare := []byte(`{"document":` + strings.TrimSpace(string(doc)) + `,"view":{"zoom":1}}`)
	parse := "/api/parse?name=x.ainb"
	const bin = "application/octet-stream"
	// The worst inputs of each newer surface (replybudget_test.go, workbudget_test.go).
	chainType, chainForm := packForm(t, packPart{"file", "chain.byml.zs", hostile.Zstd(t, hostile.SharedChainBYML(1000, 12000))})
	namesType, namesForm := packForm(t, packPart{"file", "names.pack.zs", hostile.Zstd(t, hostile.EscapedNamesPack(16383, 4000))})
	padded := hostile.Zstd(t, hostile.PaddedNamesAINB(t, 30000, 2000, 4<<20))
	aliases := []byte("a: &a [0]\nb: [")
	aliases = append(aliases, bytes.Repeat([]byte("*a,"), 2<<20)...)
	aliases = append(aliases, "*a]\n"...)
	hostile := []traffic{
		{name: "shared BYML chain, zstd", method: "POST", path: "/api/tree", contentType: chainType, body: chainForm, statuses: []int{422}},
		{name: "pack of escaped names, zstd", method: "POST", path: "/api/pack", contentType: namesType, body: namesForm, statuses: []int{422}},
		{name: "padded name amplifier, zstd", method: "POST", path: parse, contentType: bin, body: padded, statuses: []int{422}},
		{name: "YAML of aliases", method: "POST", path: "/api/tree/from-yaml?kind=byml", contentType: "application/yaml", body: aliases, statuses: []int{422}},
		{name: "60 MB expression", method: "POST", path: "/api/expression", contentType: "application/json", length: 60 << 20, statuses: []int{413}},
		{name: "idle upload", method: "POST", path: parse, contentType: bin, length: 13 << 20, stall: true, statuses: []int{408}, workers: 3},
		{name: "name amplifier", method: "POST", path: parse, contentType: bin, body: nameAmplifier(t), statuses: []int{422}},
		{name: "inner-offset amplifier", method: "POST", path: parse, contentType: bin, body: innerAmplifier(t), statuses: []int{422}},
		{name: "expression amplifier", method: "POST", path: parse, contentType: bin, body: expressionAmplifier(t), statuses: []int{422}},
		{name: "garbage", method: "POST", path: parse, contentType: bin, body: garbage, statuses: []int{422}},
		{name: "past the limit", method: "POST", path: parse, contentType: bin, length: DefaultConfig().MaxUpload + 1, statuses: []int{413}},
		// Past 60 a minute the flooding client is refused; its shares never reach the quota.
		{name: "share flood", method: "POST", path: "/api/shares", contentType: "application/json", body: floodShare, statuses: []int{201, 429}},
		{name: "share reads", method: "GET", path: "/api/shares/" + bigID, statuses: []int{200}, workers: 4},
	}
	requests := 12
	if raceDetector {
		// Ten times slower: the hostile inputs are the point, not how many of them.
		requests = 4
	}
	if *loadRun {
		requests = *loadRequests
	}
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	var (
		mu        sync.Mutex
		latencies []time.Duration
		errs      []string
		answers   = make(map[string]map[int]int)
		wg        sync.WaitGroup
		clients   atomic.Int32
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		errs = append(errs, fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	// send sends one request from a client with its own address.
	stalls := make(chan struct{})
	defer close(stalls)
	send := func(addr, method, path, contentType string, body []byte, length int64, stall bool) (int, []byte, time.Duration, error) {
		var r io.Reader
		switch {
		case stall:
			r = io.MultiReader(bytes.NewReader(make([]byte, 20)), stalled(stalls))
		case length > 0:
			r = io.LimitReader(zeros{}, length)
		case body != nil:
			r = bytes.NewReader(body)
		}
		req, err := http.NewRequest(method, ts.URL+path, r)
		if err != nil {
			return 0, nil, 0, err
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if length > 0 {
			req.ContentLength = length
		}
		req.Header.Set("X-Forwarded-For", addr)
		t0 := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			return 0, nil, 0, err
		}
		defer resp.Body.Close()
		// Large answers (the share reads) are counted, not kept.
		if resp.ContentLength > 1<<20 {
			n, err := io.Copy(io.Discard, resp.Body)
			if err == nil && n != resp.ContentLength {
				err = fmt.Errorf("%d bytes of %d", n, resp.ContentLength)
			}
			return resp.StatusCode, nil, time.Since(t0), err
		}
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, b, time.Since(t0), err
	}
	newAddr := func() string { return fmt.Sprintf("192.0.2.%d", clients.Add(1)) }

	// The heap's peaks: in use (live objects and garbage not yet collected, which the
	// collector settings allow to reach five times the live heap) and live after a
	// collection.
	var peak, peakLive uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var ms runtime.MemStats
		live := []rtmetrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			runtime.ReadMemStats(&ms)
			rtmetrics.Read(live)
			peak = max(peak, ms.HeapInuse)
			peakLive = max(peakLive, live[0].Value.Uint64())
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()

	runtime.GC() // the setup's garbage (the expression amplifier's 40 MB document) is not the run's
	start := time.Now()
	for _, h := range hostile {
		for range max(h.workers, 1) {
			addr := newAddr()
			wg.Go(func() {
				for range requests {
					code, _, _, err := send(addr, h.method, h.path, h.contentType, h.body, h.length, h.stall)
					// A body past the limit may be cut off while it is sent: the server
					// answers 413 without reading it, and the client may see the
					// connection close first (counted as status 0).
					if err != nil && h.length == 0 {
						fail("%s: %v", h.name, err)
						continue
					}
					if err != nil {
						code = 0
					} else if !slices.Contains(h.statuses, code) {
						fail("%s: status %d, want one of %v", h.name, code, h.statuses)
					}
					mu.Lock()
					if answers[h.name] == nil {
						answers[h.name] = make(map[int]int)
					}
					answers[h.name][code]++
					mu.Unlock()
				}
			})
		}
	}
	// A modder opening the 2 MB file meanwhile, and a load balancer's health check.
	big := corpusFile(t, "real/nodedefs_ai_v407.ainb")
	wantBig := len(parseOK(t, s, "x.ainb", big))
	var bigLatencies []time.Duration
	bigAddr := newAddr()
	wg.Go(func() {
		for range max(requests/4, 2) {
			code, b, d, err := send(bigAddr, "POST", parse, bin, big, 0, false)
			if err != nil || code != 200 || len(b) != wantBig {
				fail("2 MB parse: status %d, %d bytes (want %d): %v", code, len(b), wantBig, err)
				continue
			}
			mu.Lock()
			bigLatencies = append(bigLatencies, d)
			mu.Unlock()
		}
	})
	var health []time.Duration
	healthDone := make(chan struct{})
	go func() {
		defer close(healthDone)
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			code, _, d, err := send(newAddr(), "GET", "/healthz", "", nil, 0, false)
			if err != nil || code != 200 {
				fail("/healthz: status %d: %v", code, err)
				continue
			}
			mu.Lock()
			health = append(health, d)
			mu.Unlock()
		}
	}()
	var shares atomic.Int32
	for range 2 {
		addr := newAddr()
		wg.Go(func() {
			for i := range requests {
				code, b, d, err := send(addr, "POST", parse, bin, normal, 0, false)
				if err != nil || code != 200 || len(b) != want {
					fail("normal parse: status %d, %d bytes (want %d): %v", code, len(b), want, err)
					continue
				}
				mu.Lock()
				latencies = append(latencies, d)
				mu.Unlock()
				if i%10 != 0 {
					continue
				}
				// Now and then the client shares its view and opens the link.
				code, b, _, err = send(addr, "POST", "/api/shares", "application/json", normalShare, 0, false)
				var created shareCreated
				if err != nil || code != 201 || json.Unmarshal(b, &created) != nil {
					fail("normal share: status %d: %v: %s", code, err, cut(b))
					continue
				}
				code, b, _, err = send(addr, "GET", "/api/shares/"+created.ID, "", nil, 0, false)
				// Stored with its kind said first.
				if want := len(`"kind":"ainb",`) + len(normalShare); err != nil || code != 200 || len(b) != want {
					fail("normal share read: status %d, %d bytes (want %d): %v", code, len(b), want, err)
					continue
				}
				shares.Add(1)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(stop)
	<-sampled
	<-healthDone
	for _, e := range errs {
		t.Error(e)
	}
	if requests > 60 && answers["share flood"][429] == 0 {
		t.Errorf("the share flood of %d requests was never refused: %v", requests, answers["share flood"])
	}
	for _, name := range slices.Sorted(maps.Keys(answers)) {
		t.Logf("hostile %s: %v", name, answers[name])
	}
	slices.Sort(bigLatencies)
	slices.Sort(health)
	if len(bigLatencies) > 0 && len(health) > 0 {
		b := loadResult{n: len(bigLatencies), latencies: bigLatencies}
		h := loadResult{n: len(health), latencies: health}
		t.Logf("2 MB parses: %d, latency p50 %v, max %v; /healthz: %d checks, p50 %v, max %v",
			b.n, b.pct(50), b.pct(100), h.n, h.pct(50), h.pct(100))
	}
	// The memory of every request is bounded by its upload: all of them together stay
	// within the collector's soft limit and a margin, whatever the hostile clients send.
	if limit := uint64(memoryLimit) + memoryLimit/2; peak > limit {
		t.Errorf("heap in use reached %d MB, more than %d MB", peak>>20, limit>>20)
	}
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "VmHWM:") {
				t.Logf("peak RSS of the test process (server and clients): %s", strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:")))
			}
		}
	}
	slices.Sort(latencies)
	if len(latencies) > 0 {
		r := loadResult{n: len(latencies), elapsed: elapsed, latencies: latencies}
		t.Logf("normal clients: %d parses and %d shares created and read in %v beside %d hostile requests; parse latency p50 %v, p90 %v, max %v; heap in use at most %d MB, live at most %d MB (GOGC %d, limit %d MiB)",
			r.n, shares.Load(), r.elapsed.Round(time.Millisecond), requests*(len(hostile)+3), r.pct(50), r.pct(90), r.pct(100), peak>>20, peakLive>>20, gcPercent, memoryLimit>>20)
	}
}

// stalled is a body that sends nothing more until done is closed.
type stalled chan struct{}

func (s stalled) Read([]byte) (int, error) {
	<-s
	return 0, io.EOF
}

// zeros reads as endless zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
