package byml

import (
	"os"
	"path/filepath"
	"testing"

	"ainbeditor/internal/testcorpus"
)

// largest returns the largest BYML file of the corpus (ActorInfo.product.byml, 1.9 MB).
func largest(b *testing.B) []byte {
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

func BenchmarkWritePreserve(b *testing.B) {
	doc, err := Read(largest(b))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(doc.layout.size))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := doc.Marshal(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteCanonical(b *testing.B) {
	doc, err := Read(largest(b))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(doc.layout.size))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := doc.MarshalCanonical(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkToYAML(b *testing.B) {
	doc, err := Read(largest(b))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(doc.layout.size))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := doc.ToYAML(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFromYAML(b *testing.B) {
	doc, err := Read(largest(b))
	if err != nil {
		b.Fatal(err)
	}
	text, err := doc.ToYAML()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FromYAML(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkToJSON(b *testing.B) {
	doc, err := Read(largest(b))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(doc.layout.size))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := doc.ToJSON(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFromJSON(b *testing.B) {
	doc, err := Read(largest(b))
	if err != nil {
		b.Fatal(err)
	}
	text, err := doc.ToJSON()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FromJSON(text); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkToYAMLv3 is the writer before yamltext (yaml.v3's encoder, large containers one
// member at a time), kept to compare with BenchmarkToYAML under the same load.
func BenchmarkToYAMLv3(b *testing.B) {
	doc, err := Read(largest(b))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(doc.layout.size))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := oracleYAML(doc.Root); err != nil {
			b.Fatal(err)
		}
	}
}
