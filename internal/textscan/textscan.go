// Package textscan finds, eight bytes at a time, the runs of text that quoting copies as
// they are, for the quoters of JSON strings and of expression string literals: names and
// strings are mostly plain ASCII, and a byte-at-a-time table walk was most of their cost.
// It also spots the three-byte sequences of kana and CJK that both quoters take inline. It
// only measures; what a quoter does with the bytes is its own business.
package textscan

import "math/bits"

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// byteMask has the high bit set in the lowest byte of w that is b, and maybe in bytes above
// it (a zero byte's borrow reaches into the next one), never below: so its lowest set bit
// is exact.
func byteMask(w uint64, b byte) uint64 {
	v := w ^ (ones * uint64(b))
	return (v - ones) &^ v & highs
}

// stops marks the bytes of w that end a run, exactly in its lowest marked byte: a byte below
// 0x20 borrows into its high bit, one of 0x80 or more has it set, and adding add (0, or 1 in
// each byte when 0x7f ends a run) carries 0x7f into it.
func stops(w, add uint64) uint64 {
	return ((w-ones*0x20)&^w|w|(w+add))&highs | byteMask(w, '"') | byteMask(w, '\\')
}

// PlainRun returns the end of the run starting at i of bytes from 0x20 to 0x7e other than
// '"' and '\\' (or to 0x7f when del is true, as JSON allows). s[i:] is returned whole when it
// is all such bytes.
func PlainRun(s string, i int, del bool) int {
	add := uint64(ones)
	if del {
		add = 0
	}
	for ; i+8 <= len(s); i += 8 {
		if m := stops(Word(s, i), add); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	if i == len(s) {
		return i
	}
	if len(s) >= 8 {
		// The last word, its bytes before i (which may be anything) replaced by a plain
		// one, so that they neither mark nor borrow.
		low := uint64(1)<<(8*(8-(len(s)-i))) - 1
		if m := stops(Word(s, len(s)-8)&^low|ones*'a'&low, add); m != 0 {
			return len(s) - 8 + bits.TrailingZeros64(m)/8
		}
		return len(s)
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7f || c == '"' || c == '\\' || c == 0x7f && !del {
			break
		}
	}
	return i
}

// PlainPrefix is how many of the bytes of w, a word of text loaded by Word, begin with a
// run PlainRun would take, 8 when all do. Small enough to inline, it lets a quoter keep its
// whole loop in one function: on text that switches scripts every few characters, a call
// per run cost more than the scan.
func PlainPrefix(w uint64, del bool) int {
	add := uint64(ones)
	if del {
		add = 0
	}
	return bits.TrailingZeros64(stops(w, add)) >> 3
}

// Word loads s[i:i+8] little-endian; the compiler makes it one load.
func Word(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// IsCJK3 reports whether s[i:] starts with a three-byte UTF-8 sequence led by E3 to EC:
// kana and CJK among them, the bulk of the Japanese text in game files. Unlike the other
// three-byte leads, these have no rule beyond their two continuation bytes, so the quoters
// take them inline instead of decoding them in full.
func IsCJK3(s string, i int) bool {
	c := s[i]
	return c-0xe3 <= 0xec-0xe3 && i+2 < len(s) && s[i+1]&0xc0 == 0x80 && s[i+2]&0xc0 == 0x80
}
