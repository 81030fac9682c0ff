package exb

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"ainbeditor/internal/shelf"
)

// This file turns a function's instructions into the readable language
// (README.md). Nothing is shown unchecked: every piece of text is compiled
// back and compared with the instructions it stands for, and where the
// comparison fails the piece falls back one step (a shorter assignment,
// then one assignment per instruction, then labels and gotos for the
// block's jumps, then the instruction listing, then .raw bytes).

// maxChain bounds how many instructions one assignment folds, so that
// trying shorter and shorter assignments stays linear in the block's size.
const maxChain = 32

// maxIfDepth bounds how deeply ifs nest in the text: each level is checked
// on its own, so deep nesting would compile the inner code again and again.
const maxIfDepth = 16

// indentUnit indents the statements inside if and setup blocks.
const indentUnit = "    "

type decompiler struct {
	m       *Module
	c       *decodeCtx
	lk      *lookup
	version uint32
	in, out DataType
	folded  bool // no fallback was needed
	// optimistic skips the piece-by-piece checks: the caller checks the whole text.
	optimistic bool
	ins        []Instruction
	ss         []stmt // ins decoded
	// budget is the most text this function may take; least is what the blocks written so
	// far in this attempt must take at the very least. Past the budget err is set and the
	// function is given up before its text is built: a string that every instruction
	// names must not cost its size once per attempt, per fallback and per instruction.
	budget, least int
	// render is what the decompile may still write of string literals, across all the
	// candidate texts it tries (a chain is rendered at every length it tries, and each
	// fallback renders again): shared by a module's functions.
	render *int
	err    error
	sc     *decompileScratch
}

// decompileScratch is what decompiling one function needs, reused across a module's
// functions: their instructions decoded, and the compile that checks each text.
type decompileScratch struct {
	ss      []stmt
	compile compileScratch
	leaves  []byte // the operand texts of the assignment being written (leafText)
	// checkLeft is how many more instructions the checked attempts may compile as
	// fragments, across the module (see checkRatio).
	checkLeft int
	lines     []byte // the assignments of the function being written, until its text is whole
	// pre and post are the parts of the assignment being written (assignText), and dst its
	// destination's text.
	pre, post []string
	dst       []byte
	pieces    []piece // the lines of the block being written
}

// scratches keeps scratches from one module to the next: grown to a module's longest
// assignment once, they then cost nothing.
var scratches shelf.Of[decompileScratch]

// The largest buffers kept for the next module, for good (see shelf): a block of 4,096
// statements takes about 750 KB, more than any game function.
const (
	maxShelvedText  = 256 << 10
	maxShelvedStmts = 1 << 12
)

// release puts sc back on the shelf unless it holds a buffer too large to keep, and drops
// the references to the module's strings its slices still hold.
func (sc *decompileScratch) release() {
	if cap(sc.leaves) > maxShelvedText || cap(sc.lines) > maxShelvedText || cap(sc.ss) > maxShelvedStmts || cap(sc.pieces) > maxShelvedStmts || cap(sc.compile.code) > maxShelvedStmts {
		return
	}
	clear(sc.ss[:cap(sc.ss)])
	clear(sc.pre[:cap(sc.pre)])
	clear(sc.post[:cap(sc.post)])
	clear(sc.pieces[:cap(sc.pieces)])
	clear(sc.compile.code[:cap(sc.compile.code)])
	clear(sc.compile.lines[:cap(sc.compile.lines)])
	clear(sc.compile.toks[:cap(sc.compile.toks)])
	clear(sc.compile.chain[:cap(sc.compile.chain)])
	clear(sc.compile.exprs[:cap(sc.compile.exprs)])
	clear(sc.compile.ops[:cap(sc.compile.ops)])
	scratches.Put(sc)
}

// checkRatio and checkBase bound the instructions the checked attempts compile as
// fragments, for a whole module: checkBase plus checkRatio per instruction. Every assignment
// is tried at every chain length down to one instruction, and each try compiled, so a block
// that folds nowhere compiled about maxChain²/2 statements per instruction: a 22 KB section
// of 260 instructions and long strings allocated 167 MB (5.8 MB now). Corpus modules fold at
// the first, unchecked attempt and never reach the bound; past it the rest is written as asm.
const (
	checkRatio = 8
	checkBase  = 1024
)

// renderRatio bounds the string literal text all the candidate texts of a module take, as
// a multiple of the text budget: corpus modules render their strings a few times over,
// while a block of long string comparisons rendered at every chain length once allocated
// 516 MB for a 24 KB file.
const renderRatio = 8

// piece is one line of a block's text: a readable line, or a listing line that belongs in
// an asm block. depth is how many ifs it is inside. A block's pieces are one flat list, the
// bodies of its ifs in place, so that the lines of nested ifs are neither copied into their
// outer if's text nor split out of it again (each level did both: a sixth of the work of a
// game file's expressions of nested ifs, decompiling and checking them).
type piece struct {
	asm   bool
	depth int32
	text  string
}

// FunctionSource decompiles function i into the readable language. The text
// compiles (SetFunctionSource) back to the function's exact instructions and
// memory fields against the module's tables as they are.
func (m *Module) FunctionSource(i int) (string, error) {
	if i < 0 || i >= len(m.Functions) {
		return "", fmt.Errorf("exb: function %d out of range (%d functions)", i, len(m.Functions))
	}
	c, err := m.newDecodeCtx()
	if err != nil {
		return "", err
	}
	text, _, err := m.functionSource(c, newLookup(c, &m.Params), i, m.textLimit(), nil, nil)
	return text, err
}

// FunctionSources returns what FunctionSource returns for every function.
func (m *Module) FunctionSources() ([]string, error) {
	if err := m.checkExpanded(); err != nil {
		return nil, err
	}
	c, err := m.newDecodeCtx()
	if err != nil {
		return nil, err
	}
	lk := newLookup(c, &m.Params)
	out := make([]string, len(m.Functions))
	size, limit := 0, m.textLimit()
	render := renderRatio * limit
	sc := scratches.Get()
	if sc == nil {
		sc = new(decompileScratch)
	}
	defer sc.release()
	sc.checkLeft = checkBase + checkRatio*int(min(m.expandedSize(), maxExpanded))
	for i := range m.Functions {
		if out[i], _, err = m.functionSource(c, lk, i, limit-size, &render, sc); err != nil {
			return nil, err
		}
		if size += len(out[i]); size > limit {
			return nil, fmt.Errorf("exb: the readable text exceeds %d bytes, %d times the module's size", limit, textLimitRatio)
		}
	}
	return out, nil
}

// functionSource renders function i, in at most budget bytes, and reports whether it
// folded without any fallback. render is the string text left to render (see decompiler);
// nil gives the function renderRatio times its budget. sc may be nil.
func (m *Module) functionSource(c *decodeCtx, lk *lookup, i, budget int, render *int, sc *decompileScratch) (string, bool, error) {
	if render == nil {
		n := renderRatio * budget
		render = &n
	}
	if sc == nil {
		sc = new(decompileScratch)
		f := &m.Functions[i]
		sc.checkLeft = checkBase + checkRatio*(int(f.Setup.Count)+int(f.Main.Count))
	}
	f := &m.Functions[i]
	var blocks [2][]Instruction
	for k, b := range [2]Block{f.Setup, f.Main} {
		ins, err := m.block(b)
		if err != nil {
			return "", false, fmt.Errorf("exb: function %d: %s %v", i, blockName(k), err)
		}
		blocks[k] = ins
	}
	if n := len(blocks[0]) + len(blocks[1]); n > maxExpanded {
		return "", false, fmt.Errorf("exb: function %d: %d instructions, more than the %d this package expands", i, n, maxExpanded)
	}
	d := &decompiler{m: m, c: c, lk: lk, version: m.Version, in: f.Input, out: f.Output, budget: budget, render: render, sc: sc}
	// First the folded text unchecked piece by piece (it almost always compiles back, and
	// the whole function is checked below), then checked piece by piece with fallbacks,
	// then the listing.
	for attempt := 0; attempt < 3; attempt++ {
		d.optimistic, d.folded, d.least = attempt == 0, true, 0
		sc.lines = sc.lines[:0] // the last attempt's lines are not used again
		level := max(attempt-1, 0)
		var b strings.Builder
		b.WriteString(".input " + f.Input.String() + "\n.output " + f.Output.String() + "\n")
		if u, err := m.Usage(i); err == nil && (u.Static != f.StaticSize || u.Scratch32 != uint32(f.Scratch32Size) || u.Scratch64 != uint32(f.Scratch64Size)) {
			fmt.Fprintf(&b, ".memory static=%#x scratch32=%#x scratch64=%#x\n", f.StaticSize, f.Scratch32Size, f.Scratch64Size)
		}
		if f.Setup.Present() {
			b.WriteString("setup {\n")
			d.writeBlock(&b, blocks[0], indentUnit, level)
			b.WriteString("}\n")
		}
		d.writeBlock(&b, blocks[1], "", level)
		if d.err != nil {
			return "", false, fmt.Errorf("exb: function %d: %w", i, d.err)
		}
		text := b.String()
		if m.sourceReproduces(text, i, blocks, c, lk, &sc.compile) {
			return text, d.folded && level == 0, nil
		}
	}
	return "", false, fmt.Errorf("exb: function %d: no text form reproduces its instructions", i)
}

// sourceReproduces compiles text against m's tables and compares the result
// with function i.
func (m *Module) sourceReproduces(text string, i int, blocks [2][]Instruction, c *decodeCtx, lk *lookup, sc *compileScratch) bool {
	f := &m.Functions[i]
	// The decompiler writes every string literal quoted as valid UTF-8 and everything else
	// but signatures in ASCII, so the text is valid when the signatures are.
	src, err := compileWith(text, m.Version, TypeNone, TypeNone, sc, c.sigsUTF8 || utf8.ValidString(text))
	if err != nil || src.input != f.Input || src.output != f.Output || src.hasSetup != f.Setup.Present() {
		return false
	}
	if src.mem != nil && (src.mem[0] != f.StaticSize || src.mem[1] != uint32(f.Scratch32Size) || src.mem[2] != uint32(f.Scratch64Size)) {
		return false
	}
	return encodesTo(src.setup, blocks[0], m.Version, lk) && encodesTo(src.main, blocks[1], m.Version, lk)
}

func encodesTo(ss []stmt, ins []Instruction, version uint32, p placer) bool {
	if len(ss) != len(ins) {
		return false
	}
	for j := range ss {
		in, err := encode(&ss[j], version, p)
		if err != nil || in != ins[j] {
			return false
		}
	}
	return true
}

// writeBlock renders one block. level 0 tries readable forms; level 1 is
// the listing in one asm block, which is exact by construction.
func (d *decompiler) writeBlock(b *strings.Builder, ins []Instruction, indent string, level int) {
	d.ins = ins
	d.ss = slices.Grow(d.sc.ss[:0], len(ins))[:len(ins)]
	d.sc.ss = d.ss
	for j := range ins {
		d.ss[j] = d.c.decode(&ins[j])
	}
	if d.least += leastText(d.ss); d.least > d.budget {
		d.err = fmt.Errorf("the readable text exceeds %d bytes, %d times the module's size", d.budget, textLimitRatio)
		return
	}
	body, noend := len(ins), true
	if n := len(ins); n > 0 && !d.ss[n-1].raw && d.ss[n-1].op == OpTerminator {
		body, noend = n-1, false
	}
	d.sc.pieces = d.sc.pieces[:0]
	done := false
	if level == 0 {
		if done = d.region(0, body, 0); !done {
			d.folded = false
			d.sc.pieces = d.sc.pieces[:0]
			if done = d.gotoForm(body); !done {
				d.sc.pieces = d.sc.pieces[:0]
			}
		}
	}
	if !done && body > 0 {
		d.folded = false
		d.asmLines(0, body, 0)
	}
	if noend {
		d.line("noend")
	}
	writePieces(b, d.sc.pieces, indent, 0)
}

// line adds a readable line at the top level of the block.
func (d *decompiler) line(text string) { d.sc.pieces = append(d.sc.pieces, piece{text: text}) }

// leastText is a bound below the text any form of ss takes: every string operand and
// called signature is written at least once, and every instruction but END takes at least
// two bytes (an operator and a space, or a line's end).
func leastText(ss []stmt) int {
	n := 0
	for j := range ss {
		s := &ss[j]
		if s.op != OpTerminator {
			n += 2
		}
		n += len(s.sig)
		for k := range s.a {
			if a := &s.a[k]; !a.mem && a.kind == litStr {
				n += len(a.str)
			}
		}
	}
	return n
}

// writePieces writes lines, each on its own line after indent and one indentUnit per level
// of depth past base; a run of listing lines at one depth goes in an asm block of its own.
func writePieces(b *strings.Builder, ps []piece, indent string, base int32) {
	// The builder grows once: lines may hold long strings, and each doubling copies them.
	n := 0
	for i := range ps {
		n += len(indent) + int(ps[i].depth-base+1)*len(indentUnit) + len(ps[i].text) + 1
		if ps[i].asm && (i == 0 || !ps[i-1].asm || ps[i-1].depth != ps[i].depth) {
			n += 2 * (len(indent) + int(ps[i].depth-base)*len(indentUnit) + len("asm {\n"))
		}
	}
	b.Grow(n)
	line := func(depth int32, text string) {
		b.WriteString(indent)
		for range depth - base {
			b.WriteString(indentUnit)
		}
		b.WriteString(text)
		b.WriteByte('\n')
	}
	for i := 0; i < len(ps); i++ {
		p := &ps[i]
		if !p.asm {
			line(p.depth, p.text)
			continue
		}
		line(p.depth, "asm {")
		for ; i < len(ps) && ps[i].asm && ps[i].depth == p.depth; i++ {
			line(p.depth+1, ps[i].text)
		}
		line(p.depth, "}")
		i--
	}
}

// asmLines renders instructions [lo, hi), inside depth ifs, in the listing's syntax, each
// checked (listingLine) and written as .raw bytes where the syntax fails.
func (d *decompiler) asmLines(lo, hi int, depth int32) {
	for j := lo; j < hi; j++ {
		line, err := listingLine(d.c, d.lk, &d.ins[j], d.version)
		if err != nil { // an instruction that cannot be encoded at all; Parse refuses those
			line = ".raw 0000000000000000"
		}
		d.sc.pieces = append(d.sc.pieces, piece{asm: true, depth: depth, text: string(appendAddr(nil, j*8)) + "  " + line})
	}
}

// checks compiles a fragment at block index lo and compares it with
// instructions [lo, hi).
func (d *decompiler) checks(text string, lo, hi int) bool {
	if d.optimistic {
		return true
	}
	if d.sc.checkLeft -= hi - lo; d.sc.checkLeft < 0 {
		return false // the budget is spent: what is left falls back to asm, exact as it is
	}
	ss, err := compileFragment(text, d.version, d.in, d.out, lo)
	return err == nil && encodesTo(ss, d.ins[lo:hi], d.version, d.lk)
}

// region renders instructions [lo, hi) as structured code inside depth ifs, adding its
// lines to the block's; false when a jump does not nest as an if or if/else (the lines it
// added are then the caller's to drop).
func (d *decompiler) region(lo, hi, depth int) bool {
	if depth > maxIfDepth {
		return false
	}
	for i := lo; i < hi; {
		s := &d.ss[i]
		switch {
		case s.raw:
			d.folded = false
			d.asmLines(i, i+1, int32(depth))
			i++
		case s.op == OpJump:
			return false
		case s.op == OpJumpIfZero:
			next, ok := d.ifElse(i, hi, depth)
			if !ok {
				return false
			}
			i = next
		default:
			i = d.simple(i, hi, int32(depth))
		}
	}
	return true
}

// ifElse renders the branch at i as if or if/else and returns the index
// after it.
func (d *decompiler) ifElse(i, hi, depth int) (int, bool) {
	t := int(d.ss[i].target)
	if t <= i || t > hi {
		return 0, false
	}
	cond, ok := d.condText(&d.ss[i])
	if !ok {
		return 0, false
	}
	thenHi, elseLo, end := t, -1, t
	if j := t - 1; j > i && !d.ss[j].raw && d.ss[j].op == OpJump {
		if e := int(d.ss[j].target); e >= t && e <= hi {
			thenHi, elseLo, end = j, t, e
		}
	}
	at, level := len(d.sc.pieces), int32(depth)
	d.sc.pieces = append(d.sc.pieces, piece{depth: level, text: "if (" + cond + ") {"})
	if !d.region(i+1, thenHi, depth+1) {
		return 0, false
	}
	if elseLo >= 0 {
		d.sc.pieces = append(d.sc.pieces, piece{depth: level, text: "} else {"})
		if !d.region(elseLo, end, depth+1) {
			return 0, false
		}
	}
	d.sc.pieces = append(d.sc.pieces, piece{depth: level, text: "}"})
	if !d.optimistic {
		var b strings.Builder
		writePieces(&b, d.sc.pieces[at:], "", level)
		if !d.checks(strings.TrimSuffix(b.String(), "\n"), i, end) {
			return 0, false
		}
	}
	return end, true
}

// simple renders what starts at i that is not a branch: an assignment
// (folding as many instructions as compile back), a call or a return.
func (d *decompiler) simple(i, hi int, depth int32) int {
	s := &d.ss[i]
	add := func(text string) { d.sc.pieces = append(d.sc.pieces, piece{depth: depth, text: text}) }
	switch s.op {
	case OpTerminator:
		if d.checks("return", i, i+1) {
			add("return")
			return i + 1
		}
	case OpUserFunction:
		t := s.text(d.version)
		line := "call " + strings.TrimPrefix(t, "CFN ")
		if d.checks(line, i, i+1) {
			add(line)
			return i + 1
		}
	default:
		end := d.chainEnd(i, hi)
		for j := end; j > i && (d.optimistic || d.sc.checkLeft >= 0); j-- {
			if line, ok := d.assignText(i, j); ok && d.checks(line, i, j) {
				if j < end {
					d.folded = false
				}
				add(line)
				return j
			}
		}
	}
	d.folded = false
	d.asmLines(i, i+1, depth)
	return i + 1
}

// chainEnd is where the assignment starting at i can end at most: the
// instructions after it that work on the same location.
func (d *decompiler) chainEnd(i, hi int) int {
	s := &d.ss[i]
	if !chainable(s) {
		return i + 1
	}
	j := i + 1
	for j < hi && j-i < maxChain {
		n := &d.ss[j]
		if n.raw || n.op == OpStore || !chainable(n) || n.a[0].src != s.a[0].src || n.a[0].off != s.a[0].off {
			break
		}
		j++
	}
	return j
}

// chainable reports whether s writes a location by store, unary or binary
// operator.
func chainable(s *stmt) bool {
	if s.raw || !s.a[0].mem {
		return false
	}
	f := s.op.form()
	return f == formUnary || f == formBinary
}

// leafExpr models an operand as the compiler will read it when written
// without a type (typed false for memory other than In and Out).
func (d *decompiler) leafExpr(a *arg) *expr {
	x := &expr{leaf: *a}
	switch {
	case a.mem && a.src == SrcInput:
		x.typ, x.typed = d.in, true
	case a.mem && a.src == SrcOutput:
		x.typ, x.typed = d.out, true
	case a.mem:
	default:
		x.typ, x.typed = naturalType(a), true
	}
	return x
}

// appendLoc writes a location: In and Out at offset 0 need no offset.
func appendLoc(b []byte, src Source, off uint16, t DataType) []byte {
	if off == 0 && (src == SrcInput || src == SrcOutput) {
		return append(b, memoryNames[src]...)
	}
	b, _ = appendMem(b, src, off, t)
	return b
}

// naturalType is the type a literal has when written without one.
func naturalType(a *arg) DataType {
	switch a.kind {
	case litBool:
		return TypeBool
	case litFloat:
		return TypeFloat
	case litVec:
		return TypeVec3f
	case litStr:
		return TypeString
	}
	return TypeInt
}

// leafText writes an operand, with its type when the plain form would be
// read as another type. The text lives in the scratch's leaves until the next
// assignText: callers that keep it longer copy it.
func (d *decompiler) leafText(a *arg, t DataType, typed bool) string {
	start := len(d.sc.leaves)
	b, ok := d.appendLeaf(d.sc.leaves, a, t, typed)
	d.sc.leaves = b
	if !ok {
		return ""
	}
	// Only appended to until the next assignText, so the view stays as written: a long
	// string is not copied once more.
	return bytesView(b[start:])
}

// appendLeaf appends leafText's text to b; false when the render budget is spent.
func (d *decompiler) appendLeaf(b []byte, a *arg, t DataType, typed bool) ([]byte, bool) {
	if typed {
		b = append(b, typeWord(t)...)
		b = append(b, ' ')
	}
	if a.mem {
		return appendLoc(b, a.src, a.off, t), true
	}
	if a.param {
		b = append(b, "param("...)
		b, ok := d.appendValue(b, a, typed)
		return append(b, ')'), ok
	}
	return d.appendValue(b, a, typed)
}

// appendValue appends a literal's value as the language writes it.
func (d *decompiler) appendValue(b []byte, a *arg, typed bool) ([]byte, bool) {
	switch a.kind {
	case litNum:
		b = strconv.AppendInt(b, a.num, 10)
	case litBool:
		b = strconv.AppendBool(b, a.b)
	case litFloat:
		b = append(b, floatText(a.bits[0])...)
	case litVec:
		if !typed {
			b = append(b, "vec3f"...)
		}
		b = append(b, vecText(a.bits, floatText)...)
	case litStr:
		if *d.render -= len(a.str); *d.render < 0 {
			if d.err == nil {
				d.err = fmt.Errorf("the readable text exceeds %d bytes, %d times the module's size (its strings written over and over)", d.budget, textLimitRatio)
			}
			return b, false
		}
		b = appendQuote(slices.Grow(b, len(a.str)+2), a.str) // at its size when nothing is escaped
	}
	return b, true
}

// bytesView is b as a string without a copy, for bytes that are not written again while
// the string is in use.
func bytesView(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// operandText writes operand a so that the compiler reads it as type want,
// given the type ctx an untyped location takes.
func (d *decompiler) operandText(a *arg, want, ctx DataType) string {
	x := d.leafExpr(a)
	got := ctx
	if x.typed {
		got = x.typ
	}
	return d.leafText(a, want, got != want)
}

func (d *decompiler) condText(s *stmt) (string, bool) {
	t := strings.Clone(d.operandText(&s.a[0], s.typ, TypeBool)) // outlives the assignments in its branches
	return t, t != ""
}

// Operator texts and precedences for rendering; primary is a leaf.
var opText = [maxOpcode + 1]string{
	OpAdd: "+", OpSubtract: "-", OpMultiply: "*", OpDivide: "/", OpModulus: "%",
	OpScalarMultiplyVec3f: "*", OpScalarDivideVec3f: "/",
	OpLeftShift: "<<", OpRightShift: ">>",
	OpLessThan: "<", OpLessThanEqual: "<=", OpGreaterThan: ">", OpGreaterThanEqual: ">=",
	OpEqual: "==", OpNotEqual: "!=", OpAnd: "&", OpXor: "^", OpOr: "|",
	OpLogicalAnd: "&&", OpLogicalOr: "||",
}

const (
	precUnary   = 11
	precPrimary = 12
)

// assignText renders instructions [i, j) as one assignment; false when they
// cannot be written as one.
func (d *decompiler) assignText(i, j int) (string, bool) {
	d.sc.leaves = d.sc.leaves[:0] // the texts of the last assignment are copied into it
	first := &d.ss[i]
	dst := first.a[0]
	d.sc.dst = appendLoc(d.sc.dst[:0], dst.src, dst.off, first.typ)
	dstText := d.sc.dst
	if dst.off&0x8000 != 0 && (dst.src == SrcUserInput || dst.src == SrcUserOutput) {
		for k := i; k < j; k++ {
			if d.ss[k].typ != TypeFloat {
				return "", false
			}
		}
	}
	dx := d.leafExpr(&dst)
	var lx *expr
	var lead *arg
	ops := d.ss[i:j]
	a := first.typ
	if first.op == OpStore {
		lead = &first.a[1]
		ops = ops[1:]
	} else {
		lead = &dst
		if first.op == OpScalarMultiplyVec3f || first.op == OpScalarDivideVec3f {
			a = TypeVec3f
		}
	}
	lx = d.leafExpr(lead)
	// The chain's start type as the compiler infers it from the plain text.
	var cops []chainOp
	if len(ops) > 0 && ops[0].op.form() == formBinary {
		cops = []chainOp{{op: opText[ops[0].op], rhs: d.leafExpr(&ops[0].a[1])}}
	} else if len(ops) > 0 {
		cops = []chainOp{{op: "-"}}
	}
	inferred, ok := startType(dx, lx, cops)
	cur := d.leafText(lead, a, !ok || inferred != a)
	if cur == "" {
		return "", false
	}
	prec := precPrimary
	if !lead.mem {
		prec = precUnary // a literal is wrapped before a unary operator
	}
	// Each operator wraps the whole text so far: its opening part goes on pre and is
	// written in reverse at the end, its closing part and right operand go on post. The
	// text is then written once, at its size: concatenating instead copied a chain of long
	// string literals once per operator.
	pre, post := d.sc.pre[:0], d.sc.post[:0]
	defer func() { d.sc.pre, d.sc.post = pre[:0], post[:0] }()
	for k := range ops {
		s := &ops[k]
		switch s.op.form() {
		case formUnary:
			if s.typ != a {
				return "", false
			}
			switch s.op {
			case OpNegate, OpNegateBool:
				sym := "-"
				if s.op == OpNegateBool {
					sym = "!"
				}
				if prec == precPrimary {
					pre = append(pre, sym)
				} else {
					pre, post = append(pre, sym+"("), append(post, ")")
				}
				prec = precUnary
			case OpIncrement:
				pre, post, prec = append(pre, "inc("), append(post, ")"), precPrimary+1
			case OpDecrement:
				pre, post, prec = append(pre, "dec("), append(post, ")"), precPrimary+1
			}
		case formBinary:
			want := s.typ
			if s.op == OpScalarMultiplyVec3f || s.op == OpScalarDivideVec3f {
				want = TypeFloat
				if a != TypeVec3f {
					return "", false
				}
			}
			rhs := d.operandText(&s.a[1], want, a)
			if rhs == "" {
				return "", false
			}
			q, _, _ := binOp(opText[s.op])
			if prec < q {
				pre, post = append(pre, "("), append(post, ")")
			}
			post = append(post, " ", opText[s.op], " ", rhs)
			prec = q
			a = s.typ
			if isCompare(s.op) {
				a = TypeBool
			}
		default:
			return "", false
		}
	}
	n := len(dstText) + len(" = ") + len(cur)
	for _, p := range pre {
		n += len(p)
	}
	for _, p := range post {
		n += len(p)
	}
	// Written into the function's arena, which lives until its text is put together.
	start := len(d.sc.lines)
	out := append(append(slices.Grow(d.sc.lines, n), dstText...), " = "...)
	for k := len(pre) - 1; k >= 0; k-- {
		out = append(out, pre[k]...)
	}
	out = append(out, cur...)
	for _, p := range post {
		out = append(out, p...)
	}
	d.sc.lines = out
	return bytesView(out[start:]), true // only appended to until the next attempt
}

// gotoForm renders a block whose jumps do not nest: labels where jumps
// land and goto statements for the jumps, with assignments between.
func (d *decompiler) gotoForm(body int) bool {
	labels := map[int]string{}
	var order []int
	for j := 0; j < body; j++ {
		s := &d.ss[j]
		if s.raw || s.op != OpJump && s.op != OpJumpIfZero {
			continue
		}
		if t := int(s.target); t <= len(d.ins) {
			if _, ok := labels[t]; !ok {
				order = append(order, t)
				labels[t] = ""
			}
		}
	}
	slices.Sort(order)
	for k, t := range order {
		labels[t] = "L" + strconv.Itoa(k+1)
	}
	for i := 0; i <= body; {
		if l, ok := labels[i]; ok {
			d.line(l + ":")
		}
		if i == body {
			break
		}
		s := &d.ss[i]
		switch {
		case s.raw:
			d.asmLines(i, i+1, 0)
			i++
			continue
		case s.op == OpJump || s.op == OpJumpIfZero:
			l, ok := labels[int(s.target)]
			line := "goto " + l
			if s.op == OpJumpIfZero {
				c, cok := d.condText(s)
				ok = ok && cok
				line += " unless " + c
			}
			if ok {
				d.line(line)
			} else {
				d.asmLines(i, i+1, 0)
			}
			i++
			continue
		}
		// An assignment must not run past a label.
		hi := body
		for _, t := range order {
			if t > i && t < hi {
				hi = t
			}
		}
		for j := i + 1; j < hi; j++ {
			if n := &d.ss[j]; !n.raw && (n.op == OpJump || n.op == OpJumpIfZero) {
				hi = j
				break
			}
		}
		i = d.simple(i, hi, 0)
	}
	// The gotos can only be checked with their labels: check the block.
	if d.optimistic {
		return true
	}
	var b strings.Builder
	writePieces(&b, d.sc.pieces, "", 0)
	return d.checks(b.String(), 0, body)
}
