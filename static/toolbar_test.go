package static_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// toolbarJS measures the toolbar: its height, each control's height and whether any
// label breaks onto a second line, how far its last control reaches, and the file name as
// shown.
const toolbarJS = `(() => {
  const bar = document.querySelector(".toolbar"), title = document.querySelector(".doc-title");
  const kids = [...bar.children].filter((el) => el.offsetParent !== null);
  // A text on more than one line has boxes at more than one height.
  const lines = (el) => {
    let most = 0;
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let t = walk.nextNode(); t; t = walk.nextNode()) {
      if (!t.textContent.trim() || t.parentElement.offsetParent === null) continue;
      const r = document.createRange();
      r.selectNodeContents(t);
      most = Math.max(most, new Set([...r.getClientRects()].map((q) => Math.round(q.top))).size);
    }
    return most;
  };
  return {
    height: bar.getBoundingClientRect().height,
    heights: kids.map((el) => el.getBoundingClientRect().height),
    wrapped: kids.filter((el) => lines(el) > 1).map((el) => el.textContent),
    overflow: bar.scrollWidth - bar.clientWidth,
    right: Math.max(bar.getBoundingClientRect().right, ...kids.map((el) => el.getBoundingClientRect().right)) - window.innerWidth,
    cut: title.scrollWidth > title.clientWidth,
    text: title.textContent,
    tip: title.title,
  };
})()`

type toolbarState struct {
	Height   float64   `json:"height"`
	Heights  []float64 `json:"heights"`
	Wrapped  []string  `json:"wrapped"`
	Overflow float64   `json:"overflow"`
	Right    float64   `json:"right"`
	Cut      bool      `json:"cut"`
	Text     string    `json:"text"`
	Tip      string    `json:"tip"`
}

// A file with a long name keeps the toolbar on one line: every control is as high as with
// no file open, no label breaks, nothing reaches past the window's right edge; the name is
// cut with an ellipsis and its whole text is the tooltip.
func TestToolbarLongFileName(t *testing.T) {
	p := newBrowser(t)
	before := eval[toolbarState](p, toolbarJS)
	if len(before.Wrapped) != 0 || before.Overflow > 0 || before.Right > 0 {
		t.Fatalf("with no file the toolbar already wraps %q or overflows by %v px (%v px past the window)", before.Wrapped, before.Overflow, before.Right)
	}
	path := longNamed(t)
	p.open(path)
	name := filepath.Base(path)
	after := eval[toolbarState](p, toolbarJS)
	if after.Text != name || after.Tip != name {
		t.Errorf("the toolbar names the file %q with the tooltip %q, want %q for both", after.Text, after.Tip, name)
	}
	if !after.Cut {
		t.Errorf("a %d-character name is shown whole: the test needs a name longer than the room", len(name))
	}
	if len(after.Wrapped) != 0 {
		t.Errorf("labels on two lines: %q", after.Wrapped)
	}
	if after.Overflow > 0 || after.Right > 0 {
		t.Errorf("the toolbar overflows by %v px, it or its last control ends %v px past the window's right edge", after.Overflow, after.Right)
	}
	if after.Height != before.Height || len(after.Heights) != len(before.Heights) {
		t.Fatalf("toolbar %v px high with %d controls, %v px with %d before", after.Height, len(after.Heights), before.Height, len(before.Heights))
	}
	for k := range after.Heights {
		if after.Heights[k] != before.Heights[k] {
			t.Errorf("control %d is %v px high, %v px with no file", k, after.Heights[k], before.Heights[k])
		}
	}
}

// TestInspectorLongFileName: the inspector's heading shows a long file name whole, broken
// over lines inside the panel, and the facts under it stay inside too.
func TestInspectorLongFileName(t *testing.T) {
	p := newBrowser(t)
	path := longNamed(t)
	p.open(path)
	name := filepath.Base(path)
	got := eval[map[string]any](p, `(() => {
		const panel = document.querySelector(".inspector-body").getBoundingClientRect();
		const h = document.querySelector(".inspector-body h2.file-name");
		const past = [h, ...document.querySelectorAll(".inspector-body .facts dd")].map((el) => el.getBoundingClientRect().right - panel.right);
		return {text: h.textContent, past: Math.max(...past), scroll: h.scrollWidth - h.clientWidth};
	})()`)
	if got["text"] != name {
		t.Errorf("heading %q, want %q", got["text"], name)
	}
	if past := got["past"].(float64); past > 0 {
		t.Errorf("the heading or a fact ends %v px past the inspector's right edge", past)
	}
	if s := got["scroll"].(float64); s > 0 {
		t.Errorf("the heading is %v px wider than its box", s)
	}
}

// longNamed copies a small corpus file under a 219-character name and returns its path.
func longNamed(t *testing.T) string {
	t.Helper()
	name := strings.Repeat("Enemy_Bokoblin_Boss_Gold_Behaviour_", 6) + "Root.ainb"
	data, err := os.ReadFile(corpusFile(t, "synthetic/minimal_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
