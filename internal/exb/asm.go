package exb

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// lineParser reads one line of text. Positions are byte offsets into s;
// errors report 1-based character columns.
type lineParser struct {
	s       string
	pos     int
	end     int // where the line's comment starts, or len(s)
	line    int
	compat  bool // the reference tool's syntax: raw strings, no comments
	version uint32
	utf8OK  bool // the text is known to be valid UTF-8: literals need no check of their own
}

func (p *lineParser) errAt(pos int, format string, args ...any) error {
	pos = min(max(pos, 0), len(p.s))
	return &SyntaxError{Line: p.line, Col: utf8.RuneCountInString(p.s[:pos]) + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *lineParser) atEnd() bool { return p.pos >= p.end }

func (p *lineParser) peek() byte {
	if p.pos < p.end {
		return p.s[p.pos]
	}
	return 0
}

func (p *lineParser) skipSpace() {
	for p.pos < p.end && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t') {
		p.pos++
	}
}

func (p *lineParser) word() string {
	i := p.pos
	for i < p.end && isWordByte(p.s[i]) {
		i++
	}
	return p.s[p.pos:i]
}

func (p *lineParser) expect(c byte) error {
	p.skipSpace()
	if p.peek() != c {
		return p.errAt(p.pos, "expected %q, found %s", c, p.found())
	}
	p.pos++
	return nil
}

func (p *lineParser) found() string {
	if p.atEnd() {
		return "end of line"
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.pos:])
	return strconv.QuoteRune(r)
}

func (p *lineParser) finish() error {
	p.skipSpace()
	if !p.atEnd() {
		return p.errAt(p.pos, "unexpected %s after the instruction", p.found())
	}
	return nil
}

// commentStart finds a ';' that is not inside a quoted string.
func commentStart(s string) int {
	semi := strings.IndexByte(s, ';')
	if semi < 0 {
		return len(s)
	}
	if strings.IndexByte(s[:semi], '"') < 0 {
		return semi
	}
	in := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && c == ';':
			return i
		}
	}
	return len(s)
}

// token reads a literal's characters: up to a space, comma or closing
// parenthesis, plus a nan(...) payload.
func (p *lineParser) token() string {
	i := p.pos
	for i < p.end && !strings.ContainsRune(" \t,)]", rune(p.s[i])) {
		i++
	}
	if tok := p.s[p.pos:i]; strings.HasPrefix(strings.ToLower(tok), "nan(") && i < p.end && p.s[i] == ')' {
		i++
	}
	tok := p.s[p.pos:i]
	p.pos = i
	return tok
}

// parseUint reads 0x/0b-prefixed or decimal numbers.
func parseUint(s string, limit uint64) (uint64, bool) {
	base := 10
	switch {
	case len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X"):
		base, s = 16, s[2:]
	case len(s) > 2 && (s[:2] == "0b" || s[:2] == "0B"):
		base, s = 2, s[2:]
	}
	if s == "" || s[0] == '+' || s[0] == '-' {
		return 0, false
	}
	v, err := strconv.ParseUint(s, base, 64)
	return v, err == nil && v <= limit
}

func (p *lineParser) number(limit uint64, what string) (uint64, error) {
	p.skipSpace()
	start := p.pos
	tok := p.token()
	v, ok := parseUint(tok, limit)
	if !ok {
		if tok == "" {
			return 0, p.errAt(start, "expected %s, found %s", what, p.found())
		}
		return 0, p.errAt(start, "bad %s %q (want 0..%#x)", what, tok, limit)
	}
	return v, nil
}

func (p *lineParser) typeWord(w string, allowNone bool) (DataType, bool) {
	if p.compat {
		w = strings.ToLower(w)
		if w == "imm" {
			return 0, false
		}
	}
	if allowNone && w == "none" {
		return TypeNone, true
	}
	return typeByPrefix(w)
}

// operand reads "[type] memory" or "[type] literal". last says whether
// the operand ends the line, which the compat syntax's unescaped strings
// need to know.
func (p *lineParser) operand(last bool) (arg, DataType, error) {
	p.skipSpace()
	t := TypeNone
	if w := p.word(); w != "" {
		after := p.pos + len(w)
		if tt, ok := p.typeWord(w, false); ok && after < p.end && (p.s[after] == ' ' || p.s[after] == '\t') {
			t = tt
			p.pos = after
			p.skipSpace()
		}
	}
	start := p.pos
	if w := p.word(); w != "" && p.pos+len(w) < p.end && p.s[p.pos+len(w)] == '[' {
		src, ok := sourceByMemoryName(w)
		if !ok {
			return arg{}, t, p.errAt(start, "unknown memory %q (want GMem, In, Out, LMem32, LMem64, UserIn or UserOut)", w)
		}
		p.pos += len(w) + 1
		n, err := p.number(math.MaxUint16, "memory offset")
		if err != nil {
			return arg{}, t, err
		}
		if err := p.expect(']'); err != nil {
			return arg{}, t, err
		}
		if p.peek() == '.' {
			cpos := p.pos
			p.pos++
			c := strings.ToLower(p.word())
			p.pos += len(c)
			i := strings.Index("xyz", c)
			switch {
			case len(c) != 1 || i < 0:
				return arg{}, t, p.errAt(cpos, "bad vector component %q (want .x, .y or .z)", c)
			case src != SrcUserInput && src != SrcUserOutput || t != TypeFloat:
				return arg{}, t, p.errAt(cpos, "a vector component needs a float UserIn or UserOut operand")
			case n > 0xff:
				return arg{}, t, p.errAt(start, "offset %#x too large for a component operand (max 0xff)", n)
			}
			n |= 0x8000 | uint64(i*4)<<8
		}
		return arg{mem: true, src: src, off: uint16(n)}, t, nil
	}
	a, err := p.literal(t, last)
	return a, t, err
}

// literal reads a value of type t, or param(value): the value in the param table
// (arg.param).
func (p *lineParser) literal(t DataType, last bool) (arg, error) {
	start := p.pos
	if !p.compat && p.word() == "param" && p.pos+len("param") < p.end && p.s[p.pos+len("param")] == '(' {
		p.pos += len("param(")
		p.skipSpace()
		// Checked before reading the value, so that param(param(... cannot recurse.
		if w := p.word(); w == "param" {
			return arg{}, p.errAt(p.pos, "param( ) inside param( )")
		} else if _, mem := sourceByMemoryName(w); mem {
			return arg{}, p.errAt(p.pos, "param( ) holds a literal such as 2.0, not a location")
		}
		a, err := p.literal(t, false)
		if err != nil {
			return a, err
		}
		if err := p.expect(')'); err != nil {
			return a, err
		}
		a.param = true
		if msg := paramLiteralProblem(&a, t); msg != "" {
			return a, p.errAt(start, "%s", msg)
		}
		return a, nil
	}
	switch p.peek() {
	case '"':
		s, err := p.stringLit(last)
		return arg{kind: litStr, str: s}, err
	case '(':
		if t != TypeVec3f {
			return arg{}, p.errAt(start, "a vector literal needs type vec3f")
		}
		var a arg
		a.kind = litVec
		p.pos++
		for i := range 3 {
			if i > 0 {
				if err := p.expect(','); err != nil {
					return a, err
				}
			}
			p.skipSpace()
			b, err := p.floatLit()
			if err != nil {
				return a, err
			}
			a.bits[i] = b
		}
		return a, p.expect(')')
	case 0:
		return arg{}, p.errAt(start, "expected an operand, found end of line")
	}
	switch t {
	case TypeBool:
		tok := p.token()
		switch strings.ToLower(tok) {
		case "true":
			return arg{kind: litBool, b: true}, nil
		case "false":
			return arg{kind: litBool}, nil
		}
		return arg{}, p.errAt(start, "bad bool literal %q (want True or False)", tok)
	case TypeFloat:
		b, err := p.floatLit()
		return arg{kind: litFloat, bits: [3]uint32{b}}, err
	case TypeString:
		return arg{}, p.errAt(start, "a str literal must be quoted")
	case TypeVec3f:
		return arg{}, p.errAt(start, "a vec3f literal must be written (x, y, z)")
	}
	tok := p.token()
	if tok == "" {
		return arg{}, p.errAt(start, "expected an operand, found %s", p.found())
	}
	switch t {
	case TypeInt:
		neg := strings.HasPrefix(tok, "-")
		v, ok := parseUint(strings.TrimPrefix(tok, "-"), math.MaxInt32+1)
		if !ok || !neg && v > math.MaxInt32 {
			return arg{}, p.errAt(start, "bad int literal %q (want a 32-bit signed integer)", tok)
		}
		n := int64(v)
		if neg {
			n = -n
		}
		return arg{kind: litNum, num: n}, nil
	case TypeUInt:
		v, ok := parseUint(tok, math.MaxUint32)
		if !ok {
			return arg{}, p.errAt(start, "bad uint literal %q (want a 32-bit unsigned integer)", tok)
		}
		return arg{kind: litNum, num: int64(v)}, nil
	}
	v, ok := parseUint(tok, math.MaxUint16)
	if !ok {
		return arg{}, p.errAt(start, "bad operand %q (an untyped operand is memory such as GMem[0x0] or a number 0..0xffff)", tok)
	}
	return arg{kind: litNum, num: int64(v)}, nil
}

// floatLit reads a float literal and returns its f32 bits.
func (p *lineParser) floatLit() (uint32, error) {
	start := p.pos
	tok := p.token()
	low := strings.ToLower(tok)
	if !p.compat && strings.HasPrefix(low, "nan(") && strings.HasSuffix(low, ")") {
		v, ok := parseUint(low[4:len(low)-1], math.MaxUint32)
		if ok && f32(uint32(v)) != f32(uint32(v)) {
			return uint32(v), nil
		}
		return 0, p.errAt(start, "bad NaN literal %q (want nan(0x7fc00000)-style bits of a NaN)", tok)
	}
	x, err := strconv.ParseFloat(tok, 64)
	if err != nil {
		if tok == "" {
			return 0, p.errAt(start, "expected a float, found %s", p.found())
		}
		return 0, p.errAt(start, "bad float literal %q", tok)
	}
	f := float32(x)
	if math.IsInf(float64(f), 0) && !math.IsInf(x, 0) {
		return 0, p.errAt(start, "float literal %q is out of float32 range", tok)
	}
	return bitsOf(f), nil
}

// stringLit reads a quoted string. The listing uses Go quoting; the
// compat syntax does not escape at all, so its closing quote is the last
// one on the line, or for a first operand the first one before a comma.
func (p *lineParser) stringLit(last bool) (string, error) {
	start := p.pos
	if !p.compat {
		if p.peek() != '"' { // listing directives also take Go's raw and rune literals
			q, err := strconv.QuotedPrefix(p.s[p.pos:p.end])
			if err != nil {
				return "", p.errAt(start, "bad string literal (want a double-quoted string with Go escapes)")
			}
			s, _ := strconv.Unquote(q)
			p.pos += len(q)
			return s, nil
		}
		s, n, ok := unquotePrefix(p.s[p.pos:p.end], p.utf8OK)
		if !ok {
			return "", p.errAt(start, "bad string literal (want a double-quoted string with Go escapes)")
		}
		p.pos += n
		return s, nil
	}
	rest := p.s[p.pos+1 : p.end]
	close := -1
	if last {
		close = strings.LastIndexByte(rest, '"')
	} else {
		for i := 0; i < len(rest); i++ {
			if rest[i] == '"' && strings.HasPrefix(strings.TrimLeft(rest[i+1:], " \t"), ",") {
				close = i
				break
			}
		}
	}
	if close < 0 {
		return "", p.errAt(start, "unterminated string literal")
	}
	p.pos += close + 2
	return rest[:close], nil
}

// unquotePrefix reads the double-quoted Go string at the start of s as strconv.QuotedPrefix
// and strconv.Unquote together do: the value, the length of the quoted text (quotedEnd),
// and whether there is one. A literal without escapes comes back as a substring of s; in
// one with escapes, runs between escapes are copied in bulk and each escape is read by
// strconv.UnquoteChar. As in strconv, a byte that is not UTF-8 stands for U+FFFD.
func unquotePrefix(s string, utf8OK bool) (string, int, bool) {
	end, ok := quotedEnd(s)
	if !ok {
		return "", 0, false
	}
	body := s[1 : end-1]
	if strings.IndexByte(body, '\\') < 0 && (utf8OK || utf8.ValidString(body)) {
		return body, end, true
	}
	buf := make([]byte, 0, len(body)) // the literal's size, not the rest of the line's
	run := 0                          // start of the bytes not yet copied
	for i := 0; i < len(body); {
		switch c := body[i]; {
		case c == '\\':
			buf = append(buf, body[run:i]...)
			r, multibyte, rest, _ := strconv.UnquoteChar(body[i:], '"') // quotedEnd read it
			if r < utf8.RuneSelf || !multibyte {
				buf = append(buf, byte(r))
			} else {
				buf = utf8.AppendRune(buf, r)
			}
			i = len(body) - len(rest)
			run = i
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRuneInString(body[i:])
			if r == utf8.RuneError && n == 1 {
				buf = append(buf, body[run:i]...)
				buf = utf8.AppendRune(buf, r)
				run = i + 1
			}
			i += n
		}
	}
	return string(append(buf, body[run:]...)), end, true
}

// quotedEnd is the length of the double-quoted Go string at the start of s, as
// unquotePrefix reads it, without making its value: false where unquotePrefix fails.
func quotedEnd(s string) (int, bool) {
	n, _, ok := quotedEndPlain(s)
	return n, ok
}

// quotedEndPlain is quotedEnd that also reports whether the string has no escapes, so that
// its value is the text between the quotes (if valid UTF-8) without another look at it.
func quotedEndPlain(s string) (n int, plain, ok bool) {
	if len(s) == 0 || s[0] != '"' {
		return 0, false, false
	}
	if end := strings.IndexByte(s[1:], '"') + 1; end > 0 {
		if body := s[1:end]; strings.IndexByte(body, '\\') < 0 && strings.IndexByte(body, '\n') < 0 {
			return end + 1, true, true
		}
	}
	for i := 1; i < len(s); {
		switch s[i] {
		case '"':
			return i + 1, false, true
		case '\n':
			return 0, false, false
		case '\\':
			_, _, rest, err := strconv.UnquoteChar(s[i:], '"')
			if err != nil {
				return 0, false, false
			}
			i = len(s) - len(rest)
		default:
			i++
		}
	}
	return 0, false, false
}

func (p *lineParser) target() (uint16, error) {
	p.skipSpace()
	start := p.pos
	v, err := p.number(math.MaxUint16*8, "jump address")
	if err != nil {
		return 0, err
	}
	if v%8 != 0 {
		return 0, p.errAt(start, "jump address %#x is not a multiple of 8", v)
	}
	return uint16(v / 8), nil
}

// call reads "signature, GMem[offset]" after CFN.
func (p *lineParser) call(s *stmt) error {
	p.skipSpace()
	start := p.pos
	rest := p.s[p.pos:p.end]
	g := strings.LastIndex(rest, "GMem[")
	comma := -1
	if g >= 0 {
		comma = len(strings.TrimRight(rest[:g], " \t")) - 1
	}
	if comma < 0 || rest[comma] != ',' {
		return p.errAt(start, "CFN needs a signature and \", GMem[offset]\"")
	}
	sigText := strings.TrimSpace(rest[:comma])
	typed := false
	if !p.compat {
		if w, _, ok := strings.Cut(sigText, " "); ok {
			if t, ok := p.typeWord(w, true); ok && strings.HasPrefix(strings.TrimLeft(sigText[len(w):], " \t"), `"`) {
				s.typ, typed = t, true
				sigText = strings.TrimLeft(sigText[len(w):], " \t")
			}
		}
		if strings.HasPrefix(sigText, `"`) {
			u, err := strconv.Unquote(sigText)
			if err != nil {
				return p.errAt(start, "bad quoted signature %s", sigText)
			}
			sigText = u
		}
	}
	if sigText == "" {
		return p.errAt(start, "CFN needs a signature")
	}
	s.sig = sigText
	if !typed {
		t, ok := sigReturnType(sigText)
		if !ok {
			return p.errAt(start, "cannot tell the return type of signature %q; write CFN <type> \"signature\", GMem[offset]", sigText)
		}
		s.typ = t
	}
	p.pos += g + len("GMem[")
	n, err := p.number(math.MaxUint16, "argument offset")
	if err != nil {
		return err
	}
	s.argOff = uint16(n)
	return p.expect(']')
}

// instruction parses one instruction line: an optional byte address (which
// is ignored), a mnemonic and its operands, or ".raw" and eight bytes.
func (p *lineParser) instruction() (stmt, error) {
	var s stmt
	p.skipSpace()
	if strings.HasPrefix(p.s[p.pos:p.end], "0x") {
		i := p.pos + 2
		for i < p.end && strings.IndexByte("0123456789abcdefABCDEF", p.s[i]) >= 0 {
			i++
		}
		if i == p.end || p.s[i] == ' ' || p.s[i] == '\t' {
			p.pos = i
			p.skipSpace()
		}
	}
	if p.atEnd() {
		return s, p.errAt(p.pos, "missing instruction")
	}
	start := p.pos
	if !p.compat && strings.HasPrefix(p.s[p.pos:p.end], ".raw") {
		p.pos += len(".raw")
		h := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' {
				return -1
			}
			return r
		}, p.s[p.pos:p.end])
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != 8 {
			return s, p.errAt(start, ".raw needs exactly 8 bytes in hex")
		}
		if err := decodeInstruction(&s.ins, b, p.version); err != nil {
			return s, p.errAt(start, ".raw: %v", err)
		}
		s.raw, s.op = true, s.ins.Op
		return s, nil
	}
	name := p.word()
	op, ok := opcodeByMnemonic(name)
	if !ok {
		if name == "" {
			return s, p.errAt(start, "expected an opcode, found %s", p.found())
		}
		return s, p.errAt(start, "unknown opcode %q", name)
	}
	s.op = op
	p.pos += len(name)
	if !p.atEnd() && p.peek() != ' ' && p.peek() != '\t' {
		return s, p.errAt(p.pos, "unexpected %s after the opcode", p.found())
	}
	var err error
	switch op.form() {
	case formEnd:
	case formJump:
		s.target, err = p.target()
	case formCall:
		err = p.call(&s)
	case formUnary:
		s.a[0], s.typ, err = p.operand(true)
	case formBranch:
		if s.a[0], s.typ, err = p.operand(false); err == nil {
			if err = p.expect(','); err == nil {
				s.target, err = p.target()
			}
		}
	case formBinary:
		if s.a[0], s.typ, err = p.operand(false); err != nil {
			break
		}
		if err = p.expect(','); err != nil {
			break
		}
		p.skipSpace()
		at := p.pos
		var t DataType
		if s.a[1], t, err = p.operand(true); err == nil && t != op.rhsType(s.typ) {
			err = p.errAt(at, "second operand has type %s, %s needs %s", typeWord(t), op, typeWord(op.rhsType(s.typ)))
		}
	}
	if err != nil {
		return s, err
	}
	if _, ok := encodeType(s.typ, p.version); !ok {
		return s, p.errAt(start, "type %s is not allowed in version %d", typeWord(s.typ), p.version)
	}
	return s, p.finish()
}

// parseInstruction parses a line of the listing / function-text syntax.
func parseInstruction(text string, line int, version uint32) (stmt, error) {
	p := &lineParser{s: text, end: commentStart(text), line: line, version: version}
	return p.instruction()
}

// parseCompatInstruction parses a line of the reference tool's syntax.
func parseCompatInstruction(text string, line int, version uint32) (stmt, error) {
	p := &lineParser{s: text, end: len(text), line: line, compat: true, version: version}
	return p.instruction()
}

// splitLines splits text into lines without their line endings.
func splitLines(text string) []string { return appendLines(nil, text) }

// appendLines appends text's lines to lines, as splitLines returns them.
func appendLines(lines []string, text string) []string {
	// Sized first: grown by append, the headers of a text of a million empty lines took
	// 82 bytes a line, five times their size.
	lines = slices.Grow(lines, strings.Count(text, "\n")+1)
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			break
		}
		lines = append(lines, strings.TrimSuffix(text[:i], "\r"))
		text = text[i+1:]
	}
	if last := strings.TrimSuffix(text, "\r"); last != "" {
		lines = append(lines, last)
	}
	return lines
}

// directive splits a directive line into its fields and their columns.
type field struct {
	text string
	pos  int
}

// fields splits s at blanks, appending to out (a caller's array, so short directives need
// no allocation).
func fields(s string, out []field) []field {
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		if j > i {
			out = append(out, field{s[i:j], i})
		}
		i = j
	}
	return out
}

// parseFunction reads function text (see FunctionText). in and out are the
// types to keep when the text has no .input / .output line.
func parseFunction(text string, version uint32, in, out DataType, utf8OK bool) (function, error) {
	fn := function{input: in, output: out}
	block := -1
	seen := [2]bool{}
	lines := splitLines(text)
	for i, l := range lines {
		p := &lineParser{s: l, end: commentStart(l), line: i + 1, version: version, utf8OK: utf8OK}
		p.skipSpace()
		if p.atEnd() {
			continue
		}
		if p.peek() == '.' && !strings.HasPrefix(l[p.pos:], ".raw") {
			var buf [4]field
			fs := fields(l[:p.end], buf[:0])
			d := fs[0]
			switch d.text {
			case ".input", ".output":
				if len(fs) != 2 {
					return fn, p.errAt(d.pos, "%s needs one type such as INT or VECTOR3F", d.text)
				}
				t, ok := ParseDataType(strings.ToUpper(fs[1].text))
				if !ok {
					return fn, p.errAt(fs[1].pos, "unknown type %q", fs[1].text)
				}
				if _, ok := encodeType(t, version); !ok {
					return fn, p.errAt(fs[1].pos, "type %s is not allowed in version %d", t, version)
				}
				if d.text == ".input" {
					fn.input = t
				} else {
					fn.output = t
				}
			case ".setup", ".main":
				if len(fs) != 1 {
					return fn, p.errAt(fs[1].pos, "unexpected %q after %s", fs[1].text, d.text)
				}
				block = 0
				if d.text == ".main" {
					block = 1
				}
				if seen[block] {
					return fn, p.errAt(d.pos, "second %s block", d.text)
				}
				seen[block] = true
			default:
				return fn, p.errAt(d.pos, "unknown directive %q (want .input, .output, .setup or .main)", d.text)
			}
			continue
		}
		if block < 0 {
			return fn, p.errAt(p.pos, "instruction before .setup or .main")
		}
		s, err := p.instruction()
		if err != nil {
			return fn, err
		}
		if fn.main == nil && fn.setup == nil {
			// Room for every line that follows: a statement is large, and growing the
			// slices line by line copied them again and again.
			n := len(lines) - i
			if block == 0 {
				fn.setup, fn.setupLines = make([]stmt, 0, n), make([]int, 0, n)
			} else {
				fn.main, fn.mainLines = make([]stmt, 0, n), make([]int, 0, n)
			}
		} else if block == 1 && fn.main == nil {
			n := len(lines) - i
			fn.main, fn.mainLines = make([]stmt, 0, n), make([]int, 0, n)
		}
		if block == 0 {
			fn.setup, fn.setupLines = append(fn.setup, s), append(fn.setupLines, i+1)
		} else {
			fn.main, fn.mainLines = append(fn.main, s), append(fn.mainLines, i+1)
		}
	}
	if !seen[1] {
		return fn, &SyntaxError{Line: max(len(lines), 1), Msg: "missing .main block"}
	}
	return fn, nil
}

// SetFunctionText replaces function i with the assembled listing text (the
// form FunctionText produces), as SetFunctionSource does: no other function
// changes. Errors in the text carry its line number; on error the module is
// unchanged. Without .input / .output lines the function keeps its types.
func (m *Module) SetFunctionText(i int, text string) error {
	if i < 0 || i >= len(m.Functions) {
		return fmt.Errorf("exb: function %d out of range (%d functions)", i, len(m.Functions))
	}
	src, err := m.compileListing(text, m.Functions[i].Input, m.Functions[i].Output)
	if err != nil {
		return err
	}
	return m.replaceFunction(i, src)
}

// AppendFunction assembles listing text as a new last function, leaving
// every other function as it is, and returns the function's index.
func (m *Module) AppendFunction(text string) (int, error) {
	src, err := m.compileListing(text, TypeNone, TypeNone)
	if err != nil {
		return 0, err
	}
	return len(m.Functions), m.replaceFunction(len(m.Functions), src)
}

// FromCompat assembles the reference tool's JSON form (the version comes
// from c.Version) into a canonically laid-out module with recomputed memory
// sizes. "Expression Index" is ignored, as the tool ignores it: functions
// are numbered by position. InstanceCount is left 0 for the caller to set.
func FromCompat(c *Compat) (*Module, error) {
	if c.Version < 1 || c.Version > 3 {
		return nil, fmt.Errorf("exb: unsupported version %d (want 1, 2 or 3)", c.Version)
	}
	m := &Module{Version: c.Version}
	fns := make([]function, len(c.Expressions))
	for i, e := range c.Expressions {
		fn := &fns[i]
		var ok bool
		if fn.input, ok = ParseDataType(e.InputType); !ok {
			return nil, fmt.Errorf("exb: expression %d: unknown input type %q", i, e.InputType)
		}
		if fn.output, ok = ParseDataType(e.OutputType); !ok {
			return nil, fmt.Errorf("exb: expression %d: unknown output type %q", i, e.OutputType)
		}
		for k, lines := range [2][]string{e.Setup, e.Main} {
			for j, l := range lines {
				s, err := parseCompatInstruction(l, j+1, c.Version)
				if err != nil {
					return nil, fmt.Errorf("exb: expression %d: %s %w", i, [2]string{"Setup", "Main"}[k], err)
				}
				if k == 0 {
					fn.setup = append(fn.setup, s)
				} else {
					fn.main = append(fn.main, s)
				}
			}
		}
	}
	if err := m.rebuild(fns); err != nil {
		return nil, err
	}
	return m, nil
}

// FunctionError reports the function whose text did not assemble.
type FunctionError struct {
	Function int
	Err      error
}

func (e *FunctionError) Error() string { return fmt.Sprintf("exb: function %d: %v", e.Function, e.Err) }
func (e *FunctionError) Unwrap() error { return e.Err }

// AssembleFunctions makes a canonically laid-out module of the given version from function
// texts (the form FunctionText produces), with memory sizes computed. InstanceCount is left 0
// for the caller to set. Errors are *FunctionError; a text's syntax errors carry its line.
func AssembleFunctions(version uint32, texts []string) (*Module, error) {
	return assembleFunctions(version, texts, false)
}

// AssembleValidFunctions is AssembleFunctions for texts the caller has checked are valid
// UTF-8 (read from JSON that was checked, say): string literals are not checked again,
// which was a third of assembling text full of long non-ASCII strings. A literal with bytes
// that are not UTF-8 would keep them instead of reading as U+FFFD.
func AssembleValidFunctions(version uint32, texts []string) (*Module, error) {
	return assembleFunctions(version, texts, true)
}

func assembleFunctions(version uint32, texts []string, utf8OK bool) (*Module, error) {
	if version < 1 || version > 3 {
		return nil, fmt.Errorf("exb: unsupported version %d (want 1, 2 or 3)", version)
	}
	fns := make([]function, len(texts))
	for i, t := range texts {
		fn, err := parseFunction(t, version, TypeNone, TypeNone, utf8OK)
		if err != nil {
			return nil, &FunctionError{i, err}
		}
		fns[i] = fn
	}
	m := &Module{Version: version}
	if err := m.rebuild(fns); err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			// rebuild reports a line within the function it was laying out; find which.
			for i := range fns {
				one := &Module{Version: version}
				if one.rebuild(fns[i:i+1]) != nil {
					return nil, &FunctionError{i, err}
				}
			}
		}
		return nil, err
	}
	return m, nil
}
