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
)

// Store keeps shares. Implementations must be safe for concurrent use.
type Store interface {
	// Put stores data under a new id and returns the id. The share is durable when Put
	// returns without error.
	Put(ctx context.Context, data []byte) (id string, err error)
	// Get returns the data stored under id; ErrNotFound when there is none or id is not a
	// well-formed id.
	Get(ctx context.Context, id string) ([]byte, error)
}

var (
	// ErrNotFound reports an id with no share, including ids that are not well formed.
	ErrNotFound = errors.New("share: not found")
	// ErrTooLarge reports data over the store's size cap.
	ErrTooLarge = errors.New("share: too large")
)

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
