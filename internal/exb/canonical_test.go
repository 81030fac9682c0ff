package exb

import "testing"

// canonicalSame is what CanonicalReproduces must answer: canonicalize a copy, write both.
func canonicalSame(m *Module) bool {
	again := *m
	again.Functions = append([]Function(nil), m.Functions...)
	if again.Canonicalize() != nil {
		return false
	}
	a, err1 := again.AppendBinary(nil)
	b, err2 := m.AppendBinary(nil)
	return err1 == nil && err2 == nil && string(a) == string(b)
}

func TestCanonicalReproduces(t *testing.T) {
	yes := 0
	for _, f := range corpus(t) {
		m, err := Read(f.section)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		before, _ := m.AppendBinary(nil)
		want := canonicalSame(m)
		if got := m.CanonicalReproduces(); got != want {
			t.Errorf("%s: CanonicalReproduces = %v, want %v", f.name, got, want)
		}
		if after, _ := m.AppendBinary(nil); string(after) != string(before) {
			t.Errorf("%s: CanonicalReproduces changed the module", f.name)
		}
		if want {
			yes++
		}
		// An unused string makes the pool longer than the canonical one.
		odd := *m
		odd.Strings.Strings = append(append([]string(nil), m.Strings.Strings...), "unused string")
		if _, err := odd.AppendBinary(nil); err == nil {
			if got, want := odd.CanonicalReproduces(), canonicalSame(&odd); got != want || got {
				t.Errorf("%s with an unused string: CanonicalReproduces = %v, want %v (false)", f.name, got, want)
			}
		}
		// A module that is canonical by construction.
		if m.Canonicalize() == nil && !m.CanonicalReproduces() {
			t.Errorf("%s: a canonicalized module does not reproduce itself", f.name)
		}
	}
	t.Logf("%d of %d corpus sections are canonical", yes, len(corpus(t)))
}

func BenchmarkCanonicalReproduces(b *testing.B) {
	m, err := Read(largest(b).section)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		m.CanonicalReproduces()
	}
}

// stringy is the corpus file graph's mid-size benchmarks use: 67 KB of non-ASCII strings.
const stringy = "random/random_s29_v407_n369"

func namedSection(b *testing.B, name string) []byte {
	for _, f := range corpus(b) {
		if f.name == name {
			return f.section
		}
	}
	b.Skipf("%s is not in the corpus", name)
	return nil
}

func BenchmarkAssembleFunctions(b *testing.B) { benchAssemble(b, largest(b).section) }
func BenchmarkAssembleStrings(b *testing.B)   { benchAssemble(b, namedSection(b, stringy)) }

func BenchmarkFunctionTextsStrings(b *testing.B) {
	m, err := Read(namedSection(b, stringy))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.FunctionTexts(); err != nil {
			b.Fatal(err)
		}
	}
}

func benchAssemble(b *testing.B, sec []byte) {
	m, err := Read(sec)
	if err != nil {
		b.Fatal(err)
	}
	texts, err := m.FunctionTexts()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AssembleFunctions(m.Version, texts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCanonicalizeAndWrite is the check CanonicalReproduces replaces, for comparison.
func BenchmarkCanonicalizeAndWrite(b *testing.B) {
	m, err := Read(largest(b).section)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		canonicalSame(m)
	}
}

func BenchmarkParseStrings(b *testing.B) {
	sec := namedSection(b, stringy)
	b.ReportAllocs()
	b.SetBytes(int64(len(sec)))
	for b.Loop() {
		if _, err := Read(sec); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQuoteStrings quotes the pool strings of the file with Japanese strings, as the
// decompiler quotes string literals.
func BenchmarkQuoteStrings(b *testing.B) {
	m, err := Read(namedSection(b, stringy))
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, s := range m.Strings.Strings {
		n += len(s)
	}
	b.SetBytes(int64(n))
	var out []byte
	for b.Loop() {
		out = out[:0]
		for _, s := range m.Strings.Strings {
			out = appendQuote(out, s)
		}
	}
}
