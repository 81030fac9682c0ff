package exb

import "testing"

// largest returns the biggest EXB section of the corpus.
func largest(b *testing.B) corpusFile {
	var best corpusFile
	for _, f := range corpus(b) {
		if len(f.section) > len(best.section) {
			best = f
		}
	}
	return best
}

func BenchmarkParse(b *testing.B) {
	f := largest(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(f.section)))
	for b.Loop() {
		if _, err := Read(f.section); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrite(b *testing.B) {
	f := largest(b)
	m, err := Read(f.section)
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, len(f.section))
	b.ReportAllocs()
	b.SetBytes(int64(len(f.section)))
	for b.Loop() {
		if buf, err = m.AppendBinary(buf[:0]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFunctionTexts measures what parsing a document spends on expressions: the text of
// every function of the largest section.
func BenchmarkFunctionTexts(b *testing.B) {
	m, err := Read(largest(b).section)
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
