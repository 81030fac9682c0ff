package graph

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/jsontext"
	"ainbeditor/internal/testcorpus"
)

const (
	bigFile = "real/nodedefs_ai_v407.ainb"       // 2 MB, 7,130 nodes
	midFile = "random/random_s29_v407_n369.ainb" // about 210 KB
)

// benchParse measures what /api/parse does: read the binary, make the document, lay it out
// and encode it (no compression).
func benchParse(b *testing.B, data []byte) {
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
func benchDoc(b *testing.B, data []byte) *Document {
	b.Helper()
	d, err := Parse("x.ainb", data)
	if err != nil {
		b.Fatal(err)
	}
	return d
}

// benchBuild measures what /api/build does: decode the JSON text (the body, as the server
// reads it) and write the binary.
func benchBuild(b *testing.B, data []byte) {
	js := string(benchDoc(b, data).Encode())
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
func benchRead(b *testing.B, data []byte) {
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
func benchBytes(b *testing.B, data []byte) {
	f, err := ainb.Read(data)
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

func BenchmarkParseBig(b *testing.B) { benchParse(b, readCorpus(b, bigFile)) }
func BenchmarkBuildBig(b *testing.B) { benchBuild(b, readCorpus(b, bigFile)) }
func BenchmarkParseMid(b *testing.B) { benchParse(b, readCorpus(b, midFile)) }
func BenchmarkBuildMid(b *testing.B) { benchBuild(b, readCorpus(b, midFile)) }
func BenchmarkReadBig(b *testing.B)  { benchRead(b, readCorpus(b, bigFile)) }
func BenchmarkBytesBig(b *testing.B) { benchBytes(b, readCorpus(b, bigFile)) }
func BenchmarkReadMid(b *testing.B)  { benchRead(b, readCorpus(b, midFile)) }
func BenchmarkBytesMid(b *testing.B) { benchBytes(b, readCorpus(b, midFile)) }

// The largest game files, TotK's and SMBW's: what modders open, with the games' own string
// pools and expressions, where the fixtures above are a reference writer's.
const (
	gameTotK = "TotK__GanondorfMiasma_RangeKeepMove.actionseq.root.ainb__399d7261dc.ainb" // 96 KB
	gameSMBW = "SMBW__BlockMarioBrosItem.root.ainb__16ee2680f7.ainb"                      // 120 KB
	// The game file whose expressions cost the most against its read: 15 functions of
	// nested ifs in 29 KB.
	gameDrake = "TotK__Drake.sub.action.root.ainb__54d3d6e1cf.ainb"
)

func readGame(b *testing.B, name string) []byte {
	data, err := os.ReadFile(filepath.Join(testcorpus.GameDir(b, "ainb"), name))
	if err != nil {
		b.Fatal(err)
	}
	return data
}

func BenchmarkParseGameTotK(b *testing.B)  { benchParse(b, readGame(b, gameTotK)) }
func BenchmarkBuildGameTotK(b *testing.B)  { benchBuild(b, readGame(b, gameTotK)) }
func BenchmarkReadGameTotK(b *testing.B)   { benchRead(b, readGame(b, gameTotK)) }
func BenchmarkBytesGameTotK(b *testing.B)  { benchBytes(b, readGame(b, gameTotK)) }
func BenchmarkParseGameSMBW(b *testing.B)  { benchParse(b, readGame(b, gameSMBW)) }
func BenchmarkBuildGameSMBW(b *testing.B)  { benchBuild(b, readGame(b, gameSMBW)) }
func BenchmarkReadGameSMBW(b *testing.B)   { benchRead(b, readGame(b, gameSMBW)) }
func BenchmarkBytesGameSMBW(b *testing.B)  { benchBytes(b, readGame(b, gameSMBW)) }
func BenchmarkParseGameDrake(b *testing.B) { benchParse(b, readGame(b, gameDrake)) }
func BenchmarkBuildGameDrake(b *testing.B) { benchBuild(b, readGame(b, gameDrake)) }
func BenchmarkReadGameDrake(b *testing.B)  { benchRead(b, readGame(b, gameDrake)) }
func BenchmarkBytesGameDrake(b *testing.B) { benchBytes(b, readGame(b, gameDrake)) }

// The steps on their own, for the big file.
func BenchmarkEncodeBig(b *testing.B) {
	d := benchDoc(b, readCorpus(b, bigFile))
	b.ReportAllocs()
	for b.Loop() {
		d.Encode()
	}
}

func BenchmarkDecodeBig(b *testing.B) {
	js := benchDoc(b, readCorpus(b, bigFile)).Encode()
	b.SetBytes(int64(len(js)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(js); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeMid(b *testing.B) {
	js := benchDoc(b, readCorpus(b, midFile)).Encode()
	b.SetBytes(int64(len(js)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(js); err != nil {
			b.Fatal(err)
		}
	}
}

// The floors under the ratios above: work a parse or a build cannot skip, each on its own.
// A build reads the whole text with the one tokenizer every JSON reader shares (benchScan)
// and writes the file (benchBytes); a parse reads the file (benchRead), decompiles and
// checks every expression (benchExpressions) and writes the document (benchEncode).

// benchScan reads the document's JSON and keeps nothing: the tokenizer alone.
func benchScan(b *testing.B, data []byte) {
	js := benchDoc(b, data).Encode()
	b.SetBytes(int64(len(js)))
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		s := jsontext.NewScanner(js)
		if s.Skip(); s.Err != nil {
			b.Fatal(s.Err)
		}
	}
	reportCPU(b, cpu)
}

// benchExpressions decompiles the file's expressions and checks that the texts compile back
// to the very instructions, as a parse does.
func benchExpressions(b *testing.B, data []byte) {
	f, err := ainb.Read(data)
	if err != nil {
		b.Fatal(err)
	}
	if f.Expressions == nil {
		b.Fatal("the file has no expressions")
	}
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		if _, _, _, err := expressions(f.Expressions); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// benchEncode writes a parsed document's JSON into a kept buffer, as /api/parse does.
func benchEncode(b *testing.B, data []byte) {
	d := benchDoc(b, data)
	b.ReportAllocs()
	var out []byte
	cpu := processCPU()
	for b.Loop() {
		out = d.AppendJSON(out[:0])
	}
	reportCPU(b, cpu)
	b.SetBytes(int64(len(out)))
}

func BenchmarkScanMid(b *testing.B)              { benchScan(b, readCorpus(b, midFile)) }
func BenchmarkScanGameTotK(b *testing.B)         { benchScan(b, readGame(b, gameTotK)) }
func BenchmarkScanGameSMBW(b *testing.B)         { benchScan(b, readGame(b, gameSMBW)) }
func BenchmarkExpressionsMid(b *testing.B)       { benchExpressions(b, readCorpus(b, midFile)) }
func BenchmarkExpressionsGameTotK(b *testing.B)  { benchExpressions(b, readGame(b, gameTotK)) }
func BenchmarkExpressionsGameDrake(b *testing.B) { benchExpressions(b, readGame(b, gameDrake)) }
func BenchmarkEncodeMid(b *testing.B)            { benchEncode(b, readCorpus(b, midFile)) }
func BenchmarkEncodeGameTotK(b *testing.B)       { benchEncode(b, readGame(b, gameTotK)) }
