package main

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Names inside files (SARC members, BYML keys, AINB nodes) reach the terminal in listings,
// warnings and errors. A name holding ESC]0;… sets the terminal's title, ESC[2J clears the
// screen, a newline forges a line of the listing and U+202E reverses what follows; a byte
// 0x9B is a CSI to terminals reading 8-bit controls. So every message line and every listed
// name is printed with such characters escaped.

// termSafe escapes what is not a visible character (or a space): C0 and C1 controls, DEL,
// format characters (bidi overrides, zero-width characters), line and paragraph
// separators, and bytes that are not UTF-8. ASCII controls are written as Go writes them in
// a string literal (\n, \t, \x1b), other runes as \uXXXX, stray bytes as \xNN. Backslashes
// are left alone, so a message quoting a name with %q does not come out escaped twice.
func termSafe(s string) string {
	i := strings.IndexFunc(s, func(r rune) bool { return r == utf8.RuneError || !unicode.IsGraphic(r) })
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for s = s[i:]; s != ""; {
		r, n := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case r == utf8.RuneError || unicode.IsGraphic(r):
			b.WriteString(s[:n]) // U+FFFD itself, spelled out in the text
		case r < utf8.RuneSelf:
			if e := asciiEscape(byte(r)); e != "" {
				b.WriteString(e)
			} else {
				fmt.Fprintf(&b, `\x%02x`, r)
			}
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		s = s[n:]
	}
	return b.String()
}

func asciiEscape(c byte) string {
	switch c {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	return ""
}

// say prints one message line, formatted as fmt.Sprintf does, with termSafe applied to
// the whole line: file names, names from files and the errors quoting them alike.
func say(w io.Writer, format string, args ...any) {
	io.WriteString(w, termSafe(fmt.Sprintf(format, args...))+"\n")
}

// termSafeText makes a whole text form (JSON, YAML, expression source) safe for a
// terminal, changing no valid document: it escapes only what JSON and YAML never hold raw,
// the controls other than newline, tab and carriage return, and bytes that are not UTF-8.
// Format characters and bidi overrides stay: in a YAML plain scalar "\u202e" is six
// characters, not one, so escaping them would change the document. The codecs escape
// their strings already; this guards the text forms whose names are not quoted (an
// expression's signatures) and any codec that someday forgets. b is returned as it is when
// there is nothing to escape.
func termSafeText(b []byte) []byte {
	i := cleanPrefix(b)
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+64)
	out = append(out, b[:i]...)
	for i < len(b) {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out = fmt.Appendf(out, `\x%02x`, b[i])
		case r == '\n' || r == '\t' || r == '\r' || r >= 0x20 && r < 0x7f || r > 0x9f:
			out = append(out, b[i:i+n]...)
		case r < utf8.RuneSelf:
			if e := asciiEscape(byte(r)); e != "" {
				out = append(out, e...)
			} else {
				out = fmt.Appendf(out, `\x%02x`, r)
			}
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += n
	}
	return out
}

// textStop marks the bytes cleanPrefix stops at: controls other than tab, newline and
// carriage return, DEL, and 0xC2, the lead byte of the C1 controls U+0080 to U+009F (and of
// other characters, which it then passes).
var textStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = c != '\t' && c != '\n' && c != '\r'
	}
	t[0x7f], t[0xc2] = true, true
	return t
}()

// cleanPrefix is the length of b's longest prefix with nothing termSafeText escapes. A
// byte table rather than decoding runes: a dump is megabytes of mostly clean text.
func cleanPrefix(b []byte) int {
	valid := utf8.Valid(b)
	for i, c := range b {
		if !valid && c >= utf8.RuneSelf {
			// Decoding from here on: the text is not all UTF-8.
			return i
		}
		if textStop[c] && (c != 0xc2 || i+1 < len(b) && b[i+1] <= 0x9f) {
			return i
		}
	}
	return len(b)
}
