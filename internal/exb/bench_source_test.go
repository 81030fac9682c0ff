package exb

import "testing"

// BenchmarkDecompile decompiles every function of the corpus's largest section to readable
// code (each piece checked by compiling it).
func BenchmarkDecompile(b *testing.B) {
	f := largest(b)
	m, err := Read(f.section)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(f.section)))
	for b.Loop() {
		if _, err := m.FunctionSources(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompile compiles every function's readable code of the largest section and places
// it against the tables: the compiler without installing the result.
func BenchmarkCompile(b *testing.B) {
	f := largest(b)
	m, err := Read(f.section)
	if err != nil {
		b.Fatal(err)
	}
	texts, err := m.FunctionSources()
	if err != nil {
		b.Fatal(err)
	}
	c, err := m.newDecodeCtx()
	if err != nil {
		b.Fatal(err)
	}
	size := 0
	for _, t := range texts {
		size += len(t)
	}
	b.ReportAllocs()
	b.SetBytes(int64(size))
	for b.Loop() {
		ap := newAppender(m, c)
		for _, t := range texts {
			src, err := compileSource(t, m.Version, TypeNone, TypeNone)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := encodeBlock(src.main, src.mainPos, m.Version, ap); err != nil {
				b.Fatal(err)
			}
			if _, err := encodeBlock(src.setup, src.setupPos, m.Version, ap); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkSetFunctionSource is one editor edit: setting one function of the largest
// section to its text, which checks the whole section can still be written.
func BenchmarkSetFunctionSource(b *testing.B) {
	f := largest(b)
	m, err := Read(f.section)
	if err != nil {
		b.Fatal(err)
	}
	text, err := m.FunctionSource(0)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := m.SetFunctionSource(0, text); err != nil {
			b.Fatal(err)
		}
	}
}
