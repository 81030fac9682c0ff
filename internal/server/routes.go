package server

import (
	"io"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// routes is the whole URL space of the server.
func (s *Server) routes() http.Handler {
	r := chi.NewRouter()
	r.Use(s.observe, s.recoverer, securityHeaders, s.checkHost, middleware.GetHead, compressor().Handler)
	r.NotFound(s.notFound)
	r.MethodNotAllowed(s.methodNotAllowed(r))

	r.Get("/", s.handleEditor)
	r.Get("/s/{id}", s.handleSharePage)
	r.Get("/s/{id}/preview.png", s.handlePreview)
	r.Get("/e/{id}", s.handleEmbedPage)
	r.Get("/static/*", s.handleStatic)
	r.Get("/healthz", s.handleHealth)
	r.Get("/metrics", s.metrics.handler().ServeHTTP)
	r.Route("/api", func(r chi.Router) {
		// Other sites' pages are refused first, then clients past their rate; bodies are
		// reserved in the server-wide budget before they are read.
		upload := r.With(s.sameOrigin, s.convertRate, s.budgeted(s.parseBodyCap(), s.cfg.MaxUpload))
		document := r.With(s.sameOrigin)
		budgeted := s.budgeted(s.cfg.MaxDocument, s.cfg.MaxDocument)
		upload.Post("/parse", s.api(s.handleParse))
		packs := r.With(s.sameOrigin, s.convertRate, s.budgeted(s.packBodyCap(), s.packBodyCap()))
		packs.Post("/pack", s.api(s.handleOpenPack))
		packs.Post("/pack/build", s.api(s.handleBuildPack))
		// BYML and AAMP trees (tree.go): files, and documents with their original file.
		trees := r.With(s.sameOrigin, s.convertRate, s.budgeted(s.treeBodyCap(), s.treeBodyCap()))
		trees.Post("/tree", s.api(s.handleOpenTree))
		trees.Post("/tree/build", s.api(s.handleBuildTree))
		document.With(s.convertRate, budgeted).Post("/tree/yaml", s.api(s.handleTreeToYAML))
		document.With(s.convertRate, budgeted).Post("/tree/from-yaml", s.api(s.handleTreeFromYAML))
		// The tree view's Compare with… and Merge… (treediff.go): two or three trees.
		document.With(s.convertRate, s.budgeted(s.treeDiffBodyCap(), s.treeDiffBodyCap())).Post("/tree/diff", s.api(s.handleTreeDiff))
		document.With(s.convertRate, s.budgeted(s.treeMergeBodyCap(), s.treeMergeBodyCap())).Post("/tree/merge", s.api(s.handleTreeMerge))
		document.With(s.convertRate, s.budgeted(s.buildBodyCap(), s.cfg.MaxDocument)).Post("/build", s.api(s.handleBuild))
		document.With(s.convertRate, budgeted).Post("/layout", s.api(s.handleLayout))
		// Compare with… and Merge… (diff.go): two or three documents in one body.
		document.With(s.convertRate, s.budgeted(s.diffBodyCap(), s.diffBodyCap())).Post("/diff", s.api(s.handleDiff))
		document.With(s.convertRate, s.budgeted(s.mergeBodyCap(), s.mergeBodyCap())).Post("/merge", s.api(s.handleMerge))
		// An expression's text is small: its body reserves only what the route reads.
		document.With(s.convertRate, s.budgeted(maxExpressionBody, maxExpressionBody)).Post("/expression", s.api(s.handleExpression))
		document.With(s.shareRate, budgeted).Post("/shares", s.api(s.handleCreateShare))
		r.Get("/shares/{id}", s.api(s.handleGetShare))
	})
	return r
}

// compressor compresses JSON, pages and assets for clients that accept it: zstd when they do
// (current browsers), gzip otherwise. Every parse answer is a whole document, so the levels
// are the fastest, chosen by measurement (BenchmarkCompress, on this project's documents):
// for a 265 KB document gzip 1 gives 73 KB in 1.7 ms and zstd's fastest 69 KB in 1.9 ms, where
// gzip 5 gives 64 KB in 2.8 ms and gzip 9 60 KB in 18 ms; for the 1.6 MB one, zstd's fastest
// gives 218 KB in 7.5 ms against gzip 5's 224 KB in 11 ms. The few kilobytes the slower levels
// save cost more server time than they save transfer time.
func compressor() *middleware.Compressor {
	c := middleware.NewCompressor(gzipLevel, "application/json", "text/html", "text/css", "text/javascript")
	c.SetEncoder("gzip", func(w io.Writer, level int) io.Writer {
		gw, err := gzip.NewWriterLevel(w, level)
		if err != nil {
			return nil
		}
		return gw
	})
	// Set last, so preferred when a client accepts both. Each response in flight holds an
	// encoder, whose history is about twice the window: at 1 MiB the encoders of four tree
	// answers were a third of the live heap (10 of 30 MB). A 256 KiB window compresses
	// ActorInfo's 1.5 MB tree answer to 494 KB as 1 MiB does, and the 1.6 MB parse answer
	// to 236 KB instead of 233 KB, as fast.
	c.SetEncoder("zstd", func(w io.Writer, _ int) io.Writer {
		zw, err := zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(zstdWindow))
		if err != nil {
			return nil
		}
		return zw
	})
	return c
}

// zstdWindow is the window of zstd-compressed answers (see compressor).
const zstdWindow = 256 << 10

// gzipLevel is the gzip level of compressed answers (see compressor).
const gzipLevel = 1

// api adapts a handler that returns its error, so each handler reads as straight-line code
// and every error goes through writeError.
func (s *Server) api(h func(http.ResponseWriter, *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			s.writeError(w, r, err)
		}
	}
}

// notFound answers JSON to the API and to programs, and a page to browsers.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, "/api/") && wantsHTML(r) {
		s.errorPage(w, r, http.StatusNotFound, "There is no page at this address.")
		return
	}
	writeJSON(w, http.StatusNotFound, errorBody{"not found", nil})
}

func wantsHTML(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.Contains(r.Header.Get("Accept"), "text/html")
}

// methodNotAllowed answers 405 with the Allow header, which chi leaves out once the handler
// is replaced; the router is asked which methods the path does match.
func (s *Server) methodNotAllowed(mux *chi.Mux) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var allow []string
		for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			// GetHead answers HEAD wherever GET is routed.
			probe := m
			if m == http.MethodHead {
				probe = http.MethodGet
			}
			if mux.Match(chi.NewRouteContext(), probe, r.URL.Path) {
				allow = append(allow, m)
			}
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeJSON(w, http.StatusMethodNotAllowed, errorBody{"method " + r.Method + " not allowed", map[string]any{"allow": allow}})
	}
}
