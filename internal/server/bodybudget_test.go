package server

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const budgetBusy = `{"error":"the server is receiving too many request bodies at once: try again in a moment","detail":null}`

// wantBusy checks a refusal for want of body budget.
func wantBusy(t *testing.T, rec *httptest.ResponseRecorder) {
	t.Helper()
	wantError(t, rec, http.StatusServiceUnavailable)
	if got := strings.TrimSuffix(rec.Body.String(), "\n"); got != budgetBusy {
		t.Errorf("body %s, want %s", got, budgetBusy)
	}
	if got := rec.Header().Get("Retry-After"); got != "1" {
		t.Errorf("Retry-After %q, want 1", got)
	}
}

func TestBodyBudget(t *testing.T) {
	const big = 100 << 10
	// The parse route takes up to 164 KiB (a form may add 64 KiB to the 100 KiB file); the
	// budget holds one big body and a little more, not two.
	s := newTestServer(t, func(c *Config) {
		c.MaxUpload = big
		c.MaxDocument = big
		c.BodyBudget = 180 << 10
	})
	s.budget.wait = 10 * time.Millisecond
	small := corpusFile(t, smallFile)
	want := parseOK(t, s, "x.ainb", small)

	// A big upload whose body arrives slowly holds what has arrived, in steps that double,
	// not what it announces.
	pr, pw := io.Pipe()
	slow := httptest.NewRequest("POST", "/api/parse", pr)
	slow.Header.Set("Content-Type", "application/octet-stream")
	slow.ContentLength = big
	done := make(chan *httptest.ResponseRecorder)
	go func() { done <- serve(s, slow) }()
	// A write returns once the handler has read it all.
	if _, err := pw.Write(make([]byte, 1<<10)); err != nil {
		t.Fatal(err)
	}
	if got := s.budget.reserved.Load(); got != bodyGrain {
		t.Fatalf("reserved %d bytes after 1 KiB of the slow upload, want %d", got, bodyGrain)
	}
	// A small body with a length reserves its length, and fits beside it.
	if rec := do(s, "POST", "/api/parse?name=x.ainb", "application/octet-stream", small); rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), want) {
		t.Fatalf("small upload beside the slow one: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}
	if _, err := pw.Write(make([]byte, bodyGrain)); err != nil {
		t.Fatal(err)
	}
	// Doubling stops at the announced length.
	if got := s.budget.reserved.Load(); got != big {
		t.Fatalf("reserved %d bytes after 65 KiB of the slow upload, want %d", got, big)
	}

	// Now a second big one does not fit beside it: it gets its first grain, and is refused
	// the rest part way.
	wantBusy(t, do(s, "POST", "/api/parse", "application/octet-stream", make([]byte, big)))
	if got := s.budget.reserved.Load(); got != big {
		t.Fatalf("reserved %d bytes after the refusal, want the slow upload's %d", got, big)
	}
	// A body of unknown length may be as long as the route takes, but reserves a grain to
	// start with, and this one needs no more.
	chunked := httptestRequest("POST", "/api/parse?name=x.ainb", "application/octet-stream", small)
	chunked.ContentLength = -1
	if rec := serve(s, chunked); rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), want) {
		t.Fatalf("chunked upload beside the slow one: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}

	// The slow upload completes (zeros are no AINB file) and gives its reservation back.
	if _, err := pw.Write(make([]byte, big-1<<10-bodyGrain)); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	if rec := <-done; rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("slow upload: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}
	if got := s.budget.reserved.Load(); got != 0 {
		t.Fatalf("reserved %d bytes with no request in flight", got)
	}
	wantError(t, do(s, "POST", "/api/parse", "application/octet-stream", make([]byte, big)), http.StatusUnprocessableEntity)
	chunked = httptestRequest("POST", "/api/parse?name=x.ainb", "application/octet-stream", small)
	chunked.ContentLength = -1
	if rec := serve(s, chunked); rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), want) {
		t.Fatalf("chunked upload alone: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}
	if got := s.budget.reserved.Load(); got != 0 {
		t.Fatalf("reserved %d bytes with no request in flight", got)
	}
}

// TestBodyBudgetMidBody checks a body refused more budget part way is answered 503 with
// Retry-After, whatever the route's reader made of the cut (a form reader calls it
// malformed), and gives back what it held.
func TestBodyBudgetMidBody(t *testing.T) {
	const big = 100 << 10
	s := newTestServer(t, func(c *Config) {
		c.MaxUpload = big
		c.MaxDocument = big
		c.BodyBudget = 180 << 10
	})
	s.budget.wait = 10 * time.Millisecond
	// Another request holds all but 80 KiB.
	if err := s.budget.acquire(t.Context(), 100<<10); err != nil {
		t.Fatal(err)
	}
	ct, form := multipartBody(t, "file", "a.ainb", make([]byte, 90<<10))
	// The form gets its first 64 KiB, then cannot grow to its length.
	wantBusy(t, do(s, "POST", "/api/parse", ct, form))
	if got := s.budget.reserved.Load(); got != 100<<10 {
		t.Fatalf("reserved %d bytes after the refusal, want the other request's %d", got, 100<<10)
	}
	s.budget.release(100 << 10)
	wantError(t, do(s, "POST", "/api/parse", ct, form), http.StatusUnprocessableEntity)
}

// TestBodyBudgetConfig checks the budget is at least the largest body a route takes, so a
// request the routes accept can always be reserved.
func TestBodyBudgetConfig(t *testing.T) {
	cfg := DefaultConfig()
	cfg.BodyBudget = cfg.MaxDocument - 1
	err := cfg.Check()
	if want := "body-budget: 67108863 bytes is less than the largest request body the routes take (67108864 bytes)"; err == nil || err.Error() != want {
		t.Fatalf("Check: %v, want %s", err, want)
	}
	cfg = DefaultConfig()
	cfg.MaxDocument = 1 << 10
	cfg.BodyBudget = cfg.MaxUpload + multipartSlack - 1
	if err := cfg.Check(); err == nil || !strings.HasPrefix(err.Error(), "body-budget: ") {
		t.Fatalf("Check: %v", err)
	}
	cfg.BodyBudget++
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
}

// formHead starts a form whose file never ends.
const formHead = "--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.ainb\"\r\n\r\n"

// endless is a body that never ends, counting what is read of it.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	clear(p)
	e.n += int64(len(p))
	return len(p), nil
}

func TestBodyTooLargeNotRead(t *testing.T) {
	s := newTestServer(t, func(c *Config) {
		c.MaxUpload = 1000
		c.MaxDocument = 2000
	})
	for _, c := range []struct {
		path, contentType string
		limit             int64
	}{
		{"/api/parse", "application/octet-stream", 1000},
		{"/api/parse", "multipart/form-data; boundary=x", 1000},
		{"/api/build", "application/json", 2000},
		{"/api/layout", "application/json", 2000},
		{"/api/shares", "application/json", 2000},
	} {
		// A length past the route's cap is refused without reading a byte.
		body := &endless{}
		req := httptest.NewRequest("POST", c.path, body)
		req.Header.Set("Content-Type", c.contentType)
		req.ContentLength = 1 << 40
		e := wantError(t, serve(s, req), http.StatusRequestEntityTooLarge)
		if e.Detail["limit"] != float64(c.limit) || body.n != 0 {
			t.Errorf("%s %s with a length of 1 TiB: limit %v, read %d bytes", c.path, c.contentType, e.Detail["limit"], body.n)
		}
		// Without a length it is read up to the limit and one byte to see there is more.
		body = &endless{}
		req = httptest.NewRequest("POST", c.path, body)
		req.Header.Set("Content-Type", c.contentType)
		req.ContentLength = -1
		form := strings.HasPrefix(c.contentType, "multipart/")
		if form {
			req.Body = io.NopCloser(io.MultiReader(strings.NewReader(formHead), body))
		}
		e = wantError(t, serve(s, req), http.StatusRequestEntityTooLarge)
		if e.Detail["limit"] != float64(c.limit) {
			t.Errorf("%s %s without a length: limit %v", c.path, c.contentType, e.Detail["limit"])
		}
		// A form's reader reads whole buffers, but never past the route's cap (the file's
		// limit and the form's framing).
		if !form && body.n != c.limit+1 || form && body.n > c.limit+multipartSlack+1 {
			t.Errorf("%s %s without a length: read %d bytes", c.path, c.contentType, body.n)
		}
	}
	if got := s.budget.reserved.Load(); got != 0 {
		t.Fatalf("reserved %d bytes with no request in flight", got)
	}
}
