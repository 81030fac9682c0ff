package graph

import (
	"syscall"
	"testing"
	"time"

	"ainbeditor/internal/ainb"
)

const (
	bigFile = "real/nodedefs_ai_v407.ainb"       // 2 MB, 7,130 nodes
	midFile = "random/random_s29_v407_n369.ainb" // about 210 KB
)

// benchParse measures what /api/parse does: read the binary, make the document, lay it out
// and encode it (no compression).
func benchParse(b *testing.B, name string) {
	data := readCorpus(b, name)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var reply []byte // the server keeps its document buffers from one parse to the next
	cpu := processCPU()
	for b.Loop() {
		d, err := Parse("x.ainb", data)
		if err != nil {
			b.Fatal(err)
		}
		reply = d.AppendJSON(reply[:0])
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(len(reply)), "json-bytes")
}

// processCPU is the CPU time the process has used, garbage collector included.
func processCPU() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// reportCPU reports the CPU time an operation took since start, all threads together. On a
// machine shared with other work it moves far less than ns/op, which counts the waits.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
}

// benchDoc is the document of a corpus file, parsed as the benchmarks parse it.
func benchDoc(b *testing.B, name string) *Document {
	b.Helper()
	d, err := Parse("x.ainb", readCorpus(b, name))
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// benchBuild measures what /api/build does: decode the JSON text (the body, as the server
// reads it) and write the binary.
func benchBuild(b *testing.B, name string) {
	js := string(benchDoc(b, name).Encode())
	b.SetBytes(int64(len(js)))
	b.ReportAllocs()
	var out []byte // the server keeps its output buffers from one build to the next
	cpu := processCPU()
	for b.Loop() {
		d, err := DecodeText(js)
		if err != nil {
			b.Fatal(err)
		}
		if out, err = d.BuildInto(out); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// benchRead measures the codec alone on the same file, the yardstick a parse is held to.
func benchRead(b *testing.B, name string) {
	data := readCorpus(b, name)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		if _, err := ainb.Read(data); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// benchBytes measures the codec's writer alone on the same file, the yardstick a build is
// held to.
func benchBytes(b *testing.B, name string) {
	f, err := ainb.Read(readCorpus(b, name))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		if _, err := f.Bytes(); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

func BenchmarkParseBig(b *testing.B) { benchParse(b, bigFile) }
func BenchmarkBuildBig(b *testing.B) { benchBuild(b, bigFile) }
func BenchmarkParseMid(b *testing.B) { benchParse(b, midFile) }
func BenchmarkBuildMid(b *testing.B) { benchBuild(b, midFile) }
func BenchmarkReadBig(b *testing.B)  { benchRead(b, bigFile) }
func BenchmarkBytesBig(b *testing.B) { benchBytes(b, bigFile) }
func BenchmarkReadMid(b *testing.B)  { benchRead(b, midFile) }
func BenchmarkBytesMid(b *testing.B) { benchBytes(b, midFile) }

// The steps on their own, for the big file.
func BenchmarkEncodeBig(b *testing.B) {
	d := benchDoc(b, bigFile)
	b.ReportAllocs()
	for b.Loop() {
		d.Encode()
	}
}

func BenchmarkDecodeBig(b *testing.B) {
	js := benchDoc(b, bigFile).Encode()
	b.SetBytes(int64(len(js)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(js); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeMid(b *testing.B) {
	js := benchDoc(b, midFile).Encode()
	b.SetBytes(int64(len(js)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(js); err != nil {
			b.Fatal(err)
		}
	}
}
