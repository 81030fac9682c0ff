// Package yaz0 decodes and encodes Yaz0, the LZ77 variant Nintendo wraps around many files
// (.szs, .sbeventpack, .srsizetable, ...).
//
// A Yaz0 file is a 16-byte header ("Yaz0", the big-endian decoded size, a data alignment
// hint the game passes to its allocator, four reserved bytes) followed by groups: one code
// byte whose bits, most significant first, say for each of the next eight chunks whether it
// is a literal byte (1) or a back-reference (0). A back-reference is two bytes, NRRR, with
// distance RRR+1 (1..4096) and length N+2 (3..17), or, when N is 0, three bytes with length
// third byte+18 (18..273).
//
// The decoder must never write past the size the header announces, never read past the input,
// and never allocate more than MaxRatio times the input: a hostile header cannot make it
// reserve gigabytes. The encoder must always produce a stream its own decoder accepts.
package yaz0

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// HeaderSize is the size of the Yaz0 header in bytes.
const HeaderSize = 16

// Stream limits of the format.
const (
	MaxDistance = 0x1000    // farthest back-reference
	MinMatch    = 3         // shortest back-reference length
	MaxMatch    = 0xFF + 18 // longest back-reference length (273)
)

// MaxRatio bounds decoded bytes per byte of compressed payload. The densest stream is groups
// of one code byte and eight 3-byte references of MaxMatch bytes each: 25 input bytes for
// 8*273 = 2184 output bytes, 87.36 per byte. Any group with fewer or shorter references
// expands less, so 88 times the payload after the header is a bound no valid stream exceeds.
const MaxRatio = 88

// Header is the Yaz0 file header.
type Header struct {
	// Size is the decoded size in bytes.
	Size uint32
	// Alignment is the buffer alignment the game uses for the decoded data (0 in many
	// files, 0x80 or 0x2000 in others). The decoder ignores it; it is kept so that a
	// re-encoded file carries the same value.
	Alignment uint32
	// Reserved holds the last four header bytes, zero in every known file, kept verbatim.
	Reserved uint32
}

// ParseHeader reads the header of a Yaz0 stream.
func ParseHeader(src []byte) (Header, error) {
	if len(src) < HeaderSize {
		return Header{}, errAt(len(src), nil, "the input ends inside the %d-byte header", HeaderSize)
	}
	if string(src[:4]) != "Yaz0" {
		return Header{}, errAt(0, nil, "magic %q, want \"Yaz0\"", src[:4])
	}
	return Header{
		Size:      binary.BigEndian.Uint32(src[4:]),
		Alignment: binary.BigEndian.Uint32(src[8:]),
		Reserved:  binary.BigEndian.Uint32(src[12:]),
	}, nil
}

// IsYaz0 reports whether src starts with the Yaz0 magic.
func IsYaz0(src []byte) bool { return len(src) >= 4 && string(src[:4]) == "Yaz0" }

// ErrTooLarge is wrapped by Decompress when the header announces more data than the payload can
// possibly encode.
var ErrTooLarge = errors.New("decoded size impossible for input length")

// Decompress decodes a whole Yaz0 file and returns the header and the decoded bytes.
func Decompress(src []byte) (Header, []byte, error) {
	h, err := ParseHeader(src)
	if err != nil {
		return h, nil, err
	}
	payload := uint64(len(src) - HeaderSize)
	if uint64(h.Size) > payload*MaxRatio {
		return h, nil, errAt(4, ErrTooLarge, "header size %d: %v (%d payload bytes decode to at most %d)",
			h.Size, ErrTooLarge, payload, payload*MaxRatio)
	}
	dst := make([]byte, h.Size)
	if err := decodeInto(dst, src); err != nil {
		return h, nil, err
	}
	return h, dst, nil
}

// decodeInto fills dst from the groups after src's header. It stops as soon as dst is full;
// bytes after that point (Nintendo pads files to a multiple of 4 or more) are ignored.
func decodeInto(dst, src []byte) error {
	in := HeaderSize
	out := 0
	var code byte
	left := 0
	for out < len(dst) {
		if left == 0 {
			if in >= len(src) {
				return errAt(in, nil, "input ends before code byte (decoded %d of %d bytes)", out, len(dst))
			}
			code = src[in]
			in++
			left = 8
			// Eight literals in a row, common in data that does not compress: one copy.
			if code == 0xFF && in+8 <= len(src) && out+8 <= len(dst) {
				copy(dst[out:out+8], src[in:in+8])
				in += 8
				out += 8
				left = 0
				continue
			}
		}
		if code&0x80 != 0 {
			if in >= len(src) {
				return errAt(in, nil, "input ends inside literal (decoded %d of %d bytes)", out, len(dst))
			}
			dst[out] = src[in]
			in++
			out++
		} else {
			at := in
			if in+2 > len(src) {
				return errAt(at, nil, "input ends inside back-reference (decoded %d of %d bytes)", out, len(dst))
			}
			b0, b1 := src[in], src[in+1]
			in += 2
			dist := (int(b0&0x0F)<<8 | int(b1)) + 1
			n := int(b0 >> 4)
			if n == 0 {
				if in >= len(src) {
					return errAt(at, nil, "input ends inside back-reference (decoded %d of %d bytes)", out, len(dst))
				}
				n = int(src[in]) + 18
				in++
			} else {
				n += 2
			}
			if dist > out {
				return errAt(at, nil, "back-reference distance %d before start of output (at output offset %d)", dist, out)
			}
			if n > len(dst)-out {
				return errAt(at, nil, "back-reference length %d runs past decoded size %d (at output offset %d)", n, len(dst), out)
			}
			from := out - dist
			if dist >= n {
				copy(dst[out:out+n], dst[from:from+n])
				out += n
			} else {
				// Overlapping copy repeats the last dist bytes: byte by byte on purpose.
				for i := 0; i < n; i++ {
					dst[out] = dst[from+i]
					out++
				}
			}
		}
		code <<= 1
		left--
	}
	return nil
}

// FormatError reports a Yaz0 stream the decoder refuses: what is wrong and at which offset
// of the stream. Err is ErrTooLarge for a size no payload of that length can decode to.
type FormatError struct {
	Offset int
	Msg    string
	Err    error
}

func (e *FormatError) Error() string { return fmt.Sprintf("yaz0: at 0x%x: %s", e.Offset, e.Msg) }

func (e *FormatError) Unwrap() error { return e.Err }

func errAt(offset int, err error, format string, args ...any) *FormatError {
	return &FormatError{Offset: offset, Msg: fmt.Sprintf(format, args...), Err: err}
}
