package graph

import (
	"ainbeditor/internal/chunk"
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/jsontext"
	"ainbeditor/internal/textscan"
)

// The document's JSON, read by hand in one pass: a tokenizer over the bytes and one function
// per object shape, no reflection and no intermediate tree. Malformed JSON stops the read with
// a *SyntaxError; anything well-formed but not a document (an unknown member, a string where
// a number belongs, a number out of range) is a Problem, and reading goes on past it so that
// every problem is reported at once, as a *ProblemsError.

// SyntaxError reports text that is not JSON, with the path of the member being read.
type SyntaxError = jsontext.SyntaxError

// Decode reads a document from its JSON. It copies data once; DecodeText does not.
func Decode(data []byte) (*Document, error) {
	return DecodeText(string(data))
}

// DecodeText reads a document from its JSON text. Every string without escapes in the
// document is a substring of text, so reading names costs no allocation (and no interning
// map) each; the document keeps the text alive, which is no more than its own size.
func DecodeText(text string) (*Document, error) {
	// A read-only view of the text: the decoder scans bytes and never writes them, and Go
	// strings are immutable, so the view cannot change under it.
	d := &dec{text: text}
	d.Data = unsafe.Slice(unsafe.StringData(text), len(text))
	d.Path = func() string { return d.path("") }
	// A string that is not UTF-8 is a problem, not a syntax error: reading goes on.
	d.BadUTF8 = func(at, i int, c byte) {
		d.problemAt(at, "", "byte %d of this string, %#02x, is not UTF-8 (documents are UTF-8 text)", i, c)
	}
	doc := &Document{}
	d.Space()
	if d.Pos >= len(d.Data) {
		d.syntax("no JSON: the body is empty")
	} else {
		d.document(doc)
		d.End()
	}
	if d.Err != nil {
		return nil, d.Err
	}
	if len(d.missingAt) > 0 && doc.Format != "" && doc.Format != Format {
		// Another format (or version) lacks members for its own reasons: CheckFormat says why.
		d.problems = dropProblems(d.problems, d.missingAt)
	}
	if len(d.problems) > 0 {
		return nil, &ProblemsError{d.problems}
	}
	return doc, nil
}

// dropProblems returns ps without the problems at the (ascending) indices at.
func dropProblems(ps []Problem, at []int) []Problem {
	out := ps[:0]
	for i, p := range ps {
		if len(at) > 0 && at[0] == i {
			at = at[1:]
			continue
		}
		out = append(out, p)
	}
	return out
}

type frame struct {
	key []byte // the member being read, in an object
	idx int    // the element being read, in an array; in an object, >= 0 once a member was read
	arr bool
	// req lists the members the object must have (see require); seen has bit i set once
	// req[i] was read.
	req  []string
	seen uint32
	next int // the index in req after the last member found
	// keys marks the member names read so far, one bit for each name's keyHash; dec.keys
	// lists those req does not (seen tells a second required one), this object's from
	// keysFrom. Only names whose bit is set already are compared with the others, so
	// finding duplicates costs little.
	keys     uint64
	keysFrom int
}

// The members each object must have are listed in members.go, derived from types.go's tags.

// require makes the object just begun report each member of req it ends without, as a
// problem at that member's path ("nodes[3].name: missing").
func (d *dec) require(req []string) { d.frames[len(d.frames)-1].req = req }

// seenRequired marks the member just read as present, if the object requires it, and
// reports whether it was read before. A required member's bit tells a second one at once, so only
// the other members go to dec.duplicate.
func (f *frame) seenRequired() (required, dup bool) {
	i := f.next
	// The encoder writes required members in their list's order: the one after the last
	// found is tried first.
	if i >= len(f.req) || !sameKey(f.req[i], f.key) {
		for i = 0; i < len(f.req) && !sameKey(f.req[i], f.key); i++ {
		}
		if i == len(f.req) {
			return false, false
		}
	}
	f.next = i + 1
	bit := uint32(1) << i
	dup = f.seen&bit != 0
	f.seen |= bit
	return true, dup
}

// sameKey compares lengths and first bytes before calling for the whole comparison.
func sameKey(m string, key []byte) bool {
	return len(m) == len(key) && len(m) > 0 && m[0] == key[0] && m == string(key)
}

// missing reports the required members an object ends without, at its closing brace.
func (d *dec) missing(f *frame) {
	if f.seen == 1<<len(f.req)-1 {
		return
	}
	f.key = nil // the path of the object itself
	for i, m := range f.req {
		if f.seen&(1<<i) == 0 && len(d.problems) < maxProblems {
			d.missingAt = append(d.missingAt, len(d.problems))
			d.problemAt(d.Pos-1, m, "missing")
		}
	}
}

type dec struct {
	// The tokenizer: Data, Pos, Err and the readers of strings, numbers and literals.
	jsontext.Scanner
	text     string // Data as a string, for substrings
	problems []Problem
	frames   []frame
	key      []byte
	keyAt    int      // offset of the member name just read
	keys     [][]byte // the member names of the objects being read (see frame.keys)
	slab     slab
	// missingAt indexes the problems that are missing members.
	missingAt []int
	// Scratch lists, copied out at their exact length into blocks.
	lists       lists
	scratchInts []int
	inputs      []Input
	props       []Property
	outputs     []Output
	children    []Child
}

func (d *dec) syntax(format string, args ...any) { d.Failf(format, args...) }

// path formats the current path, with an optional member appended.
func (d *dec) path(member string) string {
	var b strings.Builder
	for _, f := range d.frames {
		if f.arr {
			if f.idx < 0 {
				continue
			}
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(f.idx))
			b.WriteByte(']')
			continue
		}
		if f.key == nil {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.Write(f.key)
	}
	if member != "" {
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(member)
	}
	return b.String()
}

// nodeIndex is the index of the node being read, or -1.
func (d *dec) nodeIndex() int {
	if len(d.frames) >= 2 && string(d.frames[0].key) == "nodes" && d.frames[1].arr {
		return d.frames[1].idx
	}
	return -1
}

// problemAt records a problem at the current path (plus member) and offset.
func (d *dec) problemAt(off int, member string, format string, args ...any) {
	if len(d.problems) >= maxProblems {
		return
	}
	line, col := d.Position(off)
	d.problems = append(d.problems, Problem{Path: d.path(member), Node: d.nodeIndex(), Line: line, Column: col,
		Msg: fmt.Sprintf(format, args...)})
}

func (d *dec) problem(format string, args ...any) { d.problemAt(d.Pos, "", format, args...) }

// peek returns the next significant byte, or 0 at the end or after a syntax error.
func (d *dec) peek() byte { return d.Peek() }

var describe = jsontext.Describe

// begin starts an object (or array, with open '['), pushing a frame. It returns false, having
// skipped the value and recorded a problem, when the value is something else; with nullOK a
// null is skipped silently.
func (d *dec) begin(open byte, what string, nullOK bool) bool {
	if d.Err != nil {
		return false
	}
	c := d.peek()
	if c == open {
		d.Pos++
		if !d.Enter() {
			return false
		}
		d.frames = append(d.frames, frame{idx: -1, arr: open == '[', keysFrom: len(d.keys)})
		return true
	}
	if c == 'n' && nullOK {
		d.Skip()
		return false
	}
	d.problem("want %s, found %s", what, describe(c))
	d.Skip()
	return false
}

func (d *dec) end() {
	d.keys = d.keys[:d.frames[len(d.frames)-1].keysFrom]
	d.frames = d.frames[:len(d.frames)-1]
	d.Leave()
}

// duplicate reports whether the object f already has a member named key, and notes key.
// Readers disagree on duplicate names (encoding/json and JSON.parse keep the last, a list
// read twice may be appended to), so a document with one is refused rather than read one
// way here and another in the browser.
func (d *dec) duplicate(f *frame, key []byte) bool {
	bit := keyBit(key)
	if f.keys&bit != 0 {
		for _, k := range d.keys[f.keysFrom:] {
			if string(k) == string(key) {
				return true
			}
		}
	}
	f.keys |= bit
	d.keys = append(d.keys, key)
	return false
}

// keyHash mixes a member name's length, first and last bytes: the names of one object
// ("name" and "node", "x" and "y") seldom share all three.
func keyHash(b []byte) uint {
	if len(b) == 0 {
		return 0
	}
	return uint(len(b))*7 + uint(b[0]) + uint(b[len(b)-1])*13
}

// keyBit is a member name's bit in frame.keys.
func keyBit(key []byte) uint64 { return 1 << (keyHash(key) & 63) }

// nextKey reads the next member's key and colon; false at the end of the object.
func (d *dec) nextKey() bool {
	if d.Err != nil {
		return false
	}
	f := &d.frames[len(d.frames)-1]
	c := d.peek()
	if c == '}' {
		d.Pos++
		if f.req != nil {
			d.missing(f)
		}
		d.end()
		return false
	}
	if f.idx >= 0 {
		if c != ',' {
			d.syntax("want , or } after an object member, found %s", describe(c))
			return false
		}
		d.Pos++
		c = d.peek()
	}
	f.idx = 0
	if c != '"' {
		d.syntax("want a member name in double quotes, found %s", describe(c))
		return false
	}
	d.keyAt = d.Pos
	var dup bool
	if i := f.next; i < len(f.req) && d.nameColon(f.req[i]) {
		// The member the encoder writes next: the text is the name, quoted, and a colon.
		f.key = d.Data[d.keyAt+1 : d.keyAt+1+len(f.req[i])]
		f.next = i + 1
		bit := uint32(1) << i
		dup = f.seen&bit != 0
		f.seen |= bit
		f.keys |= keyBit(f.key)
	} else {
		f.key = nil // a problem in the name itself is the object's
		f.key = d.memberName()
		if d.peek() != ':' {
			d.syntax("want : after a member name")
			return false
		}
		d.Pos++
		if d.Err != nil {
			d.key = f.key
			return true
		}
		bit := keyBit(f.key)
		var required bool
		if f.seen == 1<<len(f.req)-1 && f.keys&bit == 0 {
			// Every required name was read, each setting its bit: a name whose bit is
			// clear is neither one of them nor any other name read before.
			f.keys |= bit
			d.keys = append(d.keys, f.key)
		} else if required, dup = f.seenRequired(); required {
			f.keys |= bit
		} else {
			dup = d.duplicate(f, f.key)
		}
	}
	d.key = f.key
	if dup {
		d.problemAt(d.keyAt, "", "a second member of this name (member names must be unique)")
		d.Skip()
		return d.nextKey()
	}
	return true
}

// nextElem moves to the next array element; false at the end of the array.
func (d *dec) nextElem() bool {
	if d.Err != nil {
		return false
	}
	f := &d.frames[len(d.frames)-1]
	c := d.peek()
	if f.idx >= 0 {
		if c == ']' {
			d.Pos++
			d.end()
			return false
		}
		if c != ',' {
			d.syntax("want , or ] after an array element, found %s", describe(c))
			return false
		}
		d.Pos++
	} else if c == ']' {
		d.Pos++
		d.end()
		return false
	}
	f.idx++
	return true
}

// unknown records an unknown member and skips its value.
func (d *dec) unknown() {
	d.problemAt(d.keyAt, "", "unknown member")
	d.Skip()
}

// nameColon reads "m": when the text at d.Pos is exactly that, m being a plain ASCII name
// (as every member name of the document is): the name needs no scan for its end, no check
// of its bytes and no search of the object's list. Anything else is left to memberName.
func (d *dec) nameColon(m string) bool {
	a, e := d.Pos+1, d.Pos+1+len(m)
	if e+1 >= len(d.text) || d.text[e] != '"' || d.text[e+1] != ':' || d.text[a:e] != m {
		return false
	}
	d.Pos = e + 2
	return true
}

// memberName reads a member name, d.Pos at its quote. The document's names are a few ASCII
// letters: see plainString.
func (d *dec) memberName() []byte {
	if end, ok := d.plainString(); ok {
		v := d.Data[d.Pos+1 : end]
		d.Pos = end + 1
		return v
	}
	return d.rawString()
}

// plainString returns where the string at d.Pos (its opening quote) ends, when it is all
// printable ASCII without escapes, as member names, types and most names in a document are.
// Such a string is found eight bytes at a time, with none of the string reader's setup;
// anything else (an escape, a control character, a byte of a longer UTF-8 character, no
// closing quote) is left to the string reader, which reads and checks it as any string.
func (d *dec) plainString() (end int, ok bool) {
	end = textscan.PlainRun(d.text, d.Pos+1, true)
	return end, end < len(d.text) && d.text[end] == '"' && d.Err == nil
}

// rawString reads a string and returns its bytes: a slice of the input when it has no
// escapes (valid until the input changes), a new slice otherwise.
func (d *dec) rawString() []byte {
	v, _ := d.String(nil)
	return v
}

// Scalars. Each records a problem (at the current member) and skips the value when it is of
// another kind.

func (d *dec) str() string {
	if d.peek() != '"' {
		d.problem("want a string, found %s", describe(d.peek()))
		d.Skip()
		return ""
	}
	return d.stringValue()
}

// stringValue reads the string at d.Pos as a Go string: a substring of d.text, which costs
// nothing, unless it has escapes. Escapes always make the read bytes shorter than the
// text they came from, which tells the two apart.
func (d *dec) stringValue() string {
	if end, ok := d.plainString(); ok {
		v := d.text[d.Pos+1 : end]
		d.Pos = end + 1
		return v
	}
	return d.Text(d.text)
}

func (d *dec) boolean() bool {
	switch d.peek() {
	case 't':
		d.Literal("true")
		return true
	case 'f':
		d.Literal("false")
		return false
	}
	d.problem("want true or false, found %s", describe(d.peek()))
	d.Skip()
	return false
}

// integer reads an integer in [lo, hi].
func (d *dec) integer(lo, hi int64) int64 {
	c := d.peek()
	if c != '-' && (c < '0' || c > '9') {
		d.problem("want a number, found %s", describe(c))
		d.Skip()
		return 0
	}
	at := d.Pos
	t := d.Number()
	if d.Err != nil {
		return 0
	}
	v, ok := parseInt(t)
	if !ok {
		d.problemAt(at, "", "want an integer, found %s", t)
		return 0
	}
	if v < lo || v > hi {
		d.problemAt(at, "", "%s is out of range (%d to %d)", t, lo, hi)
		return 0
	}
	return v
}

var parseInt = jsontext.ParseInt

func (d *dec) int32() int { return int(d.integer(math.MinInt32, math.MaxInt32)) }
func (d *dec) index() int { return int(d.integer(0, math.MaxInt32)) }

// ref reads a node id a child, jump or replacement refers to. Files may hold numbers there
// that name no node, negative ones too; the build reports them.
func (d *dec) ref() int       { return int(d.integer(math.MinInt32, math.MaxInt32)) }
func (d *dec) uint32() uint32 { return uint32(d.integer(0, math.MaxUint32)) }
func (d *dec) optIndex() *int { return d.optInt(0, math.MaxInt32) }
func (d *dec) optInt32() *int { return d.optInt(math.MinInt32, math.MaxInt32) }
func (d *dec) optBool() *bool {
	if d.peek() == 'n' {
		d.Skip()
		return nil
	}
	return d.slab.bool(d.boolean())
}

func (d *dec) optInt(lo, hi int64) *int {
	if d.peek() == 'n' {
		d.Skip()
		return nil
	}
	return d.slab.int(int(d.integer(lo, hi)))
}

// float reads a float32: a number, or the string of its bits.
func (d *dec) float() Float {
	switch c := d.peek(); {
	case c == '"':
		at := d.Pos
		s := d.rawString()
		if f, ok := floatBits(s); ok {
			return f
		}
		d.problemAt(at, "", "want a number or the bits of a float as \"0x7fc00000\", found %q", s)
		return 0
	case c == '-' || c >= '0' && c <= '9':
		at := d.Pos
		t := d.Number()
		if d.Err != nil {
			return 0
		}
		if v, ok := wholeNumber(t); ok {
			return Float(v) // one rounding, as ParseFloat's
		}
		f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(t), len(t)), 32)
		if err != nil {
			d.problemAt(at, "", "%s is out of the float range (32 bits)", t)
			return 0
		}
		return Float(f)
	default:
		d.problem("want a number, found %s", describe(c))
		d.Skip()
		return 0
	}
}

// wholeNumber reads a number of at most 15 digits and no fraction or exponent, the usual
// coordinate and value, exactly (float64 holds it exactly, so converting it rounds once, as
// ParseFloat would) without ParseFloat's general path. "-0" is left to ParseFloat, for its
// sign.
func wholeNumber(t []byte) (int64, bool) {
	if len(t) > 16 || len(t) == 16 && t[0] != '-' {
		return 0, false
	}
	v, ok := parseInt(t)
	return v, ok && (v != 0 || t[0] != '-')
}

func floatBits(s []byte) (Float, bool) {
	if len(s) < 3 || len(s) > 10 || s[0] != '0' || s[1] != 'x' && s[1] != 'X' {
		return 0, false
	}
	var v uint32
	for _, c := range s[2:] {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | uint32(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | uint32(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | uint32(c-'A'+10)
		default:
			return 0, false
		}
	}
	return Float(math.Float32frombits(v)), true
}

func (d *dec) optFloat() *Float {
	if d.peek() == 'n' {
		d.Skip()
		return nil
	}
	f := d.float()
	return &f
}

func (d *dec) guid() (g ainb.GUID) {
	at := d.Pos
	if d.peek() != '"' {
		d.problem("want a string, found %s", describe(d.peek()))
		d.Skip()
		return g
	}
	s := d.rawString()
	if d.Err == nil && !parseGUID(s, &g) {
		d.problemAt(at, "", "want a GUID like \"01234567-89ab-cdef-0123-456789abcdef\", found %q", s)
	}
	return g
}

// parseGUID reads the form appendGUID writes: the first three groups are little-endian
// integers, the last two plain bytes.
func parseGUID(s []byte, g *ainb.GUID) bool {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return false
	}
	bad := byte(0)
	for i, a := range guidDigits {
		hi, lo := hexDigit[s[a]], hexDigit[s[a+1]]
		bad |= hi | lo
		g[i] = hi<<4 | lo
	}
	return bad&0xf0 == 0
}

// guidDigits is where in a GUID's text the two digits of each of its bytes are: the first
// three groups are little-endian integers, the last two plain bytes (appendGUID writes it,
// parseGUID reads it).
var guidDigits = [16]int{6, 4, 2, 0, 11, 9, 16, 14, 19, 21, 24, 26, 28, 30, 32, 34}

// hexDigit is the value of each hex digit, 0xff for other bytes: one load per digit.
var hexDigit = func() (t [256]byte) {
	for c := range t {
		switch {
		case c >= '0' && c <= '9':
			t[c] = byte(c - '0')
		case c >= 'a' && c <= 'f':
			t[c] = byte(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			t[c] = byte(c - 'A' + 10)
		default:
			t[c] = 0xff
		}
	}
	return t
}()

// enum reads a string that is usually one of a few names, returning the name itself then
// (so the document holds no substrings of the text for them).
func (d *dec) enum(names []string) string {
	if d.peek() != '"' {
		d.problem("want a string, found %s", describe(d.peek()))
		d.Skip()
		return ""
	}
	s := d.stringValue()
	for _, n := range names {
		if s == n {
			return n
		}
	}
	return s
}

var valueTypeNames = []string{"int", "bool", "float", "string", "vec3f", "pointer", "u32"}

func (d *dec) uints(out []uint32) {
	if !d.begin('[', "an array", false) {
		return
	}
	i := 0
	for d.nextElem() {
		v := d.uint32()
		if i < len(out) {
			out[i] = v
		}
		i++
	}
	if i != len(out) {
		d.problem("want %d numbers, found %d", len(out), i)
	}
}

func (d *dec) ints() []int {
	if !d.begin('[', "an array", true) {
		return nil
	}
	d.scratchInts = d.scratchInts[:0]
	for d.nextElem() {
		d.scratchInts = append(d.scratchInts, d.index())
	}
	return d.lists.copyInts(d.scratchInts)
}

// A value whose type may come after it in its object is held as read, then converted.

type jscalar struct {
	kind byte // 'n' number, 's' string, 'b' bool, 'z' null, 'a' array
	at   int
	num  []byte
	str  string
	b    bool
}

type jvalue struct {
	set bool
	jscalar
	elems [3]jscalar
	n     int
}

func (d *dec) scalar(s *jscalar) {
	s.at = d.Pos
	switch c := d.peek(); {
	case c == '"':
		s.kind = 's'
		s.str = d.stringValue()
	case c == 't' || c == 'f':
		s.kind = 'b'
		s.b = d.boolean()
	case c == 'n':
		s.kind = 'z'
		d.Skip()
	case c == '-' || c >= '0' && c <= '9':
		s.kind = 'n'
		s.num = d.Number()
	case c == '[' || c == '{':
		s.kind = 'a'
		d.Skip()
	default:
		d.Skip()
	}
}

func (d *dec) rawValue(v *jvalue) {
	v.set = true
	if d.peek() != '[' {
		d.scalar(&v.jscalar)
		return
	}
	v.kind = 'a'
	v.at = d.Pos
	if !d.begin('[', "an array", false) {
		return
	}
	for d.nextElem() {
		if v.n < 3 {
			d.scalar(&v.elems[v.n])
		} else {
			d.Skip()
		}
		v.n++
	}
}

// floatOf converts a held scalar to a float.
func (d *dec) floatOf(s *jscalar, member string) Float {
	switch s.kind {
	case 'n':
		if v, ok := wholeNumber(s.num); ok {
			return Float(v)
		}
		f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(s.num), len(s.num)), 32)
		if err != nil {
			d.problemAt(s.at, member, "%s is out of the float range (32 bits)", s.num)
			return 0
		}
		return Float(f)
	case 's':
		if f, ok := floatBits([]byte(s.str)); ok {
			return f
		}
		d.problemAt(s.at, member, "want a number or the bits of a float as \"0x7fc00000\", found %q", s.str)
		return 0
	}
	d.problemAt(s.at, member, "want a number")
	return 0
}

var kindNames = map[byte]string{'n': "a number", 's': "a string", 'b': "a boolean", 'z': "null", 'a': "an array or object"}

// value converts a held value to the given type. Unknown types are reported elsewhere.
func (d *dec) value(t ValueType, v *jvalue, out *Value) {
	if !v.set {
		return
	}
	const m = "value"
	want := func(what string) {
		d.problemAt(v.at, m, "want %s (type %s), found %s", what, t, kindNames[v.kind])
	}
	switch t {
	case "int", "u32":
		if v.kind != 'n' {
			want("an integer")
			return
		}
		n, ok := parseInt(v.num)
		lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
		if t == "u32" {
			lo, hi = 0, math.MaxUint32
		}
		switch {
		case !ok:
			d.problemAt(v.at, m, "want an integer, found %s", v.num)
		case n < lo || n > hi:
			d.problemAt(v.at, m, "%s is out of the %s range (%d to %d)", v.num, t, lo, hi)
		default:
			out.Int = n
		}
	case "bool":
		if v.kind != 'b' {
			want("true or false")
			return
		}
		if v.b {
			out.Int = 1
		}
	case "float":
		if v.kind != 'n' && v.kind != 's' {
			want("a number")
			return
		}
		out.Float = d.floatOf(&v.jscalar, m)
	case "string":
		if v.kind != 's' {
			want("a string")
			return
		}
		out.String = v.str
	case "vec3f":
		if v.kind != 'a' || v.n != 3 {
			want("an array of three numbers")
			return
		}
		for i := range 3 {
			out.Vec[i] = d.floatOf(&v.elems[i], m)
		}
	case "pointer":
		if v.kind != 'z' {
			want("null")
		}
	}
}

// Objects.

func (d *dec) document(doc *Document) {
	if !d.begin('{', "an object", false) {
		return
	}
	d.require(reqDocument)
	for d.nextKey() {
		switch string(d.key) {
		case "format":
			doc.Format = d.str()
		case "name":
			doc.Name = d.str()
		case "version":
			doc.Version = d.uint32()
		case "filename":
			doc.Filename = d.str()
		case "category":
			doc.Category = d.str()
		case "commands":
			doc.Commands = []Command{}
			if d.begin('[', "an array", false) {
				for d.nextElem() {
					doc.Commands = append(doc.Commands, Command{})
					d.command(&doc.Commands[len(doc.Commands)-1])
				}
			}
		case "nodes":
			doc.Nodes = []Node{}
			if d.begin('[', "an array", false) {
				doc.Nodes = make([]Node, 0, nodeCountHint(d.Data[d.Pos:]))
				for d.nextElem() {
					doc.Nodes = append(doc.Nodes, Node{})
					d.node(&doc.Nodes[len(doc.Nodes)-1])
				}
			}
		case "attachments":
			doc.Attachments = []Attachment{}
			if d.begin('[', "an array", false) {
				for d.nextElem() {
					doc.Attachments = append(doc.Attachments, Attachment{})
					d.attachment(&doc.Attachments[len(doc.Attachments)-1])
				}
			}
		case "blackboard":
			doc.Blackboard = []BlackboardParam{}
			if d.begin('[', "an array", false) {
				for d.nextElem() {
					doc.Blackboard = append(doc.Blackboard, BlackboardParam{})
					d.blackboardParam(&doc.Blackboard[len(doc.Blackboard)-1])
				}
			}
		case "expressions":
			doc.Expressions = nil
			if d.begin('{', "an object or null", true) {
				d.require(reqExpressions)
				x := &Expressions{Functions: []Function{}}
				doc.Expressions = x
				for d.nextKey() {
					switch string(d.key) {
					case "version":
						x.Version = d.uint32()
					case "functions":
						if d.begin('[', "an array", false) {
							for d.nextElem() {
								var fn Function
								if d.begin('{', "an object", false) {
									d.require(reqFunction)
									for d.nextKey() {
										switch string(d.key) {
										case "text":
											fn.Text = d.str()
										case "parsedText":
											t := d.str()
											fn.ParsedText = &t
										default:
											d.unknown()
										}
									}
								}
								x.Functions = append(x.Functions, fn)
								x.checked = append(x.checked, fn) // the decoder checks every string is UTF-8
							}
						}
					default:
						d.unknown()
					}
				}
			}
		case "modules":
			doc.Modules = []Module{}
			if d.begin('[', "an array", false) {
				for d.nextElem() {
					var m Module
					if d.begin('{', "an object", false) {
						d.require(reqModule)
						for d.nextKey() {
							switch string(d.key) {
							case "path":
								m.Path = d.str()
							case "category":
								m.Category = d.str()
							case "instances":
								m.Instances = d.uint32()
							default:
								d.unknown()
							}
						}
					}
					doc.Modules = append(doc.Modules, m)
				}
			}
		case "moduleCall":
			if d.begin('{', "an object", false) {
				d.require(reqModuleCall)
				for d.nextKey() {
					switch string(d.key) {
					case "blackboardId":
						doc.ModuleCall.BlackboardID = d.uint32()
					case "parentBlackboardId":
						doc.ModuleCall.ParentBlackboardID = d.uint32()
					default:
						d.unknown()
					}
				}
			}
		case "replacements":
			doc.Replacements = nil
			if d.begin('[', "an array or null", true) {
				doc.Replacements = []Replacement{}
				for d.nextElem() {
					var r Replacement
					if d.begin('{', "an object", false) {
						d.require(reqReplacement)
						for d.nextKey() {
							switch string(d.key) {
							case "type":
								r.Type = d.enum(replacementNames[:])
							case "node":
								r.Node = d.ref()
							case "index":
								r.Index = d.int32()
							case "new":
								r.New = d.optIndex()
							default:
								d.unknown()
							}
						}
					}
					doc.Replacements = append(doc.Replacements, r)
				}
			}
		case "enumRelocations":
			doc.EnumRelocations = []EnumRelocation{}
			if d.begin('[', "an array", true) {
				for d.nextElem() {
					var r EnumRelocation
					if d.begin('{', "an object", false) {
						d.require(reqEnumRelocation)
						for d.nextKey() {
							switch string(d.key) {
							case "className":
								r.ClassName = d.str()
							case "valueName":
								r.ValueName = d.str()
							case "target":
								if d.begin('{', "an object or null", true) {
									t := &ValueTarget{}
									r.Target = t
									for d.nextKey() {
										switch string(d.key) {
										case "node":
											t.Node = d.optIndex()
										case "attachment":
											t.Attachment = d.optIndex()
										case "property":
											t.Property = d.optIndex()
										case "input":
											t.Input = d.optIndex()
										default:
											d.unknown()
										}
									}
								}
							default:
								d.unknown()
							}
						}
					}
					doc.EnumRelocations = append(doc.EnumRelocations, r)
				}
			}
		case "section58":
			doc.Section58 = nil
			if d.begin('{', "an object or null", true) {
				d.require(reqSection58)
				s := &Section58{}
				doc.Section58 = s
				for d.nextKey() {
					switch string(d.key) {
					case "description":
						s.Description = d.str()
					case "unknown":
						d.uints(s.Unknown[:])
					default:
						d.unknown()
					}
				}
			}
		case "hasSection6C":
			doc.HasSection6C = d.boolean()
		case "layout":
			doc.Layout = d.str()
		default:
			d.unknown()
		}
	}
}

// nodeCountHint guesses how many nodes a document has, to size Nodes once: the encoder and
// the browser start every node with {"id":, which a string cannot hold unescaped. JSON
// written otherwise gets a guess from its size (220 to 1,000 bytes a node in the corpus).
// The count goes from one brace to the next with IndexByte: bytes.Count, restarting its
// search at each of hundreds of matches, was 3% of a build.
func nodeCountHint(rest []byte) int {
	size, n := len(rest), 0
	for {
		i := bytes.IndexByte(rest, '{')
		if i < 0 {
			break
		}
		rest = rest[i+1:]
		if len(rest) >= 5 && string(rest[:5]) == `"id":` {
			n++
		}
	}
	if n > 0 {
		return n
	}
	return size / 400
}

func (d *dec) command(c *Command) {
	if !d.begin('{', "an object", false) {
		return
	}
	d.require(reqCommand)
	c.Secondary = -1
	for d.nextKey() {
		switch string(d.key) {
		case "name":
			c.Name = d.str()
		case "guid":
			c.GUID = d.guid()
		case "root":
			c.Root = d.index()
		case "secondary":
			c.Secondary = int(d.integer(-1, math.MaxInt32))
		default:
			d.unknown()
		}
	}
}

func (d *dec) coord() float64 {
	c := d.peek()
	if c != '-' && (c < '0' || c > '9') {
		d.problem("want a number, found %s", describe(c))
		d.Skip()
		return 0
	}
	at := d.Pos
	t := d.Number()
	if d.Err != nil {
		return 0
	}
	f, err := 0.0, error(nil)
	if v, ok := wholeNumber(t); ok {
		f = float64(v)
	} else {
		f, err = strconv.ParseFloat(unsafe.String(unsafe.SliceData(t), len(t)), 64)
	}
	if err != nil || math.Abs(f) > MaxCoord {
		d.problemAt(at, "", "%s is out of range (positions lie within ±1e9)", t)
		return 0
	}
	return f
}

func (d *dec) node(n *Node) {
	if !d.begin('{', "an object", false) {
		return
	}
	d.require(reqNode)
	for d.nextKey() {
		switch string(d.key) {
		case "id":
			n.ID = d.index()
		case "type":
			// Node types are many names; a substring of the text costs nothing either.
			n.Type = NodeType(d.str())
		case "name":
			n.Name = d.str()
		case "guid":
			n.GUID = d.guid()
		case "query":
			n.Query = d.boolean()
		case "moduleCaller":
			n.ModuleCaller = d.boolean()
		case "residentInit":
			n.ResidentInit = d.boolean()
		case "multiParamV2":
			n.MultiParamV2 = d.boolean()
		case "x":
			n.X = d.coord()
		case "y":
			n.Y = d.coord()
		case "pinned":
			n.Pinned = d.boolean()
		case "properties":
			n.Properties = d.properties()
		case "inputs":
			if d.begin('[', "an array", true) {
				d.inputs = d.inputs[:0]
				for d.nextElem() {
					d.inputs = append(d.inputs, Input{})
					d.input(&d.inputs[len(d.inputs)-1])
				}
				n.Inputs = chunk.Clone(&d.lists.inputs, d.inputs)
				clear(d.inputs)
			}
		case "outputs":
			if d.begin('[', "an array", true) {
				d.outputs = d.outputs[:0]
				for d.nextElem() {
					var o Output
					if d.begin('{', "an object", false) {
						d.require(reqOutput)
						for d.nextKey() {
							switch string(d.key) {
							case "name":
								o.Name = d.str()
							case "type":
								o.Type = ValueType(d.enum(valueTypeNames))
							case "className":
								o.ClassName = d.str()
							case "connected":
								o.Connected = d.boolean()
							default:
								d.unknown()
							}
						}
					}
					d.outputs = append(d.outputs, o)
				}
				n.Outputs = chunk.Clone(&d.lists.outputs, d.outputs)
			}
		case "children":
			if d.begin('[', "an array", true) {
				d.children = d.children[:0]
				for d.nextElem() {
					d.children = append(d.children, Child{})
					d.child(&d.children[len(d.children)-1])
				}
				n.Children = chunk.Clone(&d.lists.children, d.children)
			}
		case "jumps":
			if d.begin('[', "an array", true) {
				for d.nextElem() {
					var j Jump
					if d.begin('{', "an object", false) {
						d.require(reqJump)
						for d.nextKey() {
							switch string(d.key) {
							case "node":
								j.Node = d.ref()
							case "type":
								j.Type = int(d.integer(0, 255))
							case "command":
								j.Command = d.str()
							case "postCalc":
								j.PostCalc = d.boolean()
							default:
								d.unknown()
							}
						}
					}
					n.Jumps = append(n.Jumps, j)
				}
			}
		case "queries":
			n.Queries = d.ints()
		case "attachments":
			n.Attachments = d.ints()
		case "actions":
			if d.begin('[', "an array", true) {
				for d.nextElem() {
					var a Action
					if d.begin('{', "an object", false) {
						d.require(reqAction)
						for d.nextKey() {
							switch string(d.key) {
							case "slot":
								a.Slot = d.str()
							case "action":
								a.Action = d.str()
							default:
								d.unknown()
							}
						}
					}
					n.Actions = append(n.Actions, a)
				}
			}
		case "stateInfo":
			if d.begin('{', "an object or null", true) {
				d.require(reqStateInfo)
				s := &StateInfo{}
				n.StateInfo = s
				for d.nextKey() {
					switch string(d.key) {
					case "desiredState":
						s.DesiredState = d.str()
					case "unknown":
						d.uints(s.Unknown[:])
					default:
						d.unknown()
					}
				}
			}
		default:
			d.unknown()
		}
	}
}

func (d *dec) properties() []Property {
	if !d.begin('[', "an array", true) {
		return nil
	}
	d.props = d.props[:0]
	for d.nextElem() {
		var p Property
		var v jvalue
		if d.begin('{', "an object", false) {
			d.require(reqProperty)
			for d.nextKey() {
				switch string(d.key) {
				case "name":
					p.Name = d.str()
				case "type":
					p.Type = ValueType(d.enum(valueTypeNames))
				case "className":
					p.ClassName = d.str()
				case "value":
					d.rawValue(&v)
				case "source":
					p.Source = d.source(true)
				case "isOutput":
					p.IsOutput = d.boolean()
				case "usesDefault":
					p.UsesDefault = d.optBool()
				default:
					d.unknown()
				}
			}
			// The object's frame is gone; the array element's is on top again.
			d.value(p.Type, &v, &p.Value)
		}
		d.props = append(d.props, p)
	}
	out := chunk.Clone(&d.lists.props, d.props)
	clear(d.props)
	return out
}

func (d *dec) input(in *Input) {
	var v jvalue
	if !d.begin('{', "an object", false) {
		return
	}
	d.require(reqInput)
	for d.nextKey() {
		switch string(d.key) {
		case "name":
			in.Name = d.str()
		case "type":
			in.Type = ValueType(d.enum(valueTypeNames))
		case "className":
			in.ClassName = d.str()
		case "value":
			d.rawValue(&v)
		case "source":
			in.Source = d.source(true)
		case "sources":
			if d.begin('[', "an array", true) {
				in.Sources = []Source{}
				for d.nextElem() {
					var s Source
					if p := d.source(false); p != nil {
						s = *p
					}
					in.Sources = append(in.Sources, s)
				}
			}
		case "setBlackboard":
			in.SetBlackboard = d.boolean()
		case "isOutput":
			in.IsOutput = d.boolean()
		case "usesDefault":
			in.UsesDefault = d.optBool()
		default:
			d.unknown()
		}
	}
	// The object's frame is gone; the array element's frame is on top again.
	d.value(in.Type, &v, &in.Value)
}

func (d *dec) source(nullOK bool) *Source {
	if !d.begin('{', "an object", nullOK) {
		return nil
	}
	s := d.lists.sources.New()
	for d.nextKey() {
		switch string(d.key) {
		case "node":
			s.Node = d.optIndex()
		case "output":
			s.Output = d.index()
		case "missingOutput":
			s.MissingOutput = d.optIndex()
		case "blackboard":
			s.Blackboard = d.optIndex()
		case "component":
			s.Component = d.str()
		case "expression":
			s.Expression = d.optIndex()
		case "isOutput":
			s.IsOutput = d.boolean()
		case "usesDefault":
			s.UsesDefault = d.optBool()
		default:
			d.unknown()
		}
	}
	return s
}

func (d *dec) child(c *Child) {
	if !d.begin('{', "an object", false) {
		return
	}
	d.require(reqChild)
	for d.nextKey() {
		switch string(d.key) {
		case "node":
			if d.peek() == 'n' {
				d.Skip()
				c.Node = NoNode
			} else {
				c.Node = d.ref()
			}
		case "name":
			c.Name = d.str()
		case "condition":
			if d.begin('{', "an object or null", true) {
				k := d.lists.conds.New()
				c.Condition = k
				for d.nextKey() {
					switch string(d.key) {
					case "int":
						if p := d.optInt32(); p != nil {
							v := int32(*p)
							k.Int = &v
						}
					case "string":
						if d.peek() == 'n' {
							d.Skip()
						} else {
							s := d.str()
							k.String = &s
						}
					case "weight":
						k.Weight = d.optFloat()
					case "min":
						k.Min = d.optFloat()
					case "max":
						k.Max = d.optFloat()
					case "blackboard":
						k.Blackboard = d.optIndex()
					case "minBlackboard":
						k.MinBlackboard = d.optIndex()
					case "maxBlackboard":
						k.MaxBlackboard = d.optIndex()
					default:
						d.unknown()
					}
				}
			}
		default:
			d.unknown()
		}
	}
}

func (d *dec) attachment(a *Attachment) {
	if !d.begin('{', "an object", false) {
		return
	}
	d.require(reqAttachment)
	for d.nextKey() {
		switch string(d.key) {
		case "name":
			a.Name = d.str()
		case "debug":
			a.Debug = d.uint32()
		case "properties":
			a.Properties = d.properties()
		default:
			d.unknown()
		}
	}
}

func (d *dec) blackboardParam(p *BlackboardParam) {
	var v jvalue
	if !d.begin('{', "an object", false) {
		return
	}
	d.require(reqBlackboardParam)
	for d.nextKey() {
		switch string(d.key) {
		case "name":
			p.Name = d.str()
		case "type":
			p.Type = ValueType(d.enum(valueTypeNames))
		case "notes":
			p.Notes = d.str()
		case "inherit":
			p.Inherit = d.enum(inheritNames[:])
		case "file":
			p.File = d.str()
		case "value":
			d.rawValue(&v)
		default:
			d.unknown()
		}
	}
	d.value(p.Type, &v, &p.Value)
}
