package exb

import (
	"bytes"
	"errors"
	"slices"

	"strings"
	"testing"
)

// compileInto adds text (readable form) as a new function of m.
func compileInto(t *testing.T, m *Module, text string) {
	t.Helper()
	src, err := compileSource(text, m.Version, TypeNone, TypeNone)
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, text)
	}
	if err := m.replaceFunction(len(m.Functions), src); err != nil {
		t.Fatalf("install: %v\n%s", err, text)
	}
}

// sourceCase is a function in both forms: the listing it assembles from
// and the readable text the decompiler must show for it. Each direction is
// checked: listing -> readable, and readable -> the same bytes.
type sourceCase struct {
	name    string
	version uint32
	listing string // instruction lines of .main (after ".input/.output")
	source  string // statements after the .input/.output lines
	folded  bool
}

var sourceCases = []sourceCase{
	{"arithmetic", 3, `
STR float LMem32[0x0], float In[0x0]
MUL float LMem32[0x0], float 2.0
ADD float LMem32[0x0], float 0.75
STR float Out[0x0], float LMem32[0x0]
END`, `
LMem32[0x0] = In * 2.0 + 0.75
Out = LMem32[0x0]`, true},
	{"integer precedence", 3, `
STR int LMem32[0x0], int In[0x0]
SUB int LMem32[0x0], int 3
DIV int LMem32[0x0], int 2
MOD int LMem32[0x0], int 7
LSH int LMem32[0x0], int 1
RSH int LMem32[0x0], int 2
AND int LMem32[0x0], int 255
XOR int LMem32[0x0], int 5
ORR int LMem32[0x0], int 9
ADD int LMem32[0x0], int -70000
MUL int LMem32[0x0], int LMem32[0x4]
END`, `
LMem32[0x0] = (((In - 3) / 2 % 7 << 1 >> 2 & 255 ^ 5 | 9) + -70000) * LMem32[0x4]`, true},
	{"comparison and logic", 3, `
STR int LMem32[0x0], int In[0x0]
LST int LMem32[0x0], int 10
EQL bool LMem32[0x0], bool True
LAN bool LMem32[0x0], bool GMem[0x4]
LOR bool LMem32[0x0], bool False
NEQ bool LMem32[0x0], bool LMem32[0x8]
STR int LMem32[0x4], int In[0x0]
LTE int LMem32[0x4], int 20
STR int LMem32[0x8], int In[0x0]
GRT int LMem32[0x8], int 1
STR int LMem32[0xc], int In[0x0]
GTE int LMem32[0xc], int 2
STR bool Out[0x0], bool LMem32[0x0]
END`, `
LMem32[0x0] = (In < 10 == true && GMem[0x4] || false) != LMem32[0x8]
LMem32[0x4] = In <= 20
LMem32[0x8] = In > 1
LMem32[0xc] = In >= 2
Out = LMem32[0x0]`, true},
	{"unary", 3, `
STR int LMem32[0x0], int In[0x0]
NEG int LMem32[0x0]
DEC int LMem32[0x0]
INC int LMem32[0x0]
STR bool LMem32[0x4], bool True
NOT bool LMem32[0x4]
NOT bool LMem32[0x4]
STR int LMem32[0x8], int 3
NEG int LMem32[0x8]
END`, `
LMem32[0x0] = inc(dec(-In))
LMem32[0x4] = !(!(true))
LMem32[0x8] = -(3)`, true},
	{"operand kinds", 3, `
STR int GMem[0x0], int UserIn[0x3]
ADD int GMem[0x0], int LMem32[0x4]
STR str LMem64[0x0], str LMem64[0x8]
STR float UserOut[0x2].z, float UserIn[0x1].x
MUL float UserOut[0x2].z, float 3.0
STR uint LMem32[0x0], uint 4000000000
STR uint LMem32[0x4], uint 7
STR float Out[0x0], float -0.0
STR float Out[0x0], float nan(0x7fc00001)
STR float Out[0x0], float inf
STR float Out[0x0], float -inf
STR float Out[0x0], float 70000.0
STR float Out[0x0], float In[0x4]
END`, `
GMem[0x0] = int UserIn[0x3] + LMem32[0x4]
LMem64[0x0] = str LMem64[0x8]
UserOut[0x2].z = UserIn[0x1].x * 3.0
LMem32[0x0] = uint 4000000000
LMem32[0x4] = uint 7
Out = -0.0
Out = nan(0x7fc00001)
Out = inf
Out = -inf
Out = 70000.0
Out = In[0x4]`, true},
	{"vectors", 3, `
STR vec3f LMem32[0x0], vec3f In[0x0]
VMS vec3f LMem32[0x0], float 2.0
VDS vec3f LMem32[0x0], float GMem[0x0]
SUB vec3f LMem32[0x0], vec3f (0.5, -1.0, 0.0)
MUL vec3f LMem32[0x0], vec3f LMem32[0xc]
NEG vec3f LMem32[0x0]
STR vec3f Out[0x0], vec3f LMem32[0x0]
END`, `
LMem32[0x0] = -((In * 2.0 / float GMem[0x0] - vec3f(0.5, -1.0, 0.0)) * LMem32[0xc])
Out = LMem32[0x0]`, true},
	{"strings and calls", 3, `
CFN Actor.IsNamed(bool, str), GMem[0x18]
CFN int "no return type here", GMem[0x0]
STR str LMem64[0x0], str "Swim/探索\t\"q\""
STR str GMem[0x20], str "Stun"
NEQ str GMem[0x20], str GMem[0x18]
STR bool Out[0x0], bool GMem[0x20]
END`, `
call Actor.IsNamed(bool, str), GMem[0x18]
call int "no return type here", GMem[0x0]
LMem64[0x0] = "Swim/探索\t\"q\""
GMem[0x20] = "Stun" != GMem[0x18]
Out = GMem[0x20]`, true},
	{"branches", 3, `
STR bool LMem32[0x4], bool In[0x0]
JZE bool LMem32[0x4], 0x48
STR int LMem32[0x0], int 1
JZE GMem[0xc], 0x30
STR int LMem32[0x0], int 2
JMP 0x40
STR int LMem32[0x0], int 3
END
JMP 0x50
STR int LMem32[0x0], int 4
STR int Out[0x0], int LMem32[0x0]
END`, `
LMem32[0x4] = In
if (LMem32[0x4]) {
    LMem32[0x0] = 1
    if (none GMem[0xc]) {
        LMem32[0x0] = 2
    } else {
        LMem32[0x0] = 3
        return
    }
} else {
    LMem32[0x0] = 4
}
Out = LMem32[0x0]`, true},
	// Listing lines inside ifs: each run in an asm block of its own, at its if's depth.
	{"asm inside nested ifs", 3, `
STR bool LMem32[0x4], bool In[0x0]
JZE bool LMem32[0x4], 0x38
JZE GMem[0xc], 0x28
.raw 0100000000000001
.raw 0100000000000001
STR int LMem32[0x0], int 1
.raw 0100000000000001
STR int Out[0x0], int LMem32[0x0]
END`, `
LMem32[0x4] = bool In
if (LMem32[0x4]) {
    if (none GMem[0xc]) {
        asm {
            0x0018  .raw 0100000000000001 ; END
            0x0020  .raw 0100000000000001 ; END
        }
    }
    LMem32[0x0] = 1
    asm {
        0x0030  .raw 0100000000000001 ; END
    }
}
Out = LMem32[0x0]`, false},
	{"statement fallback", 3, `
STR int LMem32[0x0], int LMem32[0x0]
ADD int LMem32[0x0], int 1
ADD float LMem32[0x0], float 1.0
STR int Out[0x0], int LMem32[0x0]
END`, `
LMem32[0x0] = int LMem32[0x0]
LMem32[0x0] = LMem32[0x0] + 1 + 1.0
Out = LMem32[0x0]`, false},
	{"labels and gotos", 3, `
STR int LMem32[0x0], int 0
INC int LMem32[0x0]
STR int LMem32[0x4], int LMem32[0x0]
LST int LMem32[0x4], int 10
JZE bool LMem32[0x4], 0x30
JMP 0x8
STR int Out[0x0], int LMem32[0x0]
END`, `
LMem32[0x0] = 0
L1:
LMem32[0x0] = inc(int LMem32[0x0])
LMem32[0x4] = LMem32[0x0] < 10
goto L2 unless LMem32[0x4]
goto L1
L2:
Out = LMem32[0x0]`, false},
	{"raw block", 3, `
.raw 0100000000000001
STR int LMem32[0x0], int 5
END`, `
asm {
    0x0000  .raw 0100000000000001 ; END
}
LMem32[0x0] = 5`, false},
	{"no terminator", 3, `
STR int Out[0x0], int 5`, `
Out = 5
noend`, true},
	{"version 1 literals", 1, `
STR float Out[0x0], float 2.0
END`, `
Out = 2.0`, true},
	// Literals the value rule would store in the instruction, in the param table (as the
	// games' own files have them), beside the same values stored in the instruction.
	{"param table literals", 3, `
STR float GMem[0x0], float param(2.0)
MUL float GMem[0x0], float param(0.0)
GRT float GMem[0x0], float param(90.0)
STR bool LMem32[0x0], bool param(True)
STR int LMem32[0x4], int param(7)
ADD int LMem32[0x4], int 7
STR uint LMem32[0x8], uint param(5)
STR str LMem64[0x0], str param("x")
EQL str LMem64[0x0], str "x"
STR float GMem[0x4], float 2.0
END`, `
GMem[0x0] = param(2.0) * param(0.0) > param(90.0)
LMem32[0x0] = param(true)
LMem32[0x4] = param(7) + 7
LMem32[0x8] = uint param(5)
LMem64[0x0] = param("x") == "x"
GMem[0x4] = 2.0`, true},
	{"imm and none types", 3, `
STR imm LMem32[0x0], imm 5
ADD imm LMem32[0x0], imm In[0x0]
STR LMem32[0x4], 7
END`, `
LMem32[0x0] = imm 5 + imm In
LMem32[0x4] = none 7`, true},
}

// longPoolCase has a string past the first 64 KiB of the string pool, which an instruction
// cannot address itself: it refers to a param entry holding the string's offset
// (SrcParamString). The text is the same as for any string. It is kept out of sourceCases,
// whose texts seed FuzzCompile, so the fuzzer does not mutate a 64 KiB input.
func longPoolCase() sourceCase {
	long := strings.Repeat("a", 65536)
	return sourceCase{"string past 64 KiB", 3, `
STR str LMem64[0x0], str "` + long + `"
STR str LMem64[0x8], str "b"
EQL str LMem64[0x8], str "c"
END`, `
LMem64[0x0] = "` + long + `"
LMem64[0x8] = "b" == "c"`, true}
}

func TestSourceCases(t *testing.T) {
	for _, tc := range append(slices.Clone(sourceCases), longPoolCase()) {
		t.Run(tc.name, func(t *testing.T) {
			header := ".input INT\n.output INT\n"
			switch tc.name {
			case "arithmetic", "version 1 literals":
				header = ".input FLOAT\n.output FLOAT\n"
			case "vectors":
				header = ".input VECTOR3F\n.output VECTOR3F\n"
			case "strings and calls", "comparison and logic":
				header = ".input INT\n.output BOOL\n"
			case "operand kinds":
				header = ".input FLOAT\n.output FLOAT\n"
			case "branches":
				header = ".input BOOL\n.output INT\n"
			}
			asm := &Module{Version: tc.version}
			if _, err := asm.AppendFunction(header + ".main\n" + strings.TrimPrefix(tc.listing, "\n") + "\n"); err != nil {
				t.Fatal(err)
			}
			c, _ := asm.newDecodeCtx()
			got, folded, err := asm.functionSource(c, newLookup(c, &asm.Params), 0, asm.textLimit(), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := header + strings.TrimPrefix(tc.source, "\n") + "\n"
			if got != want {
				t.Errorf("decompiled:\n%s\nwant:\n%s", got, want)
			}
			if folded != tc.folded {
				t.Errorf("folded = %v, want %v", folded, tc.folded)
			}
			src := &Module{Version: tc.version}
			compileInto(t, src, got)
			a, _ := asm.AppendBinary(nil)
			b, err := src.AppendBinary(nil)
			if err != nil || !bytes.Equal(a, b) {
				ta, _ := asm.FunctionText(0)
				tb, _ := src.FunctionText(0)
				t.Errorf("compiled text differs (%v):\n%s\nwant:\n%s", err, tb, ta)
			}
		})
	}
}

// Compile errors name the line and column of what is wrong.
func TestSourceErrors(t *testing.T) {
	for _, tt := range []struct {
		version uint32
		text    string
		want    string
	}{
		{3, "LMem32[0x0] = 1 +", "line 1:18: expected a value, found end of line"},
		{3, "LMem32[0x0] =", "line 1:14: expected a value, found end of line"},
		{3, "LMem32[0x0] = GMem[0x4]", "line 1:15: cannot tell the type of GMem[0x4]; write the type before it, such as int GMem[0x4]"},
		{3, "LMem32[0x0] = 1 + (2 * 3)", "line 1:19: the right operand of + must be a single value (a location or literal); compute it into a location first"},
		{3, "LMem32[0x0] = 1 + -In", "line 1:19: the right operand of + must be a single value (a location or literal); compute it into a location first"},
		{3, "5 = In", "line 1:1: expected a statement; an assignment's left side must be a location such as LMem32[0x0]"},
		{3, "\nif (In) {\nOut = 1", "line 3:8: missing }"},
		{3, "if (In + 1) {\n}", "line 1:5: a condition must be a single value (a location or literal); compute it into a location first"},
		{3, "Out = 1\n  goto nowhere", "line 2:8: undefined label nowhere"},
		{3, "L1:\nL1:", "line 2:1: label L1 defined twice"},
		{3, "LMem32[0x0] = 2147483648", `line 1:15: bad int literal "2147483648" (want a 32-bit signed integer; write uint N for larger)`},
		{3, "LMem32[0x0] = uint -1", `line 1:20: bad uint literal "-1" (want a 32-bit unsigned integer)`},
		{3, `LMem64[0x0] = "open`, "line 1:15: bad string literal (want a double-quoted string with Go escapes)"},
		{3, "LMem32[0x0] = Foo", `line 1:15: unknown name "Foo" (locations are In, Out, GMem, LMem32, LMem64, UserIn and UserOut, written like GMem[0x8])`},
		{3, "UserIn[0x0].w = 1.0", `line 1:12: bad vector component "w" (want .x, .y or .z)`},
		{3, "GMem[0x0].x = 1.0", "line 1:10: a vector component needs a float UserIn or UserOut location"},
		{3, "GMem[0x10000] = 1", `line 1:6: bad memory offset "0x10000" (want 0..0xffff)`},
		{3, "LMem32[0x0] = 1 $", `line 1:17: unexpected "$" at the end of the statement`},
		{3, "LMem32[0x0] = vec3f(1.0, 2)", "line 1:26: a vec3f component must be a float literal such as 1.0"},
		{3, "asm {\n  STR int LMem32[0x0], int 1\n  FOO\n}", `line 3:3: unknown opcode "FOO"`},
		{3, "asm {\n  END", "line 1:5: asm { has no closing } line"},
		{3, ".input FOO", `line 1:8: unknown type "FOO" (want NONE, IMM, BOOL, INT, UINT, FLOAT, STRING or VECTOR3F)`},
		{3, "Out = 1\n.input INT", "line 2:1: directives must come before the first statement"},
		{3, ".bogus", "line 1:2: unknown directive .bogus (want .input, .output or .memory)"},
		{3, "noend\nOut = 1", "line 2:1: noend must be the last statement of its block (line 1)"},
		{2, "LMem32[0x0] = uint 1", "line 1:1: type uint is not allowed in version 2"},
		{3, "}", "line 1:1: unexpected }"},
		{3, "call Mystery, GMem[0x0]", `line 1:6: cannot tell the return type of signature "Mystery"; write CFN <type> "signature", GMem[offset]`},
		{3, "Out = 1\nsetup {\n}", "line 2:1: setup { } must come once, before the main statements"},
		{3, "if (In) {\n} else {\n} else {", "line 3:1: an else block cannot have another else"},
		{3, "Out = nan(0x3f800000)", `line 1:11: bad NaN bits "0x3f800000" (want the bits of a NaN, such as 0x7fc00000)`},
		{3, "Out = 1e39", `line 1:7: bad float literal "1e39"`},
		{3, "Out = param(param(1))", "line 1:13: param( ) inside param( )"},
		{3, "LMem32[0x0] = vec3f param((1.0, 2.0, 3.0))", "line 1:21: a vec3f literal always lives in the param table; write it without param( )"},
		{3, "LMem32[0x0] = param(vec3f(1.0, 2.0, 3.0))", "line 1:15: a vec3f literal always lives in the param table; write it without param( )"},
		{3, "LMem32[0x0] = param(float 2.0)", "line 1:21: write the type before param( ), as in float param(2.0)"},
		{3, "LMem32[0x0] = none param(5)", "line 1:20: a none literal cannot live in the param table (bool, int, uint, float and str literals can)"},
		{3, "Out = param(In)", `line 1:13: param( ) holds a literal such as 2.0, not "In"`},
		{3, "Out = param(1", `line 1:14: expected ")", found end of line`},
		{3, "Out = param(-1.5 + 2.0)", `line 1:18: expected ")", found "+"`},
	} {
		m := &Module{Version: tt.version}
		compileInto(t, m, ".input INT\n.output INT\nOut = 0\n")
		before, _ := m.AppendBinary(nil)
		err := m.SetFunctionSource(0, tt.text)
		var se *SyntaxError
		if err == nil || !errors.As(err, &se) || err.Error() != tt.want {
			t.Errorf("%q:\n got %v\nwant %s", tt.text, err, tt.want)
		}
		if after, _ := m.AppendBinary(nil); !bytes.Equal(before, after) {
			t.Errorf("%q: a failed edit changed the module", tt.text)
		}
	}
}

// Two functions may share one block (a fuzzer found it): setting one's own
// text keeps every byte, and editing it gives it a block of its own at the
// table's end without touching the other.
func TestSharedBlocks(t *testing.T) {
	m := &Module{Version: 3}
	compileInto(t, m, ".input INT\n.output INT\nOut = In + 1\n")
	compileInto(t, m, ".input INT\n.output INT\nOut = 2\n")
	m.Functions[1].Main = m.Functions[0].Main
	if err := m.RecomputeMemory(); err != nil {
		t.Fatal(err)
	}
	orig, err := m.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	text, err := m.FunctionSource(1)
	if err != nil || text != ".input INT\n.output INT\nOut = In + 1\n" {
		t.Fatalf("%q, %v", text, err)
	}
	if err := m.SetFunctionSource(1, text); err != nil {
		t.Fatal(err)
	}
	if out, _ := m.AppendBinary(nil); !bytes.Equal(out, orig) {
		t.Fatal("setting a shared function's own text changed the bytes")
	}
	f0 := m.Functions[0]
	n := len(m.Instructions)
	if err := m.SetFunctionSource(1, "Out = In - 1\n"); err != nil {
		t.Fatal(err)
	}
	if m.Functions[0] != f0 || m.Functions[1].Main != (Block{Base: int32(n), Count: 3}) || len(m.Instructions) != n+3 {
		t.Fatalf("functions %+v, %d instructions (had %d)", m.Functions, len(m.Instructions), n)
	}
	for i, want := range []string{".input INT\n.output INT\nOut = In + 1\n", ".input INT\n.output INT\nOut = In - 1\n"} {
		if got, _ := m.FunctionSource(i); got != want {
			t.Errorf("function %d: %q, want %q", i, got, want)
		}
	}
}

// An absent setup block may be stored with a count (a fuzzer found it); a
// function's own text keeps it, and so its bytes.
func TestAbsentSetupKeepsCount(t *testing.T) {
	m := &Module{Version: 3}
	compileInto(t, m, ".input INT\n.output INT\nOut = In\n")
	m.Functions[0].Setup = Block{Base: -1, Count: 795112033}
	orig, err := m.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := m.FunctionSource(0)
	if err := m.SetFunctionSource(0, text); err != nil {
		t.Fatal(err)
	}
	if out, _ := m.AppendBinary(nil); !bytes.Equal(out, orig) {
		t.Fatalf("bytes changed: setup now %+v", m.Functions[0].Setup)
	}
}

// AssembleSources names the function and the line and column of an error.
func TestAssembleSourcesErrors(t *testing.T) {
	_, err := AssembleSources(3, []string{"Out = 1\n", "Out = 2\nOut = (1\n"})
	var fe *FunctionError
	var se *SyntaxError
	want := `exb: function 1: line 2:9: expected ")", found end of line`
	if err == nil || err.Error() != want || !errors.As(err, &fe) || fe.Function != 1 || !errors.As(err, &se) || se.Line != 2 || se.Col != 9 {
		t.Fatalf("got %v, want %s", err, want)
	}
	if _, err := AssembleSources(4, nil); err == nil || err.Error() != "exb: unsupported version 4 (want 1, 2 or 3)" {
		t.Fatalf("version 4: %v", err)
	}
}

// A present but empty setup block (a fuzzer found one) reads as "setup { noend }" and
// keeps its bytes.
func TestEmptySetupBlock(t *testing.T) {
	m := &Module{Version: 3}
	compileInto(t, m, ".input INT\n.output INT\nOut = In\n")
	m.Functions[0].Setup = Block{Base: 1, Count: 0}
	orig, err := m.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	text, err := m.FunctionSource(0)
	if want := ".input INT\n.output INT\nsetup {\n    noend\n}\nOut = In\n"; err != nil || text != want {
		t.Fatalf("%q (%v), want %q", text, err, want)
	}
	if err := m.SetFunctionSource(0, text); err != nil {
		t.Fatal(err)
	}
	if out, _ := m.AppendBinary(nil); !bytes.Equal(out, orig) {
		t.Fatalf("bytes changed: setup now %+v", m.Functions[0].Setup)
	}
}

// A version 1 block may run to the end of the instruction table without an END (a fuzzer
// found one): its own text keeps it, while changed code must end in END.
func TestVersion1BlockWithoutEnd(t *testing.T) {
	m := &Module{Version: 1}
	compileInto(t, m, ".input INT\n.output INT\nOut = In\n")
	m.Instructions = m.Instructions[:1]
	m.Functions[0].Main.Count = 1
	orig, err := m.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Read(orig)
	if err != nil {
		t.Fatal(err)
	}
	text, err := back.FunctionSource(0)
	if want := ".input INT\n.output INT\nOut = In\nnoend\n"; err != nil || text != want {
		t.Fatalf("%q (%v), want %q", text, err, want)
	}
	if err := back.SetFunctionSource(0, text); err != nil {
		t.Fatal(err)
	}
	if out, _ := back.AppendBinary(nil); !bytes.Equal(out, orig) {
		t.Fatal("bytes changed")
	}
	err = back.SetFunctionSource(0, "Out = 1\nnoend\n")
	if want := "line 1: in version 1 a block ends at its first END, so END must be its last instruction and only there"; err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

// Stored memory sizes that differ from what the instructions use are kept by a .memory
// line; without one an edit computes them, and the header follows when it held the
// functions' maximum and sums.
func TestMemoryDirective(t *testing.T) {
	m := &Module{Version: 3}
	compileInto(t, m, ".input INT\n.output INT\nOut = In\n")
	compileInto(t, m, ".input INT\n.output INT\nLMem32[0x4] = 1\n")
	m.Functions[0].StaticSize = 0x20
	m.Header.StaticSize = 0x20
	orig, err := m.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	text, err := m.FunctionSource(0)
	if want := ".input INT\n.output INT\n.memory static=0x20 scratch32=0x0 scratch64=0x0\nOut = In\n"; err != nil || text != want {
		t.Fatalf("%q (%v), want %q", text, err, want)
	}
	if err := m.SetFunctionSource(0, text); err != nil {
		t.Fatal(err)
	}
	if out, _ := m.AppendBinary(nil); !bytes.Equal(out, orig) {
		t.Fatal("bytes changed")
	}
	if err := m.SetFunctionSource(0, "GMem[0x8] = In\n"); err != nil {
		t.Fatal(err)
	}
	if f, h := m.Functions[0], m.Header; f.StaticSize != 0xc || h.StaticSize != 0xc || h.Scratch32Size != 8 {
		t.Fatalf("function %+v, header %+v", f, h)
	}
}

// An instruction in an asm block that refers to a table entry the module cannot hold is
// reported at its line and column.
func TestAsmEncodeError(t *testing.T) {
	m := &Module{Version: 3}
	compileInto(t, m, ".input INT\n.output INT\nOut = 0\n")
	m.Strings = StringPool{Strings: []string{"x"}, Unterminated: true}
	err := m.SetFunctionSource(0, "asm {\n    STR str LMem64[0x0], str \"new\"\n}\n")
	want := `line 2:5: string "new" is new, and the string pool's last string has no terminator to add after`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}
