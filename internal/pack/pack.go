// Package pack opens the archives the games ship their files in (a SARC archive, bare or
// wrapped in Yaz0 or in Tears of the Kingdom's zstd with a dictionary) and saves them back
// with some members replaced.
//
// It is what lets the editor's server stay stateless: the browser keeps the pack as the user
// gave it and sends it again with the members it changed. Saving must never change the
// wrapping (kind, dictionary, Yaz0 alignment), nor any member the caller did not replace:
// those keep their bytes and their place because sarc's writer reproduces them from the
// archive's recorded layout. Opening must never take more than the decoders' fixed multiple
// of the input.
package pack

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"ainbeditor/internal/sarc"
	"ainbeditor/internal/wrap"
	"ainbeditor/internal/yaz0"
	"ainbeditor/internal/zs"
)

// Wrapping is how an archive is compressed (see package wrap, which unwraps and wraps).
type Wrapping = wrap.Wrapping

// Pack is an opened archive.
type Pack struct {
	Wrapping Wrapping
	Archive  *sarc.Archive
}

// Member describes one file of an archive.
type Member struct {
	Name string `json:"name"`
	Size int    `json:"size"`
	// Format is what the member's bytes are, by magic: see Format.
	Format string `json:"format"`
}

// ErrNotArchive is wrapped by Open when the (unwrapped) data is not a SARC archive.
var ErrNotArchive = errors.New("not a SARC archive")

// Open reads an archive, unwrapping zstd (with codec's dictionaries; codec may be nil for
// files without zstd) or Yaz0 first. Members' Data alias the unwrapped bytes. limit bounds
// the unwrapped archive's size (0: only the decoders' own multiple of the input).
func Open(data []byte, codec *zs.Codec, limit uint64) (*Pack, error) {
	if limit == 0 {
		limit = zs.MaxSize
	}
	inner, w, err := wrap.Unwrap(data, codec, limit)
	if err != nil {
		return nil, err
	}
	p := &Pack{Wrapping: w}
	if f := Format(inner); f != "sarc" {
		if f == "" {
			f = "data of no known format"
		}
		if p.Wrapping.Kind != "" {
			return nil, fmt.Errorf("pack: %s decompresses to %s: %w", p.Wrapping.Kind, f, ErrNotArchive)
		}
		return nil, fmt.Errorf("pack: the file is %s: %w", f, ErrNotArchive)
	}
	a, err := sarc.Read(inner)
	if err != nil {
		return nil, err
	}
	p.Archive = a
	return p, nil
}

// Members lists the archive's files in archive order.
func (p *Pack) Members() []Member {
	out := make([]Member, len(p.Archive.Files))
	for i, f := range p.Archive.Files {
		out[i] = Member{Name: f.Name, Size: len(f.Data), Format: Format(f.Data)}
	}
	return out
}

// Warnings lists what the archive breaks of the format's rules although the game loads it (a
// modding tool's short file size, bytes after the data), and what saving does about it: an
// unsaved or unedited pack keeps it, an edited one is saved corrected. See sarc.Warnings.
func (p *Pack) Warnings() []string {
	var out []string
	for _, w := range p.Archive.Warnings() {
		out = append(out, w.String())
	}
	return out
}

// Replace sets a member's bytes; the member must exist.
func (p *Pack) Replace(name string, data []byte) error {
	if p.Archive.Index(name) < 0 {
		return fmt.Errorf("pack: no member %q", name)
	}
	return p.Archive.Replace(name, data)
}

// Replacement is a member's new bytes.
type Replacement struct {
	Name string
	Data []byte
}

// ReplaceAll sets the bytes of every member named, in order, as Replace would; the members
// must exist. The members are found through one index of the names: a request may name
// thousands of members of an archive of thousands, and a scan per name made that quadratic
// (8,382 names of 16,383 long ones took minutes of CPU).
func (p *Pack) ReplaceAll(rs []Replacement) error {
	if len(rs) == 0 {
		return nil
	}
	index := make(map[string]int, len(p.Archive.Files))
	for i := len(p.Archive.Files) - 1; i >= 0; i-- {
		index[p.Archive.Files[i].Name] = i // the first of a repeated name wins, as in Index
	}
	for _, r := range rs {
		i, ok := index[r.Name]
		if !ok {
			return fmt.Errorf("pack: no member %q", r.Name)
		}
		p.Archive.Files[i].Data = r.Data
	}
	return nil
}

// Save writes the archive and wraps it as it was read, zstd at level (see zs.Level). codec
// must hold the dictionary of a zstd pack's frame.
func (p *Pack) Save(codec *zs.Codec, level zs.Level) ([]byte, error) {
	return p.SaveContext(context.Background(), codec, level)
}

// SaveContext is Save that stops, returning ctx's error, once ctx is done: compressing a
// large Yaz0 pack takes seconds.
func (p *Pack) SaveContext(ctx context.Context, codec *zs.Codec, level zs.Level) ([]byte, error) {
	return p.SaveInto(ctx, nil, codec, level)
}

// SaveInto is SaveContext writing into dst's memory when it has room: an unwrapped pack is
// the archive itself, and a fresh buffer of megabytes per save cost three times the writing
// (the collector's cycle, clearing, page faults). The result may alias dst; a wrapped pack's
// is always new.
func (p *Pack) SaveInto(ctx context.Context, dst []byte, codec *zs.Codec, level zs.Level) ([]byte, error) {
	if p.Wrapping.Kind == wrap.None {
		return p.Archive.AppendBinary(dst[:0])
	}
	// The archive is only the compressor's input: written into a buffer saves reuse, a
	// fresh one of the archive's size per save was most of the archive writer's cost.
	buf := archiveBuffers.Get().(*[]byte)
	defer putArchiveBuffer(buf)
	inner, err := p.Archive.AppendBinary((*buf)[:0])
	*buf = inner
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return p.Wrapping.Wrap(ctx, inner, codec, level) // compressed output never aliases inner
}

// archiveBuffers holds the buffers SaveContext writes archives into before compressing them.
var archiveBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledArchive is the largest buffer kept for reuse: an occasional huge archive's
// buffer is left to the collector rather than held.
const maxPooledArchive = 32 << 20

func putArchiveBuffer(buf *[]byte) {
	if cap(*buf) <= maxPooledArchive {
		archiveBuffers.Put(buf)
	}
}

// Format names what b is by its magic: "ainb", "byml", "aamp", "sarc", "zsdic" (a zstd
// dictionary), the wrappings "zstd" and "yaz0", or "" for none of these.
func Format(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("AIB ")):
		return "ainb"
	case bytes.HasPrefix(b, []byte("AAMP")):
		return "aamp"
	case bytes.HasPrefix(b, []byte("SARC")):
		return "sarc"
	case bytes.HasPrefix(b, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		return "zstd"
	case bytes.HasPrefix(b, []byte{0x37, 0xa4, 0x30, 0xec}):
		return "zsdic"
	case yaz0.IsYaz0(b):
		return "yaz0"
	case IsBYML(b):
		return "byml"
	}
	return ""
}

// IsBYML accepts "BY" or "YB" followed by a version from 1 to 10 in that byte order: two
// bytes of magic alone would claim too many files.
func IsBYML(b []byte) bool {
	if len(b) < 4 {
		return false
	}
	var v uint16
	switch string(b[:2]) {
	case "BY":
		v = binary.BigEndian.Uint16(b[2:])
	case "YB":
		v = binary.LittleEndian.Uint16(b[2:])
	default:
		return false
	}
	return v >= 1 && v <= 10
}
