package server

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// zstdMagic starts every zstd frame (28 B5 2F FD).
var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

func isZstd(b []byte) bool { return bytes.HasPrefix(b, zstdMagic) }

// knownDicts names the dictionaries the games' files use, to say which one a frame needs.
var knownDicts = map[uint32]string{
	1: "TotK's zs.zsdic",
	2: "TotK's bcett.byml.zsdic",
	3: "TotK's pack.zsdic",
}

// unzstd decompresses uploads, never to more than max bytes: a small zstd bomb must cost an
// error, not the server's memory.
// It also compresses saved files again with the dictionary their upload used.
type unzstd struct {
	dec   *zstd.Decoder
	max   int64
	dicts map[uint32][]byte

	mu   sync.Mutex
	encs map[uint32]*zstd.Encoder // by dictionary id, 0 for none; made on first use
}

func newUnzstd(max int64, concurrency int, dicts [][]byte) (*unzstd, error) {
	u := &unzstd{max: max, dicts: make(map[uint32][]byte), encs: make(map[uint32]*zstd.Encoder)}
	for i, b := range dicts {
		d, err := zstd.InspectDictionary(b)
		if err != nil {
			return nil, fmt.Errorf("zstd dictionary %d: %w", i+1, err)
		}
		u.dicts[d.ID()] = b
	}
	dec, err := zstd.NewReader(nil,
		zstd.WithDecoderConcurrency(concurrency),
		zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxMemory(uint64(max)),
		zstd.WithDecoderMaxWindow(uint64(max)),
		zstd.WithDecoderDicts(dicts...))
	if err != nil {
		return nil, err
	}
	u.dec = dec
	return u, nil
}

func (u *unzstd) close() {
	u.dec.Close()
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, e := range u.encs {
		e.Close()
	}
}

// decode decompresses data, which starts with the zstd magic.
func (u *unzstd) decode(data []byte) ([]byte, error) {
	// Read the first frame's header ourselves: the decoder's own error does not say which
	// dictionary is missing, and the user needs to know.
	var h zstd.Header
	if err := h.Decode(data); err == nil && h.DictionaryID != 0 && u.dicts[h.DictionaryID] == nil {
		return nil, dictionaryError(h.DictionaryID)
	}
	// A damaged file is named damaged, with the place, before the decoder can take a
	// garbled header's size or window for a file too big to decompress.
	bound, err := scanFrames(data)
	if err != nil {
		return nil, err
	}
	out, err := u.dec.DecodeAll(data, nil)
	switch {
	case err == nil:
		return out, nil
	case errors.Is(err, zstd.ErrWindowSizeExceeded) && bound <= uint64(u.max):
		// The blocks cannot hold more than the limit, yet the header asks for more memory.
		return nil, &apiError{http.StatusRequestEntityTooLarge,
			fmt.Sprintf("the file asks for a zstd window of %d bytes to decompress, more than the limit of %d; compress it with a smaller window", h.WindowSize, u.max),
			map[string]any{"limit": u.max, "window": h.WindowSize}}
	case errors.Is(err, zstd.ErrDecoderSizeExceeded), errors.Is(err, zstd.ErrWindowSizeExceeded):
		return nil, &apiError{http.StatusRequestEntityTooLarge,
			fmt.Sprintf("the file decompresses to more than %d bytes, the limit", u.max),
			map[string]any{"limit": u.max}}
	case errors.Is(err, zstd.ErrUnknownDictionary):
		return nil, errorf(http.StatusUnprocessableEntity, "a zstd frame needs a dictionary the server does not have; upload the decompressed .ainb")
	}
	return nil, notZstd("its compressed data is damaged (zstd: %v)", err)
}

// notZstd is the answer for an upload that starts like zstd but is not a valid zstd file.
func notZstd(format string, args ...any) *apiError {
	return errorf(http.StatusUnprocessableEntity, "not a valid zstd file: "+format, args...)
}

// zstd frame layout (RFC 8878): the largest block content, and the magic of skippable frames
// (0x184D2A50 to 0x184D2A5F, little-endian).
const (
	maxBlockSize      = 128 << 10
	skippableMagicLow = 0x184d2a50
)

// scanFrames walks the frames and block headers of a zstd stream without decoding anything,
// and names the first thing that cannot be in a valid file with its offset: a stream cut
// short, a reserved block type, a block larger than zstd allows, bytes after the last frame
// that start no frame, or a header declaring more content than its blocks can hold. The
// decoder's own errors say none of this. bound is the most the stream can decompress to.
// The work is one step per block header.
func scanFrames(data []byte) (bound uint64, err error) {
	off := 0
	for off < len(data) {
		if len(data)-off < 4 {
			return 0, notZstd("%d stray bytes at byte %d after the last frame", len(data)-off, off)
		}
		if m := binary.LittleEndian.Uint32(data[off:]); m&^0xf == skippableMagicLow {
			if len(data)-off < 8 {
				return 0, notZstd("the file ends inside the skippable frame header at byte %d", off)
			}
			size := int64(binary.LittleEndian.Uint32(data[off+4:]))
			if size > int64(len(data)-off-8) {
				return 0, notZstd("the skippable frame at byte %d needs %d bytes, the file has %d after its header", off, size, len(data)-off-8)
			}
			off += 8 + int(size)
			continue
		}
		if !bytes.HasPrefix(data[off:], zstdMagic) {
			return 0, notZstd("the bytes at byte %d after the last frame start no zstd frame", off)
		}
		var h zstd.Header
		if err := h.Decode(data[off:]); err != nil {
			return 0, notZstd("the frame header at byte %d is damaged (%v)", off, err)
		}
		frame := off
		off += h.HeaderSize
		var fbound uint64 // the most this frame's blocks can decompress to
		for {
			if len(data)-off < 3 {
				return 0, notZstd("the file ends at byte %d, inside the block header at byte %d (the file is cut short)", len(data), off)
			}
			bh := uint32(data[off]) | uint32(data[off+1])<<8 | uint32(data[off+2])<<16
			last, typ, size := bh&1 == 1, (bh>>1)&3, int(bh>>3)
			if typ == 3 {
				return 0, notZstd("the block at byte %d has the reserved type 3", off)
			}
			if size > maxBlockSize {
				return 0, notZstd("the block at byte %d declares %d bytes, more than zstd's %d", off, size, maxBlockSize)
			}
			payload := size
			switch typ {
			case 0:
				fbound += uint64(size)
			case 1:
				payload = 1
				fbound += uint64(size)
			case 2:
				fbound += maxBlockSize
			}
			if payload > len(data)-off-3 {
				return 0, notZstd("the file ends at byte %d, inside the block at byte %d, which needs %d bytes more (the file is cut short)", len(data), off, payload-(len(data)-off-3))
			}
			off += 3 + payload
			if last {
				break
			}
		}
		if h.HasCheckSum {
			if len(data)-off < 4 {
				return 0, notZstd("the file ends at byte %d, inside the checksum of the frame at byte %d (the file is cut short)", len(data), frame)
			}
			off += 4
		}
		if h.HasFCS && h.FrameContentSize > fbound {
			return 0, notZstd("the frame header at byte %d declares %d bytes of content, more than its blocks can hold (%d)", frame, h.FrameContentSize, fbound)
		}
		bound += fbound
	}
	return bound, nil
}

// frameDict is the dictionary id of data's first zstd frame, 0 for none.
func frameDict(data []byte) uint32 {
	var h zstd.Header
	if h.Decode(data) != nil {
		return 0
	}
	return h.DictionaryID
}

// encode compresses a built file as the game's .zs files are: one frame with the content
// size and no checksum, with dictionary dict (0: none), which must be one the server has.
// The output is at most zstd's bound for the input, a few bytes per 128 KiB over its size.
// The level is the one below the best: on the 2 MB corpus file it adds tens of ms to the
// build where the best level added over a second (BenchmarkBuildZstd), for 8% more bytes,
// and the game reads either.
func (u *unzstd) encode(data []byte, dict uint32) ([]byte, error) {
	enc, err := u.encoder(dict)
	if err != nil {
		return nil, err
	}
	return enc.EncodeAll(data, make([]byte, 0, len(data)/2+64)), nil
}

func (u *unzstd) encoder(dict uint32) (*zstd.Encoder, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if e, ok := u.encs[dict]; ok {
		return e, nil
	}
	opts := []zstd.EOption{
		zstd.WithEncoderCRC(false),
		zstd.WithEncoderConcurrency(1),
		zstd.WithEncoderLevel(zstd.SpeedBetterCompression),
	}
	if dict != 0 {
		b := u.dicts[dict]
		if b == nil {
			name := ""
			if n, ok := knownDicts[dict]; ok {
				name = " (" + n + ")"
			}
			return nil, &apiError{http.StatusUnprocessableEntity,
				fmt.Sprintf("the server has no zstd dictionary %d%s to compress the file with; save it as .ainb", dict, name),
				map[string]any{"dictionary": dict}}
		}
		opts = append(opts, zstd.WithEncoderDict(b))
	}
	e, err := zstd.NewWriter(nil, opts...)
	if err != nil {
		return nil, err
	}
	u.encs[dict] = e
	return e, nil
}

func dictionaryError(id uint32) *apiError {
	name := ""
	if n, ok := knownDicts[id]; ok {
		name = " (" + n + ")"
	}
	return &apiError{http.StatusUnprocessableEntity,
		fmt.Sprintf("zstd frame needs dictionary %d%s; upload the decompressed .ainb", id, name),
		map[string]any{"dictionary": id}}
}
