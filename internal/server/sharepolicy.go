package server

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/go-chi/httprate"

	"ainbeditor/internal/share"
)

// ShareConfig bounds what one client may ask of the server: how large a share may be, how
// much all shares may take together, and how often a client may create shares or run
// conversions.
type ShareConfig struct {
	// Store is where shares are kept: empty for the "shares" subdirectory of Data, or a
	// postgres:// URL for a PostgreSQL database that several servers can share.
	Store string
	// MaxShare caps one stored share (the document and the view, compacted), and so the body
	// of POST /api/shares.
	MaxShare int64
	// ShareQuota caps the bytes of all shares together. The directory store counts what is
	// there at start and then its own writes; the PostgreSQL store keeps an exact total.
	ShareQuota int64
	// ShareRate is how many shares one client may create a minute.
	ShareRate int
	// ConvertRate is how many conversions (parse, build and layout together) one client may
	// ask for a minute. MaxConversions already bounds how many run at once; this keeps one
	// client from taking every slot all the time.
	ConvertRate int
	// TrustedProxies lists the networks of the proxies (load balancers) in front of the
	// server. A request from one of them is counted against the client that X-Forwarded-For
	// names (the rightmost address not itself a trusted proxy); any other request against its
	// own remote address, whatever X-Forwarded-For says. Empty (the default): the header is
	// never trusted, so a client cannot pick its own key by sending one.
	TrustedProxies []string
}

// rateWindow is the window the rates are counted over.
const rateWindow = time.Minute

func defaultShareConfig() ShareConfig {
	return ShareConfig{
		// The share cap is the document cap: a document the server builds can be shared.
		MaxShare:   64 * mib,
		ShareQuota: 1 << 30,
		// A person shares a few times an hour; sixty a minute is far beyond that yet stops
		// a script from filling the quota in seconds.
		ShareRate: 60,
		// A person opens, builds and lays out a file every few seconds at most; two a second
		// on average leaves room for bursts, and a script looping over conversions gets
		// 429 long before it holds the CPU.
		ConvertRate: 120,
	}
}

func (c *ShareConfig) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.Store, "store", c.Store, "where shares are kept: empty for the data directory, or a postgres:// URL (for several servers)")
	fs.Var((*byteSize)(&c.MaxShare), "max-share", "largest share (document and view, compacted), e.g. 64MiB")
	fs.Var((*byteSize)(&c.ShareQuota), "share-quota", "most bytes all shares may take together, e.g. 1GiB")
	fs.IntVar(&c.ShareRate, "share-rate", c.ShareRate, "shares one client may create a minute")
	fs.IntVar(&c.ConvertRate, "convert-rate", c.ConvertRate, "conversions (parse, build, layout) one client may ask for a minute")
	fs.Var((*cidrList)(&c.TrustedProxies), "trusted-proxies", "networks of the proxies whose X-Forwarded-For names the client, comma-separated CIDRs (e.g. 10.0.0.0/8); empty: never trust the header")
}

func (c ShareConfig) check() []error {
	var errs []error
	if c.Store != "" && !share.IsPostgresURL(c.Store) {
		errs = append(errs, errors.New("store: want a postgres:// URL, or nothing for the data directory"))
	}
	if c.MaxShare <= 0 {
		errs = append(errs, errors.New("max-share: must be positive"))
	}
	if c.ShareQuota <= 0 {
		errs = append(errs, errors.New("share-quota: must be positive"))
	}
	if c.ShareRate <= 0 {
		errs = append(errs, errors.New("share-rate: must be positive"))
	}
	if c.ConvertRate <= 0 {
		errs = append(errs, errors.New("convert-rate: must be positive"))
	}
	for _, p := range c.TrustedProxies {
		if _, err := netip.ParsePrefix(p); err != nil {
			errs = append(errs, fmt.Errorf("trusted-proxies: %q is not a network such as 10.0.0.0/8", p))
		}
	}
	return errs
}

// cidrList is a flag holding comma-separated networks.
type cidrList []string

func (l *cidrList) Set(s string) error {
	*l = nil
	for _, e := range strings.Split(s, ",") {
		if e = strings.TrimSpace(e); e != "" {
			*l = append(*l, e)
		}
	}
	return nil
}

func (l *cidrList) String() string { return strings.Join(*l, ",") }

// rateLimit returns a middleware letting each client make at most perMinute requests a
// minute to the routes it wraps (together); what is the plural noun its 429 names. Each call
// makes its own counter, so the routes wrapped by one middleware share one budget.
//
// The client is its IP address (an IPv6 client by its /64, which one host usually has whole),
// resolved as TrustedProxies says. A client over its rate gets 429 in the server's error
// shape with Retry-After (the window, an upper bound on the wait) and the X-RateLimit headers.
func (s *Server) rateLimit(perMinute int, what string) func(http.Handler) http.Handler {
	msg := fmt.Sprintf("too many %s from your address: at most %d a minute", what, perMinute)
	limiter := httprate.NewRateLimiter(perMinute, rateWindow,
		httprate.WithKeyFuncs(func(r *http.Request) (string, error) {
			ip := middleware.GetClientIP(r.Context())
			if ip == "" {
				// No usable address (a malformed X-Forwarded-For from a trusted proxy): the
				// peer itself, so such requests share one budget rather than escape it.
				if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
					ip = host
				} else {
					ip = r.RemoteAddr
				}
			}
			return httprate.CanonicalizeIP(ip), nil
		}),
		httprate.WithLimitHandler(func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, http.StatusTooManyRequests, errorBody{msg, map[string]any{
				"limit": perMinute, "window_seconds": int(rateWindow.Seconds()),
			}})
		}),
	)
	clientIP := middleware.ClientIPFromRemoteAddr
	if len(s.cfg.TrustedProxies) > 0 {
		clientIP = middleware.ClientIPFromXFF(s.cfg.TrustedProxies...)
	}
	return func(next http.Handler) http.Handler { return clientIP(limiter.Handler(next)) }
}

// shareTooLarge is the 413 of a share over MaxShare.
func shareTooLarge(limit int64) *apiError {
	return &apiError{http.StatusRequestEntityTooLarge, "the share is too large: the limit is " + strconv.FormatInt(limit, 10) + " bytes",
		map[string]any{"limit": limit}}
}

// cappedBody fails a read past its cap and remembers that it did, so the share handler can
// answer with the share's own limit whatever the reader above it makes of the error.
type cappedBody struct {
	io.ReadCloser
	left int64
	over bool
}

var errShareTooLarge = errors.New("share body over the cap")

func (b *cappedBody) Read(p []byte) (int, error) {
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	if int64(n) > b.left {
		b.over = true
		return int(b.left), errShareTooLarge
	}
	b.left -= int64(n)
	return n, err
}
