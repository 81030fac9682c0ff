package server

import (
	"context"
	"errors"
	"html"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"ainbeditor/web"
)

// handleSharePage is the editor opened on a share (/s/{id}). The editor fetches the share
// from the API; the page itself carries the share's description and picture for link
// previews, made from one read of the share and then kept (preview.go).
func (s *Server) handleSharePage(w http.ResponseWriter, r *http.Request) {
	s.serveSharePage(w, r, false)
}

// handleEmbedPage is the share shown read-only for framing in another site's page
// (/e/{id}): any site may frame it, where the editor's own pages refuse to be framed.
func (s *Server) handleEmbedPage(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", embedSecurityPolicy)
	h.Del("X-Frame-Options")
	// A page that isolates itself (Cross-Origin-Embedder-Policy) frames only what allows it.
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	s.serveSharePage(w, r, true)
}

// embedSecurityPolicy is the editor's policy with framing allowed to every site.
var embedSecurityPolicy = strings.Replace(contentSecurityPolicy, "frame-ancestors 'none'", "frame-ancestors *", 1)

func (s *Server) serveSharePage(w http.ResponseWriter, r *http.Request, embed bool) {
	id := chi.URLParam(r, "id")
	if err := s.statShare(r); err != nil {
		var ae *apiError
		if errors.As(err, &ae) && ae.Status == http.StatusNotFound {
			s.errorPage(w, r, http.StatusNotFound, "This shared link does not exist: it may be mistyped or cut short.")
			return
		}
		s.log.ErrorContext(r.Context(), "looking up a share", "err", err)
		status := http.StatusInternalServerError
		if ae := storeAPIError(err); ae != nil && ae.Status == http.StatusServiceUnavailable {
			status = ae.Status
			w.Header().Set("Retry-After", strconv.Itoa(storeRetryAfter))
		}
		s.errorPage(w, r, status, "The shared link could not be opened. Try again later.")
		return
	}
	s.renderPage(w, r, http.StatusOK, web.Editor(web.EditorPage{
		Share: id, MaxUpload: s.cfg.MaxUpload, Meta: s.shareMeta(r, id), ReadOnly: embed,
	}))
}

// pageMetaWait is how long a page waits for its share's description. A share too big to
// describe by then gets the generic one; its preview is still made, for the next request.
const pageMetaWait = 3 * time.Second

// shareMeta describes share id for link previews. When the share cannot be described (the
// server is busy, the share does not decode) the page still opens, with a generic
// description.
func (s *Server) shareMeta(r *http.Request, id string) *web.ShareMeta {
	origin := s.origin(r)
	m := &web.ShareMeta{
		Title:       "Shared graph",
		Description: "A graph shared from the AINB editor",
		URL:         origin + "/s/" + id,
		Image:       origin + "/s/" + id + "/preview.png",
	}
	ctx, cancel := context.WithTimeout(r.Context(), pageMetaWait)
	defer cancel()
	p, err := s.previewOf(ctx, id)
	if err != nil {
		s.log.WarnContext(r.Context(), "describing a share", "id", id, "err", err)
		return m
	}
	m.Title, m.Description = p.summary.Title, p.summary.Description
	return m
}

// embedSnippet is the HTML that frames share id on another site.
func embedSnippet(origin, id string) string {
	return `<iframe src="` + html.EscapeString(origin+"/e/"+id) + `" title="Shared AINB graph" width="960" height="540" style="border:0" loading="lazy" allowfullscreen></iframe>`
}
