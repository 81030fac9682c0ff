package share

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func openDir(t *testing.T, dir string, max int64) *Dir {
	t.Helper()
	d, err := OpenDir(dir, max)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// files lists the directory's entries, sorted.
func files(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

func TestPutGet(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	d := openDir(t, dir, 1<<20)
	data := []byte(`{"document":{},"view":{"zoom":1.5}}`)
	id, err := d.Put(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	if !ValidID(id) {
		t.Fatalf("Put returned id %q, which ValidID rejects", id)
	}
	got, err := d.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("Get = %q, want %q", got, data)
	}
	// Exactly one file, named by the id, with the data and owner/group permissions only.
	if names := files(t, dir); len(names) != 1 || names[0] != id+".json" {
		t.Fatalf("directory holds %q, want [%s.json]", names, id)
	}
	st, err := os.Stat(filepath.Join(dir, id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o640 {
		t.Errorf("share file mode %v, want 0640", st.Mode().Perm())
	}
}

func TestConcurrentPuts(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	d := openDir(t, dir, 100)
	var wg sync.WaitGroup
	ids := make([]string, 16)
	for i := range ids {
		wg.Go(func() {
			id, err := d.Put(ctx, []byte{byte('a' + i)})
			if err != nil {
				t.Error(err)
			}
			ids[i] = id
		})
	}
	wg.Wait()
	for i, id := range ids {
		got, err := d.Get(ctx, id)
		if err != nil || string(got) != string(rune('a'+i)) {
			t.Fatalf("share %d: Get = %q, %v", i, got, err)
		}
	}
	if n := len(files(t, dir)); n != len(ids) {
		t.Fatalf("%d files after %d puts (temporary files left?): %q", n, len(ids), files(t, dir))
	}
}

func TestSizeCap(t *testing.T) {
	dir := t.TempDir()
	d := openDir(t, dir, 10)
	if _, err := d.Put(context.Background(), make([]byte, 10)); err != nil {
		t.Fatalf("Put at the cap: %v", err)
	}
	if _, err := d.Put(context.Background(), make([]byte, 11)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("Put over the cap: err = %v, want ErrTooLarge", err)
	}
	if n := len(files(t, dir)); n != 1 {
		t.Fatalf("%d files, want 1: the refused share must leave nothing", n)
	}
	if _, err := OpenDir(t.TempDir(), 0); err == nil {
		t.Fatal("OpenDir with a zero cap succeeded")
	}
}

func TestGetUnknownAndInvalid(t *testing.T) {
	ctx := context.Background()
	parent := t.TempDir()
	dir := filepath.Join(parent, "shares")
	d := openDir(t, dir, 100)
	if _, err := d.Get(ctx, NewID()); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown id: err = %v, want ErrNotFound", err)
	}
	// Files an invalid id might reach if it were used as a path: beside the directory, and
	// inside it under names that are not ids.
	secret := []byte("secret")
	for _, name := range []string{filepath.Join(parent, "secret.json"), filepath.Join(dir, "Secret.json"), filepath.Join(dir, ".tmp-1.json")} {
		if err := os.WriteFile(name, secret, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range []string{"", "../secret", "..%2fsecret", "Secret", ".tmp-1", "/etc/passwd", strings.Repeat("a", 1000)} {
		got, err := d.Get(ctx, id)
		if !errors.Is(err, ErrNotFound) || got != nil {
			t.Errorf("Get(%q) = %q, %v; want ErrNotFound", id, got, err)
		}
	}
}

// TestInvalidIDNeverTouchesFilesystem uses a store whose directory does not exist: any
// filesystem access for an invalid id would fail with an error other than ErrNotFound.
func TestInvalidIDNeverTouchesFilesystem(t *testing.T) {
	d := &Dir{dir: string([]byte{0}), lim: Limits{MaxSize: 10}} // a path no system call accepts
	for _, id := range []string{"../x", "abc", "ABCDEFGHIJKLMNOPQRSTUVWXYQ"} {
		if _, err := d.Get(context.Background(), id); err != ErrNotFound {
			t.Errorf("Get(%q): err = %v, want exactly ErrNotFound", id, err)
		}
	}
	// A valid id does reach the filesystem and fails there: proof the test would notice.
	if _, err := d.Get(context.Background(), NewID()); err == nil || errors.Is(err, ErrNotFound) {
		t.Fatalf("valid id against a NUL path: err = %v, want a filesystem error", err)
	}
}

func TestPersistsAcrossStores(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	id, err := openDir(t, dir, 100).Put(ctx, []byte("kept"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := openDir(t, dir, 100).Get(ctx, id)
	if err != nil || string(got) != "kept" {
		t.Fatalf("new store: Get = %q, %v; want \"kept\"", got, err)
	}
}

// TestCrashLeftover plays a crash in the middle of Put: a temporary file with partial data.
// It is never served, a reopened store removes it once stale, and a fresh one (another
// process's Put in progress) is left alone.
func TestCrashLeftover(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	d := openDir(t, dir, 100)
	id := NewID()
	stale := filepath.Join(dir, tempPrefix+id+suffix)
	staleProbe := filepath.Join(dir, tempPrefix+"probe-99") // a health probe cut short
	fresh := filepath.Join(dir, tempPrefix+"123456")
	for _, name := range []string{stale, staleProbe, fresh} {
		if err := os.WriteFile(name, []byte(`{"docu`), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	for _, name := range []string{stale, staleProbe} {
		if err := os.Chtimes(name, old, old); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []*Dir{d, openDir(t, dir, 100)} {
		for _, probe := range []string{id, tempPrefix + id, tempPrefix + id + suffix, filepath.Base(fresh)} {
			if got, err := s.Get(ctx, probe); !errors.Is(err, ErrNotFound) {
				t.Errorf("Get(%q) = %q, %v; want ErrNotFound", probe, got, err)
			}
		}
	}
	if names := files(t, dir); len(names) != 1 || names[0] != filepath.Base(fresh) {
		t.Fatalf("after reopening the directory holds %q, want only the fresh temporary file", names)
	}
}

// TestQuotaCountedAtOpen: the shares already in the directory count against the quota,
// temporary files and names that are not ids do not.
func TestQuotaCountedAtOpen(t *testing.T) {
	dir := t.TempDir()
	for name, size := range map[string]int{
		NewID() + ".json":    7,
		NewID() + ".json":    5,
		tempPrefix + "1234":  1000, // a Put in progress in another process
		"README":             1000,
		"Abc.json":           1000,
		NewID():              1000, // no suffix
		NewID() + ".json.gz": 1000,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, size), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, NewID()+".json"), 0o750); err != nil {
		t.Fatal(err)
	}
	d, err := OpenDirLimits(dir, Limits{MaxSize: 10, Quota: 20})
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Used(); got != 12 {
		t.Fatalf("Used = %d at open, want 12 (the two shares)", got)
	}
	if _, err := d.Put(context.Background(), make([]byte, 9)); !errors.Is(err, ErrQuota) {
		t.Fatalf("Put of 9 into 8 free bytes: %v, want ErrQuota", err)
	}
	if _, err := d.Put(context.Background(), make([]byte, 8)); err != nil {
		t.Fatal(err)
	}
	if got := d.Used(); got != 20 {
		t.Fatalf("Used = %d after a put of 8, want 20", got)
	}
	if _, err := OpenDirLimits(dir, Limits{MaxSize: 10, Quota: -1}); err == nil {
		t.Fatal("a negative quota was accepted")
	}
}

// expire forgets the cached probe, as if healthTTL had passed.
func expire(d *Dir) {
	d.health.mu.Lock()
	d.health.at = time.Time{}
	d.health.mu.Unlock()
}

func TestWritableProbe(t *testing.T) {
	dir := t.TempDir()
	d := openDir(t, dir, 100)
	writes := 0
	d.write = func(f *os.File, b []byte) (int, error) { writes++; return f.Write(b) }
	for range 3 {
		if err := d.Writable(context.Background()); err != nil {
			t.Fatalf("Writable: %v", err)
		}
	}
	if writes != 1 {
		t.Fatalf("%d probe writes for 3 checks within %v, want 1 (cached)", writes, healthTTL)
	}
	if names := files(t, dir); len(names) != 0 {
		t.Fatalf("the probe left %q", names)
	}
	expire(d)
	if err := d.Writable(context.Background()); err != nil || writes != 2 {
		t.Fatalf("after expiry: %v, %d writes; want a new probe", err, writes)
	}
}

// TestDirReplaced removes the share directory under a running store and puts a file in its
// place: a real failure whatever the user, root included.
func TestDirReplaced(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "shares")
	d := openDir(t, dir, 100)
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o640); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Put(context.Background(), []byte("x")); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Put: %v, want ErrUnavailable", err)
	}
	// The failed Put told the health check at once, without waiting for a probe.
	if err := d.Writable(context.Background()); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Writable: %v, want ErrUnavailable", err)
	}
	expire(d)
	if err := d.Writable(context.Background()); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Writable after a probe: %v, want ErrUnavailable", err)
	}
	if d.Used() != 0 {
		t.Fatalf("Used = %d after failed puts, want 0", d.Used())
	}
}

// TestReadOnlyDir makes the directory read-only. Root ignores permission bits, so as root
// the test plays the same failure by making every write answer EROFS, the error a
// read-only mount gives.
func TestReadOnlyDir(t *testing.T) {
	dir := t.TempDir()
	d := openDir(t, dir, 100)
	if os.Geteuid() == 0 {
		t.Log("running as root, which writes through permission bits: injecting EROFS into writes")
		d.write = func(f *os.File, b []byte) (int, error) {
			return 0, &fs.PathError{Op: "write", Path: f.Name(), Err: syscall.EROFS}
		}
	} else {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
	}
	if _, err := d.Put(context.Background(), []byte("x")); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("Put: %v, want ErrReadOnly", err)
	}
	expire(d)
	if err := d.Writable(context.Background()); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("Writable: %v, want ErrReadOnly", err)
	}
	if names := files(t, dir); len(names) != 0 {
		t.Fatalf("failed writes left %q", names)
	}
}

// TestDiskFull plays a disk that fills up in the middle of a share.
func TestDiskFull(t *testing.T) {
	dir := t.TempDir()
	d, err := OpenDirLimits(dir, Limits{MaxSize: 100, Quota: 1000})
	if err != nil {
		t.Fatal(err)
	}
	full := true
	d.write = func(f *os.File, b []byte) (int, error) {
		if full {
			n, _ := f.Write(b[:len(b)/2])
			return n, &fs.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
		}
		return f.Write(b)
	}
	if _, err := d.Put(context.Background(), []byte("0123456789")); !errors.Is(err, ErrFull) {
		t.Fatalf("Put: %v, want ErrFull", err)
	}
	if err := d.Writable(context.Background()); !errors.Is(err, ErrFull) {
		t.Fatalf("Writable right after: %v, want ErrFull", err)
	}
	if names := files(t, dir); len(names) != 0 || d.Used() != 0 {
		t.Fatalf("after a failed put: files %q, Used %d; want none, 0", names, d.Used())
	}
	// Space comes back: the next probe says so.
	full = false
	expire(d)
	if err := d.Writable(context.Background()); err != nil {
		t.Fatalf("Writable after space returned: %v", err)
	}
}

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		errno syscall.Errno
		want  error
	}{
		{syscall.ENOSPC, ErrFull},
		{syscall.EDQUOT, ErrFull},
		{syscall.EROFS, ErrReadOnly},
		{syscall.EACCES, ErrReadOnly},
		{syscall.EPERM, ErrReadOnly},
		{syscall.ENOENT, ErrUnavailable},
		{syscall.ENOTDIR, ErrUnavailable},
	} {
		cause := &fs.PathError{Op: "open", Path: "/data/shares/x", Err: c.errno}
		got := classify(cause)
		if !errors.Is(got, c.want) || !errors.Is(got, c.errno) {
			t.Errorf("classify(%v) = %v; want %v wrapping the cause", cause, got, c.want)
		}
	}
	other := classify(&fs.PathError{Op: "write", Path: "x", Err: syscall.EIO})
	for _, kind := range []error{ErrFull, ErrReadOnly, ErrUnavailable} {
		if errors.Is(other, kind) {
			t.Errorf("EIO classified as %v", kind)
		}
	}
}
