package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/jsontext"
	"ainbeditor/internal/sarc"
	"ainbeditor/internal/treecodec"
	"ainbeditor/internal/wrap"
	"ainbeditor/internal/zs"
)

// A format is one file format the command reads, recognized by its magic. Every operation is
// optional: a format without check is recognized (dump lists it inside archives) but its
// files cannot be checked.
type format struct {
	name  string
	magic func(b []byte) bool
	// check parses b, writes it again from the model and compares the bytes.
	check func(r *reader, b []byte) error
	// dump writes the file's text form.
	dump func(r *reader, b []byte, opt dumpOptions) ([]byte, error)
	// text reports whether a text document (the input of build) is this format's text form,
	// and fromText builds the binary from it.
	text     func(doc []byte) bool
	fromText func(doc []byte, opt buildOptions) ([]byte, error)
}

// buildOptions are what a text form does not say about its binary.
type buildOptions struct {
	bymlVersion uint16 // BYML version to write
	bigEndian   bool   // BYML byte order
}

func hasMagic(m string) func([]byte) bool {
	return func(b []byte) bool { return bytes.HasPrefix(b, []byte(m)) }
}

// formats is searched in order by magic. To add a codec, fill in its entry's functions.
// (Set in init because the archive's functions look formats up again for its members.)
var formats []*format

func init() {
	formats = []*format{
		{
			name:  "ainb",
			magic: hasMagic("AIB "),
			check: func(r *reader, b []byte) error {
				f, err := ainb.Read(b)
				if err != nil {
					return err
				}
				for _, p := range f.Warnings() {
					r.warn(p.String())
				}
				out, err := f.Bytes()
				return sameBytes(b, out, err)
			},
			dump: dumpAINB,
			// AINB's text forms are JSON objects; no other format's text starts with '{'.
			text:     isJSONObject,
			fromText: buildAINB,
		},
		{
			name:  "aamp",
			magic: aampCodec.Is,
			check: checkTree(aampCodec),
			dump:  dumpTree(aampCodec),
			text:  func(doc []byte) bool { return firstToken(doc) == "!io" },
			fromText: func(doc []byte, _ buildOptions) ([]byte, error) {
				t, err := aampCodec.FromYAML(doc)
				if err != nil {
					return nil, err
				}
				return t.Bytes()
			},
		},
		{
			name:  "sarc",
			magic: hasMagic("SARC"),
			check: checkSARC,
			dump:  dumpSARC,
		},
		{
			// BYML (magic "BY" big endian, "YB" little endian, then a 16-bit version).
			name:  "byml",
			magic: bymlCodec.Is,
			check: checkTree(bymlCodec),
			dump:  dumpTree(bymlCodec),
			text:  func([]byte) bool { return true }, // any YAML the formats before decline
			fromText: func(text []byte, opt buildOptions) ([]byte, error) {
				t, err := bymlCodec.FromYAML(text)
				if err != nil {
					return nil, err
				}
				doc := t.(treecodec.BYML)
				doc.Version, doc.BigEndian = opt.bymlVersion, opt.bigEndian
				return doc.BytesCanonical()
			},
		},
		{
			// The game's zstd dictionaries (the members of ZsDic.pack.zs): nothing to write
			// again, but check loads each into a zstd codec.
			name:  "zsdic",
			magic: hasMagic("\x37\xa4\x30\xec"),
			check: func(_ *reader, b []byte) error {
				d, err := zs.ParseDict("", b)
				if err != nil {
					return err
				}
				c, err := zs.New(d)
				if err != nil {
					return err
				}
				c.Close()
				return nil
			},
			dump: func(_ *reader, b []byte, _ dumpOptions) ([]byte, error) {
				d, err := zs.ParseDict("", b)
				if err != nil {
					return nil, err
				}
				name := zs.DictNames[d.ID]
				if name == "" {
					name = "not one of TotK's"
				}
				return fmt.Appendf(nil, "zstd dictionary %d (%s), %d bytes\n", d.ID, name, len(b)), nil
			},
		},
	}
}

func formatOf(b []byte) *format {
	for _, f := range formats {
		if f.magic(b) {
			return f
		}
	}
	return nil
}

// firstToken returns the start of a text document's first token: "{" for JSON, "!io" for
// AAMP YAML, skipping a byte order mark, blank and comment lines and a "---" marker.
func firstToken(doc []byte) string {
	s := strings.TrimPrefix(string(doc[:min(len(doc), 4096)]), "\ufeff")
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		switch {
		case strings.HasPrefix(s, "#"), strings.HasPrefix(s, "%"):
			if i := strings.IndexByte(s, '\n'); i >= 0 {
				s = s[i+1:]
				continue
			}
			return ""
		case strings.HasPrefix(s, "---"):
			s = s[3:]
			continue
		case strings.HasPrefix(s, "{"):
			return "{"
		}
		if i := strings.IndexAny(s, " \t\r\n"); i >= 0 {
			return s[:i]
		}
		return s
	}
}

// sameBytes reports how a rewritten file differs from the original.
func sameBytes(orig, out []byte, err error) error {
	if err != nil {
		return err
	}
	if bytes.Equal(orig, out) {
		return nil
	}
	return differs(orig, out)
}

func differs(a, b []byte) error {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Errorf("written file differs at offset %#x (%#02x, was %#02x)", i, b[i], a[i])
		}
	}
	return fmt.Errorf("written file is %d bytes, was %d", len(b), len(a))
}

// A wrapper is a compression layer around a file, as internal/wrap reads it from the
// file's first bytes: Kind names it in messages ("yaz0", "zstd").
type wrapper = wrap.Wrapping

// wrapperOf is the compression layer b starts with, or nil for none.
func wrapperOf(b []byte) *wrapper {
	if w := wrap.Of(b); w.Kind != wrap.None {
		return &w
	}
	return nil
}

// Limits on decompression across all the layers of one input file: nesting depth, and
// decoded bytes in total, so that archives of compressed archives cannot multiply the
// codecs' own per-layer bounds. The ratio is zstd's own maximum (zs.MaxExpansion: a 4-byte
// RLE block for 128 KiB), which this tool's encoder reaches on runs: any smaller ratio would
// refuse a .zs file the tool itself wrote. zs.MaxSize caps the total.
const (
	maxDepth    = 8
	budgetRatio = zs.MaxExpansion
	budgetBase  = 1 << 20
)

// A reader holds what reading one input file needs: the zstd codec and the budget of
// decoded bytes still allowed.
type reader struct {
	zs     *zs.Codec
	budget int64
	depth  int // layers (compression or archive) entered by check

	members  []string // the archive members check is inside, outermost first
	warnings []string // what check accepted although it breaks a format's rule or names nothing
}

func newReader(c *zs.Codec, size int) *reader {
	return &reader{zs: c, budget: min(budgetRatio*int64(size)+budgetBase, zs.MaxSize)}
}

// unwrap decodes one compression layer, within what is left of the budget.
func (r *reader) unwrap(w *wrapper, b []byte) ([]byte, error) {
	out, _, err := wrap.Unwrap(b, r.zs, uint64(max(r.budget, 1)))
	var le *zs.LimitError
	var wl *wrap.LimitError
	switch {
	case errors.Is(err, zs.ErrMissingDict):
		err = fmt.Errorf("%w; give its path with -zsdic PATH or AINB_ZSDIC", err)
	case errors.As(err, &le) && le.Window == 0, errors.As(err, &wl):
		err = fmt.Errorf("%s: decoding would pass %d bytes, the budget for the input file", w.Kind, r.budget)
	}
	if err != nil {
		return nil, err
	}
	r.budget -= int64(len(out))
	return out, nil
}

// unwrapAll removes every compression layer and returns the innermost data.
func (r *reader) unwrapAll(b []byte) ([]byte, []*wrapper, error) {
	var ws []*wrapper
	for w := wrapperOf(b); w != nil; w = wrapperOf(b) {
		if len(ws) == maxDepth {
			return nil, nil, fmt.Errorf("more than %d nested compression layers", maxDepth)
		}
		var err error
		if b, err = r.unwrap(w, b); err != nil {
			return nil, nil, err
		}
		ws = append(ws, w)
	}
	return b, ws, nil
}

// recompress checks that this tool's encoder for the layer w gives a stream that decodes
// back to inner (Nintendo's encoders' exact bytes are not reproduced, so the compressed
// bytes themselves cannot be compared). A zstd frame is made with the dictionary the file's
// own frame names, and must read back within exactly the bytes it holds.
func (r *reader) recompress(w *wrapper, outer, inner []byte) error {
	enc, err := w.Wrap(context.Background(), inner, r.zs, zs.Smallest)
	var dec []byte
	if err == nil {
		dec, _, err = wrap.Unwrap(enc, r.zs, uint64(max(len(inner), 1)))
	}
	if err != nil {
		return fmt.Errorf("%s: compressing again: %w", w.Kind, err)
	}
	if !bytes.Equal(dec, inner) {
		return fmt.Errorf("%s: compressed again, it decodes to different bytes", w.Kind)
	}
	return nil
}

// loadZs builds the zstd codec from the -zsdic flag or, without it, AINB_ZSDIC; with
// neither it has no dictionaries and decodes only frames that need none.
func loadZs(path string) (*zs.Codec, error) {
	if path == "" {
		path = os.Getenv("AINB_ZSDIC")
	}
	if path == "" {
		return zs.New()
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c, err := zs.LoadZsDic(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// archive reads the SARC inside b, unwrapping any compression.
func (r *reader) archive(b []byte) (*sarc.Archive, []*wrapper, error) {
	inner, ws, err := r.unwrapAll(b)
	if err != nil {
		return nil, nil, err
	}
	if f := formatOf(inner); f == nil || f.name != "sarc" {
		return nil, nil, fmt.Errorf("not a SARC archive (%s)", describeInner(inner, ws))
	}
	a, err := sarc.Read(inner)
	return a, ws, err
}

// isJSONObject reports whether doc starts as a JSON object does: "{" then a quoted member name
// or "}". A YAML flow mapping starts with "{" too, but its keys go unquoted. (json.Valid
// would refuse the community format's NaN and Infinity.)
func isJSONObject(doc []byte) bool {
	doc = bytes.TrimLeft(doc, " \t\r\n")
	if len(doc) == 0 || doc[0] != '{' {
		return false
	}
	doc = bytes.TrimLeft(doc[1:], " \t\r\n")
	return len(doc) > 0 && (doc[0] == '"' || doc[0] == '}')
}

// The tree formats come from the one table the server uses too.
var (
	aampCodec = treecodec.Lookup("aamp")
	bymlCodec = treecodec.Lookup("byml")
)

// checkTree reads a tree format's file and writes it again: the bytes must come back.
func checkTree(c *treecodec.Codec) func(*reader, []byte) error {
	return func(_ *reader, b []byte) error {
		t, err := c.Read(b)
		if err != nil {
			return err
		}
		out, err := t.Bytes()
		return sameBytes(b, out, err)
	}
}

// dumpTree prints a tree format's file as YAML.
func dumpTree(c *treecodec.Codec) func(*reader, []byte, dumpOptions) ([]byte, error) {
	return func(_ *reader, b []byte, _ dumpOptions) ([]byte, error) {
		t, err := c.Read(b)
		if err != nil {
			return nil, err
		}
		return t.YAML(jsontext.NoLimit)
	}
}
