package graph

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/testalloc"
	"ainbeditor/internal/testcorpus"
)

// Bounded work: whatever the input, what a conversion writes and allocates stays within a
// fixed multiple of the input's size plus a constant. The corpus stays far inside these
// (documents are at most 1.3 times their file, parsing allocates at most 8 times the file
// beyond a few hundred kilobytes of fixed cost); hostile files once made a reply a thousand
// times their size. The reader hands out at most 1 MiB and 16 times the file of text
// (ainb.MaxTextBase, MaxTextRatio), which JSON may escape to six times its bytes (a control
// byte is \u00XX): hence the output's bound, beside the structure's. The server's own reply
// budget (4 MiB and 16 times the file) is tighter and answers 422 past it.
const (
	maxOutputRatio = 128
	maxOutputBase  = 8 << 20
	maxAllocRatio  = 256
	maxAllocBase   = 32 << 20
)

// checkBounded fails when a conversion of in bytes wrote out bytes or allocated alloc bytes
// beyond the bounds.
func checkBounded(t *testing.T, what string, in, out int, alloc uint64) {
	t.Helper()
	if out > maxOutputBase+maxOutputRatio*in {
		t.Fatalf("%s: %d bytes in, %d bytes out", what, in, out)
	}
	if alloc > maxAllocBase+maxAllocRatio*uint64(in) {
		t.Fatalf("%s: %d bytes in, %d bytes allocated", what, in, alloc)
	}
}

// FuzzParse: whatever the file, Parse never panics, and parsing and encoding the document
// write and allocate within the bounds; a document it makes builds.
func FuzzParse(f *testing.F) {
	for _, path := range testcorpus.AINB(f) {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) < 64<<10 {
			f.Add(b)
		}
	}
	f.Add(expressionAmplifier(f, 200))
	if b, err := nodeExprSeed(f).Build(); err != nil { // node outputs through expressions
		f.Fatal(err)
	} else {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var (
			d   *Document
			js  []byte
			err error
		)
		n := testalloc.Bytes(func() {
			if d, err = Parse("x.ainb", data); err == nil {
				js = d.Encode()
			}
		})
		checkBounded(t, "parse and encode", len(data), len(js), n)
		if err != nil {
			return
		}
		if _, err := d.Build(); err != nil {
			t.Fatalf("a parsed document does not build: %v", err)
		}
	})
}

// The corpus is far inside the bounds; the fuzz targets guard the rest.
func TestCorpusBounded(t *testing.T) {
	for _, path := range testcorpus.AINB(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var js []byte
		n := testalloc.Bytes(func() {
			d, err := Parse(filepath.Base(path), data)
			if err != nil {
				t.Fatal(err)
			}
			js = d.Encode()
		})
		if len(js) > 2*len(data)+4096 || n > 16*uint64(len(data))+4<<20 {
			t.Errorf("%s: %d bytes: %d bytes of JSON, %d allocated", filepath.Base(path), len(data), len(js), n)
		}
	}
}

// expressionAmplifier is a file whose expression compares with one 20,000-byte string on
// the given number of lines: the string is stored once, and every line names it.
func expressionAmplifier(tb testing.TB, lines int) []byte {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(testcorpus.Dir(tb), "ainb", "synthetic", "expressions_v407.ainb"))
	if err != nil {
		tb.Fatal(err)
	}
	d, err := Parse("x.ainb", data)
	if err != nil {
		tb.Fatal(err)
	}
	long := strings.Repeat("amplify ", 2500)
	var b strings.Builder
	b.WriteString(".input STRING\n.output BOOL\n.main\n")
	for range lines {
		b.WriteString("0x0000  EQL str GMem[0x0], str \"" + long + "\"\n")
	}
	b.WriteString("0x0000  END\n")
	d.Expressions.Functions = append(d.Expressions.Functions, Function{Text: b.String()})
	out, err := d.Build()
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

var updateFixtures = flag.Bool("update-fixtures", false, "write the fixtures this package makes into the top-level testdata folder")

// TestHostileFixtures checks the expression amplifiers that the server's tests send
// (testdata/hostile/expressions200.ainb and expressions2000.ainb) are what
// expressionAmplifier makes.
func TestHostileFixtures(t *testing.T) {
	for _, lines := range []int{200, 2000} {
		testcorpus.CheckFixture(t, fmt.Sprintf("hostile/expressions%d.ainb", lines), expressionAmplifier(t, lines), *updateFixtures)
	}
}

// Parsing the expression amplifier is refused within the bounds (it once allocated 641 MB
// for 39 KB before it was refused).
func TestExpressionAmplifierBounded(t *testing.T) {
	for _, lines := range []int{200, 2000} {
		data := expressionAmplifier(t, lines)
		var err error
		n := testalloc.Bytes(func() { _, err = Parse("x.ainb", data) })
		if err == nil || !strings.Contains(err.Error(), "16 times the module's size") {
			t.Fatalf("%d lines: %v", lines, err)
		}
		checkBounded(t, "parse", len(data), 0, n)
	}
}
