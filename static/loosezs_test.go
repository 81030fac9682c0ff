package static_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/zs"
)

// A loose TotK .ainb.zs on a server started without -zstd-dicts: the editor asks for the
// game's ZsDic.pack.zs, keeps it, and opens the file with it; Save gives the file back
// compressed with the same dictionary, and after a reload (the dictionary still kept in the
// browser) it opens and saves again without being asked.
func TestLooseZstdWithBrowserDictionary(t *testing.T) {
	p := newBrowser(t)
	dir := testcorpus.Dir(t)
	codec := zsCodec(t)
	plain, err := os.ReadFile(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	z, err := codec.Compress(1, plain, zs.Fast)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "KitchenSink.root.ainb.zs")
	if err := os.WriteFile(path, z, 0o644); err != nil {
		t.Fatal(err)
	}

	// The server cannot read it alone: the editor asks for the dictionaries.
	p.allowed = append(p.allowed, "/api/parse")
	p.upload("#file-input", path)
	p.waitFor(`document.querySelectorAll(".toast.error").length > 0`)
	if got := p.toasts(); len(got) != 1 || got[0] != "error: KitchenSink.root.ainb.zs is compressed with a dictionary of the game: choose the game's ZsDic.pack.zs (Pack panel) to open it." {
		t.Fatalf("toasts %q", got)
	}
	if eval[bool](p, `!!ainbEditor.document()`) {
		t.Fatal("a document is open before the dictionaries were given")
	}
	p.run(`document.querySelectorAll(".toast").forEach((t) => t.remove())`)

	// Chosen once, ZsDic.pack.zs opens the file waiting for it.
	before := eval[int](p, `ainbEditor.loads()`)
	p.upload("#zsdic-input", filepath.Join(dir, "zstd", "ZsDic.pack.zs"))
	p.waitFor(fmt.Sprintf(`ainbEditor.loads() > %d`, before))
	if n := eval[int](p, `ainbEditor.document().nodes.length`); n != 29 {
		t.Fatalf("%d nodes, want the kitchen sink's 29", n)
	}
	save := func() []byte {
		t.Helper()
		builds := p.app.buildCount()
		p.do(chromedp.Click(chromedp.CSS(`[data-action="save"]`)))
		p.waitFor(`ainbEditor.status().startsWith("Saved")`)
		if s := eval[string](p, `ainbEditor.status()`); !strings.Contains(s, "KitchenSink.root.ainb.zs") || !strings.Contains(s, "zstd with dictionary 1") {
			t.Errorf("status %q", s)
		}
		if p.app.buildCount() != builds+1 {
			t.Fatalf("%d builds, want %d", p.app.buildCount(), builds+1)
		}
		out := p.app.lastBuild()
		if id, err := zs.FrameDictID(out); err != nil || id != 1 {
			t.Fatalf("saved with dictionary %d (%v), want 1", id, err)
		}
		got, err := codec.Decompress(out, zs.MaxSize)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, plain) {
			t.Errorf("the saved file decompresses to %d bytes that differ from the %d opened", len(got), len(plain))
		}
		return out
	}
	save()
	if got := p.download("KitchenSink.root.ainb.zs"); len(got) == 0 {
		t.Error("nothing downloaded as KitchenSink.root.ainb.zs")
	}

	// Another session of the page: the dictionaries are still kept, nothing is asked.
	p.navigate("/")
	before = eval[int](p, `ainbEditor.loads()`)
	p.upload("#file-input", path)
	p.waitFor(fmt.Sprintf(`ainbEditor.loads() > %d`, before))
	if got := p.toasts(); len(got) != 0 {
		t.Errorf("toasts when opening with the kept dictionaries: %q", got)
	}
	save()
}
