package zs

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// A build without cgo (CGO_ENABLED=0, or no C compiler, as on a modder's Windows machine)
// compresses with klauspost's encoder: this package's tests pass there too. The test runs
// them in such a build; run there, it has nothing more to do.
func TestWithoutCgo(t *testing.T) {
	if Encoder == "klauspost" {
		return // this is the build without cgo
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	cmd := exec.Command(goTool, "test", "-count=1", ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the tests without cgo: %v\n%s", err, out)
	}
}
