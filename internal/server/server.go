package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/singleflight"

	"ainbeditor/internal/share"
	"ainbeditor/static"
)

// Server is the editor's HTTP handler. Create it with New; it is safe for concurrent use.
type Server struct {
	cfg         Config
	store       share.Store
	log         *slog.Logger
	zsdics      *zsdicCache
	assets      map[string]asset
	conversions limiter
	budget      *bodyBudget
	origins     *http.CrossOriginProtection
	hosts       *hostGuard
	metrics     *metrics
	router      http.Handler
	// shareRate and convertRate hold each client to ShareRate and ConvertRate.
	shareRate, convertRate func(http.Handler) http.Handler
	// previews keeps the shares' pictures and descriptions (preview.go); previewCalls
	// makes each once for all the requests waiting on it.
	previews      *previewCache
	previewCalls  singleflight.Group
	previewsDrawn prometheus.Counter
	// replyBase and replyRatio are the parse reply budget (MaxReplyBase, MaxReplyRatio);
	// tests lower them.
	replyBase, replyRatio int64
}

// New makes a server keeping shares in store, logging to log (slog.Default() if nil). The
// listening and connection settings of cfg (ReadHeaderTimeout, WriteTimeout, IdleTimeout,
// ShutdownTimeout, Data, Store) are Run's; New uses the rest, Addr for the hosts it answers
// to and ReadTimeout to bound a body's idle deadline.
func New(cfg Config, store share.Store, log *slog.Logger) (*Server, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.Default()
	}
	dicts := make([][]byte, 0, len(cfg.ZstdDicts))
	for _, name := range cfg.ZstdDicts {
		b, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("zstd dictionary: %w", err)
		}
		dicts = append(dicts, b)
	}
	origins, err := newOriginGuard(cfg.AllowOrigins)
	if err != nil {
		return nil, err
	}
	assets, err := loadAssets(static.FS)
	if err != nil {
		return nil, err
	}
	zsdics, err := newZsdicCache(dicts)
	if err != nil {
		return nil, err
	}
	s := &Server{
		cfg:         cfg,
		store:       withDeadlines(store, cfg.StoreTimeout),
		log:         log,
		zsdics:      zsdics,
		assets:      assets,
		conversions: make(limiter, cfg.MaxConversions),
		budget:      newBodyBudget(cfg.BodyBudget),
		origins:     origins,
		hosts:       newHostGuard(cfg.Addr, publicHosts(cfg)),
		replyBase:   MaxReplyBase,
		replyRatio:  MaxReplyRatio,
		previews:    newPreviewCache(cfg.PreviewCache),
	}
	s.shareRate = s.rateLimit(cfg.ShareRate, "share creations")
	s.convertRate = s.rateLimit(cfg.ConvertRate, "conversions")
	s.metrics = newMetrics(s.conversions, s.budget)
	s.registerPreviewMetrics()
	s.router = s.routes()
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.router.ServeHTTP(w, r) }

// Close releases the server's resources. Call it once no request is being served.
func (s *Server) Close() { s.zsdics.close() }

// decompressLimit is the most an upload may decompress to.
func (s *Server) decompressLimit() uint64 { return uint64(DecompressFactor * s.cfg.MaxUpload) }

// Run serves the editor as cfg says until ctx is done, then shuts down gracefully, waiting up
// to cfg.ShutdownTimeout for requests in flight. Once listening it prints the URL to open to
// stdout.
func Run(ctx context.Context, cfg Config, log *slog.Logger, stdout io.Writer) error {
	if err := cfg.Check(); err != nil {
		return err
	}
	defer tuneGC()()
	store, closeStore, storeDesc, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer closeStore()
	srv, err := New(cfg, store, log)
	if err != nil {
		return err
	}
	defer srv.Close()

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: cfg.ReadHeaderTimeout,
		ReadTimeout:       cfg.ReadTimeout,
		WriteTimeout:      cfg.WriteTimeout,
		IdleTimeout:       cfg.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		// Requests keep the values of ctx but not its cancellation: shutting down must let
		// requests in flight finish.
		BaseContext: func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	url := openURL(ln.Addr())
	log.Info("listening", "addr", ln.Addr().String(), "url", url, "data", cfg.Data, "store", storeDesc)
	fmt.Fprintf(stdout, "AINB editor: open %s\n", url)

	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down", "cause", context.Cause(ctx))
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownTimeout)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		hs.Close()
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("stopped")
	return nil
}

// openURL is the address a user opens in a browser. An unspecified listening host
// (0.0.0.0, ::) means every interface; localhost reaches it from the same machine.
func openURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String() + "/"
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}
