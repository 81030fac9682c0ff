package static_test

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"ainbeditor/internal/server"
	"ainbeditor/internal/share"
	"ainbeditor/internal/testcorpus"
	"ainbeditor/static"
)

// The browser tests run the editor against the real server (package server) with a share
// store in a temporary directory, so they exercise exactly what users get.

const chromiumPath = "/usr/bin/chromium"

// testApp records every file /api/build returned, so tests can check saved bytes without
// going through the browser's download directory.
type testApp struct {
	mu     sync.Mutex
	builds [][]byte // in order
	parses int      // requests to /api/parse: each is a file read anew
}

func (a *testApp) parseCount() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.parses
}

func (a *testApp) lastBuild() []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.builds) == 0 {
		return nil
	}
	return a.builds[len(a.builds)-1]
}

func (a *testApp) buildCount() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.builds)
}

// buildRecorder keeps a copy of a successful /api/build response body.
type buildRecorder struct {
	http.ResponseWriter
	status int
	body   []byte
}

func (r *buildRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (r *buildRecorder) Write(b []byte) (int, error) {
	r.body = append(r.body, b...)
	return r.ResponseWriter.Write(b)
}

// edit, if any, adjusts the server's configuration.
func newTestServer(t testing.TB, edit ...func(*server.Config)) (*httptest.Server, *testApp) {
	cfg := server.DefaultConfig()
	cfg.Data = t.TempDir()
	for _, e := range edit {
		e(&cfg)
	}
	store, err := share.OpenDir(filepath.Join(cfg.Data, "shares"), cfg.MaxDocument)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(cfg, store, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	app := &testApp{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/build" {
			if r.URL.Path == "/api/parse" {
				app.mu.Lock()
				app.parses++
				app.mu.Unlock()
			}
			srv.ServeHTTP(w, r)
			return
		}
		// Ask for the body uncompressed so the recorded bytes are the file itself.
		r.Header.Del("Accept-Encoding")
		rec := &buildRecorder{ResponseWriter: w, status: http.StatusOK}
		srv.ServeHTTP(rec, r)
		if rec.status == http.StatusOK {
			app.mu.Lock()
			app.builds = append(app.builds, rec.body)
			app.mu.Unlock()
		}
	}))
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	return ts, app
}

// page is one browser tab on the editor, with its console watched.
type page struct {
	t        testing.TB
	ctx      context.Context
	srv      *httptest.Server
	app      *testApp
	mu       sync.Mutex
	messages []chromedp.ConsoleMessage
	allowed  []string // substrings of console errors a test expects
	// downloads is where the browser saves files.
	downloads string
}

func requireChromium(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s not found; CI needs Chromium for the browser tests", chromiumPath)
		}
		t.Skipf("%s not found; skipping the browser tests", chromiumPath)
	}
}

// newBrowser opens a tab on the editor for a test, in a browser context of its own on the
// package's shared Chromium (see sharedChromium).
func newBrowser(t testing.TB) *page {
	t.Helper()
	return newBrowserWith(t)
}

// newBrowserWith is newBrowser on a server whose configuration edit adjusts. The server is
// the test's own; only the Chromium process is shared. The tab lives in a new browser
// context, which has its own storage, cookies and downloads, so a test sees what a fresh
// Chromium would show it, and it gets the 90 seconds a test's browser always had.
func newBrowserWith(t testing.TB, edit ...func(*server.Config)) *page {
	t.Helper()
	requireChromium(t)
	srv, app := newTestServer(t, edit...)
	root, err := sharedChromium()
	if err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	budget, cancelBudget := context.WithTimeout(root, 90*time.Second)
	ctx, cancelCtx := chromedp.NewContext(budget, chromedp.WithNewBrowserContext())
	t.Cleanup(func() {
		cancelCtx() // closes the tab and disposes of its browser context
		cancelBudget()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab in a new browser context: %v", err)
	}
	dl := t.TempDir()
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dl,
		BrowserContextID: chromedp.FromContext(ctx).BrowserContextID,
	}); err != nil {
		t.Fatalf("download behavior: %v", err)
	}
	p := &page{t: t, ctx: ctx, srv: srv, app: app, downloads: dl}
	p.watch()
	p.navigate("/")
	return p
}

// newTab opens another tab in the same browser context (same storage, same downloads).
func (p *page) newTab(path string) *page {
	p.t.Helper()
	ctx, cancel := chromedp.NewContext(p.ctx)
	p.t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		p.t.Fatal(err)
	}
	q := &page{t: p.t, ctx: ctx, srv: p.srv, app: p.app, downloads: p.downloads}
	q.watch()
	q.navigate(path)
	return q
}

func (p *page) watch() {
	msgs := chromedp.Console(p.ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			p.mu.Lock()
			p.messages = append(p.messages, m)
			p.mu.Unlock()
		}
	}()
	p.t.Cleanup(p.checkConsole)
}

// checkConsole fails the test for every console error or uncaught exception it did not
// expect.
func (p *page) checkConsole() {
	time.Sleep(100 * time.Millisecond) // let the last events arrive
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.messages {
		if m.Type != chromedp.ConsoleError && m.Type != chromedp.ConsoleException {
			continue
		}
		ok := false
		for _, a := range p.allowed {
			if strings.Contains(m.Text, a) || strings.Contains(m.URL, a) {
				ok = true
			}
		}
		if !ok {
			p.t.Errorf("console %s: %s (%s:%d)", m.Type, m.Text, m.URL, m.Line)
		}
	}
}

func (p *page) navigate(path string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Navigate(p.srv.URL+path)); err != nil {
		p.t.Fatalf("navigate %s: %v", path, err)
	}
	p.waitFor(`!!window.ainbEditor`)
}

// eval runs JavaScript (awaiting a promise it returns) and decodes the result.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("eval %s: %v", expr, err)
	}
	return v
}

func (p *page) run(expr string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Evaluate[chromedp.Void](expr, chromedp.EvalAwaitPromise)); err != nil {
		p.t.Fatalf("eval %s: %v", expr, err)
	}
}

// waitFor polls a JavaScript expression until it is truthy.
func (p *page) waitFor(expr string) {
	p.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(time.Until(deadline))))
		// A navigation still settling replaces the page's JavaScript context under the poll:
		// the poll is started again in the new one, within the same 30 seconds.
		if err != nil && strings.Contains(err.Error(), "Cannot find context with specified id") && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if err != nil {
			p.t.Fatalf("waiting for %s: %v", expr, err)
		}
		return
	}
}

// open loads a corpus file through the file picker and waits until it is drawn.
func (p *page) open(path string) {
	p.t.Helper()
	before := eval[int](p, `ainbEditor.loads()`)
	if err := chromedp.Do(p.ctx, chromedp.SetUploadFiles(chromedp.CSS("#file-input"), []string{path})); err != nil {
		p.t.Fatalf("upload %s: %v", path, err)
	}
	p.waitFor(fmt.Sprintf(`ainbEditor.loads() > %d`, before))
}

func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatal(err)
	}
}

type point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// screenOf is where a node's header (row < 0) or a plug sits on the screen.
func (p *page) screenOf(node, row int, side string) point {
	p.t.Helper()
	return eval[point](p, fmt.Sprintf(`ainbEditor.screenOf(%d, %d, %q)`, node, row, side))
}

func (p *page) click(at point, mods ...chromedp.Modifier) {
	p.t.Helper()
	p.do(chromedp.MouseClickXY(at.X, at.Y, chromedp.ButtonModifiers(mods...)))
}

// drag presses at from, moves to to in steps and releases there, with mods held throughout.
func (p *page) drag(from, to point, mods ...chromedp.Modifier) {
	p.t.Helper()
	held := chromedp.ButtonModifiers(mods...)
	acts := []chromedp.Action[chromedp.Void]{
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, from.X, from.Y, held),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, from.X, from.Y, chromedp.ButtonLeft, chromedp.ClickCount(1), held),
	}
	for k := 1; k <= 8; k++ {
		f := float64(k) / 8
		x, y := from.X+(to.X-from.X)*f, from.Y+(to.Y-from.Y)*f
		acts = append(acts, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y, held, func(q *input.DispatchMouseEventParams) {
			q.Button = input.MouseButtonLeft
			q.Buttons = 1
		}))
	}
	acts = append(acts, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, to.X, to.Y, chromedp.ButtonLeft, chromedp.ClickCount(1), held))
	p.do(acts...)
}

// nodeJS is a JavaScript expression for the node with id %d in the open document.
const nodeJS = `ainbEditor.document().nodes.find((n) => n.id === %d)`

// itemIndex is the index in node id's list (properties, inputs or outputs) of the nth entry
// of type typ.
func itemIndex(p *page, id int, list, typ string, nth int) int {
	p.t.Helper()
	i := eval[int](p, fmt.Sprintf(`(() => { const l = (`+nodeJS+`)[%q] || []; let k = -1; for (let i = 0; i < l.length; i++) if (l[i].type === %q && ++k === %d) return i; return -1; })()`, id, list, typ, nth))
	if i < 0 {
		p.t.Fatalf("node %d has no %s number %d of type %s", id, list, nth, typ)
	}
	return i
}

// screenshot saves the page as a PNG under /tmp for a person to look at.
func (p *page) screenshot(name string) {
	p.t.Helper()
	buf, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Logf("screenshot: %v", err)
		return
	}
	path := filepath.Join(os.TempDir(), name+".png")
	if err := os.WriteFile(path, buf, 0o644); err == nil {
		p.t.Logf("screenshot: %s", path)
	}
}

func corpusFile(t testing.TB, rel string) string {
	t.Helper()
	path := filepath.Join(testcorpus.Dir(t), "ainb", rel)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("corpus file: %v", err)
	}
	return path
}

// The embedded assets must all be there: a missing module breaks the page at load. Every
// module, style sheet and icon beside this file is in the embedded file system.
func TestEmbeddedAssets(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasSuffix(name, ".test.mjs") || !slices.Contains([]string{".js", ".css", ".svg"}, filepath.Ext(name)) {
			continue
		}
		n++
		if _, err := fs.Stat(static.FS, name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, name := range []string{"main.js", "editor.js", "session.js", "workspace.js", "context.js", "editor.css"} {
		if _, err := fs.Stat(static.FS, name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n < 40 {
		t.Errorf("only %d assets beside the test", n)
	}
}
