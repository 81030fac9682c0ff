package jsontext

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// SyntaxError is text that is not JSON (or not the JSON a reader accepts: nested too deeply,
// a string that is not UTF-8). Offset is the byte the reader stopped at; Line and Column are
// 1-based, the column counting bytes; Path is where in the document the reader was, in the
// reader's own words ("nodes[3].name", "/root/Actors/2"), and may be empty.
type SyntaxError struct {
	Offset       int
	Line, Column int
	Path         string
	Reason       string
}

func (e *SyntaxError) Error() string {
	s := "invalid JSON at line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column)
	if e.Path != "" {
		s += " (in " + e.Path + ")"
	}
	return s + ": " + e.Reason
}

// FormError is JSON of the wrong form for its reader: valid text, but a value the format does
// not allow where it stands (an unknown node type, a string for a number). Reader names the
// format ("byml", "aamp"); the place is as in SyntaxError; Err is the reader's own words.
type FormError struct {
	Reader       string
	Offset       int
	Line, Column int
	Path         string
	Err          error
}

func (e *FormError) Error() string {
	s := e.Reader + ": json at line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column)
	if e.Path != "" {
		s += " (in " + e.Path + ")"
	}
	return s + ": " + e.Err.Error()
}

func (e *FormError) Unwrap() error { return e.Err }

// DefaultMaxDepth is the nesting a Scanner allows when MaxDepth is 0: far more than any of
// the project's documents use, and few enough that a reader recursing once per level stays
// small.
const DefaultMaxDepth = 64

// Scanner reads JSON text from a byte slice, one value at a time, for readers that walk a
// document of a known shape themselves (the editor document, the BYML, AAMP and community
// AINB forms): there is no token stream and no tree, so reading costs no allocation but the
// unescaped strings the caller asks to keep.
//
// Readers look at the next byte with Peek and call the reader for the value they want there.
// The first error is kept in Err and every later call does nothing, so a reader checks Err
// once per object or list rather than after each call. Data is never written.
type Scanner struct {
	Data []byte
	Pos  int
	Err  *SyntaxError

	// MaxDepth bounds how deeply Enter lets arrays and objects nest; 0 is DefaultMaxDepth.
	MaxDepth int
	// NonFinite accepts NaN, Infinity and -Infinity as numbers, as Python's json module
	// writes them (the community AINB JSON of dt-12345/AINB has them).
	NonFinite bool
	// Path, when set, names the place being read for a SyntaxError.
	Path func() string
	// BadUTF8, when set, is told of a string that is not UTF-8 (at is the offset of the
	// string's first byte when the string had escapes, of the bad byte otherwise; i is the
	// bad byte's index in the value) and reading goes on; when nil, such a string is a
	// SyntaxError.
	BadUTF8 func(at, i int, c byte)

	depth int
	// Where Position last counted to: the offset, its line and the start of that line.
	counted, countedLine, countedStart int
}

// NewScanner returns a Scanner over data.
func NewScanner(data []byte) *Scanner { return &Scanner{Data: data} }

// Position returns the 1-based line and column (in bytes) of offset off. It counts newlines
// on from the offset asked for last (readers ask in increasing order; an earlier offset is
// counted from the start), with no memory of its own: an index of every line start cost up
// to 40 bytes a line for one error in a text of blank lines.
func (s *Scanner) Position(off int) (line, col int) {
	if off < s.counted || s.countedLine == 0 {
		s.counted, s.countedLine, s.countedStart = 0, 1, 0
	}
	if end := min(off, len(s.Data)); end > s.counted {
		seg := s.Data[s.counted:end]
		if n := bytes.Count(seg, newline); n > 0 {
			s.countedLine += n
			s.countedStart = s.counted + bytes.LastIndexByte(seg, '\n') + 1
		}
		s.counted = end
	}
	return s.countedLine, off - s.countedStart + 1
}

var newline = []byte{'\n'}

// FailAt records a SyntaxError at offset off, unless there is one already.
func (s *Scanner) FailAt(off int, reason string) {
	if s.Err != nil {
		return
	}
	line, col := s.Position(off)
	e := &SyntaxError{Offset: off, Line: line, Column: col, Reason: reason}
	if s.Path != nil {
		e.Path = s.Path()
	}
	s.Err = e
}

// Fail records a SyntaxError at the current offset.
func (s *Scanner) Fail(reason string) { s.FailAt(s.Pos, reason) }

// Failf records a SyntaxError at the current offset, formatted.
func (s *Scanner) Failf(format string, args ...any) { s.FailAt(s.Pos, fmt.Sprintf(format, args...)) }

// Space skips white space.
func (s *Scanner) Space() {
	for s.Pos < len(s.Data) {
		switch s.Data[s.Pos] {
		case ' ', '\t', '\n', '\r':
			s.Pos++
		default:
			return
		}
	}
}

// Peek skips white space and returns the next byte, or 0 at the end of the text (or after
// an error, so that loops end).
func (s *Scanner) Peek() byte {
	// Documents mostly come compact: a byte above the space ends no white space, checked
	// inline before the loop, since Peek runs at every token.
	if s.Pos < len(s.Data) && s.Data[s.Pos] > ' ' {
		if s.Err != nil {
			return 0
		}
		return s.Data[s.Pos]
	}
	s.Space()
	if s.Pos >= len(s.Data) || s.Err != nil {
		return 0
	}
	return s.Data[s.Pos]
}

// Describe names the kind of value that starts with c, for messages ("want a string, found
// an object"); c is 0 at the end of the text.
func Describe(c byte) string {
	switch {
	case c == 0:
		return "the end of the text"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	}
	if c >= utf8.RuneSelf {
		return fmt.Sprintf("byte %#02x", c) // a part of a character, not the character
	}
	return strconv.QuoteRune(rune(c))
}

// Enter counts one more level of nesting, Pos just past its opening bracket, failing (at the
// bracket) past MaxDepth; Leave counts it back.
func (s *Scanner) Enter() bool {
	s.depth++
	// The common case alone, so that Enter inlines: readers enter a level for every object
	// and array.
	return s.MaxDepth == 0 && s.depth <= DefaultMaxDepth || s.enterMax()
}

// enterMax is Enter past its common case: a MaxDepth of the reader's, or nesting too deep.
func (s *Scanner) enterMax() bool {
	max := s.MaxDepth
	if max == 0 {
		max = DefaultMaxDepth
	}
	if s.depth > max {
		s.FailAt(s.Pos-1, "nested too deeply (more than "+strconv.Itoa(max)+" levels)")
		return false
	}
	return true
}

// Leave ends a level begun by Enter.
func (s *Scanner) Leave() { s.depth-- }

// Open consumes the bracket c ('{' or '[') after white space and enters a level; it fails,
// saying what was found, when the next value is something else.
func (s *Scanner) Open(c byte) bool {
	got := s.Peek()
	if got != c {
		if s.Err == nil {
			what := "an object"
			if c == '[' {
				what = "an array"
			}
			s.Failf("want %s, found %s", what, Describe(got))
		}
		return false
	}
	s.Pos++
	return s.Enter()
}

// More reports whether the object or array being read (closed by end, '}' or ']') has
// another member or element, consuming the comma before it; at the end it consumes the
// closing bracket, leaves the level and returns false. n is the number read so far.
func (s *Scanner) More(end byte, n int) bool {
	c := s.Peek()
	if c == end {
		s.Pos++
		s.Leave()
		return false
	}
	if s.Err != nil {
		return false
	}
	if n > 0 {
		if c != ',' {
			what := "an array element"
			if end == '}' {
				what = "an object member"
			}
			s.Failf("want , or %c after %s, found %s", end, what, Describe(c))
			return false
		}
		comma := s.Pos
		s.Pos++
		if c = s.Peek(); c == end {
			s.FailAt(comma, "a comma before "+string(end)+" (trailing commas are not JSON)")
			return false
		}
	}
	return true
}

// Key reads a member name and the colon after it. The name is a slice of the text when it
// has no escapes, else its value appended to buf[:0] (see String).
func (s *Scanner) Key(buf []byte) (name []byte, escaped bool) {
	if c := s.Peek(); c != '"' {
		if s.Err == nil {
			s.Failf("want a member name in double quotes, found %s", Describe(c))
		}
		return nil, false
	}
	name, escaped = s.String(buf)
	if s.Peek() != ':' {
		if s.Err == nil {
			s.Fail("want : after a member name")
		}
		return nil, false
	}
	s.Pos++
	return name, escaped
}

// String reads the string at Pos (its opening quote) and returns its value: a slice of Data
// when it has no escapes (escaped false), or the unescaped value appended to buf[:0]. With a
// nil buf the value gets a slice of its own, which the caller may keep.
func (s *Scanner) String(buf []byte) (v []byte, escaped bool) {
	if s.Err != nil {
		return nil, false
	}
	s.Pos++ // the quote
	start := s.Pos
	n, high := specialAt(s.Data[s.Pos:])
	if s.Pos += n; s.Pos < len(s.Data) {
		switch s.Data[s.Pos] {
		case '"':
			v := s.Data[start:s.Pos]
			s.Pos++
			if high && !validUTF8(v) {
				s.badUTF8(start, v, true)
			}
			return v, false
		case '\\':
			return s.escaped(start, high, buf), true
		}
		s.Fail("a control character in a string must be escaped")
		return nil, false
	}
	s.Fail("a string is not closed")
	return nil, false
}

// Text reads a string as a Go string: a substring of text (Data as a string, which the
// caller holds) when it has no escapes, else a string of its own.
func (s *Scanner) Text(text string) string {
	start := s.Pos + 1
	v, esc := s.String(nil)
	switch {
	case len(v) == 0:
		return ""
	case !esc:
		return text[start : start+len(v)]
	}
	// String made v for this string alone and nothing keeps it: the string can take it
	// over instead of copying it (expression texts, all escaped, run to tens of kilobytes).
	return unsafe.String(unsafe.SliceData(v), len(v))
}

// badUTF8 reports the first byte of the string v, read from offset start, that is not UTF-8;
// raw says v is the text itself (so the byte's offset is known), not its unescaped value.
// JSON text is UTF-8 (RFC 8259): taking such bytes would store a name no other tool reads
// the same way.
func (s *Scanner) badUTF8(start int, v []byte, raw bool) {
	i := 0
	for i < len(v) {
		r, n := utf8.DecodeRune(v[i:])
		if r == utf8.RuneError && n == 1 {
			break
		}
		i += n
	}
	at := start
	if raw {
		at += i
	}
	if s.BadUTF8 != nil {
		s.BadUTF8(at, i, v[i])
		return
	}
	s.FailAt(at, fmt.Sprintf("byte %d of this string, %#02x, is not UTF-8", i, v[i]))
}

// validUTF8 is utf8.Valid, taking the three-byte sequences led by E3 to EC (kana and CJK,
// the bulk of the Japanese text in expression and game strings) inline: unlike the other
// leads, theirs need no check beyond two continuation bytes, and utf8.Valid's general path
// cost several times as much per character on such text.
func validUTF8(b []byte) bool {
	const highs = 0x8080808080808080
	for i := 0; i < len(b); {
		if i+8 <= len(b) {
			// Past the ASCII bytes of the word: words with no other byte at once, the
			// spaces and punctuation between CJK words without a byte-at-a-time loop.
			m := binary.LittleEndian.Uint64(b[i:]) & highs
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) / 8
		}
		switch c := b[i]; {
		case c < utf8.RuneSelf:
			i++
		case c-0xe3 <= 0xec-0xe3 && i+2 < len(b) && b[i+1]&0xc0 == 0x80 && b[i+2]&0xc0 == 0x80:
			// Words of such characters come in runs: take the run before looking for
			// ASCII again.
			for i += 3; i+2 < len(b) && b[i]-0xe3 <= 0xec-0xe3 && b[i+1]&0xc0 == 0x80 && b[i+2]&0xc0 == 0x80; i += 3 {
			}
		default:
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				return false
			}
			i += n
		}
	}
	return true
}

// specialAt is the index of the first byte of b that ends a string, starts an escape or is a
// control character, or len(b) when there is none, and whether a byte before it is not
// ASCII (only such strings need checking for valid UTF-8). It reads eight bytes at a time:
// strings and member names are most of a document's bytes, and expression texts run to
// kilobytes.
func specialAt(b []byte) (int, bool) {
	const highs = 0x8080808080808080
	var high uint64
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if m := StringSpecial(w); m != 0 {
			n := bits.TrailingZeros64(m) / 8
			// The bytes below the first special one, each byte's top bit in place.
			return i + n, high|w&highs&(1<<(8*n)-1) != 0
		}
		high |= w & highs
	}
	for ; i < len(b); i++ {
		c := b[i]
		if c == '"' || c == '\\' || c < 0x20 {
			break
		}
		high |= uint64(c & 0x80)
	}
	return i, high != 0
}

// StringSpecial flags (with its top bit) each of the eight bytes of w, little-endian, that is
// '"', '\\' or below 0x20: the classic "has zero byte" and "has byte less than" tricks. Bytes
// above a flagged one may be flagged wrongly (a borrow carries into them); the lowest flag is
// always right, and no flag is set when no byte qualifies.
func StringSpecial(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	hasZero := func(x uint64) uint64 { return (x - ones) & ^x & highs }
	less := (w - ones*0x20) & ^w & highs
	return hasZero(w^(ones*'"')) | hasZero(w^(ones*'\\')) | less
}

// escaped finishes a string that has escapes, Pos at its first backslash.
func (s *Scanner) escaped(start int, high bool, b []byte) []byte {
	if b == nil {
		// Room for the whole string at once (escapes only shorten it): expression texts are
		// long and full of \n, and growing byte by byte would copy them many times.
		b = make([]byte, 0, s.Pos-start+rawStringLen(s.Data[s.Pos:]))
	}
	b = append(b[:0], s.Data[start:s.Pos]...)
	for s.Pos < len(s.Data) {
		n, h := specialAt(s.Data[s.Pos:])
		run := s.Pos + n
		high = high || h
		b = append(b, s.Data[s.Pos:run]...)
		if s.Pos = run; s.Pos == len(s.Data) {
			break
		}
		switch c := s.Data[s.Pos]; {
		case c == '"':
			s.Pos++
			if high && !validUTF8(b) {
				s.badUTF8(start, b, false)
			}
			return b
		case c < 0x20:
			s.Fail("a control character in a string must be escaped")
			return nil
		}
		if s.Pos+1 >= len(s.Data) {
			break
		}
		e := s.Data[s.Pos+1]
		s.Pos += 2
		if u, ok := unescape(e); ok {
			b = append(b, u)
			continue
		}
		if e != 'u' {
			s.Pos--
			s.Failf("invalid escape \\%c in a string", e)
			return nil
		}
		r, ok := s.hex4()
		if !ok {
			return nil
		}
		if utf16.IsSurrogate(r) {
			// A lone or mismatched surrogate becomes U+FFFD, as encoding/json and
			// JSON.parse (once in UTF-8) make it; the escape after a high surrogate that
			// does not pair with it is read again on its own.
			r2 := rune(-1)
			if s.Pos+1 < len(s.Data) && s.Data[s.Pos] == '\\' && s.Data[s.Pos+1] == 'u' {
				save := s.Pos
				s.Pos += 2
				if r2, ok = s.hex4(); !ok {
					return nil
				}
				if utf16.DecodeRune(r, r2) == utf8.RuneError {
					s.Pos = save
					r2 = -1
				}
			}
			if r2 < 0 {
				r = utf8.RuneError
			} else {
				r = utf16.DecodeRune(r, r2)
			}
		}
		b = utf8.AppendRune(b, r)
	}
	s.Fail("a string is not closed")
	return nil
}

// rawStringLen is the length of the string text at the start of b up to its closing quote,
// or of all of b when it has none.
func rawStringLen(b []byte) int {
	n := 0
	for {
		i := bytes.IndexByte(b[n:], '"')
		if i < 0 {
			return len(b)
		}
		n += i
		// The quote closes the string unless an odd number of backslashes escapes it.
		k := n
		for k > 0 && b[k-1] == '\\' {
			k--
		}
		if (n-k)%2 == 0 {
			return n
		}
		n++
	}
}

func (s *Scanner) hex4() (rune, bool) {
	if s.Pos+4 > len(s.Data) {
		s.Fail("a \\u escape needs four hex digits")
		return 0, false
	}
	var r rune
	for _, c := range s.Data[s.Pos : s.Pos+4] {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			s.Fail("a \\u escape needs four hex digits")
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	s.Pos += 4
	return r, true
}

// Number reads a number and returns its text, Pos at its first byte. With NonFinite it
// also reads NaN, Infinity and -Infinity.
func (s *Scanner) Number() []byte {
	if s.Err != nil {
		return nil
	}
	// The scan keeps its place in a local, set into Pos once: writing Pos at each digit
	// made a number cost a few times what it does (documents hold thousands).
	data, start := s.Data, s.Pos
	i := start
	if i < len(data) && data[i] == '-' {
		i++
	}
	if s.NonFinite && i < len(data) && (data[i] == 'I' || data[i] == 'N' && i == start) {
		s.Pos = i
		word := "Infinity"
		if data[i] == 'N' {
			word = "NaN"
		}
		if !s.Literal(word) {
			return nil
		}
		return data[start:s.Pos]
	}
	fail := func(at int, what string) []byte {
		s.Pos = at
		s.Fail("invalid number: want " + what + ", found " + s.byteAt(at))
		return nil
	}
	if i < len(data) && data[i] == '0' {
		i++
	} else if j := digitsEnd(data, i); j > i {
		i = j
	} else {
		return fail(i, "a digit")
	}
	if i < len(data) && data[i] == '.' {
		j := digitsEnd(data, i+1)
		if j == i+1 {
			return fail(j, "a digit after the decimal point")
		}
		i = j
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := digitsEnd(data, i)
		if j == i {
			return fail(j, "a digit in the exponent")
		}
		i = j
	}
	s.Pos = i
	return data[start:i]
}

// digitsEnd is the index of the first byte of b from i on that is not a digit.
func digitsEnd(b []byte, i int) int {
	for i < len(b) && b[i]-'0' <= 9 {
		i++
	}
	return i
}

// Literal reads word (true, false, null…) at Pos, failing when the text has anything else.
func (s *Scanner) Literal(word string) bool {
	if s.Err != nil {
		return false
	}
	if len(s.Data)-s.Pos < len(word) || string(s.Data[s.Pos:s.Pos+len(word)]) != word {
		// Point at the first byte that differs.
		i := 0
		for s.Pos+i < len(s.Data) && s.Data[s.Pos+i] == word[i] {
			i++
		}
		s.FailAt(s.Pos+i, "invalid literal: want "+word+", found "+s.byteAt(s.Pos+i))
		return false
	}
	s.Pos += len(word)
	return true
}

// Bool reads true or false; ok is false, with nothing read or recorded, when the next value
// is something else.
func (s *Scanner) Bool() (v, ok bool) {
	switch s.Peek() {
	case 't':
		return true, s.Literal("true")
	case 'f':
		return false, s.Literal("false")
	}
	return false, false
}

// IsNumber reports whether c starts a number (with NonFinite, NaN and Infinity too).
func (s *Scanner) IsNumber(c byte) bool {
	return c == '-' || c >= '0' && c <= '9' || s.NonFinite && (c == 'N' || c == 'I')
}

// Skip reads and discards one value, checking its syntax.
func (s *Scanner) Skip() {
	switch c := s.Peek(); {
	case s.Err != nil:
	case c == '{':
		s.Pos++
		if !s.Enter() {
			return
		}
		for n := 0; s.More('}', n); n++ {
			s.Key(nil)
			s.Skip()
		}
	case c == '[':
		s.Pos++
		if !s.Enter() {
			return
		}
		for n := 0; s.More(']', n); n++ {
			s.Skip()
		}
	case c == '"':
		s.skipString()
	case c == 't':
		s.Literal("true")
	case c == 'f':
		s.Literal("false")
	case c == 'n':
		s.Literal("null")
	case s.IsNumber(c):
		s.Number()
	case c == 0:
		s.Fail("the text ends where a value belongs")
	default:
		s.Failf("want a value, found %s", Describe(c))
	}
}

// skipString checks a string without keeping its value.
func (s *Scanner) skipString() {
	var buf [64]byte
	s.String(buf[:0])
}

// End checks that only white space follows the value read.
func (s *Scanner) End() {
	if s.Space(); s.Err == nil && s.Pos < len(s.Data) {
		s.Fail("text after the document: " + s.byteAt(s.Pos))
	}
}

// byteAt quotes the byte at offset i for a message, or says the text ends there.
func (s *Scanner) byteAt(i int) string {
	if i >= len(s.Data) {
		return "the end of the text"
	}
	c := s.Data[i]
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte %#02x", c)
}

// ParseInt reads the text of a number as an integer of at most 18 digits (no fraction or
// exponent); ok is false for any other text. It takes the common case without strconv's
// general path.
func ParseInt(t []byte) (v int64, ok bool) {
	neg := false
	if len(t) > 0 && t[0] == '-' {
		neg = true
		t = t[1:]
	}
	if len(t) == 0 || len(t) > 18 {
		return 0, false
	}
	for _, c := range t {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// ParseFloat converts a number's text (from Number) to a float of bitSize 32 or 64, NaN,
// Infinity and -Infinity included; err is strconv's, for a number out of range.
func ParseFloat(t []byte, bitSize int) (float64, error) {
	switch string(t) {
	case "NaN":
		return math.NaN(), nil
	case "Infinity":
		return math.Inf(1), nil
	case "-Infinity":
		return math.Inf(-1), nil
	}
	return strconv.ParseFloat(unsafe.String(unsafe.SliceData(t), len(t)), bitSize)
}
