package server

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Config is the server's configuration. Every field has a flag and an environment variable;
// a flag given on the command line wins over the variable, which wins over the default.
type Config struct {
	// Addr is the address to listen on, host:port. Port 0 picks a free port.
	Addr string
	// Data is the data directory; shares live in its "shares" subdirectory.
	Data string
	// MaxUpload caps the body of /api/parse. A zstd upload may decompress to at most
	// DecompressFactor times as much.
	MaxUpload int64
	// MaxDocument caps the JSON body of /api/build and /api/shares, and so the size of a share.
	MaxDocument int64
	// MaxConversions caps the parses and builds running at once; the rest wait. Conversions
	// are CPU-bound and each holds a whole file several times over in memory.
	MaxConversions int
	// ZstdDicts lists zstd dictionary files (zstd --train format) to decompress uploads that
	// need one. The server ships none: the games' dictionaries are not ours to distribute.
	ZstdDicts []string
	// BodyBudget caps the request bodies held at once, server-wide: a request reserves its
	// body as it arrives (at most twice what has arrived, never past its Content-Length or
	// its route's cap). A share read whole from a store that cannot stream it (PostgreSQL)
	// counts too.
	BodyBudget int64
	// BodyIdleTimeout is how long a request body may stop arriving before it is cut with 408:
	// a body reserves budget as it arrives, and this keeps one that has stalled from holding
	// its share, and its connection, for the whole ReadTimeout.
	BodyIdleTimeout time.Duration
	// AllowOrigins lists the origins (scheme://host[:port]) besides the server's own whose
	// pages may call the API from a browser.
	AllowOrigins []string
	// AllowedHosts lists the host names, besides IP addresses, localhost and the host of
	// Addr, that requests may name in their Host header; "*" allows any. Other hosts are
	// refused, so a site whose name is rebound to this server's address cannot use it.
	AllowedHosts []string

	// StoreTimeout bounds every call to the share store: a store that does not answer
	// within it is reported unavailable (503 with Retry-After).
	StoreTimeout time.Duration

	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	WriteTimeout      time.Duration
	IdleTimeout       time.Duration
	// ShutdownTimeout is how long a graceful shutdown waits for requests in flight.
	ShutdownTimeout time.Duration

	// ShareConfig says where shares are kept and what a client may ask of the server.
	ShareConfig
	// LinkConfig says how the server names itself to other sites (linkconfig.go).
	LinkConfig
}

// DecompressFactor is how much larger than MaxUpload a decompressed upload may be.
const DecompressFactor = 4

const mib = 1 << 20

// DefaultConfig returns the defaults: listen on loopback only, data in ./data.
func DefaultConfig() Config {
	return Config{
		Addr:              "127.0.0.1:8080",
		Data:              "./data",
		MaxUpload:         16 * mib,
		MaxDocument:       64 * mib,
		MaxConversions:    2 * runtime.GOMAXPROCS(0),
		BodyBudget:        256 * mib,
		BodyIdleTimeout:   10 * time.Second,
		StoreTimeout:      5 * time.Second,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		ShutdownTimeout:   30 * time.Second,
		ShareConfig:       defaultShareConfig(),
		LinkConfig:        defaultLinkConfig(),
	}
}

// envPrefix turns a flag name into its environment variable: -max-upload is AINB_MAX_UPLOAD.
const envPrefix = "AINB_"

// EnvName returns the environment variable of a flag.
func EnvName(flagName string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// ParseConfig reads the configuration from command-line arguments (without the program name)
// and the environment, through getenv. Usage and errors go to output.
func ParseConfig(args []string, getenv func(string) string, output io.Writer) (Config, error) {
	c := DefaultConfig()
	fs := flag.NewFlagSet("ainb-server", flag.ContinueOnError)
	fs.SetOutput(output)
	fs.StringVar(&c.Addr, "addr", c.Addr, "address to listen on, host:port")
	fs.StringVar(&c.Data, "data", c.Data, "data directory (shares are kept in its shares/ subdirectory)")
	fs.Var((*byteSize)(&c.MaxUpload), "max-upload", "largest AINB upload, e.g. 16MiB")
	fs.Var((*byteSize)(&c.MaxDocument), "max-document", "largest document JSON accepted by build and shares, e.g. 64MiB")
	fs.IntVar(&c.MaxConversions, "max-conversions", c.MaxConversions, "parses and builds running at once")
	fs.Var((*byteSize)(&c.BodyBudget), "body-budget", "request bodies (and shares read whole from PostgreSQL) held at once, all requests together, e.g. 256MiB")
	fs.DurationVar(&c.BodyIdleTimeout, "body-idle-timeout", c.BodyIdleTimeout, "time a request body may stop arriving before it is cut with 408")
	fs.Var((*originList)(&c.AllowOrigins), "allow-origins", "other origins whose pages may call the API, scheme://host[:port], separated by commas")
	fs.Var((*originList)(&c.AllowedHosts), "allowed-hosts", "host names the server answers to besides IP addresses, localhost and the -addr host, separated by commas; * for any")
	fs.Var((*pathList)(&c.ZstdDicts), "zstd-dicts", "zstd dictionary files for compressed uploads, separated by "+string(filepath.ListSeparator))
	fs.DurationVar(&c.StoreTimeout, "store-timeout", c.StoreTimeout, "time a call to the share store (the data directory or PostgreSQL) may take before the request is answered 503")
	fs.DurationVar(&c.ReadHeaderTimeout, "read-header-timeout", c.ReadHeaderTimeout, "time to read a request's headers")
	fs.DurationVar(&c.ReadTimeout, "read-timeout", c.ReadTimeout, "time to read a whole request")
	fs.DurationVar(&c.WriteTimeout, "write-timeout", c.WriteTimeout, "time to handle a request and write the response")
	fs.DurationVar(&c.IdleTimeout, "idle-timeout", c.IdleTimeout, "time an idle keep-alive connection stays open")
	fs.DurationVar(&c.ShutdownTimeout, "shutdown-timeout", c.ShutdownTimeout, "time a graceful shutdown waits for requests in flight")
	c.ShareConfig.flags(fs)
	c.LinkConfig.flags(fs)
	fs.Usage = func() {
		fmt.Fprintf(output, "usage: ainb-server [flags]\n\nEvery flag can also be set by its environment variable, shown in brackets.\n\n")
		fs.VisitAll(func(f *flag.Flag) {
			fmt.Fprintf(output, "  -%s [%s]\n    \t%s (default %q)\n", f.Name, EnvName(f.Name), f.Usage, f.DefValue)
		})
	}

	// The environment first, so that flags parsed afterwards override it.
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		name := EnvName(f.Name)
		if v, ok := lookup(getenv, name); ok && envErr == nil {
			if err := f.Value.Set(v); err != nil {
				envErr = fmt.Errorf("%s=%q: %v", name, v, err)
			}
		}
	})
	if envErr != nil {
		fmt.Fprintln(output, envErr)
		return c, envErr
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		err := fmt.Errorf("unexpected argument %q", fs.Arg(0))
		fmt.Fprintln(output, err)
		return c, err
	}
	if err := c.Check(); err != nil {
		fmt.Fprintln(output, err)
		return c, err
	}
	return c, nil
}

func lookup(getenv func(string) string, name string) (string, bool) {
	v := getenv(name)
	return v, v != ""
}

// Check reports a configuration the server cannot run with.
func (c Config) Check() error {
	var errs []error
	if c.Addr == "" {
		errs = append(errs, errors.New("addr: empty"))
	}
	if c.Data == "" {
		errs = append(errs, errors.New("data: empty"))
	}
	if c.MaxUpload <= 0 {
		errs = append(errs, errors.New("max-upload: must be positive"))
	}
	if c.MaxUpload > 1<<40 {
		errs = append(errs, errors.New("max-upload: more than 1TiB"))
	}
	if c.MaxDocument <= 0 {
		errs = append(errs, errors.New("max-document: must be positive"))
	}
	if largest := max(c.MaxUpload+multipartSlack, c.MaxDocument); c.BodyBudget < largest {
		errs = append(errs, fmt.Errorf("body-budget: %d bytes is less than the largest request body the routes take (%d bytes)", c.BodyBudget, largest))
	}
	if err := checkOrigins(c.AllowOrigins); err != nil {
		errs = append(errs, fmt.Errorf("allow-origins: %w", err))
	}
	if err := checkHosts(c.AllowedHosts); err != nil {
		errs = append(errs, fmt.Errorf("allowed-hosts: %w", err))
	}
	if c.MaxConversions <= 0 {
		errs = append(errs, errors.New("max-conversions: must be positive"))
	}
	for name, d := range map[string]time.Duration{
		"read-header-timeout": c.ReadHeaderTimeout, "read-timeout": c.ReadTimeout,
		"write-timeout": c.WriteTimeout, "body-idle-timeout": c.BodyIdleTimeout,
		"store-timeout": c.StoreTimeout, "idle-timeout": c.IdleTimeout, "shutdown-timeout": c.ShutdownTimeout,
	} {
		if d <= 0 {
			errs = append(errs, fmt.Errorf("%s: must be positive", name))
		}
	}
	errs = append(errs, c.ShareConfig.check()...)
	errs = append(errs, c.LinkConfig.check()...)
	return errors.Join(errs...)
}

// byteSize is a flag holding a size in bytes: a plain number, or one with a unit
// (B, KiB, MiB, GiB; K, M and G mean the same binary units).
type byteSize int64

var units = []struct {
	suffix string
	mult   int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"B", 1},
}

func (b *byteSize) Set(s string) error {
	s = strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range units {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = strings.TrimSpace(n), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return errors.New("want a size such as 16777216, 512KiB or 16MiB")
	}
	*b = byteSize(n * mult)
	return nil
}

func (b *byteSize) String() string {
	n := int64(*b)
	for _, u := range units[:3] {
		if n >= u.mult && n%u.mult == 0 && (n/u.mult < 1024 || u.suffix == "GiB") {
			return strconv.FormatInt(n/u.mult, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// pathList is a flag holding a list of paths separated by the OS list separator.
type pathList []string

func (p *pathList) Set(s string) error {
	*p = nil
	for _, e := range filepath.SplitList(s) {
		if e = strings.TrimSpace(e); e != "" {
			*p = append(*p, e)
		}
	}
	return nil
}

func (p *pathList) String() string { return strings.Join(*p, string(filepath.ListSeparator)) }
