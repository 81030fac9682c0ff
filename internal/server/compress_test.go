package server

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"ainbeditor/internal/graph"
)

// BenchmarkCompress measures the document JSON of a mid-size and of the largest corpus file
// compressed at each candidate encoding and level: time per response and the size (the
// "bytes" metric), to choose what /api/parse and /api/layout use.
//
//	go test ./internal/server -run '^$' -bench Compress -benchmem -cpu 1
func BenchmarkCompress(b *testing.B) {
	for _, file := range []string{"random/random_s29_v407_n369.ainb", "real/nodedefs_ai_v407.ainb"} {
		d, err := graph.Parse("x.ainb", corpusFile(b, file))
		if err != nil {
			b.Fatal(err)
		}
		js := d.Encode()
		for _, c := range compressors() {
			b.Run(fmt.Sprintf("%s/%s", file[:6], c.name), func(b *testing.B) {
				var out bytes.Buffer
				w := c.make(&out)
				b.SetBytes(int64(len(js)))
				for b.Loop() {
					out.Reset()
					w.Reset(&out)
					w.Write(js)
					w.Close()
				}
				b.ReportMetric(float64(out.Len()), "bytes")
				b.ReportMetric(float64(len(js)), "json-bytes")
			})
		}
	}
}

type resetWriter interface {
	io.WriteCloser
	Reset(io.Writer)
}

func compressors() []struct {
	name string
	make func(io.Writer) resetWriter
} {
	type c = struct {
		name string
		make func(io.Writer) resetWriter
	}
	var out []c
	for _, l := range []int{1, 2, 3, 5, 6, 9} {
		out = append(out, c{fmt.Sprintf("gzip-%d", l), func(w io.Writer) resetWriter {
			g, _ := gzip.NewWriterLevel(w, l)
			return g
		}})
	}
	for _, l := range []zstd.EncoderLevel{zstd.SpeedFastest, zstd.SpeedDefault, zstd.SpeedBetterCompression} {
		out = append(out, c{"zstd-" + l.String(), func(w io.Writer) resetWriter {
			z, _ := zstd.NewWriter(w, zstd.WithEncoderLevel(l), zstd.WithEncoderConcurrency(1))
			return z
		}})
	}
	return out
}

// The parse and layout answers are compressed for clients that accept it: zstd first,
// gzip otherwise, and they decompress to the same document.
func TestCompressedResponses(t *testing.T) {
	s := newTestServer(t, nil)
	data := corpusFile(t, midFile)
	plain := parseOK(t, s, "x.ainb", data)
	for _, c := range []struct{ accept, encoding string }{
		{"gzip", "gzip"}, {"zstd", "zstd"}, {"gzip, deflate, br, zstd", "zstd"}, {"", ""}, {"br", ""},
	} {
		req := httptestRequest("POST", "/api/parse?name=x.ainb", "application/octet-stream", data)
		if c.accept != "" {
			req.Header.Set("Accept-Encoding", c.accept)
		}
		rec := serve(s, req)
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != c.encoding {
			t.Fatalf("Accept-Encoding %q: status %d, Content-Encoding %q, want %q", c.accept, rec.Code, rec.Header().Get("Content-Encoding"), c.encoding)
		}
		body := rec.Body.Bytes()
		switch c.encoding {
		case "gzip":
			r, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			body, err = io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
		case "zstd":
			r, err := zstd.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			body, err = io.ReadAll(r)
			r.Close()
			if err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(body, plain) {
			t.Fatalf("Accept-Encoding %q: the body is not the document", c.accept)
		}
		if c.encoding != "" && rec.Body.Len() > len(plain)/3 {
			t.Fatalf("Accept-Encoding %q: %d bytes for a %d-byte document", c.accept, rec.Body.Len(), len(plain))
		}
	}
}
