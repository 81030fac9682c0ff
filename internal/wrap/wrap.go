// Package wrap removes and puts back the compression the games wrap their files in: Yaz0,
// and Tears of the Kingdom's zstd with one of its dictionaries. It is the one place that
// unwraps: packs, trees, AINB uploads, builds and the command line all go through Unwrap and
// Wrapping.Wrap, so a file is saved with the very wrapping it came in (kind, zstd dictionary,
// Yaz0 alignment).
//
// Unwrapping is bounded by the caller's limit on the unwrapped size, checked before the
// output is allocated. The package never looks inside what it unwraps, and never picks a
// wrapping by a file's name: a file's own bytes say how it is wrapped.
package wrap

import (
	"context"
	"fmt"

	"ainbeditor/internal/yaz0"
	"ainbeditor/internal/zs"
)

// Kinds of wrapping.
const (
	None = ""
	Yaz0 = "yaz0"
	Zstd = "zstd"
)

// Wrapping is how a file is compressed.
type Wrapping struct {
	// Kind is Zstd, Yaz0 or None.
	Kind string `json:"kind"`
	// Dictionary is the zstd frame's dictionary id (0 for none).
	Dictionary uint32 `json:"dictionary,omitempty"`
	// Yaz0Alignment is the alignment word of a Yaz0 header, written back as it was.
	Yaz0Alignment uint32 `json:"yaz0Alignment,omitempty"`
}

// LimitError is a file whose unwrapped size would pass the caller's limit. (zstd's own
// limit errors are *zs.LimitError.)
type LimitError struct {
	Size, Limit uint64
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("the file decompresses to %d bytes, more than the limit of %d", e.Size, e.Limit)
}

// Of says how data is wrapped by its first bytes, without unwrapping it (Dictionary and
// Yaz0Alignment are read from the header when it is whole).
func Of(data []byte) Wrapping {
	switch {
	case zs.IsZstd(data):
		id, _ := zs.FrameDictID(data)
		return Wrapping{Kind: Zstd, Dictionary: id}
	case yaz0.IsYaz0(data):
		h, _ := yaz0.ParseHeader(data)
		return Wrapping{Kind: Yaz0, Yaz0Alignment: h.Alignment}
	}
	return Wrapping{}
}

// Unwrap removes data's wrapping, if any, and says what it was. A zstd file needs codec to
// hold the dictionary its frame names (codec may be nil: frames without a dictionary still
// decode). The unwrapped file is at most limit bytes (0: zs.MaxSize); data without a
// wrapping is returned as it is. Errors are the decoders' typed ones (*zs.FormatError,
// *zs.DictionaryError, *zs.LimitError, *yaz0.FormatError) or a *LimitError.
func Unwrap(data []byte, codec *zs.Codec, limit uint64) ([]byte, Wrapping, error) {
	if limit == 0 || limit > zs.MaxSize {
		limit = zs.MaxSize
	}
	switch {
	case zs.IsZstd(data):
		id, err := zs.FrameDictID(data)
		if err != nil {
			return nil, Wrapping{}, err
		}
		if codec == nil {
			if codec, err = zs.New(); err != nil {
				return nil, Wrapping{}, err
			}
			defer codec.Close()
		}
		out, err := codec.Decompress(data, limit)
		if err != nil {
			return nil, Wrapping{}, err
		}
		return out, Wrapping{Kind: Zstd, Dictionary: id}, nil
	case yaz0.IsYaz0(data):
		h, err := yaz0.ParseHeader(data)
		if err != nil {
			return nil, Wrapping{}, err
		}
		if uint64(h.Size) > limit {
			return nil, Wrapping{}, &LimitError{Size: uint64(h.Size), Limit: limit}
		}
		h, out, err := yaz0.Decompress(data)
		if err != nil {
			return nil, Wrapping{}, err
		}
		return out, Wrapping{Kind: Yaz0, Yaz0Alignment: h.Alignment}, nil
	}
	return data, Wrapping{}, nil
}

// Wrap compresses inner as w says, at level for zstd (see zs.Level), stopping once ctx is
// done (Yaz0 of a large pack takes seconds). A zstd wrapping needs codec to hold its
// dictionary (codec may be nil for none).
func (w Wrapping) Wrap(ctx context.Context, inner []byte, codec *zs.Codec, level zs.Level) ([]byte, error) {
	switch w.Kind {
	case Zstd:
		if codec == nil {
			var err error
			if codec, err = zs.New(); err != nil {
				return nil, err
			}
			defer codec.Close()
		}
		return codec.Compress(w.Dictionary, inner, level)
	case Yaz0:
		return yaz0.CompressContext(ctx, inner, w.Yaz0Alignment)
	case None:
		return inner, nil
	}
	return nil, fmt.Errorf("wrap: no wrapping of kind %q", w.Kind)
}

// String says the wrapping in words: "zstd with dictionary 3", "Yaz0", "none".
func (w Wrapping) String() string {
	switch w.Kind {
	case Zstd:
		if w.Dictionary == 0 {
			return "zstd without a dictionary"
		}
		return fmt.Sprintf("zstd with dictionary %d", w.Dictionary)
	case Yaz0:
		return "Yaz0"
	}
	return "none"
}
