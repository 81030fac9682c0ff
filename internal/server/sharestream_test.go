package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"ainbeditor/internal/share"
	"ainbeditor/internal/testalloc"
)

// bigShare stores a share of size bytes directly in store and returns its id.
func bigShare(t *testing.T, store share.Store, size int) (string, []byte) {
	t.Helper()
	data := []byte(`{"document":{},"view":{"x":"` + strings.Repeat("x", size-31) + `"}}`)
	id, err := store.Put(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	return id, data
}

// 64 reads of a 60 MiB share at once once took the server from 10 MB to 1.86 GB: each read
// held the whole share. From the directory store a share is now copied through a buffer, so
// 64 concurrent reads of a 16 MiB share, compressed or not, allocate less than one copy of it
// (server and clients together); compressed, each allocates a small part of it.
func TestShareReadsStream(t *testing.T) {
	const size, readers = 16 << 20, 64
	s := newTestServer(t, nil)
	id, data := bigShare(t, s.store, size)
	ts := httptest.NewServer(s)
	defer ts.Close()
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: readers, DisableCompression: true}}
	for _, enc := range []string{"", "zstd", "gzip"} {
		get := func() error {
			req, err := http.NewRequest("GET", ts.URL+"/api/shares/"+id, nil)
			if err != nil {
				return err
			}
			if enc != "" {
				req.Header.Set("Accept-Encoding", enc)
			}
			resp, err := client.Do(req)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			n, err := io.Copy(io.Discard, resp.Body)
			switch {
			case err != nil:
				return err
			case resp.StatusCode != 200:
				return fmt.Errorf("status %d", resp.StatusCode)
			case resp.Header.Get("Content-Encoding") != enc:
				return fmt.Errorf("Content-Encoding %q", resp.Header.Get("Content-Encoding"))
			case enc == "" && n != size:
				return fmt.Errorf("%d bytes", n)
			}
			return nil
		}
		if err := get(); err != nil { // warm up: connections, encoders
			t.Fatal(err)
		}
		n := readers
		if enc != "" {
			n = 8 // compressing 64 times 16 MiB takes seconds of both cores
		}
		var failed atomic.Value
		alloc := testalloc.Bytes(func() {
			var wg sync.WaitGroup
			for range n {
				wg.Go(func() {
					if err := get(); err != nil {
						failed.Store(err)
					}
				})
			}
			wg.Wait()
		})
		if err := failed.Load(); err != nil {
			t.Fatalf("encoding %q: %v", enc, err)
		}
		t.Logf("encoding %q: %d concurrent reads of a %d-byte share allocated %d bytes", enc, n, size, alloc)
		// Read whole, each read would allocate the share at least once. Streamed, all the
		// plain reads together allocate less than one copy; a compressed read has its
		// encoder's window and buffers besides, well under a quarter of the share.
		bound := uint64(size)
		if enc != "" {
			bound = uint64(n) * size / 4
		}
		if alloc > bound {
			t.Errorf("encoding %q: %d concurrent reads of a %d-byte share allocated %d bytes, more than %d", enc, n, size, alloc, bound)
		}
	}
	// The streamed share is the stored one, byte for byte; HEAD reads nothing.
	rec := do(s, "GET", "/api/shares/"+id, "", nil)
	if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), data) || rec.Header().Get("Content-Length") != fmt.Sprint(size) {
		t.Fatalf("GET: %d, %d bytes, Content-Length %s", rec.Code, rec.Body.Len(), rec.Header().Get("Content-Length"))
	}
	if rec := do(s, "HEAD", "/api/shares/"+id, "", nil); rec.Code != 200 || rec.Body.Len() != 0 || rec.Header().Get("Content-Length") != fmt.Sprint(size) {
		t.Fatalf("HEAD: %d, %d bytes, Content-Length %s", rec.Code, rec.Body.Len(), rec.Header().Get("Content-Length"))
	}
}

// wholeStore hands out shares whole only, as the PostgreSQL store does (it hides the
// directory's Open); Get waits at gate and counts the shares held at once.
type wholeStore struct {
	share.Store
	gate            chan struct{}
	held, most, got atomic.Int64
}

func (w *wholeStore) Get(ctx context.Context, id string) ([]byte, error) {
	n := w.held.Add(1)
	defer w.held.Add(-1)
	for m := w.most.Load(); n > m && !w.most.CompareAndSwap(m, n); m = w.most.Load() {
	}
	w.got.Add(1)
	<-w.gate
	return w.Store.Get(ctx, id)
}

// A store that hands out shares whole has each read counted against the body budget, at
// twice the share's size (the driver's buffer and the copy), before it is read: of 16 reads
// of a 2 MiB share at once under a 10 MiB budget, two hold the share and the others are told
// to come back (503, Retry-After), so memory stays within the budget.
func TestShareReadsWholeBudgeted(t *testing.T) {
	const size, readers = 2 << 20, 16
	dir, err := share.OpenDir(t.TempDir(), 8<<20)
	if err != nil {
		t.Fatal(err)
	}
	store := &wholeStore{Store: dir, gate: make(chan struct{})}
	cfg := DefaultConfig()
	cfg.MaxUpload, cfg.MaxDocument, cfg.MaxShare, cfg.BodyBudget = 1<<20, 1<<20, 8<<20, 10<<20
	s := newServerWithStore(t, cfg, store)
	s.budget.wait = 50 * time.Millisecond
	id, data := bigShare(t, dir, size)

	recs := make(chan *httptest.ResponseRecorder, readers)
	for range readers {
		go func() { recs <- do(s, "GET", "/api/shares/"+id, "", nil) }()
	}
	// The refused answer first; the two admitted wait at the gate until then.
	for range readers - 2 {
		rec := <-recs
		e := wantError(t, rec, http.StatusServiceUnavailable)
		if e.Error != "the server is sending too many shares at once: try again in a moment" || rec.Header().Get("Retry-After") != "1" {
			t.Fatalf("refusal %q, Retry-After %q", e.Error, rec.Header().Get("Retry-After"))
		}
	}
	if got, want := s.budget.reserved.Load(), int64(2*2*size); got != want {
		t.Errorf("reserved %d bytes while two reads hold the share, want %d", got, want)
	}
	close(store.gate)
	for range 2 {
		if rec := <-recs; rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), data) {
			t.Fatalf("admitted read: %d, %d bytes", rec.Code, rec.Body.Len())
		}
	}
	if m, g := store.most.Load(), store.got.Load(); m != 2 || g != 2 {
		t.Errorf("%d reads held the share at once and %d read it, want 2 and 2", m, g)
	}
	if r := s.budget.reserved.Load(); r != 0 {
		t.Errorf("%d bytes still reserved after the reads", r)
	}
	// Alone, a share whose reservation would exceed the whole budget is still read: the
	// reservation is capped at the budget.
	big, _ := bigShare(t, dir, 6<<20)
	if rec := do(s, "GET", "/api/shares/"+big, "", nil); rec.Code != 200 || rec.Body.Len() != 6<<20 {
		t.Fatalf("a share over half the budget: %d, %d bytes", rec.Code, rec.Body.Len())
	}
	if rec := do(s, "GET", "/api/shares/"+share.NewID(), "", nil); rec.Code != 404 {
		t.Fatalf("unknown share: %d", rec.Code)
	}
}
