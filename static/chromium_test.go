package static_test

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// One Chromium serves every browser test of the package: starting one took most of each
// test's time (539 of the package's 700 s when every test started its own). Each test still
// gets a fresh browser context (see newBrowserWith), so tests do not see one another's
// storage, and each gets its own server. The process starts with the first test that asks
// for it, so a run of only the node or Go tests starts none, and TestMain stops it.
var chromium struct {
	mu     sync.Mutex
	ctx    context.Context // the browser's first tab; its context holds the browser
	cancel context.CancelFunc
}

// sharedChromium returns a context on the shared Chromium, starting it if it is not running
// (or no longer is: one that crashed is replaced, so one crash fails one test, not the rest).
func sharedChromium() (context.Context, error) {
	chromium.mu.Lock()
	defer chromium.mu.Unlock()
	if chromium.ctx != nil && chromium.ctx.Err() == nil {
		return chromium.ctx, nil
	}
	stopChromium()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.NoSandbox,
		chromedp.WindowSize(1400, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	cancel := func() {
		cancelCtx()
		cancelAlloc()
	}
	// The first run binds the browser's life to ctx, which has no deadline: each test's
	// own budget is a child of it.
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		return nil, err
	}
	chromium.ctx, chromium.cancel = ctx, cancel
	return ctx, nil
}

// stopChromium ends the shared browser, if any; chromium.mu is held.
func stopChromium() {
	if chromium.cancel != nil {
		chromium.cancel()
	}
	chromium.ctx, chromium.cancel = nil, nil
}

func TestMain(m *testing.M) {
	code := m.Run()
	chromium.mu.Lock()
	stopChromium()
	chromium.mu.Unlock()
	os.Exit(code)
}
