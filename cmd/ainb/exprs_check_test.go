package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/exb"
	"ainbeditor/internal/testcorpus"
)

// A function whose readable text -check cannot make fails the module as "function N:
// reason", naming the first such function: here function 1 compares with one 20,000-byte
// string on 2,000 lines, more text than the module's budget allows.
func TestCheckExprsFunctionFailure(t *testing.T) {
	long := strings.Repeat("amplify ", 2500)
	var b strings.Builder
	b.WriteString(".input STRING\n.output BOOL\n.main\n")
	for j := range 2000 {
		b.WriteString("0x0000  EQL str GMem[0x0], str \"" + long[j%8:] + "\"\n")
	}
	b.WriteString("0x0000  END\n")
	m, err := exb.AssembleSources(3, []string{".input INT\n.output INT\nOut = In\n", b.String()})
	if err != nil {
		t.Fatal(err)
	}
	err = checkExprs(m)
	want := "function 1: the readable text exceeds 2883840 bytes, 16 times the module's size"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
	// Without function 1 the module passes.
	m2, err := exb.AssembleSources(3, []string{".input INT\n.output INT\nOut = In\n"})
	if err != nil {
		t.Fatal(err)
	}
	if err := checkExprs(m2); err != nil {
		t.Fatal(err)
	}
}

// The same through the command: a file whose function 1 cannot be shown fails with its
// number, the others pass, and the exit status is 1.
func TestExprsCheckFunctionFailureFile(t *testing.T) {
	src := filepath.Join(testcorpus.Dir(t), "ainb", "synthetic", "expressions_v407.ainb")
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ainb.Read(raw)
	if err != nil {
		t.Fatal(err)
	}
	texts, err := f.Expressions.FunctionSources()
	if err != nil {
		t.Fatal(err)
	}
	// Short enough for a function's text (exb.MaxTextSize), long enough that the text is
	// many times the module: 4,000 stores of 8 strings the pool holds once each.
	long := strings.Repeat("amplify ", 25)
	var b strings.Builder
	b.WriteString(texts[1][:strings.Index(texts[1], "\nLMem32")+1])
	for j := range 4000 {
		b.WriteString("LMem64[0x0] = \"" + long[j%8:] + "\"\n")
	}
	texts[1] = b.String()
	m, err := exb.AssembleSources(f.Expressions.Version, texts)
	if err != nil {
		t.Fatal(err)
	}
	m.Header.InstanceCount = f.Expressions.Header.InstanceCount
	f.Expressions = m
	out, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "amplified.ainb")
	if err := os.WriteFile(bad, out, 0o644); err != nil {
		t.Fatal(err)
	}
	got, _, code := runCLI(t, "exprs", "-check", src, bad)
	want := "ok " + src + "\nFAIL " + bad + ": function 1: the readable text exceeds "
	if code != 1 || !strings.HasPrefix(got, want) || !strings.HasSuffix(got, " bytes, 16 times the module's size\n") || strings.Count(got, "\n") != 2 {
		t.Fatalf("exit %d:\n%s\nwant\n%s... bytes, 16 times the module's size", code, got, want)
	}
}
