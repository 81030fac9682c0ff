package server

import (
	"errors"
	"net/http"
	"strings"
)

// A page on another site can make its visitor's browser POST to this server: a plain fetch
// with a Blob body, or a form, is a "simple request" that goes out without a CORS preflight,
// and the server does the work (a conversion, a stored share) even though the page cannot
// read the answer. The editor's own page posts same-origin, so the state-changing and
// expensive endpoints refuse what a browser marks as coming from elsewhere.
//
// The decision is net/http's CrossOriginProtection: Sec-Fetch-Site "same-origin" or "none"
// (typed in the address bar, a bookmark) passes, any other value is refused; a browser too
// old to send Sec-Fetch-Site is judged by Origin, which must name the request's own Host.
// A request with neither header is not from a browser page (curl, the ainb command, a
// script), so there is nobody to protect, and it passes. Origins in Config.AllowOrigins pass
// whatever the headers say.

// newOriginGuard makes the check for a list of trusted origins.
func newOriginGuard(origins []string) (*http.CrossOriginProtection, error) {
	g := http.NewCrossOriginProtection()
	var errs []error
	for _, o := range origins {
		if err := g.AddTrustedOrigin(o); err != nil {
			errs = append(errs, err)
		}
	}
	return g, errors.Join(errs...)
}

func checkOrigins(origins []string) error {
	_, err := newOriginGuard(origins)
	return err
}

// sameOrigin refuses with 403 a request a browser sent on behalf of another site's page.
func (s *Server) sameOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.origins.Check(r); err != nil {
			s.writeError(w, r, crossOriginError(r))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// crossOriginError says which header gave the request away. It mirrors the order of
// CrossOriginProtection.Check: Sec-Fetch-Site, when sent, decides alone.
func crossOriginError(r *http.Request) *apiError {
	site, origin := r.Header.Get("Sec-Fetch-Site"), r.Header.Get("Origin")
	why := "the browser says it was sent from another site's page (Sec-Fetch-Site: " + quoteCut(site) + ")"
	if site == "" {
		why = "it was sent from the page of origin " + quoteCut(origin) + ", not from this server (" + quoteCut(r.Host) + ")"
	}
	return &apiError{http.StatusForbidden,
		"cross-origin request refused: " + why + "; only the editor's own pages, or origins the server is started with (-allow-origins), may call this endpoint",
		map[string]any{"origin": origin, "secFetchSite": site}}
}

// originList is a flag holding origins separated by commas (an origin has none).
type originList []string

func (o *originList) Set(s string) error {
	*o = nil
	for _, e := range strings.Split(s, ",") {
		if e = strings.TrimSpace(e); e != "" {
			*o = append(*o, e)
		}
	}
	return nil
}

func (o *originList) String() string { return strings.Join(*o, ",") }
