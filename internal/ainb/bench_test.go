package ainb

import "testing"

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
