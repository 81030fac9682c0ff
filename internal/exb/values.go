package exb

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"ainbeditor/internal/shelf"
)

// This file is the value level between instructions and text: an
// instruction's operands resolved to literals (decode), and literals placed
// back into the tables (encode). Text is rendered from and parsed to the
// value level; the choice of where a literal lives is made in one place.

type litKind uint8

const (
	litNone  litKind = iota
	litNum           // a number stored as is: Immediate u16, or param s32/u32
	litBool          // True/False
	litFloat         // f32 bits in bits[0]
	litVec           // three f32 bit patterns
	litStr           // a string pool string
)

// arg is one operand at the value level.
type arg struct {
	mem  bool   // a memory operand: src and off are what is stored
	src  Source // memory source
	off  uint16 // memory offset, including UserIn/UserOut component bits
	kind litKind
	num  int64
	bits [3]uint32
	str  string
	b    bool
	// param marks a literal that lives in the param table although inInstruction says
	// its value would be stored in the instruction: the games' own files do this (a
	// float 0.0 or 2.0 in the param table, a float 3 in the instruction, side by side),
	// so where a literal lives is a fact of the file the value alone does not give. The
	// text forms write it param(...); decode sets it only where the value rule would
	// place the literal elsewhere, so the reference writer's files never show it.
	param bool
}

// stmt is one instruction at the value level.
type stmt struct {
	op     Opcode
	typ    DataType
	a      [2]arg
	target uint16 // jumps, in instructions
	sig    string // user function signature text
	argOff uint16 // user function argument offset
	raw    bool   // kept as the bytes in ins (".raw")
	ins    Instruction
}

// decodeCtx resolves references against a module's tables.
type decodeCtx struct {
	version  uint32
	pool     *poolIndex
	params   []byte
	sigs     []string
	sigsUTF8 bool // every signature is valid UTF-8
}

func (m *Module) newDecodeCtx() (*decodeCtx, error) {
	img, err := m.Params.image(0)
	if err != nil {
		return nil, err
	}
	c := &decodeCtx{version: m.Version, pool: newPoolIndex(&m.Strings), params: img, sigs: make([]string, len(m.Signatures))}
	for i, o := range m.Signatures {
		s, ok := c.pool.at(o)
		if !ok {
			return nil, formatErr(secSignatures, 4+4*i, "signature %d: string offset %#x is not a string in the pool", i, o)
		}
		c.sigs[i] = s
	}
	c.sigsUTF8 = true
	for _, s := range c.sigs {
		c.sigsUTF8 = c.sigsUTF8 && utf8.ValidString(s)
	}
	return c, nil
}

func (c *decodeCtx) paramWord(off uint16, n int) (w [3]uint32, ok bool) {
	if int(off)+4*n > len(c.params) {
		return w, false
	}
	for i := range n {
		w[i] = le.Uint32(c.params[int(off)+4*i:])
	}
	return w, true
}

// operand resolves a stored operand read as type t. ok is false when the
// combination has no literal meaning (say, an immediate vector), in which
// case only the raw form can carry the instruction.
func (c *decodeCtx) operand(op Operand, t DataType) (arg, bool) {
	if op.Src.IsMemory() {
		return arg{mem: true, src: op.Src, off: op.Val}, true
	}
	switch op.Src {
	case SrcImmediate:
		switch t {
		case TypeNone, TypeImm, TypeInt, TypeUInt:
			return arg{kind: litNum, num: int64(op.Val)}, true
		case TypeBool:
			return arg{kind: litBool, b: op.Val == 1}, op.Val <= 1
		case TypeFloat:
			return arg{kind: litFloat, bits: [3]uint32{bitsOf(float32(op.Val))}}, true
		}
	case SrcImmediateString:
		s, ok := c.pool.at(uint32(op.Val))
		return arg{kind: litStr, str: s}, ok
	case SrcParamString:
		w, ok := c.paramWord(op.Val, 1)
		if !ok {
			return arg{}, false
		}
		s, ok := c.pool.at(w[0])
		// The string's pool offset fits the instruction, where the value rule keeps it.
		return arg{kind: litStr, str: s, param: w[0] <= math.MaxUint16}, ok
	case SrcParam:
		a, ok := c.paramOperand(op, t)
		a.param = ok && inInstruction(&a, c.version)
		return a, ok
	}
	return arg{}, false
}

// paramOperand resolves a SrcParam operand read as type t.
func (c *decodeCtx) paramOperand(op Operand, t DataType) (arg, bool) {
	kind, ok := paramKindFor(op.Src, t)
	if !ok {
		return arg{}, false
	}
	w, ok := c.paramWord(op.Val, int(kind.size()/4))
	if !ok {
		return arg{}, false
	}
	switch kind {
	case ParamBool:
		return arg{kind: litBool, b: w[0] == 1}, w[0] <= 1
	case ParamInt:
		return arg{kind: litNum, num: int64(int32(w[0]))}, true
	case ParamUInt:
		return arg{kind: litNum, num: int64(w[0])}, true
	case ParamFloat:
		return arg{kind: litFloat, bits: w}, true
	case ParamVec3f:
		return arg{kind: litVec, bits: w}, true
	}
	return arg{}, false
}

// decode lifts an instruction to the value level. Anything the instruction
// syntax cannot express (non-zero padding, meaningless operand forms) comes
// back as a raw statement.
func (c *decodeCtx) decode(in *Instruction) stmt {
	raw := stmt{op: in.Op, raw: true, ins: *in}
	s := stmt{op: in.Op, typ: in.Type}
	zero := Operand{}
	switch in.Op.form() {
	case formEnd:
		if in.Type != TypeNone || in.LHS != zero || in.RHS != zero {
			return raw
		}
	case formJump:
		if in.Type != TypeNone || in.LHS != zero || in.RHS.Src != 0 {
			return raw
		}
		s.target = in.RHS.Val
	case formCall:
		if uint64(in.Signature) >= uint64(len(c.sigs)) {
			return raw
		}
		s.sig, s.argOff = c.sigs[in.Signature], in.ArgOffset
	case formUnary, formBranch:
		if in.Op.form() == formUnary && in.RHS != zero || in.Op.form() == formBranch && in.RHS.Src != 0 {
			return raw
		}
		a, ok := c.operand(in.LHS, in.Type)
		if !ok {
			return raw
		}
		s.a[0], s.target = a, in.RHS.Val
		if in.Op.form() == formUnary {
			s.target = 0
		}
	case formBinary:
		a0, ok0 := c.operand(in.LHS, in.Type)
		a1, ok1 := c.operand(in.RHS, in.Op.rhsType(in.Type))
		if !ok0 || !ok1 {
			return raw
		}
		s.a = [2]arg{a0, a1}
	}
	return s
}

// placer decides where literals live. The canonical placer (builder)
// appends to fresh tables; the lookup placer finds them in existing ones.
type placer interface {
	poolString(s string) (uint32, error)
	param(kind ParamKind, bits [3]uint32) (uint16, error)
	signature(s string) (uint32, error)
}

// paramKey groups the kinds a literal may share an entry across: an int and
// a uint with the same bits are the same four bytes.
type paramKey struct {
	group ParamKind
	bits  [3]uint32
}

func keyOf(kind ParamKind, bits [3]uint32) paramKey {
	if kind == ParamUInt {
		kind = ParamInt
	}
	return paramKey{kind, bits}
}

// encode turns a statement into an instruction, placing its literals.
func encode(s *stmt, version uint32, p placer) (Instruction, error) {
	if s.raw {
		return s.ins, nil
	}
	in := Instruction{Op: s.op, Type: s.typ}
	if _, ok := encodeType(s.typ, version); !ok {
		return in, fmt.Errorf("type %s is not allowed in version %d", typeWord(s.typ), version)
	}
	var err error
	switch s.op.form() {
	case formJump:
		in.RHS.Val = s.target
	case formCall:
		in.ArgOffset = s.argOff
		in.Signature, err = p.signature(s.sig)
	case formUnary:
		in.LHS, err = encodeOperand(&s.a[0], s.typ, version, p)
	case formBranch:
		in.LHS, err = encodeOperand(&s.a[0], s.typ, version, p)
		in.RHS.Val = s.target
	case formBinary:
		if in.LHS, err = encodeOperand(&s.a[0], s.typ, version, p); err == nil {
			in.RHS, err = encodeOperand(&s.a[1], s.op.rhsType(s.typ), version, p)
		}
	}
	return in, err
}

// immediateFloat reports whether a float literal is stored in the
// instruction: version 1 has no float immediates, and the u16 field holds
// only whole numbers 0..65535 (negative zero would lose its sign).
func immediateFloat(bits uint32, version uint32) bool {
	f := f32(bits)
	return version >= 2 && f >= 0 && f <= 65535 && f == float32(math.Trunc(float64(f))) && bits != 0x80000000
}

// inInstruction is the value rule for where a literal lives when its text does
// not say param(...): in the instruction when the 16-bit field holds it (bools, ints
// 0..65535, whole floats 0..65535 from version 2 on), else in the param table. The
// reference writer places every literal so; the games' compiler did not always (arg.param).
// A string counts as in the instruction: its pool offset decides, when it is placed.
func inInstruction(a *arg, version uint32) bool {
	switch a.kind {
	case litBool, litStr:
		return true
	case litNum:
		return a.num >= 0 && a.num <= math.MaxUint16
	case litFloat:
		return immediateFloat(a.bits[0], version)
	}
	return false
}

// paramLiteralProblem says why literal a, read as type t, cannot be written param(...),
// or "" when it can: the param table holds 32-bit bools, ints, uints, floats and string
// offsets, and vectors (which are there anyway, so param( ) would say nothing).
func paramLiteralProblem(a *arg, t DataType) string {
	switch {
	case a.kind == litVec:
		return "a vec3f literal always lives in the param table; write it without param( )"
	case a.kind == litNum && t != TypeInt && t != TypeUInt:
		return fmt.Sprintf("a %s literal cannot live in the param table (bool, int, uint, float and str literals can)", typeWord(t))
	}
	return ""
}

func encodeOperand(a *arg, t DataType, version uint32, p placer) (Operand, error) {
	if a.mem {
		return Operand{Src: a.src, Val: a.off}, nil
	}
	switch a.kind {
	case litStr:
		off, err := p.poolString(a.str)
		if err != nil {
			return Operand{}, err
		}
		if off <= math.MaxUint16 && !a.param {
			return Operand{Src: SrcImmediateString, Val: uint16(off)}, nil
		}
		po, err := p.param(ParamString, [3]uint32{off})
		return Operand{Src: SrcParamString, Val: po}, err
	case litBool:
		if a.param {
			if t != TypeBool {
				return Operand{}, fmt.Errorf("a bool in the param table is read as type bool, not %s", typeWord(t))
			}
			var v uint32
			if a.b {
				v = 1
			}
			po, err := p.param(ParamBool, [3]uint32{v})
			return Operand{Src: SrcParam, Val: po}, err
		}
		if a.b {
			return Operand{Src: SrcImmediate, Val: 1}, nil
		}
		return Operand{Src: SrcImmediate}, nil
	case litNum:
		if a.num >= 0 && a.num <= math.MaxUint16 && !a.param {
			return Operand{Src: SrcImmediate, Val: uint16(a.num)}, nil
		}
		var kind ParamKind
		switch t {
		case TypeInt:
			kind = ParamInt
		case TypeUInt:
			kind = ParamUInt
		default:
			// The param table's entry would be read as t, which has no 32-bit form there.
			return Operand{}, fmt.Errorf("a %s literal cannot live in the param table (only bool, int, uint, float, str and vec3f do); %d does not fit the instruction's 0..65535", typeWord(t), a.num)
		}
		po, err := p.param(kind, [3]uint32{uint32(a.num)})
		return Operand{Src: SrcParam, Val: po}, err
	case litFloat:
		if !a.param && immediateFloat(a.bits[0], version) {
			return Operand{Src: SrcImmediate, Val: uint16(f32(a.bits[0]))}, nil
		}
		po, err := p.param(ParamFloat, a.bits)
		return Operand{Src: SrcParam, Val: po}, err
	case litVec:
		po, err := p.param(ParamVec3f, a.bits)
		return Operand{Src: SrcParam, Val: po}, err
	}
	return Operand{}, fmt.Errorf("operand has no value")
}

// builder is the canonical placer: first use decides order, equal values
// share one entry.
type builder struct {
	pool      StringPool
	poolOff   map[string]uint32
	poolSize  uint64
	params    ParamTable
	paramOff  map[paramKey]uint16
	paramSize int
	sigs      []uint32
	sigIndex  map[string]uint32
}

func newBuilder() *builder {
	return &builder{poolOff: map[string]uint32{}, paramOff: map[paramKey]uint16{}, sigIndex: map[string]uint32{}}
}

func (b *builder) poolString(s string) (uint32, error) {
	if o, ok := b.poolOff[s]; ok {
		return o, nil
	}
	if strings.IndexByte(s, 0) >= 0 {
		return 0, fmt.Errorf("string %q contains a NUL byte", s)
	}
	if b.poolSize+uint64(len(s))+1 > math.MaxUint32 {
		return 0, fmt.Errorf("string pool exceeds 4 GiB")
	}
	o := uint32(b.poolSize)
	b.poolOff[s] = o
	b.pool.Strings = append(b.pool.Strings, s)
	b.poolSize += uint64(len(s)) + 1
	return o, nil
}

func (b *builder) param(kind ParamKind, bits [3]uint32) (uint16, error) {
	k := keyOf(kind, bits)
	if o, ok := b.paramOff[k]; ok {
		return o, nil
	}
	if b.paramSize > math.MaxUint16 {
		return 0, fmt.Errorf("param table exceeds the 64 KiB an operand can address")
	}
	o := uint16(b.paramSize)
	b.paramOff[k] = o
	p := Param{Kind: kind, Bits: bits}
	b.params.Entries = append(b.params.Entries, p)
	b.paramSize += p.Size()
	return o, nil
}

func (b *builder) signature(s string) (uint32, error) {
	if i, ok := b.sigIndex[s]; ok {
		return i, nil
	}
	o, err := b.poolString(s)
	if err != nil {
		return 0, err
	}
	i := uint32(len(b.sigs))
	b.sigIndex[s] = i
	b.sigs = append(b.sigs, o)
	return i, nil
}

// lookup is the placer for listings: every literal must already be in the
// tables the listing spells out, and it is taken from its first occurrence.
type lookup struct {
	pool     *poolIndex
	paramOff map[paramKey]uint16
	sigIndex map[string]uint32
}

func newLookup(ctx *decodeCtx, t *ParamTable) *lookup {
	l := &lookup{pool: ctx.pool, paramOff: map[paramKey]uint16{}, sigIndex: map[string]uint32{}}
	offs, _ := t.Offsets()
	for i, p := range t.Entries {
		// A bool entry holding other than 0 or 1 has no literal that names it.
		if p.Kind == ParamBytes || p.Kind == ParamBool && p.Bits[0] > 1 || offs[i] > math.MaxUint16 {
			continue
		}
		k := keyOf(p.Kind, p.Bits)
		if _, ok := l.paramOff[k]; !ok {
			l.paramOff[k] = uint16(offs[i])
		}
	}
	for i, s := range ctx.sigs {
		if _, ok := l.sigIndex[s]; !ok {
			l.sigIndex[s] = uint32(i)
		}
	}
	return l
}

func (l *lookup) poolString(s string) (uint32, error) {
	if o, ok := l.pool.offsetOf(s); ok {
		return o, nil
	}
	return 0, fmt.Errorf("string %s is not in the string pool (add a .string line)", quote(s))
}

func (l *lookup) param(kind ParamKind, bits [3]uint32) (uint16, error) {
	if o, ok := l.paramOff[keyOf(kind, bits)]; ok {
		return o, nil
	}
	return 0, fmt.Errorf("no .param entry holds %s", paramText(Param{Kind: kind, Bits: bits}, nil))
}

func (l *lookup) signature(s string) (uint32, error) {
	if i, ok := l.sigIndex[s]; ok {
		return i, nil
	}
	return 0, fmt.Errorf("signature %s is not in the signature table (add a .signature line)", quote(s))
}

// refersToTables reports whether keeping an instruction's bytes verbatim
// would leave a stale reference once the tables are rebuilt.
func (in *Instruction) refersToTables() bool {
	if in.Op == OpUserFunction {
		return true
	}
	ops, _, n := in.liveOperands()
	for _, op := range ops[:n] {
		switch op.Src {
		case SrcImmediateString, SrcParam, SrcParamString:
			return true
		}
	}
	return false
}

// Text forms and re-layout repeat each function's blocks, and blocks of a
// hostile file may all overlap the whole instruction table; these limits
// keep such input from turning into gigabytes of output.
const (
	maxExpanded  = 1 << 22  // instructions across all functions' blocks
	maxTextBytes = 64 << 20 // bytes of text a single call produces, whatever the module
)

// Text forms may be this many times the size of the module they describe, plus
// textLimitBase: corpus modules list at under 3.5 times their size, while a string
// referenced by every instruction, or blocks that all overlap, would make a 49 KB file a
// text of 80 MB.
const (
	textLimitRatio = 16
	textLimitBase  = 64 << 10
)

// textLimit is the most text a text form of m (all of it, or any part) may take: a fixed
// multiple of the module's size, as the binary would hold it.
func (m *Module) textLimit() int {
	size := headerSize + 8*len(m.Instructions) + 16*len(m.Functions) + 4*len(m.Signatures) +
		16*len(m.Params.Entries) + m.Strings.Size()
	return min(textLimitBase+textLimitRatio*size, maxTextBytes)
}

// expandedSize is how many instructions listing every function's blocks
// one after another takes.
func (m *Module) expandedSize() uint64 {
	var n uint64
	for i := range m.Functions {
		f := &m.Functions[i]
		if f.Setup.Present() {
			n += uint64(f.Setup.Count)
		}
		n += uint64(f.Main.Count)
	}
	return n
}

func (m *Module) checkExpanded() error {
	if n := m.expandedSize(); n > maxExpanded {
		return fmt.Errorf("exb: the functions' blocks add up to %d instructions, more than the %d this package expands", n, maxExpanded)
	}
	return nil
}

// function is one function at the value level.
type function struct {
	input, output DataType
	setup, main   []stmt
	setupLines    []int // source lines, for errors; may be nil
	mainLines     []int
}

func (m *Module) block(b Block) ([]Instruction, error) {
	if !b.Present() {
		return nil, nil
	}
	if uint64(b.Base)+uint64(b.Count) > uint64(len(m.Instructions)) {
		return nil, fmt.Errorf("block %d+%d overruns the %d instructions", b.Base, b.Count, len(m.Instructions))
	}
	return m.Instructions[b.Base : int(b.Base)+int(b.Count)], nil
}

func (m *Module) decodeFunction(c *decodeCtx, i int) (function, error) {
	var out function
	err := m.decodeFunctionInto(c, i, &out)
	return out, err
}

// decodeFunctionInto decodes function i into out, reusing out's statement slices.
func (m *Module) decodeFunctionInto(c *decodeCtx, i int, out *function) error {
	f := &m.Functions[i]
	*out = function{input: f.Input, output: f.Output, setup: out.setup[:0], main: out.main[:0]}
	for k, b := range [2]Block{f.Setup, f.Main} {
		ins, err := m.block(b)
		if err != nil {
			return fmt.Errorf("exb: function %d: %s %v", i, blockName(k), err)
		}
		ss := out.main
		if k == 0 {
			ss = out.setup
		}
		if cap(ss) < len(ins) {
			ss = make([]stmt, len(ins), max(len(ins), 2*cap(ss)))
		}
		ss = ss[:len(ins)]
		for j := range ins {
			ss[j] = c.decode(&ins[j])
		}
		if k == 0 {
			out.setup = ss
		} else {
			out.main = ss
		}
	}
	return nil
}

// rebuilder lays functions out canonically one at a time, so that a caller need not hold
// every function's statements at once.
type rebuilder struct {
	version uint32
	b       *builder
	ins     []Instruction
	table   []Function
}

func newRebuilder(version uint32, nFunctions, nInstructions int) *rebuilder {
	return &rebuilder{version: version, b: newBuilder(),
		ins: make([]Instruction, 0, nInstructions), table: make([]Function, 0, nFunctions)}
}

// add lays out f as the next function, number i.
func (r *rebuilder) add(i int, f *function) error {
	r.table = append(r.table, Function{Input: f.input, Output: f.output})
	fn := &r.table[len(r.table)-1]
	for _, t := range [2]DataType{f.input, f.output} {
		if _, ok := encodeType(t, r.version); !ok {
			return fmt.Errorf("exb: function %d: type %s is not allowed in version %d", i, t, r.version)
		}
	}
	// Main first, then setup: the order in which the reference writer
	// numbers blocks, so that order of first use follows the table.
	for _, k := range [2]int{1, 0} {
		ss, lines := f.main, f.mainLines
		blk := &fn.Main
		if k == 0 {
			ss, lines = f.setup, f.setupLines
			blk = &fn.Setup
			if len(ss) == 0 {
				*blk = Block{Base: -1}
				continue
			}
		}
		if err := checkBlock(ss, r.version); err != "" {
			return blockErr(i, k, lines, len(ss)-1, err)
		}
		if len(r.ins)+len(ss) > math.MaxInt32 {
			return fmt.Errorf("exb: too many instructions")
		}
		*blk = Block{Base: int32(len(r.ins)), Count: uint32(len(ss))}
		for j := range ss {
			if ss[j].raw && ss[j].ins.refersToTables() {
				return blockErr(i, k, lines, j, "a .raw instruction that refers to the string pool, param table or signature table cannot be re-laid-out; write it as an instruction")
			}
			in, err := encode(&ss[j], r.version, r.b)
			if err != nil {
				return blockErr(i, k, lines, j, err.Error())
			}
			r.ins = append(r.ins, in)
		}
	}
	return nil
}

// install replaces m's tables with what r laid out and recomputes the memory sizes. On
// error the module is unchanged.
func (m *Module) install(r *rebuilder) error {
	old := *m
	m.Functions, m.Instructions = r.table, r.ins
	m.Signatures, m.Params, m.Strings = r.b.sigs, r.b.params, r.b.pool
	m.Layout = Layout{}
	if err := m.RecomputeMemory(); err != nil {
		*m = old
		return err
	}
	return nil
}

// rebuild replaces the module's tables with the canonical layout of fns.
// On error the module is unchanged.
func (m *Module) rebuild(fns []function) error {
	n := 0
	for i := range fns {
		n += len(fns[i].setup) + len(fns[i].main)
	}
	r := newRebuilder(m.Version, len(fns), n)
	for i := range fns {
		if err := r.add(i, &fns[i]); err != nil {
			return err
		}
	}
	return m.install(r)
}

// checkBlock enforces what a version 1 reader needs to find a block's end.
func checkBlock(ss []stmt, version uint32) string {
	if version != 1 {
		return ""
	}
	for j := range ss {
		if (ss[j].op == OpTerminator) != (j == len(ss)-1) {
			return "in version 1 a block ends at its first END, so END must be its last instruction and only there"
		}
	}
	if len(ss) == 0 {
		return "in version 1 a block must end with END"
	}
	return ""
}

func blockErr(fn, k int, lines []int, j int, msg string) error {
	if j >= 0 && j < len(lines) {
		return &SyntaxError{Line: lines[j], Msg: msg}
	}
	return fmt.Errorf("exb: function %d: %s instruction %d: %s", fn, blockName(k), j, msg)
}

// Usage is the memory a function's instructions touch.
type Usage struct {
	Static    uint32 // bytes of static memory (GMem)
	Scratch32 uint32
	Scratch64 uint32
	IO        uint32 // bytes of the function's input/output value the node reserves
}

// Usage computes function i's memory use from its instructions, by the
// rules the reference writer uses for its header and function fields:
// memory written by the first operand and read by the second counts up to
// the operand's offset plus its type's size (bool, int, uint, float 4,
// str 8, vec3f 12), a jump condition counts one byte, user-function
// arguments do not count, and IO is the input read plus the output
// written. One deliberate difference: the reference counts only 4 bytes
// for the vector a VMS/VDS writes; this package counts its 12.
func (m *Module) Usage(i int) (Usage, error) {
	var u Usage
	if i < 0 || i >= len(m.Functions) {
		return u, fmt.Errorf("exb: function %d out of range (%d functions)", i, len(m.Functions))
	}
	f := &m.Functions[i]
	for k, b := range [2]Block{f.Setup, f.Main} {
		ins, err := m.block(b)
		if err != nil {
			return u, fmt.Errorf("exb: function %d: %s %v", i, blockName(k), err)
		}
		for j := range ins {
			u.add(&ins[j])
		}
	}
	return u, nil
}

func (u *Usage) add(in *Instruction) {
	touch := func(op Operand, n uint32, write bool) {
		end := uint32(op.Val) + n
		var dst *uint32
		switch op.Src {
		case SrcStatic:
			dst = &u.Static
		case SrcScratch32:
			dst = &u.Scratch32
		case SrcScratch64:
			dst = &u.Scratch64
		case SrcOutput:
			if write {
				dst = &u.IO
			}
		case SrcInput:
			if !write {
				dst = &u.IO
			}
		}
		if dst != nil && end > *dst {
			*dst = end
		}
	}
	switch in.Op.form() {
	case formUnary:
		touch(in.LHS, in.Type.size(), true)
	case formBinary:
		touch(in.LHS, in.Type.size(), true)
		touch(in.RHS, in.Op.rhsType(in.Type).size(), false)
	case formBranch:
		// The reference counts one byte for a condition.
		touch(in.LHS, 1, false)
	}
}

// RecomputeMemory sets every function's memory fields and the header's
// sizes from the instructions: static size is the largest function's, the
// scratch sizes are sums. InstanceCount is left alone.
func (m *Module) RecomputeMemory() error {
	var h Header
	us := make([]Usage, len(m.Functions))
	for i := range m.Functions {
		u, err := m.Usage(i)
		if err != nil {
			return err
		}
		if u.Scratch32 > math.MaxUint16 || u.Scratch64 > math.MaxUint16 {
			return fmt.Errorf("exb: function %d: scratch memory %#x/%#x exceeds the 16-bit field", i, u.Scratch32, u.Scratch64)
		}
		us[i] = u
		h.StaticSize = max(h.StaticSize, u.Static)
		h.Scratch32Size += u.Scratch32
		h.Scratch64Size += u.Scratch64
	}
	for i, u := range us {
		f := &m.Functions[i]
		f.StaticSize, f.Scratch32Size, f.Scratch64Size = u.Static, uint16(u.Scratch32), uint16(u.Scratch64)
	}
	m.Header.StaticSize, m.Header.Scratch32Size, m.Header.Scratch64Size = h.StaticSize, h.Scratch32Size, h.Scratch64Size
	return nil
}

// Canonicalize re-lays-out the module canonically (see the package comment)
// without changing what any function computes.
func (m *Module) Canonicalize() error {
	r, err := m.canonical()
	if err != nil {
		return err
	}
	return m.install(r)
}

// canonical lays out m's functions canonically, decoding one function at a time.
func (m *Module) canonical() (*rebuilder, error) {
	if err := m.checkExpanded(); err != nil {
		return nil, err
	}
	c, err := m.newDecodeCtx()
	if err != nil {
		return nil, err
	}
	for i := range m.Functions { // block errors first, as when all functions were decoded first
		for k, b := range [2]Block{m.Functions[i].Setup, m.Functions[i].Main} {
			if _, err := m.block(b); err != nil {
				return nil, fmt.Errorf("exb: function %d: %s %v", i, blockName(k), err)
			}
		}
	}
	r := newRebuilder(m.Version, len(m.Functions), int(m.expandedSize()))
	var fn function
	for i := range m.Functions {
		if err := m.decodeFunctionInto(c, i, &fn); err != nil {
			return nil, err
		}
		if err := r.add(i, &fn); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// CanonicalReproduces reports whether Canonicalize would leave the module's bytes as they
// are: whether a copy of m, canonicalized, appends exactly the bytes m appends. It is false
// when either fails to write. m is not changed, and the two images share one buffer.
func (m *Module) CanonicalReproduces() bool {
	r, err := m.canonical()
	if err != nil {
		return false
	}
	again := *m
	if again.install(r) != nil {
		return false
	}
	s1, err1 := again.layout()
	s2, err2 := m.layout()
	if err1 != nil || err2 != nil || s1.total != s2.total {
		return false // different sizes are different bytes
	}
	bp := images.Get()
	if bp == nil {
		bp = new([]byte)
	}
	buf := slices.Grow((*bp)[:0], 2*s1.total) // room for both images
	if cap(buf) <= maxImages {
		*bp = buf
		defer images.Put(bp)
	}
	a, err := again.AppendBinary(buf)
	if err != nil {
		return false
	}
	b, err := m.AppendBinary(a[len(a):]) // in the same buffer, after the canonical image
	return err == nil && string(a) == string(b)
}

// images holds the buffers CanonicalReproduces writes its two images into, each at most
// maxImages bytes (a game module's two images take kilobytes).
var images shelf.Of[[]byte]

const maxImages = 1 << 20
