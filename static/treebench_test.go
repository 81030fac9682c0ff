package static_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"ainbeditor/internal/testcorpus"
)

// TestTreeBenchmark measures the heaviest tree, TotK's ActorInfo (1.9 MB of BYML): time from
// the file given to the first frame with its rows drawn, and the part of it before the view
// draws (the server's answer read and turned into the model). It only reports; run it with
// AINB_BENCH=1.
func TestTreeBenchmark(t *testing.T) {
	if os.Getenv("AINB_BENCH") != "1" {
		t.Skip("set AINB_BENCH=1 to run the browser benchmark")
	}
	p := newBrowser(t)
	path := filepath.Join(testcorpus.Dir(t), "byml", "ActorInfo.product.byml")
	var first, open []float64
	for k := 0; k < 6; k++ {
		p.run(`window.benchPrevTree = ainbEditor.timings().tree`)
		p.upload("#file-input", path)
		p.waitFor(`ainbEditor.timings().tree && ainbEditor.timings().tree !== window.benchPrevTree`)
		tm := eval[map[string]float64](p, `(({ open, firstRender }) => ({ open, firstRender }))(ainbEditor.timings().tree)`)
		first, open = append(first, tm["firstRender"]), append(open, tm["open"])
	}
	t.Logf("ActorInfo.product.byml, file → first render: %v ms (median %.0f); of it the open through the server: %v ms (median %.0f)",
		fmt.Sprintf("%.0f", first), percentile(first, 0.5), fmt.Sprintf("%.0f", open), percentile(open, 0.5))
}
