// Package share stores shared editor states: an immutable JSON blob under a random id that a
// link (/s/{id}) can name.
//
// A Store is the only thing the server keeps between requests. The interface is small so a
// networked store (an object store or a database) can replace the data directory when many
// server instances run behind one address.
//
// The package must never use a caller's string as a path or a key before ValidID accepts it,
// never overwrite a share, and never make a partly written share visible under its id.
package share

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"time"
)

// Store keeps shares. Implementations must be safe for concurrent use.
type Store interface {
	// Put stores data under a new id and returns the id. The share is durable when Put
	// returns without error. Data over the size cap is ErrTooLarge, data that would take
	// the store past its quota ErrQuota; a store that cannot write answers ErrReadOnly,
	// ErrFull or ErrUnavailable (wrapping the cause).
	Put(ctx context.Context, data []byte) (id string, err error)
	// Get returns the data stored under id; ErrNotFound when there is none or id is not a
	// well-formed id.
	Get(ctx context.Context, id string) ([]byte, error)
	// Stat says whether a share exists, with its size and creation time, without reading
	// its data; ErrNotFound as for Get.
	Stat(ctx context.Context, id string) (Info, error)
	// Writable reports whether Put can store a share now: nil, or one of ErrReadOnly,
	// ErrFull and ErrUnavailable. A reached quota is not reported: the store still
	// serves what it holds. Stores may cache the answer for a few seconds.
	Writable(ctx context.Context) error
}

// Opener is a Store that can hand out a share as a stream, so serving it holds a buffer
// rather than the whole share. The directory store is one. The PostgreSQL store is not: a
// row's value reaches the client whole, and reading a compressed value in slices would make
// the database decompress it again for every slice.
type Opener interface {
	// Open returns the share stored under id for reading, with its Info; the caller closes
	// it. ErrNotFound as for Get. What it reads is exactly what Get would return.
	Open(ctx context.Context, id string) (io.ReadCloser, Info, error)
}

// Info describes a stored share.
type Info struct {
	Size    int64
	Created time.Time
}

// Limits bound what a store accepts.
type Limits struct {
	// MaxSize caps one share, in bytes; it must be positive.
	MaxSize int64
	// Quota caps the sum of the sizes of all shares, in bytes; 0 means no quota.
	Quota int64
}

func (l Limits) check() error {
	if l.MaxSize <= 0 {
		return fmt.Errorf("share: size cap %d must be positive", l.MaxSize)
	}
	if l.Quota < 0 {
		return fmt.Errorf("share: quota %d must not be negative", l.Quota)
	}
	return nil
}

var (
	// ErrNotFound reports an id with no share, including ids that are not well formed.
	ErrNotFound = errors.New("share: not found")
	// ErrTooLarge reports data over the store's size cap.
	ErrTooLarge = errors.New("share: too large")
	// ErrQuota reports a share that would take the store past its total quota. Shares are
	// never deleted by the server, so only an operator can make room.
	ErrQuota = errors.New("share: storage quota reached")
	// ErrFull reports a store whose disk (or database volume) has no space left.
	ErrFull = errors.New("share: no space left for shares")
	// ErrReadOnly reports a store that refuses writes: a read-only filesystem or database,
	// or a directory the server may not write to.
	ErrReadOnly = errors.New("share: the store is read-only")
	// ErrUnavailable reports a store that cannot be reached at all: its directory is gone
	// or replaced, or the database does not answer.
	ErrUnavailable = errors.New("share: the store is unavailable")
)

// writeErr marks err, a failure to write, with the kind among ErrReadOnly, ErrFull and
// ErrUnavailable; the original error stays in the chain for the logs.
func writeErr(kind, err error) error { return fmt.Errorf("%w: %w", kind, err) }

// IDLen is the length of an id: 128 random bits in unpadded base32, 26 characters.
const IDLen = 26

// The alphabet is lower-case base32 (RFC 4648). Ids must stay distinct on case-insensitive
// filesystems (a data volume on macOS or Windows), which rules out base64; base32 is shorter
// than hex.
var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// NewID returns a fresh random id.
func NewID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails: crypto/rand panics rather than return a weak value
	return idEncoding.EncodeToString(b[:])
}

// ValidID reports whether id is exactly what NewID could return. Only such an id is ever
// turned into a path or a key.
func ValidID(id string) bool {
	if len(id) != IDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || '2' <= c && c <= '7') {
			return false
		}
	}
	// The last character carries 3 bits and 2 unused ones; encoding the decoded bytes again
	// rejects a non-zero unused bit, so each id has exactly one spelling.
	b, err := idEncoding.DecodeString(id)
	return err == nil && len(b) == 16 && idEncoding.EncodeToString(b) == id
}
