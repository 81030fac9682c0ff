package exb

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// This file replaces one function of a module without touching any other:
// literals are looked up in the tables as they are and new ones appended at
// their ends, and the function's instructions are written over its own
// blocks when they fit, else appended to the instruction table. No other
// function's table entry, instructions or table references change.

// SetFunctionSource replaces function i with text in either form: the
// readable language (FunctionSource) or the instruction listing
// (FunctionText), told apart by the listing's .main line. Without .input /
// .output lines the function keeps its types; without .memory its memory
// fields are computed from its instructions. Errors in the text are
// *SyntaxError with the line and column; on any error the module is
// unchanged.
func (m *Module) SetFunctionSource(i int, text string) error {
	if i < 0 || i >= len(m.Functions) {
		return fmt.Errorf("exb: function %d out of range (%d functions)", i, len(m.Functions))
	}
	src, err := m.compileAny(text, m.Functions[i].Input, m.Functions[i].Output)
	if err != nil {
		return err
	}
	return m.replaceFunction(i, src)
}

// IsListingText reports whether a function text is in the listing form
// (FunctionText) rather than the readable one (FunctionSource): only the
// listing has a .main line.
func IsListingText(text string) bool {
	// Line by line without a slice of them: a text of a million empty lines made 88 MB of
	// line headers only to be told it is not a listing.
	for l := range strings.Lines(text) {
		l = strings.TrimSpace(l)
		if l == ".main" || strings.HasPrefix(l, ".main ") || strings.HasPrefix(l, ".main;") || strings.HasPrefix(l, ".main\t") {
			return true
		}
	}
	return false
}

// MaxTextSize bounds one function's readable text (a listing costs a few tens of times its
// size and is left to the caller's bounds). Compiling costs up to about 360 times the text
// in allocation (a line of millions of tokens is lexed and parsed whole before the block's
// count refuses it), so a 60 MB text exhausted memory; the games' longest function text is
// 1,308 bytes, and a text must stay able to hold a string past the first 64 KiB of the pool
// (an instruction then refers to it through a param entry).
const MaxTextSize = 1 << 20

// checkTextSize refuses a text past MaxTextSize.
func checkTextSize(text string) error {
	if len(text) > MaxTextSize {
		return &SyntaxError{Line: 1, Msg: fmt.Sprintf("the text is %d bytes, more than the %d a function may hold", len(text), MaxTextSize)}
	}
	return nil
}

func (m *Module) compileAny(text string, in, out DataType) (*source, error) {
	if m.Version < 1 || m.Version > 3 {
		return nil, fmt.Errorf("exb: unsupported version %d", m.Version)
	}
	if !IsListingText(text) {
		if err := checkTextSize(text); err != nil {
			return nil, err
		}
		return compileSource(text, m.Version, in, out)
	}
	return m.compileListing(text, in, out)
}

// compileListing reads function text in the listing form (FunctionText).
func (m *Module) compileListing(text string, in, out DataType) (*source, error) {
	if m.Version < 1 || m.Version > 3 {
		return nil, fmt.Errorf("exb: unsupported version %d", m.Version)
	}
	fn, err := parseFunction(text, m.Version, in, out, false)
	if err != nil {
		return nil, err
	}
	src := &source{input: fn.input, output: fn.output, setup: fn.setup, main: fn.main, hasSetup: len(fn.setup) > 0}
	src.setupPos = linePositions(fn.setupLines)
	src.mainPos = linePositions(fn.mainLines)
	return src, nil
}

func linePositions(lines []int) []srcPos {
	ps := make([]srcPos, len(lines))
	for i, l := range lines {
		ps[i] = srcPos{line: l}
	}
	return ps
}

// appender places literals for a one-function edit: where the tables hold
// a value already its first occurrence is used (as the listing does), and
// new values go at the tables' ends.
type appender struct {
	lk       *lookup
	nsigs    int
	newStrs  []string
	poolSize uint64
	poolNew  map[string]uint32
	unterm   bool
	params   []Param
	parSize  int
	parNew   map[paramKey]uint16
	sigs     []uint32
	sigNew   map[string]uint32
}

func newAppender(m *Module, c *decodeCtx) *appender {
	_, size := m.Params.Offsets()
	return &appender{
		lk: newLookup(c, &m.Params), poolSize: uint64(m.Strings.Size()), unterm: m.Strings.Unterminated,
		parSize: size, nsigs: len(m.Signatures),
		poolNew: map[string]uint32{}, parNew: map[paramKey]uint16{}, sigNew: map[string]uint32{},
	}
}

func (a *appender) poolString(s string) (uint32, error) {
	if o, err := a.lk.poolString(s); err == nil {
		return o, nil
	}
	if o, ok := a.poolNew[s]; ok {
		return o, nil
	}
	// A string may also be referred to as the tail of a longer one.
	for k, o := range a.lk.pool.starts {
		if t := a.lk.pool.pool.Strings[k]; len(t) > len(s) && strings.HasSuffix(t, s) && (k < len(a.lk.pool.starts)-1 || !a.unterm) {
			return o + uint32(len(t)-len(s)), nil
		}
	}
	switch {
	case a.unterm:
		return 0, fmt.Errorf("string %s is new, and the string pool's last string has no terminator to add after", quote(s))
	case strings.IndexByte(s, 0) >= 0:
		return 0, fmt.Errorf("string %q contains a NUL byte", s)
	case a.poolSize+uint64(len(s))+1 > math.MaxUint32:
		return 0, fmt.Errorf("string pool exceeds 4 GiB")
	}
	o := uint32(a.poolSize)
	a.poolNew[s] = o
	a.newStrs = append(a.newStrs, s)
	a.poolSize += uint64(len(s)) + 1
	return o, nil
}

func (a *appender) param(kind ParamKind, bits [3]uint32) (uint16, error) {
	if o, err := a.lk.param(kind, bits); err == nil {
		return o, nil
	}
	k := keyOf(kind, bits)
	if o, ok := a.parNew[k]; ok {
		return o, nil
	}
	if a.parSize > math.MaxUint16 {
		return 0, fmt.Errorf("param table exceeds the 64 KiB an operand can address")
	}
	o := uint16(a.parSize)
	a.parNew[k] = o
	p := Param{Kind: kind, Bits: bits}
	a.params = append(a.params, p)
	a.parSize += p.Size()
	return o, nil
}

func (a *appender) signature(s string) (uint32, error) {
	if i, err := a.lk.signature(s); err == nil {
		return i, nil
	}
	if i, ok := a.sigNew[s]; ok {
		return i, nil
	}
	o, err := a.poolString(s)
	if err != nil {
		return 0, err
	}
	i := uint32(a.nsigs + len(a.sigs))
	a.sigNew[s] = i
	a.sigs = append(a.sigs, o)
	return i, nil
}

// encodeBlock encodes a block's statements, reporting errors at their
// source positions.
func encodeBlock(ss []stmt, pos []srcPos, version uint32, p placer) ([]Instruction, error) {
	out := make([]Instruction, len(ss))
	for j := range ss {
		in, err := encode(&ss[j], version, p)
		if err != nil {
			if j < len(pos) {
				return nil, &SyntaxError{Line: pos[j].line, Col: pos[j].col, Msg: err.Error()}
			}
			return nil, err
		}
		out[j] = in
	}
	return out, nil
}

// replaceFunction installs src as function i (i == len(m.Functions) adds a
// function). On error m is unchanged.
func (m *Module) replaceFunction(i int, src *source) error {
	for _, t := range [2]DataType{src.input, src.output} {
		if _, ok := encodeType(t, m.Version); !ok {
			return fmt.Errorf("exb: type %s is not allowed in version %d", t, m.Version)
		}
	}
	for k, ss := range [2][]stmt{src.setup, src.main} {
		if k == 0 && !src.hasSetup {
			continue
		}
		if msg := checkBlock(ss, m.Version); msg != "" && !m.sameBlock(i, k, ss) {
			// A block as it is stays writable however it ends (a version 1 block may
			// run to the table's end); a changed one must end as readers expect.
			pos := src.mainPos
			if k == 0 {
				pos = src.setupPos
			}
			if n := len(ss) - 1; n >= 0 && n < len(pos) {
				return &SyntaxError{Line: pos[n].line, Msg: msg}
			}
			return fmt.Errorf("exb: %s block: %s", blockName(k), msg)
		}
	}
	c, err := m.newDecodeCtx()
	if err != nil {
		return err
	}
	ap := newAppender(m, c)
	// Main first, then setup: the order in which canonical layout numbers
	// blocks, so that new table entries come in the same order.
	mainIns, err := encodeBlock(src.main, src.mainPos, m.Version, ap)
	if err != nil {
		return err
	}
	setupIns, err := encodeBlock(src.setup, src.setupPos, m.Version, ap)
	if err != nil {
		return err
	}

	old := *m
	fns := slices.Clone(m.Functions)
	if i == len(fns) {
		fns = append(fns, Function{Setup: Block{Base: -1}, Main: Block{Base: -1}})
	}
	ins := slices.Clone(m.Instructions)
	f := &fns[i]
	f.Input, f.Output = src.input, src.output
	f.Main = placeBlock(fns, i, f.Main, mainIns, &ins)
	if src.hasSetup {
		f.Setup = placeBlock(fns, i, f.Setup, setupIns, &ins)
	} else if f.Setup.Present() {
		f.Setup = Block{Base: -1}
	} // an absent setup block keeps whatever count it was stored with
	if len(ins) > math.MaxInt32 {
		return fmt.Errorf("exb: too many instructions")
	}
	aggregate := old.aggregateMatches()
	m.Functions, m.Instructions = fns, ins
	m.Strings.Strings = append(slices.Clip(old.Strings.Strings), ap.newStrs...)
	m.Params.Entries = append(slices.Clip(old.Params.Entries), ap.params...)
	m.Signatures = append(slices.Clip(old.Signatures), ap.sigs...)
	if src.mem != nil {
		f.StaticSize, f.Scratch32Size, f.Scratch64Size = src.mem[0], uint16(src.mem[1]), uint16(src.mem[2])
	} else {
		u, err := m.Usage(i)
		if err == nil && (u.Scratch32 > math.MaxUint16 || u.Scratch64 > math.MaxUint16) {
			err = fmt.Errorf("exb: scratch memory %#x/%#x exceeds the 16-bit field", u.Scratch32, u.Scratch64)
		}
		if err != nil {
			*m = old
			return err
		}
		f.StaticSize, f.Scratch32Size, f.Scratch64Size = u.Static, uint16(u.Scratch32), uint16(u.Scratch64)
	}
	if aggregate {
		m.Header.StaticSize, m.Header.Scratch32Size, m.Header.Scratch64Size = m.aggregate()
	}
	if _, err := m.AppendBinary(nil); err != nil {
		*m = old
		var fe *FormatError
		if errors.As(err, &fe) {
			return fmt.Errorf("exb: function %d does not fit the module: %w", i, err)
		}
		return err
	}
	return nil
}

// sameBlock reports whether block k (0 setup, 1 main) of function i already holds
// exactly what ss encodes to.
func (m *Module) sameBlock(i, k int, ss []stmt) bool {
	if i >= len(m.Functions) {
		return false
	}
	b := m.Functions[i].Main
	if k == 0 {
		b = m.Functions[i].Setup
	}
	ins, err := m.block(b)
	if err != nil {
		return false
	}
	c, err := m.newDecodeCtx()
	if err != nil {
		return false
	}
	return encodesTo(ss, ins, m.Version, newLookup(c, &m.Params))
}

// aggregate is the header's memory sizes as the reference writer derives
// them from the functions: the largest static size, the scratch sums.
func (m *Module) aggregate() (static, s32, s64 uint32) {
	var a, b uint64
	for i := range m.Functions {
		f := &m.Functions[i]
		static = max(static, f.StaticSize)
		a += uint64(f.Scratch32Size)
		b += uint64(f.Scratch64Size)
	}
	return static, uint32(min(a, math.MaxUint32)), uint32(min(b, math.MaxUint32))
}

// aggregateMatches reports whether the header holds what aggregate gives,
// in which case an edit keeps it so; a header that says something else is
// left as it is.
func (m *Module) aggregateMatches() bool {
	s, a, b := m.aggregate()
	h := &m.Header
	return h.StaticSize == s && h.Scratch32Size == a && h.Scratch64Size == b
}

// placeBlock writes a block's new instructions and returns where they are:
// over the old range when that range is the function's own and the new
// code fits, at the table's end otherwise (growing or shrinking the table
// when the old range was already last). Instructions of the old range that
// are no longer used stay as they are (Canonicalize drops them).
func placeBlock(fns []Function, i int, old Block, code []Instruction, ins *[]Instruction) Block {
	n := len(*ins)
	if old.Present() && uint64(old.Base)+uint64(old.Count) <= uint64(n) && slices.Equal((*ins)[old.Base:int(old.Base)+int(old.Count)], code) {
		return old // unchanged, even where other blocks share it
	}
	own := old.Present() && int(old.Base) <= n && uint64(old.Base)+uint64(old.Count) <= uint64(n) && !sharedRange(fns, i, old)
	switch {
	case own && int(old.Count) == len(code):
		copy((*ins)[old.Base:], code)
		return Block{Base: old.Base, Count: uint32(len(code))}
	case own && int(old.Base)+int(old.Count) == n:
		*ins = append((*ins)[:old.Base], code...)
		return Block{Base: old.Base, Count: uint32(len(code))}
	case own && len(code) < int(old.Count):
		copy((*ins)[old.Base:], code)
		return Block{Base: old.Base, Count: uint32(len(code))}
	}
	base := len(*ins)
	*ins = append(*ins, code...)
	return Block{Base: int32(base), Count: uint32(len(code))}
}

// sharedRange reports whether any other block (of another function, or the
// other block of function i) overlaps b.
func sharedRange(fns []Function, i int, b Block) bool {
	lo, hi := int64(b.Base), int64(b.Base)+int64(b.Count)
	for j := range fns {
		for _, o := range [2]Block{fns[j].Setup, fns[j].Main} {
			if !o.Present() || o == b && j == i {
				continue
			}
			olo, ohi := int64(o.Base), int64(o.Base)+int64(o.Count)
			if olo < hi && lo < ohi || o.Count == 0 && olo >= lo && olo < hi || b.Count == 0 && lo >= olo && lo < ohi {
				return true
			}
		}
	}
	return false
}

// AssembleSources makes a canonically laid-out module of the given version from function
// texts, each in either form (readable code or the listing; see SetFunctionSource), exactly
// as AssembleFunctions does for listings: a readable text and the listing of the same
// function give the same module. A .memory line overrides the computed memory fields of its
// function. InstanceCount is left 0 for the caller to set. Errors are *FunctionError; a
// text's errors carry its line and column (*SyntaxError).
func AssembleSources(version uint32, texts []string) (*Module, error) {
	return AssembleSourcesUTF8(version, texts, false)
}

// AssembleSourcesUTF8 is AssembleSources for texts the caller knows to be valid UTF-8 when
// utf8OK is true (a JSON decoder checked them), which are then not checked again.
func AssembleSourcesUTF8(version uint32, texts []string, utf8OK bool) (*Module, error) {
	if version < 1 || version > 3 {
		return nil, fmt.Errorf("exb: unsupported version %d (want 1, 2 or 3)", version)
	}
	m := &Module{Version: version}
	fns := make([]function, len(texts))
	mems := make([]*[3]uint32, len(texts))
	// One set of compile buffers for all texts, each function's main block copied out at
	// its size: growing a fresh block statement by statement for each text allocated about
	// three times what the module keeps.
	sc := &compileScratch{toks: make([]token, 0, 32)}
	for i, t := range texts {
		var src *source
		var err error
		if IsListingText(t) {
			var fn function
			if fn, err = parseFunction(t, version, TypeNone, TypeNone, false); err == nil {
				fns[i] = fn
				continue
			}
		} else if err = checkTextSize(t); err != nil {
		} else if src, err = compileWith(t, version, TypeNone, TypeNone, sc, utf8OK || utf8.ValidString(t)); err == nil {
			fns[i] = function{input: src.input, output: src.output, setup: src.setup, main: slices.Clone(src.main),
				setupLines: posLines(src.setupPos), mainLines: posLines(src.mainPos)}
			if src.hasSetup && len(src.setup) == 0 {
				return nil, &FunctionError{i, &SyntaxError{Line: 1, Msg: "an empty setup block cannot be laid out canonically; remove it"}}
			}
			mems[i] = src.mem
			continue
		}
		return nil, &FunctionError{i, err}
	}
	if err := m.rebuild(fns); err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			// rebuild reports a line within the function it was laying out; find which.
			for i := range fns {
				if (&Module{Version: version}).rebuild(fns[i:i+1]) != nil {
					return nil, &FunctionError{i, err}
				}
			}
		}
		return nil, err
	}
	for i, mem := range mems {
		if mem != nil {
			f := &m.Functions[i]
			f.StaticSize, f.Scratch32Size, f.Scratch64Size = mem[0], uint16(mem[1]), uint16(mem[2])
		}
	}
	m.Header.StaticSize, m.Header.Scratch32Size, m.Header.Scratch64Size = m.aggregate()
	return m, nil
}

func posLines(ps []srcPos) []int {
	out := make([]int, len(ps))
	for i, p := range ps {
		out[i] = p.line
	}
	return out
}
