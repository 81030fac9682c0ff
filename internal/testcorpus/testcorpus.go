// Package testcorpus finds the shared test corpus (../shared/corpus beside the project root)
// for tests. It must never be imported by non-test code: the corpus is test data only.
package testcorpus

import (
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

// shared returns the folder sub of ../shared beside the project root, or fails the test under
// CI and skips it elsewhere, naming what is missing.
func shared(tb testing.TB, sub, what string) string {
	tb.Helper()
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			c := filepath.Join(dir, "..", "shared", sub)
			if st, err := os.Stat(c); err == nil && st.IsDir() {
				return c
			}
			break
		}
		if filepath.Dir(dir) == dir {
			break
		}
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
