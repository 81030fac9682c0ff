package exb

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"ainbeditor/internal/sarc"
	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/zs"
)

// exbFile is one EXB section of the corpus.
type exbFile struct {
	name    string
	section []byte
}

var (
	sourceCorpusOnce sync.Once
	sourceCorpusSecs []exbFile
	sourceCorpusErr  error
)

// exbCorpus returns every EXB section of the corpus: the AINB files, and the
// AINB files inside the TotK packs (Nintendo's own).
func exbCorpus(tb testing.TB) []exbFile {
	tb.Helper()
	dir := testcorpus.Dir(tb)
	paths := testcorpus.AINB(tb)
	sourceCorpusOnce.Do(func() {
		add := func(name string, ainb []byte) {
			sec, err := AINBExpressions(ainb)
			if err != nil && sourceCorpusErr == nil {
				sourceCorpusErr = fmt.Errorf("%s: %w", name, err)
			}
			if sec != nil {
				sourceCorpusSecs = append(sourceCorpusSecs, exbFile{name, sec})
			}
		}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				sourceCorpusErr = err
				return
			}
			add(strings.TrimSuffix(filepath.Base(p), ".ainb"), b)
		}
		dic, err := os.ReadFile(filepath.Join(dir, "zstd", "ZsDic.pack.zs"))
		if err != nil {
			sourceCorpusErr = err
			return
		}
		codec, err := zs.LoadZsDic(dic)
		if err != nil {
			sourceCorpusErr = err
			return
		}
		defer codec.Close()
		packs, _ := filepath.Glob(filepath.Join(dir, "sarc", "*.pack.zs"))
		for _, p := range packs {
			b, err := os.ReadFile(p)
			if err == nil {
				b, err = codec.Decompress(b, zs.MaxSize)
			}
			var a *sarc.Archive
			if err == nil {
				a, err = sarc.Read(b)
			}
			if err != nil {
				sourceCorpusErr = err
				return
			}
			for _, f := range a.Files {
				if strings.HasSuffix(f.Name, ".ainb") {
					add(filepath.Base(p)+"/"+f.Name, f.Data)
				}
			}
		}
	})
	if sourceCorpusErr != nil {
		tb.Fatal(sourceCorpusErr)
	}
	return sourceCorpusSecs
}

// The measured fold figures: a change to the decompiler that folds fewer
// functions (or more) must update them knowingly.
const (
	corpusFunctions       = 1451
	corpusFoldedFunctions = 1451
)

// Every function of every corpus file decompiles to text that compiles back
// to identical bytes: setting each function's own readable text leaves the
// whole section byte for byte as it was, and decompiling again gives the
// same text.
func TestCorpusSourceRoundTrip(t *testing.T) {
	total, folded, packed := 0, 0, 0
	for _, f := range exbCorpus(t) {
		m, err := Read(f.section)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		c, err := m.newDecodeCtx()
		if err != nil {
			t.Fatal(err)
		}
		lk := newLookup(c, &m.Params)
		for i := range m.Functions {
			text, ok, err := m.functionSource(c, lk, i, m.textLimit(), nil, nil)
			if err != nil {
				t.Fatalf("%s: function %d: %v", f.name, i, err)
			}
			total++
			if ok {
				folded++
			}
			if strings.Contains(f.name, ".pack.zs/") {
				packed++
			}
			if err := m.SetFunctionSource(i, text); err != nil {
				t.Fatalf("%s: function %d: %v\n%s", f.name, i, err, text)
			}
			if again, err := m.FunctionSource(i); err != nil || again != text {
				t.Fatalf("%s: function %d: text changed (%v):\n%s\n---\n%s", f.name, i, err, text, again)
			}
		}
		out, err := m.AppendBinary(nil)
		if err != nil || !bytes.Equal(out, f.section) {
			t.Errorf("%s: bytes changed after setting every function's own text (%v, first difference at %#x)", f.name, err, firstDiff(out, f.section))
		}
	}
	t.Logf("%d functions (%d in packs), %d fold fully: %.2f %%", total, packed, folded, 100*float64(folded)/float64(max(total, 1)))
	if total != corpusFunctions || folded != corpusFoldedFunctions {
		t.Errorf("measured %d functions, %d folded; recorded %d, %d", total, folded, corpusFunctions, corpusFoldedFunctions)
	}
}

// functionBytes is what a function is in the binary: its table entry and the
// instructions of its blocks, with every table reference resolved (the
// listing text), so that a moved literal would show.
func functionBytes(t *testing.T, m *Module, i int) string {
	t.Helper()
	text, err := m.FunctionText(i)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	f := m.Functions[i]
	for _, blk := range [2]Block{f.Setup, f.Main} {
		ins, err := m.block(blk)
		if err != nil {
			t.Fatal(err)
		}
		for j := range ins {
			raw, _ := ins[j].Bytes(m.Version)
			b.Write(raw[:])
		}
	}
	return fmt.Sprintf("%+v\n%x\n%s", f, b.String(), text)
}

// editMiddleFunctions edits the middle function k of every corpus section of two or more
// functions: edit changes m and returns the text the function must read back as, through
// readBack. No other function may change: not its table entry, not its instructions, not
// what they refer to. It returns how many sections it edited.
func editMiddleFunctions(t *testing.T, edit func(m *Module, k int) (string, error), readBack func(m *Module, k int) (string, error)) int {
	t.Helper()
	edited := 0
	for _, f := range exbCorpus(t) {
		m, err := Read(f.section)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Functions) < 2 {
			continue
		}
		k := len(m.Functions) / 2
		before := make([]string, len(m.Functions))
		for i := range m.Functions {
			before[i] = functionBytes(t, m, i)
		}
		want, err := edit(m, k)
		if err != nil {
			t.Fatalf("%s: function %d: %v", f.name, k, err)
		}
		out, err := m.AppendBinary(nil)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		back, err := Read(out)
		if err != nil {
			t.Fatalf("%s: edited section does not parse: %v", f.name, err)
		}
		for i := range m.Functions {
			if got := functionBytes(t, back, i); i != k && got != before[i] {
				t.Fatalf("%s: editing function %d changed function %d:\n%s\n---\n%s", f.name, k, i, before[i], got)
			}
		}
		if got, err := readBack(back, k); err != nil || got != want {
			t.Fatalf("%s: edited function reads back as\n%s\nwant\n%s", f.name, got, want)
		}
		edited++
	}
	if edited == 0 {
		t.Fatal("no corpus module has two functions")
	}
	return edited
}

// Editing one function, with literals the tables do not hold yet and more
// instructions than before, changes no other function, and the edited function
// reads back as written.
func TestCorpusEditOneFunction(t *testing.T) {
	const added = "LMem32[0x0] = 12345678 + 0.5\nLMem64[0x0] = \"edited ✓\"\nGMem[0x0] = vec3f(1.5, 2.5, 3.5)\ncall int \"Edited.New()\", GMem[0x10]\n"
	editMiddleFunctions(t, func(m *Module, k int) (string, error) {
		text, err := m.FunctionSource(k)
		if err != nil {
			return "", err
		}
		return text + added, m.SetFunctionSource(k, text+added)
	}, (*Module).FunctionSource)
}

// Assembling a module from every function's readable code gives the very module that
// assembling the listings gives (the canonical layout), for every corpus section; and a
// mixture of the two forms does too.
func TestCorpusAssembleSources(t *testing.T) {
	for _, f := range exbCorpus(t) {
		m, err := Read(f.section)
		if err != nil {
			t.Fatal(err)
		}
		listings, err := m.FunctionTexts()
		if err != nil {
			t.Fatal(err)
		}
		sources, err := m.FunctionSources()
		if err != nil {
			t.Fatal(err)
		}
		want, werr := AssembleFunctions(m.Version, listings)
		got, gerr := AssembleSources(m.Version, sources)
		mixed := slices.Clone(sources)
		for i := 0; i < len(mixed); i += 2 {
			mixed[i] = listings[i]
		}
		mix, merr := AssembleSources(m.Version, mixed)
		if werr != nil {
			if gerr == nil || merr == nil {
				t.Errorf("%s: listings fail (%v) but readable code assembles", f.name, werr)
			}
			continue
		}
		if gerr != nil || merr != nil {
			t.Fatalf("%s: %v / %v", f.name, gerr, merr)
		}
		a, _ := want.AppendBinary(nil)
		b, _ := got.AppendBinary(nil)
		c, _ := mix.AppendBinary(nil)
		if !bytes.Equal(a, b) || !bytes.Equal(a, c) {
			t.Errorf("%s: readable code assembles differently (first difference at %#x, %#x)", f.name, firstDiff(a, b), firstDiff(a, c))
		}
	}
}
