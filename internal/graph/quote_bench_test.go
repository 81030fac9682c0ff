package graph

import (
	"testing"

	"ainbeditor/internal/jsontext"
)

// BenchmarkQuoteMidExpressions quotes the mid file's expression texts as the document encoder
// does: code that mixes ASCII with Japanese string literals, the costliest strings it quotes.
func BenchmarkQuoteMidExpressions(b *testing.B) {
	d := benchDoc(b, readCorpus(b, midFile))
	if d.Expressions == nil || len(d.Expressions.Functions) == 0 {
		b.Fatal("the mid file has no expressions")
	}
	n := 0
	for _, f := range d.Expressions.Functions {
		n += len(f.Text)
	}
	b.SetBytes(int64(n))
	var out []byte
	for b.Loop() {
		out = out[:0]
		for _, f := range d.Expressions.Functions {
			out = jsontext.AppendString(out, f.Text)
		}
	}
}
