package server

import (
	"path/filepath"
	"testing"

	"ainbeditor/internal/testcorpus"
)

// BenchmarkBuildZstd builds the largest corpus AINB file compressed with TotK's zs.zsdic,
// as saving an opened .ainb.zs does, next to the plain build.
func BenchmarkBuildZstd(b *testing.B) {
	data := corpusFile(b, "real/nodedefs_ai_v407.ainb")
	dictPath := filepath.Join(testcorpus.Dir(b), "zstd", "zs.zsdic")
	s := newTestServer(b, func(c *Config) {
		c.ZstdDicts = []string{dictPath}
		noRateLimits(c)
	})
	doc := parseOK(b, s, "x.ainb", data)
	for _, q := range []string{"", "?zstd=1"} {
		b.Run("query="+q, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			var n int
			for b.Loop() {
				rec := do(s, "POST", "/api/build"+q, "application/json", doc)
				if rec.Code != 200 {
					b.Fatalf("%d: %s", rec.Code, cut(rec.Body.Bytes()))
				}
				n = rec.Body.Len()
			}
			b.ReportMetric(float64(n), "out-bytes")
		})
	}
}
