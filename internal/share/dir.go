package share

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Dir is a Store in a local directory: one file per share, named by its id.
//
// A share is written to a temporary file in the same directory, synced, then linked under its
// id and the directory synced, so after a crash a share is either complete under its id or
// absent. Temporary names begin with a dot, which no id does, so a leftover temporary file is
// never served.
type Dir struct {
	dir string
	lim Limits
	// write writes to a temporary file; tests replace it to play a disk that fails.
	write func(f *os.File, b []byte) (int, error)

	mu   sync.Mutex
	used int64 // bytes in shares: counted once at open, then kept up to date by Put

	health healthCache
}

const (
	tempPrefix = ".tmp-"
	suffix     = ".json"
	// staleAge is how old a temporary file must be before OpenDir removes it as a crash's
	// leftover; younger ones may belong to a Put still running in another process.
	staleAge = 10 * time.Minute
)

// OpenDir opens (creating it if needed) a share directory. maxSize caps the size of one share;
// there is no quota. Temporary files left by a crash are removed.
func OpenDir(dir string, maxSize int64) (*Dir, error) {
	return OpenDirLimits(dir, Limits{MaxSize: maxSize})
}

// OpenDirLimits is OpenDir with a quota. The shares already in the directory are counted
// against it once, here; the count then follows this store's own Puts, so two servers
// sharing one directory each see only their own additions (use PostgreSQL for that).
func OpenDirLimits(dir string, lim Limits) (*Dir, error) {
	if err := lim.check(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("share: %w", err)
	}
	d := &Dir{dir: dir, lim: lim, write: (*os.File).Write}
	if err := d.scan(time.Now().Add(-staleAge)); err != nil {
		return nil, err
	}
	return d, nil
}

// scan walks the directory once: it removes temporary files older than before and adds up
// the sizes of the shares.
func (d *Dir) scan(before time.Time) error {
	entries, err := os.ReadDir(d.dir)
	if err != nil {
		return fmt.Errorf("share: %w", err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		name := e.Name()
		if strings.HasPrefix(name, tempPrefix) {
			if info, err := e.Info(); err == nil && info.ModTime().Before(before) {
				os.Remove(filepath.Join(d.dir, name))
			}
			continue
		}
		if id, ok := strings.CutSuffix(name, suffix); ok && ValidID(id) {
			info, err := e.Info()
			if err != nil {
				return fmt.Errorf("share: %w", err)
			}
			d.used += info.Size()
		}
	}
	return nil
}

// Used returns the bytes of shares the store counts against its quota.
func (d *Dir) Used() int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.used
}

// reserve counts n more bytes against the quota, or answers ErrQuota.
func (d *Dir) reserve(n int64) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.lim.Quota > 0 && d.used+n > d.lim.Quota {
		return ErrQuota
	}
	d.used += n
	return nil
}

func (d *Dir) release(n int64) {
	d.mu.Lock()
	d.used -= n
	d.mu.Unlock()
}

// path is only ever called with an id ValidID accepted or NewID made.
func (d *Dir) path(id string) string { return filepath.Join(d.dir, id+suffix) }

// Put implements Store.
func (d *Dir) Put(ctx context.Context, data []byte) (string, error) {
	if int64(len(data)) > d.lim.MaxSize {
		return "", ErrTooLarge
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	n := int64(len(data))
	if err := d.reserve(n); err != nil {
		return "", err
	}
	id, err := d.put(data)
	if err != nil {
		d.release(n)
		if errors.Is(err, ErrReadOnly) || errors.Is(err, ErrFull) || errors.Is(err, ErrUnavailable) {
			// The health check need not wait for its next probe to learn it.
			d.health.set(time.Now(), err)
		}
		return "", err
	}
	d.health.set(time.Now(), nil)
	return id, nil
}

func (d *Dir) put(data []byte) (string, error) {
	tmp, err := d.writeTemp(data)
	if err != nil {
		return "", err
	}
	// The temporary file goes whatever happens: once linked, the share has its own name.
	defer os.Remove(tmp)
	id, err := d.publish(tmp)
	if err != nil {
		return "", err
	}
	if err := syncDir(d.dir); err != nil {
		return "", classify(err)
	}
	return id, nil
}

// writeTemp writes data to a new synced temporary file and returns its path.
func (d *Dir) writeTemp(data []byte) (string, error) {
	f, err := os.CreateTemp(d.dir, tempPrefix+"*")
	if err != nil {
		return "", classify(err)
	}
	name := f.Name()
	_, err = d.write(f, data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(name, 0o640)
	}
	if err != nil {
		os.Remove(name)
		return "", classify(err)
	}
	return name, nil
}

// publish gives the temporary file a fresh id. A hard link, unlike rename, fails rather than
// replace an existing file, so a share can never be overwritten even in the (astronomically
// unlikely) case of a repeated id.
func (d *Dir) publish(tmp string) (string, error) {
	for range 3 {
		id := NewID()
		err := os.Link(tmp, d.path(id))
		if err == nil {
			return id, nil
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		// Some filesystems (certain network and FUSE mounts) have no hard links. Fall back
		// to rename after checking the name is free; only a repeated 128-bit id could race.
		if _, serr := os.Lstat(d.path(id)); !errors.Is(serr, fs.ErrNotExist) {
			continue
		}
		if err := os.Rename(tmp, d.path(id)); err != nil {
			return "", classify(err)
		}
		return id, nil
	}
	return "", errors.New("share: could not find a free id")
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Get implements Store.
func (d *Dir) Get(ctx context.Context, id string) ([]byte, error) {
	if !ValidID(id) {
		return nil, ErrNotFound
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(d.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("share: %w", err)
	}
	return b, nil
}

// Open implements Opener: the share's file, open for reading. A share is never changed
// once linked under its id, so what the file holds stays what Get would read.
func (d *Dir) Open(ctx context.Context, id string) (io.ReadCloser, Info, error) {
	if !ValidID(id) {
		return nil, Info{}, ErrNotFound
	}
	if err := ctx.Err(); err != nil {
		return nil, Info{}, err
	}
	f, err := os.Open(d.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, Info{}, ErrNotFound
	}
	if err != nil {
		return nil, Info{}, fmt.Errorf("share: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, Info{}, fmt.Errorf("share: %w", err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, Info{}, ErrNotFound
	}
	return f, Info{Size: st.Size(), Created: st.ModTime()}, nil
}

// Stat implements Store: one stat call, the data is not read.
func (d *Dir) Stat(ctx context.Context, id string) (Info, error) {
	if !ValidID(id) {
		return Info{}, ErrNotFound
	}
	if err := ctx.Err(); err != nil {
		return Info{}, err
	}
	st, err := os.Stat(d.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return Info{}, ErrNotFound
	}
	if err != nil {
		return Info{}, fmt.Errorf("share: %w", err)
	}
	if !st.Mode().IsRegular() {
		return Info{}, ErrNotFound
	}
	return Info{Size: st.Size(), Created: st.ModTime()}, nil
}

// Writable implements Store. It writes and removes a small probe file, at most once per
// healthTTL; a failed Put also updates the answer. The probe is a temporary file, so one left
// by a crash is swept like any other.
func (d *Dir) Writable(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return d.health.get(time.Now(), d.probe)
}

func (d *Dir) probe() error {
	f, err := os.CreateTemp(d.dir, tempPrefix+"probe-*")
	if err != nil {
		return classify(err)
	}
	name := f.Name()
	// A byte of data, synced: creating an empty file can succeed on a full disk.
	_, err = d.write(f, []byte{'\n'})
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if rerr := os.Remove(name); err == nil {
		err = rerr
	}
	if err != nil {
		return classify(err)
	}
	return nil
}
