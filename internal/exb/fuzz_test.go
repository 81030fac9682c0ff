package exb

import (
	"bytes"
	"strings"
	"testing"
)

// seedFiles returns the corpus for seeding a fuzz target (see corpus).
func seedFiles(f *testing.F) []corpusFile { return corpus(f) }

// FuzzParse: Read never panics, and whatever it accepts writes back to
// the same bytes and survives the listing round trip.
func FuzzParse(f *testing.F) {
	for _, cf := range seedFiles(f) {
		f.Add(cf.section)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Read(b)
		if err != nil {
			return
		}
		out, err := m.AppendBinary(nil)
		if err != nil {
			t.Fatalf("Read accepted what AppendBinary refuses: %v", err)
		}
		if !bytes.Equal(out, b) {
			t.Fatalf("AppendBinary wrote different bytes (first difference at %#x)", firstDiff(out, b))
		}
		// The text forms are linear in the section except where blocks
		// overlap; keep each execution fast.
		if len(b) > 16<<10 || m.expandedSize() > 20000 {
			return
		}
		text, err := m.Listing()
		if err != nil {
			// Long strings referenced by many instructions can take the text past its bound
			// (textLimit): refusing then is the bound at work (testdata 452780a805250f0b).
			if strings.Contains(err.Error(), "listing exceeds") {
				return
			}
			t.Fatalf("Listing: %v", err)
		}
		back, err := ParseListing(text)
		if err != nil {
			t.Fatalf("ParseListing of our own listing: %v\n%s", err, text)
		}
		if out, err := back.AppendBinary(nil); err != nil || !bytes.Equal(out, b) {
			t.Fatalf("listing round trip: %v\n%s", err, text)
		}
		if again, _ := back.Listing(); again != text {
			t.Fatalf("listing not stable")
		}
		for i := range m.Functions {
			if _, err := m.FunctionText(i); err != nil {
				t.Fatalf("FunctionText(%d): %v", i, err)
			}
		}
		// Compat fails where the reference tool's disassembler fails; when
		// it works, its text must assemble (or be refused) without panic.
		if c, err := m.Compat(); err == nil {
			if m2, err := FromCompat(c); err == nil {
				if _, err := m2.AppendBinary(nil); err != nil {
					t.Fatalf("FromCompat built an unwritable module: %v", err)
				}
			}
		}
		// Re-laying-out must keep every function's text.
		{
			texts := make([]string, len(m.Functions))
			for i := range texts {
				texts[i], _ = m.FunctionText(i)
			}
			if err := m.Canonicalize(); err == nil {
				for i := range texts {
					if got, _ := m.FunctionText(i); got != texts[i] {
						t.Fatalf("Canonicalize changed function %d:\n%s\n---\n%s", i, texts[i], got)
					}
				}
				if _, err := m.AppendBinary(nil); err != nil {
					t.Fatalf("Canonicalize built an unwritable module: %v", err)
				}
			}
		}
	})
}

// FuzzAssemble: the assemblers never panic, and what they accept
// disassembles to text that assembles to the same module again.
func FuzzAssemble(f *testing.F) {
	seen := map[string]bool{}
	for _, cf := range seedFiles(f) {
		m, err := Read(cf.section)
		if err != nil {
			continue
		}
		for i := range m.Functions {
			text, err := m.FunctionText(i)
			if err == nil && !seen[text] && len(seen) < 400 {
				seen[text] = true
				f.Add(uint8(m.Version), text)
			}
		}
		if len(cf.section) < 2048 {
			if text, err := m.Listing(); err == nil {
				f.Add(uint8(m.Version), text)
			}
		}
	}
	f.Add(uint8(2), ".input INT\n.output INT\n.setup\nSTR int GMem[0x0], int -7\nEND\n.main\nCFN int \"x\\ty\", GMem[0x0]\n.raw 0100000000000001\n")
	f.Add(uint8(2), ".input FLOAT\n.output FLOAT\n.main\nSTR float GMem[0x0], float param(2.0)\nGRT float GMem[0x0], float param(0.0)\nSTR bool GMem[0x4], bool param(True)\nSTR str LMem64[0x0], str param(\"x\")\nADD int GMem[0x8], int param(7)\nEND\n")
	for _, b := range gameSections(f) {
		if m, err := Read(b); err == nil {
			for i := range m.Functions {
				if text, err := m.FunctionText(i); err == nil && strings.Contains(text, "param(") {
					f.Add(uint8(m.Version), text)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, version uint8, text string) {
		v := uint32(version%3) + 1
		if strings.Contains(text, ".version") {
			m, err := ParseListing(text)
			if err != nil {
				return
			}
			b, err := m.AppendBinary(nil)
			if err != nil {
				t.Fatalf("ParseListing accepted what AppendBinary refuses: %v", err)
			}
			t2, err := m.Listing()
			if err != nil {
				t.Fatalf("Listing: %v", err)
			}
			m2, err := ParseListing(t2)
			if err != nil {
				t.Fatalf("our listing does not assemble: %v\n%s", err, t2)
			}
			if b2, _ := m2.AppendBinary(nil); !bytes.Equal(b, b2) {
				t.Fatalf("listing -> bytes not stable")
			}
			if t3, _ := m2.Listing(); t3 != t2 {
				t.Fatalf("listing not stable:\n%s\n---\n%s", t2, t3)
			}
			return
		}
		m := &Module{Version: v}
		if _, err := m.AppendFunction(text); err != nil {
			return
		}
		b, err := m.AppendBinary(nil)
		if err != nil {
			t.Fatalf("assembled module does not write: %v", err)
		}
		t2, err := m.FunctionText(0)
		if err != nil {
			t.Fatalf("FunctionText: %v", err)
		}
		m2 := &Module{Version: v}
		if _, err := m2.AppendFunction(t2); err != nil {
			t.Fatalf("our function text does not assemble: %v\n%s", err, t2)
		}
		if t3, _ := m2.FunctionText(0); t3 != t2 {
			t.Fatalf("function text not stable:\n%s\n---\n%s", t2, t3)
		}
		if b2, _ := m2.AppendBinary(nil); !bytes.Equal(b, b2) {
			t.Fatalf("function text -> bytes not stable")
		}
		m3, err := Read(b)
		if err != nil {
			t.Fatalf("written module does not parse: %v", err)
		}
		if t4, _ := m3.FunctionText(0); t4 != t2 {
			t.Fatalf("text changed through bytes:\n%s\n---\n%s", t2, t4)
		}
	})
}
