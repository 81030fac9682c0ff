package server

import (
	"context"
	"net/http"
	"runtime/debug"
	"sync"
)

// contentSecurityPolicy allows only the server's own scripts, styles and connections: no
// inline script or style, no plugins, no framing.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

// securityHeaders sets the headers every response carries, errors included.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		// A share link is a capability: whoever has it can read the share, so it must not
		// leak to other sites through the Referer header.
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

// recoverer turns a panic in a handler into a logged 500, so one malformed file that trips
// the codec costs one request rather than the process.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v) // the server's own way to abort a response; it logs nothing
			}
			s.log.ErrorContext(r.Context(), "panic serving request", "method", r.Method, "path", r.URL.Path,
				"panic", v, "stack", string(debug.Stack()))
			writeJSON(w, http.StatusInternalServerError, errorBody{"internal server error", nil})
		}()
		next.ServeHTTP(w, r)
	})
}

// gone is the error of a request whose client has left (or whose server is shutting down),
// nil otherwise. A conversion asks between its stages, and its codecs' long loops watch the
// context themselves (yaz0), so it stops rather than running to the end for nobody; the
// error is then not answered (writeError).
func gone(r *http.Request) error { return r.Context().Err() }

// limiter lets at most cap(l) conversions run at once. Without it, a burst of large uploads
// would hold many decoded files in memory at the same time. Handlers take a slot only once
// the body is read, so slow uploads cannot hold every slot; and they give it back once the
// reply is built, before writing it, so slow readers cannot either.
type limiter chan struct{}

// acquire waits for a slot as long as the client does; call the returned release when done.
// Release may be called more than once (early, before the reply is written, and deferred).
func (l limiter) acquire(ctx context.Context) (release func(), err error) {
	select {
	case l <- struct{}{}:
		var once sync.Once
		return func() { once.Do(func() { <-l }) }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
