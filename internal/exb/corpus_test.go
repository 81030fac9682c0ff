package exb

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"ainbeditor/internal/testcorpus"
)

// corpusFile is one AINB file of the shared corpus that has an EXB section.
type corpusFile struct {
	name    string // e.g. "synthetic/expressions_v407"
	section []byte // the EXB section
	json    []byte // the "Expressions" value of NAME.json
}

// AINBExpressions cuts the expression binary out of an AINB file, or returns nil when it has
// none. It is package ainb's (set by corpus_ainb_test.go), whose header layout it follows:
// this package's own tests cannot import ainb, which imports this package.
var AINBExpressions func(ainb []byte) ([]byte, error)

var (
	corpusOnce  sync.Once
	corpusFiles []corpusFile
	corpusErr   error
)

func loadCorpus(dir string, paths []string) {
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			corpusErr = err
			return
		}
		sec, err := AINBExpressions(raw)
		if err != nil {
			corpusErr = err
			return
		}
		if sec == nil {
			continue
		}
		js, err := os.ReadFile(strings.TrimSuffix(p, ".ainb") + ".json")
		if err != nil {
			corpusErr = err
			return
		}
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(js, &doc); err != nil {
			corpusErr = err
			return
		}
		rel, _ := filepath.Rel(filepath.Join(dir, "ainb"), p)
		corpusFiles = append(corpusFiles, corpusFile{
			name:    strings.TrimSuffix(filepath.ToSlash(rel), ".ainb"),
			section: sec,
			json:    doc["Expressions"],
		})
	}
}

// corpus returns the corpus files with an EXB section (testcorpus skips or fails the test
// when the corpus is missing).
func corpus(tb testing.TB) []corpusFile {
	tb.Helper()
	paths := testcorpus.AINB(tb)
	corpusOnce.Do(func() { loadCorpus(testcorpus.Dir(tb), paths) })
	if corpusErr != nil {
		tb.Fatalf("reading the corpus: %v", corpusErr)
	}
	return corpusFiles
}

func TestCorpusRoundTrip(t *testing.T) {
	files := corpus(t)
	if len(files) < 50 {
		t.Errorf("only %d corpus files with an EXB section, expected at least 50", len(files))
	}
	for _, f := range files {
		m, err := Read(f.section)
		if err != nil {
			t.Errorf("%s: Read: %v", f.name, err)
			continue
		}
		out, err := m.AppendBinary(nil)
		if err != nil {
			t.Errorf("%s: AppendBinary: %v", f.name, err)
			continue
		}
		if !bytes.Equal(out, f.section) {
			t.Errorf("%s: written bytes differ from the file (%d vs %d bytes, first difference at %#x)", f.name, len(out), len(f.section), firstDiff(out, f.section))
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// jsonValue decodes JSON into plain values so that formatting differences
// (indentation, \u escapes, key order) do not matter.
func jsonValue(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decoding JSON: %v", err)
	}
	return v
}

func TestCorpusCompat(t *testing.T) {
	for _, f := range corpus(t) {
		m, err := Read(f.section)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		c, err := m.Compat()
		if err != nil {
			t.Errorf("%s: Compat: %v", f.name, err)
			continue
		}
		got, _ := json.Marshal(c)
		if !jsonEqual(jsonValue(t, got), jsonValue(t, f.json)) {
			t.Errorf("%s: compat disassembly differs from NAME.json:\n%s", f.name, diffCompat(t, got, f.json))
		}

		// Assemble the reference JSON: its disassembly must be the JSON
		// again, and since the reference wrote these files from the same
		// JSON with the same rules, the bytes come out identical once the
		// AINB-level instance count is copied over.
		var in Compat
		if err := json.Unmarshal(f.json, &in); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		back, err := FromCompat(&in)
		if err != nil {
			t.Errorf("%s: FromCompat: %v", f.name, err)
			continue
		}
		back.Header.InstanceCount = m.Header.InstanceCount
		b, err := back.AppendBinary(nil)
		if err != nil {
			t.Errorf("%s: AppendBinary after FromCompat: %v", f.name, err)
			continue
		}
		m2, err := Read(b)
		if err != nil {
			t.Errorf("%s: Read after FromCompat: %v", f.name, err)
			continue
		}
		c2, err := m2.Compat()
		if err != nil {
			t.Errorf("%s: Compat after FromCompat: %v", f.name, err)
			continue
		}
		got2, _ := json.Marshal(c2)
		if !jsonEqual(jsonValue(t, got2), jsonValue(t, f.json)) {
			t.Errorf("%s: FromCompat changed the disassembly:\n%s", f.name, diffCompat(t, got2, f.json))
		}
		if !bytes.Equal(b, f.section) {
			t.Errorf("%s: FromCompat bytes differ from the file at %#x (%d vs %d bytes)", f.name, firstDiff(b, f.section), len(b), len(f.section))
		}
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// diffCompat shows the first differing instruction lines.
func diffCompat(t *testing.T, got, want []byte) string {
	var g, w Compat
	json.Unmarshal(got, &g)
	json.Unmarshal(want, &w)
	var sb strings.Builder
	for i := range min(len(g.Expressions), len(w.Expressions)) {
		ge, we := g.Expressions[i], w.Expressions[i]
		if ge.InputType != we.InputType || ge.OutputType != we.OutputType {
			sb.WriteString("types of expression " + ge.InputType + "/" + ge.OutputType + " vs " + we.InputType + "/" + we.OutputType + "\n")
		}
		for k, pair := range [][2][]string{{ge.Setup, we.Setup}, {ge.Main, we.Main}} {
			for j := range max(len(pair[0]), len(pair[1])) {
				var a, b string
				if j < len(pair[0]) {
					a = pair[0][j]
				}
				if j < len(pair[1]) {
					b = pair[1][j]
				}
				if a != b {
					sb.WriteString(strings.Join([]string{"expr", strconv.Itoa(i), []string{"setup", "main"}[k], "got", a, "want", b}, " ") + "\n")
				}
			}
		}
		if sb.Len() > 2000 {
			break
		}
	}
	if len(g.Expressions) != len(w.Expressions) {
		sb.WriteString("expression counts differ\n")
	}
	return sb.String()
}

func TestCorpusListing(t *testing.T) {
	for _, f := range corpus(t) {
		m, err := Read(f.section)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		text, err := m.Listing()
		if err != nil {
			t.Errorf("%s: Listing: %v", f.name, err)
			continue
		}
		if strings.Contains(text, ".raw") {
			t.Errorf("%s: listing of a reference-written file needed .raw", f.name)
		}
		back, err := ParseListing(text)
		if err != nil {
			t.Errorf("%s: ParseListing: %v", f.name, err)
			continue
		}
		b, err := back.AppendBinary(nil)
		if err != nil {
			t.Errorf("%s: AppendBinary: %v", f.name, err)
			continue
		}
		if !bytes.Equal(b, f.section) {
			t.Errorf("%s: bytes -> listing -> bytes differs at %#x", f.name, firstDiff(b, f.section))
			continue
		}
		m2, err := Read(b)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		text2, err := m2.Listing()
		if err != nil || text2 != text {
			t.Errorf("%s: listing -> bytes -> listing is not the identity (err %v)", f.name, err)
		}
		text3, err := back.Listing()
		if err != nil || text3 != text {
			t.Errorf("%s: listing -> model -> listing is not the identity (err %v)", f.name, err)
		}
	}
}

func TestCorpusFunctionText(t *testing.T) {
	for _, f := range corpus(t) {
		m, err := Read(f.section)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		orig, _ := m.Compat()
		for i := range m.Functions {
			text, err := m.FunctionText(i)
			if err != nil {
				t.Fatalf("%s: FunctionText(%d): %v", f.name, i, err)
			}
			if err := m.SetFunctionText(i, text); err != nil {
				t.Fatalf("%s: SetFunctionText(%d): %v\n%s", f.name, i, err, text)
			}
			again, err := m.FunctionText(i)
			if err != nil || again != text {
				t.Fatalf("%s: function %d text changed after SetFunctionText (err %v):\n%s\n---\n%s", f.name, i, err, text, again)
			}
		}
		// Re-laying-out must not change what any function computes.
		after, err := m.Compat()
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		a, _ := json.Marshal(orig)
		b, _ := json.Marshal(after)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: editing changed the disassembly:\n%s", f.name, diffCompat(t, b, a))
		}
		out, err := m.AppendBinary(nil)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if !bytes.Equal(out, f.section) {
			t.Logf("%s: canonical re-layout differs from the file at %#x", f.name, firstDiff(out, f.section))
		}
	}
}

// FunctionTexts gives what FunctionText gives, function by function.
func TestCorpusFunctionTexts(t *testing.T) {
	for _, f := range corpus(t) {
		m, err := Read(f.section)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		texts, err := m.FunctionTexts()
		if err != nil {
			t.Fatalf("%s: FunctionTexts: %v", f.name, err)
		}
		if len(texts) != len(m.Functions) {
			t.Fatalf("%s: %d texts for %d functions", f.name, len(texts), len(m.Functions))
		}
		for i, got := range texts {
			want, err := m.FunctionText(i)
			if err != nil || got != want {
				t.Fatalf("%s: function %d: FunctionTexts gives\n%s\nFunctionText (err %v)\n%s", f.name, i, got, err, want)
			}
		}
	}
}
