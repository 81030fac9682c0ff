// Package zs decodes and encodes the zstd-compressed files of Tears of the Kingdom (.zs,
// .pack.zs, .bcett.byml.zs) with the game's dictionaries. The package is named zs, not zstd,
// so that it can be imported next to the zstd libraries that do the actual work:
// github.com/klauspost/compress/zstd decodes, and libzstd (github.com/DataDog/zstd, with
// cgo; see encode_cgo.go) encodes, or klauspost's encoder in a build without cgo.
//
// The game ships its dictionaries in Pack/ZsDic.pack.zs: a SARC, itself zstd-compressed
// without a dictionary, holding zs.zsdic (id 1, for plain .zs files), bcett.byml.zsdic (id 2,
// for .bcett.byml.zs) and pack.zsdic (id 3, for .pack.zs). A frame names its dictionary by
// id; Decompress picks it by that id, Compress takes the id of the frame it writes (a new
// file's name gives it through DictFor). This package is the project's only user of the
// zstd library (besides HTTP response compression), and package wrap its only caller for
// files: errors are typed (FormatError with the offset, DictionaryError, LimitError) and the
// level policy is Level's.
//
// Decoding is bounded by the caller's budget, never by a ratio to the input: this package's
// own encoder writes a run as RLE blocks of 4 bytes for 128 KiB (16 MiB of zeros become 522
// bytes, 32,140 times smaller), so any ratio guard below zstd's own maximum refuses frames the
// project wrote. Before anything is allocated the frames' block headers are walked: a frame
// whose declared content size is more than its blocks can hold is refused with its offset,
// so what is allocated is at most what the input really decodes to, and at most the budget
// (Decompress's limit, never more than MaxSize). Frames that declare no size are streamed through
// a reader that stops one byte past the same bound. Their window (the history a streaming
// decoder keeps) is independent of the output size: a frame of a few kilobytes may declare a
// 4 MB window. It is held to MaxWindow instead, a constant.
package zs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"

	"ainbeditor/internal/sarc"
)

// MaxSize is the most Decompress gives out, whatever the limit asked for.
const MaxSize = 1 << 30

// blockMax is the most one zstd block holds (RFC 8878's Block_Maximum_Size).
const blockMax = 128 << 10

// MaxExpansion is the most valid zstd data decompresses to per input byte: a block of
// blockMax bytes of one value is an RLE block of 4 bytes (a 3-byte header and the value).
// It is what the format allows, not a guard: see the package comment.
const MaxExpansion = blockMax / 4

// MaxWindow is the largest window accepted for a frame without a content size: the stream
// decoder allocates a window and two blocks up front (once, then reuses it), so this bounds
// its memory by a constant. 8 MiB is what RFC 8878 asks every decoder to support and the
// window of the reference encoder's levels up to 19; resaved TotK files use 4 MiB.
// (Frames with a content size are decoded into a buffer of that size and need no window.)
const MaxWindow = 8 << 20

// Dictionary ids the game uses, and their file names inside ZsDic.pack.zs.
const (
	DictZs        uint32 = 1
	DictBcettByml uint32 = 2
	DictPack      uint32 = 3
)

// DictNames maps the game's dictionary ids to their file names.
var DictNames = map[uint32]string{
	DictZs:        "zs.zsdic",
	DictBcettByml: "bcett.byml.zsdic",
	DictPack:      "pack.zsdic",
}

// ZsDicName is the archive holding the dictionaries; it is compressed without one.
const ZsDicName = "ZsDic.pack.zs"

// DictFor returns the dictionary id the game expects for a compressed file's name: 3 for
// .pack.zs, 2 for .bcett.byml.zs, 1 for any other .zs, 0 for ZsDic.pack.zs itself (which
// cannot need a dictionary it contains). ok is false for names not ending in .zs.
func DictFor(name string) (id uint32, ok bool) {
	base := name[strings.LastIndexAny(name, "/\\")+1:]
	switch {
	case base == ZsDicName:
		return 0, true
	case strings.HasSuffix(name, ".pack.zs"):
		return DictPack, true
	case strings.HasSuffix(name, ".bcett.byml.zs"):
		return DictBcettByml, true
	case strings.HasSuffix(name, ".zs"):
		return DictZs, true
	}
	return 0, false
}

// Dict is a zstd dictionary in the reference implementation's format (magic 37 A4 30 EC,
// then the little-endian id).
type Dict struct {
	ID   uint32
	Name string
	Data []byte
}

// ParseDict checks a dictionary's magic and reads its id.
func ParseDict(name string, data []byte) (Dict, error) {
	if len(data) < 8 || binary.LittleEndian.Uint32(data) != 0xEC30A437 {
		return Dict{}, fmt.Errorf("zs: dictionary %s: no zstd dictionary magic at 0x0", name)
	}
	return Dict{ID: binary.LittleEndian.Uint32(data[4:]), Name: name, Data: data}, nil
}

// Codec decodes and encodes with a fixed set of dictionaries. It is safe for concurrent use.
type Codec struct {
	dicts map[uint32]Dict
	dec   *zstd.Decoder // DecodeAll is safe for concurrent use

	mu     sync.Mutex
	stream *zstd.Decoder // for frames without a content size; guarded by mu
	encs   map[encoderKey]*encoderPool
}

// New returns a codec with the given dictionaries (none is fine: it then handles only
// frames without a dictionary, such as ZsDic.pack.zs).
func New(dicts ...Dict) (*Codec, error) {
	c := &Codec{dicts: map[uint32]Dict{}, encs: map[encoderKey]*encoderPool{}}
	var raw [][]byte
	for _, d := range dicts {
		if d.ID == 0 {
			return nil, fmt.Errorf("zs: dictionary %s has id 0", d.Name)
		}
		c.dicts[d.ID] = d
		raw = append(raw, d.Data)
	}
	opts := []zstd.DOption{
		zstd.WithDecoderDicts(raw...),
		zstd.WithDecoderMaxMemory(MaxSize),
		zstd.WithDecoderConcurrency(1),
	}
	var err error
	// DecodeAll runs on one of as many decoders as there are processors: the server
	// decompresses uploads of several requests at once (each decoder's memory is made on
	// first use). The stream decoder below stays single, behind mu.
	if c.dec, err = zstd.NewReader(nil, append(opts, zstd.WithDecodeAllCapLimit(true), zstd.WithDecoderConcurrency(runtime.GOMAXPROCS(0)))...); err != nil {
		return nil, fmt.Errorf("zs: %w", err)
	}
	// The stream decoder must really stream: no decoding of the whole input in memory before
	// the first read, and a bounded window. (Without DecodeAll's capacity limit, which in a
	// stream refuses any later frame that declares its size: the output is bounded by the
	// LimitReader in Decompress instead.)
	opts = append(opts, zstd.WithDecodeBuffersBelow(0), zstd.WithDecoderMaxWindow(MaxWindow))
	if c.stream, err = zstd.NewReader(nil, opts...); err != nil {
		return nil, fmt.Errorf("zs: %w", err)
	}
	return c, nil
}

// LoadZsDic builds a codec from the game's ZsDic.pack.zs. It requires all three
// dictionaries and checks that each file carries the id its name stands for.
func LoadZsDic(packZs []byte) (*Codec, error) {
	plain, err := New()
	if err != nil {
		return nil, err
	}
	defer plain.Close()
	raw, err := plain.Decompress(packZs, MaxSize)
	if err != nil {
		return nil, fmt.Errorf("zs: %s: %w", ZsDicName, err)
	}
	// Only three files are wanted out of the pack: a view finds them the way the game does,
	// without reading the rest.
	a, err := sarc.Open(raw)
	if err != nil {
		return nil, fmt.Errorf("zs: %s: %w", ZsDicName, err)
	}
	var dicts []Dict
	for _, id := range []uint32{DictZs, DictBcettByml, DictPack} {
		name := DictNames[id]
		data, ok, err := a.Lookup(name)
		if err != nil {
			return nil, fmt.Errorf("zs: %s: %w", ZsDicName, err)
		}
		if !ok {
			return nil, fmt.Errorf("zs: %s has no %s", ZsDicName, name)
		}
		d, err := ParseDict(name, data)
		if err != nil {
			return nil, err
		}
		if d.ID != id {
			return nil, fmt.Errorf("zs: %s: %s has dictionary id %d, want %d", ZsDicName, name, d.ID, id)
		}
		dicts = append(dicts, d)
	}
	return New(dicts...)
}

// Dicts returns the codec's dictionaries by id.
func (c *Codec) Dicts() map[uint32]Dict {
	m := make(map[uint32]Dict, len(c.dicts))
	for k, v := range c.dicts {
		m[k] = v
	}
	return m
}

// Close releases the decoders' and encoders' resources.
func (c *Codec) Close() {
	c.dec.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stream.Close()
	for _, p := range c.encs {
		p.close()
	}
}

// FrameDictID returns the dictionary id in a zstd frame header (0 for none).
func FrameDictID(src []byte) (uint32, error) {
	var h zstd.Header
	if err := h.Decode(src); err != nil {
		return 0, formatError(0, "the frame header at byte 0 is damaged (%v)", err)
	}
	return h.DictionaryID, nil
}

// Decompress decompresses src, one or more zstd frames, with the dictionary each header
// names, to at most limit bytes (and never more than MaxSize). Errors are a *FormatError, a
// *DictionaryError or a *LimitError.
func (c *Codec) Decompress(src []byte, limit uint64) ([]byte, error) {
	var h zstd.Header
	if err := h.Decode(src); err != nil {
		return nil, formatError(0, "the frame header at byte 0 is damaged (%v)", err)
	}
	if h.Skippable {
		return nil, formatError(0, "the file starts with a skippable frame, not a compressed file")
	}
	if id := h.DictionaryID; id != 0 {
		if _, ok := c.dicts[id]; !ok {
			return nil, &DictionaryError{ID: id}
		}
	}
	// A damaged file is named damaged, with the place, before a garbled header's size or
	// window can pass for a file too big to decompress.
	bound, frames, err := walk(src)
	if err != nil {
		return nil, err
	}
	limit = min(limit, MaxSize)
	// One frame that declares its size decodes into a buffer of that size; several frames
	// stream, as frames without a size do (the first frame's size is not the file's).
	if h.HasFCS && frames == 1 {
		if h.FrameContentSize > limit {
			return nil, &LimitError{Limit: limit}
		}
		// The capacity limit makes DecodeAll fail rather than grow past the declared size.
		out, err := c.dec.DecodeAll(src, make([]byte, 0, h.FrameContentSize))
		if err != nil {
			return nil, decodeError(err, limit)
		}
		return out, nil
	}
	// Streamed. The window says nothing about the output (a small file may declare a large
	// one), only about the decoder's memory.
	if !h.HasFCS && h.WindowSize > MaxWindow {
		return nil, &LimitError{Limit: limit, Window: h.WindowSize}
	}
	// Stream, and stop one byte past the limit: the decoder works a block (at most 128 KiB)
	// at a time, so it never decodes much further than that. The blocks cannot give more
	// than bound, so that is the limit when smaller.
	within := min(limit, bound)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.stream.Reset(bytes.NewReader(src)); err != nil {
		return nil, decodeError(err, limit)
	}
	defer c.stream.Reset(nil) // let go of src
	var buf bytes.Buffer
	n, err := io.Copy(&buf, io.LimitReader(c.stream, int64(within)+1))
	if uint64(n) > within {
		return nil, &LimitError{Limit: limit}
	}
	if err != nil {
		return nil, decodeError(err, limit)
	}
	return buf.Bytes(), nil
}

// decodeError says what the decoder found in the words of this package's errors.
func decodeError(err error, limit uint64) error {
	switch {
	case errors.Is(err, zstd.ErrDecoderSizeExceeded), errors.Is(err, zstd.ErrWindowSizeExceeded):
		return &LimitError{Limit: limit}
	case errors.Is(err, zstd.ErrUnknownDictionary):
		return &DictionaryError{}
	}
	return formatError(0, "its compressed data is damaged (zstd: %v)", err)
}

// Level is how hard Compress works. The project's policy: Fast for every file saved while
// editing (the server's builds, packs and trees: Enemy_Ganondorf.pack.zs's 2 MB archive is
// 534,235 bytes in 10-20 ms of CPU), Smallest when asked for, as the command line does for
// files meant for release (436,017 bytes in about 0.8 s; Nintendo's is 506,866). The game
// reads both. libraryLevel (encode_cgo.go, encode_go.go) is what each means to the encoder.
type Level uint8

const (
	Fast     Level = iota // libzstd's level 3
	Smallest              // libzstd's level 19
)

// Compress compresses data as the game's files are: one frame with the content size and no
// checksum, with dictionary id (0 for none), which the codec must hold (else a
// *DictionaryError). The output is at most zstd's bound for the input.
func (c *Codec) Compress(id uint32, data []byte, level Level) ([]byte, error) {
	p, err := c.encoders(id, level)
	if err != nil {
		return nil, err
	}
	return p.compress(data)
}

// encoders returns the encoder of a dictionary and level, made once per codec.
func (c *Codec) encoders(id uint32, level Level) (*encoderPool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := encoderKey{id, level}
	if p, ok := c.encs[key]; ok {
		return p, nil
	}
	var dict []byte
	if id != 0 {
		d, ok := c.dicts[id]
		if !ok {
			return nil, &DictionaryError{ID: id}
		}
		dict = d.Data
	}
	p, err := newEncoderPool(dict, level)
	if err != nil {
		return nil, fmt.Errorf("zs: dictionary %d: %w", id, err)
	}
	c.encs[key] = p
	return p, nil
}

// Has says whether the codec holds dictionary id (0, none, it always has).
func (c *Codec) Has(id uint32) bool {
	_, ok := c.dicts[id]
	return id == 0 || ok
}

type encoderKey struct {
	id    uint32
	level Level
}

// skippableMagic is the magic of skippable frames, 0x184D2A50 to 0x184D2A5F, and frameMagic
// of the others (28 B5 2F FD), read little endian.
const (
	skippableMagic = 0x184D2A50
	frameMagic     = 0xFD2FB528
)

// IsZstd says whether b starts like a zstd frame.
func IsZstd(b []byte) bool { return len(b) >= 4 && binary.LittleEndian.Uint32(b) == frameMagic }

// Bound walks the frames of src, reading block headers only, and returns the most they can
// decompress to: a raw or RLE block exactly its size, a compressed block at most blockMax. It
// names, with its offset, the first thing no valid stream holds: a stream cut short, a
// reserved block type, a block past blockMax, bytes after the last frame that start none, a
// frame declaring more content than its blocks hold. One step per block, no allocation.
func Bound(src []byte) (uint64, error) {
	b, _, err := walk(src)
	return b, err
}

// walk is Bound, also counting the frames that are not skippable.
func walk(src []byte) (total uint64, frames int, err error) {
	off := 0
	for off < len(src) {
		if len(src)-off < 4 {
			return 0, 0, formatError(off, "%d stray bytes at byte %d after the last frame", len(src)-off, off)
		}
		if binary.LittleEndian.Uint32(src[off:])&^0xF == skippableMagic {
			if len(src)-off < 8 {
				return 0, 0, formatError(off, "the file ends inside the skippable frame header at byte %d", off)
			}
			size := uint64(binary.LittleEndian.Uint32(src[off+4:]))
			if size > uint64(len(src)-off-8) {
				return 0, 0, formatError(off, "the skippable frame at byte %d needs %d bytes, the file has %d after its header", off, size, len(src)-off-8)
			}
			off += 8 + int(size)
			continue
		}
		if binary.LittleEndian.Uint32(src[off:]) != frameMagic {
			return 0, 0, formatError(off, "the bytes at byte %d after the last frame start no zstd frame", off)
		}
		var h zstd.Header
		if err := h.Decode(src[off:]); err != nil {
			return 0, 0, formatError(off, "the frame header at byte %d is damaged (%v)", off, err)
		}
		frame := off
		off += h.HeaderSize
		var fbound uint64
		for {
			if len(src)-off < 3 {
				return 0, 0, formatError(off, "the file ends at byte %d, inside the block header at byte %d (the file is cut short)", len(src), off)
			}
			bh := uint32(src[off]) | uint32(src[off+1])<<8 | uint32(src[off+2])<<16
			last, typ, size := bh&1 == 1, (bh>>1)&3, int(bh>>3)
			payload := size
			switch typ {
			case 0: // raw
				fbound += uint64(size)
			case 1: // RLE: one byte repeated size times
				payload = 1
				fbound += uint64(size)
			case 2: // compressed: size is the compressed size
				fbound += blockMax
			case 3:
				return 0, 0, formatError(off, "the block at byte %d has the reserved type 3", off)
			}
			if size > blockMax {
				return 0, 0, formatError(off, "the block at byte %d declares %d bytes, more than zstd's %d", off, size, blockMax)
			}
			if payload > len(src)-off-3 {
				return 0, 0, formatError(off, "the file ends at byte %d, inside the block at byte %d, which needs %d bytes more (the file is cut short)", len(src), off, payload-(len(src)-off-3))
			}
			off += 3 + payload
			if last {
				break
			}
		}
		if h.HasCheckSum {
			if len(src)-off < 4 {
				return 0, 0, formatError(off, "the file ends at byte %d, inside the checksum of the frame at byte %d (the file is cut short)", len(src), frame)
			}
			off += 4
		}
		if h.HasFCS && h.FrameContentSize > fbound {
			return 0, 0, formatError(frame, "the frame header at byte %d declares %d bytes of content, more than its blocks can hold (%d)", frame, h.FrameContentSize, fbound)
		}
		total += fbound
		frames++
	}
	return total, frames, nil
}
