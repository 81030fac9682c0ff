package exb

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ainbeditor/internal/testalloc"
)

// existingSeeds reads the byte inputs checked in for FuzzParse (the "go test
// fuzz v1" files), so that the decompiler is fuzzed from the same bytecode.
func existingSeeds(f *testing.F) [][]byte {
	paths, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzParse", "*"))
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) != 2 || lines[0] != "go test fuzz v1" || !strings.HasPrefix(lines[1], "[]byte(") {
			f.Fatalf("%s: not a one-value fuzz file", p)
		}
		s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
		if err != nil {
			f.Fatalf("%s: %v", p, err)
		}
		out = append(out, []byte(s))
	}
	return out
}

// sourceSeeds is a small module made here, with a setup block, a branch, a
// call, a string, a param literal and an instruction only .raw can write.
func sourceSeeds(f *testing.F) [][]byte {
	m := &Module{Version: 3}
	for _, text := range []string{
		".input INT\n.output INT\nsetup {\n    GMem[0x0] = 70000\n}\nLMem32[0x0] = In * 3 + GMem[0x0]\nif (bool GMem[0x4]) {\n    LMem32[0x0] = 1\n} else {\n    call Actor.IsNamed(bool, str), GMem[0x8]\n}\nOut = LMem32[0x0]\n",
		".input NONE\n.output STRING\nLMem64[0x0] = \"x\"\nasm {\n    .raw 0100000000000001\n}\nOut = LMem64[0x0]\n",
		// Literals in the param table that would fit the instruction, as the games have them.
		".input FLOAT\n.output FLOAT\nLMem32[0x0] = param(2.0) * In > param(0.0)\nLMem64[0x0] = param(\"x\")\nLMem32[0x4] = param(true)\nLMem32[0x8] = uint param(5)\nLMem32[0xc] = param(7) + 2.0\nOut = In\n",
	} {
		src, err := compileSource(text, 3, TypeNone, TypeNone)
		if err != nil {
			f.Fatal(err)
		}
		if err := m.replaceFunction(len(m.Functions), src); err != nil {
			f.Fatal(err)
		}
	}
	b, err := m.AppendBinary(nil)
	if err != nil {
		f.Fatal(err)
	}
	return [][]byte{b}
}

// gameSections are the expression sections of the games' own AINB files
// (../shared/gamefiles/ainb beside the project root), as extra seeds: they keep literals in
// the param table that the value rule would store in the instruction (param( )). Unlike the
// corpus, they are optional: without them a fuzz target runs on its other seeds.
func gameSections(f *testing.F) [][]byte {
	wd, err := os.Getwd()
	if err != nil {
		f.Fatal(err)
	}
	var paths []string
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			paths, _ = filepath.Glob(filepath.Join(dir, "..", "shared", "gamefiles", "ainb", "*.ainb"))
			break
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	var out [][]byte
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		// A file whose header the AINB cutter refuses gives no seed.
		if sec, err := AINBExpressions(b); err == nil && sec != nil && len(sec) <= 16<<10 {
			out = append(out, sec)
		}
	}
	return out
}

// decompileAllocRatio bounds what decompiling a whole module may allocate,
// as a multiple of the section's size (plus decompileAllocBase): each piece
// of text is compiled once per fallback step it tries, a fixed number.
const (
	decompileAllocRatio = 4096
	decompileAllocBase  = 4 << 20
)

// FuzzDecompileRoundTrip: for any section Read accepts, every function
// decompiles, its text compiles back to the very same bytes, the text stays
// within a fixed multiple of the section's size, and so does what
// decompiling allocates.
func FuzzDecompileRoundTrip(f *testing.F) {
	for _, cf := range seedFiles(f) {
		f.Add(cf.section)
	}
	for _, b := range existingSeeds(f) {
		f.Add(b)
	}
	for _, b := range sourceSeeds(f) {
		f.Add(b)
	}
	for _, b := range gameSections(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Read(b)
		if err != nil || len(b) > 16<<10 || m.expandedSize() > 20000 {
			return
		}
		var texts []string
		alloc := testalloc.Bytes(func() { texts, err = m.FunctionSources() })
		if err != nil {
			t.Fatalf("FunctionSources: %v", err)
		}
		if limit := uint64(decompileAllocRatio*len(b) + decompileAllocBase); alloc > limit {
			t.Fatalf("decompiling a %d-byte section allocated %d bytes (limit %d)", len(b), alloc, limit)
		}
		size := 0
		for _, s := range texts {
			size += len(s)
		}
		if limit := m.textLimit(); size > limit {
			t.Fatalf("%d bytes of text for a %d-byte section (limit %d)", size, len(b), limit)
		}
		for i, text := range texts {
			if err := m.SetFunctionSource(i, text); err != nil {
				t.Fatalf("function %d: own text does not compile: %v\n%s", i, err, text)
			}
		}
		if out, err := m.AppendBinary(nil); err != nil || !bytes.Equal(out, b) {
			t.Fatalf("setting every function's own text changed the bytes (%v, first difference at %#x)", err, firstDiff(out, b))
		}
	})
}

// compiledSizeRatio bounds the section a text compiles to: a statement line
// yields at most one instruction per operator, literal and value it holds.
const compiledSizeRatio = 16

// FuzzCompile: the compiler never panics on any text; what it accepts makes
// a section that writes, grows by at most a fixed multiple of the text's
// size, and decompiles to text that compiles to the same bytes again.
func FuzzCompile(f *testing.F) {
	for _, tc := range sourceCases {
		f.Add(uint8(tc.version), ".input INT\n.output INT\n"+strings.TrimPrefix(tc.source, "\n"))
	}
	for _, cf := range seedFiles(f) {
		m, err := Read(cf.section)
		if err != nil {
			continue
		}
		texts, err := m.FunctionSources()
		if err != nil {
			continue
		}
		for i, s := range texts {
			if i < 20 {
				f.Add(uint8(m.Version), s)
			}
		}
	}
	for _, b := range gameSections(f) {
		m, err := Read(b)
		if err != nil {
			continue
		}
		if texts, err := m.FunctionSources(); err == nil {
			for _, s := range texts {
				if strings.Contains(s, "param(") {
					f.Add(uint8(m.Version), s)
				}
			}
		}
	}
	f.Add(uint8(3), "L1:\nLMem32[0x0] = inc(int LMem32[0x0])\ngoto L1 unless bool GMem[0x0]\nnoend")
	f.Add(uint8(2), "setup {\n    GMem[0x0] = \"a\\x00b\"\n}\nOut = (1")
	f.Fuzz(func(t *testing.T, version uint8, text string) {
		v := uint32(version%3) + 1
		m := &Module{Version: v}
		empty, _ := (&Module{Version: v}).AppendBinary(nil)
		src, err := compileSource(text, v, TypeNone, TypeNone)
		if err != nil {
			return
		}
		if err := m.replaceFunction(0, src); err != nil {
			return
		}
		b, err := m.AppendBinary(nil)
		if err != nil {
			t.Fatalf("compiled module does not write: %v", err)
		}
		if grown, limit := len(b)-len(empty), compiledSizeRatio*len(text)+64; grown > limit {
			t.Fatalf("%d bytes of text compiled to %d bytes (limit %d)", len(text), grown, limit)
		}
		back, err := m.FunctionSource(0)
		if err != nil {
			t.Fatalf("FunctionSource: %v\n%s", err, text)
		}
		if err := m.SetFunctionSource(0, back); err != nil {
			t.Fatalf("decompiled text does not compile: %v\n%s", err, back)
		}
		if b2, _ := m.AppendBinary(nil); !bytes.Equal(b, b2) {
			t.Fatalf("decompiled text compiles to other bytes:\n%s\n---\n%s", text, back)
		}
	})
}
