package server

import (
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// statusClientGone labels a request whose client left before any answer was written, as
// nginx does: the handler gave up, and no status reached anyone.
const statusClientGone = 499

// unmatchedRoute labels requests no route matched, so probes of random paths add no labels.
// A path under a mounted router (/api/nope) is labelled by the mount chi tried ("/api/*").
const unmatchedRoute = "unmatched"

// observe writes one access log line per request and counts it in the metrics. It runs
// outermost, so the status and sizes are what went to the client (errors from the other
// middleware and recovered panics included, and compressed sizes when the answer is), and
// the route is known: chi fills in the pattern while routing, inside next.
//
// The route pattern is logged rather than the path: a share's id is a capability, and the
// access log is not the place to keep every one that was opened. Unmatched paths are logged
// (cut short), since they are what one looks for in a log of 404s.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		body := &countingBody{ReadCloser: r.Body}
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = body
		}
		next.ServeHTTP(ww, r)
		elapsed := time.Since(start)

		route := chi.RouteContext(r.Context()).RoutePattern()
		if route == "" {
			route = unmatchedRoute
		}
		status := ww.Status()
		if status == 0 {
			// Nothing written: net/http sends 200 with no body, unless the client is gone.
			status = http.StatusOK
			if r.Context().Err() != nil {
				status = statusClientGone
			}
		}
		method := methodLabel(r.Method)
		s.metrics.observe(route, method, status, elapsed.Seconds(), body.n, int64(ww.BytesWritten()))

		level := slog.LevelInfo
		if route == "/healthz" || route == "/metrics" {
			level = slog.LevelDebug // called every few seconds by balancers and scrapers
		}
		if !s.log.Enabled(r.Context(), level) {
			return
		}
		attrs := []slog.Attr{
			slog.String("method", method),
			slog.String("route", route),
			slog.Int("status", status),
			slog.Int("bytes", ww.BytesWritten()),
			slog.Int64("request_bytes", body.n),
			slog.Duration("duration", elapsed),
			slog.String("remote", r.RemoteAddr),
		}
		if route == unmatchedRoute {
			attrs = append(attrs, slog.String("path", cutString(r.URL.Path, 200)))
		}
		s.log.LogAttrs(r.Context(), level, "request", attrs...)
	})
}

// countingBody counts the bytes a handler reads from a request body. The handler's goroutine
// is the only reader, and observe reads n once the handler has returned.
type countingBody struct {
	io.ReadCloser
	n int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n += int64(n)
	return n, err
}

// methodLabel is the method as a label: the ones the router knows by name, and "other", so
// a client inventing methods cannot invent label values.
func methodLabel(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return m
	}
	return "other"
}

func statusLabel(code int) string { return strconv.Itoa(code) }

func cutString(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
