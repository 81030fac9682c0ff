package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"time"

	"ainbeditor/internal/share"
)

// storeRetryAfter is the Retry-After, in seconds, of a 503 for a store that cannot write or
// cannot be reached: long enough for a load balancer to have taken the instance out, or an
// operator to have been paged, short enough that a person retrying by hand succeeds soon
// after the fault is gone.
const storeRetryAfter = 60

// healthTimeout bounds the store check of /healthz: a database that does not answer within
// it is as good as down for the load balancer asking.
const healthTimeout = 3 * time.Second

// openStore opens the store cfg names, with its limits; close releases it.
func openStore(ctx context.Context, cfg Config) (store share.Store, close func(), desc string, err error) {
	lim := share.Limits{MaxSize: cfg.MaxShare, Quota: cfg.ShareQuota}
	if share.IsPostgresURL(cfg.Store) {
		ctx, cancel := context.WithTimeout(ctx, storeOpenTimeout)
		defer cancel()
		p, err := share.OpenPostgres(ctx, cfg.Store, lim)
		if err != nil {
			return nil, nil, "", err
		}
		// The URL may hold a password: only the kind of store goes to the log.
		return p, p.Close, "postgres", nil
	}
	dir := filepath.Join(cfg.Data, "shares")
	d, err := share.OpenDirLimits(dir, lim)
	if err != nil {
		return nil, nil, "", err
	}
	return d, func() {}, dir, nil
}

// storeOpenTimeout bounds connecting to the database and migrating its schema at start.
const storeOpenTimeout = time.Minute

// storeError turns a failure of the share store into the answer the client gets. A store
// that cannot write or be reached is a 503 with Retry-After (the fault is expected to pass);
// a full quota or disk a 507 without one, since only an operator can make room. Anything else
// stays an internal error. The cause goes to the log, never to the client: it names paths
// and hosts.
func (s *Server) storeError(w http.ResponseWriter, r *http.Request, err error) error {
	var answer *apiError
	if errors.As(err, &answer) {
		return err // an answer already (no such share), not a fault of the store
	}
	s.metrics.storeError()
	ae := storeAPIError(err)
	if ae == nil {
		return err
	}
	s.log.ErrorContext(r.Context(), "share store", "status", ae.Status, "err", err)
	if ae.Status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", strconv.Itoa(storeRetryAfter))
	}
	return ae
}

// storeAPIError is the client's error for a store failure it should hear about, or nil.
func storeAPIError(err error) *apiError {
	reason := func(r string) map[string]any { return map[string]any{"reason": r} }
	switch {
	case errors.Is(err, share.ErrQuota):
		return &apiError{http.StatusInsufficientStorage, "the share storage quota is used up: no new share can be stored", reason("quota")}
	case errors.Is(err, share.ErrFull):
		return &apiError{http.StatusInsufficientStorage, "the share storage is full: no new share can be stored", reason("full")}
	case errors.Is(err, share.ErrReadOnly):
		return &apiError{http.StatusServiceUnavailable, "the share store cannot write at the moment: try again later", reason("read-only")}
	case errors.Is(err, share.ErrUnavailable):
		return &apiError{http.StatusServiceUnavailable, "the share store is unavailable at the moment: try again later", reason("unavailable")}
	}
	return nil
}

// handleHealth answers 200 while the server can do all its work, shares included; a store
// that cannot take a share makes it 503 with the reason, so a load balancer sends requests to
// an instance that can.
func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	ctx, cancel := context.WithTimeout(r.Context(), healthTimeout)
	defer cancel()
	if err := s.store.Writable(ctx); err != nil {
		ae := storeAPIError(err)
		if ae == nil || ae.Status != http.StatusServiceUnavailable && ae.Status != http.StatusInsufficientStorage {
			ae = storeAPIError(share.ErrUnavailable)
		}
		s.log.WarnContext(r.Context(), "health check: the share store cannot write", "err", err)
		// 503 whatever the store's fault: for a load balancer, this instance cannot serve.
		w.Header().Set("Retry-After", strconv.Itoa(storeRetryAfter))
		writeJSON(w, http.StatusServiceUnavailable, errorBody{ae.Message, ae.Detail})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// A store that stops answering (a database partitioned away, or stopped) once held every
// share request until the write timeout, two minutes, each with its body reserved, while
// /healthz already said 503. So every call to the store gets a deadline, StoreTimeout, and
// one that passes it is ErrUnavailable: a 503 with Retry-After, and the handler returns and
// gives its body back. The stores honour their context: the PostgreSQL driver gives up its
// connection when the context ends.

// storeTimeoutError is the error of a store call past its deadline.
type storeTimeoutError struct{ timeout time.Duration }

func (e *storeTimeoutError) Error() string {
	return fmt.Sprintf("the share store did not answer within %v", e.timeout)
}

func (e *storeTimeoutError) Is(target error) bool { return target == share.ErrUnavailable }

// deadlineStore gives every call to the store it wraps a deadline.
type deadlineStore struct {
	store   share.Store
	timeout time.Duration
}

// deadlineOpener is a deadlineStore over a store that streams shares.
type deadlineOpener struct {
	*deadlineStore
	opener share.Opener
}

// withDeadlines wraps store so every call has a deadline of timeout, keeping its ability to
// stream shares.
func withDeadlines(store share.Store, timeout time.Duration) share.Store {
	d := &deadlineStore{store: store, timeout: timeout}
	if o, ok := store.(share.Opener); ok {
		return &deadlineOpener{d, o}
	}
	return d
}

// bound runs call with the deadline; past it, the call's error becomes a storeTimeoutError
// (keeping the store's own error in the chain, for the log).
func (d *deadlineStore) bound(ctx context.Context, call func(context.Context) error) error {
	timeout := &storeTimeoutError{d.timeout}
	cctx, cancel := context.WithTimeoutCause(ctx, d.timeout, timeout)
	defer cancel()
	err := call(cctx)
	if err != nil && context.Cause(cctx) == timeout {
		return fmt.Errorf("%w: %w", timeout, err)
	}
	return err
}

func (d *deadlineStore) Put(ctx context.Context, data []byte) (id string, err error) {
	err = d.bound(ctx, func(ctx context.Context) (err error) {
		id, err = d.store.Put(ctx, data)
		return err
	})
	return id, err
}

func (d *deadlineStore) Get(ctx context.Context, id string) (data []byte, err error) {
	err = d.bound(ctx, func(ctx context.Context) (err error) {
		data, err = d.store.Get(ctx, id)
		return err
	})
	return data, err
}

func (d *deadlineStore) Stat(ctx context.Context, id string) (info share.Info, err error) {
	err = d.bound(ctx, func(ctx context.Context) (err error) {
		info, err = d.store.Stat(ctx, id)
		return err
	})
	return info, err
}

func (d *deadlineStore) Writable(ctx context.Context) error {
	return d.bound(ctx, d.store.Writable)
}

// Open has the deadline to open the share only: the copy to the client that follows takes
// as long as the client does (the write timeout bounds it), so the stream's context lives
// until it is closed.
func (d *deadlineOpener) Open(ctx context.Context, id string) (io.ReadCloser, share.Info, error) {
	timeout := &storeTimeoutError{d.timeout}
	cctx, cancel := context.WithCancelCause(ctx)
	timer := time.AfterFunc(d.timeout, func() { cancel(timeout) })
	rc, info, err := d.opener.Open(cctx, id)
	if !timer.Stop() {
		// Too late, whatever the store answered: a stream opened past the deadline may
		// already be broken by its context.
		if err == nil {
			rc.Close()
			err = context.Cause(cctx)
		}
		cancel(nil)
		return nil, share.Info{}, fmt.Errorf("%w: %w", timeout, err)
	}
	if err != nil {
		cancel(nil)
		return nil, info, err
	}
	return &closeCancel{rc, func() { cancel(nil) }}, info, nil
}

// closeCancel ends a stream's context when the stream is closed.
type closeCancel struct {
	io.ReadCloser
	cancel func()
}

func (c *closeCancel) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}
