package graph

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/testcorpus"
)

// Editing one function of a corpus file's document (a longer function with a literal the
// param table does not hold yet) changes no other function: not its table entry, its
// instructions or what they refer to. Every corpus expression section is laid out
// canonically, so the document records no listing for it; the page sends the function's
// text as parsed with the edit (Function.ParsedText, kept by edits.js), the build
// assembles the module the file had from the parsed texts, checked against the layout's
// hash of them, and compiles function 0 alone into it. Assembling the current texts again
// would move every later function's block (function 0 grew) and literals (its new literal
// comes first in the param table). Issue 13: editing one function never changes the bytes
// of another. TestExpressionsEditKeepsOthers covers the non-canonical path.
func TestExpressionsEditKeepsOthersCanonical(t *testing.T) {
	n := 0
	for _, p := range testcorpus.AINB(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ainb.Read(b)
		if err != nil || f.Expressions == nil || len(f.Expressions.Functions) < 2 {
			continue
		}
		d, err := Parse("x", b)
		if err != nil {
			t.Fatal(err)
		}
		editAsPage(d, 0, d.Expressions.Functions[0].Text+"GMem[0x40] = 123456789\n")
		d = throughJSON(t, d)
		g := buildRead(t, d)
		if len(g.Expressions.Instructions) <= len(f.Expressions.Instructions) || len(g.Expressions.Params.Entries) <= len(f.Expressions.Params.Entries) {
			t.Fatalf("%s: function 0 did not grow or gain a literal", filepath.Base(p))
		}
		for i := 1; i < len(f.Expressions.Functions); i++ {
			if a, b := functionImage(t, f.Expressions, i), functionImage(t, g.Expressions, i); a != b {
				t.Errorf("%s: editing function 0 changed function %d:\n%s\nwas\n%s", filepath.Base(p), i, b, a)
				break
			}
		}
		if got, _ := g.Expressions.FunctionSource(0); got != d.Expressions.Functions[0].Text {
			t.Errorf("%s: function 0 reads back as\n%s\nwant\n%s", filepath.Base(p), got, d.Expressions.Functions[0].Text)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no corpus file has two expression functions")
	}
}

// A parsed text that is not the parse's (stale: from another parse; forged; or one left out)
// does not lead the build astray: the hash in the layout does not match, and the module is
// assembled canonically from the current texts, as without parsed texts. A parsed text
// equal to the text changes nothing.
func TestExpressionsParsedTextFallback(t *testing.T) {
	var path string
	for _, p := range testcorpus.AINB(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if f, err := ainb.Read(b); err == nil && f.Expressions != nil && len(f.Expressions.Functions) >= 3 {
			path = p
			break
		}
	}
	if path == "" {
		t.Fatal("no corpus file has three expression functions")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := func() *Document {
		d, err := Parse("x", raw)
		if err != nil {
			t.Fatal(err)
		}
		editAsPage(d, 0, d.Expressions.Functions[0].Text+"GMem[0x40] = 123456789\n")
		editAsPage(d, 1, d.Expressions.Functions[1].Text+"GMem[0x48] = 987654321\n")
		return d
	}
	built := func(d *Document) []byte {
		t.Helper()
		g := buildRead(t, d)
		for i, fn := range d.Expressions.Functions {
			if got, _ := g.Expressions.FunctionSource(i); got != fn.Text {
				t.Errorf("function %d reads back as\n%s\nwant\n%s", i, got, fn.Text)
			}
		}
		b, err := g.Expressions.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	// The canonical section of d's texts: d built without parsed texts.
	canonical := func(d *Document) []byte {
		t.Helper()
		e := throughJSON(t, d)
		for i := range e.Expressions.Functions {
			e.Expressions.Functions[i].ParsedText = nil
		}
		return built(e)
	}
	in := built(edited())
	if bytes.Equal(in, canonical(edited())) {
		t.Fatal("the in-place edit gives the canonical layout: the test shows nothing")
	}
	for name, spoil := range map[string]func(d *Document){
		"forged": func(d *Document) {
			s := *d.Expressions.Functions[0].ParsedText + "GMem[0x50] = 5\n"
			d.Expressions.Functions[0].ParsedText = &s
		},
		"swapped": func(d *Document) {
			fs := d.Expressions.Functions
			fs[0].ParsedText, fs[1].ParsedText = fs[1].ParsedText, fs[0].ParsedText
		},
		"left out": func(d *Document) { d.Expressions.Functions[1].ParsedText = nil },
		"stale": func(d *Document) {
			// The texts of another parse: this file with function 2 edited and saved.
			e, err := Parse("x", raw)
			if err != nil {
				t.Fatal(err)
			}
			e.Expressions.Functions[2].Text += "GMem[0x58] = 7\n"
			b, err := e.Build()
			if err != nil {
				t.Fatal(err)
			}
			if e, err = Parse("x", b); err != nil {
				t.Fatal(err)
			}
			d.Layout = e.Layout
		},
	} {
		d := edited()
		spoil(d)
		if got, want := built(d), canonical(d); !bytes.Equal(got, want) {
			t.Errorf("%s: the section is not the canonical one of the texts", name)
		}
	}
	// A parsed text on an unchanged function: the build is the file's.
	d, err := Parse("x", raw)
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.Expressions.Functions {
		s := d.Expressions.Functions[i].Text
		d.Expressions.Functions[i].ParsedText = &s
	}
	if out, err := d.Build(); err != nil || !bytes.Equal(out, raw) {
		t.Errorf("parsed texts equal to the texts: %v (same bytes %v)", err, bytes.Equal(out, raw))
	}
	// A changed function that does not compile is a problem at its text, on either path.
	d = edited()
	d.Expressions.Functions[1].Text = "nonsense ("
	var pe *ProblemsError
	if _, err := d.Build(); !errors.As(err, &pe) || len(pe.Problems) != 1 || pe.Problems[0].Path != "expressions.functions[1].text" || pe.Problems[0].Line != 1 {
		t.Errorf("a function that does not compile: %v", err)
	}
}

// editAsPage sets function k's text as the page does (edits.js setExpressionText): the
// function keeps its text as parsed at its first change, and drops it when set back to it.
func editAsPage(d *Document, k int, text string) {
	fn := &d.Expressions.Functions[k]
	if fn.ParsedText == nil {
		s := fn.Text
		fn.ParsedText = &s
	}
	fn.Text = text
	if *fn.ParsedText == text {
		fn.ParsedText = nil
	}
}

// throughJSON is d encoded and decoded, as the page sends it.
func throughJSON(t *testing.T, d *Document) *Document {
	t.Helper()
	e, err := Decode(d.Encode())
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// A function's parsed text travels in the document's JSON, empty as well, and the schema
// describes it: a string, present only when sent.
func TestFunctionParsedTextJSON(t *testing.T) {
	d, err := Parse("x", readCorpus(t, "synthetic/expressions_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(d.Encode(), []byte(`"parsedText"`)) {
		t.Fatal("a parse sends parsed texts")
	}
	empty, old := "", d.Expressions.Functions[0].Text
	d.Expressions.Functions[0].ParsedText = &old
	d.Expressions.Functions[1].ParsedText = &empty
	js := d.Encode()
	e := throughJSON(t, d)
	fs := e.Expressions.Functions
	if fs[0].ParsedText == nil || *fs[0].ParsedText != old || fs[1].ParsedText == nil || *fs[1].ParsedText != "" || fs[2].ParsedText != nil {
		t.Errorf("the parsed texts do not read back")
	}
	s := compileSchema(t)
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("the schema rejects parsed texts: %v", err)
	}
	bad := bytes.Replace(js, []byte(`"parsedText":""`), []byte(`"parsedText":1`), 1)
	if _, err := Decode(bad); err == nil {
		t.Error("the decoder accepts a parsed text that is a number")
	}
	if v, err = jsonschema.UnmarshalJSON(bytes.NewReader(bad)); err != nil {
		t.Fatal(err)
	}
	if s.Validate(v) == nil {
		t.Error("the schema accepts a parsed text that is a number")
	}
}

// textsHash is the hash layouts already given out hold: the murmur3 hash of what a hasher
// writes for the count and the texts, though it streams them.
func TestTextsHashStable(t *testing.T) {
	for _, texts := range [][]string{nil, {""}, {"a", ""}, {".input INT\n.output INT\nOut = In * 2\n", strings.Repeat("x = 1\n", 5000), "✓"}} {
		h := &hasher{}
		h.u(uint64(len(texts)))
		for _, s := range texts {
			h.s(s)
		}
		if got, want := textsHash(texts), h.sum(); got != want {
			t.Errorf("%d texts: %#x, want %#x", len(texts), got, want)
		}
	}
}
