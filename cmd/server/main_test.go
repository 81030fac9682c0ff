package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"ainbeditor/internal/testcorpus"
)

// TestEndToEnd builds the real binary, runs it, and drives it over HTTP as the editor would:
// every corpus file is uploaded, built back and compared; a share survives a restart; bad
// requests get their errors while the server keeps serving.
func TestEndToEnd(t *testing.T) {
	files := testcorpus.AINB(t)
	start := time.Now()
	bin := buildServer(t)
	t.Logf("built the server in %v", time.Since(start).Round(time.Millisecond))
	data := t.TempDir()

	// One client converting the whole corpus in a row is a script, which the default rate
	// would stop: lift it.
	noLimits := "AINB_CONVERT_RATE=1000000"
	srv := startServer(t, bin, data, noLimits)
	c := &http.Client{Timeout: time.Minute}

	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	var shareDoc []byte
	start = time.Now()
	for i, name := range files {
		orig, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(name)
		// Every way the editor may send a file, in turn: raw, a form, zstd-compressed.
		var resp *http.Response
		switch i % 3 {
		case 0:
			resp, err = c.Post(srv.url+"api/parse?name="+base, "application/octet-stream", bytes.NewReader(orig))
		case 1:
			ct, body := form(t, base, orig)
			resp, err = c.Post(srv.url+"api/parse", ct, bytes.NewReader(body))
		case 2:
			resp, err = c.Post(srv.url+"api/parse?name="+base+".zs", "application/zstd", bytes.NewReader(enc.EncodeAll(orig, nil)))
		}
		doc := body(t, resp, err, http.StatusOK, base+": parse")
		var meta struct{ Name string }
		if err := json.Unmarshal(doc, &meta); err != nil || meta.Name != base {
			t.Fatalf("%s: document name %q (%v)", base, meta.Name, err)
		}
		resp, err = c.Post(srv.url+"api/build", "application/json", bytes.NewReader(doc))
		built := body(t, resp, err, http.StatusOK, base+": build")
		if !bytes.Equal(built, orig) {
			t.Errorf("%s: built %d bytes that differ from the original %d", base, len(built), len(orig))
		}
		if got, want := resp.Header.Get("Content-Disposition"), `attachment; filename="`+base+`"`; got != want {
			t.Errorf("%s: Content-Disposition %q, want %q", base, got, want)
		}
		if shareDoc == nil && strings.Contains(base, "v407") {
			shareDoc = doc
		}
	}

	t.Logf("%d files parsed and built again in %v", len(files), time.Since(start).Round(time.Millisecond))
	start = time.Now()

	// Bad requests, each followed by proof that the server still serves.
	orig, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		path, contentType string
		body              []byte
		status            int
	}{
		{"api/parse", "application/octet-stream", nil, http.StatusBadRequest},
		{"api/parse", "application/octet-stream", orig[:len(orig)/3], http.StatusUnprocessableEntity},
		{"api/parse", "application/octet-stream", []byte("GIF89a not an ainb file, not at all, no"), http.StatusUnprocessableEntity},
		{"api/parse", "application/json", []byte(`{}`), http.StatusUnsupportedMediaType},
		{"api/parse", "application/octet-stream", make([]byte, 17<<20), http.StatusRequestEntityTooLarge},
		{"api/build", "application/json", []byte(`{"format":`), http.StatusBadRequest},
		{"api/build", "text/plain", []byte(`{}`), http.StatusUnsupportedMediaType},
		{"api/shares", "application/json", []byte(`{"document":{}}`), http.StatusUnprocessableEntity},
	} {
		resp, err := c.Post(srv.url+bad.path, bad.contentType, bytes.NewReader(bad.body))
		b := body(t, resp, err, bad.status, bad.path)
		var e struct{ Error string }
		if err := json.Unmarshal(b, &e); err != nil || e.Error == "" {
			t.Errorf("%s %d: body %q is not a JSON error", bad.path, bad.status, b)
		}
		resp, err = c.Get(srv.url + "healthz")
		if b := body(t, resp, err, http.StatusOK, "healthz"); string(b) != "{\"status\":\"ok\"}\n" {
			t.Fatalf("healthz after a bad %s: %q", bad.path, b)
		}
	}

	t.Logf("bad requests in %v", time.Since(start).Round(time.Millisecond))
	start = time.Now()

	// A share outlives the process.
	shareBody := []byte(`{"kind":"ainb","document":` + strings.TrimSpace(string(shareDoc)) + `,"view":{"command":0,"viewport":{"x":1,"y":2,"zoom":1.5},"selection":[0]}}`)
	resp, err := c.Post(srv.url+"api/shares", "application/json", bytes.NewReader(shareBody))
	var created struct{ ID, URL string }
	if err := json.Unmarshal(body(t, resp, err, http.StatusCreated, "share"), &created); err != nil {
		t.Fatal(err)
	}
	srv.stop(t)
	if entries, _ := os.ReadDir(filepath.Join(data, "shares")); len(entries) != 1 || entries[0].Name() != created.ID+".json" {
		t.Fatalf("data directory after shutdown: %v", entries)
	}

	srv = startServer(t, bin, data, noLimits)
	resp, err = c.Get(srv.url + "api/shares/" + created.ID)
	if got := body(t, resp, err, http.StatusOK, "share after restart"); !bytes.Equal(got, shareBody) {
		t.Fatalf("share after restart differs: %s", got[:min(len(got), 200)])
	}
	resp, err = c.Get(srv.url + strings.TrimPrefix(created.URL, "/"))
	if page := body(t, resp, err, http.StatusOK, "share page"); !bytes.Contains(page, []byte(`data-share="`+created.ID+`"`)) {
		t.Fatalf("share page does not name the share: %s", page)
	}
	srv.stop(t)
	t.Logf("share, restart and shutdowns in %v", time.Since(start).Round(time.Millisecond))
}

// built is the server binary, built once for all the tests of the package.
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// buildServer builds this command, once, into a temporary directory.
func buildServer(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		goCmd, err := exec.LookPath("go")
		if err != nil {
			built.err = fmt.Errorf("the go command is needed to build the server: %v", err)
			return
		}
		if built.dir, err = os.MkdirTemp("", "ainb-server-"); err != nil {
			built.err = err
			return
		}
		bin := filepath.Join(built.dir, "ainb-server")
		// Built as the Dockerfile builds it: with cgo (libzstd compresses).
		cmd := exec.Command(goCmd, "build", "-o", bin, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		built.bin = bin
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

type process struct {
	cmd    *exec.Cmd
	url    string
	stderr *syncBuffer
	done   chan error
}

// startServer runs the binary on a free loopback port (port 0: the server prints the URL it
// got) with its data in dir and env added to its environment.
func startServer(t *testing.T, bin, dir string, env ...string) *process {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = append(append(os.Environ(), "AINB_ADDR=127.0.0.1:0", "AINB_DATA="+dir), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &process{cmd: cmd, stderr: &syncBuffer{}, done: make(chan error, 1)}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-s.done
		}
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			lines <- sc.Text()
		}
		io.Copy(io.Discard, stdout)
		s.done <- cmd.Wait()
	}()
	select {
	case line := <-lines:
		url, ok := strings.CutPrefix(line, "AINB editor: open ")
		if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/") {
			t.Fatalf("first line %q, want AINB editor: open http://127.0.0.1:PORT/", line)
		}
		s.url = url
	case <-time.After(30 * time.Second):
		t.Fatalf("server printed no URL within 30s; stderr:\n%s", s.stderr)
	}
	return s
}

// stop sends SIGTERM and expects a clean, logged shutdown.
func (s *process) stop(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s.done:
		if err != nil {
			t.Fatalf("server exited with %v; stderr:\n%s", err, s.stderr)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("server did not stop within 30s of SIGTERM")
	}
	if log := s.stderr.String(); !strings.Contains(log, `msg="shutting down" cause="terminated signal received"`) || !strings.Contains(log, "msg=stopped") {
		t.Fatalf("shutdown not logged:\n%s", log)
	}
}

func form(t *testing.T, name string, data []byte) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	w, err := mw.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	mw.Close()
	return mw.FormDataContentType(), buf.Bytes()
}

// body reads a response, checking its status.
func body(t *testing.T, resp *http.Response, err error, status int, what string) []byte {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s: reading the body: %v", what, err)
	}
	if resp.StatusCode != status {
		t.Fatalf("%s: status %d, want %d: %s", what, resp.StatusCode, status, b[:min(len(b), 300)])
	}
	return b
}

// syncBuffer collects a process's output while the test reads it.
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
	return b.buf.String()
}
