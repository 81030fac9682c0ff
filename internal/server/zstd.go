package server

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"

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
type unzstd struct {
	dec   *zstd.Decoder
	max   int64
	dicts map[uint32]bool
}

func newUnzstd(max int64, concurrency int, dicts [][]byte) (*unzstd, error) {
	u := &unzstd{max: max, dicts: make(map[uint32]bool)}
	for i, b := range dicts {
		d, err := zstd.InspectDictionary(b)
		if err != nil {
			return nil, fmt.Errorf("zstd dictionary %d: %w", i+1, err)
		}
		u.dicts[d.ID()] = true
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

func (u *unzstd) close() { u.dec.Close() }

// decode decompresses data, which starts with the zstd magic.
func (u *unzstd) decode(data []byte) ([]byte, error) {
	// Read the first frame's header ourselves: the decoder's own error does not say which
	// dictionary is missing, and the user needs to know.
	var h zstd.Header
	if err := h.Decode(data); err == nil && h.DictionaryID != 0 && !u.dicts[h.DictionaryID] {
		return nil, dictionaryError(h.DictionaryID)
	}
	out, err := u.dec.DecodeAll(data, nil)
	switch {
	case err == nil:
		return out, nil
	case errors.Is(err, zstd.ErrDecoderSizeExceeded), errors.Is(err, zstd.ErrWindowSizeExceeded):
		return nil, &apiError{http.StatusRequestEntityTooLarge,
			fmt.Sprintf("the file decompresses to more than %d bytes, the limit", u.max),
			map[string]any{"limit": u.max}}
	case errors.Is(err, zstd.ErrUnknownDictionary):
		return nil, errorf(http.StatusUnprocessableEntity, "a zstd frame needs a dictionary the server does not have; upload the decompressed .ainb")
	}
	return nil, errorf(http.StatusUnprocessableEntity, "the file looks zstd-compressed but does not decompress: zstd: %v", err)
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
