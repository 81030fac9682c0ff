package server

import (
	"errors"
	"flag"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// LinkConfig says how the server names itself in what it hands to other sites: the absolute
// URLs of link previews (og:image) and embed snippets, and how many preview pictures it keeps.
type LinkConfig struct {
	// PublicOrigin is scheme://host[:port] as clients reach the server (behind a proxy or a
	// load balancer, its public address). Empty: each request's own scheme and Host.
	PublicOrigin string
	// PreviewCache caps the bytes of the preview pictures (and their descriptions) kept in
	// memory. Shares never change, so a picture is drawn once and kept while there is room.
	PreviewCache int64
}

func defaultLinkConfig() LinkConfig { return LinkConfig{PreviewCache: 64 * mib} }

func (c *LinkConfig) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.PublicOrigin, "public-origin", c.PublicOrigin, "scheme://host[:port] clients reach the server at, for absolute links in link previews and embed snippets; empty: the request's own")
	fs.Var((*byteSize)(&c.PreviewCache), "preview-cache", "memory for share preview pictures, e.g. 64MiB")
}

func (c LinkConfig) check() []error {
	var errs []error
	if c.PublicOrigin != "" {
		if _, err := parseOrigin(c.PublicOrigin); err != nil {
			errs = append(errs, err)
		}
	}
	if c.PreviewCache < 0 {
		errs = append(errs, errors.New("preview-cache: must not be negative"))
	}
	return errs
}

// parseOrigin reads an origin, scheme://host[:port] with nothing after it (a trailing slash
// is allowed), and returns it without the slash.
func parseOrigin(s string) (string, error) {
	bad := errors.New("public-origin: want scheme://host[:port], such as https://ainb.example.org")
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(u.Host, `"'<> `) {
		return "", bad
	}
	return u.Scheme + "://" + u.Host, nil
}

// origin is the origin absolute links name: the configured one, else the request's own
// (https when it came over TLS). Behind a proxy that ends TLS, set PublicOrigin.
func (s *Server) origin(r *http.Request) string {
	if s.cfg.PublicOrigin != "" {
		o, _ := parseOrigin(s.cfg.PublicOrigin)
		return o
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// publicHosts is the names the Host check lets in: -allowed-hosts and the host of
// -public-origin, the name clients are told to use.
func publicHosts(cfg Config) []string {
	hosts := cfg.AllowedHosts
	if o, err := parseOrigin(cfg.PublicOrigin); err == nil {
		u, _ := url.Parse(o)
		hosts = append(slices.Clip(hosts), u.Host)
	}
	return hosts
}
