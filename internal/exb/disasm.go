package exb

import (
	"ainbeditor/internal/pyfmt"
	"ainbeditor/internal/textscan"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// typeWord is how the listing names a type where a word is required.
func typeWord(t DataType) string {
	if t == TypeNone {
		return "none"
	}
	if t <= maxDataType {
		return typePrefixes[t]
	}
	return t.String()
}

func quote(s string) string { return string(appendQuote(nil, s)) }

// floatText is a float literal in the listing: Python's repr (which reads
// back exactly), or nan(bits) so that NaN payloads survive.
func floatText(bits uint32) string {
	f := f32(bits)
	if f != f {
		return fmt.Sprintf("nan(%#08x)", bits)
	}
	return pyfmt.Float(float64(f))
}

func vecText(bits [3]uint32, elem func(uint32) string) string {
	return "(" + elem(bits[0]) + ", " + elem(bits[1]) + ", " + elem(bits[2]) + ")"
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// memText renders a memory operand. A float read from or written to the
// caller's parameters may address one component of a vector: bit 15 set,
// bits 8..14 the component's byte offset, bits 0..7 the parameter.
func memText(src Source, off uint16, t DataType) (string, bool) {
	b, ok := appendMem(nil, src, off, t)
	return string(b), ok
}

// appendMem appends what memText returns, and reports the same.
func appendMem(b []byte, src Source, off uint16, t DataType) ([]byte, bool) {
	b = append(b, memoryNames[src]...)
	b = append(b, '[')
	if (src == SrcUserInput || src == SrcUserOutput) && t == TypeFloat && off&0x8000 != 0 {
		c := off >> 8 & 0x7f
		if c == 0 || c == 4 || c == 8 {
			b = appendHex(b, uint64(off&0xff))
			return append(b, ']', '.', "xyz"[c/4]), true
		}
		return append(appendHex(b, uint64(off)), ']'), false
	}
	return append(appendHex(b, uint64(off)), ']'), true
}

// appendHex appends v as fmt's %#x does.
func appendHex(b []byte, v uint64) []byte {
	return strconv.AppendUint(append(b, "0x"...), v, 16)
}

// appendAddr appends an address as fmt's "0x%04x" does.
func appendAddr(b []byte, v int) []byte {
	b = append(b, "0x"...)
	for n := 0x1000; n > 1 && v < n; n >>= 4 {
		b = append(b, '0')
	}
	return strconv.AppendUint(b, uint64(v), 16)
}

func appendArg(b []byte, a *arg, t DataType) []byte {
	if t != TypeNone {
		b = append(b, typeWord(t)...)
		b = append(b, ' ')
	}
	if a.mem {
		b, _ = appendMem(b, a.src, a.off, t)
		return b
	}
	if a.param {
		b = append(b, "param("...)
	}
	switch a.kind {
	case litNum:
		b = strconv.AppendInt(b, a.num, 10)
	case litBool:
		b = append(b, pyBool(a.b)...)
	case litFloat:
		b = append(b, floatText(a.bits[0])...)
	case litVec:
		b = append(b, vecText(a.bits, floatText)...)
	case litStr:
		b = appendQuote(b, a.str)
	}
	if a.param {
		b = append(b, ')')
	}
	return b
}

// appendQuote appends s as strconv.Quote does. Quote works rune by rune and copies every
// printable rune on its own; here runs of characters Quote leaves as they are (printable
// ASCII other than quotes and backslashes, printable non-ASCII runes) are copied in one
// go, and only a character that needs an escape is handed to strconv. Quote escapes each
// rune independently of its neighbours, so quoting that rune alone gives the same escape.
func appendQuote(b []byte, s string) []byte {
	b = append(b, '"')
	run := 0 // start of the pending run of characters copied as they are
	var p0 *[1 << 16 / 64]uint64
	for i := 0; i < len(s); {
		// One loop with the scans inlined, as in jsontext.AppendString: string literals mix
		// ASCII and kana every few characters, and a call per run cost more than the scan.
		if i+8 <= len(s) {
			n := textscan.PlainPrefix(textscan.Word(s, i), false)
			i += n
			if n == 8 {
				continue
			}
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' { // only within the last eight bytes
				i++
				continue
			}
			b = append(b, s[run:i]...)
			b = appendEscaped(b, s[i:i+1])
			i++
			run = i
			continue
		}
		// Decoded and looked up here, such a rune costs a few instructions.
		if textscan.IsCJK3(s, i) {
			if p0 == nil {
				p0 = planeBits(0)
			}
			for i < len(s) {
				if textscan.IsCJK3(s, i) {
					if r := rune(s[i]&0x0f)<<12 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f); p0[r/64]&(1<<(r%64)) == 0 {
						break
					}
					i += 3
				} else if s[i] == ' ' && i+1 < len(s) && textscan.IsCJK3(s, i+1) {
					i++ // a space between words: a word scan for one byte cost more
				} else {
					break
				}
			}
			if i == len(s) || s[i] < utf8.RuneSelf {
				continue
			}
		}
		r, w := decodeRune(s[i:])
		if (r != utf8.RuneError || w != 1) && isPrint(r) {
			i += w
			continue
		}
		b = append(b, s[run:i]...)
		b = appendEscaped(b, s[i:i+w])
		i += w
		run = i
	}
	b = append(b, s[run:]...)
	return append(b, '"')
}

// printPlanes caches strconv.IsPrint for the 17 Unicode planes, one bit a rune, each plane
// filled in when a string first uses it. Quoting asks IsPrint for every non-ASCII rune, and
// its binary searches were most of the cost of quoting text full of non-ASCII strings.
var printPlanes [17]struct {
	once sync.Once
	bits *[1 << 16 / 64]uint64
}

// isPrint is strconv.IsPrint for a valid rune.
func isPrint(r rune) bool {
	if r < 0 || r > utf8.MaxRune {
		return strconv.IsPrint(r)
	}
	i := r & 0xffff
	return planeBits(int(r >> 16))[i/64]&(1<<(i%64)) != 0
}

// planeBits is the IsPrint bitmap of one plane, filled in on first use from the range
// tables strconv.IsPrint is defined by (unicode.PrintRanges and the ASCII space): a walk of
// their ranges takes 0.12 ms for plane 0, where 65,536 IsPrint calls took 1.39 ms of a
// process's first parse. TestIsPrint holds the two equal over the whole code space.
func planeBits(plane int) *[1 << 16 / 64]uint64 {
	p := &printPlanes[plane]
	p.once.Do(func() {
		bits := new([1 << 16 / 64]uint64)
		lo, hi := uint32(plane)<<16, uint32(plane)<<16|0xffff
		set := func(first, last, stride uint32) {
			if first < lo {
				first += (lo - first + stride - 1) / stride * stride
			}
			for r := first; r <= min(last, hi); r += stride {
				i := r - lo
				bits[i/64] |= 1 << (i % 64)
			}
		}
		for _, t := range unicode.PrintRanges {
			for _, g := range t.R16 {
				set(uint32(g.Lo), uint32(g.Hi), uint32(g.Stride))
			}
			for _, g := range t.R32 {
				set(g.Lo, g.Hi, g.Stride)
			}
		}
		set(' ', ' ', 1)
		p.bits = bits
	})
	return p.bits
}

// decodeRune is utf8.DecodeRuneInString with the two- and three-byte forms, the common
// ones in text, decoded inline.
func decodeRune(s string) (rune, int) {
	c := s[0]
	switch {
	case c >= 0xc2 && c < 0xe0 && len(s) >= 2 && s[1]&0xc0 == 0x80:
		return rune(c&0x1f)<<6 | rune(s[1]&0x3f), 2
	case c >= 0xe0 && c < 0xf0 && len(s) >= 3 && s[1]&0xc0 == 0x80 && s[2]&0xc0 == 0x80 &&
		(c != 0xe0 || s[1] >= 0xa0) && (c != 0xed || s[1] < 0xa0):
		return rune(c&0x0f)<<12 | rune(s[1]&0x3f)<<6 | rune(s[2]&0x3f), 3
	}
	return utf8.DecodeRuneInString(s)
}

// appendEscaped appends strconv's escape of the one character c, without quotes.
func appendEscaped(b []byte, c string) []byte {
	var buf [16]byte // the longest escape, \UHHHHHHHH, in quotes fits
	q := strconv.AppendQuote(buf[:0], c)
	return append(b, q[1:len(q)-1]...)
}

// plainSig reports whether a signature can be written without quotes.
func plainSig(s string) bool {
	if s == "" || !utf8.ValidString(s) || strings.TrimSpace(s) != s || strings.ContainsAny(s, "\";") {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// sigReturnType reads the return type out of a signature such as
// "Actor.IsNamed(bool, str)" or "(game::ai::Actor).GetDistance(float,
// vector3f)": the first word inside the call's parentheses.
func sigReturnType(sig string) (DataType, bool) {
	for i := 1; i < len(sig); i++ {
		if sig[i] != '(' || !isWordByte(sig[i-1]) {
			continue
		}
		rest := sig[i+1:]
		end := strings.IndexAny(rest, ",)")
		if end < 0 {
			return 0, false
		}
		return ParseDataType(strings.ToUpper(strings.TrimSpace(rest[:end])))
	}
	return 0, false
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// text renders a statement in the listing's instruction syntax.
func (s *stmt) text(version uint32) string { return string(s.appendText(nil, version)) }

// appendText appends what text returns. It builds no intermediate strings: function texts
// are made for every expression of every file parsed.
func (s *stmt) appendText(b []byte, version uint32) []byte {
	if s.raw {
		ins, _ := s.ins.Bytes(version)
		b = append(b, ".raw "...)
		return hex.AppendEncode(b, ins[:])
	}
	b = append(b, s.op.String()...)
	switch s.op.form() {
	case formUnary:
		b = append(b, ' ')
		b = appendArg(b, &s.a[0], s.typ)
	case formBinary:
		b = append(b, ' ')
		b = appendArg(b, &s.a[0], s.typ)
		b = append(b, ", "...)
		b = appendArg(b, &s.a[1], s.op.rhsType(s.typ))
	case formBranch:
		b = append(b, ' ')
		b = appendArg(b, &s.a[0], s.typ)
		b = append(b, ", "...)
		b = appendHex(b, uint64(s.target)*8)
	case formJump:
		b = append(b, ' ')
		b = appendHex(b, uint64(s.target)*8)
	case formCall:
		b = append(b, ' ')
		if t, ok := sigReturnType(s.sig); ok && t == s.typ && plainSig(s.sig) {
			b = append(b, s.sig...)
		} else {
			b = append(b, typeWord(s.typ)...)
			b = append(b, ' ')
			b = appendQuote(b, s.sig)
		}
		b = append(b, ", GMem["...)
		b = appendHex(b, uint64(s.argOff))
		b = append(b, ']')
	}
	return b
}

// compatOperand renders an operand exactly as the reference tool does, or
// fails where it fails.
func (c *decodeCtx) compatOperand(op Operand, t DataType) (string, error) {
	prefix := ""
	if t >= TypeBool && t <= maxDataType {
		prefix = typePrefixes[t] + " "
	}
	if op.Src > maxSource {
		return "", fmt.Errorf("unknown parameter source %d", op.Src)
	}
	if op.Src.IsMemory() {
		s, ok := memText(op.Src, op.Val, t)
		if !ok {
			return "", fmt.Errorf("vector component offset %#x is not 0, 4 or 8", op.Val>>8&0x7f)
		}
		return prefix + s, nil
	}
	if t == TypeNone {
		return strconv.Itoa(int(op.Val)), nil
	}
	switch op.Src {
	case SrcImmediate:
		switch t {
		case TypeBool:
			return prefix + pyBool(op.Val != 0), nil
		case TypeInt, TypeUInt:
			return prefix + strconv.Itoa(int(op.Val)), nil
		case TypeFloat:
			return prefix + pyfmt.Float(float64(op.Val)), nil
		}
		return "", fmt.Errorf("no immediate form for type %s", t)
	case SrcImmediateString, SrcParamString:
		o := uint32(op.Val)
		if op.Src == SrcParamString {
			w, ok := c.paramWord(op.Val, 1)
			if !ok {
				return "", fmt.Errorf("param offset %#x out of range", op.Val)
			}
			o = w[0]
		}
		s, ok := c.pool.at(o)
		if !ok {
			return "", fmt.Errorf("string offset %#x is not a string in the pool", o)
		}
		return prefix + `"` + s + `"`, nil
	}
	kind, ok := paramKindFor(SrcParam, t)
	if !ok {
		return "", fmt.Errorf("no param table form for type %s", t)
	}
	w, ok := c.paramWord(op.Val, int(kind.size()/4))
	if !ok {
		return "", fmt.Errorf("param offset %#x out of range", op.Val)
	}
	switch kind {
	case ParamBool:
		return prefix + pyBool(w[0] != 0), nil
	case ParamInt:
		return prefix + strconv.Itoa(int(int32(w[0]))), nil
	case ParamUInt:
		return prefix + strconv.FormatUint(uint64(w[0]), 10), nil
	case ParamFloat:
		return prefix + pyfmt.Float(float64(f32(w[0]))), nil
	}
	return prefix + vecText(w, func(b uint32) string { return pyfmt.Float(float64(f32(b))) }), nil
}

// compatText renders an instruction as the reference tool's disassembler
// does. Unlike it, opcode 0x0B is shown as DEC.
func (c *decodeCtx) compatText(in *Instruction) (string, error) {
	if !in.Op.Valid() {
		return "", fmt.Errorf("unknown opcode %s", in.Op)
	}
	name := in.Op.String()
	switch in.Op.form() {
	case formEnd:
		return name, nil
	case formJump:
		return fmt.Sprintf("%s %#x", name, int(in.RHS.Val)*8), nil
	case formCall:
		if uint64(in.Signature) >= uint64(len(c.sigs)) {
			return "", fmt.Errorf("signature index %d out of range", in.Signature)
		}
		return fmt.Sprintf("%s %s, GMem[%#x]", name, c.sigs[in.Signature], in.ArgOffset), nil
	case formUnary, formBranch:
		a, err := c.compatOperand(in.LHS, in.Type)
		if err != nil {
			return "", err
		}
		if in.Op.form() == formBranch {
			return fmt.Sprintf("%s %s, %#x", name, a, int(in.RHS.Val)*8), nil
		}
		return name + " " + a, nil
	}
	a, err := c.compatOperand(in.LHS, in.Type)
	if err != nil {
		return "", err
	}
	b, err := c.compatOperand(in.RHS, in.Op.rhsType(in.Type))
	if err != nil {
		return "", err
	}
	return name + " " + a + ", " + b, nil
}

// Compat is the reference tool's JSON form of a module: the value of the
// "Expressions" key of its AINB JSON. Unmarshal that JSON into it directly.
type Compat struct {
	Version     uint32             `json:"Version"`
	Expressions []CompatExpression `json:"Expressions"`
}

// CompatExpression is one function in the compat form. Each line is
// "0xADDR    TEXT" with ADDR the byte address within the block.
type CompatExpression struct {
	Index      int      `json:"Expression Index"`
	InputType  string   `json:"Input Type"`
	OutputType string   `json:"Output Type"`
	Setup      []string `json:"Setup,omitempty"`
	Main       []string `json:"Main"`
}

// Compat disassembles the module into the reference tool's JSON form. It
// fails where that tool's disassembler fails (e.g. an immediate vector).
func (m *Module) Compat() (*Compat, error) {
	if err := m.checkExpanded(); err != nil {
		return nil, err
	}
	c, err := m.newDecodeCtx()
	if err != nil {
		return nil, err
	}
	out := &Compat{Version: m.Version, Expressions: make([]CompatExpression, len(m.Functions))}
	size, limit := 0, m.textLimit()
	for i := range m.Functions {
		f := &m.Functions[i]
		e := CompatExpression{Index: i, InputType: f.Input.String(), OutputType: f.Output.String(), Main: []string{}}
		for k, b := range [2]Block{f.Setup, f.Main} {
			ins, err := m.block(b)
			if err != nil {
				return nil, fmt.Errorf("exb: function %d: %s %v", i, blockName(k), err)
			}
			for j := range ins {
				t, err := c.compatText(&ins[j])
				if err != nil {
					return nil, fmt.Errorf("exb: function %d: %s instruction %d: %v", i, blockName(k), j, err)
				}
				line := fmt.Sprintf("0x%04x    %s", j*8, t)
				if size += len(line); size > limit {
					return nil, fmt.Errorf("exb: compat text exceeds %d bytes, %d times the module's size", limit, textLimitRatio)
				}
				if k == 0 {
					e.Setup = append(e.Setup, line)
				} else {
					e.Main = append(e.Main, line)
				}
			}
		}
		out.Expressions[i] = e
	}
	return out, nil
}

// FunctionText disassembles function i into the editable text that
// SetFunctionText accepts: ".input"/".output" directives, then the setup
// block (if any) and the main block, one instruction a line with its byte
// address. Literals are shown as values: where each is stored is decided
// again when the text is assembled, by its value unless the text says
// param(value) (README.md), which this writes where the value would mislead.
func (m *Module) FunctionText(i int) (string, error) {
	if i < 0 || i >= len(m.Functions) {
		return "", fmt.Errorf("exb: function %d out of range (%d functions)", i, len(m.Functions))
	}
	c, err := m.newDecodeCtx()
	if err != nil {
		return "", err
	}
	b, err := m.appendFunctionText(nil, c, i, m.textLimit())
	return string(b), err
}

// FunctionTexts returns what FunctionText returns for every function, in order, or the
// first error. It resolves the module's tables once for all functions and writes all texts
// into one buffer, so a module costs a few allocations instead of several per instruction.
func (m *Module) FunctionTexts() ([]string, error) {
	c, err := m.newDecodeCtx()
	if err != nil {
		return nil, err
	}
	ends := make([]int, len(m.Functions))
	// About 43 bytes a line and 30 a function header; strings are mostly used once. A
	// buffer that is right the first time is not copied as it grows.
	size := 48*int(min(m.expandedSize(), maxExpanded)) + 32*len(m.Functions)
	for _, s := range m.Strings.Strings {
		size += len(s)
	}
	limit := m.textLimit()
	b := make([]byte, 0, min(size, limit))
	for i := range m.Functions {
		if b, err = m.appendFunctionText(b, c, i, limit); err != nil {
			return nil, err
		}
		ends[i] = len(b)
	}
	// Each text is a substring of the buffer, which is not written again: no copy.
	all := unsafe.String(unsafe.SliceData(b), len(b))
	out := make([]string, len(m.Functions))
	start := 0
	for i, end := range ends {
		out[i] = all[start:end]
		start = end
	}
	return out, nil
}

// appendFunctionText appends the text of function i to b, failing when b would grow past
// limit bytes: callers appending several functions bound all of them together.
func (m *Module) appendFunctionText(b []byte, c *decodeCtx, i, limit int) ([]byte, error) {
	f := &m.Functions[i]
	b = append(b, ".input "...)
	b = append(b, f.Input.String()...)
	b = append(b, "\n.output "...)
	b = append(b, f.Output.String()...)
	b = append(b, '\n')
	for k, blk := range [2]Block{f.Setup, f.Main} {
		ins, err := m.block(blk)
		if err != nil {
			return b, fmt.Errorf("exb: function %d: %s %v", i, blockName(k), err)
		}
		if k == 0 {
			if len(ins) == 0 {
				continue
			}
			b = append(b, ".setup\n"...)
		} else {
			b = append(b, ".main\n"...)
		}
		for j := range ins {
			if len(b) > limit {
				break
			}
			s := c.decode(&ins[j])
			b = appendAddr(b, j*8)
			b = append(b, "  "...)
			b = s.appendText(b, m.Version)
			b = append(b, '\n')
		}
	}
	if len(b) > limit {
		return b, fmt.Errorf("exb: function %d: the text form exceeds %d bytes, %d times the module's size", i, limit, textLimitRatio)
	}
	return b, nil
}

// paramText renders a param entry for a .param line. Entries whose typed
// form would not read back to the same bytes are shown as bytes.
func paramText(p Param, pool *poolIndex) string {
	switch p.Kind {
	case ParamInt:
		return "int " + strconv.Itoa(int(int32(p.Bits[0])))
	case ParamUInt:
		return "uint " + strconv.FormatUint(uint64(p.Bits[0]), 10)
	case ParamBool:
		if p.Bits[0] <= 1 {
			return "bool " + pyBool(p.Bits[0] == 1)
		}
	case ParamFloat:
		return "float " + floatText(p.Bits[0])
	case ParamVec3f:
		return "vec3f " + vecText(p.Bits, floatText)
	case ParamString:
		if pool == nil {
			return fmt.Sprintf("str @%#x", p.Bits[0])
		}
		if s, ok := pool.at(p.Bits[0]); ok {
			if o, ok := pool.offsetOf(s); ok && o == p.Bits[0] {
				return "str " + quote(s)
			}
		}
	case ParamBytes:
		return "bytes " + hex.EncodeToString(p.Data)
	}
	b, _ := (&ParamTable{Entries: []Param{p}}).image(0)
	return "bytes " + hex.EncodeToString(b)
}

func blockText(b Block, version uint32, setup bool) string {
	switch {
	case setup && b.Base == -1 && b.Count == 0:
		return "none"
	case version == 1:
		return strconv.Itoa(int(b.Base))
	}
	return strconv.Itoa(int(b.Base)) + "," + strconv.FormatUint(uint64(b.Count), 10)
}

// Listing renders the whole module in the project's own text form, which
// ParseListing reads back to a module that writes the same bytes. Each
// instruction is written in the instruction syntax when that syntax,
// assembled against the listed tables, gives back the very same eight
// bytes, and as ".raw" otherwise.
func (m *Module) Listing() (string, error) {
	c, err := m.newDecodeCtx()
	if err != nil {
		return "", err
	}
	lk := newLookup(c, &m.Params)
	limit := m.textLimit()
	var sb strings.Builder
	sb.WriteString("; EXB expression binary listing\n")
	fmt.Fprintf(&sb, ".version %d\n", m.Version)
	h := &m.Header
	fmt.Fprintf(&sb, ".header static=%#x instances=%d scratch32=%#x scratch64=%#x\n", h.StaticSize, h.InstanceCount, h.Scratch32Size, h.Scratch64Size)
	if m.Layout.Order != nil {
		sb.WriteString(".order")
		for _, s := range m.Layout.Order {
			sb.WriteString(" " + s.String())
		}
		sb.WriteByte('\n')
	}
	if len(m.Layout.HeaderGap) > 0 {
		fmt.Fprintf(&sb, ".gap header %x\n", m.Layout.HeaderGap)
	}
	for s := range numSections {
		if len(m.Layout.Gap[s]) > 0 {
			fmt.Fprintf(&sb, ".gap %s %x\n", s, m.Layout.Gap[s])
		}
	}

	if len(m.Functions) > 0 {
		sb.WriteByte('\n')
	}
	for i := range m.Functions {
		f := &m.Functions[i]
		fmt.Fprintf(&sb, ".function %d input=%s output=%s static=%#x scratch32=%#x scratch64=%#x main=%s setup=%s\n",
			i, f.Input, f.Output, f.StaticSize, f.Scratch32Size, f.Scratch64Size,
			blockText(f.Main, m.Version, false), blockText(f.Setup, m.Version, true))
	}

	if len(m.Signatures) > 0 {
		sb.WriteByte('\n')
	}
	for i, o := range m.Signatures {
		if d, ok := c.pool.offsetOf(c.sigs[i]); ok && d == o {
			fmt.Fprintf(&sb, ".signature %s\n", quote(c.sigs[i]))
		} else {
			fmt.Fprintf(&sb, ".signature @%#x ; %s\n", o, quote(c.sigs[i]))
		}
	}

	if len(m.Params.Entries) > 0 {
		sb.WriteByte('\n')
	}
	offs, _ := m.Params.Offsets()
	for i, p := range m.Params.Entries {
		fmt.Fprintf(&sb, ".param %s ; %#x\n", paramText(p, c.pool), offs[i])
	}

	if len(m.Strings.Strings) > 0 {
		sb.WriteByte('\n')
	}
	for i, s := range m.Strings.Strings {
		sb.WriteString(".string ")
		sb.WriteString(quote(s))
		if m.Strings.Unterminated && i == len(m.Strings.Strings)-1 {
			sb.WriteString(" noterm")
		}
		fmt.Fprintf(&sb, " ; %#x\n", c.pool.starts[i])
	}

	sb.WriteString("\n.code\n")
	labels := make(map[int][]string)
	for i := range m.Functions {
		f := &m.Functions[i]
		if f.Main.Base >= 0 {
			labels[int(f.Main.Base)] = append(labels[int(f.Main.Base)], fmt.Sprintf("; function %d main", i))
		}
		if f.Setup.Base >= 0 && f.Setup.Count > 0 {
			labels[int(f.Setup.Base)] = append(labels[int(f.Setup.Base)], fmt.Sprintf("; function %d setup", i))
		}
	}
	blockStart := 0
	for j := range m.Instructions {
		if ls, ok := labels[j]; ok {
			blockStart = j
			for _, l := range ls {
				sb.WriteString(l + "\n")
			}
		}
		line, err := listingLine(c, lk, &m.Instructions[j], m.Version)
		if err != nil {
			return "", fmt.Errorf("exb: instruction %d: %v", j, err)
		}
		fmt.Fprintf(&sb, "0x%04x  %s\n", (j-blockStart)*8, line)
		if sb.Len() > limit {
			return "", fmt.Errorf("exb: listing exceeds %d bytes, %d times the module's size", limit, textLimitRatio)
		}
	}
	for _, l := range labels[len(m.Instructions)] {
		sb.WriteString(l + "\n")
	}
	return sb.String(), nil
}

// listingLine renders one instruction, checking that the rendering
// assembles back to the same instruction against the listing's tables.
func listingLine(c *decodeCtx, lk *lookup, in *Instruction, version uint32) (string, error) {
	s := c.decode(in)
	if !s.raw {
		text := s.text(version)
		if back, err := parseInstruction(text, 0, version); err == nil {
			if got, err := encode(&back, version, lk); err == nil && got == *in {
				return text, nil
			}
		}
	}
	b, ok := in.Bytes(version)
	if !ok {
		return "", fmt.Errorf("cannot be encoded in version %d", version)
	}
	return ".raw " + hex.EncodeToString(b[:]) + " ; " + in.Op.String(), nil
}
