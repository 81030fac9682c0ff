// Package jsontext writes JSON text pieces by appending to a byte slice, for the project's
// hand-written encoders (the editor document, the AINB JSON dumps), which must not pay for
// encoding/json's reflection and re-compaction. It never decides a document's shape.
package jsontext

import "unicode/utf8"

// plain marks the bytes a JSON string holds as they are: printable ASCII but the quote and
// the backslash.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// AppendString quotes s as JSON. Control characters, quotes and backslashes are escaped, and
// U+2028 and U+2029, which end lines in JavaScript, as encoding/json does; unlike it, <, >
// and & stay as they are, since names in AINB files are meant to be read. Bytes that are not
// UTF-8 become U+FFFD.
func AppendString(b []byte, s string) []byte {
	if utf8.ValidString(s) {
		return appendValid(b, s)
	}
	return appendAny(b, s)
}

// quiet marks the bytes a valid UTF-8 string holds as they are: all but the ASCII ones plain
// lacks and 0xE2, the lead byte of U+2028 and U+2029.
var quiet = func() (t [256]bool) {
	for c := range 256 {
		t[c] = plain[c] || c >= utf8.RuneSelf && c != 0xE2
	}
	return t
}()

// appendValid is AppendString for valid UTF-8, where names in other scripts cost one table
// lookup a byte instead of a rune decode.
func appendValid(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quiet[c] {
			continue
		}
		if c == 0xE2 {
			// Valid UTF-8: a lead byte has its continuation bytes.
			if s[i+1] != 0x80 || s[i+2]&^1 != 0xA8 {
				continue
			}
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', "89"[s[i+2]&1])
			i += 2
			start = i + 1
			continue
		}
		b = append(b, s[start:i]...)
		b = appendEscape(b, c)
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendEscape escapes one ASCII byte that plain lacks.
func appendEscape(b []byte, c byte) []byte {
	const hex = "0123456789abcdef"
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
}

// appendAny is AppendString for text that is not valid UTF-8.
func appendAny(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			b = appendEscape(b, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, "\\ufffd"...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// Unescape gives the byte a one-character escape (\" \\ \/ \b \f \n \r \t) stands for; ok is
// false for any other character after the backslash, \u included, which readers decode
// themselves since they report errors differently.
func Unescape(c byte) (b byte, ok bool) {
	switch c {
	case '"', '\\', '/':
		return c, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}
