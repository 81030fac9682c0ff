package exb_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/exb"
	"ainbeditor/internal/testcorpus"
)

// gameModules reads the expression section of every game AINB file that has one. Files the
// AINB reader refuses are the codec's own tests' concern (ainb's TestGameFilesRoundTrip).
func gameModules(t *testing.T) (names []string, mods []*exb.Module) {
	t.Helper()
	for _, p := range testcorpus.GameFiles(t, "ainb") {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ainb.Read(b)
		if err != nil || f.Expressions == nil {
			continue
		}
		names, mods = append(names, filepath.Base(p)), append(mods, f.Expressions)
	}
	if len(mods) == 0 {
		t.Fatal("no game file has an expression section")
	}
	return names, mods
}

// Every instruction of every expression of the games' own files can be written as code or
// as a listing line: no .raw anywhere. The games keep whole floats (0.0, 2.0, 90.0) in the
// param table 157 times, where the value rule would store them in the instruction; those
// were .raw and blocked every re-layout of their module. Canonicalize, which re-lays-out
// every function, then keeps what each function's text says: the same texts, memory lines
// aside (it recomputes the sizes, which a .memory line records when the file's differ).
func TestGameFilesNoRaw(t *testing.T) {
	names, mods := gameModules(t)
	params := 0
	for k, m := range mods {
		texts, err := m.FunctionSources()
		if err != nil {
			t.Errorf("%s: %v", names[k], err)
			continue
		}
		for i, text := range texts {
			if strings.Contains(text, ".raw") || strings.Contains(text, "asm {") {
				t.Errorf("%s: function %d falls back to the listing:\n%s", names[k], i, text)
			}
			params += strings.Count(text, "param(")
		}
		listing, err := m.Listing()
		if err != nil {
			t.Errorf("%s: Listing: %v", names[k], err)
			continue
		}
		if strings.Contains(listing, ".raw") {
			t.Errorf("%s: the listing has .raw lines", names[k])
		}
		back, err := exb.ParseListing(listing)
		if err != nil {
			t.Errorf("%s: ParseListing: %v", names[k], err)
			continue
		}
		a, _ := m.AppendBinary(nil)
		if b, err := back.AppendBinary(nil); err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s: bytes -> listing -> bytes differs (%v)", names[k], err)
		}
		c := *m
		if err := c.Canonicalize(); err != nil {
			t.Errorf("%s: Canonicalize: %v", names[k], err)
			continue
		}
		again, err := c.FunctionSources()
		if err != nil {
			t.Errorf("%s: after Canonicalize: %v", names[k], err)
			continue
		}
		for i := range texts {
			if dropMemory(again[i]) != dropMemory(texts[i]) {
				t.Errorf("%s: function %d reads after Canonicalize as\n%s\nwas\n%s", names[k], i, again[i], texts[i])
			}
		}
	}
	// One param( ) for each of the 157 instructions (no two functions share a block).
	if params != 157 {
		t.Errorf("the game's texts write param( ) %d times, want 157: one for each instruction whose whole float the game keeps in the param table", params)
	}
}

// dropMemory removes a function text's .memory line.
func dropMemory(text string) string {
	lines := strings.SplitAfter(text, "\n")
	out := lines[:0]
	for _, l := range lines {
		if !strings.HasPrefix(l, ".memory ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}
