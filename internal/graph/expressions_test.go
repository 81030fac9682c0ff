package graph

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/exb"
)

// The document carries each function as readable code (the file has INC where its author
// meant DEC: a reference-writer defect); building takes that code, or the
// listing of the same function in its place, to the file's very bytes.
func TestExpressionsReadable(t *testing.T) {
	b := readCorpus(t, "synthetic/expressions_v407.ainb")
	d, err := Parse("x", b)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ainb.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	want := ".input INT\n.output INT\nLMem32[0x0] = (-(inc(inc((In + 3 - GMem[0x0]) * 70000 / 2 % 7))) << 1 >> 2 & 255 | 256) ^ 10\nOut = LMem32[0x0]\n"
	if got := d.Expressions.Functions[0].Text; got != want {
		t.Errorf("function 0 reads\n%s\nwant\n%s", got, want)
	}
	for i, fn := range d.Expressions.Functions {
		if exb.IsListingText(fn.Text) {
			t.Errorf("function %d is a listing in the document", i)
		}
		listing, err := f.Expressions.FunctionText(i)
		if err != nil {
			t.Fatal(err)
		}
		d.Expressions.Functions[i].Text = listing
		out, err := d.Build()
		if err != nil || !bytes.Equal(out, b) {
			t.Fatalf("function %d as a listing: %v (same bytes %v)", i, err, bytes.Equal(out, b))
		}
	}
}

// When the file's expression binary is not laid out canonically (here: a gap after the
// header), editing one function's code changes no other function: not its table entry,
// its instructions or what they refer to.
func TestExpressionsEditKeepsOthers(t *testing.T) {
	f, err := ainb.Read(readCorpus(t, "synthetic/expressions_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	f.Expressions.Layout.HeaderGap = []byte{0xAB, 0xCD, 0xEF, 0x01}
	b, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	d, err := Parse("x", b)
	if err != nil {
		t.Fatal(err)
	}
	d.Expressions.Functions[0].Text += "LMem64[0x0] = \"new ✓\"\nGMem[0x40] = 123456789\n"
	g := buildRead(t, d)
	if n := len(g.Expressions.Instructions); n <= len(f.Expressions.Instructions) {
		t.Fatalf("%d instructions, had %d: function 0 did not grow", n, len(f.Expressions.Instructions))
	}
	for i := 1; i < len(f.Expressions.Functions); i++ {
		if a, b := functionImage(t, f.Expressions, i), functionImage(t, g.Expressions, i); a != b {
			t.Errorf("function %d changed:\n%s\nwas\n%s", i, b, a)
		}
	}
	if got, _ := g.Expressions.FunctionSource(0); got != d.Expressions.Functions[0].Text {
		t.Errorf("function 0 reads back as\n%s\nwant\n%s", got, d.Expressions.Functions[0].Text)
	}
	if !bytes.Equal(g.Expressions.Layout.HeaderGap, f.Expressions.Layout.HeaderGap) {
		t.Error("the layout fact was lost")
	}
}

// functionImage is function i's table entry, its instructions' bytes and its listing.
func functionImage(t *testing.T, m *exb.Module, i int) string {
	t.Helper()
	text, err := m.FunctionText(i)
	if err != nil {
		t.Fatal(err)
	}
	fn := m.Functions[i]
	var raw []byte
	for _, blk := range [2]exb.Block{fn.Setup, fn.Main} {
		if !blk.Present() {
			continue
		}
		for _, in := range m.Instructions[blk.Base : int(blk.Base)+int(blk.Count)] {
			w, _ := in.Bytes(m.Version)
			raw = append(raw, w[:]...)
		}
	}
	return fmt.Sprintf("%+v\n%x\n%s", fn, raw, strings.TrimSpace(text))
}

// A build skips checking UTF-8 only in texts the JSON decoder read: a text set in Go after
// decoding, here with a byte that is not UTF-8 in a string literal, is checked as ever and
// its literal reads as strconv would have it (U+FFFD for the byte).
func TestExpressionsUTF8Known(t *testing.T) {
	d0, err := Parse("x", readCorpus(t, "synthetic/expressions_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := DecodeText(string(d0.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	x := d.Expressions
	texts := make([]string, len(x.Functions))
	for i, fn := range x.Functions {
		texts[i] = fn.Text
	}
	if !x.utf8Known(texts) {
		t.Fatal("the decoded texts are not known to be UTF-8")
	}
	if d0.Expressions.utf8Known(texts) {
		t.Fatal("texts of a document not decoded from JSON are known to be UTF-8")
	}
	x.Functions[0].Text += "LMem64[0x0] = \"a\xffb\"\n"
	texts[0] = x.Functions[0].Text
	if x.utf8Known(texts) {
		t.Fatal("a text set after decoding is known to be UTF-8")
	}
	g := buildRead(t, d)
	got, err := g.Expressions.FunctionSource(0)
	if err != nil || !strings.Contains(got, `"a\ufffdb"`) && !strings.Contains(got, "\"a\uFFFDb\"") {
		t.Errorf("function 0 reads back as\n%s\nwant the literal \"a\\ufffdb\" (%v)", got, err)
	}
}

// buildRead builds d and reads the file back; a failure names the file by d.Filename.
func buildRead(t *testing.T, d *Document) *ainb.File {
	t.Helper()
	out, err := d.Build()
	if err != nil {
		t.Fatalf("%s: %v", d.Filename, err)
	}
	f, err := ainb.Read(out)
	if err != nil {
		t.Fatalf("%s: the built file does not read back: %v", d.Filename, err)
	}
	return f
}
