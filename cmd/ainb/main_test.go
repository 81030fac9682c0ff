package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/testcorpus"
)

func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestCheck(t *testing.T) {
	dir := testcorpus.Dir(t)
	good := filepath.Join(dir, "ainb", "synthetic", "minimal_v407.ainb")
	bad := filepath.Join(t.TempDir(), "bad.ainb")
	if err := os.WriteFile(bad, []byte("AIB \x07\x04\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, "check", good, bad)
	want := "ok " + good + "\nFAIL " + bad + ": ainb: header at offset 0x0: file is 8 bytes, shorter than the 0x74-byte header\n"
	if out != want || code != 1 {
		t.Fatalf("got %q (exit %d), want %q (exit 1)", out, code, want)
	}
	out, _, code = runCLI(t, "check", good)
	if out != "ok "+good+"\n" || code != 0 {
		t.Fatalf("got %q (exit %d)", out, code)
	}
}

// dump -compat matches the reference dump, and build turns either JSON back into the file.
func TestDumpAndBuild(t *testing.T) {
	dir := testcorpus.Dir(t)
	src := filepath.Join(dir, "ainb", "synthetic", "module_if_v408.ainb")
	orig, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()

	own, _, code := runCLI(t, "dump", src)
	if code != 0 || !strings.Contains(own, `"Elements"`) {
		t.Fatalf("dump: exit %d, %.200s", code, own)
	}
	ownPath := filepath.Join(tmp, "own.json")
	os.WriteFile(ownPath, []byte(own), 0o644)
	outPath := filepath.Join(tmp, "own.ainb")
	if _, errs, code := runCLI(t, "build", ownPath, "-o", outPath); code != 0 {
		t.Fatalf("build own JSON: exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(outPath); !bytes.Equal(b, orig) {
		t.Fatal("building the project's own dump did not give the original bytes")
	}

	compat, _, code := runCLI(t, "dump", "-compat", src)
	if code != 0 || !strings.Contains(compat, `"Nodes"`) {
		t.Fatalf("dump -compat: exit %d", code)
	}
	compatPath := filepath.Join(tmp, "compat.json")
	os.WriteFile(compatPath, []byte(compat), 0o644)
	outPath = filepath.Join(tmp, "compat.ainb")
	if _, errs, code := runCLI(t, "build", "-o", outPath, compatPath); code != 0 {
		t.Fatalf("build compat JSON: exit %d: %s", code, errs)
	}
	rebuilt, _ := os.ReadFile(outPath)
	rebuiltPath := filepath.Join(tmp, "rebuilt.ainb")
	os.WriteFile(rebuiltPath, rebuilt, 0o644)
	again, _, _ := runCLI(t, "dump", "-compat", rebuiltPath)
	if again != compat {
		t.Fatal("the binary built from the compat dump dumps differently")
	}
}

func TestBuildErrors(t *testing.T) {
	tmp := t.TempDir()
	bad := filepath.Join(tmp, "bad.json")
	os.WriteFile(bad, []byte(`{"Version": 1031, "Filename": "x", "Category": "AI", "Commands": [{"Name": "R", "GUID": "00000000-0000-0000-0000-000000000000", "Root Node Index": 3}], "Nodes": []}`), 0o644)
	_, errs, code := runCLI(t, "build", bad, "-o", filepath.Join(tmp, "x.ainb"))
	want := "ainb: " + bad + ": Commands[0].Root Node Index: 3 out of range (0 nodes)\n"
	if code != 1 || errs != want {
		t.Fatalf("got %q (exit %d), want %q", errs, code, want)
	}
	if _, err := os.Stat(filepath.Join(tmp, "x.ainb")); err == nil {
		t.Fatal("a failed build wrote its output")
	}
	if _, _, code := runCLI(t, "build", bad); code != 2 {
		t.Fatalf("build without -o: exit %d, want 2", code)
	}
	if _, _, code := runCLI(t, "frobnicate"); code != 2 {
		t.Fatalf("unknown command: exit %d, want 2", code)
	}
}

// build names a Layout.Tails entry that no recorded string ends with.
func TestBuildBadTails(t *testing.T) {
	src := filepath.Join(testcorpus.Dir(t), "ainb", "synthetic", "minimal_v407.ainb")
	own, _, code := runCLI(t, "dump", src)
	if code != 0 {
		t.Fatalf("dump: exit %d", code)
	}
	tmp := t.TempDir()
	in, out := filepath.Join(tmp, "tails.json"), filepath.Join(tmp, "tails.ainb")
	doc := strings.Replace(own, `"Strings": [`, `"Tails": ["DoNothing", "xyz"], "Strings": [`, 1)
	os.WriteFile(in, []byte(doc), 0o644)
	_, errs, code := runCLI(t, "build", in, "-o", out)
	want := `Layout.Tails[1]: "xyz" is not the tail of any string in Layout.Strings` + "\n"
	if code != 1 || !strings.HasSuffix(errs, want) {
		t.Fatalf("got %q (exit %d), want an error ending %q", errs, code, want)
	}
	// A tail some string ends with builds.
	doc = strings.Replace(own, `"Strings": [`, `"Tails": ["DoNothing"], "Strings": [`, 1)
	os.WriteFile(in, []byte(doc), 0o644)
	if _, errs, code := runCLI(t, "build", in, "-o", out); code != 0 {
		t.Fatalf("build with a valid tail: exit %d: %s", code, errs)
	}
}
