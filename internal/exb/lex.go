package exb

import (
	"strings"
	"unicode/utf8"
)

// This file splits one line of the expression language (see README.md) into
// tokens. Statements never span lines, so the lexer works line by line and
// a token's position is a byte offset into its line.

type tokKind uint8

const (
	tokEOL    tokKind = iota // end of the line (or a // comment)
	tokIdent                 // letters, digits, '_'
	tokNumber                // 0x1f, 12, 1.5, 1e+20
	tokString                // a Go double-quoted string; text is the quoted form
	tokPunct                 // operators and punctuation
	tokBad                   // a character the language does not use
)

type token struct {
	kind tokKind
	text string
	pos  int
}

// punctAt is the operator or punctuation s starts with, the longest one ("<<" and not "<"),
// or "" for none.
func punctAt(s string) string {
	if len(s) >= 2 {
		switch s[:2] {
		case "&&", "||", "==", "!=", "<=", ">=", "<<", ">>":
			return s[:2]
		}
	}
	switch s[0] {
	case '(', ')', '[', ']', '{', '}', ',', ':', '=', '<', '>', '+', '-', '*', '/', '%', '&', '|', '^', '!', '.':
		return s[:1]
	}
	return ""
}

// lexLine splits s into tokens, ending with a tokEOL at the comment or the
// line's end. A string literal's value is left for the compiler to read.
func lexLine(s string, out []token) []token {
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
			i++
		}
		if i >= len(s) || strings.HasPrefix(s[i:], "//") {
			return append(out, token{kind: tokEOL, pos: i})
		}
		c := s[i]
		start := i
		switch {
		case isWordByte(c) && !('0' <= c && c <= '9'):
			for i < len(s) && isWordByte(s[i]) {
				i++
			}
			out = append(out, token{tokIdent, s[start:i], start})
		case '0' <= c && c <= '9':
			i = numberEnd(s, i)
			out = append(out, token{tokNumber, s[start:i], start})
		case c == '"':
			n, ok := quotedEnd(s[i:]) // the compiler reads its value (literalLeaf)
			if !ok {
				return append(out, token{tokBad, s[i:], start})
			}
			i += n
			out = append(out, token{tokString, s[start:i], start})
		default:
			p := punctAt(s[i:])
			if p == "" {
				_, n := utf8.DecodeRuneInString(s[i:])
				return append(out, token{tokBad, s[i : i+n], start})
			}
			out = append(out, token{tokPunct, p, start})
			i += len(p)
		}
	}
}

// numberEnd finds the end of the number at s[i]: hex digits after 0x, or
// decimal digits with an optional fraction and exponent.
func numberEnd(s string, i int) int {
	if strings.HasPrefix(s[i:], "0x") || strings.HasPrefix(s[i:], "0X") {
		i += 2
		for i < len(s) && isWordByte(s[i]) {
			i++
		}
		return i
	}
	digits := func() {
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
	}
	digits()
	if i < len(s) && s[i] == '.' && i+1 < len(s) && '0' <= s[i+1] && s[i+1] <= '9' {
		i++
		digits()
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && '0' <= s[j] && s[j] <= '9' {
			i = j
			digits()
		}
	}
	// Letters glued to a number make a bad number, reported as one token.
	for i < len(s) && isWordByte(s[i]) {
		i++
	}
	return i
}
