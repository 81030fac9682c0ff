package static_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/graph"
)

// An input whose node output goes through an expression (as 230 sources of the games' files
// do) opens as such: its link carries an ƒ badge at its midpoint; the inspector says where
// the value comes from and through which expression, shows the function, and removes the
// expression keeping the link; the save writes the plain link, and adding an expression
// back writes the game's flag word again.
func TestNodeExpressionInput(t *testing.T) {
	// synthetic/expressions_v407.ainb with node 3's float input X reading node 1's float
	// output F (output 2) through function 1 (FLOAT to FLOAT).
	d, err := graph.Parse("x", readCorpusFile(t, "synthetic/expressions_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	x := &d.Nodes[3].Inputs[0]
	if x.Name != "X" || x.Source == nil || x.Source.Node == nil || *x.Source.Node != 1 || x.Source.Output != 2 {
		t.Fatalf("node 3's first input is %s reading %+v, not X reading node 1's output 2", x.Name, x.Source)
	}
	one := 1
	x.Source.Expression = &one
	b, err := d.Build()
	if err != nil {
		t.Fatal(err)
	}
	if f, err := ainb.Read(b); err != nil || f.Elements[3].Inputs.Of(ainb.ParamFloat)[0].Source != (ainb.Source{Node: 1, Output: 0, Flags: 0xC2000001}) {
		t.Fatalf("the test file's X is not node 1's float output 0 through expression 1 (%v)", err)
	}
	path := filepath.Join(t.TempDir(), "nodeexpr.ainb")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}

	p := newBrowser(t)
	p.open(path)
	if got := eval[string](p, `JSON.stringify(ainbEditor.document().nodes[3].inputs[0].source)`); got != `{"node":1,"output":2,"expression":1}` {
		t.Fatalf("X opens as %s", got)
	}

	// The badge: the link from node 1's output 2 to node 3's input 0, at zoom 1, has a disc
	// in the expression colour #b794f6 at its midpoint (around the glyph).
	rows := func(id int) int { return eval[int](p, fmt.Sprintf(`(`+nodeJS+`.properties || []).length`, id)) }
	r1, r3 := rows(1), rows(3)
	badge := func() []int {
		p.run(`document.getElementById("graph").focus()`)
		from, to := p.screenOf(1, r1+2, "out"), p.screenOf(3, r3, "in")
		// Centre the view on the midpoint, then read the canvas there.
		frames := eval[int](p, `ainbEditor.frame().frames`)
		p.run(fmt.Sprintf(`(() => { const v = ainbEditor.view(), c = document.getElementById("graph").getBoundingClientRect();
			ainbEditor.setView({x: v.x + (%g - c.left - c.width / 2) / v.zoom, y: v.y + (%g - c.top - c.height / 2) / v.zoom, zoom: 1}); })()`,
			(from.X+to.X)/2, (from.Y+to.Y)/2))
		p.waitFor(fmt.Sprintf(`ainbEditor.frame().frames > %d`, frames))
		from, to = p.screenOf(1, r1+2, "out"), p.screenOf(3, r3, "in")
		return eval[[]int](p, fmt.Sprintf(`(() => {
			const c = document.getElementById("graph"), r = c.getBoundingClientRect(), s = c.width / r.width;
			const x = (%g - r.left) * s, y = (%g - r.top) * s, ctx = c.getContext("2d");
			let purple = 0;
			// Eight points 4.5 CSS pixels around the centre: inside the disc (radius 7), beside the glyph.
			for (let k = 0; k < 8; k++) {
				const a = k * Math.PI / 4, d = ctx.getImageData(Math.round(x + 4.5 * s * Math.cos(a)), Math.round(y + 4.5 * s * Math.sin(a)), 1, 1).data;
				if (Math.abs(d[0] - 0xb7) < 24 && Math.abs(d[1] - 0x94) < 24 && Math.abs(d[2] - 0xf6) < 24) purple++;
			}
			return [purple];
		})()`, (from.X+to.X)/2, (from.Y+to.Y)/2))
	}
	if got := badge()[0]; got < 5 {
		t.Errorf("%d of 8 points around the link's midpoint are the expression colour, want at least 5", got)
	}
	p.screenshot("ainb-node-expression-link")

	// The inspector.
	p.selectNode(3)
	const key = "inputs.0.source"
	p.do(chromedp.WaitVisible(chromedp.CSS(`[data-key="` + key + `.summary"]`)))
	if got := eval[string](p, `document.querySelector('[data-key="`+key+`.summary"]').textContent`); got != "from node #1 output F through expression 1" {
		t.Errorf("the inspector says %q", got)
	}
	if got, want := eval[string](p, fieldJS(key+".code")+".value"), eval[string](p, `ainbEditor.document().expressions.functions[1].text`); got != want {
		t.Errorf("the inspector shows the function\n%s\nwant function 1\n%s", got, want)
	}
	if got := eval[string](p, `document.querySelector('input[data-key="`+key+`.expression"]').value`); got != "1" {
		t.Errorf("the expression field reads %q", got)
	}
	p.screenshot("ainb-node-expression-inspector")

	// Remove expression: the link stays; the saved file has the plain link.
	p.do(chromedp.Click(chromedp.CSS(`[data-key="` + key + `.expression.remove"]`)))
	p.waitFor(`ainbEditor.document().nodes[3].inputs[0].source.expression === undefined`)
	if got := eval[string](p, `JSON.stringify(ainbEditor.document().nodes[3].inputs[0].source)`); got != `{"node":1,"output":2}` {
		t.Fatalf("after Remove expression X reads %s", got)
	}
	if h := eval[[]string](p, `ainbEditor.history().undo`); !slices.Equal(h, []string{"Remove the expression of #3.X"}) {
		t.Errorf("history %q", h)
	}
	if got := badge()[0]; got != 0 {
		t.Errorf("%d of 8 points around the plain link's midpoint are the expression colour, want none", got)
	}
	if got := p.save().Elements[3].Inputs.Of(ainb.ParamFloat)[0].Source; got != (ainb.Source{Node: 1, Output: 0}) {
		t.Errorf("saved X is %+v, want node 1's float output 0 alone", got)
	}

	// And back through an expression (the first; the field changes it).
	p.selectNode(3)
	p.do(chromedp.Click(chromedp.CSS(`[data-key="` + key + `.expression.add"]`)))
	p.waitFor(`ainbEditor.document().nodes[3].inputs[0].source.expression === 0`)
	if got := p.save().Elements[3].Inputs.Of(ainb.ParamFloat)[0].Source; got != (ainb.Source{Node: 1, Output: 0, Flags: 0xC2000000}) {
		t.Errorf("saved X is %+v, want node 1's float output 0 through expression 0", got)
	}
}

func readCorpusFile(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(corpusFile(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
