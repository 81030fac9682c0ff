package share

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
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

func TestPutEmptyAndDistinct(t *testing.T) {
	ctx := context.Background()
	d := openDir(t, t.TempDir(), 100)
	ids := make(map[string]string)
	for i := range 50 {
		data := strings.Repeat("x", i)
		id, err := d.Put(ctx, []byte(data))
		if err != nil {
			t.Fatal(err)
		}
		if _, dup := ids[id]; dup {
			t.Fatalf("id %q returned twice", id)
		}
		ids[id] = data
	}
	for id, want := range ids {
		got, err := d.Get(ctx, id)
		if err != nil || string(got) != want {
			t.Fatalf("Get(%q) = %q, %v; want %q", id, got, err, want)
		}
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
	d := &Dir{dir: string([]byte{0}), maxSize: 10} // a path no system call accepts
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
	fresh := filepath.Join(dir, tempPrefix+"123456")
	for _, name := range []string{stale, fresh} {
		if err := os.WriteFile(name, []byte(`{"docu`), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
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

func TestContextCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d := openDir(t, t.TempDir(), 100)
	if _, err := d.Put(ctx, []byte("x")); !errors.Is(err, context.Canceled) {
		t.Fatalf("Put: err = %v, want context.Canceled", err)
	}
	if _, err := d.Get(ctx, NewID()); !errors.Is(err, context.Canceled) {
		t.Fatalf("Get: err = %v, want context.Canceled", err)
	}
}
