package server

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"ainbeditor/internal/share"
)

// countingStore counts the calls that reach the store it wraps.
type countingStore struct {
	share.Store
	gets, stats atomic.Int64
}

// countingServer is a test server whose share directory counts its reads; edit adjusts the
// configuration.
func countingServer(t *testing.T, edit func(*Config)) (*Server, *countingStore, *share.Dir) {
	t.Helper()
	dir, err := share.OpenDir(t.TempDir(), 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	store := &countingStore{Store: dir}
	cfg := DefaultConfig()
	if edit != nil {
		edit(&cfg)
	}
	return newServerWithStore(t, cfg, store), store, dir
}

func (c *countingStore) Get(ctx context.Context, id string) ([]byte, error) {
	c.gets.Add(1)
	return c.Store.Get(ctx, id)
}

func (c *countingStore) Stat(ctx context.Context, id string) (share.Info, error) {
	c.stats.Add(1)
	return c.Store.Stat(ctx, id)
}

// TestSharePageReadsShareOnce opens the page of a 32 MiB share twice: the first view reads
// the share once to describe it for link previews (preview.go), the second finds the
// description kept and only asks the store whether the share exists (Stat), allocating far
// less than the share's size.
func TestSharePageReadsShareOnce(t *testing.T) {
	s, store, dir := countingServer(t, nil)
	const size = 32 << 20
	id, err := dir.Put(context.Background(), []byte(`{"document":{},"view":{"x":"`+strings.Repeat("x", size-31)+`"}}`))
	if err != nil {
		t.Fatal(err)
	}
	do(s, "GET", "/s/"+id, "", nil) // reads and describes the share; warms templates, pools
	// The page waits for the description a few seconds only; a slow run (-race) may still be
	// making it, and its picture waits for the same making rather than read the share again.
	do(s, "GET", "/s/"+id+"/preview.png", "", nil)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rec := do(s, "GET", "/s/"+id, "", nil)
	runtime.ReadMemStats(&after)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `data-share="`+id+`"`) {
		t.Fatalf("share page: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}
	// The first view: a Stat for the page, one for the reservation, and the read.
	if g, st := store.gets.Load(), store.stats.Load(); g != 1 || st != 3 {
		t.Fatalf("two page views: %d Get and %d Stat calls, want 1 and 3", g, st)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Fatalf("the page of a %d-byte share, described before, allocated %d bytes", size, alloc)
	}
	// An unknown id is a 404 from Stat alone; the API still reads the share.
	if rec := do(s, "GET", "/s/"+share.NewID(), "", nil); rec.Code != 404 {
		t.Fatalf("unknown share page: %d", rec.Code)
	}
	if rec := do(s, "GET", "/api/shares/"+id, "", nil); rec.Code != 200 || rec.Body.Len() != size {
		t.Fatalf("API: %d, %d bytes", rec.Code, rec.Body.Len())
	}
	// countingStore cannot stream (it hides the directory's Open), so the API reads the
	// share whole, after a Stat for its size to reserve in the body budget.
	if g, st := store.gets.Load(), store.stats.Load(); g != 2 || st != 5 {
		t.Fatalf("after the API read: %d Get and %d Stat calls, want 2 and 5", g, st)
	}
}

// faultStore fails writes with err, as a store with that fault does.
type faultStore struct {
	share.Store
	err error
}

func (f faultStore) Put(context.Context, []byte) (string, error) { return "", f.err }
func (f faultStore) Writable(context.Context) error              { return f.err }

// storeError dresses err as a store does: the kind, then the filesystem's own error.
func storeError(kind error, errno syscall.Errno) error {
	return fmt.Errorf("%w: %w", kind, &fs.PathError{Op: "write", Path: "/srv/secret/shares/.tmp-1", Err: errno})
}

const (
	bodyReadOnly    = `{"error":"the share store cannot write at the moment: try again later","detail":{"reason":"read-only"}}` + "\n"
	bodyUnavailable = `{"error":"the share store is unavailable at the moment: try again later","detail":{"reason":"unavailable"}}` + "\n"
	bodyFull        = `{"error":"the share storage is full: no new share can be stored","detail":{"reason":"full"}}` + "\n"
	bodyQuota       = `{"error":"the share storage quota is used up: no new share can be stored","detail":{"reason":"quota"}}` + "\n"
)

func TestShareStoreFaults(t *testing.T) {
	dir, err := share.OpenDir(t.TempDir(), 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(parseOK(t, newTestServer(t, nil), "x.ainb", corpusFile(t, midFile)))
	for _, c := range []struct {
		err                    error
		create, health         int
		createBody, healthBody string
		retryAfter             string // of the create answer
	}{
		{storeError(share.ErrReadOnly, syscall.EROFS), 503, 503, bodyReadOnly, bodyReadOnly, "60"},
		{storeError(share.ErrUnavailable, syscall.ENOTDIR), 503, 503, bodyUnavailable, bodyUnavailable, "60"},
		{storeError(share.ErrFull, syscall.ENOSPC), 507, 503, bodyFull, bodyFull, ""},
		// A full quota is a 507 for new shares, yet the instance is healthy: it serves.
		{share.ErrQuota, 507, 200, bodyQuota, `{"status":"ok"}` + "\n", ""},
		// An error the server does not know stays an opaque 500 and an unavailable store.
		{errors.New("/srv/secret: EIO"), 500, 503, `{"error":"internal server error","detail":null}` + "\n", bodyUnavailable, ""},
	} {
		t.Run(c.err.Error(), func(t *testing.T) {
			var store share.Store = faultStore{dir, c.err}
			if c.err == share.ErrQuota {
				store = quotaFullStore{dir}
			}
			s := newServerWithStore(t, DefaultConfig(), store)
			rec := do(s, "POST", "/api/shares", "application/json", []byte(`{"document":`+doc+`}`))
			if rec.Code != c.create || rec.Body.String() != c.createBody || rec.Header().Get("Retry-After") != c.retryAfter {
				t.Errorf("create: %d Retry-After %q %q; want %d %q %q", rec.Code, rec.Header().Get("Retry-After"), rec.Body.String(), c.create, c.retryAfter, c.createBody)
			}
			rec = do(s, "GET", "/healthz", "", nil)
			wantRetry := "60"
			if c.health == 200 {
				wantRetry = ""
			}
			if rec.Code != c.health || rec.Body.String() != c.healthBody || rec.Header().Get("Retry-After") != wantRetry ||
				rec.Header().Get("Cache-Control") != "no-store" || rec.Header().Get("Content-Type") != "application/json" {
				t.Errorf("healthz: %d %q %v; want %d %q", rec.Code, rec.Body.String(), rec.Header(), c.health, c.healthBody)
			}
		})
	}
}

// quotaFullStore is a healthy store whose quota is used up.
type quotaFullStore struct{ share.Store }

func (quotaFullStore) Put(context.Context, []byte) (string, error) { return "", share.ErrQuota }
func (quotaFullStore) Writable(context.Context) error              { return nil }

// TestShareCreateReadOnlyDir runs the real directory store on a directory the server cannot
// write to: read-only by its mode, or, as root (who writes through modes), removed under the
// running server and replaced by a file. Creation is a 503 with Retry-After, /healthz too,
// and shares already stored still open.
func TestShareCreateReadOnlyDir(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shares")
	dir, err := share.OpenDir(path, 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	s := newServerWithStore(t, DefaultConfig(), dir)
	doc := string(parseOK(t, s, "x.ainb", corpusFile(t, midFile)))
	if rec := do(s, "GET", "/healthz", "", nil); rec.Code != 200 {
		t.Fatalf("healthz before: %d %s", rec.Code, rec.Body.String())
	}
	kept := createShare(t, s, []byte(`{"document":`+doc+`}`))
	want := bodyReadOnly
	if os.Geteuid() == 0 {
		t.Log("running as root, which writes through permission bits: replacing the directory by a file")
		if err := os.Rename(path, path+".moved"); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, nil, 0o640); err != nil {
			t.Fatal(err)
		}
		want = bodyUnavailable
	} else {
		if err := os.Chmod(path, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(path, 0o755) })
	}
	rec := do(s, "POST", "/api/shares", "application/json", []byte(`{"document":`+doc+`}`))
	if rec.Code != http.StatusServiceUnavailable || rec.Body.String() != want || rec.Header().Get("Retry-After") != "60" {
		t.Fatalf("create: %d Retry-After %q %s; want 503 Retry-After 60 %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body.String(), want)
	}
	// The failed write told the health check at once.
	rec = do(s, "GET", "/healthz", "", nil)
	if rec.Code != http.StatusServiceUnavailable || rec.Body.String() != want || rec.Header().Get("Retry-After") != "60" {
		t.Fatalf("healthz: %d %s", rec.Code, rec.Body.String())
	}
	if os.Geteuid() != 0 {
		if rec := do(s, "GET", "/api/shares/"+kept, "", nil); rec.Code != 200 {
			t.Fatalf("a stored share on a read-only directory: %d", rec.Code)
		}
	}
}

// TestShareReadUnavailable: a store that cannot be reached makes reads a 503, page included.
func TestShareReadUnavailable(t *testing.T) {
	s := newServerWithStore(t, DefaultConfig(), unreachableStore{})
	id := share.NewID()
	rec := do(s, "GET", "/api/shares/"+id, "", nil)
	if rec.Code != 503 || rec.Body.String() != bodyUnavailable || rec.Header().Get("Retry-After") != "60" {
		t.Fatalf("API: %d %q %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body.String())
	}
	rec = do(s, "GET", "/s/"+id, "", nil)
	if rec.Code != 503 || rec.Header().Get("Retry-After") != "60" || !strings.Contains(rec.Body.String(), "could not be opened") {
		t.Fatalf("page: %d %q %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body.String())
	}
}

type unreachableStore struct{ secretStore }

var errUnreachable = fmt.Errorf("%w: dial tcp 10.1.2.3:5432: connection refused", share.ErrUnavailable)

func (unreachableStore) Get(context.Context, string) ([]byte, error) { return nil, errUnreachable }
func (unreachableStore) Stat(context.Context, string) (share.Info, error) {
	return share.Info{}, errUnreachable
}
