package static_test

import (
	"encoding/base64"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// fakeDirectory makes window.showDirectoryPicker answer a directory handle, as the File System
// Access API does, holding the given files (path under the folder → local file): subfolders
// become directory handles, and a text file sits beside the AINB files. DevTools cannot
// answer the browser's own folder dialog, so this is how the API's path is driven.
func (p *page) fakeDirectory(name string, files map[string]string) {
	p.t.Helper()
	var entries []string
	for path, local := range files {
		b, err := os.ReadFile(local)
		if err != nil {
			p.t.Fatal(err)
		}
		entries = append(entries, fmt.Sprintf("[%q, %q]", path, base64.StdEncoding.EncodeToString(b)))
	}
	p.run(fmt.Sprintf(`(() => {
		const files = [%s, ["notes.txt", btoa("not an AINB file")]];
		const dir = (name) => ({ kind: "directory", name, entries: new Map(),
			async *values() { yield* this.entries.values(); } });
		const root = dir(%q);
		for (const [path, b64] of files) {
			const parts = path.split("/");
			let d = root;
			for (const part of parts.slice(0, -1)) {
				if (!d.entries.has(part)) d.entries.set(part, dir(part));
				d = d.entries.get(part);
			}
			const leaf = parts[parts.length - 1];
			const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
			d.entries.set(leaf, { kind: "file", name: leaf, getFile: async () => new File([bytes], leaf) });
		}
		window.showDirectoryPicker = async () => root;
	})()`, strings.Join(entries, ","), name))
}

// The folder pickers of the File System Access API: "Import folder…" teaches the catalogue
// every AINB file under the folder, subfolders included, passing over other files; "Open
// folder…" opens them as a folder.
func TestDirectoryPickers(t *testing.T) {
	p := newBrowser(t)
	p.open(corpusFile(t, "synthetic/minimal_v407.ainb"))
	p.fakeDirectory("Mods", map[string]string{
		"AI/params_v407.ainb":           corpusFile(t, "synthetic/params_v407.ainb"),
		"AI/Deep/builtin_elements.ainb": corpusFile(t, "synthetic/builtin_elements_v407.ainb"),
	})

	p.openPalette()
	p.do(chromedp.Click(`.overlay.palette button[title="Learn node classes from every AINB file in a folder"]`))
	p.waitFor(`ainbEditor.status().startsWith("Learned node classes from")`)
	if s := eval[string](p, `ainbEditor.status()`); !strings.HasPrefix(s, "Learned node classes from 2 files: ") {
		t.Fatalf("status after importing the folder: %q", s)
	}
	p.do(chromedp.SendKeys(`.palette-input`, "SyntheticConsumer"))
	if got := paletteClasses(p); !contains(got, "SyntheticConsumer") {
		t.Fatalf("after the folder import the palette offers %q", got)
	}
	p.key(kb.Escape)

	p.do(chromedp.Click(`[data-action="open-folder"]`))
	p.waitFor(`ainbEditor.status().startsWith("Opened folder")`)
	if s := eval[string](p, `ainbEditor.status()`); s != "Opened folder Mods: 2 AINB files" {
		t.Errorf("status after opening the folder: %q", s)
	}
	got := eval[[]string](p, `[...document.querySelectorAll(".folder-files [data-file]")].map((e) => e.dataset.file)`)
	if strings.Join(got, " ") != "Mods/AI/Deep/builtin_elements.ainb Mods/AI/params_v407.ainb" {
		t.Errorf("the folder lists %q", got)
	}
	before := eval[int](p, `ainbEditor.loads()`)
	p.do(chromedp.Click(`.folder-files [data-file="Mods/AI/params_v407.ainb"]`))
	p.waitFor(fmt.Sprintf(`ainbEditor.loads() > %d`, before))
	if name := eval[string](p, `ainbEditor.document().filename`); name == "" {
		t.Error("the folder's file did not open")
	}
}
