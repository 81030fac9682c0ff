package exb

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file compiles the readable expression language (README.md) to the
// value level (stmt), which encode then places against the module's tables.
// Every construct compiles to one fixed instruction sequence, so that the
// decompiler can promise that what it shows compiles back to the same bytes.

// source is one compiled function: what the text says, before placement.
type source struct {
	input, output DataType
	hasSetup      bool
	setup, main   []stmt
	setupPos      []srcPos // where each statement came from, for errors
	mainPos       []srcPos
	mem           *[3]uint32 // .memory static, scratch32, scratch64; nil to compute
}

type srcPos struct{ line, col int }

// srcCompiler reads a function's text line by line.
type srcCompiler struct {
	version uint32
	in, out DataType
	lines   []string
	ln      int // index of the next line
	toks    []token
	tp      int // next token in toks
	line    string
	inIf    int  // how many ifs enclose the current statement
	utf8OK  bool // the whole text is valid UTF-8, so string literals need no check of their own
	// chainBuf holds the statements of the assignment being compiled (chain).
	chainBuf []stmt
	// exprs holds the expression nodes of the statement being compiled, and ops its
	// chain (flatten): one allocation per node was most of what compiling allocated.
	exprs []expr
	ops   []chainOp
}

// maxExprChunk bounds one allocation of expression nodes: a hostile line of millions of
// operators grows chunk by chunk instead of copying what it has at every doubling.
const maxExprChunk = 1024

// newExpr places x among the current statement's nodes. The nodes are reused for the next
// statement (block), which no node outlives: chain and condition copy the leaves they keep.
func (c *srcCompiler) newExpr(x expr) *expr {
	if len(c.exprs) == cap(c.exprs) {
		// A full chunk is left to the nodes that point into it.
		c.exprs = make([]expr, 0, min(max(2*cap(c.exprs), 16), maxExprChunk))
	}
	c.exprs = append(c.exprs, x)
	return &c.exprs[len(c.exprs)-1]
}

// emitter collects one block's statements.
type emitter struct {
	base   int // block index of the first statement (fragments start mid-block)
	code   []stmt
	pos    []srcPos
	labels map[string]int
	fixups []fixup
	noend  int // line of a noend statement, or 0
}

type fixup struct {
	at    int // index into code
	label string
	p     srcPos
}

func (e *emitter) here() int { return e.base + len(e.code) }

func (e *emitter) emit(s stmt, p srcPos) int {
	e.code = append(e.code, s)
	e.pos = append(e.pos, p)
	return len(e.code) - 1
}

// maxSourceStmts bounds what one text may compile to: a block's jump targets
// are 16-bit, and the bound keeps hostile text from allocating without end.
const maxSourceStmts = math.MaxUint16

func (c *srcCompiler) errAt(pos int, format string, args ...any) error {
	pos = min(max(pos, 0), len(c.line))
	return &SyntaxError{Line: c.ln, Col: utf8.RuneCountInString(c.line[:pos]) + 1, Msg: fmt.Sprintf(format, args...)}
}

// next loads the next non-blank line; false at the end of the text.
func (c *srcCompiler) next() bool {
	for c.ln < len(c.lines) {
		c.line = c.lines[c.ln]
		c.ln++
		c.toks = lexLine(c.line, c.toks[:0])
		c.tp = 0
		if c.toks[0].kind != tokEOL {
			return true
		}
	}
	return false
}

func (c *srcCompiler) peek() token { return c.toks[c.tp] }

func (c *srcCompiler) take() token {
	t := c.toks[c.tp]
	if t.kind != tokEOL {
		c.tp++
	}
	return t
}

func (c *srcCompiler) is(text string) bool {
	t := c.peek()
	return (t.kind == tokPunct || t.kind == tokIdent) && t.text == text
}

func describe(t token) string {
	switch t.kind {
	case tokEOL:
		return "end of line"
	case tokString:
		return "string " + t.text
	}
	return strconv.Quote(t.text)
}

func (c *srcCompiler) expect(text string) error {
	if !c.is(text) {
		t := c.peek()
		return c.errAt(t.pos, "expected %q, found %s", text, describe(t))
	}
	c.take()
	return nil
}

func (c *srcCompiler) expectEOL() error {
	if t := c.peek(); t.kind != tokEOL {
		return c.errAt(t.pos, "unexpected %s at the end of the statement", describe(t))
	}
	return nil
}

// compileSource compiles a whole function text. in and out are the types to
// keep when the text has no .input / .output line.
func compileSource(text string, version uint32, in, out DataType) (*source, error) {
	return compileWith(text, version, in, out, nil, utf8.ValidString(text))
}

// compileScratch holds what compiling one function needs, for the decompiler to reuse
// across a module's functions when it checks its texts: the main block's statements and
// their positions, the lines and a line's tokens. A source compiled with it is valid until
// the next compile.
type compileScratch struct {
	code  []stmt
	pos   []srcPos
	lines []string
	toks  []token
	chain []stmt
	exprs []expr
	ops   []chainOp
}

// compileWith is compileSource with buffers from sc (nil for new ones) and utf8OK saying
// whether text is known to be valid UTF-8.
func compileWith(text string, version uint32, in, out DataType, sc *compileScratch, utf8OK bool) (*source, error) {
	if sc == nil {
		sc = &compileScratch{toks: make([]token, 0, 32)}
	}
	sc.lines = appendLines(sc.lines[:0], text)
	c := &srcCompiler{version: version, in: in, out: out, lines: sc.lines, utf8OK: utf8OK, toks: sc.toks[:0], chainBuf: sc.chain, exprs: sc.exprs[:0], ops: sc.ops[:0]}
	defer func() { sc.toks, sc.chain, sc.exprs, sc.ops = c.toks, c.chainBuf, c.exprs[:0], c.ops[:0] }()
	src := &source{}
	main := &emitter{code: sc.code[:0], pos: sc.pos[:0]}
	defer func() { sc.code, sc.pos = main.code, main.pos }()
	headerDone := false
	for c.next() {
		t := c.peek()
		if t.kind == tokPunct && t.text == "." {
			if headerDone {
				return nil, c.errAt(t.pos, "directives must come before the first statement")
			}
			if err := c.directive(src); err != nil {
				return nil, err
			}
			continue
		}
		headerDone = true
		if t.kind == tokIdent && t.text == "setup" && c.toks[1].text == "{" {
			if src.hasSetup || len(main.code) > 0 {
				return nil, c.errAt(t.pos, "setup { } must come once, before the main statements")
			}
			c.tp += 2
			if err := c.expectEOL(); err != nil {
				return nil, err
			}
			setup := &emitter{}
			closer, err := c.block(setup, 1)
			if err != nil {
				return nil, err
			}
			if closer != "}" {
				return nil, c.errAt(c.peek().pos, "setup { } has no else")
			}
			if err := c.finishBlock(setup, true); err != nil {
				return nil, err
			}
			src.hasSetup, src.setup, src.setupPos = true, setup.code, setup.pos
			continue
		}
		c.ln-- // let block read this line again
		if _, err := c.block(main, 0); err != nil {
			return nil, err
		}
	}
	if err := c.finishBlock(main, true); err != nil {
		return nil, err
	}
	src.input, src.output, src.main, src.mainPos = c.in, c.out, main.code, main.pos
	return src, nil
}

// compileFragment compiles statements that sit at block index base, with
// no terminator appended: the decompiler checks its output piece by piece.
func compileFragment(text string, version uint32, in, out DataType, base int) ([]stmt, error) {
	c := &srcCompiler{version: version, in: in, out: out, lines: splitLines(text)}
	e := &emitter{base: base}
	if _, err := c.block(e, 0); err != nil {
		return nil, err
	}
	if err := c.finishBlock(e, false); err != nil {
		return nil, err
	}
	return e.code, nil
}

// directive reads .input, .output or .memory.
func (c *srcCompiler) directive(src *source) error {
	dot := c.take()
	w := c.take()
	if w.kind != tokIdent || w.pos != dot.pos+1 {
		return c.errAt(dot.pos, "expected a directive (.input, .output or .memory)")
	}
	switch w.text {
	case "input", "output":
		tt := c.take()
		t, ok := ParseDataType(strings.ToUpper(tt.text))
		if tt.kind != tokIdent || !ok {
			return c.errAt(tt.pos, "unknown type %s (want NONE, IMM, BOOL, INT, UINT, FLOAT, STRING or VECTOR3F)", describe(tt))
		}
		if _, ok := encodeType(t, c.version); !ok {
			return c.errAt(tt.pos, "type %s is not allowed in version %d", t, c.version)
		}
		if w.text == "input" {
			c.in = t
		} else {
			c.out = t
		}
		return c.expectEOL()
	case "memory":
		var mem [3]uint32
		for i, k := range [3]string{"static", "scratch32", "scratch64"} {
			kt := c.take()
			if kt.text != k {
				return c.errAt(kt.pos, "expected %s=, found %s", k, describe(kt))
			}
			if err := c.expect("="); err != nil {
				return err
			}
			nt := c.take()
			limit := uint64(math.MaxUint32)
			if i > 0 {
				limit = math.MaxUint16
			}
			v, ok := parseUint(nt.text, limit)
			if nt.kind != tokNumber || !ok {
				return c.errAt(nt.pos, "bad %s size %s (want 0..%#x)", k, describe(nt), limit)
			}
			mem[i] = uint32(v)
		}
		src.mem = &mem
		return c.expectEOL()
	}
	return c.errAt(w.pos, "unknown directive .%s (want .input, .output or .memory)", w.text)
}

// finishBlock resolves labels and, for a whole block, appends the END that
// the text leaves implicit (unless the block ends in noend).
func (c *srcCompiler) finishBlock(e *emitter, whole bool) error {
	for _, f := range e.fixups {
		at, ok := e.labels[f.label]
		if !ok {
			return &SyntaxError{Line: f.p.line, Col: f.p.col, Msg: fmt.Sprintf("undefined label %s", f.label)}
		}
		e.code[f.at].target = uint16(at)
	}
	if whole && e.noend == 0 {
		e.emit(stmt{op: OpTerminator}, srcPos{max(len(c.lines), 1), 0})
	}
	if len(e.code) > maxSourceStmts {
		return &SyntaxError{Line: max(len(c.lines), 1), Msg: fmt.Sprintf("a block may hold at most %d instructions", maxSourceStmts)}
	}
	return nil
}

// block compiles statements until a closing brace (depth > 0) or the end of
// the text. It returns the closing line's form: "}" or "} else {".
func (c *srcCompiler) block(e *emitter, depth int) (string, error) {
	for c.next() {
		t := c.peek()
		if e.noend != 0 && !(t.kind == tokPunct && t.text == "}") {
			return "", c.errAt(t.pos, "noend must be the last statement of its block (line %d)", e.noend)
		}
		if len(e.code) > maxSourceStmts {
			return "", c.errAt(t.pos, "a block may hold at most %d instructions", maxSourceStmts)
		}
		if t.kind == tokPunct && t.text == "}" {
			if depth == 0 {
				return "", c.errAt(t.pos, "unexpected }")
			}
			c.take()
			if c.is("else") {
				c.take()
				if err := c.expect("{"); err != nil {
					return "", err
				}
				return "} else {", c.expectEOL()
			}
			return "}", c.expectEOL()
		}
		c.exprs = c.exprs[:0] // the last statement's nodes are not used again
		if err := c.statement(e, depth); err != nil {
			return "", err
		}
	}
	if depth > 0 {
		// At the end of the text's last line, where the } should have come.
		c.line = ""
		last := ""
		if len(c.lines) > 0 {
			last = c.lines[len(c.lines)-1]
		}
		return "", &SyntaxError{Line: max(len(c.lines), 1), Col: utf8.RuneCountInString(last) + 1, Msg: "missing }"}
	}
	return "", nil
}

func (c *srcCompiler) statement(e *emitter, depth int) error {
	t := c.peek()
	p := srcPos{c.ln, utf8.RuneCountInString(c.line[:t.pos]) + 1}
	if t.kind == tokPunct && t.text == "." {
		return c.errAt(t.pos, "directives must come before the first statement")
	}
	if t.kind == tokIdent && t.text == "setup" && c.toks[1].text == "{" {
		return c.errAt(t.pos, "setup { } must come once, before the main statements")
	}
	if t.kind == tokIdent {
		switch t.text {
		case "if":
			return c.ifStmt(e, depth, p)
		case "goto":
			c.take()
			lt := c.take()
			if lt.kind != tokIdent {
				return c.errAt(lt.pos, "goto needs a label, found %s", describe(lt))
			}
			s := stmt{op: OpJump}
			if c.is("unless") {
				c.take()
				cond, err := c.condition()
				if err != nil {
					return err
				}
				s = cond
			}
			if err := c.expectEOL(); err != nil {
				return err
			}
			e.fixups = append(e.fixups, fixup{e.emit(s, p), lt.text, srcPos{c.ln, utf8.RuneCountInString(c.line[:lt.pos]) + 1}})
			return nil
		case "return":
			c.take()
			e.emit(stmt{op: OpTerminator}, p)
			return c.expectEOL()
		case "noend":
			c.take()
			if c.inIf > 0 {
				return c.errAt(t.pos, "noend must be the last statement of a block, not inside if")
			}
			e.noend = c.ln
			return c.expectEOL()
		case "call":
			end := c.toks[len(c.toks)-1].pos
			lp := &lineParser{s: c.line, pos: t.pos + len("call"), end: end, line: c.ln, version: c.version}
			s := stmt{op: OpUserFunction}
			if err := lp.call(&s); err != nil {
				return err
			}
			if err := lp.finish(); err != nil {
				return err
			}
			if _, ok := encodeType(s.typ, c.version); !ok {
				return c.errAt(t.pos, "type %s is not allowed in version %d", typeWord(s.typ), c.version)
			}
			e.emit(s, p)
			return nil
		case "asm":
			c.take()
			if err := c.expect("{"); err != nil {
				return err
			}
			if err := c.expectEOL(); err != nil {
				return err
			}
			return c.asm(e)
		}
		if len(c.toks) == 3 && c.toks[1].text == ":" && c.toks[1].kind == tokPunct {
			if _, ok := sourceByMemoryName(t.text); ok || isKeyword(t.text) {
				return c.errAt(t.pos, "%s cannot be a label", t.text)
			}
			if e.labels == nil {
				e.labels = map[string]int{}
			}
			if _, dup := e.labels[t.text]; dup {
				return c.errAt(t.pos, "label %s defined twice", t.text)
			}
			e.labels[t.text] = e.here()
			return nil
		}
	}
	return c.assignment(e, p)
}

func isKeyword(w string) bool {
	switch w {
	case "if", "else", "goto", "unless", "return", "noend", "call", "asm", "setup", "inc", "dec", "true", "false", "inf", "nan":
		return true
	}
	_, ok := typeWordType(w)
	return ok
}

// typeWordType reads the type words of operands: none, imm, bool, int,
// uint, float, str, vec3f.
func typeWordType(w string) (DataType, bool) {
	if w == "none" {
		return TypeNone, true
	}
	return typeByPrefix(w)
}

// asm reads listing instruction lines up to a line that is only "}".
func (c *srcCompiler) asm(e *emitter) error {
	open := c.ln
	for c.ln < len(c.lines) {
		l := c.lines[c.ln]
		c.ln++
		c.line = l
		if strings.TrimSpace(l) == "}" {
			return nil
		}
		lp := &lineParser{s: l, end: commentStart(l), line: c.ln, version: c.version}
		lp.skipSpace()
		if lp.atEnd() {
			continue
		}
		start := lp.pos
		s, err := lp.instruction()
		if err != nil {
			return err
		}
		if len(e.code) > maxSourceStmts {
			return c.errAt(0, "a block may hold at most %d instructions", maxSourceStmts)
		}
		e.emit(s, srcPos{c.ln, utf8.RuneCountInString(l[:start]) + 1})
	}
	// At the asm block's {, on the line that opened it.
	col := 0
	if open >= 1 && open <= len(c.lines) {
		if l := c.lines[open-1]; strings.Contains(l, "{") {
			col = utf8.RuneCountInString(l[:strings.Index(l, "{")]) + 1
		}
	}
	return &SyntaxError{Line: open, Col: col, Msg: "asm { has no closing } line"}
}

func (c *srcCompiler) ifStmt(e *emitter, depth int, p srcPos) error {
	c.take()
	if err := c.expect("("); err != nil {
		return err
	}
	cond, err := c.condition()
	if err != nil {
		return err
	}
	if err := c.expect(")"); err != nil {
		return err
	}
	if err := c.expect("{"); err != nil {
		return err
	}
	if err := c.expectEOL(); err != nil {
		return err
	}
	if c.inIf >= maxExprDepth {
		return c.errAt(0, "ifs nested more than %d deep", maxExprDepth)
	}
	jz := e.emit(cond, p)
	c.inIf++
	defer func() { c.inIf-- }()
	closer, err := c.block(e, depth+1)
	if err != nil {
		return err
	}
	if closer == "}" {
		e.code[jz].target = uint16(e.here())
		return nil
	}
	jmp := e.emit(stmt{op: OpJump}, srcPos{c.ln, 1})
	e.code[jz].target = uint16(e.here())
	closer, err = c.block(e, depth+1)
	if err != nil {
		return err
	}
	if closer != "}" {
		return c.errAt(0, "an else block cannot have another else")
	}
	e.code[jmp].target = uint16(e.here())
	return nil
}

// condition reads the single value a branch tests: bool unless typed.
func (c *srcCompiler) condition() (stmt, error) {
	t := c.peek()
	x, err := c.expr(1, 0)
	if err != nil {
		return stmt{}, err
	}
	if !x.isLeaf() {
		return stmt{}, c.errAt(t.pos, "a condition must be a single value (a location or literal); compute it into a location first")
	}
	typ := TypeBool
	if x.typed {
		typ = x.typ
	}
	return stmt{op: OpJumpIfZero, typ: typ, a: [2]arg{x.leaf}}, nil
}

// expr is a parsed expression: a leaf (location or literal) or an operator
// applied to expressions.
type expr struct {
	kind  exprKind
	op    string // operator text for unary and binary nodes
	l, r  *expr
	leaf  arg
	typ   DataType // leaf: its type when typed
	typed bool     // leaf: the type is known (literal, annotation, In/Out)
	pos   int      // the operator, or the leaf's start
	start int      // where the expression's text starts
}

type exprKind uint8

const (
	exprLeaf exprKind = iota
	exprUnary
	exprBinary
)

func (x *expr) isLeaf() bool { return x.kind == exprLeaf }

// binOp is a binary operator's precedence (C's, higher binds tighter) and opcode; false
// for text that is not one. A switch: a map lookup per token was a measurable share of
// compiling.
func binOp(text string) (prec int, op Opcode, ok bool) {
	switch text {
	case "||":
		return 1, OpLogicalOr, true
	case "&&":
		return 2, OpLogicalAnd, true
	case "|":
		return 3, OpOr, true
	case "^":
		return 4, OpXor, true
	case "&":
		return 5, OpAnd, true
	case "==":
		return 6, OpEqual, true
	case "!=":
		return 6, OpNotEqual, true
	case "<":
		return 7, OpLessThan, true
	case "<=":
		return 7, OpLessThanEqual, true
	case ">":
		return 7, OpGreaterThan, true
	case ">=":
		return 7, OpGreaterThanEqual, true
	case "<<":
		return 8, OpLeftShift, true
	case ">>":
		return 8, OpRightShift, true
	case "+":
		return 9, OpAdd, true
	case "-":
		return 9, OpSubtract, true
	case "*":
		return 10, OpMultiply, true
	case "/":
		return 10, OpDivide, true
	case "%":
		return 10, OpModulus, true
	}
	return 0, 0, false
}

// maxExprDepth bounds nesting so that hostile text cannot exhaust the stack.
const maxExprDepth = 200

func (c *srcCompiler) expr(minPrec, depth int) (*expr, error) {
	if depth > maxExprDepth {
		return nil, c.errAt(c.peek().pos, "expression nested more than %d deep", maxExprDepth)
	}
	l, err := c.unaryDepth(depth + 1)
	if err != nil {
		return nil, err
	}
	for {
		t := c.peek()
		if t.kind != tokPunct {
			return l, nil
		}
		prec, _, ok := binOp(t.text)
		if !ok || prec < minPrec {
			return l, nil
		}
		c.take()
		r, err := c.expr(prec+1, depth+1)
		if err != nil {
			return nil, err
		}
		l = c.newExpr(expr{kind: exprBinary, op: t.text, l: l, r: r, pos: t.pos, start: l.start})
	}
}

func (c *srcCompiler) unary() (*expr, error) { return c.unaryDepth(0) }

func (c *srcCompiler) unaryDepth(depth int) (*expr, error) {
	if depth > maxExprDepth {
		return nil, c.errAt(c.peek().pos, "expression nested more than %d deep", maxExprDepth)
	}
	t := c.peek()
	if t.kind == tokPunct && (t.text == "-" || t.text == "!") {
		c.take()
		if n := c.peek(); t.text == "-" && (n.kind == tokNumber || n.kind == tokIdent && n.text == "inf") {
			return c.literalLeaf(TypeNone, false, true, t.pos)
		}
		x, err := c.unaryDepth(depth + 1)
		if err != nil {
			return nil, err
		}
		return c.newExpr(expr{kind: exprUnary, op: t.text, l: x, pos: t.pos, start: t.pos}), nil
	}
	x, err := c.primary(depth)
	if x != nil && x.isLeaf() {
		x.start = x.pos
	}
	return x, err
}

func (c *srcCompiler) primary(depth int) (*expr, error) {
	t := c.peek()
	switch t.kind {
	case tokPunct:
		if t.text == "(" {
			c.take()
			x, err := c.expr(1, depth+1)
			if err != nil {
				return nil, err
			}
			if !x.isLeaf() {
				x.start = t.pos
			}
			return x, c.expect(")")
		}
	case tokIdent:
		if (t.text == "inc" || t.text == "dec") && c.toks[c.tp+1].text == "(" {
			c.take()
			c.take()
			x, err := c.expr(1, depth+1)
			if err != nil {
				return nil, err
			}
			return c.newExpr(expr{kind: exprUnary, op: t.text, l: x, pos: t.pos, start: t.pos}), c.expect(")")
		}
		if typ, ok := typeWordType(t.text); ok {
			c.take()
			return c.leaf(typ, true)
		}
		return c.leaf(TypeNone, false)
	case tokNumber, tokString:
		return c.leaf(TypeNone, false)
	case tokBad:
		if strings.HasPrefix(t.text, `"`) {
			return nil, c.errAt(t.pos, "bad string literal (want a double-quoted string with Go escapes)")
		}
		return nil, c.errAt(t.pos, "unexpected character %q", t.text)
	}
	return nil, c.errAt(t.pos, "expected a value, found %s", describe(t))
}

// leaf reads a location or a literal; typed says typ was written before it.
func (c *srcCompiler) leaf(typ DataType, typed bool) (*expr, error) {
	t := c.peek()
	if t.kind == tokIdent {
		if src, ok := sourceByMemoryName(t.text); ok && c.toks[c.tp+1].text == "[" {
			return c.location(src, typ, typed)
		}
		if t.text == "In" || t.text == "Out" {
			// In and Out alone are offset 0.
			c.take()
			x := c.newExpr(expr{leaf: arg{mem: true, src: SrcInput}, typ: typ, typed: typed, pos: t.pos})
			if t.text == "Out" {
				x.leaf.src = SrcOutput
			}
			if !typed {
				x.typ, x.typed = c.in, true
				if t.text == "Out" {
					x.typ = c.out
				}
			}
			return x, nil
		}
	}
	if t.kind == tokIdent && t.text == "param" && c.toks[c.tp+1].text == "(" {
		return c.paramLeaf(typ, typed)
	}
	neg := false
	if t.kind == tokPunct && t.text == "-" && typed {
		c.take()
		neg = true
	}
	return c.literalLeaf(typ, typed, neg, t.pos)
}

// paramLeaf reads param(literal): a literal that lives in the param table where its
// value alone would put it in the instruction (arg.param). typ is the type written
// before param, if typed.
func (c *srcCompiler) paramLeaf(typ DataType, typed bool) (*expr, error) {
	pt := c.take()
	c.take() // (
	t := c.peek()
	if t.kind == tokIdent {
		switch tt, isType := typeWordType(t.text); {
		case t.text == "param":
			return nil, c.errAt(t.pos, "param( ) inside param( )")
		case tt == TypeVec3f && isType:
			return nil, c.errAt(pt.pos, "a vec3f literal always lives in the param table; write it without param( )")
		case isType:
			return nil, c.errAt(t.pos, "write the type before param( ), as in float param(2.0)")
		case t.text != "true" && t.text != "false" && t.text != "inf" && t.text != "nan":
			return nil, c.errAt(t.pos, "param( ) holds a literal such as 2.0, not %s", describe(t))
		}
	}
	neg := false
	if t.kind == tokPunct && t.text == "-" {
		c.take()
		neg = true
	}
	x, err := c.literalLeaf(typ, typed, neg, t.pos)
	if err != nil {
		return nil, err
	}
	if err := c.expect(")"); err != nil {
		return nil, err
	}
	x.leaf.param = true
	if msg := paramLiteralProblem(&x.leaf, x.typ); msg != "" {
		return nil, c.errAt(pt.pos, "%s", msg)
	}
	x.pos, x.start = pt.pos, pt.pos
	return x, nil
}

func (c *srcCompiler) location(src Source, typ DataType, typed bool) (*expr, error) {
	name := c.take()
	c.take() // [
	nt := c.take()
	n, ok := parseUint(nt.text, math.MaxUint16)
	if nt.kind != tokNumber || !ok {
		return nil, c.errAt(nt.pos, "bad memory offset %s (want 0..0xffff)", describe(nt))
	}
	if err := c.expect("]"); err != nil {
		return nil, err
	}
	x := c.newExpr(expr{leaf: arg{mem: true, src: src, off: uint16(n)}, typ: typ, typed: typed, pos: name.pos})
	if !typed {
		switch src {
		case SrcInput:
			x.typ, x.typed = c.in, true
		case SrcOutput:
			x.typ, x.typed = c.out, true
		}
	}
	if c.is(".") {
		dot := c.take()
		ct := c.take()
		i := strings.Index("xyz", ct.text)
		switch {
		case ct.kind != tokIdent || len(ct.text) != 1 || i < 0:
			return nil, c.errAt(dot.pos, "bad vector component %s (want .x, .y or .z)", describe(ct))
		case src != SrcUserInput && src != SrcUserOutput || typed && typ != TypeFloat:
			return nil, c.errAt(dot.pos, "a vector component needs a float UserIn or UserOut location")
		case n > 0xff:
			return nil, c.errAt(nt.pos, "offset %#x too large for a component (max 0xff)", n)
		}
		x.leaf.off = uint16(n | 0x8000 | uint64(i*4)<<8)
		x.typ, x.typed = TypeFloat, true
	}
	return x, nil
}

// literalLeaf reads a literal. Untyped literals take their natural type: a
// whole number is int, a number with a point or exponent is float.
func (c *srcCompiler) literalLeaf(typ DataType, typed, neg bool, at int) (*expr, error) {
	t := c.take()
	x := c.newExpr(expr{typ: typ, typed: true, pos: at, start: at})
	sign := ""
	if neg {
		sign = "-"
	}
	switch {
	case t.kind == tokString:
		if typed && typ != TypeString || neg {
			return nil, c.errAt(at, "a string literal has type str")
		}
		s := t.text[1 : len(t.text)-1]
		if !t.plain || !c.utf8OK && !utf8.ValidString(s) {
			s, _, _ = unquotePrefix(t.text, c.utf8OK) // the lexer checked its form
		}
		x.leaf, x.typ = arg{kind: litStr, str: s}, TypeString
		return x, nil
	case t.kind == tokIdent && (t.text == "true" || t.text == "false"):
		if typed && typ != TypeBool || neg {
			return nil, c.errAt(at, "true and false have type bool")
		}
		x.leaf, x.typ = arg{kind: litBool, b: t.text == "true"}, TypeBool
		return x, nil
	case t.kind == tokPunct && t.text == "(" && typed && typ == TypeVec3f && !neg:
		var bits [3]uint32
		for i := range 3 {
			if i > 0 {
				if err := c.expect(","); err != nil {
					return nil, err
				}
			}
			ft := c.peek()
			e, err := c.unary()
			if err != nil {
				return nil, err
			}
			if !e.isLeaf() || e.leaf.kind != litFloat {
				return nil, c.errAt(ft.pos, "a vec3f component must be a float literal such as 1.0")
			}
			bits[i] = e.leaf.bits[0]
		}
		if err := c.expect(")"); err != nil {
			return nil, err
		}
		x.leaf, x.typ = arg{kind: litVec, bits: bits}, TypeVec3f
		return x, nil
	case t.kind == tokIdent && (t.text == "inf" || t.text == "nan"):
		if typed && typ != TypeFloat {
			return nil, c.errAt(at, "%s is a float", t.text)
		}
		var bits uint32
		if t.text == "inf" {
			bits = bitsOf(float32(math.Inf(1)))
			if neg {
				bits = bitsOf(float32(math.Inf(-1)))
			}
		} else {
			if neg {
				return nil, c.errAt(at, "write a NaN's sign in its bits: nan(0xffc00000)")
			}
			if err := c.expect("("); err != nil {
				return nil, err
			}
			nt := c.take()
			v, ok := parseUint(nt.text, math.MaxUint32)
			if nt.kind != tokNumber || !ok || f32(uint32(v)) == f32(uint32(v)) {
				return nil, c.errAt(nt.pos, "bad NaN bits %s (want the bits of a NaN, such as 0x7fc00000)", describe(nt))
			}
			if err := c.expect(")"); err != nil {
				return nil, err
			}
			bits = uint32(v)
		}
		x.leaf, x.typ = arg{kind: litFloat, bits: [3]uint32{bits}}, TypeFloat
		return x, nil
	case t.kind != tokNumber:
		if typed {
			return nil, c.errAt(t.pos, "expected a location or literal after the type, found %s", describe(t))
		}
		if t.kind == tokIdent {
			return nil, c.errAt(t.pos, "unknown name %q (locations are In, Out, GMem, LMem32, LMem64, UserIn and UserOut, written like GMem[0x8])", t.text)
		}
		return nil, c.errAt(t.pos, "expected a value, found %s", describe(t))
	}
	text := sign + t.text
	isFloat := !strings.HasPrefix(t.text, "0x") && !strings.HasPrefix(t.text, "0X") && strings.ContainsAny(t.text, ".eE")
	if !typed {
		typ = TypeInt
		if isFloat {
			typ = TypeFloat
		}
	}
	x.typ = typ
	switch typ {
	case TypeFloat:
		v, err := strconv.ParseFloat(text, 64)
		f := float32(v)
		if err != nil || math.IsInf(float64(f), 0) {
			return nil, c.errAt(at, "bad float literal %q", text)
		}
		x.leaf = arg{kind: litFloat, bits: [3]uint32{bitsOf(f)}}
		return x, nil
	case TypeInt, TypeUInt, TypeNone, TypeImm:
		if isFloat {
			return nil, c.errAt(at, "%s literal %q must be a whole number", typeWord(typ), text)
		}
		v, ok := parseUint(t.text, math.MaxUint32)
		switch {
		case !ok:
		case typ == TypeInt && (!neg && v <= math.MaxInt32 || neg && v <= math.MaxInt32+1):
			n := int64(v)
			if neg {
				n = -n
			}
			x.leaf = arg{kind: litNum, num: n}
			return x, nil
		case typ == TypeUInt && !neg:
			x.leaf = arg{kind: litNum, num: int64(v)}
			return x, nil
		case (typ == TypeNone || typ == TypeImm) && !neg && v <= math.MaxUint16:
			x.leaf = arg{kind: litNum, num: int64(v)}
			return x, nil
		}
		want := map[DataType]string{TypeInt: "a 32-bit signed integer; write uint N for larger", TypeUInt: "a 32-bit unsigned integer", TypeNone: "0..0xffff", TypeImm: "0..0xffff"}[typ]
		return nil, c.errAt(at, "bad %s literal %q (want %s)", typeWord(typ), text, want)
	}
	return nil, c.errAt(at, "a %s literal cannot be written as a number", typeWord(typ))
}

// assignment compiles "location = expression" into a store followed by one
// two-address instruction per operator (see README.md).
func (c *srcCompiler) assignment(e *emitter, p srcPos) error {
	start := c.peek()
	dst, err := c.unary()
	if err != nil {
		return err
	}
	if !dst.isLeaf() || !dst.leaf.mem {
		return c.errAt(start.pos, "expected a statement; an assignment's left side must be a location such as LMem32[0x0]")
	}
	if err := c.expect("="); err != nil {
		return err
	}
	rt := c.peek()
	if rt.kind == tokEOL {
		return c.errAt(rt.pos, "expected a value, found end of line")
	}
	rhs, err := c.expr(1, 0)
	if err != nil {
		return err
	}
	if err := c.expectEOL(); err != nil {
		return err
	}
	ss, err := c.chain(dst, rhs)
	if err != nil {
		return err
	}
	for _, s := range ss {
		e.emit(s, p)
	}
	return nil
}

// chainOp is one step of an assignment's left spine.
type chainOp struct {
	op  string // operator text
	rhs *expr  // binary operators only
}

// flatten splits an expression into its leftmost value and the operators
// applied to it in order. Each binary operator's right operand must be a
// single value, because a two-address instruction reads one operand.
func (c *srcCompiler) flatten(x *expr) (*expr, []chainOp, error) {
	ops := c.ops[:0]
	defer func() { c.ops = ops[:0] }()
	for !x.isLeaf() {
		if len(ops) == maxSourceStmts {
			// Each operation is an instruction: refused here, before a chain of millions is
			// built only for the block's count to refuse it (a 4 MB "1+1+..." allocated 5.5 GB).
			return nil, nil, c.errAt(x.start, "an assignment may hold at most %d operations", maxSourceStmts)
		}
		if x.kind == exprBinary {
			if !x.r.isLeaf() {
				return nil, nil, c.errAt(x.r.start, "the right operand of %s must be a single value (a location or literal); compute it into a location first", x.op)
			}
			ops = append(ops, chainOp{x.op, x.r})
		} else {
			ops = append(ops, chainOp{op: x.op})
		}
		x = x.l
	}
	for i, j := 0, len(ops)-1; i < j; i, j = i+1, j-1 {
		ops[i], ops[j] = ops[j], ops[i]
	}
	return x, ops, nil
}

// startType is the type an assignment starts with: the leftmost value's,
// else (a plain store) the destination's, else the first right operand's.
func startType(dst, l *expr, ops []chainOp) (DataType, bool) {
	switch {
	case l.typed:
		return l.typ, true
	case len(ops) == 0 && dst.typed:
		return dst.typ, true
	case len(ops) > 0 && ops[0].rhs != nil && ops[0].rhs.typed:
		return ops[0].rhs.typ, true
	case dst.typed:
		return dst.typ, true
	}
	return 0, false
}

// unaryOp is the opcode of a unary operator's text.
func unaryOp(text string) Opcode {
	switch text {
	case "-":
		return OpNegate
	case "!":
		return OpNegateBool
	case "inc":
		return OpIncrement
	}
	return OpDecrement
}

func isCompare(op Opcode) bool { return op >= OpLessThan && op <= OpNotEqual }

func (c *srcCompiler) chain(dst, rhs *expr) ([]stmt, error) {
	l, ops, err := c.flatten(rhs)
	if err != nil {
		return nil, err
	}
	a, ok := startType(dst, l, ops)
	if !ok {
		name, _ := memText(l.leaf.src, l.leaf.off, TypeNone)
		return nil, c.errAt(l.pos, "cannot tell the type of %s; write the type before it, such as int %s", name, name)
	}
	out := c.chainBuf[:0] // emitted by the caller before the next chain
	defer func() { c.chainBuf = out[:0] }()
	d := arg{mem: true, src: dst.leaf.src, off: dst.leaf.off}
	same := l.leaf.mem && l.leaf.src == d.src && l.leaf.off == d.off
	if len(ops) == 0 || !same {
		out = append(out, stmt{op: OpStore, typ: a, a: [2]arg{d, l.leaf}})
	}
	for _, o := range ops {
		if o.rhs == nil {
			out = append(out, stmt{op: unaryOp(o.op), typ: a, a: [2]arg{d}})
			continue
		}
		rt := a
		if o.rhs.typed {
			rt = o.rhs.typ
		}
		_, bop, _ := binOp(o.op)
		s := stmt{op: bop, typ: rt, a: [2]arg{d, o.rhs.leaf}}
		if (o.op == "*" || o.op == "/") && a == TypeVec3f && rt == TypeFloat {
			s.op, s.typ = OpScalarMultiplyVec3f, TypeVec3f
			if o.op == "/" {
				s.op = OpScalarDivideVec3f
			}
		}
		out = append(out, s)
		a = s.typ
		if isCompare(s.op) {
			a = TypeBool
		}
	}
	for i := range out {
		if _, ok := encodeType(out[i].typ, c.version); !ok {
			return nil, c.errAt(dst.pos, "type %s is not allowed in version %d", typeWord(out[i].typ), c.version)
		}
	}
	return out, nil
}
