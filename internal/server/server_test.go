package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRun starts the whole server on a free port, checks it answers, and stops it by
// cancelling its context.
func TestRun(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.Data = filepath.Join(t.TempDir(), "data")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Run(ctx, cfg, slog.New(slog.DiscardHandler), pw) }()

	line := make([]byte, 100)
	n, err := pr.Read(line)
	if err != nil {
		t.Fatal(err)
	}
	url, ok := strings.CutPrefix(strings.TrimSpace(string(line[:n])), "AINB editor: open ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("printed %q", line[:n])
	}
	resp, err := http.Get(url + "healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("healthz: %d", resp.StatusCode)
	}
	if st, err := os.Stat(filepath.Join(cfg.Data, "shares")); err != nil || !st.IsDir() {
		t.Fatalf("share directory not created: %v", err)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	if _, err := http.Get(url + "healthz"); err == nil {
		t.Fatal("server still answers after shutdown")
	}
}

func TestRunBadConfig(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Addr = "127.0.0.1:notaport"
	cfg.Data = t.TempDir()
	if err := Run(context.Background(), cfg, slog.New(slog.DiscardHandler), io.Discard); err == nil {
		t.Fatal("Run listened on a bad address")
	}
	cfg.MaxUpload = 0
	if err := Run(context.Background(), cfg, slog.New(slog.DiscardHandler), io.Discard); err == nil || !strings.Contains(err.Error(), "max-upload") {
		t.Fatalf("Run with a zero upload limit: %v", err)
	}
}

func TestLimiter(t *testing.T) {
	l := make(limiter, 1)
	release, err := l.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := l.acquire(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second acquire: %v, want to wait until the deadline", err)
	}
	release()
	release2, err := l.acquire(context.Background())
	if err != nil {
		t.Fatalf("acquire after release: %v", err)
	}
	release2()
}
