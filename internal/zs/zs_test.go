package zs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"

	"ainbeditor/internal/sarc"
	"ainbeditor/internal/testalloc"
	"ainbeditor/internal/testcorpus"
)

func read(tb testing.TB, rel string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(testcorpus.Dir(tb), rel))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

var (
	codecOnce sync.Once
	codec     *Codec
	codecErr  error
)

func loadCodec(tb testing.TB) *Codec {
	tb.Helper()
	zsdic := read(tb, "zstd/ZsDic.pack.zs")
	codecOnce.Do(func() { codec, codecErr = LoadZsDic(zsdic) })
	if codecErr != nil {
		tb.Fatal(codecErr)
	}
	return codec
}

func TestZsDicHoldsTheCorpusDictionaries(t *testing.T) {
	c := loadCodec(t)
	d := c.Dicts()
	if len(d) != 3 {
		t.Fatalf("%d dictionaries, want 3", len(d))
	}
	for id, name := range DictNames {
		if d[id].Name != name || d[id].ID != id {
			t.Errorf("dictionary %d: %+v", id, d[id].Name)
		}
		if !bytes.Equal(d[id].Data, read(t, "zstd/"+name)) {
			t.Errorf("%s in ZsDic.pack.zs differs from the corpus file", name)
		}
	}
	// ZsDic.pack.zs itself: a dictionary-less frame around a 3-file SARC.
	src := read(t, "zstd/ZsDic.pack.zs")
	if id, err := FrameDictID(src); err != nil || id != 0 {
		t.Fatalf("ZsDic.pack.zs frame dictionary %d, %v", id, err)
	}
	raw, err := c.Decompress(src, MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	a, err := sarc.Read(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Files) != 3 {
		t.Fatalf("ZsDic SARC has %d files", len(a.Files))
	}
	out, err := a.Bytes()
	if err != nil || !bytes.Equal(out, raw) {
		t.Fatalf("ZsDic SARC does not rewrite identically: %v", err)
	}
	enc, err := encodeAs(c, ZsDicName, raw)
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := FrameDictID(enc); id != 0 {
		t.Fatalf("re-encoded ZsDic.pack.zs uses dictionary %d", id)
	}
}

func TestDictFor(t *testing.T) {
	cases := map[string]uint32{
		"Pack/Actor/Armor_006_Upper.pack.zs": DictPack,
		"Banc/MainField/X.bcett.byml.zs":     DictBcettByml,
		"RSDB/Tag.Product.100.rstbl.byml.zs": DictZs,
		"Mals/USen.Product.100.sarc.zs":      DictZs,
		"Pack/ZsDic.pack.zs":                 0,
		`C:\game\Pack\ZsDic.pack.zs`:         0,
		"Other/ZsDic.pack.zs.bak.zs":         DictZs,
		"AI/x.pack.zs.zs":                    DictZs,
	}
	for name, want := range cases {
		if id, ok := DictFor(name); !ok || id != want {
			t.Errorf("%s: dictionary %d %v, want %d", name, id, ok, want)
		}
	}
	if _, ok := DictFor("Actor/x.pack"); ok {
		t.Error("a name without .zs got a dictionary")
	}
}

func TestPacksRoundTrip(t *testing.T) {
	c := loadCodec(t)
	want := map[string]int{"Accessory_Battery.pack.zs": 0x1aeb0, "Armor_006_Upper.pack.zs": 0xb9b4}
	for name, size := range want {
		t.Run(name, func(t *testing.T) {
			src := read(t, "sarc/"+name)
			if id, err := FrameDictID(src); err != nil || id != DictPack {
				t.Fatalf("frame dictionary %d, %v; want 3", id, err)
			}
			raw, err := c.Decompress(src, MaxSize)
			if err != nil {
				t.Fatal(err)
			}
			if len(raw) != size || string(raw[:4]) != "SARC" {
				t.Fatalf("decoded %d bytes starting %q, want %d starting SARC", len(raw), raw[:4], size)
			}
			a, err := sarc.Read(raw)
			if err != nil {
				t.Fatal(err)
			}
			w, err := a.Bytes()
			if err != nil || !bytes.Equal(w, raw) {
				t.Fatalf("SARC inside does not rewrite identically: %v", err)
			}
			enc, err := encodeAs(c, name, raw)
			if err != nil {
				t.Fatal(err)
			}
			if id, _ := FrameDictID(enc); id != DictPack {
				t.Fatalf("re-encoded with dictionary %d, want 3", id)
			}
			back, err := c.Decompress(enc, MaxSize)
			if err != nil || !bytes.Equal(back, raw) {
				t.Fatalf("re-encoded frame does not decode back: %v", err)
			}
			// Without the dictionary the reference decoder must fail: it really was used.
			plain, _ := zstd.NewReader(nil)
			defer plain.Close()
			if _, err := plain.DecodeAll(enc, nil); err == nil {
				t.Fatal("frame decodes without its dictionary")
			}
			t.Logf("%s: Nintendo %d bytes, ours %d (%.3f)", name, len(src), len(enc), float64(len(enc))/float64(len(src)))
		})
	}
}

func TestEncodePicksDictionary(t *testing.T) {
	c := loadCodec(t)
	data := bytes.Repeat([]byte("YB\x07\x00 some byml-ish text "), 20)
	for name, want := range map[string]uint32{"a.bcett.byml.zs": DictBcettByml, "b.byml.zs": DictZs, "c.pack.zs": DictPack} {
		enc, err := encodeAs(c, name, data)
		if err != nil {
			t.Fatal(err)
		}
		if id, _ := FrameDictID(enc); id != want {
			t.Errorf("%s: dictionary %d, want %d", name, id, want)
		}
		back, err := c.Decompress(enc, MaxSize)
		if err != nil || !bytes.Equal(back, data) {
			t.Errorf("%s: round trip failed: %v", name, err)
		}
	}
}

func TestMissingDictionary(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Decompress(read(t, "sarc/Armor_006_Upper.pack.zs"), MaxSize)
	var de *DictionaryError
	if !errors.As(err, &de) || de.ID != DictPack || !errors.Is(err, ErrMissingDict) || err.Error() != "zstd frame needs dictionary 3 (TotK's pack.zsdic)" {
		t.Fatalf("error %v", err)
	}
	_, err = encodeAs(c, "x.bcett.byml.zs", []byte("data"))
	if !errors.As(err, &de) || de.ID != DictBcettByml {
		t.Fatalf("error %v", err)
	}
	// A single dictionary loaded from its own file is enough for its frames.
	d, err := ParseDict("pack.zsdic", read(t, "zstd/pack.zsdic"))
	if err != nil || d.ID != DictPack {
		t.Fatalf("%+v %v", d.ID, err)
	}
	one, err := New(d)
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	if _, err := one.Decompress(read(t, "sarc/Armor_006_Upper.pack.zs"), MaxSize); err != nil {
		t.Fatal(err)
	}
}

// zstdFrame hand-builds a frame: header with the given descriptor fields, then blocks.
func rawBlockFrame(fcs uint32, content []byte, last bool) []byte {
	f := []byte{0x28, 0xb5, 0x2f, 0xfd, 0xa0} // FCS 4 bytes, single segment, no dictionary
	f = append(f, byte(fcs), byte(fcs>>8), byte(fcs>>16), byte(fcs>>24))
	hdr := uint32(len(content)) << 3 // raw block
	if last {
		hdr |= 1
	}
	f = append(f, byte(hdr), byte(hdr>>8), byte(hdr>>16))
	return append(f, content...)
}

func TestDecodeBounds(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// A declared size beyond what the blocks hold is refused before anything is allocated.
	big := rawBlockFrame(1<<30, []byte("x"), true)
	var err2 error
	if n := testalloc.Bytes(func() { _, err2 = c.Decompress(big, MaxSize) }); n > 4<<10 {
		t.Errorf("refusing the frame allocated %d bytes", n)
	}
	var fe *FormatError
	if !errors.As(err2, &fe) || fe.Offset != 0 || err2.Error() != "not a valid zstd file: the frame header at byte 0 declares 1073741824 bytes of content, more than its blocks can hold (1)" {
		t.Fatalf("error %v", err2)
	}
	// A declared size the blocks could hold, past the caller's budget.
	var le *LimitError
	if _, err := c.Decompress(rawBlockFrame(3, []byte("xyz"), true), 2); !errors.As(err, &le) || le.Limit != 2 || err.Error() != "the file decompresses to more than 2 bytes, the limit" {
		t.Fatalf("error %v", err)
	}
	// A declared size smaller than the content: the decoder stops at the declaration.
	if _, err := c.Decompress(rawBlockFrame(2, []byte("xyz"), true), MaxSize); err == nil {
		t.Fatal("content past the declared size accepted")
	}
	// A well-formed tiny frame.
	out, err := c.Decompress(rawBlockFrame(3, []byte("xyz"), true), MaxSize)
	if err != nil || string(out) != "xyz" {
		t.Fatalf("%q %v", out, err)
	}
	// An RLE block without a content size: 4 input bytes give 100000 output bytes, as this
	// package's encoder writes a run. It decodes, within any budget that holds it.
	noFCS := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58} // window descriptor: 2^(10+11) bytes
	h := uint32(100000)<<3 | 1<<1 | 1                   // last block, type RLE
	noFCS = append(noFCS, byte(h), byte(h>>8), byte(h>>16), 'z')
	if out, err := c.Decompress(noFCS, MaxSize); err != nil || !bytes.Equal(out, bytes.Repeat([]byte("z"), 100000)) {
		t.Fatalf("%d bytes, %v; want 100000 z", len(out), err)
	}
	if _, err := c.Decompress(noFCS, 99999); err == nil || err.Error() != "the file decompresses to more than 99999 bytes, the limit" {
		t.Fatalf("past the caller's budget: %v", err)
	}
	h = uint32(1000)<<3 | 1<<1 | 1
	ok := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, byte(h), byte(h >> 8), byte(h >> 16), 'z'}
	if out, err := c.Decompress(ok, MaxSize); err != nil || len(out) != 1000 {
		t.Fatalf("%d bytes, %v", len(out), err)
	}
	if _, err := c.Decompress([]byte("Yaz0"), MaxSize); err == nil || err.Error() != "not a valid zstd file: the frame header at byte 0 is damaged (invalid input: magic number mismatch)" {
		t.Fatalf("error %v", err)
	}
}

// A file resaved by a third-party tool: no content size, a 4 MiB window and 7,723 input
// bytes, whose 1.97 MB output limit is below the window. The window is no output size: it
// decodes (to a 23,044-byte BYML), with the window and the output as all it allocates.
func TestResavedWithoutContentSize(t *testing.T) {
	c := loadCodec(t)
	src := read(t, "byml/totk-resaved/A-4_Static.bcett.byml.zs")
	var h zstd.Header
	if err := h.Decode(src); err != nil || h.HasFCS || h.WindowSize != 4<<20 || h.DictionaryID != DictBcettByml {
		t.Fatalf("header %+v, %v; want no content size, a 4 MiB window, dictionary 2", h, err)
	}
	if b, err := Bound(src); err != nil || b >= h.WindowSize {
		t.Fatalf("the file no longer shows the defect: its blocks hold at most %d bytes (%v), window %d", b, err, h.WindowSize)
	}
	var (
		out []byte
		err error
	)
	n := testalloc.Bytes(func() { out, err = c.Decompress(src, MaxSize) })
	if err != nil || len(out) != 23044 || string(out[:4]) != "YB\x02\x00" {
		t.Fatalf("%d bytes starting %q, %v; want a 23,044-byte BYML v2", len(out), out[:min(4, len(out))], err)
	}
	if n > h.WindowSize+1<<20 { // the window, two blocks and the output (4.7 MB)
		t.Fatalf("decoding allocated %d bytes", n)
	}
	// Every other corpus .zs file decodes too, whichever way it was written.
	for _, rel := range []string{"byml/totk-resaved/Armor_006_Upper.pack.zs", "byml/totk-resaved/Tag.Product.120.rstbl.byml.zs"} {
		if _, err := c.Decompress(read(t, rel), MaxSize); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
	}
}

// noSizeFrame is a frame without content size, with a 2^log window, of n RLE blocks of size
// bytes each.
func noSizeFrame(log byte, n, size int) []byte {
	f := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, (log - 10) << 3}
	for i := range n {
		h := uint32(size)<<3 | 1<<1
		if i == n-1 {
			h |= 1
		}
		f = append(f, byte(h), byte(h>>8), byte(h>>16), 'z')
	}
	return f
}

// A hostile frame without content size that decodes past its budget: 1,000 RLE blocks of
// 128 KiB (128 MB) from 4,006 bytes. Decoding within a 1 MB budget stops just past it, with
// a clear error, having allocated the window and about the budget, not the 128 MB. (The
// budget is below 1 MiB so that the output buffer, which doubles, stops at 1 MiB.)
func TestNoSizeFramePastLimit(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	src := noSizeFrame(22, 1000, 128<<10)
	if b, err := Bound(src); err != nil || b != 1000*128<<10 {
		t.Fatalf("bound %d, %v; want 131072000", b, err)
	}
	const limit = 1000000
	n := testalloc.Bytes(func() { _, err = c.Decompress(src, limit) })
	if want := "the file decompresses to more than 1000000 bytes, the limit"; err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
	// The window (the decoder may hold it twice over), blocks and the output buffer: 6.7 MB
	// in a plain run, 8.8 MB under the race detector; the frame would make 128 MB.
	if n > 2*(4<<20)+4*limit {
		t.Fatalf("decoding allocated %d bytes", n)
	}
	// The same frame within a caller's smaller limit, and a small one within it.
	if _, err := c.Decompress(noSizeFrame(22, 2, 1000), 1999); err == nil || err.Error() != "the file decompresses to more than 1999 bytes, the limit" {
		t.Fatalf("a caller's limit: %v", err)
	}
	if out, err := c.Decompress(noSizeFrame(22, 2, 1000), 2000); err != nil || len(out) != 2000 {
		t.Fatalf("%d bytes, %v", len(out), err)
	}
	// A window past MaxWindow is refused before any is allocated.
	src = noSizeFrame(24, 1, 10)
	var le *LimitError
	if _, err := c.Decompress(src, MaxSize); !errors.As(err, &le) || le.Window != 16<<20 {
		t.Fatalf("16 MiB window: %v", err)
	}
}

func FuzzZsDecode(f *testing.F) {
	c := loadCodec(f)
	for _, rel := range []string{"zstd/ZsDic.pack.zs", "sarc/Accessory_Battery.pack.zs", "sarc/Armor_006_Upper.pack.zs",
		"byml/totk-resaved/A-4_Static.bcett.byml.zs"} { // the last without content size
		f.Add(read(f, rel))
	}
	f.Add(rawBlockFrame(3, []byte("xyz"), true))
	f.Add([]byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x41, 0x1f, 0x00, 'z'})
	small, _ := encodeAs(c, "x.bcett.byml.zs", []byte("a small bcett byml"))
	f.Add(small)
	f.Fuzz(func(t *testing.T, src []byte) {
		var (
			out []byte
			err error
		)
		// A budget as the server's and the command's callers give (a fixed one keeps each
		// run small: a valid 4 KB frame may rightly decode to 128 MB).
		const limit = 8 << 20
		blocks, berr := Bound(src)
		n := testalloc.Bytes(func() { out, err = c.Decompress(src, limit) })
		// Bounded work. What Decode allocates is the output, about 200 KB of decoder tables,
		// and for a frame without content size the stream decoder's window (once per codec,
		// at most MaxWindow and two blocks) and a growing buffer (at most 4 times what it
		// holds). The corpus seeds need at most 1.6 times their output (ZsDic.pack.zs: 605 KB
		// for 393 KB) beyond the window; a frame may rightly decode to the smaller of the
		// limit and what its blocks hold, so a failure may cost 4 times that, and a success 4
		// times its output.
		bound := MaxWindow + 1<<20 + 4*min(limit, blocks)
		if err == nil {
			bound = MaxWindow + 1<<20 + 4*uint64(len(out))
		}
		if n > bound {
			t.Fatalf("decoding %d bytes (to %d, %v) allocated %d", len(src), len(out), err, n)
		}
		if err != nil {
			return
		}
		if berr != nil {
			t.Fatalf("decoded, but Bound says %v", berr)
		}
		if uint64(len(out)) > min(limit, blocks) {
			t.Fatalf("decoded %d bytes from %d: beyond the limit %d or the blocks' %d", len(out), len(src), limit, blocks)
		}
	})
}

func benchPack(b *testing.B, name string) (*Codec, []byte, []byte) {
	c := loadCodec(b)
	src := read(b, "sarc/"+name)
	raw, err := c.Decompress(src, MaxSize)
	if err != nil {
		b.Fatal(err)
	}
	return c, src, raw
}

func BenchmarkDecode(b *testing.B) {
	for _, name := range []string{"Accessory_Battery.pack.zs", "Armor_006_Upper.pack.zs"} {
		b.Run(name, func(b *testing.B) {
			c, src, raw := benchPack(b, name)
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Decompress(src, MaxSize); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEncode(b *testing.B) {
	for _, name := range []string{"Accessory_Battery.pack.zs", "Armor_006_Upper.pack.zs"} {
		b.Run(name, func(b *testing.B) {
			c, _, raw := benchPack(b, name)
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := encodeAs(c, name, raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Every file of the corpus's zstd/ folder reads: the loose dictionaries parse with the id
// their name stands for, and a codec made from them alone decodes both packs.
func TestCorpusZstdFolder(t *testing.T) {
	all, err := filepath.Glob(filepath.Join(testcorpus.Dir(t), "zstd", "*"))
	if err != nil || len(all) != 4 {
		t.Fatalf("zstd/ holds %d files, want 4 (%v)", len(all), err)
	}
	var dicts []Dict
	for id, name := range DictNames {
		d, err := ParseDict(name, read(t, "zstd/"+name))
		if err != nil {
			t.Fatal(err)
		}
		if d.ID != id {
			t.Errorf("%s: id %d, want %d", name, d.ID, id)
		}
		dicts = append(dicts, d)
	}
	c, err := New(dicts...)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, rel := range []string{"sarc/Accessory_Battery.pack.zs", "sarc/Armor_006_Upper.pack.zs", "zstd/ZsDic.pack.zs"} {
		if _, err := c.Decompress(read(t, rel), MaxSize); err != nil {
			t.Errorf("%s: %v", rel, err)
		}
	}
	if _, err := ParseDict("x", []byte("not a dictionary")); err == nil || err.Error() != "zs: dictionary x: no zstd dictionary magic at 0x0" {
		t.Errorf("bad dictionary: %v", err)
	}
}

// One codec serves concurrent callers (the editor decodes and encodes from several requests).
func TestConcurrentUse(t *testing.T) {
	c := loadCodec(t)
	src := read(t, "sarc/Armor_006_Upper.pack.zs")
	want, err := c.Decompress(src, MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	noFCS := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x43, 0x1f, 0x00, 'z'} // 1000 x 'z', streamed
	inGoroutines(t, 4, 3, func(int) error {
		out, err := c.Decompress(src, MaxSize)
		if err == nil && !bytes.Equal(out, want) {
			err = errors.New("decode differs")
		}
		if err == nil {
			var enc []byte
			if enc, err = encodeAs(c, "a.pack.zs", want[:4096]); err == nil {
				out, err = c.Decompress(enc, MaxSize)
				if err == nil && !bytes.Equal(out, want[:4096]) {
					err = errors.New("round trip differs")
				}
			}
		}
		if err == nil {
			if out, err = c.Decompress(noFCS, MaxSize); err == nil && len(out) != 1000 {
				err = errors.New("stream decode differs")
			}
		}
		return err
	})
}

// inGoroutines runs step rounds times over in each of n goroutines at once; the test fails
// with the error each goroutine stopped at, if any.
func inGoroutines(t *testing.T, n, rounds int, step func(round int) error) {
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < rounds; j++ {
				if err := step(j); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// The server's level keeps several compressors per dictionary and reuses them: whichever a
// save gets, and whatever it compressed before, the bytes are those of a first save alone.
func TestPooledCompressorsAgree(t *testing.T) {
	c := loadCodec(t)
	raw, err := c.Decompress(read(t, "sarc/Armor_006_Upper.pack.zs"), MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	other, err := c.Decompress(read(t, "sarc/Accessory_Battery.pack.zs"), MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	want, err := c.Compress(DictPack, raw, Fast)
	if err != nil {
		t.Fatal(err)
	}
	inGoroutines(t, 4, 3, func(j int) error {
		if _, err := c.Compress(DictPack, other, Fast); err != nil {
			return err
		}
		got, err := c.Compress(DictPack, raw, Fast)
		if err == nil && !bytes.Equal(got, want) {
			err = fmt.Errorf("save %d of a goroutine: %d bytes differ from the first save's %d", j, len(got), len(want))
		}
		return err
	})
	if back, err := c.Decompress(want, MaxSize); err != nil || !bytes.Equal(back, raw) {
		t.Fatalf("the save does not decompress to the archive (%v)", err)
	}
}

// encodeAs compresses data with the dictionary the game expects for the file name.
func encodeAs(c *Codec, name string, data []byte) ([]byte, error) {
	id, ok := DictFor(name)
	if !ok {
		return nil, fmt.Errorf("%s: not a .zs file name", name)
	}
	return c.Compress(id, data, Smallest)
}

// Several frames in a row, the first declaring its size: the file is all of them, not the
// first frame's size (which once made a second frame pass for a file past the limit).
func TestFramesInARow(t *testing.T) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	data := bytes.Repeat([]byte("abcdefghij"), 30000)
	var buf bytes.Buffer
	w, _ := zstd.NewWriter(&buf)
	w.Write(data[:1000])
	w.Close()
	w.Reset(&buf)
	w.Write(data[1000:])
	w.Close()
	var h zstd.Header
	if err := h.Decode(buf.Bytes()); err != nil || !h.HasFCS || h.FrameContentSize != 1000 {
		t.Fatalf("first frame %+v, %v: the test needs one that declares 1000 bytes", h, err)
	}
	out, err := c.Decompress(buf.Bytes(), MaxSize)
	if err != nil || !bytes.Equal(out, data) {
		t.Fatalf("%d bytes, %v; want the %d bytes of both frames", len(out), err, len(data))
	}
	var le *LimitError
	if _, err := c.Decompress(buf.Bytes(), 299999); !errors.As(err, &le) || le.Limit != 299999 {
		t.Fatalf("one byte under: %v", err)
	}
}
