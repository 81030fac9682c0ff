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
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			c := filepath.Join(dir, "..", "shared", "corpus")
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
		tb.Fatal("test corpus ../shared/corpus not found beside the project root; CI needs it")
	}
	tb.Skip("test corpus ../shared/corpus not found beside the project root; skipping")
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
