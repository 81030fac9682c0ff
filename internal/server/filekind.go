package server

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"unicode/utf8"

	"ainbeditor/internal/pack"
)

// ainbMagic starts every AINB file.
var ainbMagic = []byte("AIB ")

// ainbPoolOffset is where an AINB header keeps the offset of the string pool, the file's last
// section; ainbHeaderSize is the header's size.
const (
	ainbPoolOffset = 0x24
	ainbHeaderSize = 0x74
)

// fileKind names what a file's first bytes say it is, in words for a person ("a PNG image"),
// or "" when they say nothing this server knows. Game formats are named as package pack
// tells them apart; the others are the files a user picks by mistake most often.
func fileKind(b []byte) string {
	switch pack.Format(b) {
	case "ainb":
		return "an AINB file"
	case "aamp":
		return "an AAMP parameter file"
	case "sarc":
		return "a SARC archive (a pack)"
	case "zstd":
		return "a zstd-compressed file"
	case "zsdic":
		return "a zstd dictionary"
	case "yaz0":
		return "a Yaz0-compressed file"
	case "byml":
		return "a BYML file"
	}
	switch {
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return "a PNG image"
	case bytes.HasPrefix(b, []byte{0xff, 0xd8, 0xff}):
		return "a JPEG image"
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return "a GIF image"
	case bytes.HasPrefix(b, []byte("PK\x03\x04")), bytes.HasPrefix(b, []byte("PK\x05\x06")):
		return "a ZIP archive"
	case bytes.HasPrefix(b, []byte("%PDF-")):
		return "a PDF document"
	}
	// Text: JSON when all of it is JSON, else plain text when its start is UTF-8 without
	// control characters but line ends and tabs. Only the first 4 KiB are looked at for
	// text, so a huge upload costs no more than a small one.
	head := b[:min(len(b), 4<<10)]
	if len(head) == 0 || !isText(head) {
		return ""
	}
	if t := bytes.TrimSpace(b); len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t) {
		return "JSON text"
	}
	return "plain text"
}

// isText says whether b is UTF-8 with no control characters but tab, line feed and carriage
// return; a character cut at the end of b counts as text.
func isText(b []byte) bool {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n <= 1 {
			return !utf8.FullRune(b)
		}
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return false
		}
		b = b[n:]
	}
	return true
}

// ainbTruncated says whether data, which starts like an AINB file, ends before an AINB file
// can: inside the header, before the string pool the header points to, or inside that pool.
// The string pool is the last section and ends with a NUL: every file of the corpus and of
// the game files does.
func ainbTruncated(data []byte) bool {
	if len(data) < ainbHeaderSize {
		return true
	}
	pool := binary.LittleEndian.Uint32(data[ainbPoolOffset:])
	return uint64(pool) >= uint64(len(data)) || data[len(data)-1] != 0
}

// openError is the refusal of an upload that did not parse (err is the reader's error), in
// plain words where the bytes allow: what they are when they are no AINB file ("this is a
// PNG image, not an AINB file"), or where an AINB file was cut short. Otherwise, and for
// everything the reader found in a whole file, the reader's own error with its offset.
// unpacked says the bytes came out of a zstd upload. Only a failed parse comes here, so no
// file that reads is refused for what it looks like.
func openError(data []byte, unpacked bool, err error) error {
	detail := map[string]any{"reason": err.Error()}
	this := "this is"
	if unpacked {
		this = "this file decompresses to"
	}
	if !bytes.HasPrefix(data, ainbMagic) {
		k := fileKind(data)
		detail["kind"] = k
		switch {
		case k != "":
			return &apiError{http.StatusUnprocessableEntity, fmt.Sprintf("%s %s, not an AINB file", this, k), detail}
		case unpacked:
			return &apiError{http.StatusUnprocessableEntity, "this file decompresses to something that is not an AINB file: an AINB file starts with the bytes \"AIB \"", detail}
		}
		return &apiError{http.StatusUnprocessableEntity, "this is not an AINB file: an AINB file starts with the bytes \"AIB \"", detail}
	}
	if ainbTruncated(data) {
		detail["offset"] = len(data)
		what := "this file"
		if unpacked {
			what = "the decompressed file"
		}
		return &apiError{http.StatusUnprocessableEntity, fmt.Sprintf("%s is truncated at byte %d: an AINB file ends with its string pool, and this one stops before its end", what, len(data)), detail}
	}
	return codecError(err)
}
