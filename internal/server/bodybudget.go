package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
)

// The conversion limiter bounds the work once bodies are read, but a handler reads its whole
// body before it asks for a slot: 64 uploads of 16 MiB arriving together once held 1.15 GB.
// So every request body counts against one server-wide budget, and is given back when the
// handler is done (the body's bytes live that long).
//
// A body reserves what has arrived, not what its Content-Length announces: when the whole
// announced length was reserved before the first byte, three chunked uploads and one
// announcing 13 MB, sending 20 bytes in all, held the whole 256 MiB budget for the read
// timeout and every other upload got 503. Now a body's reservation grows as it is read,
// doubling (so a body holds at most twice what it sent, and a 16 MiB upload asks the budget
// about ten times), and a body that stops arriving for BodyIdleTimeout is cut with 408.
//
// A request that cannot get more of the budget within a short wait is told to come back
// later rather than queued: waiting clients would hold their connections and the budget's
// queue would grow without bound.

// bodyWait is how long a request waits for its share of the budget.
const bodyWait = 2 * time.Second

// bodyGrain is the first reservation of a body, and the least it grows by: small enough that
// thousands of idle bodies fit in the default budget, large enough that most requests (a
// document edit, a small AINB file) ask the budget once.
const bodyGrain = 64 << 10

// retryAfter is the Retry-After of a refusal, in seconds: conversions take tens to hundreds
// of milliseconds, so by then the budget has usually turned over.
const retryAfter = 1

// bodyBudget is the server-wide budget of request body bytes.
type bodyBudget struct {
	sem      *semaphore.Weighted
	size     int64
	wait     time.Duration
	reserved atomic.Int64 // for the metrics
}

func newBodyBudget(size int64) *bodyBudget {
	return &bodyBudget{sem: semaphore.NewWeighted(size), size: size, wait: bodyWait}
}

// acquire takes n bytes of the budget, waiting at most b.wait. Waiters are served in order,
// so a large body is not starved by a stream of small ones; a small one may wait behind a
// large one for as long as b.wait.
func (b *bodyBudget) acquire(ctx context.Context, n int64) error {
	ctx, cancel := context.WithTimeout(ctx, b.wait)
	defer cancel()
	if err := b.sem.Acquire(ctx, n); err != nil {
		return err
	}
	b.reserved.Add(n)
	return nil
}

func (b *bodyBudget) release(n int64) {
	b.reserved.Add(-n)
	b.sem.Release(n)
}

// reserve takes n bytes at once, for something held whole (a share read from PostgreSQL).
func (b *bodyBudget) reserve(ctx context.Context, n int64) (release func(), err error) {
	if err := b.acquire(ctx, n); err != nil {
		return nil, err
	}
	return func() { b.release(n) }, nil
}

// budgeted meters a request's body against the budget around next. bodyCap is the most the
// route reads; a longer Content-Length is refused with 413 (reporting limit, the cap as the
// route's own errors state it) without reading anything. The body is cut at its
// Content-Length, or at the cap when the length is unknown.
func (s *Server) budgeted(bodyCap, limit int64) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n := r.ContentLength
			if n > bodyCap {
				s.writeError(w, r, tooLarge(limit))
				return
			}
			if n < 0 {
				n = bodyCap
			}
			if n == 0 || r.Body == nil || r.Body == http.NoBody {
				next.ServeHTTP(w, r)
				return
			}
			m := &meteredBody{
				body:   r.Body,
				ctx:    r.Context(),
				budget: s.budget,
				limit:  n,
				rc:     http.NewResponseController(w),
				idle:   s.cfg.BodyIdleTimeout,
				// The server set the connection's deadline to ReadTimeout after the request
				// began, a little before now (by the time its headers took): the idle
				// deadline never goes past this one, which is as close as a handler knows.
				whole:   time.Now().Add(s.cfg.ReadTimeout),
				timeout: s.cfg.ReadTimeout,
			}
			defer m.releaseAll()
			r = r.WithContext(context.WithValue(r.Context(), meteredKey{}, m))
			r.Body = http.MaxBytesReader(w, m, n)
			next.ServeHTTP(w, r)
			if m.fault != nil && m.fault.Status == http.StatusServiceUnavailable {
				s.metrics.bodyRefused()
			}
		})
	}
}

type meteredKey struct{}

// bodyFault is why the server cut the request's body, or nil: the answer the client gets,
// whatever the handler made of the failed read (a multipart reader reports a body cut short
// as malformed framing).
func bodyFault(r *http.Request) *apiError {
	if m, ok := r.Context().Value(meteredKey{}).(*meteredBody); ok {
		return m.fault
	}
	return nil
}

// errBodyCut is the read error a handler sees when the server cut the body; what the client
// is told is the body's fault.
var errBodyCut = errors.New("request body cut by the server")

// meteredBody reads a request body, reserving it in the budget as it arrives and cutting it
// when it stops arriving. Only the handler's goroutine reads it.
type meteredBody struct {
	body   io.ReadCloser
	ctx    context.Context
	budget *bodyBudget
	limit  int64 // the most the body is read to, and so the most it reserves
	held   int64 // reserved in the budget
	read   int64

	rc      *http.ResponseController
	idle    time.Duration // the longest wait for the next bytes
	whole   time.Time     // the request's own read deadline
	timeout time.Duration // what whole was set from, for the message
	fault   *apiError
}

func (m *meteredBody) Read(p []byte) (int, error) {
	if m.fault != nil {
		return 0, errBodyCut
	}
	if len(p) == 0 {
		return 0, nil
	}
	if m.read >= m.held && m.held < m.limit {
		grow := min(m.limit, max(2*m.held, m.held+bodyGrain)) - m.held
		if err := m.budget.acquire(m.ctx, grow); err != nil {
			if m.ctx.Err() != nil {
				return 0, m.ctx.Err() // the client left
			}
			m.fault = &apiError{Status: http.StatusServiceUnavailable,
				Message: "the server is receiving too many request bodies at once: try again in a moment"}
			return 0, errBodyCut
		}
		m.held += grow
	}
	// Past the limit nothing more is reserved: the MaxBytesReader above reads one byte
	// there, to tell a body that ends at the limit from one that goes on.
	if m.read < m.limit {
		p = p[:min(int64(len(p)), m.held-m.read)]
	}
	deadline := time.Now().Add(m.idle)
	idleCut := deadline.Before(m.whole)
	if !idleCut {
		deadline = m.whole
	}
	// Recorders and writers that hide the connection cannot set deadlines; those bodies are
	// bounded by the server's ReadTimeout alone.
	canCut := m.rc.SetReadDeadline(deadline) == nil
	n, err := m.body.Read(p)
	m.read += int64(n)
	// The deadline is left as it is: once the body ends, net/http clears it for its own
	// watch on the connection (a deadline there would cancel the request, and a conversion
	// may well run longer than the idle timeout).
	if err == nil || !canCut || !errors.Is(err, os.ErrDeadlineExceeded) {
		return n, err
	}
	if idleCut {
		m.fault = &apiError{Status: http.StatusRequestTimeout,
			Message: fmt.Sprintf("the request body stopped arriving: nothing came for %v after byte %d; send it again", m.idle, m.read),
			Detail:  map[string]any{"received": m.read, "idleTimeout": m.idle.Seconds()}}
	} else {
		m.fault = &apiError{Status: http.StatusRequestTimeout,
			Message: fmt.Sprintf("the request body took too long: it was not complete after %v (byte %d)", m.timeout, m.read),
			Detail:  map[string]any{"received": m.read, "readTimeout": m.timeout.Seconds()}}
	}
	return n, errBodyCut
}

func (m *meteredBody) Close() error { return m.body.Close() }

func (m *meteredBody) releaseAll() {
	if m.held > 0 {
		m.budget.release(m.held)
		m.held = 0
	}
}
