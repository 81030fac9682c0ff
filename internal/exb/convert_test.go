package exb

import (
	"errors"
	"testing"
)

// For every function of every corpus section, the readable code converts to the very
// listing FunctionText gives in the section, and the listing to the very readable code
// FunctionSource gives: a function's two forms stand alone, so the editor's toggle between
// them shows what the file holds.
func TestCorpusConvertFunction(t *testing.T) {
	n := 0
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
		for i := range m.Functions {
			got, err := ConvertFunction(m.Version, sources[i], true)
			if err != nil || got != listings[i] {
				t.Fatalf("%s: function %d: code to listing (%v):\n%s\nwant\n%s", f.name, i, err, got, listings[i])
			}
			got, err = ConvertFunction(m.Version, listings[i], false)
			if err != nil || got != sources[i] {
				t.Fatalf("%s: function %d: listing to code (%v):\n%s\nwant\n%s", f.name, i, err, got, sources[i])
			}
			// Each form also converts to itself.
			if got, err = ConvertFunction(m.Version, sources[i], false); err != nil || got != sources[i] {
				t.Fatalf("%s: function %d: code to code (%v):\n%s\nwant\n%s", f.name, i, err, got, sources[i])
			}
			n++
		}
	}
	t.Logf("%d functions convert both ways", n)
}

// ConvertFunction's errors are the text's own, with line and column, without a function
// index; the version is checked as AssembleSources checks it.
func TestConvertFunctionErrors(t *testing.T) {
	for _, tt := range []struct {
		version   uint32
		text      string
		toListing bool
		want      string
		line, col int
	}{
		{3, ".input INT\n.output INT\nOut = In +\n", true, "line 3:11: expected a value, found end of line", 3, 11},
		{3, ".input INT\n.output INT\n.main\nSTR int Out[0x0], int Nope\nEND\n", false, `line 4:23: bad int literal "Nope" (want a 32-bit signed integer)`, 4, 23},
		{3, "Out = 1\nsetup {\n}", true, "line 2:1: setup { } must come once, before the main statements", 2, 1},
	} {
		_, err := ConvertFunction(tt.version, tt.text, tt.toListing)
		var se *SyntaxError
		var fe *FunctionError
		if err == nil || err.Error() != tt.want || !errors.As(err, &se) || se.Line != tt.line || se.Col != tt.col || errors.As(err, &fe) {
			t.Errorf("%q: got %v, want %s", tt.text, err, tt.want)
		}
	}
	if _, err := ConvertFunction(4, "Out = 1\n", true); err == nil || err.Error() != "exb: unsupported version 4 (want 1, 2 or 3)" {
		t.Errorf("version 4: %v", err)
	}
	// The simplest function both ways.
	got, err := ConvertFunction(3, ".input INT\n.output INT\nOut = In * 2\n", true)
	if want := ".input INT\n.output INT\n.main\n0x0000  STR int Out[0x0], int In[0x0]\n0x0008  MUL int Out[0x0], int 2\n0x0010  END\n"; err != nil || got != want {
		t.Errorf("code to listing: %q (%v), want %q", got, err, want)
	}
}

// Editing one function through its listing (SetFunctionText, the toggle's other form)
// changes no other function either, and the function reads back as that listing.
func TestCorpusEditOneFunctionListing(t *testing.T) {
	const added = "LMem32[0x0] = 12345678 + 0.5\nLMem64[0x0] = \"edited ✓\"\ncall int \"Edited.New()\", GMem[0x10]\n"
	edited := editMiddleFunctions(t, func(m *Module, k int) (string, error) {
		code, err := m.FunctionSource(k)
		if err != nil {
			return "", err
		}
		listing, err := ConvertFunction(m.Version, code+added, true)
		if err != nil {
			return "", err
		}
		return listing, m.SetFunctionText(k, listing)
	}, (*Module).FunctionText)
	t.Logf("%d sections edited", edited)
}
