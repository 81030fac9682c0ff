package yaz0

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/testalloc"
	"ainbeditor/internal/testcorpus"
)

func corpusFiles(tb testing.TB) []string {
	tb.Helper()
	m, err := filepath.Glob(filepath.Join(testcorpus.Dir(tb), "yaz0", "*"))
	if err != nil {
		tb.Fatal(err)
	}
	if len(m) != 3 {
		tb.Fatalf("corpus yaz0/ has %d files, want 3", len(m))
	}
	return m
}

// The decoded sizes and alignment fields of the corpus files, read from their headers by hand.
var corpusHeaders = map[string]Header{
	"0-0.shknm2":                            {Size: 0x44b0, Alignment: 0},
	"Demo344_1.sbeventpack":                 {Size: 0x2b74a4, Alignment: 0x100},
	"ResourceSizeTable.product.srsizetable": {Size: 0x809d4, Alignment: 0},
}

// Decoded content starts with the magic of the format inside.
var corpusMagic = map[string]string{
	"0-0.shknm2":                            "W\xe0\xe0W",
	"Demo344_1.sbeventpack":                 "SARC",
	"ResourceSizeTable.product.srsizetable": "RSTB",
}

func TestCorpusDecodeRoundTrip(t *testing.T) {
	for _, path := range corpusFiles(t) {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			h, dec, err := Decompress(src)
			if err != nil {
				t.Fatal(err)
			}
			if h != corpusHeaders[name] {
				t.Fatalf("header %+v, want %+v", h, corpusHeaders[name])
			}
			if len(dec) != int(h.Size) {
				t.Fatalf("decoded %d bytes, header says %d", len(dec), h.Size)
			}
			if !strings.HasPrefix(string(dec), corpusMagic[name]) {
				t.Fatalf("decoded data starts %q, want %q", dec[:4], corpusMagic[name])
			}
			enc, err := Compress(dec, h.Alignment)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(enc[:HeaderSize], src[:HeaderSize]) {
				t.Fatalf("re-encoded header % x, want % x", enc[:HeaderSize], src[:HeaderSize])
			}
			h2, dec2, err := Decompress(enc)
			if err != nil {
				t.Fatal(err)
			}
			if h2 != h || !bytes.Equal(dec2, dec) {
				t.Fatal("encode->decode changed the data")
			}
			// Not a requirement, a measurement: our size against Nintendo's.
			t.Logf("%s: decoded %d, Nintendo %d (%.4f), ours %d (%.4f), ours/Nintendo %.4f, identical %v",
				name, len(dec), len(src), float64(len(src))/float64(len(dec)),
				len(enc), float64(len(enc))/float64(len(dec)), float64(len(enc))/float64(len(src)),
				bytes.Equal(enc, src))
		})
	}
}

func TestRandomRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	gens := map[string]func(n int) []byte{
		"noise": func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			return b
		},
		"small-alphabet": func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = "ab"[r.IntN(2)]
			}
			return b
		},
		"zeros": func(n int) []byte { return make([]byte, n) },
		"copies": func(n int) []byte {
			// Repeats at distances around the window edge and lengths around 17/18 and 273.
			b := make([]byte, 0, n)
			for len(b) < n {
				if len(b) > 10 && r.IntN(2) == 0 {
					d := 1 + r.IntN(min(len(b), 4200))
					l := []int{2, 3, 17, 18, 19, 272, 273, 274, 600}[r.IntN(9)]
					for i := 0; i < l && len(b) < n; i++ {
						b = append(b, b[len(b)-d])
					}
				} else {
					b = append(b, byte(r.Uint32()))
				}
			}
			return b
		},
	}
	for name, gen := range gens {
		for _, n := range []int{0, 1, 2, 3, 8, 9, 17, 100, 4095, 4096, 4097, 70000} {
			src := gen(n)
			enc, err := Compress(src, 0x80)
			if err != nil {
				t.Fatal(err)
			}
			if max := HeaderSize + n + (n+7)/8; len(enc) > max {
				t.Errorf("%s/%d: encoded %d bytes, more than the all-literal %d", name, n, len(enc), max)
			}
			h, dec, err := Decompress(enc)
			if err != nil {
				t.Fatalf("%s/%d: %v", name, n, err)
			}
			if h.Alignment != 0x80 || !bytes.Equal(dec, src) {
				t.Fatalf("%s/%d: round trip differs", name, n)
			}
		}
	}
}

// A group of eight literal flags decodes the same whether or not eight bytes fit.
func TestLiteralGroups(t *testing.T) {
	for _, c := range []struct {
		size uint32
		in   string
		want string
	}{
		{5, "\xffabcde", "abcde"},
		{8, "\xffabcdefgh", "abcdefgh"},
		{10, "\xffabcdefgh\xc0ij", "abcdefghij"},
		{12, "\xffabcdefgh\x80i\x10\x01", "abcdefghihih"}, // then a 3-byte copy at distance 2
	} {
		_, dec, err := Decompress(append(hdr(c.size), c.in...))
		if err != nil || string(dec) != c.want {
			t.Errorf("%q: %q %v, want %q", c.in, dec, err, c.want)
		}
	}
}

func TestEncodeExact(t *testing.T) {
	// "abcabcabc": three literals, then one reference distance 3 length 6.
	enc, err := Compress([]byte("abcabcabc"), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []byte("Yaz0\x00\x00\x00\x09\x00\x00\x00\x00\x00\x00\x00\x00\xe0abc\x40\x02")
	if !bytes.Equal(enc, want) {
		t.Fatalf("got % x\nwant % x", enc, want)
	}
	// 300 zeros: literal, reference of 273 at distance 1 (3 bytes), then 26 at distance 1.
	enc, err = Compress(make([]byte, 300), 0)
	if err != nil {
		t.Fatal(err)
	}
	want = []byte("Yaz0\x00\x00\x01\x2c\x00\x00\x00\x00\x00\x00\x00\x00\x80\x00\x00\x00\xff\x00\x00\x08")
	if !bytes.Equal(enc, want) {
		t.Fatalf("got % x\nwant % x", enc, want)
	}
}

func hdr(size uint32) []byte {
	return []byte{'Y', 'a', 'z', '0', byte(size >> 24), byte(size >> 16), byte(size >> 8), byte(size), 0, 0, 0, 0, 0, 0, 0, 0}
}

func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		name string
		in   []byte
		want string
	}{
		{"short", []byte("Yaz0\x00"), "yaz0: at 0x5: the input ends inside the 16-byte header"},
		{"magic", []byte("Yaz1\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"), `yaz0: at 0x0: magic "Yaz1", want "Yaz0"`},
		{"huge header", append(hdr(0xFFFFFFFF), 0, 0, 0), "yaz0: at 0x4: header size 4294967295: decoded size impossible for input length (3 payload bytes decode to at most 264)"},
		{"no code byte", append(hdr(9), "\xffabcdefgh"...), "yaz0: at 0x19: input ends before code byte (decoded 8 of 9 bytes)"},
		{"no literal", append(hdr(1), 0x80), "yaz0: at 0x11: input ends inside literal (decoded 0 of 1 bytes)"},
		{"eight literals cut", append(hdr(8), "\xffabc"...), "yaz0: at 0x14: input ends inside literal (decoded 3 of 8 bytes)"},
		{"distance before start", append(hdr(4), 0x80, 'a', 0x10, 0x01), "yaz0: at 0x12: back-reference distance 2 before start of output (at output offset 1)"},
		{"length past end", append(hdr(4), 0x80, 'a', 0x20, 0x00), "yaz0: at 0x12: back-reference length 4 runs past decoded size 4 (at output offset 1)"},
		{"cut reference", append(hdr(40), 0x80, 'a', 0x00, 0x00), "yaz0: at 0x12: input ends inside back-reference (decoded 1 of 40 bytes)"},
	}
	for _, c := range cases {
		_, _, err := Decompress(c.in)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
		// The offset is the error's own, not only its text's.
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.HasPrefix(c.want, fmt.Sprintf("yaz0: at 0x%x: ", fe.Offset)) {
			t.Errorf("%s: %#v is not a FormatError at the offset the message names", c.name, err)
		}
	}
	_, _, err := Decompress(append(hdr(0xFFFFFFFF), 0, 0, 0))
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("huge header: %v does not wrap ErrTooLarge", err)
	}
}

// The densest possible stream decodes at exactly the bound MaxRatio is derived from.
func TestMaxRatioIsReachable(t *testing.T) {
	payload := []byte{0x80, 'x'} // literal, then seven 3-byte references
	for i := 0; i < 7; i++ {
		payload = append(payload, 0x00, 0x00, 0xff)
	}
	size := uint32(1 + 7*MaxMatch)
	_, dec, err := Decompress(append(hdr(size), payload...))
	if err != nil {
		t.Fatal(err)
	}
	if len(dec) != int(size) || float64(len(dec))/float64(len(payload)) > MaxRatio {
		t.Fatalf("decoded %d from %d payload bytes", len(dec), len(payload))
	}
	full := []byte{0x00}
	for i := 0; i < 8; i++ {
		full = append(full, 0x00, 0x00, 0xff)
	}
	// A full group of references needs one byte of history; with none it is an error, but
	// the size check itself admits 25*88 bytes.
	_, _, err = Decompress(append(hdr(8*MaxMatch), full...))
	if err == nil || strings.Contains(err.Error(), "impossible") {
		t.Fatalf("want a distance error, got %v", err)
	}
}

func FuzzYaz0Decompress(f *testing.F) {
	for _, path := range corpusFiles(f) {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		if len(src) > 4096 {
			src = src[:4096] // the head is enough to reach every path; the rest slows fuzzing
		}
		f.Add(src)
	}
	f.Add(append(hdr(4), 0x80, 'a', 0x20, 0x00))
	f.Add(append(hdr(300), 0x80, 0, 0, 0, 0xff, 0, 0, 8))
	f.Add(hdr(0))
	f.Fuzz(func(t *testing.T, src []byte) {
		var (
			h   Header
			dec []byte
			err error
		)
		n := testalloc.Bytes(func() { h, dec, err = Decompress(src) })
		// Bounded work: the decoder allocates the output and nothing else to speak of (the
		// corpus seeds: the declared size rounded to a size class, at most 1.1 times the input
		// beyond 16 KiB). A stream may rightly decode to MaxRatio times its size, so that is
		// the multiple on failure too: the output buffer is allocated before decoding.
		if n > MaxRatio*uint64(len(src))+16<<10 || err == nil && n > 2*uint64(len(dec))+16<<10 {
			t.Fatalf("decoding %d bytes (to %d, %v) allocated %d", len(src), len(dec), err, n)
		}
		if err != nil {
			return
		}
		if len(dec) != int(h.Size) {
			t.Fatalf("decoded %d bytes, header says %d", len(dec), h.Size)
		}
		if len(dec) > MaxRatio*len(src) {
			t.Fatalf("decoded %d bytes from %d: beyond %dx", len(dec), len(src), MaxRatio)
		}
		enc, err := Compress(dec, h.Alignment)
		if err != nil {
			t.Fatal(err)
		}
		_, dec2, err := Decompress(enc)
		if err != nil || !bytes.Equal(dec2, dec) {
			t.Fatalf("re-encode round trip failed: %v", err)
		}
	})
}

func largest(b *testing.B) []byte {
	src, err := os.ReadFile(filepath.Join(testcorpus.Dir(b), "yaz0", "Demo344_1.sbeventpack"))
	if err != nil {
		b.Fatal(err)
	}
	return src
}

func BenchmarkDecode(b *testing.B) {
	src := largest(b)
	h, _ := ParseHeader(src)
	b.SetBytes(int64(h.Size))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Decompress(src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	_, dec, err := Decompress(largest(b))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(dec)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compress(dec, 0x100); err != nil {
			b.Fatal(err)
		}
	}
}

// twoLetters is the costliest input known for the search: random bytes of a two-letter
// alphabet give every hash chain the whole window and matches that rarely reach the
// length that stops a search early.
func twoLetters(n int) []byte {
	r := rand.New(rand.NewPCG(3, 4))
	b := make([]byte, n)
	for i := range b {
		b[i] = "ab"[r.IntN(2)]
	}
	return b
}

// The search stays within its budget: past it the cheap search takes over, costing a
// bounded amount a byte, and the stream still decodes to the input.
func TestEncodeWorkBounded(t *testing.T) {
	src := twoLetters(2 << 20)
	enc, st, err := encode(context.Background(), src, 0)
	if err != nil {
		t.Fatal(err)
	}
	budget := workBudget(len(src))
	if st.fastFrom >= len(src) {
		t.Fatalf("the cheap search never took over (work %d, budget %d)", st.work, budget)
	}
	// One search may overshoot the budget by a chain of candidates of MaxMatch bytes each.
	overshoot := int64(chainLimit * (candidateCost + MaxMatch))
	// The cheap search: at most fastChainLimit candidates a search, measured at 8.6 units a
	// byte on this input.
	if limit := budget + overshoot + 16*int64(len(src)-st.fastFrom); st.work > limit {
		t.Errorf("work %d, want at most %d (budget %d, cheap from byte %d of %d)", st.work, limit, budget, st.fastFrom, len(src))
	}
	if st.read != len(src) {
		t.Errorf("read %d of %d bytes", st.read, len(src))
	}
	if _, dec, err := Decompress(enc); err != nil || !bytes.Equal(dec, src) {
		t.Fatalf("round trip differs: %v", err)
	}
}

// Game files are searched in full: their output is what the unbounded search gives (the
// 56 yaz0 files of the corpus and gamefiles were checked byte for byte against the
// encoder before the budget). The costliest takes 159 units a byte, inside workBase.
func TestEncodeGameFilesFullSearch(t *testing.T) {
	files := append(corpusFiles(t), testcorpus.GameFiles(t, "yaz0")...)
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		h, dec, err := Decompress(src)
		if err != nil {
			t.Fatal(err)
		}
		_, st, err := encode(context.Background(), dec, h.Alignment)
		if err != nil {
			t.Fatal(err)
		}
		if st.fastFrom != len(dec) || st.work > workBudget(len(dec))/2 {
			t.Errorf("%s: cheap search from byte %d of %d, work %d of a budget of %d: want a full search with half the budget to spare",
				filepath.Base(path), st.fastFrom, len(dec), st.work, workBudget(len(dec)))
		}
	}
}

// A cancelled context stops the encoder within checkEvery bytes and one chunk.
func TestEncodeContextCancelled(t *testing.T) {
	src := twoLetters(1 << 20)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, st, err := encode(ctx, src, 0)
	if !errors.Is(err, context.Canceled) || out != nil {
		t.Fatalf("got %d bytes, %v; want context.Canceled", len(out), err)
	}
	// The first look comes at the first chunk to start at or past checkEvery.
	if st.read < checkEvery || st.read > checkEvery+MaxMatch {
		t.Errorf("stopped after %d bytes, want %d to %d", st.read, checkEvery, checkEvery+MaxMatch)
	}
	if _, err := CompressContext(ctx, src, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("EncodeContext: %v", err)
	}
}

// BenchmarkEncodeTwoLetters is the crafted input's cost at the largest size a server takes
// (16 MiB uploads decompress to at most 64 MiB).
func BenchmarkEncodeTwoLetters(b *testing.B) {
	src := twoLetters(64 << 20)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compress(src, 0); err != nil {
			b.Fatal(err)
		}
	}
}
