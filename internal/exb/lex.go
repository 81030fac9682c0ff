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
	kind  tokKind
	plain bool // a string literal without escapes: its value is the text between the quotes
	text  string
	pos   int
}

// Byte classes for lexLine, which looks each byte up once instead of testing it against
// each token's start in turn.
const (
	lexBad   = iota // a byte the language does not use (or a non-ASCII one)
	lexSpace        // ' ', '\t', '\r'
	lexWord         // a letter or '_', which starts an identifier
	lexDigit        // starts a number
	lexQuote        // '"'
	lexPunct        // an operator or punctuation character
)

var lexClass = func() (t [256]uint8) {
	for c := range 256 {
		switch b := byte(c); {
		case b == ' ' || b == '\t' || b == '\r':
			t[c] = lexSpace
		case '0' <= b && b <= '9':
			t[c] = lexDigit
		case isWordByte(b):
			t[c] = lexWord
		case b == '"':
			t[c] = lexQuote
		case strings.IndexByte("()[]{},:=<>+-*/%&|^!.", b) >= 0:
			t[c] = lexPunct
		}
	}
	return t
}()

// punctLen is the length of the operator or punctuation s starts with (s[0] is of class
// lexPunct), the longest one ("<<" and not "<").
func punctLen(s string) int {
	if len(s) >= 2 {
		switch n := s[1]; s[0] {
		case '&', '|':
			if n == s[0] {
				return 2
			}
		case '=', '!':
			if n == '=' {
				return 2
			}
		case '<', '>':
			if n == '=' || n == s[0] {
				return 2
			}
		}
	}
	return 1
}

// lexLine splits s into tokens, ending with a tokEOL at the comment or the
// line's end. A string literal's value is left for the compiler to read.
func lexLine(s string, out []token) []token {
	i := 0
	for {
		for i < len(s) && lexClass[s[i]] == lexSpace {
			i++
		}
		if i >= len(s) {
			return append(out, token{kind: tokEOL, pos: i})
		}
		c := s[i]
		start := i
		switch lexClass[c] {
		case lexWord:
			for i++; i < len(s) && isWordByte(s[i]); i++ {
			}
			out = append(out, token{kind: tokIdent, text: s[start:i], pos: start})
		case lexDigit:
			i = numberEnd(s, i)
			out = append(out, token{kind: tokNumber, text: s[start:i], pos: start})
		case lexQuote:
			n, plain, ok := quotedEndPlain(s[i:]) // the compiler reads its value (literalLeaf)
			if !ok {
				return append(out, token{kind: tokBad, text: s[i:], pos: start})
			}
			i += n
			out = append(out, token{kind: tokString, plain: plain, text: s[start:i], pos: start})
		case lexPunct:
			if c == '/' && i+1 < len(s) && s[i+1] == '/' {
				return append(out, token{kind: tokEOL, pos: i})
			}
			i += punctLen(s[i:])
			out = append(out, token{kind: tokPunct, text: s[start:i], pos: start})
		default:
			_, n := utf8.DecodeRuneInString(s[i:])
			return append(out, token{kind: tokBad, text: s[i : i+n], pos: start})
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
