package aamp

import (
	"os"
	"testing"
)

// largest returns the biggest AAMP file of the corpus.
func largest(b *testing.B) []byte {
	b.Helper()
	var best string
	var size int64
	for _, p := range corpusFiles(b) {
		st, err := os.Stat(p)
		if err != nil {
			b.Fatal(err)
		}
		if st.Size() > size {
			best, size = p, st.Size()
		}
	}
	data, err := os.ReadFile(best)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%s, %d bytes", best, len(data))
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

// benchOut measures one way of writing out the largest corpus file.
func benchOut(b *testing.B, out func(*ParameterIO) ([]byte, error)) {
	data := largest(b)
	pio, err := Read(data)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := out(pio); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrite(b *testing.B)          { benchOut(b, (*ParameterIO).Bytes) }
func BenchmarkWriteCanonical(b *testing.B) { benchOut(b, (*ParameterIO).BytesCanonical) }
func BenchmarkToYAML(b *testing.B)         { benchOut(b, ToYAML) }
func BenchmarkToJSON(b *testing.B)         { benchOut(b, ToJSON) }

func BenchmarkFromYAML(b *testing.B) {
	pio, err := Read(largest(b))
	if err != nil {
		b.Fatal(err)
	}
	y, err := ToYAML(pio)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(y)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FromYAML(y); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkToYAMLv3 is the writer before yamltext (a yaml.Node tree through yaml.v3's
// encoder), kept to compare with BenchmarkToYAML under the same load.
func BenchmarkToYAMLv3(b *testing.B) { benchOut(b, oracleYAML) }

func BenchmarkFromJSON(b *testing.B) {
	pio, err := Read(largest(b))
	if err != nil {
		b.Fatal(err)
	}
	js, err := ToJSON(pio)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(js)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FromJSON(js); err != nil {
			b.Fatal(err)
		}
	}
}
