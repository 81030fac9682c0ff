package exb

import (
	"strings"
	"testing"
)

// A function whose instructions all compare with one 20,000-byte string is a small module
// (the string is stored once) whose text repeats the string on every line. Before the limit,
// such a 49 KB file parsed to an 80 MB reply.
func TestTextLimit(t *testing.T) {
	long := strings.Repeat("amplify ", 2500)
	text := func(lines int) string {
		var b strings.Builder
		b.WriteString(".input STRING\n.output BOOL\n.main\n")
		for j := range lines {
			b.WriteString("0x0000  EQL str GMem[0x0], str \"" + long[j%8:] + "\"\n")
		}
		b.WriteString("0x0000  END\n")
		return b.String()
	}
	for _, c := range []struct {
		lines int
		fail  bool
	}{{20, false}, {2000, true}} {
		m, err := AssembleFunctions(3, []string{text(c.lines)})
		if err != nil {
			t.Fatal(err)
		}
		bin, err := m.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Read(bin)
		if err != nil {
			t.Fatal(err)
		}
		texts, err := back.FunctionTexts()
		_, err1 := back.FunctionText(0)
		_, err2 := back.Listing()
		_, err3 := back.Compat()
		if !c.fail {
			if err != nil || err1 != nil || err2 != nil || err3 != nil {
				t.Fatalf("%d lines, %d-byte module: %v / %v / %v / %v", c.lines, len(bin), err, err1, err2, err3)
			}
			if !strings.Contains(texts[0], long[19:]) {
				t.Fatalf("%d lines: the text lost the string", c.lines)
			}
			continue
		}
		for i, err := range []error{err, err1, err2, err3} {
			if err == nil || !strings.Contains(err.Error(), "16 times the module's size") {
				t.Errorf("%d lines, %d-byte module, text form %d: got %v, want the text limit", c.lines, len(bin), i, err)
			}
		}
	}
}
