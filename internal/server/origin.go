package server

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
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

// The Origin check above compares a page's origin with the request's Host, which DNS
// rebinding defeats: a page at http://evil.example:8080, whose name the attacker then points
// at 127.0.0.1, is same-origin with the requests it sends to this server, and could store
// shares and read /metrics. What the page cannot change is the Host its browser sends: the
// attacker's name. So a request is refused unless its Host is one this server is known by:
//   - an IP address (a page can only be served under an address by the server at that
//     address, so no other site's page ever carries one);
//   - localhost and names under .localhost (browsers resolve those to loopback themselves,
//     never through DNS);
//   - the host of the listening address (-addr) when it is a name;
//   - the names of -allowed-hosts, for a server reached by a name (behind a proxy that
//     keeps the Host, or on a LAN); "*" turns the check off.
// /healthz is not checked: load balancers probe it under whatever name they were given, and
// it reveals nothing.

// hostGuard knows the names the server answers to.
type hostGuard struct {
	anyHost bool
	names   map[string]bool
}

func newHostGuard(addr string, allowed []string) *hostGuard {
	g := &hostGuard{names: map[string]bool{}}
	if h, _, err := net.SplitHostPort(addr); err == nil && h != "" {
		g.names[canonicalHost(h)] = true
	}
	for _, h := range allowed {
		if h == "*" {
			g.anyHost = true
		}
		g.names[canonicalHost(h)] = true
	}
	return g
}

// allows reports whether the server answers to the Host header host.
func (g *hostGuard) allows(host string) bool {
	if g.anyHost || host == "" {
		// No Host at all is HTTP/1.0 from a program: browsers always send one.
		return true
	}
	h := hostName(host)
	if _, err := netip.ParseAddr(h); err == nil {
		return true
	}
	return h == "localhost" || strings.HasSuffix(h, ".localhost") || g.names[h]
}

// hostName is the name of a Host header without its port, in canonical form.
func hostName(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return canonicalHost(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
}

// canonicalHost lowers a name's case and drops the dot that ends a fully qualified one, so
// LOCALHOST. and localhost are one name.
func canonicalHost(h string) string { return strings.TrimSuffix(strings.ToLower(h), ".") }

// checkHost refuses with 421 Misdirected Request a request for a Host the server is not
// known by.
func (s *Server) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" || s.hosts.allows(r.Host) {
			next.ServeHTTP(w, r)
			return
		}
		name := hostName(r.Host)
		msg := "this server does not answer to the host " + quoteCut(name) +
			": open it by its address or as localhost, or start it with -allowed-hosts " + quoteCut(name) + " (" + EnvName("allowed-hosts") + ")"
		if wantsHTML(r) {
			s.errorPage(w, r, http.StatusMisdirectedRequest, msg)
			return
		}
		writeJSON(w, http.StatusMisdirectedRequest, errorBody{msg, map[string]any{"host": r.Host}})
	})
}

// checkHosts reports entries of -allowed-hosts that are not host names.
func checkHosts(hosts []string) error {
	var errs []error
	for _, h := range hosts {
		if h == "*" {
			continue
		}
		if strings.ContainsAny(h, "/:@ ") && !strings.HasPrefix(h, "[") {
			if _, err := netip.ParseAddr(h); err != nil {
				errs = append(errs, fmt.Errorf("%q: want a host name without scheme, port or path, such as editor.example.com", h))
			}
		}
	}
	return errors.Join(errs...)
}
