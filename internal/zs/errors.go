package zs

import (
	"errors"
	"fmt"
)

// FormatError is a zstd stream no valid file holds: cut short, a reserved block type, a
// frame declaring more than its blocks hold, data the decoder cannot decode. Offset is where
// the stream goes wrong (0 when the decoder, which does not say, found it); Reason says so in
// plain words, with the byte offsets a user can look up.
type FormatError struct {
	Offset int
	Reason string
}

func (e *FormatError) Error() string { return "not a valid zstd file: " + e.Reason }

func formatError(off int, format string, args ...any) error {
	return &FormatError{Offset: off, Reason: fmt.Sprintf(format, args...)}
}

// ErrMissingDict is what every DictionaryError is (errors.Is).
var ErrMissingDict = errors.New("missing dictionary")

// DictionaryError is a frame that needs, or a compression that asks for, a dictionary the
// codec was not given.
type DictionaryError struct {
	ID uint32
}

func (e *DictionaryError) Error() string {
	return fmt.Sprintf("zstd frame needs dictionary %d%s", e.ID, DictLabel(e.ID))
}

func (e *DictionaryError) Is(target error) bool { return target == ErrMissingDict }

// DictLabel names one of the game's dictionaries for a message, as " (TotK's pack.zsdic)",
// or "" for an id the games do not use.
func DictLabel(id uint32) string {
	if name, ok := DictNames[id]; ok {
		return " (TotK's " + name + ")"
	}
	return ""
}

// LimitError is a stream that would decompress past the caller's limit, or whose frame asks
// for a window (the history a streaming decoder keeps) past MaxWindow.
type LimitError struct {
	Limit  uint64 // the limit passed
	Window uint64 // the window asked for, when that is the reason; else 0
}

func (e *LimitError) Error() string {
	if e.Window > 0 {
		return fmt.Sprintf("the file asks for a zstd window of %d bytes to decompress, more than the limit of %d; compress it with a smaller window", e.Window, MaxWindow)
	}
	return fmt.Sprintf("the file decompresses to more than %d bytes, the limit", e.Limit)
}
