package share

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"syscall"
	"time"
)

// healthTTL is how long a store trusts its last write probe. A load balancer asks every few
// seconds; probing each time would write to the disk (or database) that often for nothing.
const healthTTL = 5 * time.Second

// healthCache keeps the last answer of a write probe.
type healthCache struct {
	mu  sync.Mutex
	at  time.Time
	err error
}

// get returns the cached answer while it is fresh, else runs probe (one at a time) and keeps
// its answer.
func (h *healthCache) get(now time.Time, probe func() error) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.at.IsZero() && now.Sub(h.at) < healthTTL && now.Sub(h.at) >= 0 {
		return h.err
	}
	err := probe()
	if errors.Is(err, context.Canceled) {
		return err // the asker left; that says nothing of the store
	}
	h.err, h.at = err, now
	return err
}

// set records what a write just learned.
func (h *healthCache) set(now time.Time, err error) {
	h.mu.Lock()
	h.at, h.err = now, err
	h.mu.Unlock()
}

// classify marks a filesystem error from writing a share with what it means for the store.
func classify(err error) error {
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return writeErr(ErrFull, err)
	case errors.Is(err, syscall.EROFS), errors.Is(err, fs.ErrPermission):
		return writeErr(ErrReadOnly, err)
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		// The directory was removed or replaced under the running server.
		return writeErr(ErrUnavailable, err)
	}
	return fmt.Errorf("share: %w", err)
}
