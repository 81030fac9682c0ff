package static_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// An expected refusal (the build's 422 with problems, shown in the Problems panel) makes
// the page log no error of its own: no console.error call and no uncaught exception or
// rejection. The one error left is Chromium's network layer reporting the 422 status
// ("Failed to load resource: ..."), which a page cannot suppress for a fetch whose
// answer is 4xx; it is told apart by its source, "network".
func TestConsoleQuietOnRefusal(t *testing.T) {
	p := newBrowser(t)
	p.allowed = append(p.allowed, "status of 422")
	p.open(corpusFile(t, "synthetic/params_v407.ainb"))
	p.run(`ainbEditor.document().nodes[3].queries = [0]`) // node 0 is no query node
	p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
	p.waitFor(`ainbEditor.problems().length > 0`)
	p.waitFor(`document.querySelectorAll(".problem").length > 0`)
	p.run(`new Promise((r) => setTimeout(r, 0))`) // let a handler's later log run

	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range p.messages {
		if m.Type != chromedp.ConsoleError && m.Type != chromedp.ConsoleException && m.Type != chromedp.ConsoleWarning {
			continue
		}
		if m.Source == "network" && strings.Contains(m.Text, "status of 422") {
			continue
		}
		t.Errorf("the page logged %s on an expected refusal: %s (%s:%d)", m.Type, m.Text, m.URL, m.Line)
	}
}
