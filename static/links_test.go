package static_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/png"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// shareOf shares the page's document with a view and returns the share's id.
func (p *page) shareOf(view string) string {
	p.t.Helper()
	return eval[string](p, `fetch("/api/shares", {method: "POST", headers: {"Content-Type": "application/json"},
		body: JSON.stringify({document: ainbEditor.document(), view: `+view+`})}).then((r) => r.json()).then((j) => j.id)`)
}

// centred fails unless node id is selected alone and drawn in the middle of the canvas: its
// header's centre within two pixels of the canvas's centre across, and the node spanning the
// centre down.
func (p *page) centred(id int) {
	p.t.Helper()
	if sel := eval[[]int](p, `ainbEditor.selection()`); len(sel) != 1 || sel[0] != id {
		p.t.Fatalf("selection %v, want [%d]", sel, id)
	}
	c, at := p.canvasCenter(), p.screenOf(id, -1, "")
	if math.Abs(at.X-c.X) > 2 || at.Y > c.Y || at.Y < c.Y-400 {
		p.t.Fatalf("node %d drawn at %v, the canvas centre is %v", id, at, c)
	}
}

// TestNodeLinks follows links to a place: #node= and #command= on a share, on the embed
// (where selecting is allowed and editing is not) and on the editor with a file open, typed
// into the address bar afterwards (hashchange); a place the file lacks is said in the status.
func TestNodeLinks(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	id := p.shareOf(`{command: 0, x: 0, y: 0, zoom: 0.5}`)
	commands := eval[[]map[string]any](p, `ainbEditor.document().commands`)
	if len(commands) < 2 {
		t.Fatalf("the file has %d commands; the test needs two", len(commands))
	}
	last := commands[len(commands)-1]
	name, root := last["name"].(string), int(last["root"].(float64))

	q := p.newTab("/s/" + id + "#node=7")
	q.waitFor(`ainbEditor.loads() > 0 && ainbEditor.selection().length === 1`)
	q.centred(7)
	if s := eval[string](q, `ainbEditor.status()`); !strings.HasPrefix(s, "Node 7: ") {
		t.Errorf("status %q", s)
	}

	// Typed into the address bar of the open page.
	q.run(fmt.Sprintf(`location.hash = "#command=" + encodeURIComponent(%q)`, name))
	q.waitFor(fmt.Sprintf(`ainbEditor.selection()[0] === %d`, root))
	q.centred(root)
	if v := eval[map[string]any](q, `ainbEditor.view()`); int(v["command"].(float64)) != len(commands)-1 {
		t.Errorf("view command %v, want %d", v["command"], len(commands)-1)
	}
	q.run(`location.hash = "#node=99999"`)
	q.waitFor(`ainbEditor.status() === "This file has no node 99999"`)
	q.run(`location.hash = "#command=No%20such"`)
	q.waitFor(`ainbEditor.status() === "This file has no command named “No such”"`)
	if sel := eval[[]int](q, `ainbEditor.selection()`); len(sel) != 1 || sel[0] != root {
		t.Errorf("a link to no place changed the selection to %v", sel)
	}

	// The embed selects and centres too, and stays read-only.
	e := p.newTab("/e/" + id + "#node=7")
	e.waitFor(`ainbEditor.loads() > 0 && ainbEditor.selection().length === 1`)
	e.centred(7)
	if !eval[bool](e, `ainbEditor.readOnly() && ainbEditor.history().undo.length === 0 && !ainbEditor.dirty()`) {
		t.Error("following a link in the embed edited the document")
	}
	// A reader of the wiki page can link the node too: to the share, not the embed.
	if !eval[bool](e, `(() => { const s = getComputedStyle(document.querySelector('[data-action="node-link"]')); return s.display !== "none" && s.pointerEvents !== "none"; })()`) {
		t.Error("the embed hides Copy link to this node")
	}
	e.run(`document.querySelector('[data-action="node-link"]').click()`)
	e.waitFor(`ainbEditor.lastNodeLink() !== ""`)
	if got, want := eval[string](e, `ainbEditor.lastNodeLink()`), p.srv.URL+"/s/"+id+"#node=7"; got != want {
		t.Errorf("the embed's link to node 7 is %q, want %q", got, want)
	}

	// The editor with a file open follows a pasted link as well.
	p.run(`location.hash = "#node=7"`)
	p.waitFor(`ainbEditor.selection().length === 1 && ainbEditor.selection()[0] === 7`)
	p.centred(7)
}

// TestCopyNodeLink copies the link to a node from the inspector: on a share the page shows,
// the share's link with #node=; after an edit, a new share first; the clipboard holds the
// exact link. Sharing shows the embed snippet the server made, with its own Copy button.
func TestCopyNodeLink(t *testing.T) {
	p := newBrowser(t)
	// The page may read the clipboard back, so the test checks what it holds.
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(p.ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: name, AllowWithoutSanitization: true},
			Setting:    browser.PermissionSettingGranted, Origin: p.srv.URL,
			BrowserContextID: chromedp.FromContext(p.ctx).BrowserContextID,
		}); err != nil {
			t.Fatalf("permission %s: %v", name, err)
		}
	}
	p.open(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	id := p.shareOf(`{command: 0, x: 0, y: 0, zoom: 0.5}`)
	p.navigate("/s/" + id)
	p.waitFor(`ainbEditor.loads() > 0`)
	p.selectNode(7)
	p.run(`document.querySelector('[data-action="node-link"]').click()`)
	want := p.srv.URL + "/s/" + id + "#node=7"
	p.waitFor(fmt.Sprintf(`ainbEditor.lastNodeLink() === %q`, want))
	if got := eval[string](p, `navigator.clipboard.readText()`); got != want {
		t.Errorf("clipboard %q, want %q", got, want)
	}
	if s := eval[string](p, `ainbEditor.lastShare()`); s != "" {
		t.Errorf("shared again (%s): the link to a node of the share shown needs no new share", s)
	}

	// An edit: the share no longer shows the document, so the link shares it first.
	p.typeInto(`[data-key="name"]`, "Renamed\n")
	p.waitFor(`ainbEditor.history().undo.length === 1`)
	p.run(`document.querySelector('[data-action="node-link"]').click()`)
	p.waitFor(fmt.Sprintf(`ainbEditor.lastNodeLink() !== %q && ainbEditor.lastNodeLink() !== ""`, want))
	link := eval[string](p, `ainbEditor.lastNodeLink()`)
	share := eval[string](p, `ainbEditor.lastShare()`)
	if link != share+"#node=7" || share == p.srv.URL+"/s/"+id {
		t.Fatalf("link %q after an edit; the new share is %q", link, share)
	}
	if got := eval[string](p, `navigator.clipboard.readText()`); got != link {
		t.Errorf("clipboard %q, want %q", got, link)
	}
	if got := eval[string](p, `fetch(`+fmt.Sprintf("%q", strings.TrimPrefix(share, p.srv.URL))+`.replace("/s/", "/api/shares/")).then((r) => r.json()).then((s) => s.document.nodes.find((n) => n.id === 7).name)`); got != "Renamed" {
		t.Errorf("the new share holds node 7 named %q", got)
	}

	// The Share button: the toast offers the embed snippet, which copies as it is.
	p.run(`document.querySelector('[data-action="share"]').click()`)
	p.waitFor(`document.querySelector(".toast.share input.share-embed") !== null`)
	embed := eval[string](p, `ainbEditor.lastEmbed()`)
	if !strings.HasPrefix(embed, "<iframe ") || !strings.Contains(embed, "/e/") {
		t.Fatalf("embed snippet %q", embed)
	}
	if got := eval[string](p, `document.querySelector(".toast.share input.share-embed").value`); got != embed {
		t.Errorf("the toast shows %q, the reply's embed is %q", got, embed)
	}
	p.run(`document.querySelector('[data-action="copy-share-embed"]').click()`)
	p.waitFor(`document.querySelector('[data-action="copy-share-embed"]').textContent === "Copied"`)
	if got := eval[string](p, `navigator.clipboard.readText()`); got != embed {
		t.Errorf("clipboard %q after Copy, want the snippet", got)
	}
}

// TestExportImage saves the view and the whole graph as PNG and SVG through the Image menu:
// the PNG is a PNG of the canvas's size at twice its pixels, the SVG is well-formed XML whose
// <text> elements hold the titles of the nodes the view shows.
func TestExportImage(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	p.run(`ainbEditor.setView({x: 0, y: 0, zoom: 1}); ainbEditor.fitAll()`)
	p.selectNode(7)
	pick := func(what string) {
		p.run(`document.querySelector('[data-action="picture"]').click()`)
		p.run(fmt.Sprintf(`document.querySelector('[data-picture="%s"]').click()`, what))
	}
	base := "kitchen_sink_v407"

	pick("view-png")
	img, err := png.Decode(bytes.NewReader(p.download(base + "-view.png")))
	if err != nil {
		t.Fatalf("view PNG: %v", err)
	}
	c := eval[map[string]float64](p, `(() => { const r = document.getElementById("graph").getBoundingClientRect(); return {w: r.width, h: r.height}; })()`)
	if b := img.Bounds(); b.Dx() != int(math.Round(2*c["w"])) || b.Dy() != int(math.Round(2*c["h"])) {
		t.Errorf("view PNG %v, canvas %v CSS pixels", b, c)
	}
	if sel := eval[[]int](p, `ainbEditor.selection()`); len(sel) != 1 || sel[0] != 7 {
		t.Errorf("selection after export %v", sel)
	}

	pick("whole-svg")
	svg := p.download(base + ".svg")
	texts := svgTexts(t, svg)
	// Every link is drawn, as one curve each: the canvas batches them into Path2D objects,
	// which the SVG context records through newPath.
	curves := 0
	for _, m := range regexp.MustCompile(` d="([^"]*)"`).FindAllStringSubmatch(string(svg), -1) {
		curves += strings.Count(m[1], "C")
	}
	if links := eval[int](p, `ainbEditor.links()`); links == 0 || curves != links {
		t.Errorf("the whole-graph SVG has %d curve commands for %d links", curves, links)
	}
	for _, title := range eval[[]string](p, `ainbEditor.document().nodes.map((n) => ainbEditor.titleLines(n.id)[0])`) {
		if !texts[title] {
			t.Errorf("the whole-graph SVG has no <text> %q", title)
		}
	}

	pick("view-svg")
	view := svgTexts(t, p.download(base+"-view.svg"))
	if len(view) == 0 {
		t.Error("the view's SVG holds no text")
	}

	pick("whole-png")
	whole, err := png.Decode(bytes.NewReader(p.download(base + ".png")))
	if err != nil {
		t.Fatalf("whole PNG: %v", err)
	}
	if b := whole.Bounds(); b.Dx() < 200 || b.Dy() < 100 {
		t.Errorf("whole-graph PNG %v", b)
	}
	if s := eval[string](p, `ainbEditor.status()`); s != "Saved "+base+".png" {
		t.Errorf("status %q", s)
	}
}

// svgTexts parses an SVG as XML and returns the text of its <text> elements.
func svgTexts(t *testing.T, svg []byte) map[string]bool {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(svg))
	texts := map[string]bool{}
	in := false
	var sb strings.Builder
	for {
		tok, err := d.Token()
		if err != nil {
			if err.Error() == "EOF" {
				return texts
			}
			t.Fatalf("the SVG is not XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if e.Name.Local == "text" {
				in = true
				sb.Reset()
			}
		case xml.CharData:
			if in {
				sb.Write(e)
			}
		case xml.EndElement:
			if e.Name.Local == "text" {
				in = false
				texts[sb.String()] = true
			}
		}
	}
}

// TestBigGraphExport saves the whole 7,130-node graph as SVG and PNG: the SVG holds a title
// for every node as text, the PNG decodes, and the page still answers afterwards. The times
// are logged for the report (go test -v), not asserted.
func TestBigGraphExport(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, bigFile))
	base := strings.TrimSuffix(filepath.Base(bigFile), ".ainb")
	for _, format := range []string{"svg", "png"} {
		ms := eval[float64](p, fmt.Sprintf(`(async () => {
			document.querySelector('[data-action="picture"]').click();
			document.querySelector('[data-picture="whole-%s"]').click();
			while (!/^Saved |^Could not/.test(ainbEditor.status())) await new Promise((r) => setTimeout(r, 20));
			return ainbEditor.timings().picture; })()`, format))
		if s := eval[string](p, `ainbEditor.status()`); s != "Saved "+base+"."+format {
			t.Fatalf("status %q", s)
		}
		b := p.download(base + "." + format)
		t.Logf("whole graph as %s: %.0f ms, %d bytes", format, ms, len(b))
		if format == "svg" {
			texts := svgTexts(t, b)
			missing := 0
			for _, title := range eval[[]string](p, `ainbEditor.document().nodes.map((n) => ainbEditor.titleLines(n.id)[0])`) {
				if !texts[title] {
					missing++
				}
			}
			if missing > 0 {
				t.Errorf("%d of 7130 node titles are not <text> in the SVG", missing)
			}
		} else if _, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Errorf("PNG: %v", err)
		}
	}
	p.run(`ainbEditor.fitAll()`)
	p.waitFor(`ainbEditor.frame().frames > 2`)
}
