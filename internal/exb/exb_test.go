package exb

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math"
	"strings"
	"testing"
)

// testModule returns a module with tables the instruction tests refer to:
//
//	params: 0x0 int 70000, 0x4 float 0.75, 0x8 vec3f (1, 2, 3),
//	        0x14 str "Attack", 0x18 int -5, 0x1c uint 70000 (v3 only matters)
//	strings: 0x0 "Attack", 0x7 "Actor.IsNamed(bool, str)"
//	signature 0: "Actor.IsNamed(bool, str)"
func testModule(version uint32) *Module {
	return &Module{
		Version:    version,
		Signatures: []uint32{7},
		Params: ParamTable{Entries: []Param{
			{Kind: ParamInt, Bits: [3]uint32{70000}},
			{Kind: ParamFloat, Bits: [3]uint32{math.Float32bits(0.75)}},
			{Kind: ParamVec3f, Bits: [3]uint32{math.Float32bits(1), math.Float32bits(2), math.Float32bits(3)}},
			{Kind: ParamString, Bits: [3]uint32{0}},
			{Kind: ParamInt, Bits: [3]uint32{uint32(0xFFFFFFFB)}},
			// Values the value rule would store in the instruction, in the param table as
			// the games' own files have them.
			{Kind: ParamFloat, Bits: [3]uint32{math.Float32bits(2)}},
			{Kind: ParamBool, Bits: [3]uint32{1}},
			{Kind: ParamInt, Bits: [3]uint32{7}},
		}},
		Strings: StringPool{Strings: []string{"Attack", "Actor.IsNamed(bool, str)"}},
	}
}

var instructionTests = []struct {
	version uint32
	hex     string
	compat  string // the reference tool's text
	own     string // the listing / function-text syntax
	exact   bool   // own text assembles back to the same bytes
}{
	{2, "0203070600000000", "STR int LMem32[0x0], int In[0x0]", "STR int LMem32[0x0], int In[0x0]", true},
	{2, "0503070000000300", "ADD int LMem32[0x0], int 3", "ADD int LMem32[0x0], int 3", true},
	{2, "0703070300000000", "MUL int LMem32[0x0], int 70000", "MUL int LMem32[0x0], int 70000", true},
	{2, "0503070300001800", "ADD int LMem32[0x0], int -5", "ADD int LMem32[0x0], int -5", true},
	{2, "0704070000000200", "MUL float LMem32[0x0], float 2.0", "MUL float LMem32[0x0], float 2.0", true},
	{3, "0705070000000200", "MUL float LMem32[0x0], float 2.0", "MUL float LMem32[0x0], float 2.0", true},
	{1, "0504070300000400", "ADD float LMem32[0x0], float 0.75", "ADD float LMem32[0x0], float 0.75", true},
	{2, "0506070300000800", "ADD vec3f LMem32[0x0], vec3f (1.0, 2.0, 3.0)", "ADD vec3f LMem32[0x0], vec3f (1.0, 2.0, 3.0)", true},
	{3, "0207070300000800", "STR vec3f LMem32[0x0], vec3f (1.0, 2.0, 3.0)", "STR vec3f LMem32[0x0], vec3f (1.0, 2.0, 3.0)", true},
	{3, "0204070300000000", "STR uint LMem32[0x0], uint 70000", "STR uint LMem32[0x0], uint 70000", true},
	{2, "1405080100000000", `EQL str LMem64[0x0], str "Attack"`, `EQL str LMem64[0x0], str "Attack"`, true},
	// A string whose pool offset fits the instruction, stored through the param table.
	{2, "0205080400001400", `STR str LMem64[0x0], str "Attack"`, `STR str LMem64[0x0], str param("Attack")`, true},
	// Literals the value rule puts in the instruction, found in the param table.
	{2, "0704070300001c00", "MUL float LMem32[0x0], float 2.0", "MUL float LMem32[0x0], float param(2.0)", true},
	{3, "0202070300002000", "STR bool LMem32[0x0], bool True", "STR bool LMem32[0x0], bool param(True)", true},
	{2, "0503070300002400", "ADD int LMem32[0x0], int 7", "ADD int LMem32[0x0], int param(7)", true},
	// The value rule still decides a literal without param( ): 2.0 is stored in the
	// instruction although the table holds it.
	{2, "0704070000000200", "MUL float LMem32[0x0], float 2.0", "MUL float LMem32[0x0], float 2.0", true},
	// A version 1 float is always in the param table: no param( ) is needed.
	{1, "0704070300001c00", "MUL float LMem32[0x0], float 2.0", "MUL float LMem32[0x0], float 2.0", true},
	{2, "1b02080000000000", "CFN Actor.IsNamed(bool, str), GMem[0x8]", "CFN Actor.IsNamed(bool, str), GMem[0x8]", true},
	{2, "1b03080000000000", "CFN Actor.IsNamed(bool, str), GMem[0x8]", `CFN int "Actor.IsNamed(bool, str)", GMem[0x8]`, true},
	{2, "1c02070000000800", "JZE bool LMem32[0x0], 0x40", "JZE bool LMem32[0x0], 0x40", true},
	{2, "1c00020000000c00", "JZE GMem[0x0], 0x60", "JZE GMem[0x0], 0x60", true},
	{2, "1d00000000000900", "JMP 0x48", "JMP 0x48", true},
	{2, "0100000000000000", "END", "END", true},
	{2, "0a03070000000000", "INC int LMem32[0x0]", "INC int LMem32[0x0]", true},
	{2, "0b03070000000000", "DEC int LMem32[0x0]", "DEC int LMem32[0x0]", true},
	{2, "0402050000000000", "NOT bool Out[0x0]", "NOT bool Out[0x0]", true},
	{2, "0202070000000100", "STR bool LMem32[0x0], bool True", "STR bool LMem32[0x0], bool True", true},
	{2, "0204090a00000584", "STR float UserOut[0x0], float UserIn[0x5].y", "STR float UserOut[0x0], float UserIn[0x5].y", true},
	{2, "0c06070000000300", "VMS vec3f LMem32[0x0], float 3.0", "VMS vec3f LMem32[0x0], float 3.0", true},
	{2, "0d06070200000c00", "VDS vec3f LMem32[0x0], float GMem[0xc]", "VDS vec3f LMem32[0x0], float GMem[0xc]", true},
	{2, "0203070000000080", "STR int LMem32[0x0], int 32768", "STR int LMem32[0x0], int 32768", true},
	// Only the raw form can carry these.
	{2, "0100000000000001", "END", ".raw 0100000000000001", true},
	{2, "0205070000000300", "", ".raw 0205070000000300", true},                        // an immediate string value
	{2, "0204090a00000583", "", "STR float UserOut[0x0], float UserIn[0x8305]", true}, // component offset 3
}

func TestInstructions(t *testing.T) {
	for _, tt := range instructionTests {
		m := testModule(tt.version)
		raw, _ := hex.DecodeString(tt.hex)
		var in Instruction
		if err := decodeInstruction(&in, raw, tt.version); err != nil {
			t.Errorf("%s: decode: %v", tt.hex, err)
			continue
		}
		c, err := m.newDecodeCtx()
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.compatText(&in)
		if tt.compat == "" {
			if err == nil {
				t.Errorf("%s: compat text %q, want an error", tt.hex, got)
			}
		} else if err != nil || got != tt.compat {
			t.Errorf("%s: compat text %q (err %v), want %q", tt.hex, got, err, tt.compat)
		}
		lk := newLookup(c, &m.Params)
		line, err := listingLine(c, lk, &in, tt.version)
		if tt.exact && (err != nil || strings.TrimSpace(strings.Split(line, ";")[0]) != tt.own) {
			t.Errorf("%s: listing text %q (err %v), want %q", tt.hex, line, err, tt.own)
		}
		s := c.decode(&in)
		if own := s.text(tt.version); own != tt.own {
			t.Errorf("%s: text %q, want %q", tt.hex, own, tt.own)
		}
		back, err := parseInstruction(tt.own, 1, tt.version)
		if err != nil {
			t.Errorf("%q: %v", tt.own, err)
			continue
		}
		enc, err := encode(&back, tt.version, lk)
		if err != nil {
			t.Errorf("%q: encode: %v", tt.own, err)
			continue
		}
		b, _ := enc.Bytes(tt.version)
		if tt.exact != bytes.Equal(b[:], raw) {
			t.Errorf("%q assembled to %x, want %s (exact=%v)", tt.own, b, tt.hex, tt.exact)
		}
	}
}

// section assembles function texts into a fresh module of the version.
func section(t *testing.T, version uint32, texts ...string) *Module {
	t.Helper()
	m := &Module{Version: version}
	for _, text := range texts {
		if _, err := m.AppendFunction(text); err != nil {
			t.Fatalf("AppendFunction: %v\n%s", err, text)
		}
	}
	return m
}

func TestFunctionTextErrors(t *testing.T) {
	base := ".input INT\n.output INT\n.main\n"
	for _, tt := range []struct {
		version uint32
		text    string
		want    string
	}{
		{2, base + "ADX int LMem32[0x0], int 1\nEND\n", `line 4:1: unknown opcode "ADX"`},
		{2, base + "0x0000  ADX int LMem32[0x0], int 1\n", `line 4:9: unknown opcode "ADX"`},
		{2, base + "STR int LMem32[0x0], float 1.0\n", "line 4:22: second operand has type float, STR needs int"},
		{2, base + "STR int Foo[0x0], int 1\n", `line 4:9: unknown memory "Foo" (want GMem, In, Out, LMem32, LMem64, UserIn or UserOut)`},
		{2, base + "JMP 0x41\n", "line 4:5: jump address 0x41 is not a multiple of 8"},
		{2, base + "STR bool LMem32[0x0], bool maybe\n", `line 4:28: bad bool literal "maybe" (want True or False)`},
		{2, base + "STR int LMem32[0x10000], int 1\n", `line 4:16: bad memory offset "0x10000" (want 0..0xffff)`},
		{2, base + "STR int LMem32[0x0], int 2147483648\n", `line 4:26: bad int literal "2147483648" (want a 32-bit signed integer)`},
		{2, base + "STR int LMem32[0x0] int 1\n", `line 4:21: expected ',', found 'i'`},
		{2, base + "END extra\n", `line 4:5: unexpected 'e' after the instruction`},
		{2, base + "STR str LMem64[0x0], str \"open\n", "line 4:26: bad string literal (want a double-quoted string with Go escapes)"},
		{2, base + "STR float UserIn[0x0].w, float 1.0\n", `line 4:22: bad vector component "w" (want .x, .y or .z)`},
		{2, base + "STR int LMem32[0x0].x, int 1\n", "line 4:20: a vector component needs a float UserIn or UserOut operand"},
		{2, base + "CFN Mystery, GMem[0x0]\n", `line 4:5: cannot tell the return type of signature "Mystery"; write CFN <type> "signature", GMem[offset]`},
		{2, base + "CFN Foo(int)\n", `line 4:5: CFN needs a signature and ", GMem[offset]"`},
		{2, base + ".raw 0100\n", "line 4:1: .raw needs exactly 8 bytes in hex"},
		{2, base + ".raw 3f00000000000000\n", "line 4:1: .raw: unknown opcode op(0x3f)"},
		{2, base + "STR uint LMem32[0x0], uint 1\n", "line 4:1: type uint is not allowed in version 2"},
		{2, ".input INT\n.output INT\nEND\n", "line 3:1: instruction before .setup or .main"},
		{2, ".input INT\n.output INT\n", "line 2: missing .main block"},
		{2, ".input FOO\n.main\nEND\n", `line 1:8: unknown type "FOO"`},
		{2, ".input INT\n.main\n.main\nEND\n", "line 3:1: second .main block"},
		{2, ".bogus\n.main\nEND\n", `line 1:1: unknown directive ".bogus" (want .input, .output, .setup or .main)`},
		{1, base + "STR int LMem32[0x0], int 1\n", "line 4: in version 1 a block ends at its first END, so END must be its last instruction and only there"},
		{1, base + "END\nEND\n", "line 5: in version 1 a block ends at its first END, so END must be its last instruction and only there"},
		{2, base + "STR int LMem32[0x0], int 1 ; fine\n  \n\tJMP\n", "line 6:5: expected jump address, found end of line"},
		{2, base + "STR float LMem32[0x0], float param(param(1.0))\n", "line 4:36: param( ) inside param( )"},
		{2, base + "STR vec3f LMem32[0x0], vec3f param((1.0, 2.0, 3.0))\n", "line 4:30: a vec3f literal always lives in the param table; write it without param( )"},
		{2, base + "STR LMem32[0x0], param(5)\n", "line 4:18: a none literal cannot live in the param table (bool, int, uint, float and str literals can)"},
		{2, base + "STR float LMem32[0x0], float param(1.0\n", "line 4:39: expected ')', found end of line"},
		{2, base + "STR float LMem32[0x0], float param(GMem[0x0])\n", "line 4:36: param( ) holds a literal such as 2.0, not a location"},
	} {
		m := section(t, tt.version, ".input INT\n.output INT\n.main\nEND\n")
		before, _ := m.AppendBinary(nil)
		err := m.SetFunctionText(0, tt.text)
		var se *SyntaxError
		if err == nil || !errors.As(err, &se) || err.Error() != tt.want {
			t.Errorf("SetFunctionText(%q):\n got %v\nwant %s", tt.text, err, tt.want)
		}
		if after, _ := m.AppendBinary(nil); !bytes.Equal(before, after) {
			t.Errorf("failed SetFunctionText changed the module")
		}
	}
}

func TestListingErrors(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"", "line 1: missing .version"},
		{".header static=0\n", "line 1:1: .version must come first"},
		{".version 4\n", `line 1:10: unsupported version "4" (want 1, 2 or 3)`},
		{".version 2\n.version 2\n", "line 2:1: second .version (first at line 1)"},
		{".version 2\n.frobnicate\n", `line 2:1: unknown directive ".frobnicate"`},
		{".version 2\n.header static=0 instances=0 scratch32=0\n", "line 2:41: missing scratch64="},
		{".version 2\n.header static=0 instances=x scratch32=0 scratch64=0\n", `line 2:28: bad value "x" for instances`},
		{".version 2\n.function 1 input=INT\n", `line 2:11: function index "1" out of sequence (want 0)`},
		{".version 2\n.signature \"Nope(int)\"\n", `line 2: signature "Nope(int)" is not in the string pool (add a .string line)`},
		{".version 2\n.code\nSTR str LMem64[0x0], str \"x\"\n", `line 3: string "x" is not in the string pool (add a .string line)`},
		{".version 2\n.code\nMUL int LMem32[0x0], int 70000\n", "line 3: no .param entry holds int 70000"},
		{".version 2\n.code\nMUL float LMem32[0x0], float param(2.0)\n", "line 3: no .param entry holds float 2.0"},
		{".version 2\n.param int 1\n.code\nSTR bool LMem32[0x0], bool param(True)\n", "line 4: no .param entry holds bool True"},
		{".version 2\n.function 0 input=INT output=INT static=0 scratch32=0 scratch64=0 main=0,2 setup=none\n.code\nEND\n",
			"line 2: main block of function 0 lies outside the 1 instructions"},
		{".version 2\n.string \"a\" noterm\n.string \"b\"\n", "line 3:1: a string follows the unterminated one at line 2"},
		{".version 2\nEND\n", "line 2:1: expected a directive before .code"},
		{".version 2\n.param word 5\n", `line 2:8: unknown param kind "word" (want int, uint, bool, float, vec3f, str or bytes)`},
	} {
		_, err := ParseListing(tt.text)
		if err == nil || err.Error() != tt.want {
			t.Errorf("ParseListing(%q):\n got %v\nwant %s", tt.text, err, tt.want)
		}
	}
}

func TestCompatErrors(t *testing.T) {
	c := &Compat{Version: 2, Expressions: []CompatExpression{{InputType: "INT", OutputType: "INT", Main: []string{
		"0x0000    STR int LMem32[0x0], int In[0x0]",
		"0x0008    ADX int LMem32[0x0], int 3",
	}}}}
	_, err := FromCompat(c)
	if want := `exb: expression 0: Main line 2:11: unknown opcode "ADX"`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	c.Expressions[0].Main = []string{"0x0000    STR int LMem32[0x0], int In[0x0]"}
	_, err = FromCompat(&Compat{Version: 1, Expressions: c.Expressions})
	if want := "exb: function 0: main instruction 0: in version 1 a block ends at its first END, so END must be its last instruction and only there"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	c.Expressions[0].InputType = "INTEGER"
	if _, err := FromCompat(c); err == nil || err.Error() != `exb: expression 0: unknown input type "INTEGER"` {
		t.Errorf("got %v", err)
	}
}

func TestCompatSyntax(t *testing.T) {
	// Strings in the compat syntax are not escaped, so commas and quotes
	// inside them must still come back.
	c := &Compat{Version: 3, Expressions: []CompatExpression{{InputType: "NONE", OutputType: "BOOL", Setup: []string{
		`0x0000    STR str GMem[0x0], str "a, "b", c"`,
		"0x0008    END",
	}, Main: []string{
		`0x0000    EQL str GMem[0x0], str "x,y"`,
		"0x0008    STR uint LMem32[0x0], uint 4000000000",
		"0x0010    STR float LMem32[0x4], float 3.0517578125e-05",
		"0x0018    STR float LMem32[0x4], float -0.0",
		"0x0020    STR vec3f LMem32[0x8], vec3f (1.5, -2.0, 3.25)",
		"0x0028    STR int LMem32[0x0], int -70000",
		"0x0030    STR bool Out[0x0], bool GMem[0x0]",
		"0x0038    END",
	}}}}
	m, err := FromCompat(c)
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := Read(b)
	if err != nil {
		t.Fatal(err)
	}
	back, err := m2.Compat()
	if err != nil {
		t.Fatal(err)
	}
	got, want := back.Expressions[0], c.Expressions[0]
	if strings.Join(got.Setup, "\n") != strings.Join(want.Setup, "\n") || strings.Join(got.Main, "\n") != strings.Join(want.Main, "\n") {
		t.Errorf("compat round trip:\n%q\n%q\nwant\n%q\n%q", got.Setup, got.Main, want.Setup, want.Main)
	}
	// Canonical layout: main block first, then setup.
	if f := m2.Functions[0]; f.Main.Base != 0 || f.Setup.Base != int32(f.Main.Count) {
		t.Errorf("blocks laid out as %+v", f)
	}
}

func TestParseErrors(t *testing.T) {
	m := section(t, 2, ".input INT\n.output INT\n.main\nSTR int Out[0x0], int In[0x0]\nEND\n")
	good, err := m.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	instr := int(le.Uint32(good[0x1C:]))
	mut := func(f func(b []byte)) []byte {
		b := clone(good)
		f(b)
		return b
	}
	for _, tt := range []struct {
		b    []byte
		want string
	}{
		{good[:0x2B], "exb: header: offset 0x0: section is 43 bytes, shorter than the 0x2c-byte header"},
		{mut(func(b []byte) { b[0] = 'X' }), `exb: header: offset 0x0: bad magic "XXB ", want "EXB "`},
		{mut(func(b []byte) { b[4] = 4 }), "exb: header: offset 0x4: unsupported version 4 (want 1, 2 or 3)"},
		{mut(func(b []byte) { b[instr+4] = 0x3F }), "exb: instruction table: offset 0x50: instruction 0: unknown opcode op(0x3f)"},
		{mut(func(b []byte) { b[instr+4+1] = 9 }), "exb: instruction table: offset 0x50: instruction 0: unknown data type 9 for version 2"},
		{mut(func(b []byte) { b[instr] = 0xFF }), "exb: instruction table: offset 0x4c: 255 entries of 8 bytes do not fit in the 16 bytes before the next sub-section"},
		{mut(func(b []byte) { b[instr+4+3] = 1; b[instr+4+6] = 0x40 }), "exb: instruction table: offset 0x56: instruction 0: string offset 0x40 is not a string in the pool"},
		{mut(func(b []byte) { b[0x2C+4+12] = 9 }), "exb: function table: offset 0x3c: function 0: main block 0+9 overruns the 2 instructions"},
		{mut(func(b []byte) { le.PutUint32(b[0x18:], 0x1000) }), "exb: header: offset 0x18: functions offset 0x1000 outside [0x2c, 0x64]"},
	} {
		_, err := Read(tt.b)
		if err == nil || err.Error() != tt.want {
			t.Errorf("got  %v\nwant %s", err, tt.want)
		}
	}
}

// roundTrip checks bytes -> model -> bytes and bytes -> listing -> bytes.
func roundTrip(t *testing.T, b []byte) *Module {
	t.Helper()
	m, err := Read(b)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	out, err := m.AppendBinary(nil)
	if err != nil || !bytes.Equal(out, b) {
		t.Fatalf("AppendBinary: %v (equal %v)", err, bytes.Equal(out, b))
	}
	text, err := m.Listing()
	if err != nil {
		t.Fatalf("Listing: %v", err)
	}
	back, err := ParseListing(text)
	if err != nil {
		t.Fatalf("ParseListing: %v\n%s", err, text)
	}
	out, err = back.AppendBinary(nil)
	if err != nil || !bytes.Equal(out, b) {
		t.Fatalf("listing round trip: %v (equal %v)\n%s", err, bytes.Equal(out, b), text)
	}
	if again, _ := back.Listing(); again != text {
		t.Fatalf("listing not stable:\n%s\n---\n%s", text, again)
	}
	return m
}

func TestOddLayouts(t *testing.T) {
	m := section(t, 2,
		".input STRING\n.output BOOL\n.setup\nSTR str GMem[0x0], str \"setup\"\nEND\n.main\nEQL str In[0x0], str \"main\"\nCFN Actor.IsNamed(bool, str), GMem[0x0]\nSTR float LMem32[0x0], float 0.5\nEND\n")
	// The wiki's order (params before signatures) with padding between
	// sub-sections, a suffix-sharing string reference, an unreferenced and
	// unterminated tail string and padding in an END.
	m.Layout = Layout{
		Order:     []Section{SectionFunctions, SectionInstructions, SectionParams, SectionSignatures, SectionStrings},
		HeaderGap: []byte{0xAA, 0xBB},
		Gap:       [numSections][]byte{SectionInstructions: {0, 0, 0, 0}, SectionSignatures: {0xCC}},
	}
	m.Strings.Strings = append(m.Strings.Strings, "tail")
	m.Strings.Unterminated = true
	var mainStr *Instruction
	for i := range m.Instructions {
		if m.Instructions[i].RHS.Src == SrcImmediateString && m.Instructions[i].Op == OpEqual {
			mainStr = &m.Instructions[i]
		}
	}
	mainStr.RHS.Val += 2 // "in" instead of "main"
	m.Instructions[len(m.Instructions)-1].RHS.Val = 0x1234
	b, err := m.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	got := roundTrip(t, b)
	if got.Layout.Order == nil || len(got.Layout.HeaderGap) != 2 || !got.Strings.Unterminated {
		t.Errorf("layout facts lost: %+v", got.Layout)
	}
	text, _ := got.Listing()
	for _, want := range []string{".order functions instructions params signatures strings", ".gap header aabb", ".gap instructions 00000000", ".string \"tail\" noterm", ".raw "} {
		if !strings.Contains(text, want) {
			t.Errorf("listing lacks %q:\n%s", want, text)
		}
	}
	ft, err := got.FunctionText(0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ft, `EQL str In[0x0], str "in"`) || !strings.Contains(ft, ".raw 0100000000003412") {
		t.Errorf("function text:\n%s", ft)
	}
	// Editing one function keeps the layout facts, and setting a function's
	// own text keeps every byte (the suffix reference included).
	if err := got.SetFunctionText(0, ft); err != nil {
		t.Fatal(err)
	}
	if ft2, _ := got.FunctionText(0); ft2 != ft {
		t.Errorf("function text changed:\n%s\n---\n%s", ft, ft2)
	}
	if again, _ := got.AppendBinary(nil); !bytes.Equal(again, b) {
		t.Errorf("setting a function's own text changed the module's bytes")
	}
}

func TestSetupBlocks(t *testing.T) {
	for v := uint32(1); v <= 3; v++ {
		text := ".input INT\n.output INT\n.setup\n0x0000  STR int GMem[0x0], int 70000\n0x0008  END\n.main\n0x0000  STR int Out[0x0], int GMem[0x0]\n0x0008  END\n"
		m := section(t, v, text, text)
		b, err := m.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		m2 := roundTrip(t, b)
		for i := range 2 {
			got, _ := m2.FunctionText(i)
			if got != text {
				t.Errorf("v%d function %d:\n%s\nwant\n%s", v, i, got, text)
			}
			f := m2.Functions[i]
			if f.Main.Base != int32(4*i) || f.Setup.Base != int32(4*i+2) || f.Setup.Count != 2 {
				t.Errorf("v%d function %d blocks %+v", v, i, f)
			}
		}
		c, _ := m2.Compat()
		if len(c.Expressions[1].Setup) != 2 || c.Expressions[1].Setup[0] != "0x0000    STR int GMem[0x0], int 70000" {
			t.Errorf("v%d compat %+v", v, c.Expressions[1])
		}
		if m2.Header.StaticSize != 4 || len(m2.Params.Entries) != 1 {
			t.Errorf("v%d shared literal / sizes: %+v %+v", v, m2.Header, m2.Params)
		}
	}
}

// The reference writer stores setup blocks before main blocks but numbers
// them the other way round. Such a file must read as it is: main is the
// first Count instructions at its base, setup the ones after.
func TestSwappedRangesReadAsStored(t *testing.T) {
	m := section(t, 2, ".input INT\n.output INT\n.setup\nSTR int GMem[0x0], int 1\nSTR int GMem[0x4], int 2\nEND\n.main\nSTR int Out[0x0], int GMem[0x0]\nEND\n")
	// Rewrite as the reference would: setup instructions first.
	f := &m.Functions[0]
	main := append([]Instruction(nil), m.Instructions[:f.Main.Count]...)
	setup := append([]Instruction(nil), m.Instructions[f.Main.Count:]...)
	m.Instructions = append(setup, main...)
	b, err := m.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	m2 := roundTrip(t, b)
	c, err := m2.Compat()
	if err != nil {
		t.Fatal(err)
	}
	e := c.Expressions[0]
	if len(e.Main) != 2 || e.Main[1] != "0x0008    STR int GMem[0x4], int 2" || len(e.Setup) != 3 || e.Setup[1] != "0x0008    STR int Out[0x0], int GMem[0x0]" {
		t.Errorf("read as %q / %q", e.Setup, e.Main)
	}
}

func TestMemoryUsage(t *testing.T) {
	m := section(t, 2, ".input VECTOR3F\n.output FLOAT\n.main\n"+
		"STR vec3f LMem32[0x4], vec3f In[0x0]\n"+
		"VMS vec3f LMem32[0x4], float GMem[0x20]\n"+
		"STR str LMem64[0x8], str \"s\"\n"+
		"JZE GMem[0x30], 0x28\n"+
		"STR float Out[0x0], float UserIn[0x1].z\n"+
		"CFN Foo(float), GMem[0x40]\n"+
		"END\n")
	u, err := m.Usage(0)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Usage{Static: 0x31, Scratch32: 0x10, Scratch64: 0x10, IO: 0xC}); u != want {
		t.Errorf("usage %+v, want %+v", u, want)
	}
	if h := m.Header; h.StaticSize != 0x31 || h.Scratch32Size != 0x10 || h.Scratch64Size != 0x10 {
		t.Errorf("header %+v", h)
	}
}

func TestCorpusMemoryRecompute(t *testing.T) {
	for _, f := range corpus(t) {
		m, err := Read(f.section)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.RecomputeMemory(); err != nil {
			t.Fatal(err)
		}
		if b, _ := m.AppendBinary(nil); !bytes.Equal(b, f.section) {
			t.Errorf("%s: recomputed memory sizes differ from the reference writer's at %#x", f.name, firstDiff(b, f.section))
		}
	}
}

func TestWriteRejects(t *testing.T) {
	m := section(t, 3, ".input UINT\n.output INT\n.main\nEND\n")
	m.Version = 2
	if _, err := m.AppendBinary(nil); err == nil || !strings.Contains(err.Error(), "not allowed in version 2") {
		t.Errorf("UINT in version 2: %v", err)
	}
	m = section(t, 2, ".input INT\n.output INT\n.main\nEND\n")
	m.Strings.Strings = []string{"a\x00b"}
	if _, err := m.AppendBinary(nil); err == nil {
		t.Errorf("NUL in a pool string accepted")
	}
	m = section(t, 1, ".input INT\n.output INT\n.main\nEND\n")
	m.Functions[0].Main.Count = 5
	if _, err := m.AppendBinary(nil); err == nil || !strings.Contains(err.Error(), "runs 1 instructions to its terminator, not 5") {
		t.Errorf("inconsistent v1 count: %v", err)
	}
}

// Every truncation of a real section must be refused, never panic.
func TestCorpusTruncated(t *testing.T) {
	for _, f := range corpus(t) {
		n := len(f.section)
		step := 1
		if n > 8192 {
			step = 7 // the 70 KiB sections: every 7th length, plus the last 64
		}
		for l := 0; l < n; l++ {
			if l%step != 0 && l < n-64 {
				continue
			}
			if _, err := Read(f.section[:l:l]); err == nil {
				t.Errorf("%s: truncated to %d of %d bytes parsed without error", f.name, l, n)
				break
			}
		}
	}
}

// Single-byte corruptions must not panic, and whatever parses must write
// back the same bytes.
func TestCorpusCorrupted(t *testing.T) {
	for _, f := range corpus(t) {
		if len(f.section) > 2048 {
			continue
		}
		b := clone(f.section)
		for i := range b {
			for _, v := range []byte{0x00, 0x01, 0x7F, 0x80, 0xFF, b[i] ^ 0x10} {
				old := b[i]
				b[i] = v
				if m, err := Read(b); err == nil {
					out, err := m.AppendBinary(nil)
					if err != nil || !bytes.Equal(out, b) {
						t.Fatalf("%s: byte %#x = %#x: parsed but wrote differently (%v)", f.name, i, v, err)
					}
				}
				b[i] = old
			}
		}
	}
}

// A hostile file may point every function at the whole instruction table;
// expanding that must be refused, not attempted.
func TestExpansionLimit(t *testing.T) {
	m := &Module{Version: 2, Instructions: make([]Instruction, 5000)}
	for i := range m.Instructions {
		m.Instructions[i] = Instruction{Op: OpTerminator}
	}
	for range 1000 {
		m.Functions = append(m.Functions, Function{Setup: Block{Base: -1}, Main: Block{Base: 0, Count: 5000}})
	}
	b, err := m.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	m2 := roundTrip(t, b) // the flat listing is linear and still works
	if _, err := m2.Compat(); err == nil || !strings.Contains(err.Error(), "more than the 4194304 this package expands") {
		t.Errorf("Compat: %v", err)
	}
	if err := m2.Canonicalize(); err == nil {
		t.Errorf("Canonicalize expanded 5M instructions")
	}
	if _, err := m2.FunctionText(3); err != nil {
		t.Errorf("FunctionText of one function: %v", err)
	}
}
