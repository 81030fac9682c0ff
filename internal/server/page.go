package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"

	"ainbeditor/web"
)

// handleEditor is the editor, empty.
func (s *Server) handleEditor(w http.ResponseWriter, r *http.Request) {
	s.renderPage(w, r, http.StatusOK, web.Editor(web.EditorPage{MaxUpload: s.cfg.MaxUpload}))
}

func (s *Server) errorPage(w http.ResponseWriter, r *http.Request, status int, message string) {
	s.renderPage(w, r, status, web.ErrorPage(http.StatusText(status), message))
}

// renderPage renders c in memory first, so a failure becomes a clean 500.
func (s *Server) renderPage(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	var buf bytes.Buffer
	if err := c.Render(r.Context(), &buf); err != nil {
		s.writeError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	// The page is tiny and names the current assets: always ask again.
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// asset is one embedded file, with its validator computed once at start.
type asset struct {
	data        []byte
	etag        string
	contentType string
}

// assetTypes fixes the types that matter: a module script served with another type (some
// systems' mime.types say application/javascript, others nothing) would be refused under
// nosniff.
var assetTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".mjs": "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
	".svg": "image/svg+xml",
	".png": "image/png",
	".map": "application/json",
}

func loadAssets(fsys fs.FS) (map[string]asset, error) {
	assets := make(map[string]asset)
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		ct, ok := assetTypes[path.Ext(name)]
		if !ok {
			if ct = mime.TypeByExtension(path.Ext(name)); ct == "" {
				ct = "application/octet-stream"
			}
		}
		assets[name] = asset{data: data, etag: `"` + hex.EncodeToString(sum[:12]) + `"`, contentType: ct}
		return nil
	})
	return assets, err
}

// handleStatic serves the embedded editor assets. Their URLs carry no version, so browsers
// must revalidate each time (no-cache); the content hash as ETag makes that a 304.
func (s *Server) handleStatic(w http.ResponseWriter, r *http.Request) {
	a, ok := s.assets[chi.URLParam(r, "*")]
	if !ok {
		writeJSON(w, http.StatusNotFound, errorBody{"not found", nil})
		return
	}
	h := w.Header()
	h.Set("ETag", a.etag)
	h.Set("Cache-Control", "no-cache")
	if etagMatches(r.Header.Get("If-None-Match"), a.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", a.contentType)
	h.Set("Content-Length", strconv.Itoa(len(a.data)))
	w.WriteHeader(http.StatusOK)
	w.Write(a.data)
}

// etagMatches implements If-None-Match's weak comparison against a list of tags or "*".
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == etag {
			return true
		}
	}
	return false
}
