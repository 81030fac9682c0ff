package sarc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/testalloc"
	"ainbeditor/internal/testcorpus"
)

// small is a two-file (hashes, computed apart: a.txt 0x5c897aa7, b.txt 0x62bd5098) little-endian archive: SFAT entries at 0x20 and 0x30, SFNT at 0x40,
// names at 0x48 ("a.txt" then "b.txt", 8 bytes each), data at 0x58.
func small(t testing.TB) []byte {
	a := &Archive{}
	if err := a.Add("a.txt", []byte("AAAA")); err != nil {
		t.Fatal(err)
	}
	if err := a.Add("b.txt", []byte("BBBBBBBB")); err != nil {
		t.Fatal(err)
	}
	b, err := a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSmallLayout(t *testing.T) {
	b := small(t)
	want := "SARC\x14\x00\xff\xfe\x64\x00\x00\x00\x58\x00\x00\x00\x00\x01\x00\x00" +
		"SFAT\x0c\x00\x02\x00\x65\x00\x00\x00" +
		"\xa7\x7a\x89\x5c\x00\x00\x00\x01\x00\x00\x00\x00\x04\x00\x00\x00" +
		"\x98\x50\xbd\x62\x02\x00\x00\x01\x04\x00\x00\x00\x0c\x00\x00\x00" +
		"SFNT\x08\x00\x00\x00a.txt\x00\x00\x00b.txt\x00\x00\x00" +
		"AAAABBBBBBBB"
	if !bytes.Equal(b, []byte(want)) {
		t.Fatalf("got\n% x\nwant\n% x", b, want)
	}
}

func TestReadErrors(t *testing.T) {
	le := binary.LittleEndian
	mod := func(f func(b []byte) []byte) []byte { return f(small(t)) }
	cases := []struct {
		name string
		in   []byte
		want string
	}{
		{"short", []byte("SARC"), "sarc: at 0x4: the input ends inside the 20-byte header"},
		{"magic", mod(func(b []byte) []byte { b[0] = 'X'; return b }), `sarc: at 0x0: magic "XARC", want "SARC"`},
		{"bom", mod(func(b []byte) []byte { b[6] = 0; return b }), "sarc: at 0x6: byte order mark 00 fe, want fe ff or ff fe"},
		{"version", mod(func(b []byte) []byte { b[0x10] = 2; return b }), "sarc: at 0x10: version 0x0102, want 0x0100"},
		{"file size", mod(func(b []byte) []byte { return b[:len(b)-1] }), "sarc: at 0x8: file size 100, input has 99 bytes (cut short)"},
		{"count too big", mod(func(b []byte) []byte { le.PutUint16(b[0x1A:], 0x4000); return b }),
			"sarc: at 0x1a: SFAT count 16384 exceeds the format's limit 16383"},
		{"count beyond input", mod(func(b []byte) []byte { le.PutUint16(b[0x1A:], 0x3FFF); return b }),
			"sarc: at 0x1a: SFAT count 16383 needs 262128 bytes of entries, 68 remain"},
		{"sfnt magic", mod(func(b []byte) []byte { le.PutUint16(b[0x1A:], 1); return b }),
			`sarc: at 0x30: magic "\x98P\xbdb", want "SFNT"`},
		{"data offset", mod(func(b []byte) []byte { le.PutUint32(b[0xC:], 0x44); return b }),
			"sarc: at 0xc: data offset 0x44 outside 0x48..0x64 (after the SFNT header, within the file)"},
		{"name offset", mod(func(b []byte) []byte { le.PutUint32(b[0x24:], 0x01000004); return b }),
			"sarc: at 0x24: SFAT entry 0: name offset 0x10 outside the name table (0x10 bytes at 0x48)"},
		{"unterminated name", mod(func(b []byte) []byte { copy(b[0x48:0x58], "a.txtXXXb.txtXXX"); return b }),
			"sarc: at 0x24: SFAT entry 0: name at 0x48 has no terminator before entry 1's name at 0x50"},
		{"unterminated last name", mod(func(b []byte) []byte { copy(b[0x50:0x58], "b.txtXXX"); return b }),
			"sarc: at 0x34: SFAT entry 1: name at 0x50 has no terminator before the data at 0x58"},
		{"shared name", mod(func(b []byte) []byte { le.PutUint32(b[0x34:], 0x01000000); return b }),
			"sarc: at 0x34: SFAT entry 1: name at 0x48 is also entry 0's name"},
		{"name inside another", mod(func(b []byte) []byte { le.PutUint32(b[0x34:], 0x01000001); return b }),
			"sarc: at 0x24: SFAT entry 0: name at 0x48 has no terminator before entry 1's name at 0x4c"},
		{"hash", mod(func(b []byte) []byte { b[0x20] ^= 1; return b }),
			`sarc: at 0x20: SFAT entry 0: name hash 0x5c897aa6, name "a.txt" hashes to 0x5c897aa7`},
		{"range past end", mod(func(b []byte) []byte { le.PutUint32(b[0x3C:], 0x0D); return b }),
			"sarc: at 0x38: SFAT entry 1: data range 0x4..0xd (relative to 0x58) outside the 0xc data bytes"},
		{"range reversed", mod(func(b []byte) []byte { le.PutUint32(b[0x38:], 0x0C); le.PutUint32(b[0x3C:], 0x04); return b }),
			"sarc: at 0x38: SFAT entry 1: data range 0xc..0x4 (relative to 0x58) outside the 0xc data bytes"},
		{"overlap", mod(func(b []byte) []byte { le.PutUint32(b[0x38:], 0x02); return b }),
			"sarc: at 0x38: SFAT entry 1: data 0x2..0xc overlaps entry 0's data ending at 0x4"},
	}
	for _, c := range cases {
		a, err := Read(c.in)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v\nwant %q", c.name, err, c.want)
		}
		// The offset is the error's own, not only its text's.
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.HasPrefix(c.want, fmt.Sprintf("sarc: at 0x%x: ", fe.Offset)) {
			t.Errorf("%s: %#v is not a FormatError at the offset the message names", c.name, err)
		}
		if a != nil {
			t.Errorf("%s: archive returned with error", c.name)
		}
	}
}

// 16383 entries naming suffixes of one long name would copy the name 16383 times; the
// reader must refuse before that (and quickly).
func TestOverlappingNamesRefused(t *testing.T) {
	const n = maxFiles
	le := binary.LittleEndian
	long := bytes.Repeat([]byte("x"), 4*n)
	b := []byte("SARC\x14\x00\xff\xfe\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00SFAT\x0c\x00\x00\x00\x65\x00\x00\x00")
	le.PutUint16(b[0x1A:], n)
	for i := 0; i < n; i++ {
		b = le.AppendUint32(b, 0)
		b = le.AppendUint32(b, 1<<24|uint32(i))
		b = le.AppendUint32(b, 0)
		b = le.AppendUint32(b, 0)
	}
	b = append(b, "SFNT\x08\x00\x00\x00"...)
	b = append(append(b, long...), 0, 0, 0, 0)
	le.PutUint32(b[8:], uint32(len(b)))
	le.PutUint32(b[12:], uint32(len(b)))
	_, err := Read(b)
	if err == nil || err.Error() != "sarc: at 0x24: SFAT entry 0: name at 0x40018 has no terminator before entry 1's name at 0x4001c" {
		t.Fatalf("error %v", err)
	}
}

func TestUnnamedEntryRoundTrip(t *testing.T) {
	b := small(t)
	binary.LittleEndian.PutUint32(b[0x34:], 0) // second entry: no name
	a, err := Read(b)
	if err != nil {
		t.Fatal(err)
	}
	if a.Files[1].Name != "" || string(a.Files[1].Data) != "BBBBBBBB" {
		t.Fatalf("unnamed entry read as %q %q", a.Files[1].Name, a.Files[1].Data)
	}
	out, err := a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	// The name table shrinks (only "a.txt" remains) but the entry keeps its hash.
	if r.Files[1].Name != "" || r.Files[1].placed.hash != 0x62bd5098 || string(r.Files[1].Data) != "BBBBBBBB" {
		t.Fatalf("unnamed entry rewritten as %q hash %#x", r.Files[1].Name, r.Files[1].placed.hash)
	}
}

// addSeeds gives a SARC fuzz target the corpus's archives up to 64 KiB, the small and
// tool-written archives, and an empty one.
func addSeeds(f *testing.F) {
	for _, c := range corpusArchives(f) {
		if len(c.data) <= 64<<10 {
			f.Add(c.data)
		}
	}
	f.Add(small(f))
	f.Add(toolWritten(f))
	f.Add([]byte("SARC\x14\x00\xff\xfe\x28\x00\x00\x00\x28\x00\x00\x00\x00\x01\x00\x00SFAT\x0c\x00\x00\x00\x65\x00\x00\x00SFNT\x08\x00\x00\x00"))
}

func FuzzSARCRead(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		var (
			a   *Archive
			err error
		)
		n := testalloc.Bytes(func() { a, err = Read(in) })
		// Bounded work: the files' data alias the input, so Read allocates per SFAT entry (16
		// bytes each) and for names. The corpus seeds need at most 3.8 times their size (the
		// 100-byte archive; 5.5 KB at most, for any archive); 32x plus 16 KiB leaves room for
		// an archive that is nothing but entries, some 130 bytes of model each.
		if n > 32*uint64(len(in))+16<<10 {
			t.Fatalf("reading %d bytes allocated %d", len(in), n)
		}
		if err != nil {
			return
		}
		out, err := a.Bytes()
		if err != nil {
			t.Fatalf("read succeeded, write failed: %v", err)
		}
		// Rewriting keeps recorded gaps (bounded by the input) and gives files it must place
		// anew at most maxHeaderAlignment of padding each; with at most one file per 16
		// input bytes that is within 2x + 512x the input.
		if len(out) > 2*len(in)+maxHeaderAlignment*(len(a.Files)+1) {
			t.Fatalf("%d input bytes wrote %d bytes", len(in), len(out))
		}
		b, err := Read(out)
		if err != nil {
			t.Fatalf("writer output rejected: %v", err)
		}
		if len(b.Files) != len(a.Files) {
			t.Fatalf("%d files became %d", len(a.Files), len(b.Files))
		}
		for i := range a.Files {
			if j := b.Index(a.Files[i].Name); a.Files[i].Name != "" && (j < 0 || !bytes.Equal(b.Files[j].Data, a.Files[i].Data)) {
				t.Fatalf("file %q lost or changed", a.Files[i].Name)
			}
		}
	})
}

func testSARC(b *testing.B) []byte {
	d, err := os.ReadFile(filepath.Join(testcorpus.Dir(b), "sarc", "test.sarc"))
	if err != nil {
		b.Fatal(err)
	}
	return d
}

func BenchmarkRead(b *testing.B) {
	benchRead(b, func(d []byte) error {
		_, err := Read(d)
		return err
	})
}

// benchRead measures one way of reading test.sarc.
func benchRead(b *testing.B, read func([]byte) error) {
	d := testSARC(b)
	b.SetBytes(int64(len(d)))
	b.ReportAllocs()
	for b.Loop() {
		if err := read(d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrite(b *testing.B) { benchWrite(b, (*Archive).Bytes) }

// BenchmarkWriteAppend writes into one reused buffer, as a caller that saves repeatedly does
// (and as a C++ writer's allocator reuses freed memory).
func BenchmarkWriteAppend(b *testing.B) {
	var buf []byte
	benchWrite(b, func(a *Archive) (out []byte, err error) {
		out, err = a.AppendBinary(buf[:0])
		buf = out
		return out, err
	})
}

// benchWrite measures one way of writing out test.sarc.
func benchWrite(b *testing.B, write func(*Archive) ([]byte, error)) {
	in := testSARC(b)
	a, err := Read(in)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := write(a); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReadOutOfOrder reads an archive whose names and data are stored in the reverse of
// SFAT order, which no known writer does: the reader sorts the entries by name and by data
// offset for its checks instead of taking SFAT order as table order.
func TestReadOutOfOrder(t *testing.T) {
	le := binary.LittleEndian
	b := small(t)
	// Names: "b.txt" first, then "a.txt"; entry 0 (a.txt) points at word 2, entry 1 at 0.
	copy(b[0x48:], "b.txt\x00\x00\x00a.txt\x00\x00\x00")
	le.PutUint32(b[0x24:], 0x01000002)
	le.PutUint32(b[0x34:], 0x01000000)
	// Data: b's 8 bytes first, then a's 4.
	copy(b[0x58:], "BBBBBBBBAAAA")
	le.PutUint32(b[0x28:], 8)
	le.PutUint32(b[0x2C:], 12)
	le.PutUint32(b[0x38:], 0)
	le.PutUint32(b[0x3C:], 8)
	a, err := Read(b)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range a.Files {
		got = append(got, f.Name+"="+string(f.Data))
	}
	if s := strings.Join(got, " "); s != "a.txt=AAAA b.txt=BBBBBBBB" {
		t.Fatalf("read %s", s)
	}
	out, err := a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	// Written back with data in SFAT order: a.txt keeps the 8-byte gap it was read with
	// after the data offset; b.txt, read out of order, is placed anew at the archive's
	// alignment, 8 (every data offset read is a multiple of 8).
	var ranges []string
	for i := range 2 {
		ranges = append(ranges, fmt.Sprintf("%d..%d", le.Uint32(out[0x28+16*i:]), le.Uint32(out[0x2C+16*i:])))
	}
	if s := strings.Join(ranges, " "); s != "8..12 16..24" {
		t.Fatalf("data ranges written %s", s)
	}
	r, err := Read(out)
	if err != nil || r.Files[0].Name != "a.txt" || string(r.Files[0].Data) != "AAAA" || r.Files[1].Name != "b.txt" || string(r.Files[1].Data) != "BBBBBBBB" {
		t.Fatalf("rewritten archive reads back as %v, %v", r, err)
	}
}

// TestUnsortedTableWarning: a file table out of hash order (the game binary-searches it) reads
// with a warning at the first entry out of order, and is written sorted, without one.
func TestUnsortedTableWarning(t *testing.T) {
	b := small(t)
	// Swap the two SFAT entries: b.txt (0x62bd5098) before a.txt (0x5c897aa7).
	var e0 [sfatEntrySize]byte
	copy(e0[:], b[0x20:0x30])
	copy(b[0x20:0x30], b[0x30:0x40])
	copy(b[0x30:0x40], e0[:])
	a, err := Read(b)
	if err != nil {
		t.Fatal(err)
	}
	want := "sarc: at 0x30: SFAT entry 1 has name hash 0x5c897aa7, below entry 0's 0x62bd5098: the game binary-searches the table by hash and may not find some files; written sorted by hash"
	if got := warningStrings(a); len(got) != 1 || got[0] != want {
		t.Fatalf("warnings %q\nwant %q", got, want)
	}
	if a.Files[0].Name != "b.txt" {
		t.Fatalf("read in the order %q, %q", a.Files[0].Name, a.Files[1].Name)
	}
	out, err := a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	// (b.txt's data, read before a.txt's in SFAT order but after it in the file, is placed
	// anew: see TestReadOutOfOrder.)
	r, err := Read(out)
	if err != nil || r.Warnings() != nil {
		t.Fatalf("the sorted archive: %v, %v", r.Warnings(), err)
	}
	if r.Files[0].Name != "a.txt" || string(r.Files[0].Data) != "AAAA" || r.Files[1].Name != "b.txt" || string(r.Files[1].Data) != "BBBBBBBB" {
		t.Fatalf("written as %q %q, %q %q", r.Files[0].Name, r.Files[0].Data, r.Files[1].Name, r.Files[1].Data)
	}
}
