package byml

import (
	"os"
	"path/filepath"
	"testing"

	"ainbeditor/internal/jsontext"

	"ainbeditor/internal/testcorpus"
)

// largest returns the largest BYML file of the corpus (ActorInfo.product.byml, 1.9 MB).
func largest(b testing.TB) []byte {
	data, err := os.ReadFile(filepath.Join(testcorpus.Dir(b), "byml", "ActorInfo.product.byml"))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func BenchmarkRead(b *testing.B) {
	data := largest(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(data); err != nil {
			b.Fatal(err)
		}
	}
}

// benchOut measures one way of writing out the largest corpus document.
func benchOut(b *testing.B, out func(*Document) ([]byte, error)) {
	doc, err := Read(largest(b))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(doc.layout.size))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := out(doc); err != nil {
			b.Fatal(err)
		}
	}
}

// benchIn measures reading back a text form (made by text) of the largest corpus document.
func benchIn(b *testing.B, text func(*Document) ([]byte, error), read func([]byte) (*Document, error)) {
	doc, err := Read(largest(b))
	if err != nil {
		b.Fatal(err)
	}
	t, err := text(doc)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(t)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := read(t); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWritePreserve(b *testing.B)  { benchOut(b, (*Document).Bytes) }
func BenchmarkWriteCanonical(b *testing.B) { benchOut(b, (*Document).BytesCanonical) }
func BenchmarkToYAML(b *testing.B)         { benchOut(b, (*Document).ToYAML) }
func BenchmarkFromYAML(b *testing.B)       { benchIn(b, (*Document).ToYAML, FromYAML) }
func BenchmarkToJSON(b *testing.B)         { benchOut(b, (*Document).ToJSON) }
func BenchmarkFromJSON(b *testing.B)       { benchIn(b, (*Document).ToJSON, FromJSON) }

// BenchmarkToYAMLv3 is the writer before yamltext (yaml.v3's encoder, large containers one
// member at a time), kept to compare with BenchmarkToYAML under the same load.
func BenchmarkToYAMLv3(b *testing.B) {
	benchOut(b, func(d *Document) ([]byte, error) { return oracleYAML(d.Root) })
}

func BenchmarkCompact(b *testing.B) {
	b.Run("model", func(b *testing.B) {
		data := largest(b)
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			doc, err := Read(data)
			if err == nil {
				_, err = doc.AppendCompact(nil, jsontext.NoLimit)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("straight", func(b *testing.B) {
		data := largest(b)
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := AppendCompactFile(nil, data, jsontext.NoLimit); !ok {
				b.Fatal("not written straight")
			}
		}
	})
}
