package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"ainbeditor/internal/share"
)

// hungStore answers nothing until its caller's context ends, as a database stopped by
// SIGSTOP would, and notes the deadline each call was given.
type hungStore struct {
	mu        sync.Mutex
	deadlines []time.Duration // from each call to its context's deadline; -1 for none
}

func (h *hungStore) hang(ctx context.Context) error {
	left := time.Duration(-1)
	if d, ok := ctx.Deadline(); ok {
		left = time.Until(d)
	}
	h.mu.Lock()
	h.deadlines = append(h.deadlines, left)
	h.mu.Unlock()
	<-ctx.Done()
	return errors.New("connection lost: " + ctx.Err().Error())
}

func (h *hungStore) Put(ctx context.Context, _ []byte) (string, error) { return "", h.hang(ctx) }
func (h *hungStore) Get(ctx context.Context, _ string) ([]byte, error) { return nil, h.hang(ctx) }
func (h *hungStore) Stat(ctx context.Context, _ string) (share.Info, error) {
	return share.Info{}, h.hang(ctx)
}
func (h *hungStore) Writable(ctx context.Context) error { return h.hang(ctx) }

// hungOpener is a hungStore that streams shares.
type hungOpener struct{ hungStore }

func (h *hungOpener) Open(ctx context.Context, _ string) (io.ReadCloser, share.Info, error) {
	err := h.hang(ctx)
	// The stream's context must outlive the opening, so it has no deadline: a timer ends
	// it. The deadline it stood for is noted.
	h.mu.Lock()
	h.deadlines[len(h.deadlines)-1] = opened
	h.mu.Unlock()
	return nil, share.Info{}, err
}

// opened marks the call to Open among the deadlines.
const opened = -2

// TestStoreTimeout checks a store that hangs is answered 503 with Retry-After on every
// route that calls it, each call having had the deadline, and the share's body given back to
// the budget.
func TestStoreTimeout(t *testing.T) {
	const timeout = 50 * time.Millisecond
	doc := string(parseOK(t, newTestServer(t, nil), "x.ainb", corpusFile(t, smallFile)))
	id := strings.Repeat("q", 26)
	for _, store := range []interface {
		share.Store
		calls() []time.Duration
	}{&hungStore{}, &hungOpener{}} {
		s := newServerWithStore(t, func() Config { c := DefaultConfig(); c.StoreTimeout = timeout; return c }(), store)
		for _, c := range []struct {
			method, path string
			body         []byte
		}{
			{"POST", "/api/shares", []byte(`{"document":` + doc + `}`)},
			{"GET", "/api/shares/" + id, nil},
		} {
			rec := do(s, c.method, c.path, "application/json", c.body)
			if rec.Code != http.StatusServiceUnavailable || rec.Body.String() != bodyUnavailable || rec.Header().Get("Retry-After") != "60" {
				t.Errorf("%T %s %s: %d Retry-After %q %s", store, c.method, c.path, rec.Code, rec.Header().Get("Retry-After"), rec.Body.String())
			}
			if got := s.budget.reserved.Load(); got != 0 {
				t.Errorf("%T %s %s: %d bytes of the body budget still reserved", store, c.method, c.path, got)
			}
		}
		rec := do(s, "GET", "/s/"+id, "", nil)
		if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "60" ||
			!strings.Contains(rec.Body.String(), "The shared link could not be opened. Try again later.") {
			t.Errorf("%T share page: %d Retry-After %q %s", store, rec.Code, rec.Header().Get("Retry-After"), cut(rec.Body.Bytes()))
		}
		calls := store.calls()
		if len(calls) != 3 {
			t.Errorf("%T: %d calls to the store, want 3", store, len(calls))
		}
		for i, left := range calls {
			if left != opened && (left <= 0 || left > timeout) {
				t.Errorf("%T: call %d had %v left of its deadline, want at most %v", store, i, left, timeout)
			}
		}
	}
}

func (h *hungStore) calls() []time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.deadlines
}

// slowStream is a store whose share streams slowly, failing once the context it was opened
// with ends (as a stream from a networked store would).
type slowStream struct {
	hungStore
	data  string
	pause time.Duration
}

func (s *slowStream) Open(ctx context.Context, _ string) (io.ReadCloser, share.Info, error) {
	return &ctxReader{ctx: ctx, r: strings.NewReader(s.data), pause: s.pause}, share.Info{Size: int64(len(s.data))}, nil
}

type ctxReader struct {
	ctx   context.Context
	r     io.Reader
	pause time.Duration
}

func (c *ctxReader) Read(p []byte) (int, error) {
	time.Sleep(c.pause)
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p[:min(len(p), 4)])
}

func (c *ctxReader) Close() error { return nil }

// TestStoreTimeoutStream checks the deadline covers opening a share, not sending it: a
// stream slower than the store timeout reaches the client whole.
func TestStoreTimeoutStream(t *testing.T) {
	const timeout = 20 * time.Millisecond
	store := &slowStream{data: `{"document":{"x":1}}`, pause: timeout / 2}
	cfg := DefaultConfig()
	cfg.StoreTimeout = timeout
	s := newServerWithStore(t, cfg, store)
	rec := do(s, "GET", "/api/shares/"+strings.Repeat("q", 26), "", nil)
	if rec.Code != 200 || rec.Body.String() != store.data {
		t.Fatalf("slow stream: %d %q", rec.Code, rec.Body.String())
	}
}

func TestStoreTimeoutConfig(t *testing.T) {
	c, err := ParseConfig(nil, func(k string) string { return map[string]string{"AINB_STORE_TIMEOUT": "750ms"}[k] }, io.Discard)
	if err != nil || c.StoreTimeout != 750*time.Millisecond {
		t.Errorf("from the environment: %v %v", c.StoreTimeout, err)
	}
	if DefaultConfig().StoreTimeout != 5*time.Second {
		t.Errorf("default %v, want 5s", DefaultConfig().StoreTimeout)
	}
	_, err = ParseConfig([]string{"-store-timeout", "0s"}, func(string) string { return "" }, io.Discard)
	if err == nil || err.Error() != "store-timeout: must be positive" {
		t.Errorf("zero: %v", err)
	}
}
