package share

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Dir is a Store in a local directory: one file per share, named by its id.
//
// A share is written to a temporary file in the same directory, synced, then linked under its
// id and the directory synced, so after a crash a share is either complete under its id or
// absent. Temporary names begin with a dot, which no id does, so a leftover temporary file is
// never served.
type Dir struct {
	dir     string
	maxSize int64
}

const (
	tempPrefix = ".tmp-"
	suffix     = ".json"
	// staleAge is how old a temporary file must be before OpenDir removes it as a crash's
	// leftover; younger ones may belong to a Put still running in another process.
	staleAge = 10 * time.Minute
)

// OpenDir opens (creating it if needed) a share directory. maxSize caps the size of one share.
// Temporary files left by a crash are removed.
func OpenDir(dir string, maxSize int64) (*Dir, error) {
	if maxSize <= 0 {
		return nil, fmt.Errorf("share: size cap %d must be positive", maxSize)
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("share: %w", err)
	}
	d := &Dir{dir: dir, maxSize: maxSize}
	if err := d.removeStale(time.Now().Add(-staleAge)); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *Dir) removeStale(before time.Time) error {
	entries, err := os.ReadDir(d.dir)
	if err != nil {
		return fmt.Errorf("share: %w", err)
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), tempPrefix) || !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil && info.ModTime().Before(before) {
			os.Remove(filepath.Join(d.dir, e.Name()))
		}
	}
	return nil
}

// path is only ever called with an id ValidID accepted or NewID made.
func (d *Dir) path(id string) string { return filepath.Join(d.dir, id+suffix) }

// Put implements Store.
func (d *Dir) Put(ctx context.Context, data []byte) (string, error) {
	if int64(len(data)) > d.maxSize {
		return "", ErrTooLarge
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
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
		return "", fmt.Errorf("share: %w", err)
	}
	return id, nil
}

// writeTemp writes data to a new synced temporary file and returns its path.
func (d *Dir) writeTemp(data []byte) (string, error) {
	f, err := os.CreateTemp(d.dir, tempPrefix+"*")
	if err != nil {
		return "", fmt.Errorf("share: %w", err)
	}
	name := f.Name()
	_, err = f.Write(data)
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
		return "", fmt.Errorf("share: %w", err)
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
			return "", fmt.Errorf("share: %w", err)
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
