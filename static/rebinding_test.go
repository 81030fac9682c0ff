package static_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestDNSRebindingRefused is the attack of issue 27 in a browser: Chromium resolves
// evil.example to 127.0.0.1, as a name rebound by its owner would, so a page of that name
// is same-origin with requests to the editor's port. The server refuses the page, the API
// and /metrics under that name, and still serves localhost.
func TestDNSRebindingRefused(t *testing.T) {
	requireChromium(t)
	srv, _ := newTestServer(t)
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.NoSandbox,
		chromedp.Flag("host-resolver-rules", "MAP evil.example 127.0.0.1"),
	)
	base, cancelBase := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancelBase()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(base, opts...)
	defer cancelAlloc()
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	defer cancelCtx()

	// What a script on the page asks: the metrics, a new share and the editor.
	const probe = `Promise.all([
		fetch('/metrics'),
		fetch('/api/shares', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{"document": {}}'}),
		fetch('/'),
	].map(p => p.then(r => r.status)))`
	for _, c := range []struct {
		origin string
		want   []int
	}{
		{"http://evil.example:" + port, []int{421, 421, 421}},
		// The editor's own names: the share is refused as a document, not for its host.
		{"http://localhost:" + port, []int{200, 422, 200}},
	} {
		if err := chromedp.Do(ctx, chromedp.Navigate(c.origin+"/")); err != nil {
			t.Fatalf("navigate %s: %v", c.origin, err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](probe, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", c.origin, err)
		}
		if len(got) != len(c.want) || got[0] != c.want[0] || got[1] != c.want[1] || got[2] != c.want[2] {
			t.Errorf("%s: statuses %v, want %v", c.origin, got, c.want)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("http://evil.example:"+port+"/")); err != nil {
		t.Fatal(err)
	}
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string]("document.body.innerText"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, `this server does not answer to the host "evil.example"`) {
		t.Errorf("the page under the rebound name says %q", text)
	}
}
