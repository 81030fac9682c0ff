package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"ainbeditor/internal/share"
	"ainbeditor/internal/share/pgtest"
)

// TestStoreTimeoutPostgres stops the database with SIGSTOP, as a partition would leave it:
// creating and reading shares answer 503 with Retry-After within the store timeout instead
// of hanging, give their bodies back, and work again once the database resumes.
func TestStoreTimeoutPostgres(t *testing.T) {
	cluster := pgtest.Start(t)
	cfg := DefaultConfig()
	cfg.StoreTimeout = 300 * time.Millisecond
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	store, err := share.OpenPostgres(ctx, cluster.NewDatabase(t), share.Limits{MaxSize: cfg.MaxShare, Quota: cfg.ShareQuota})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	s := newServerWithStore(t, cfg, store)
	doc := string(parseOK(t, s, "x.ainb", corpusFile(t, smallFile)))
	body := []byte(`{"document":` + doc + `}`)
	id := createShare(t, s, body)
	stored := do(s, "GET", "/api/shares/"+id, "", nil).Body.String()

	resume := cluster.Pause(t)
	for _, c := range []struct {
		method, path string
		body         []byte
	}{
		{"POST", "/api/shares", body},
		{"GET", "/api/shares/" + id, nil},
		{"GET", "/healthz", nil},
	} {
		// Without the store's deadline the request would hang: its client gives up long
		// after the deadline instead, and gets no answer.
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		req := httptestRequest(c.method, c.path, "application/json", c.body).WithContext(ctx)
		start := time.Now()
		rec := serve(s, req)
		cancel()
		t.Logf("%s %s with the database stopped: %d after %v", c.method, c.path, rec.Code, time.Since(start).Round(time.Millisecond))
		if rec.Code != http.StatusServiceUnavailable || rec.Body.String() != bodyUnavailable || rec.Header().Get("Retry-After") != "60" {
			t.Errorf("%s %s with the database stopped: %d Retry-After %q %s", c.method, c.path, rec.Code, rec.Header().Get("Retry-After"), rec.Body.String())
		}
		if got := s.budget.reserved.Load(); got != 0 {
			t.Errorf("%s %s: %d bytes of the body budget still reserved", c.method, c.path, got)
		}
	}

	resume()
	// The store recovers: reads answer again once the database does. A resumed cluster on a
	// busy machine may take longer than the store's 300 ms deadline to answer its first
	// queries (the connections given up on are opened again), so the read is tried again
	// for a while rather than once.
	var rec *httptest.ResponseRecorder
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		rec = do(s, "GET", "/api/shares/"+id, "", nil)
		if rec.Code != http.StatusServiceUnavailable || time.Now().After(deadline) {
			break
		}
	}
	if rec.Code != http.StatusOK || rec.Body.String() != stored {
		t.Fatalf("read after the database resumed: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}
	createShare(t, s, body)
}
