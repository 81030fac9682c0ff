package exb

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseListing assembles the text Listing produces. Nothing is laid out
// anew: the tables are taken as listed, each literal refers to its first
// occurrence in them, and ".raw" instructions are taken as bytes. Errors
// carry the line and column.
func ParseListing(text string) (*Module, error) {
	a := &listingAsm{m: &Module{}}
	lines := splitLines(text)
	for i, l := range lines {
		if err := a.line(l, i+1); err != nil {
			return nil, err
		}
	}
	if a.m.Version == 0 {
		return nil, &SyntaxError{Line: 1, Msg: "missing .version"}
	}
	return a.finish()
}

type listingAsm struct {
	m         *Module
	inCode    bool
	noterm    int // line of a "noterm" string, which must be the last
	sigs      []listed[string]
	sigRaw    []bool
	paramStrs []listed[int] // ParamString entries still to resolve, by entry index
	code      []listed[stmt]
	funcs     []int // line of each .function
	seen      map[string]int
}

type listed[T any] struct {
	line int
	v    T
	text string
}

func (a *listingAsm) line(l string, n int) error {
	p := &lineParser{s: l, end: commentStart(l), line: n, version: a.m.Version}
	p.skipSpace()
	if p.atEnd() {
		return nil
	}
	if a.inCode {
		s, err := p.instruction()
		if err != nil {
			return err
		}
		a.code = append(a.code, listed[stmt]{line: n, v: s})
		return nil
	}
	if p.peek() != '.' {
		return p.errAt(p.pos, "expected a directive before .code")
	}
	var buf [8]field
	fs := fields(l[:p.end], buf[:0])
	d := fs[0]
	if a.m.Version == 0 && d.text != ".version" {
		return p.errAt(d.pos, ".version must come first")
	}
	if a.seen == nil {
		a.seen = map[string]int{}
	}
	switch d.text {
	case ".version", ".header", ".order", ".code":
		if prev, ok := a.seen[d.text]; ok {
			return p.errAt(d.pos, "second %s (first at line %d)", d.text, prev)
		}
		a.seen[d.text] = n
	}
	switch d.text {
	case ".version":
		if len(fs) != 2 {
			return p.errAt(d.pos, ".version needs one number")
		}
		v, ok := parseUint(fs[1].text, 3)
		if !ok || v == 0 {
			return p.errAt(fs[1].pos, "unsupported version %q (want 1, 2 or 3)", fs[1].text)
		}
		a.m.Version = uint32(v)
	case ".header":
		h := &a.m.Header
		return keyValues(p, fs[1:], map[string]func(string) bool{
			"static":    u32Into(&h.StaticSize),
			"instances": u32Into(&h.InstanceCount),
			"scratch32": u32Into(&h.Scratch32Size),
			"scratch64": u32Into(&h.Scratch64Size),
		})
	case ".order":
		if len(fs) != 1+int(numSections) {
			return p.errAt(d.pos, ".order needs the five sub-section names")
		}
		for _, f := range fs[1:] {
			s, ok := sectionByName(f.text)
			if !ok {
				return p.errAt(f.pos, "unknown sub-section %q", f.text)
			}
			a.m.Layout.Order = append(a.m.Layout.Order, s)
		}
		if _, err := a.m.layout(); err != nil {
			return p.errAt(d.pos, "%v", err)
		}
	case ".gap":
		if len(fs) != 3 {
			return p.errAt(d.pos, ".gap needs a sub-section name and hex bytes")
		}
		b, err := hex.DecodeString(fs[2].text)
		if err != nil || len(b) == 0 {
			return p.errAt(fs[2].pos, "bad hex bytes")
		}
		switch s, ok := sectionByName(fs[1].text); {
		case fs[1].text == "header":
			a.m.Layout.HeaderGap = b
		case ok && !variableSize(s):
			a.m.Layout.Gap[s] = b
		default:
			return p.errAt(fs[1].pos, "no gap can follow %q (want header, functions, instructions or signatures)", fs[1].text)
		}
	case ".function":
		return a.function(p, fs)
	case ".signature":
		p.pos = d.pos + len(d.text)
		p.skipSpace()
		if p.peek() == '@' {
			start := p.pos
			p.pos++
			v, err := p.number(math.MaxUint32, "string offset")
			if err != nil {
				return err
			}
			a.m.Signatures = append(a.m.Signatures, uint32(v))
			a.sigs = append(a.sigs, listed[string]{line: n, text: l[start:p.pos]})
			a.sigRaw = append(a.sigRaw, true)
			return p.finish()
		}
		s, err := p.stringLit(true)
		if err != nil {
			return err
		}
		a.m.Signatures = append(a.m.Signatures, 0)
		a.sigs = append(a.sigs, listed[string]{line: n, v: s})
		a.sigRaw = append(a.sigRaw, false)
		return p.finish()
	case ".param":
		return a.param(p, fs)
	case ".string":
		if a.noterm != 0 {
			return p.errAt(d.pos, "a string follows the unterminated one at line %d", a.noterm)
		}
		p.pos = d.pos + len(d.text)
		p.skipSpace()
		s, err := p.stringLit(true)
		if err != nil {
			return err
		}
		a.m.Strings.Strings = append(a.m.Strings.Strings, s)
		p.skipSpace()
		if strings.HasPrefix(p.s[p.pos:p.end], "noterm") {
			if s == "" {
				return p.errAt(p.pos, "an unterminated string must not be empty")
			}
			p.pos += len("noterm")
			a.noterm = n
			a.m.Strings.Unterminated = true
		}
		return p.finish()
	case ".code":
		if len(fs) != 1 {
			return p.errAt(fs[1].pos, "unexpected %q after .code", fs[1].text)
		}
		a.inCode = true
	default:
		return p.errAt(d.pos, "unknown directive %q", d.text)
	}
	return nil
}

func sectionByName(s string) (Section, bool) {
	for i, n := range sectionNames {
		if n == s {
			return Section(i), true
		}
	}
	return 0, false
}

func u32Into(dst *uint32) func(string) bool {
	return func(s string) bool {
		v, ok := parseUint(s, math.MaxUint32)
		*dst = uint32(v)
		return ok
	}
}

func u16Into(dst *uint16) func(string) bool {
	return func(s string) bool {
		v, ok := parseUint(s, math.MaxUint16)
		*dst = uint16(v)
		return ok
	}
}

// keyValues applies "key=value" fields; every key in set is required.
func keyValues(p *lineParser, fs []field, set map[string]func(string) bool) error {
	done := map[string]bool{}
	for _, f := range fs {
		k, v, ok := strings.Cut(f.text, "=")
		apply, known := set[k]
		switch {
		case !ok:
			return p.errAt(f.pos, "expected key=value, found %q", f.text)
		case !known:
			return p.errAt(f.pos, "unknown key %q", k)
		case done[k]:
			return p.errAt(f.pos, "%s given twice", k)
		case !apply(v):
			return p.errAt(f.pos+len(k)+1, "bad value %q for %s", v, k)
		}
		done[k] = true
	}
	for k := range set {
		if !done[k] {
			return p.errAt(p.end, "missing %s=", k)
		}
	}
	return nil
}

// blockInto parses "base,count" ("base" in version 1) or, for a setup
// block, "none".
func blockInto(b *Block, version uint32, setup bool) func(string) bool {
	return func(s string) bool {
		if setup && s == "none" {
			*b = Block{Base: -1}
			return true
		}
		base, count, hasCount := strings.Cut(s, ",")
		if hasCount == (version == 1) {
			return false
		}
		v, err := strconv.ParseInt(base, 10, 32)
		if err != nil || v < -1 || v == -1 && !setup {
			return false
		}
		b.Base = int32(v)
		if hasCount {
			c, ok := parseUint(count, math.MaxUint32)
			b.Count = uint32(c)
			return ok
		}
		return v >= 0
	}
}

func typeInto(t *DataType, version uint32) func(string) bool {
	return func(s string) bool {
		v, ok := ParseDataType(s)
		if _, enc := encodeType(v, version); !enc {
			return false
		}
		*t = v
		return ok
	}
}

func (a *listingAsm) function(p *lineParser, fs []field) error {
	if len(fs) < 2 {
		return p.errAt(fs[0].pos, ".function needs its index")
	}
	if idx, ok := parseUint(fs[1].text, math.MaxInt32); !ok || int(idx) != len(a.m.Functions) {
		return p.errAt(fs[1].pos, "function index %q out of sequence (want %d)", fs[1].text, len(a.m.Functions))
	}
	var f Function
	v := a.m.Version
	if err := keyValues(p, fs[2:], map[string]func(string) bool{
		"input":     typeInto(&f.Input, v),
		"output":    typeInto(&f.Output, v),
		"static":    u32Into(&f.StaticSize),
		"scratch32": u16Into(&f.Scratch32Size),
		"scratch64": u16Into(&f.Scratch64Size),
		"main":      blockInto(&f.Main, v, false),
		"setup":     blockInto(&f.Setup, v, true),
	}); err != nil {
		return err
	}
	a.m.Functions = append(a.m.Functions, f)
	a.funcs = append(a.funcs, p.line)
	return nil
}

func (a *listingAsm) param(p *lineParser, fs []field) error {
	if len(fs) < 3 {
		return p.errAt(fs[0].pos, ".param needs a kind and a value")
	}
	kind := fs[1]
	p.pos = kind.pos + len(kind.text)
	p.skipSpace()
	var e Param
	switch kind.text {
	case "bytes":
		if len(fs) != 3 {
			return p.errAt(fs[3].pos, "unexpected %q", fs[3].text)
		}
		b, err := hex.DecodeString(fs[2].text)
		if err != nil || len(b) == 0 {
			return p.errAt(fs[2].pos, "bad hex bytes")
		}
		e = Param{Kind: ParamBytes, Data: b}
		p.pos = p.end
	case "str":
		s, err := p.stringLit(true)
		if err != nil {
			return err
		}
		e.Kind = ParamString
		a.paramStrs = append(a.paramStrs, listed[int]{line: p.line, v: len(a.m.Params.Entries), text: s})
	default:
		t, ok := typeByPrefix(kind.text)
		var pk ParamKind
		switch t {
		case TypeInt:
			pk = ParamInt
		case TypeUInt:
			pk = ParamUInt
		case TypeBool:
			pk = ParamBool
		case TypeFloat:
			pk = ParamFloat
		case TypeVec3f:
			pk = ParamVec3f
		default:
			ok = false
		}
		if !ok {
			return p.errAt(kind.pos, "unknown param kind %q (want int, uint, bool, float, vec3f, str or bytes)", kind.text)
		}
		lit, err := p.literal(t, true)
		if err != nil {
			return err
		}
		e.Kind, e.Bits = pk, lit.bits
		switch lit.kind {
		case litNum:
			e.Bits[0] = uint32(lit.num)
		case litBool:
			if lit.b {
				e.Bits[0] = 1
			}
		case litStr:
			return p.errAt(kind.pos, "a %s entry cannot hold a string", kind.text)
		}
	}
	a.m.Params.Entries = append(a.m.Params.Entries, e)
	return p.finish()
}

func (a *listingAsm) finish() (*Module, error) {
	m := a.m
	pool := newPoolIndex(&m.Strings)
	for i, s := range a.sigs {
		if a.sigRaw[i] {
			if _, ok := pool.at(m.Signatures[i]); !ok {
				return nil, &SyntaxError{Line: s.line, Msg: fmt.Sprintf("signature offset %s is not a string in the pool", s.text)}
			}
			continue
		}
		o, ok := pool.offsetOf(s.v)
		if !ok {
			return nil, &SyntaxError{Line: s.line, Msg: fmt.Sprintf("signature %s is not in the string pool (add a .string line)", quote(s.v))}
		}
		m.Signatures[i] = o
	}
	for _, ps := range a.paramStrs {
		o, ok := pool.offsetOf(ps.text)
		if !ok {
			return nil, &SyntaxError{Line: ps.line, Msg: fmt.Sprintf("string %s is not in the string pool (add a .string line)", quote(ps.text))}
		}
		m.Params.Entries[ps.v].Bits[0] = o
	}
	c, err := m.newDecodeCtx()
	if err != nil {
		return nil, err
	}
	lk := newLookup(c, &m.Params)
	m.Instructions = make([]Instruction, len(a.code))
	for i, cl := range a.code {
		in, err := encode(&cl.v, m.Version, lk)
		if err != nil {
			return nil, &SyntaxError{Line: cl.line, Msg: err.Error()}
		}
		m.Instructions[i] = in
	}
	n := len(m.Instructions)
	for i := range m.Functions {
		f := &m.Functions[i]
		for k, b := range [2]Block{f.Setup, f.Main} {
			if k == 0 && !b.Present() {
				continue
			}
			bad := int(b.Base) > n || m.Version == 1 && int(b.Base) >= n || m.Version > 1 && uint64(b.Base)+uint64(b.Count) > uint64(n)
			if bad {
				return nil, &SyntaxError{Line: a.funcs[i], Msg: fmt.Sprintf("%s block of function %d lies outside the %d instructions", blockName(k), i, n)}
			}
		}
	}
	so, err := m.layout()
	if err != nil {
		return nil, err
	}
	img, err := m.Params.image(so.start[SectionParams])
	if err != nil {
		return nil, err
	}
	if _, err := m.check(img, &so, true); err != nil {
		return nil, err
	}
	if _, err := m.AppendBinary(nil); err != nil {
		return nil, err
	}
	return m, nil
}
