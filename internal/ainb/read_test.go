package ainb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/testalloc"
	"ainbeditor/internal/testcorpus"
)

func corpusFile(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), "ainb", rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Every truncation of a file is an error naming a section and an offset, never a panic.
func TestTruncatedFiles(t *testing.T) {
	for _, name := range []string{"synthetic/kitchen_sink_v404.ainb", "synthetic/kitchen_sink_v407.ainb", "synthetic/kitchen_sink_v408.ainb"} {
		b := corpusFile(t, name)
		for n := range len(b) {
			_, err := Read(b[:n])
			if err == nil {
				// Cutting into the string pool's last string can still leave every
				// referenced string intact; anything earlier must fail.
				sp := binary.LittleEndian.Uint32(b[0x24:])
				if n <= int(sp) {
					t.Fatalf("%s cut to %d bytes: no error", name, n)
				}
				continue
			}
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("%s cut to %d bytes: error %v is not a FormatError", name, n, err)
			}
			if fe.Section == "" || !strings.Contains(err.Error(), "offset 0x") {
				t.Fatalf("%s cut to %d bytes: error %q lacks section or offset", name, n, err)
			}
		}
	}
}

func TestBadHeaders(t *testing.T) {
	good := corpusFile(t, "synthetic/minimal_v407.ainb")
	patch := func(off int, v uint32) []byte {
		b := bytes.Clone(good)
		binary.LittleEndian.PutUint32(b[off:], v)
		return b
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "ainb: header at offset 0x0: file is 0 bytes, shorter than the 0x74-byte header"},
		{"magic", append([]byte("BIA "), good[4:]...), `ainb: header at offset 0x0: magic is "BIA ", want "AIB "`},
		{"version", patch(4, 0x405), "ainb: header at offset 0x4: unsupported version 0x405 (want 0x404, 0x407 or 0x408)"},
		{"string pool", patch(0x24, 0xffffff), "ainb: string pool at offset 0x24: string pool offset 0xffffff outside the file"},
		{"huge command count", patch(0x0c, 0x7fffffff), "ainb: commands at offset 0x74: 2147483647 entries of 24 bytes do not fit in the file"},
		{"huge element count", patch(0x10, 0x10000000), "ainb: elements at offset 0x8c: 268435456 entries of 60 bytes do not fit in the file"},
		{"filename outside pool", patch(0x08, 0x1000), "ainb: header at offset 0x8: string offset 0x1000 outside the string pool (43 bytes)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(tc.data)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got error %v\nwant %s", err, tc.want)
			}
		})
	}
}

// Elements that all claim the whole property table must not make the reader allocate
// quadratically.
func TestOverlappingRanges(t *testing.T) {
	f := &File{Version: Version407, Category: "AI"}
	for range 2000 {
		f.Elements = append(f.Elements, Element{Name: "N"})
	}
	for range 200 {
		f.Elements[0].Properties.Set(ParamInt, append(f.Elements[0].Properties.Of(ParamInt), Property{Name: "p"}))
	}
	b, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	// Point every element's int property range at the whole table.
	for i := range f.Elements {
		p := int(binary.LittleEndian.Uint32(b[headerSize+i*0x3c+0x14:]))
		binary.LittleEndian.PutUint32(b[p:], 0)
		binary.LittleEndian.PutUint32(b[p+4:], 200)
	}
	_, err = Read(b)
	if err == nil || !strings.Contains(err.Error(), "overlap") {
		t.Fatalf("got %v, want an overlap error", err)
	}
}

// FuzzRead: no input makes the reader panic, and whatever it reads and the writer accepts
// reads back and writes again to the same bytes.
func FuzzRead(f *testing.F) {
	for _, path := range testcorpus.AINB(f) {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) < 64<<10 {
			f.Add(b)
		}
	}
	f.Add(tailSeed(f))
	// The game's own files hold what the reference writer never writes (kept counts, wider
	// plugs, shared query runs): the small ones seed the fuzzer too.
	for _, path := range testcorpus.GameFiles(f, "ainb") {
		if b, err := os.ReadFile(path); err == nil && len(b) < 4<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var (
			file *File
			err  error
		)
		n := testalloc.Bytes(func() { file, err = Read(b) })
		// Bounded work: the corpus allocates at most 4.5 times its size beyond 40 KB; a
		// hostile file may not go further than a fixed multiple either.
		if n > 1<<20+64*uint64(len(b)) {
			t.Fatalf("reading %d bytes allocated %d", len(b), n)
		}
		if err != nil {
			return
		}
		out, err := file.Bytes()
		if err != nil {
			return
		}
		again, err := Read(out)
		if err != nil {
			t.Fatalf("the writer produced a file its reader rejects: %v", err)
		}
		out2, err := again.Bytes()
		if err != nil {
			t.Fatalf("writing a file read from our own output: %v", err)
		}
		if !bytes.Equal(out, out2) {
			t.Fatalf("writing is not stable: %s", firstDiff(out, out2))
		}
	})
}
