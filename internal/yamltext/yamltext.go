// Package yamltext writes YAML documents by appending to a byte slice, for the project's
// hand-written YAML encoders (BYML and AAMP dumps). It produces the same text as
// go.yaml.in/yaml/v3's encoder with an indent of 2 and compact sequence indentation would
// for the same node tree (except where yaml.v3's text would not read back: a literal block
// whose first line starts with a tab gets an indentation indicator), without that encoder's
// cost: yaml.v3 keeps every event of a
// document until the document ends, so a 2 MB BYML file took half a gigabyte to dump.
// Here the text grows as it is written and the only other state is one frame per open
// container.
//
// It never decides a document's shape (which containers are flow style, which tags are
// written): callers do, as they did with yaml.Node. It decides only how a scalar is
// quoted, by yaml.v3's rules, so that the reader gets back the same string. It never
// parses YAML: the readers parse with yaml.v3 and share from here only the limits they check
// a text against (limits.go) and the error that says where a text is wrong (Error: line,
// column and path, the one place yaml.v3's messages are read for a line).
package yamltext

import (
	"strings"
	"unicode/utf8"
	"unsafe"
)

// bestIndent is the indentation step (yaml.v3's SetIndent(2)).
const bestIndent = 2

// simpleKeyMax is the longest tag plus key text yaml.v3 writes as a simple "key:" key; a
// longer key is written in the explicit "? key" form.
const simpleKeyMax = 128

// Writer appends one YAML document to Buf. Nodes are written in document order: a
// scalar with one call, a container between Begin and End. Mapping members alternate key
// and value; keys must be scalars. Strings must be valid UTF-8 (callers reject others
// first, as yaml.v3 would have turned them into !!binary). A Writer is not safe for
// concurrent use.
type Writer struct {
	Buf []byte

	// The emitter's position, as yaml.v3 tracks it: the column (in characters), whether
	// the last thing written was white space, and whether the line holds only
	// indentation and indicators so far.
	col       int
	ws        bool
	indention bool

	indent    int
	indents   []int
	flowLevel int
	frames    []frame
	anchor    string // set by Anchor for the next node
}

// frame is an open container.
type frame struct {
	seq, flow bool
	first     bool // no member written yet; the style of an empty container is decided at End
	key       bool // a mapping expects a key next
	simple    bool // the mapping's current key was written as a simple key
	ctx       context
}

// context is what yaml.v3's emitter knows about the place a node goes.
type context struct {
	mapping   bool // a mapping key or value
	simpleKey bool // a simple mapping key
	blockItem bool // an item of a block sequence
}

// NewWriter returns a Writer appending to buf.
func NewWriter(buf []byte) *Writer {
	return &Writer{Buf: buf, ws: true, indention: true, indent: -1}
}

// Finish ends the document with a line break, as yaml.v3 does, and returns the text.
func (w *Writer) Finish() []byte {
	w.indent = -1
	w.writeIndent()
	return w.Buf
}

// reserve makes room for n more bytes, doubling the buffer: append's own growth of
// large slices (a quarter at a time) copied and allocated the text several times over.
func (w *Writer) reserve(n int) {
	if cap(w.Buf)-len(w.Buf) >= n {
		return
	}
	b := make([]byte, len(w.Buf), 2*cap(w.Buf)+n)
	copy(b, w.Buf)
	w.Buf = b
}

func (w *Writer) put(c byte) {
	w.Buf = append(w.Buf, c)
	w.col++
}

func (w *Writer) putBreak() {
	w.Buf = append(w.Buf, '\n')
	w.col = 0
	w.indention = true
}

// text appends s, which holds no line break.
func (w *Writer) text(s string) {
	w.Buf = append(w.Buf, s...)
	w.col += chars(s)
}

// chars counts the characters of s: the bytes that do not continue a UTF-8 sequence.
func chars(s string) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		if s[i]&0xC0 == 0x80 {
			n--
		}
	}
	return n
}

func (w *Writer) writeIndent() {
	ind := max(w.indent, 0)
	if !w.indention || w.col > ind || w.col == ind && !w.ws {
		w.putBreak()
	}
	for w.col < ind {
		w.put(' ')
	}
	w.ws = true
}

func (w *Writer) indicator(s string, needSpace, isSpace, isIndention bool) {
	if needSpace && !w.ws {
		w.put(' ')
	}
	w.text(s)
	w.ws = isSpace
	w.indention = w.indention && isIndention
}

// increaseIndent opens an indentation level. compact is a block sequence written as a
// mapping value, whose "- " sits at the key's indentation.
func (w *Writer) increaseIndent(flow, compact, blockItem bool) {
	w.indents = append(w.indents, w.indent)
	switch {
	case w.indent < 0:
		w.indent = 0
		if flow {
			w.indent = bestIndent
		}
	case blockItem:
		// The first indentation inside a sequence item only skips the "- ".
		w.indent += 2
	default:
		w.indent = bestIndent * ((w.indent + bestIndent) / bestIndent)
		if compact {
			w.indent -= 2
		}
	}
}

func (w *Writer) popIndent() {
	w.indent = w.indents[len(w.indents)-1]
	w.indents = w.indents[:len(w.indents)-1]
}

// keyNext reports whether the next node is a mapping key.
func (w *Writer) keyNext() bool {
	if len(w.frames) == 0 {
		return false
	}
	f := &w.frames[len(w.frames)-1]
	return !f.seq && f.key
}

// enter writes what comes before a node in its parent (indentation, "- ", "[", ",",
// "?", ":") and says where the node goes. simple says whether a key fits the simple form.
func (w *Writer) enter(simple bool) context {
	if len(w.frames) == 0 {
		return context{}
	}
	f := &w.frames[len(w.frames)-1]
	if f.seq {
		if f.flow {
			w.flowOpen(f, "[")
			if w.col == 0 {
				w.writeIndent()
			}
			return context{}
		}
		if f.first {
			f.first = false
			w.increaseIndent(false, f.ctx.mapping && (w.col == 0 || !w.indention), f.ctx.blockItem)
		}
		w.writeIndent()
		w.indicator("-", true, false, true)
		return context{blockItem: true}
	}
	if f.key {
		f.simple = simple
		if f.flow {
			w.flowOpen(f, "{")
			if w.col == 0 {
				w.writeIndent()
			}
			if !simple {
				w.indicator("?", true, false, false)
			}
		} else {
			if f.first {
				f.first = false
				w.increaseIndent(false, false, f.ctx.blockItem)
			}
			w.writeIndent()
			if !simple {
				w.indicator("?", true, false, true)
			}
		}
		return context{mapping: true, simpleKey: simple}
	}
	switch {
	case f.simple:
		w.indicator(":", false, false, false)
	case f.flow:
		w.indicator(":", true, false, false)
	default:
		w.writeIndent()
		w.indicator(":", true, false, true)
	}
	return context{mapping: true}
}

// flowOpen writes the opening bracket before a flow container's first member and the
// comma before any other.
func (w *Writer) flowOpen(f *frame, open string) {
	if !f.first {
		w.indicator(",", false, false, false)
		return
	}
	f.first = false
	w.indicator(open, true, true, false)
	w.increaseIndent(true, false, f.ctx.blockItem)
	w.flowLevel++
}

// leave records that a node is complete.
func (w *Writer) leave() {
	if len(w.frames) > 0 {
		f := &w.frames[len(w.frames)-1]
		if !f.seq {
			f.key = !f.key
		}
	}
}

func (w *Writer) tag(tag string) {
	if tag == "" {
		return
	}
	if !w.ws {
		w.put(' ')
	}
	n := len(w.Buf)
	w.Buf = appendTag(w.Buf, tag)
	w.col += len(w.Buf) - n
	w.ws = false
	w.indention = false
}

// appendTag writes a tag ("!name" or "!!name") the way yaml.v3 writes a tag's suffix:
// URI characters as they are, any other byte %-escaped.
func appendTag(b []byte, tag string) []byte {
	const hex = "0123456789ABCDEF"
	i := 1
	if strings.HasPrefix(tag, "!!") {
		i = 2
	}
	b = append(b, tag[:i]...)
	for ; i < len(tag); i++ {
		c := tag[i]
		if c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || strings.IndexByte("_-;/?:@&=+$,.~*'()[]", c) >= 0 {
			b = append(b, c)
		} else {
			b = append(b, '%', hex[c>>4], hex[c&0xF])
		}
	}
	return b
}

// BeginMapping opens a mapping. tag is written unless empty. A mapping inside a flow
// container, or an empty one, is written in flow style whatever flow says.
func (w *Writer) BeginMapping(tag string, flow bool) { w.begin(tag, false, flow) }

// BeginSequence opens a sequence; see BeginMapping.
func (w *Writer) BeginSequence(tag string, flow bool) { w.begin(tag, true, flow) }

func (w *Writer) begin(tag string, seq, flow bool) {
	w.reserve(max(w.indent, 0) + len(tag) + 16)
	simple := true
	if w.keyNext() {
		simple = len(tag) <= simpleKeyMax
	}
	ctx := w.enter(simple)
	w.writeAnchor()
	w.tag(tag)
	w.frames = append(w.frames, frame{seq: seq, flow: flow || w.flowLevel > 0, first: true, key: true, ctx: ctx})
}

// Anchor gives the next node (a scalar or container, not a mapping key) the anchor name,
// written "&name" before its tag as yaml.v3 writes a node's Anchor. Names must be plain
// letters and digits.
func (w *Writer) Anchor(name string) { w.anchor = name }

func (w *Writer) writeAnchor() {
	if w.anchor == "" {
		return
	}
	w.indicator("&", true, false, false)
	w.text(w.anchor)
	w.ws, w.indention = false, false
	w.anchor = ""
}

// Alias writes "*name", a reference to the node anchored name (as yaml.v3 writes an
// AliasNode), in a value's or an item's place.
func (w *Writer) Alias(name string) {
	w.reserve(max(w.indent, 0) + len(name) + 16)
	w.enter(true)
	w.indicator("*", true, false, false)
	w.text(name)
	w.ws, w.indention = false, false
	w.leave()
}

// End closes the innermost container.
func (w *Writer) End() {
	f := w.frames[len(w.frames)-1]
	w.frames = w.frames[:len(w.frames)-1]
	opener, closer := "{", "}"
	if f.seq {
		opener, closer = "[", "]"
	}
	switch {
	case f.first:
		// An empty container is written in flow style.
		w.indicator(opener, true, true, false)
		w.indicator(closer, false, false, false)
	case f.flow:
		w.flowLevel--
		w.popIndent()
		if f.seq && w.col == 0 {
			w.writeIndent()
		}
		w.indicator(closer, false, false, false)
	default:
		w.popIndent()
	}
	w.leave()
}

// Scalar styles a caller asks for, as yaml.Node styles.
type style int

const (
	plainStyle style = iota
	doubleStyle
	literalStyle
	anyStyle    // a tagged or typed scalar with no style: a literal block if it has a '\n'
	stringStyle // an untagged string with no style: also quoted if it reads as another type
)

// String writes s as an untagged string (a yaml.v3 !!str node with no style): plain
// when it reads back as the same string, otherwise quoted, or a literal block when it
// has line breaks.
func (w *Writer) String(s string) {
	w.scalar("", s, stringStyle)
}

// Plain writes a scalar with tag (none if empty) and no requested style: plain when yaml.v3
// would write it plain, else quoted. Untagged, it is for text that reads back as the type
// the caller means (numbers, booleans, null); tagged, for any text.
func (w *Writer) Plain(tag, s string) {
	w.scalar(tag, s, anyStyle)
}

// PlainBytes is Plain for text in a caller's scratch buffer, which it does not keep.
func (w *Writer) PlainBytes(tag string, s []byte) {
	w.Plain(tag, unsafe.String(unsafe.SliceData(s), len(s)))
}

// Quoted writes s double-quoted, with tag unless empty.
func (w *Writer) Quoted(tag, s string) {
	w.scalar(tag, s, doubleStyle)
}

func (w *Writer) scalar(tag, s string, st style) {
	w.reserve(max(w.indent, 0) + len(tag) + len(s) + 16)
	a := analyze(s)
	// As yaml.v3's encoder picks the style of a node with none.
	switch {
	case st != anyStyle && st != stringStyle:
	case a.newline:
		st = literalStyle
	case st == stringStyle && !ResolvesToString(s):
		st = doubleStyle
	default:
		st = plainStyle
	}
	simple := true
	if w.keyNext() {
		simple = !a.multiline && len(tag)+len(s) <= simpleKeyMax
	}
	ctx := w.enter(simple)
	if ctx.simpleKey && a.multiline {
		st = doubleStyle
	}
	single := false
	if st == plainStyle {
		if w.flowLevel > 0 && !a.flowPlain || w.flowLevel == 0 && !a.blockPlain ||
			s == "" && (w.flowLevel > 0 || ctx.simpleKey) {
			single = true
			if !a.single {
				st = doubleStyle
			}
		}
	}
	if st == literalStyle && (!a.block || w.flowLevel > 0 || ctx.simpleKey) {
		st = doubleStyle
	}
	w.writeAnchor()
	w.tag(tag)
	w.increaseIndent(true, false, ctx.blockItem)
	switch {
	case st == doubleStyle:
		w.writeDouble(s)
	case st == literalStyle:
		w.writeLiteral(s)
	case single:
		w.writeSingle(s)
	default:
		if s != "" {
			if !w.ws {
				w.put(' ')
			}
			w.text(s)
			w.ws = false
		}
		w.indention = false
	}
	w.popIndent()
	w.leave()
}

// analysis is what yaml.v3 learns from a scalar's text to choose its style.
type analysis struct {
	newline    bool // has a '\n', the line break that makes yaml.v3 pick a literal block
	multiline  bool
	flowPlain  bool // may be plain inside a flow container
	blockPlain bool
	single     bool // may be single-quoted
	block      bool // may be a literal block
}

func isBreak(r rune) bool {
	return r == '\r' || r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029
}

// printable is YAML's printable set as yaml.v3 checks it (which leaves out characters
// beyond the Basic Multilingual Plane).
func printable(r rune) bool {
	return r == '\n' || r >= 0x20 && r <= 0x7E || r >= 0xA0 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD && r != 0xFEFF
}

// quiet marks the ASCII characters that never make a scalar need quotes, wherever they
// are: letters, digits and punctuation that is no YAML indicator. A space or a '-' is
// quiet except at the start or (a space) the end.
var quiet = func() (t [256]bool) {
	for c := ' '; c < 0x7F; c++ {
		t[c] = c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || strings.ContainsRune("_./()+=;$^~<\\- ", c)
	}
	return t
}()

func analyze(s string) analysis {
	if s == "" {
		return analysis{blockPlain: true, single: true}
	}
	// Most names are quiet throughout: nothing to decide.
	if s[0] != ' ' && s[0] != '-' && s[len(s)-1] != ' ' && !strings.HasPrefix(s, "...") {
		i := 0
		for i < len(s) && quiet[s[i]] {
			i++
		}
		if i == len(s) {
			return analysis{flowPlain: true, blockPlain: true, single: true, block: true}
		}
	}
	var (
		flowInd, blockInd, newline       bool
		breaks, special, tabs            bool
		leadSpace, leadBreak             bool
		trailSpace, trailBreak           bool
		breakSpace, spaceBreak           bool
		prevSpace, prevBreak             bool
		precededByWhite, followedByWhite bool
	)
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		flowInd, blockInd = true, true
	}
	precededByWhite = true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		followedByWhite = i+n >= len(s) || s[i+n] == ' ' || s[i+n] == '\t'
		c := s[i]
		if i == 0 {
			switch c {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				flowInd, blockInd = true, true
			case '?', ':':
				flowInd = true
				blockInd = blockInd || followedByWhite
			case '-':
				if followedByWhite {
					flowInd, blockInd = true, true
				}
			}
		} else {
			switch c {
			case ',', '?', '[', ']', '{', '}':
				flowInd = true
			case ':':
				flowInd = true
				blockInd = blockInd || followedByWhite
			case '#':
				if precededByWhite {
					flowInd, blockInd = true, true
				}
			}
		}
		if c == '\t' {
			tabs = true
		} else if !printable(r) {
			special = true
		}
		switch {
		case c == ' ':
			leadSpace = leadSpace || i == 0
			trailSpace = i+n == len(s)
			breakSpace = breakSpace || prevBreak
			prevSpace, prevBreak = true, false
		case isBreak(r):
			breaks = true
			newline = newline || c == '\n'
			leadBreak = leadBreak || i == 0
			trailBreak = i+n == len(s)
			spaceBreak = spaceBreak || prevSpace
			prevSpace, prevBreak = false, true
		default:
			prevSpace, prevBreak = false, false
		}
		precededByWhite = c == ' ' || c == '\t' || c == 0 || isBreak(r)
		i += n
	}
	a := analysis{newline: newline, multiline: breaks, flowPlain: true, blockPlain: true, single: true, block: true}
	if leadSpace || leadBreak || trailSpace || trailBreak || breakSpace || spaceBreak || tabs || special || breaks {
		a.flowPlain, a.blockPlain = false, false
	}
	if trailSpace || spaceBreak || special {
		a.block = false
	}
	if breakSpace || spaceBreak || tabs || special {
		a.single = false
	}
	if flowInd {
		a.flowPlain = false
	}
	if blockInd {
		a.blockPlain = false
	}
	return a
}

// writeBreak writes a line break character of the text.
func (w *Writer) writeBreak(s string, n int) {
	if s[0] == '\n' {
		w.putBreak()
		return
	}
	w.Buf = append(w.Buf, s[:n]...)
	w.col = 0
	w.indention = true
}

func (w *Writer) writeSingle(s string) {
	w.indicator("'", true, false, false)
	breaks := false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == ' ':
			w.put(' ')
		case isBreak(r):
			if !breaks && r == '\n' {
				w.putBreak()
			}
			w.writeBreak(s[i:], n)
			breaks = true
		default:
			if breaks {
				w.writeIndent()
			}
			if r == '\'' {
				w.put('\'')
			}
			w.Buf = append(w.Buf, s[i:i+n]...)
			w.col++
			w.indention = false
			breaks = false
		}
		i += n
	}
	w.indicator("'", false, false, false)
	w.ws = false
	w.indention = false
}

func (w *Writer) writeDouble(s string) {
	const hex = "0123456789ABCDEF"
	w.indicator(`"`, true, false, false)
	// yaml.v3 escapes every character of a string that starts with a byte order mark.
	bom := strings.HasPrefix(s, "\uFEFF")
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf && c >= 0x20 && c <= 0x7E && c != '"' && c != '\\' && !bom {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if printable(r) && !isBreak(r) && r != '"' && r != '\\' && !bom {
			i += n
			continue
		}
		w.Buf = append(w.Buf, s[start:i]...)
		w.col += chars(s[start:i])
		i += n
		start = i
		b := w.Buf
		b = append(b, '\\')
		switch r {
		case 0:
			b = append(b, '0')
		case 0x07:
			b = append(b, 'a')
		case 0x08:
			b = append(b, 'b')
		case 0x09:
			b = append(b, 't')
		case 0x0A:
			b = append(b, 'n')
		case 0x0B:
			b = append(b, 'v')
		case 0x0C:
			b = append(b, 'f')
		case 0x0D:
			b = append(b, 'r')
		case 0x1B:
			b = append(b, 'e')
		case '"':
			b = append(b, '"')
		case '\\':
			b = append(b, '\\')
		case 0x85:
			b = append(b, 'N')
		case 0xA0:
			b = append(b, '_')
		case 0x2028:
			b = append(b, 'L')
		case 0x2029:
			b = append(b, 'P')
		default:
			digits := 8
			switch {
			case r <= 0xFF:
				b, digits = append(b, 'x'), 2
			case r <= 0xFFFF:
				b, digits = append(b, 'u'), 4
			default:
				b = append(b, 'U')
			}
			for k := (digits - 1) * 4; k >= 0; k -= 4 {
				b = append(b, hex[(r>>uint(k))&0xF])
			}
		}
		w.col += len(b) - len(w.Buf)
		w.Buf = b
	}
	w.Buf = append(w.Buf, s[start:]...)
	w.col += chars(s[start:])
	w.indicator(`"`, false, false, false)
	w.ws = false
	w.indention = false
}

func (w *Writer) writeLiteral(s string) {
	w.indicator("|", true, false, false)
	// An indentation indicator where the first line cannot show the indentation: it starts
	// with a space or is empty, as yaml.v3 knows, or starts with a tab, which yaml.v3 writes
	// without one and then cannot read ("found a tab character where an indentation space
	// is expected"). The only place this writer's text departs from yaml.v3's.
	first, _ := utf8.DecodeRuneInString(s)
	if first == ' ' || first == '\t' || isBreak(first) {
		w.indicator(string(rune('0'+bestIndent)), false, false, false)
	}
	last, n := utf8.DecodeLastRuneInString(s)
	switch {
	case s == "" || !isBreak(last):
		w.indicator("-", false, false, false)
	case n == len(s):
		w.indicator("+", false, false, false)
	default:
		if prev, _ := utf8.DecodeLastRuneInString(s[:len(s)-n]); isBreak(prev) {
			w.indicator("+", false, false, false)
		}
	}
	w.putBreak()
	w.ws = true
	breaks := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if isBreak(r) {
			w.writeBreak(s[i:], n)
			breaks = true
		} else {
			if breaks {
				w.writeIndent()
			}
			w.Buf = append(w.Buf, s[i:i+n]...)
			w.col++
			w.indention = false
			breaks = false
		}
		i += n
	}
}
