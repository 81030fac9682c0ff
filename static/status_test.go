package static_test

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// statusInfo waits until the status bar's right part reads want exactly.
func (p *page) statusInfo(want string) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf(`document.querySelector(".status-info").textContent === %q`, want))
}

// The status bar's counts agree in number with their word ("1 node", "2 nodes"), and the
// zoom never reads "0%": below 10 % it has two significant digits.
func TestStatusCountsAndZoom(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/minimal_v407.ainb")) // one node
	p.do(chromedp.Click(chromedp.CSS(`[data-action="layout-export"]`)))
	p.waitFor(`ainbEditor.status() === "Exported the arrangement of 1 node as minimal_v407.layout.json"`)
	p.run(`ainbEditor.setView({zoom: 1})`)
	p.statusInfo("1 node · zoom 100%")
	p.run(`ainbEditor.setView({zoom: 0.002})`) // the smallest zoom the view allows
	p.statusInfo("1 node · zoom 0.2%")
	p.run(`ainbEditor.setView({zoom: 0.0913})`)
	p.statusInfo("1 node · zoom 9.1%")

	p.key("a", chromedp.ModifierCtrl)
	p.key("d", chromedp.ModifierCtrl)
	p.statusInfo("2 nodes · 1 selected · zoom 9.1%")

	// The palette says its count the same way.
	p.openPalette()
	p.waitFor(`document.querySelector(".palette-count").textContent === "27 classes"`) // the 26 built-in types and OneShotDoNothing
	p.do(chromedp.SendKeys(`.palette-input`, "Alert"))
	p.waitFor(`document.querySelector(".palette-count").textContent === "1 of 27 classes"`)
	p.do(chromedp.SendKeys(`.palette-input`, "zzz"))
	p.waitFor(`document.querySelector(".palette-count").textContent === "0 of 27 classes"`)
}
