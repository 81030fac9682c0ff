package server

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
)

// The conversion limiter bounds the work once bodies are read, but a handler reads its whole
// body before it asks for a slot: 64 uploads of 16 MiB arriving together once held 1.15 GB.
// So every request body counts against one server-wide budget, reserved before the first
// byte is read and given back when the handler is done (the body's bytes live that long).
// A request that cannot get its reservation within a short wait is told to come back later
// rather than queued: waiting clients would hold their connections and the budget's queue
// would grow without bound.

// bodyWait is how long a request waits for its share of the budget.
const bodyWait = 2 * time.Second

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

// budgeted reserves a request's body in the budget around next. bodyCap is the most the
// route reads; a longer Content-Length is refused with 413 (reporting limit, the cap as the
// route's own errors state it) without reading anything. A body of unknown length (chunked)
// reserves the whole cap, since nothing says it will be smaller. The body is cut at the
// reservation, so what the handler reads never exceeds what was reserved.
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
			if n > 0 {
				release, err := s.budget.reserve(r.Context(), n)
				if err != nil {
					if r.Context().Err() != nil {
						return // the client left; nobody reads an answer
					}
					s.metrics.bodyRefused()
					w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
					s.writeError(w, r, &apiError{Status: http.StatusServiceUnavailable,
						Message: "the server is receiving too many request bodies at once: try again in a moment"})
					return
				}
				defer release()
				r.Body = http.MaxBytesReader(w, r.Body, n)
			}
			next.ServeHTTP(w, r)
		})
	}
}

// reserve takes n bytes of the budget, waiting at most b.wait. Waiters are served in order,
// so a large body is not starved by a stream of small ones; a small one may wait behind a
// large one for as long as b.wait.
func (b *bodyBudget) reserve(ctx context.Context, n int64) (release func(), err error) {
	ctx, cancel := context.WithTimeout(ctx, b.wait)
	defer cancel()
	if err := b.sem.Acquire(ctx, n); err != nil {
		return nil, err
	}
	b.reserved.Add(n)
	return func() {
		b.reserved.Add(-n)
		b.sem.Release(n)
	}, nil
}
