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

// dump prints the editor document, dump -compat the community JSON, and build turns either
// back into the file.
func TestDumpAndBuild(t *testing.T) {
	dir := testcorpus.Dir(t)
	src := filepath.Join(dir, "ainb", "synthetic", "module_if_v408.ainb")
	orig, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()

	own, _, code := runCLI(t, "dump", src)
	if code != 0 || !strings.HasPrefix(own, "{\n  \"format\": \"ainb-editor-document/2\",\n  \"name\": \"module_if_v408.ainb\",") {
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

// build lists an editor document's problems, each with its path.
func TestBuildDocumentProblems(t *testing.T) {
	src := filepath.Join(testcorpus.Dir(t), "ainb", "synthetic", "minimal_v407.ainb")
	doc, _, code := runCLI(t, "dump", src)
	if code != 0 {
		t.Fatalf("dump: exit %d", code)
	}
	tmp := t.TempDir()
	in, out := filepath.Join(tmp, "doc.json"), filepath.Join(tmp, "doc.ainb")
	bad := strings.Replace(doc, `"root": 0,`, `"root": 99,`, 1)
	if bad == doc {
		t.Fatal("the dump has no root 0 to break")
	}
	os.WriteFile(in, []byte(bad), 0o644)
	_, errs, code := runCLI(t, "build", in, "-o", out)
	want := "ainb: " + in + ": 1 problems:\n  commands[0].root: no node with id 99\n"
	if code != 1 || errs != want {
		t.Fatalf("got %q (exit %d), want %q", errs, code, want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a failed build wrote its output")
	}
	// Another format's document is named as such.
	os.WriteFile(in, []byte(strings.Replace(doc, "ainb-editor-document/2", "ainb-editor-document/1", 1)), 0o644)
	if _, errs, code = runCLI(t, "build", in, "-o", out); code != 1 || !strings.Contains(errs, `format: "ainb-editor-document/1", want "ainb-editor-document/2"`) {
		t.Fatalf("old format: got %q (exit %d)", errs, code)
	}
}

// Every corpus file dumped as the editor document builds again to its own bytes, as the
// project's own JSON did before the document replaced it.
func TestDumpBuildCorpus(t *testing.T) {
	for _, path := range testcorpus.AINB(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := dumpData(newReader(nil, len(b)), b, dumpOptions{name: filepath.Base(path)})
		if err != nil {
			t.Fatalf("%s: dump: %v", filepath.Base(path), err)
		}
		out, err := buildAINB(doc, buildOptions{})
		if err != nil {
			t.Fatalf("%s: build: %v", filepath.Base(path), err)
		}
		if !bytes.Equal(out, b) {
			t.Errorf("%s: dumped and built, %d bytes differ from the file's %d", filepath.Base(path), len(out), len(b))
		}
	}
}
