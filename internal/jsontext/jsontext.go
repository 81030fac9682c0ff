// Package jsontext writes JSON text pieces by appending to a byte slice, for the project's
// hand-written encoders (the editor document, the AINB JSON dumps), which must not pay for
// encoding/json's reflection and re-compaction, and reads JSON with Scanner, the one
// tokenizer of every JSON reader in the project (the editor document, the BYML, AAMP and
// community AINB forms, the command's peeks): strings are slices of the text or unescaped
// into a reused buffer, numbers stay text until the reader converts them, and every error is
// a *SyntaxError with its offset, line, column and path. It never decides a document's shape
// and never builds a tree: readers walk their own shapes.
package jsontext

import (
	"unicode/utf8"

	"ainbeditor/internal/textscan"
)

// AppendString quotes s as JSON. Control characters, quotes and backslashes are escaped, and
// U+2028 and U+2029, which end lines in JavaScript, as encoding/json does; unlike it, <, >
// and & stay as they are, since names in AINB files are meant to be read. Bytes that are not
// UTF-8 become U+FFFD, one for each byte.
//
// One pass, one loop: plain ASCII is skipped eight bytes at a time and runs of kana and CJK
// three at a time, and only the bytes that need more go to the full check. Kept in one
// function because text that mixes scripts switches every few characters, and a call per
// run (or a separate utf8.ValidString pass) cost more than the quoting itself.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			n := textscan.PlainPrefix(textscan.Word(s, i), true)
			i += n
			if n == 8 {
				continue
			}
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' { // only within the last eight bytes
				i++
				continue
			}
			b = append(b, s[start:i]...)
			b = appendEscape(b, c)
			i++
			start = i
			continue
		}
		if textscan.IsCJK3(s, i) {
			for i += 3; i < len(s) && textscan.IsCJK3(s, i); i += 3 {
			}
			continue
		}
		n := sequenceLen(s[i:])
		switch {
		case n == 0:
			b = append(b, s[start:i]...)
			b = append(b, "\\ufffd"...)
			i++
			start = i
			continue
		case c == 0xE2 && s[i+1] == 0x80 && s[i+2]&^1 == 0xA8:
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', "89"[s[i+2]&1])
			start = i + 3
		}
		i += n
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// sequenceLen is the length of the UTF-8 sequence s starts with (its first byte is not
// ASCII), or 0 when it is not one: the ranges of RFC 3629, which leave out overlong forms,
// surrogates and code points past U+10FFFF.
func sequenceLen(s string) int {
	c := s[0]
	switch {
	case c < 0xC2:
	case c < 0xE0:
		if len(s) >= 2 && s[1]&0xC0 == 0x80 {
			return 2
		}
	case c < 0xF0:
		lo, hi := byte(0x80), byte(0xBF)
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
		if len(s) >= 3 && lo <= s[1] && s[1] <= hi && s[2]&0xC0 == 0x80 {
			return 3
		}
	case c < 0xF5:
		lo, hi := byte(0x80), byte(0xBF)
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
		if len(s) >= 4 && lo <= s[1] && s[1] <= hi && s[2]&0xC0 == 0x80 && s[3]&0xC0 == 0x80 {
			return 4
		}
	}
	return 0
}

// appendEscape escapes one ASCII byte that textscan.PlainRun stops at.
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

// unescape gives the byte a one-character escape (\" \\ \/ \b \f \n \r \t) stands for; ok is
// false for any other character after the backslash, \u included, which Scanner decodes.
func unescape(c byte) (b byte, ok bool) {
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
