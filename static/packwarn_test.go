package static_test

import (
	"path/filepath"
	"testing"

	"ainbeditor/internal/testcorpus"
)

// A pack a modding tool wrote with its header file size 4 short and 5 zero bytes after the
// data opens, and the editor says what looks wrong: a toast per warning, and the pack's
// summary counts them, their text in its tooltip.
func TestPackWarningsShown(t *testing.T) {
	p := newBrowser(t)
	packPath := filepath.Join(testcorpus.GameDir(t, "sarc"), "TotK__SDCarpet.pack.zs__4ee6d679ab.sarc")
	p.upload("#pack-input", packPath)
	p.waitFor(`ainbEditor.status().startsWith("Opened pack")`)
	const (
		name = "TotK__SDCarpet.pack.zs__4ee6d679ab.sarc"
		size = "sarc: at 0x8: file size 2474, but the archive is 2478 bytes (4 more; a modding tool's mistake, the game loads it); written back as it is while the archive is unedited"
		tail = "sarc: at 0x9a9: 5 zero bytes after the last file's data, part of no file; written back as they are while the archive is unedited"
	)
	if got := p.toasts(); len(got) != 2 || got[0] != name+": "+size || got[1] != name+": "+tail {
		t.Errorf("toasts %q", got)
	}
	if s := eval[string](p, `document.querySelector(".pack .hint").textContent`); s != name+": 5 files (not compressed); 2 warnings (hover)" {
		t.Errorf("summary %q", s)
	}
	if s := eval[string](p, `document.querySelector(".pack .hint").title`); s != size+"\n"+tail {
		t.Errorf("summary title %q", s)
	}
}
