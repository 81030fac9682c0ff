package zs

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

// The project's own frames always read back, however well they compress: runs become RLE
// blocks of 4 bytes for 128 KiB, so a ratio guard (this package had one of 255x) refuses
// them. Sizes are those of the games' files, from a small BYML to a large pack, each with
// every dictionary; zeros, a short period, and zero-padded sections as archives hold them.
func TestOwnOutputReadsBack(t *testing.T) {
	c := loadCodec(t)
	kinds := map[string]func(n int) []byte{
		"zeros": func(n int) []byte { return make([]byte, n) },
		"period 13": func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(i % 13)
			}
			return b
		},
		"padded": func(n int) []byte { // 64 bytes of data every 64 KiB, zeros between
			b := make([]byte, n)
			for i := 0; i < n; i += 64 << 10 {
				copy(b[i:], bytes.Repeat([]byte("SARC\x14\x00\xff\xfe"), 8))
			}
			return b
		},
	}
	for _, n := range []int{4 << 10, 64 << 10, 1 << 20, 16 << 20} {
		for kind, gen := range kinds {
			in := gen(n)
			for _, name := range []string{ZsDicName, "a.zs", "a.bcett.byml.zs", "a.pack.zs"} {
				t.Run(fmt.Sprintf("%s/%d/%s", kind, n, name), func(t *testing.T) {
					enc, err := encodeAs(c, name, in)
					if err != nil {
						t.Fatal(err)
					}
					out, err := c.Decompress(enc, MaxSize)
					if err != nil {
						t.Fatalf("%d bytes encoded to %d (%dx): %v", n, len(enc), n/len(enc), err)
					}
					if !bytes.Equal(out, in) {
						t.Fatalf("%d bytes encoded to %d read back as %d different bytes", n, len(enc), len(out))
					}
					// Within the exact budget too, as a caller that knows the size asks.
					if _, err := c.Decompress(enc, uint64(n)); err != nil {
						t.Fatalf("within its own size: %v", err)
					}
				})
			}
		}
	}
	// The test would catch a ratio guard: 4 KiB of zeros is 11 bytes (372x) from klauspost's
	// encoder and 18 (228x) from libzstd's, 16 MiB 522 and 530.
	sizes := map[string]map[int]int{"klauspost": {4 << 10: 11, 16 << 20: 522}, "libzstd": {4 << 10: 18, 16 << 20: 530}}[Encoder]
	for n, want := range sizes {
		if enc, _ := encodeAs(c, ZsDicName, make([]byte, n)); len(enc) != want {
			t.Errorf("%d zeros encode to %d bytes, want %d", n, len(enc), want)
		}
	}
}

// Bound names each structure no valid stream holds, with its offset.
func TestBoundErrors(t *testing.T) {
	rle := func(size int, last bool) []byte {
		h := uint32(size)<<3 | 1<<1
		if last {
			h |= 1
		}
		return []byte{byte(h), byte(h >> 8), byte(h >> 16), 'z'}
	}
	head := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00} // no content size, 1 KiB window
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	for _, c := range []struct {
		name string
		in   []byte
		off  int
		want string
	}{
		{"cut in block header", cat(head, []byte{0x03}), 6, "the file ends at byte 7, inside the block header at byte 6 (the file is cut short)"},
		{"cut in block", cat(head, []byte{0x01, 0x01, 0x00}, []byte("ab")), 6, "the file ends at byte 11, inside the block at byte 6, which needs 30 bytes more (the file is cut short)"},
		{"reserved type", cat(head, []byte{0x07, 0, 0}), 6, "the block at byte 6 has the reserved type 3"},
		{"block too big", cat(head, rle(blockMax+1, true)), 6, "the block at byte 6 declares 131073 bytes, more than zstd's 131072"},
		{"stray bytes", cat(head, rle(10, true), []byte("ab")), 10, "2 stray bytes at byte 10 after the last frame"},
		{"not a frame", cat(head, rle(10, true), []byte("Yaz0")), 10, "the bytes at byte 10 after the last frame start no zstd frame"},
		{"skippable cut", cat(head, rle(10, true), []byte{0x50, 0x2a, 0x4d, 0x18, 9, 0, 0, 0}), 10, "the skippable frame at byte 10 needs 9 bytes, the file has 0 after its header"},
	} {
		_, err := Bound(c.in)
		var fe *FormatError
		if !errors.As(err, &fe) || fe.Offset != c.off || fe.Reason != c.want || err.Error() != "not a valid zstd file: "+c.want {
			t.Errorf("%s: %v\nwant at %d: %s", c.name, err, c.off, c.want)
		}
	}
	// Frames, skippable frames between them: the bound is the sum of the blocks' content.
	two := cat(head, rle(10, false), rle(20, true), []byte{0x50, 0x2a, 0x4d, 0x18, 1, 0, 0, 0, 'x'}, head, rle(5, true))
	if b, err := Bound(two); err != nil || b != 35 {
		t.Errorf("two frames: %d, %v; want 35", b, err)
	}
}
