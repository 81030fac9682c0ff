package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/sarc"
)

func TestTermSafe(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Actor/Enemy.bgyml", "Actor/Enemy.bgyml"},
		{"\x1b]0;pwned\x07\x1b[2J.bin", `\x1b]0;pwned\a\x1b[2J.bin`},
		{"a.bin\nok b.bin", `a.bin\nok b.bin`},
		{"tab\there\r", `tab\there\r`},
		{"del\x7f nul\x00", `del\x7f nul\x00`},
		{"\u202egpj.exe", `\u202egpj.exe`},                 // right-to-left override
		{"zero\u200bwidth\u2028", `zero\u200bwidth\u2028`}, // format character, line separator
		{"c1 \u009b2J", `c1 \u009b2J`},                     // CSI as a UTF-8 character
		{"raw \x9b2J \xff", `raw \x9b2J \xff`},             // CSI as a byte, not UTF-8
		{"敵の名前 ｱｲ　全角", "敵の名前 ｱｲ　全角"},                       // ideographic space is a space
		{`C:\path "quoted"`, `C:\path "quoted"`},
		{"\ufffd stays", "\ufffd stays"},
		{"", ""},
	} {
		if got := termSafe(c.in); got != c.want {
			t.Errorf("termSafe(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestTermSafeText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{\n\t\"a\": \"x\\u001b\"\r\n}\n", "{\n\t\"a\": \"x\\u001b\"\r\n}\n"},
		{"sig: \x1b]0;t\x07\x1b[2J\n", "sig: \\x1b]0;t\\a\\x1b[2J\n"},
		{"bidi \u202e and \u200b stay, \u0085 and \x9b do not", "bidi \u202e and \u200b stay, \\u0085 and \\x9b do not"},
		{"名前: 値\n", "名前: 値\n"},
	} {
		if got := termSafeText([]byte(c.in)); string(got) != c.want {
			t.Errorf("termSafeText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Text with nothing to escape is not copied.
	in := []byte("plain: text\n名前: 値\n")
	if out := termSafeText(in); &out[0] != &in[0] {
		t.Error("clean text was copied")
	}
}

// hostileSARC writes an archive whose member names would retitle and clear a terminal.
func hostileSARC(t *testing.T, members map[string][]byte) string {
	t.Helper()
	a := &sarc.Archive{HashMultiplier: 0x65, MinAlignment: 4}
	for name, data := range members {
		if err := a.Add(name, data); err != nil {
			t.Fatal(err)
		}
	}
	b, err := a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "hostile.sarc")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// wantNoControls fails when text holds a byte a terminal acts on.
func wantNoControls(t *testing.T, what, text string) {
	t.Helper()
	for i := 0; i < len(text); i++ {
		if c := text[i]; c < 0x20 && c != '\n' || c == 0x7f || c == 0x9b {
			t.Errorf("%s holds the control byte %#02x at %d: %q", what, c, i, text)
			return
		}
	}
}

const (
	evilName    = "\x1b]0;owned\x07\x1b[2J.bin"
	evilEscaped = `\x1b]0;owned\a\x1b[2J.bin`
)

func TestDumpEscapesNames(t *testing.T) {
	path := hostileSARC(t, map[string][]byte{evilName: []byte("data"), "fake\nline.bin": []byte("x")})
	out, errs, code := runCLI(t, "dump", path)
	if code != 0 {
		t.Fatalf("dump: exit %d: %s", code, errs)
	}
	wantNoControls(t, "dump", out)
	for _, line := range []string{evilEscaped + "  4  unknown \"data\"", `fake\nline.bin` + strings.Repeat(" ", len(evilEscaped)-len(`fake\nline.bin`)) + "  1  unknown \"x\""} {
		if !strings.Contains(out, line+"\n") {
			t.Errorf("dump lacks the line %q:\n%s", line, out)
		}
	}
}

func TestCheckEscapesNames(t *testing.T) {
	// A member that claims to be BYML and is cut short fails, naming the member.
	path := hostileSARC(t, map[string][]byte{evilName: []byte("YB\x02\x00")})
	out, errs, code := runCLI(t, "check", path)
	if code != 1 || errs != "" {
		t.Fatalf("check: exit %d, stderr %q", code, errs)
	}
	wantNoControls(t, "check", out)
	if !strings.HasPrefix(out, "FAIL "+path+": member "+evilEscaped+": ") {
		t.Errorf("check: %q", out)
	}
	// The file's own name, from the command line, is escaped too: it may come from unpack.
	named := filepath.Join(t.TempDir(), "x\x1b[2J.ainb")
	if err := os.WriteFile(named, []byte("AIB "), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ = runCLI(t, "check", named)
	wantNoControls(t, "check", out)
	if !strings.HasPrefix(out, "FAIL "+filepath.Dir(named)+`/x\x1b[2J.ainb: `) {
		t.Errorf("check: %q", out)
	}
	_, errs, _ = runCLI(t, "dump", named)
	wantNoControls(t, "dump's error", errs)
	if !strings.HasPrefix(errs, "ainb: "+filepath.Dir(named)+`/x\x1b[2J.ainb: `) {
		t.Errorf("dump's error: %q", errs)
	}
}

func TestPackEscapesNames(t *testing.T) {
	// unpack refuses a name that leaves the directory, quoting it.
	path := hostileSARC(t, map[string][]byte{"/" + evilName: []byte("x")})
	_, errs, code := runCLI(t, "unpack", path, filepath.Join(t.TempDir(), "out"))
	wantNoControls(t, "unpack's error", errs)
	if want := "ainb: " + path + `: member "/` + evilEscaped + `": absolute path` + "\n"; code != 1 || errs != want {
		t.Errorf("unpack: exit %d %q, want %q", code, errs, want)
	}
	// pack names what it cannot take.
	dir := t.TempDir()
	if err := os.Symlink("nowhere", filepath.Join(dir, evilName)); err != nil {
		t.Fatal(err)
	}
	_, errs, code = runCLI(t, "pack", dir, "-o", filepath.Join(t.TempDir(), "out.sarc"))
	wantNoControls(t, "pack's error", errs)
	if want := "ainb: " + dir + ": " + evilEscaped + ": not a regular file\n"; code != 1 || errs != want {
		t.Errorf("pack: exit %d %q, want %q", code, errs, want)
	}
}

// TestDumpDocumentEscapes checks the text forms keep their own escapes: a BYML string and
// key holding escape sequences reach the terminal escaped, and build reads the dump back
// to the same file.
func TestDumpDocumentEscapes(t *testing.T) {
	dir := t.TempDir()
	yml := filepath.Join(dir, "t.yml")
	if err := os.WriteFile(yml, []byte("a: \"x\\e]0;owned\\a\\e[2J\"\n\"k\\e[2J\\u202e\": 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "t.byml")
	if _, errs, code := runCLI(t, "build", "-o", bin, yml); code != 0 {
		t.Fatalf("build: exit %d: %s", code, errs)
	}
	out, errs, code := runCLI(t, "dump", bin)
	if code != 0 {
		t.Fatalf("dump: exit %d: %s", code, errs)
	}
	wantNoControls(t, "dump", out)
	again := filepath.Join(dir, "again.yml")
	if err := os.WriteFile(again, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	bin2 := filepath.Join(dir, "again.byml")
	if _, errs, code := runCLI(t, "build", "-o", bin2, again); code != 0 {
		t.Fatalf("build again: exit %d: %s", code, errs)
	}
	if !bytes.Equal(readFile(t, bin), readFile(t, bin2)) {
		t.Error("the dump does not build back to the same file")
	}
}

// BenchmarkTermSafeText measures the scan every dump now passes through, on a clean text
// form (the common case: nothing to escape, nothing copied).
func BenchmarkTermSafeText(b *testing.B) {
	text := []byte(strings.Repeat("  - {name: Enemy_Lynel_Dark, 名前: ライネル, hp: 4000, pos: [1.5, -2.25, 3.0]}\n", 1<<17))
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		termSafeText(text)
	}
}
