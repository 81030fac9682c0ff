// Package testcorpus finds test data for tests: the shared corpus (../shared/corpus beside
// the project root), the games' own files, and the project's own fixtures in the top-level
// testdata folder (Fixture). It must never be imported by non-test code: all of it is test
// data only.
package testcorpus

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// Dir returns the corpus directory. When it is missing the test fails under CI (CI=true) and
// is skipped elsewhere, saying why.
func Dir(tb testing.TB) string {
	tb.Helper()
	return shared(tb, "corpus", "test corpus ../shared/corpus")
}

// root returns the project root: the nearest folder above the test's own with a go.mod.
func root(tb testing.TB) string {
	tb.Helper()
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		if filepath.Dir(dir) == dir {
			tb.Fatalf("no go.mod above %s", wd)
		}
	}
}

// FixturePath is the path of one of the project's own fixtures, testdata/NAME at the
// project root: inputs the project makes itself that tests of several packages read (see
// testdata/README.md). The package that makes a fixture checks it is current.
func FixturePath(tb testing.TB, name string) string {
	tb.Helper()
	return filepath.Join(root(tb), "testdata", filepath.FromSlash(name))
}

// Fixture reads testdata/NAME at the project root (FixturePath).
func Fixture(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(FixturePath(tb, name))
	if err != nil {
		tb.Fatalf("fixture %s: %v (go test the package that makes it with -update-fixtures)", name, err)
	}
	return b
}

// CheckFixture fails the test unless testdata/NAME holds exactly want; with update it
// writes want there first. The package that makes a fixture calls it, so a change to the
// maker shows as a failing test until the fixture is written again.
func CheckFixture(tb testing.TB, name string, want []byte, update bool) {
	tb.Helper()
	path := FixturePath(tb, name)
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, want, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("fixture %s: %v (run the test with -update-fixtures)", name, err)
	}
	if !bytes.Equal(got, want) {
		tb.Fatalf("fixture %s (%d bytes) is not what its maker makes now (%d bytes): run the test with -update-fixtures", name, len(got), len(want))
	}
}

// shared returns the folder sub of ../shared beside the project root, or fails the test under
// CI and skips it elsewhere, naming what is missing.
func shared(tb testing.TB, sub, what string) string {
	tb.Helper()
	c := filepath.Join(root(tb), "..", "shared", sub)
	if st, err := os.Stat(c); err == nil && st.IsDir() {
		return c
	}
	if os.Getenv("CI") == "true" {
		tb.Fatalf("%s not found beside the project root; CI needs it", what)
	}
	tb.Skipf("%s not found beside the project root; skipping", what)
	return ""
}

// AINB lists every .ainb file of the corpus, sorted.
func AINB(tb testing.TB) []string {
	tb.Helper()
	dir := Dir(tb)
	var out []string
	for _, sub := range []string{"synthetic", "random", "real"} {
		m, err := filepath.Glob(filepath.Join(dir, "ainb", sub, "*.ainb"))
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, m...)
	}
	sort.Strings(out)
	if len(out) == 0 {
		tb.Fatalf("no .ainb files under %s/ainb", dir)
	}
	return out
}

// GameDir returns the folder of the games' own files of one format (../shared/gamefiles/FORMAT
// beside the project root: ainb, byml, aamp, sarc, yaz0, zstd). Like Dir, a missing folder
// fails the test under CI and skips it elsewhere.
func GameDir(tb testing.TB, format string) string {
	tb.Helper()
	return shared(tb, filepath.Join("gamefiles", format), "game files ../shared/gamefiles/"+format)
}

// GameFiles lists every file of GameDir(format), sorted.
func GameFiles(tb testing.TB, format string) []string {
	tb.Helper()
	dir := GameDir(tb, format)
	ents, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.Type().IsRegular() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	if len(out) == 0 {
		tb.Fatalf("no files under %s", dir)
	}
	return out
}
