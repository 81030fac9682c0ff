package static_test

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"

	"ainbeditor/internal/graph"
)

// The edit module, the model and the history are plain modules without DOM, tested under
// node (static/*.test.mjs). CI installs node; without it these tests fail, saying so.
func nodePath(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node not found on PATH: the edit module's unit tests (static/*.test.mjs) need node 18 or newer; .ci/run installs Debian's nodejs")
	}
	return path
}

func TestNodeUnitTests(t *testing.T) {
	node := nodePath(t)
	files, err := filepath.Glob("*.test.mjs")
	if err != nil || len(files) == 0 {
		t.Fatalf("no *.test.mjs files: %v", err)
	}
	cmd := exec.Command(node, append([]string{"--test"}, files...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test %v: %v\n%s", files, err, out)
	}
	if testing.Verbose() {
		t.Logf("%s", out)
	}
}

// The browser's node metrics (static/metrics.js) are the ones the server lays nodes out
// with (package graph), so boxes placed there never overlap here.
func TestMetricsMatchGraph(t *testing.T) {
	node := nodePath(t)
	const script = `import("./metrics.js").then((m) => console.log(JSON.stringify({width: m.NODE_WIDTH, header: m.HEADER, row: m.ROW, footer: m.FOOTER, maxCoord: m.MAX_COORD})))`
	out, err := exec.Command(node, "--input-type=module", "-e", script).CombinedOutput()
	if err != nil {
		t.Fatalf("evaluating metrics.js: %v\n%s", err, out)
	}
	var got struct{ Width, Header, Row, Footer, MaxCoord float64 }
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("metrics.js said %q: %v", out, err)
	}
	want := struct{ Width, Header, Row, Footer, MaxCoord float64 }{graph.NodeWidth, graph.HeaderHeight, graph.RowHeight, graph.FooterHeight, graph.MaxCoord}
	if got != want {
		t.Errorf("metrics.js has %+v, package graph %+v", got, want)
	}
}
