package ainb

import (
	"os"
	"path/filepath"
	"testing"

	"ainbeditor/internal/testcorpus"
)

const benchFile = "real/nodedefs_ai_v407.ainb" // 2 MB, 7,130 elements

func BenchmarkRead(b *testing.B) {
	data := corpusFile(b, benchFile)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrite(b *testing.B) {
	data := corpusFile(b, benchFile)
	f, err := Read(data)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.Bytes(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadWrite(b *testing.B) {
	data := corpusFile(b, benchFile)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		f, err := Read(data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.Bytes(); err != nil {
			b.Fatal(err)
		}
	}
}

// The output buffer's size hint is never short (a short hint regrows the whole file) and,
// for files big enough for it to matter, at most 30 % long.
func TestSizeHint(t *testing.T) {
	for _, path := range testcorpus.AINB(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Read(data)
		if err != nil {
			t.Fatal(err)
		}
		if h := f.sizeHint(); h < len(data) || len(data) > 50_000 && h > len(data)*13/10 {
			t.Errorf("%s: hint %d for %d bytes", filepath.Base(path), h, len(data))
		}
	}
}
