package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/testcorpus"
)

// exprs prints each function as readable code under a "// function N" line.
func TestExprs(t *testing.T) {
	dir := testcorpus.Dir(t)
	src := filepath.Join(dir, "ainb", "synthetic", "expressions_v404.ainb")
	out, errs, code := runCLI(t, "exprs", src)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := "// function 0\n.input INT\n.output INT\n" +
		"LMem32[0x0] = (-(inc(inc((In + 3 - GMem[0x0]) * 70000 / 2 % 7))) << 1 >> 2 & 255 | 256) ^ 10\n" +
		"Out = LMem32[0x0]\n\n" +
		"// function 1\n.input FLOAT\n.output FLOAT\n" +
		"LMem32[0x0] = -((In * 2.0 + 0.75 - -3.5) / 65536.0)\n" +
		"Out = LMem32[0x0]\n\n// function 2\n"
	if !strings.HasPrefix(out, want) {
		t.Errorf("output starts\n%.400s\nwant\n%s", out, want)
	}
	if n := strings.Count(out, "// function "); n != 7 {
		t.Errorf("%d functions printed, want 7", n)
	}
	// A file without expressions prints nothing.
	if out, _, code := runCLI(t, "exprs", filepath.Join(dir, "ainb", "synthetic", "minimal_v407.ainb")); code != 0 || out != "" {
		t.Errorf("file without expressions: exit %d, %q", code, out)
	}
	if _, _, code := runCLI(t, "exprs", src, src); code != 2 {
		t.Errorf("two files without -check: exit %d, want 2", code)
	}
	if _, _, code := runCLI(t, "exprs"); code != 2 {
		t.Errorf("no file: exit %d, want 2", code)
	}
}

// exprs -check passes every corpus file that has expressions, and fails what is not an
// AINB file or does not read, naming the reason.
func TestExprsCheck(t *testing.T) {
	files := testcorpus.AINB(t)
	bad := filepath.Join(t.TempDir(), "bad.ainb")
	if err := os.WriteFile(bad, []byte("AIB \x07\x04\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(text, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, append([]string{"exprs", "-check"}, files...)...)
	var want strings.Builder
	for _, f := range files {
		want.WriteString("ok " + f + "\n")
	}
	if code != 0 || out != want.String() {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	out, _, code = runCLI(t, "exprs", "-check", files[0], bad, text)
	wantOut := "ok " + files[0] + "\n" +
		"FAIL " + bad + ": ainb: header at offset 0x0: file is 8 bytes, shorter than the 0x74-byte header\n" +
		"FAIL " + text + ": not an AINB file\n"
	if code != 1 || out != wantOut {
		t.Fatalf("exit %d:\n%s\nwant\n%s", code, out, wantOut)
	}
}

// exprs -check passes every game AINB file the AINB reader reads: each function's readable
// text compiles back to its very bytes, the param table literals the game keeps where the
// value alone would put them in the instruction (param(2.0)) among them. A file the reader
// refuses (two, at present; the reader's concern) fails with the reader's own error.
func TestGameFilesExprsCheck(t *testing.T) {
	files := testcorpus.GameFiles(t, "ainb")
	var want strings.Builder
	unread := 0
	for _, f := range files {
		if _, err := readExpressions(nil, f); err != nil {
			want.WriteString("FAIL " + f + ": " + err.Error() + "\n")
			unread++
			continue
		}
		want.WriteString("ok " + f + "\n")
	}
	out, _, code := runCLI(t, append([]string{"exprs", "-check"}, files...)...)
	if wantCode := min(unread, 1); code != wantCode || out != want.String() {
		t.Errorf("exit %d, want %d; output differs:\n%s", code, wantCode, diffLines(out, want.String()))
	}
	t.Logf("%d game AINB files, %d the reader refuses", len(files), unread)
}

// diffLines shows the lines of got that want does not hold, and the other way round.
func diffLines(got, want string) string {
	g, w := map[string]bool{}, map[string]bool{}
	for _, l := range strings.Split(got, "\n") {
		g[l] = true
	}
	for _, l := range strings.Split(want, "\n") {
		w[l] = true
	}
	var b strings.Builder
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			b.WriteString("+ " + l + "\n")
		}
	}
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			b.WriteString("- " + l + "\n")
		}
	}
	return b.String()
}
