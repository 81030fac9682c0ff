package share

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"ainbeditor/internal/share/pgtest"
)

// backend makes stores over one fresh place (a directory, a database): every call of open
// opens a new Store on the same place, as a restarted or second server would.
type backend struct {
	name string
	new  func(t *testing.T) (open func(t *testing.T, lim Limits) Store)
}

func dirBackend() backend {
	return backend{"dir", func(t *testing.T) func(*testing.T, Limits) Store {
		dir := t.TempDir()
		return func(t *testing.T, lim Limits) Store {
			d, err := OpenDirLimits(dir, lim)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
	}}
}

// postgresBackend opens stores on a fresh database of the package's shared cluster.
func postgresBackend() backend {
	return backend{"postgres", func(t *testing.T) func(*testing.T, Limits) Store {
		url := pgtest.Shared(t).NewDatabase(t)
		return func(t *testing.T, lim Limits) Store {
			p, err := OpenPostgres(context.Background(), url, lim)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(p.Close)
			return p
		}
	}}
}

// backends lists every Store implementation; storeTests runs against each.
var backends = []backend{dirBackend(), postgresBackend()}

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}

// storeTests is the contract every Store meets, whatever keeps the shares.
var storeTests = []struct {
	name string
	run  func(t *testing.T, open func(*testing.T, Limits) Store)
}{
	{"PutGetStat", func(t *testing.T, open func(*testing.T, Limits) Store) {
		ctx := context.Background()
		s := open(t, Limits{MaxSize: 1 << 20})
		data := []byte(`{"document":{},"view":{"zoom":1.5}}`)
		before := time.Now().Add(-2 * time.Second)
		id, err := s.Put(ctx, data)
		if err != nil {
			t.Fatal(err)
		}
		if !ValidID(id) {
			t.Fatalf("Put returned id %q, which ValidID rejects", id)
		}
		got, err := s.Get(ctx, id)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("Get = %q, %v; want %q", got, err, data)
		}
		info, err := s.Stat(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if info.Size != int64(len(data)) {
			t.Errorf("Stat size %d, want %d", info.Size, len(data))
		}
		if info.Created.Before(before) || info.Created.After(time.Now().Add(2*time.Second)) {
			t.Errorf("Stat created %v, want about now", info.Created)
		}
		// Another store on the same place (a restart, a second server) serves it too.
		s2 := open(t, Limits{MaxSize: 1 << 20})
		if got, err := s2.Get(ctx, id); err != nil || !bytes.Equal(got, data) {
			t.Fatalf("second store: Get = %q, %v", got, err)
		}
	}},
	{"EmptyAndDistinct", func(t *testing.T, open func(*testing.T, Limits) Store) {
		ctx := context.Background()
		s := open(t, Limits{MaxSize: 100})
		ids := make(map[string]string)
		for i := range 30 {
			data := strings.Repeat("x", i)
			id, err := s.Put(ctx, []byte(data))
			if err != nil {
				t.Fatal(err)
			}
			if _, dup := ids[id]; dup {
				t.Fatalf("id %q returned twice", id)
			}
			ids[id] = data
		}
		for id, want := range ids {
			got, err := s.Get(ctx, id)
			if err != nil || string(got) != want {
				t.Fatalf("Get(%q) = %q, %v; want %q", id, got, err, want)
			}
		}
	}},
	{"NotFound", func(t *testing.T, open func(*testing.T, Limits) Store) {
		ctx := context.Background()
		s := open(t, Limits{MaxSize: 100})
		if _, err := s.Put(ctx, []byte("x")); err != nil {
			t.Fatal(err)
		}
		id := NewID()
		if got, err := s.Get(ctx, id); !errors.Is(err, ErrNotFound) || got != nil {
			t.Fatalf("Get(unknown) = %q, %v; want ErrNotFound", got, err)
		}
		if info, err := s.Stat(ctx, id); !errors.Is(err, ErrNotFound) || info != (Info{}) {
			t.Fatalf("Stat(unknown) = %+v, %v; want ErrNotFound", info, err)
		}
	}},
	{"InvalidID", func(t *testing.T, open func(*testing.T, Limits) Store) {
		ctx := context.Background()
		s := open(t, Limits{MaxSize: 100})
		id, err := s.Put(ctx, []byte("x"))
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"", "../secret", strings.ToUpper(id), id + "a", id[:25],
			".tmp-1", "abcdefghijklmnopqrstuvwxyz", "'; DROP TABLE shares; --", "\x00", strings.Repeat("a", 1000)} {
			if got, err := s.Get(ctx, bad); err != ErrNotFound || got != nil {
				t.Errorf("Get(%q) = %q, %v; want exactly ErrNotFound", bad, got, err)
			}
			if _, err := s.Stat(ctx, bad); err != ErrNotFound {
				t.Errorf("Stat(%q): %v; want exactly ErrNotFound", bad, err)
			}
		}
	}},
	{"TooLarge", func(t *testing.T, open func(*testing.T, Limits) Store) {
		ctx := context.Background()
		s := open(t, Limits{MaxSize: 10, Quota: 20})
		if _, err := s.Put(ctx, make([]byte, 11)); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("Put over the cap: %v, want ErrTooLarge", err)
		}
		// The refused share took nothing from the quota: two at the cap still fit.
		for i := range 2 {
			if _, err := s.Put(ctx, make([]byte, 10)); err != nil {
				t.Fatalf("Put %d at the cap: %v", i, err)
			}
		}
	}},
	{"Quota", func(t *testing.T, open func(*testing.T, Limits) Store) {
		ctx := context.Background()
		s := open(t, Limits{MaxSize: 10, Quota: 25})
		for _, n := range []int{10, 10} {
			if _, err := s.Put(ctx, make([]byte, n)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Put(ctx, make([]byte, 6)); !errors.Is(err, ErrQuota) {
			t.Fatalf("Put past the quota: %v, want ErrQuota", err)
		}
		if _, err := s.Put(ctx, make([]byte, 5)); err != nil {
			t.Fatalf("Put up to exactly the quota: %v", err)
		}
		if _, err := s.Put(ctx, nil); err != nil {
			t.Fatalf("an empty share at the quota: %v", err)
		}
		if _, err := s.Put(ctx, []byte("x")); !errors.Is(err, ErrQuota) {
			t.Fatalf("Put at a full quota: %v, want ErrQuota", err)
		}
		// A store opened later counts what is there: still full, until the quota grows.
		if _, err := open(t, Limits{MaxSize: 10, Quota: 25}).Put(ctx, []byte("x")); !errors.Is(err, ErrQuota) {
			t.Fatalf("reopened store: %v, want ErrQuota", err)
		}
		if _, err := open(t, Limits{MaxSize: 10, Quota: 26}).Put(ctx, []byte("x")); err != nil {
			t.Fatalf("reopened with a larger quota: %v", err)
		}
	}},
	{"ConcurrentPuts", func(t *testing.T, open func(*testing.T, Limits) Store) {
		ctx := context.Background()
		// 16 puts of 10 bytes race for a quota of 95: exactly 9 fit.
		s := open(t, Limits{MaxSize: 10, Quota: 95})
		var wg sync.WaitGroup
		ids := make([]string, 16)
		errs := make([]error, 16)
		for i := range ids {
			wg.Go(func() {
				ids[i], errs[i] = s.Put(ctx, []byte(fmt.Sprintf("share %4d", i)))
			})
		}
		wg.Wait()
		stored := 0
		seen := make(map[string]bool)
		for i, id := range ids {
			if errors.Is(errs[i], ErrQuota) {
				continue
			}
			if errs[i] != nil {
				t.Fatalf("put %d: %v", i, errs[i])
			}
			if seen[id] {
				t.Fatalf("id %q returned twice", id)
			}
			seen[id] = true
			stored++
			if got, err := s.Get(ctx, id); err != nil || string(got) != fmt.Sprintf("share %4d", i) {
				t.Fatalf("share %d: Get = %q, %v", i, got, err)
			}
		}
		if stored != 9 {
			t.Fatalf("%d puts stored under a quota for 9", stored)
		}
	}},
	{"Writable", func(t *testing.T, open func(*testing.T, Limits) Store) {
		s := open(t, Limits{MaxSize: 10, Quota: 1})
		if _, err := s.Put(context.Background(), []byte("x")); err != nil {
			t.Fatal(err)
		}
		// A full quota is no fault of the store: it still serves.
		if err := s.Writable(context.Background()); err != nil {
			t.Fatalf("Writable: %v", err)
		}
	}},
	{"Open", func(t *testing.T, open func(*testing.T, Limits) Store) {
		ctx := context.Background()
		s := open(t, Limits{MaxSize: 1 << 20})
		o, ok := s.(Opener)
		if !ok {
			t.Skip("this store hands out whole shares only")
		}
		data := bytes.Repeat([]byte(`{"document":{},"view":{"zoom":1.5}}`), 1000)
		id, err := s.Put(ctx, data)
		if err != nil {
			t.Fatal(err)
		}
		rc, info, err := o.Open(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		if cerr := rc.Close(); err == nil {
			err = cerr
		}
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("Open read %d bytes, %v; want the %d bytes stored", len(got), err, len(data))
		}
		if st, err := s.Stat(ctx, id); err != nil || st != info {
			t.Errorf("Open's info %+v, Stat's %+v (%v)", info, st, err)
		}
		if _, _, err := o.Open(ctx, NewID()); !errors.Is(err, ErrNotFound) {
			t.Errorf("Open(unknown): %v, want ErrNotFound", err)
		}
		for _, bad := range []string{"", "../secret", strings.ToUpper(id), id + "a", ".tmp-1"} {
			if rc, _, err := o.Open(ctx, bad); err != ErrNotFound || rc != nil {
				t.Errorf("Open(%q): %v; want exactly ErrNotFound", bad, err)
			}
		}
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, _, err := o.Open(cctx, id); !errors.Is(err, context.Canceled) {
			t.Errorf("Open with a canceled context: %v, want context.Canceled", err)
		}
	}},
	{"Canceled", func(t *testing.T, open func(*testing.T, Limits) Store) {
		s := open(t, Limits{MaxSize: 10})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := s.Put(ctx, []byte("x")); !errors.Is(err, context.Canceled) {
			t.Fatalf("Put: %v, want context.Canceled", err)
		}
		if _, err := s.Get(ctx, NewID()); !errors.Is(err, context.Canceled) {
			t.Fatalf("Get: %v, want context.Canceled", err)
		}
		if _, err := s.Stat(ctx, NewID()); !errors.Is(err, context.Canceled) {
			t.Fatalf("Stat: %v, want context.Canceled", err)
		}
	}},
}

func TestStoreContract(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			for _, c := range storeTests {
				t.Run(c.name, func(t *testing.T) { c.run(t, b.new(t)) })
			}
		})
	}
}
