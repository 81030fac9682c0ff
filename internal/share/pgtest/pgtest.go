// Package pgtest runs a throwaway PostgreSQL server for tests: a fresh cluster in a temporary
// directory, listening only on a Unix socket there, with durability turned off (it is
// thrown away). It uses the server binaries of the machine (Debian's postgresql package puts
// them under /usr/lib/postgresql/VERSION/bin); when there are none, a test skips saying so,
// or fails under CI (CI=true), where .ci/run installs them.
//
// initdb and postgres refuse to run as root, so as root the cluster runs as the user nobody,
// owning its directory.
//
// The package must never touch a server it did not start, and never listen on a network
// address: tests reach the cluster through its socket directory only.
package pgtest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Cluster is a running throwaway PostgreSQL server.
type Cluster struct {
	dir  string // the socket directory; the data directory is dir/data
	cmd  *exec.Cmd
	done chan error
	log  *syncBuffer
}

// Start starts a cluster that stops, and is removed, when t's test ends.
func Start(t testing.TB) *Cluster {
	t.Helper()
	c, err := start(t)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Stop)
	return c
}

var shared struct {
	once sync.Once
	c    *Cluster
	err  error
}

// Shared returns one cluster for the whole test binary, started on first use. Call
// StopShared from TestMain after the tests ran.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	bin := binDir(t) // skips or fails before anything starts
	shared.once.Do(func() { shared.c, shared.err = startIn(bin) })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.c
}

// StopShared stops the cluster Shared started, if any.
func StopShared() {
	if shared.c != nil {
		shared.c.Stop()
	}
}

func start(t testing.TB) (*Cluster, error) {
	return startIn(binDir(t))
}

// binDir finds the directory of initdb and postgres: on PATH, else the newest version under
// /usr/lib/postgresql. Missing, the test skips, or fails under CI.
func binDir(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := os.Stat(filepath.Join(filepath.Dir(p), "postgres")); err == nil {
			return filepath.Dir(p)
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d
		}
	}
	const msg = "PostgreSQL server binaries (initdb, postgres) not found on PATH or under /usr/lib/postgresql/*/bin: install Debian's postgresql package"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + "; CI needs them")
	}
	t.Skip(msg + "; skipping")
	return ""
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

func startIn(bin string) (*Cluster, error) {
	// A Unix socket path must fit in about 100 bytes: a long TMPDIR falls back to /tmp.
	base := os.TempDir()
	if len(base) > 60 {
		base = "/tmp"
	}
	dir, err := os.MkdirTemp(base, "pgtest-")
	if err != nil {
		return nil, err
	}
	if err := own(dir); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	c := &Cluster{dir: dir, done: make(chan error, 1), log: &syncBuffer{}}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust",
		"-E", "UTF8", "--locale=C", "--no-sync")
	initdb.Dir = dir
	asServerUser(initdb)
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("pgtest: initdb: %v\n%s", err, out)
	}
	c.cmd = exec.Command(filepath.Join(bin, "postgres"), "-D", data, "-k", dir, "-p", "5432",
		"-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off", "-c", "max_connections=200")
	c.cmd.Dir = dir
	c.cmd.Stdout, c.cmd.Stderr = c.log, c.log
	asServerUser(c.cmd)
	if err := c.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("pgtest: postgres: %w", err)
	}
	go func() { c.done <- c.cmd.Wait() }()
	if err := c.waitReady(30 * time.Second); err != nil {
		c.Stop()
		return nil, err
	}
	return c, nil
}

func (c *Cluster) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		conn, err := pgx.Connect(ctx, c.URL("postgres"))
		if err == nil {
			conn.Close(ctx)
			cancel()
			return nil
		}
		cancel()
		select {
		case werr := <-c.done:
			c.done <- werr
			return fmt.Errorf("pgtest: postgres exited: %v\n%s", werr, c.log)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pgtest: postgres not ready after %v: %v\n%s", limit, err, c.log)
		}
	}
}

// URL is the connection URL of database db, through the cluster's socket.
func (c *Cluster) URL(db string) string {
	return "postgres://postgres@/" + db + "?host=" + c.dir + "&port=5432&sslmode=disable"
}

// NewDatabase creates an empty database of its own for one test and returns its URL.
func (c *Cluster) NewDatabase(t testing.TB) string {
	t.Helper()
	var b [6]byte
	rand.Read(b[:])
	name := "test_" + hex.EncodeToString(b[:])
	c.Exec(t, "postgres", "CREATE DATABASE "+name)
	return c.URL(name)
}

// Exec runs sql (statements without parameters) in database db, as the superuser.
func (c *Cluster) Exec(t testing.TB, db, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.URL(db))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("pgtest: %s: %v", sql, err)
	}
}

// Stop shuts the server down (fast shutdown: connections are closed) and removes its
// directory. Calling it again does nothing.
func (c *Cluster) Stop() {
	if c.cmd == nil || c.cmd.Process == nil {
		os.RemoveAll(c.dir)
		return
	}
	select {
	case err := <-c.done:
		c.done <- err
	default:
		interrupt(c.cmd.Process)
		select {
		case err := <-c.done:
			c.done <- err
		case <-time.After(20 * time.Second):
			c.cmd.Process.Kill()
			c.done <- <-c.done
		}
	}
	os.RemoveAll(c.dir)
}

// Log returns what the server printed.
func (c *Cluster) Log() string { return c.log.String() }

// Dir is the socket directory, the host of a connection string.
func (c *Cluster) Dir() string { return c.dir }

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.TrimSpace(b.buf.String())
}

var errNoUser = errors.New("no unprivileged user (nobody) to run PostgreSQL as")
