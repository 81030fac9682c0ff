package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/testcorpus"
)

// check and dump list what an AINB file stores that names nothing as warnings, which do not
// fail the file; dump keeps them off stdout.
func TestCheckDanglingWarnings(t *testing.T) {
	dir := testcorpus.Dir(t)
	b, err := os.ReadFile(filepath.Join(dir, "ainb", "synthetic", "minimal_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := ainb.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	e := &f.Elements[0]
	e.Plugs.Set(ainb.PlugChild, append(slices.Clone(e.Plugs.Of(ainb.PlugChild)), ainb.Plug{Node: ainb.NoNode, Name: "False"}))
	k := len(e.Plugs.Of(ainb.PlugChild)) - 1
	out, err := f.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "dangling.ainb")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	w := fmt.Sprintf("Nodes[0].Plugs.Child[%d].Node Index: 32767 names no node (%d nodes, 0x7FFF: the games' empty branch)", k, len(f.Elements))
	got, _, code := runCLI(t, "check", path)
	if want := "ok " + path + "\nwarning " + path + ": " + w + "\n"; got != want || code != 0 {
		t.Fatalf("check: got %q (exit %d), want %q (exit 0)", got, code, want)
	}
	dump, stderr, code := runCLI(t, "dump", path)
	if want := "ainb: " + path + ": warning: " + w + "\n"; stderr != want || code != 0 || len(dump) == 0 || dump[0] != '{' {
		t.Fatalf("dump: stderr %q (exit %d), stdout starts %q; want stderr %q", stderr, code, dump[:min(len(dump), 20)], want)
	}
}
