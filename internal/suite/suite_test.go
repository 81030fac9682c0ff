package suite

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// murmur3Flag switches off the pointer checks -race turns on, for murmur3 alone (its
// unaligned loads trip them).
const murmur3Flag = "-gcflags=github.com/spaolacci/murmur3=-d=checkptr=0"

// invocation is one `go test` of the README's command.
type invocation struct {
	race, murmur3 bool
	run           string   // -run, when the invocation runs only some tests
	patterns      []string // package patterns
}

// readmeCommand is the command under "## Run every test" in the README: the first line of
// the first code block there, which must be the only line of that block.
func readmeCommand(t *testing.T, root string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Run every test\n")
	if !ok {
		t.Fatal(`README.md has no section "## Run every test"`)
	}
	_, block, ok := strings.Cut(section, "```\n")
	if !ok {
		t.Fatal(`"Run every test" has no code block`)
	}
	block, _, _ = strings.Cut(block, "```")
	lines := strings.Split(strings.TrimSpace(block), "\n")
	if len(lines) != 1 {
		t.Fatalf("the command to run every test is %d lines, want one:\n%s", len(lines), block)
	}
	return lines[0]
}

// parseCommand splits the command into its `go test` invocations, joined with &&.
func parseCommand(t *testing.T, cmd string) []invocation {
	t.Helper()
	var out []invocation
	for part := range strings.SplitSeq(cmd, "&&") {
		f := strings.Fields(part)
		if len(f) < 2 || f[0] != "go" || f[1] != "test" {
			t.Fatalf("%q is not a go test invocation", strings.TrimSpace(part))
		}
		var inv invocation
		for i := 2; i < len(f); i++ {
			switch a := f[i]; {
			case a == "-race":
				inv.race = true
			case a == murmur3Flag:
				inv.murmur3 = true
			case a == "-timeout" || a == "-run":
				if i+1 == len(f) {
					t.Fatalf("%s without a value in %q", a, part)
				}
				i++
				if a == "-run" {
					inv.run = strings.Trim(f[i], "'")
				}
			case strings.HasPrefix(a, "-"):
				t.Fatalf("flag %s in %q: this test does not know it (teach it)", a, part)
			default:
				inv.patterns = append(inv.patterns, a)
			}
		}
		if len(inv.patterns) == 0 {
			t.Fatalf("%q names no packages", part)
		}
		out = append(out, inv)
	}
	return out
}

type goPackage struct {
	ImportPath, Dir                    string
	GoFiles, TestGoFiles, XTestGoFiles []string
}

func goList(t *testing.T, root string, patterns ...string) []goPackage {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json"}, patterns...)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", patterns, err)
	}
	var pkgs []goPackage
	for d := json.NewDecoder(bytes.NewReader(out)); d.More(); {
		var p goPackage
		if err := d.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// startsGoroutines reports whether any of the files has a go statement.
func startsGoroutines(t *testing.T, dir string, files []string) bool {
	t.Helper()
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			_, ok := n.(*ast.GoStmt)
			found = found || ok
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// Every package is tested once by the README's command, which CI runs as it is written:
// under the race detector when its code starts goroutines (or its tests do, at least for
// those tests), and with murmur3's pointer checks off wherever -race turns them on.
func TestReadmeCommandRunsEveryPackage(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := readmeCommand(t, root)

	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	ciLines := strings.Split(strings.TrimSpace(string(ci)), "\n")
	if last := ciLines[len(ciLines)-1]; last != cmd {
		t.Errorf(".ci/run ends with\n%s\nbut the README's command is\n%s", last, cmd)
	}

	all := goList(t, root, "./...")
	full := map[string]*invocation{} // package -> the invocation that runs all its tests
	partial := map[string][]string{} // package -> -run patterns of race invocations
	for _, inv := range parseCommand(t, cmd) {
		if inv.race != inv.murmur3 {
			t.Errorf("go test %v: -race %v but murmur3's exception %v: -race needs it, and only -race", inv.patterns, inv.race, inv.murmur3)
		}
		for _, p := range goList(t, root, inv.patterns...) {
			if inv.run != "" {
				if inv.race {
					partial[p.ImportPath] = append(partial[p.ImportPath], inv.run)
				}
				continue
			}
			if full[p.ImportPath] != nil {
				t.Errorf("%s is tested twice", p.ImportPath)
			}
			full[p.ImportPath] = &inv
		}
	}
	for _, p := range all {
		inv := full[p.ImportPath]
		if inv == nil {
			t.Errorf("%s is in none of the README command's package lists", p.ImportPath)
			continue
		}
		if inv.race {
			continue
		}
		if startsGoroutines(t, p.Dir, p.GoFiles) {
			t.Errorf("%s starts goroutines but is tested without -race", p.ImportPath)
		} else if startsGoroutines(t, p.Dir, slices.Concat(p.TestGoFiles, p.XTestGoFiles)) && len(partial[p.ImportPath]) == 0 {
			t.Errorf("the tests of %s start goroutines, but none of them runs with -race", p.ImportPath)
		}
	}
}
