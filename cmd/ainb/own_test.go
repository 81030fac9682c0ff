package main

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/sarc"
)

// A pack this tool writes checks, however well it compresses: 4 MiB of zeros in a .pack.zs
// is some 150 bytes, 28,000 times smaller, past the 256x budget check once had.
func TestCheckOwnZstdOutput(t *testing.T) {
	dic := zsdic(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "zeros.bin"), make([]byte, 4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "zeros.pack.zs")
	if _, errs, code := runCLI(t, "pack", "-zsdic", dic, "-o", out, dir); code != 0 {
		t.Fatalf("pack: exit %d: %s", code, errs)
	}
	if n := len(readFile(t, out)); n > 4<<20/10000 {
		t.Fatalf("the pack is %d bytes: not compressible enough to test the budget", n)
	}
	got, errs, code := runCLI(t, "check", "-zsdic", dic, out)
	if code != 0 || got != "ok "+out+"\n" {
		t.Fatalf("check: exit %d, %q %s", code, got, errs)
	}
}

// check prints what a layer accepted although it breaks its format's rules, after the file's
// verdict, named by the members it is in: here a SARC written as a modding tool writes it
// (header size 4 short, 5 zero bytes after the data at 0x44: header 0x14, SFAT 0x1c, SFNT 8 and one name of 8, then 4 bytes of data), bare and inside another archive.
func TestCheckWarnings(t *testing.T) {
	a := &sarc.Archive{}
	a.Add("a.txt", []byte("AAAA"))
	inner, _ := a.Bytes()
	inner = append(inner, 0, 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(inner[8:], uint32(len(inner)-4))
	outer := &sarc.Archive{}
	outer.Add("Pack/inner.sarc", inner)
	ob, _ := outer.Bytes()
	bare, nested := write(t, "bare.sarc", inner), write(t, "outer.sarc", ob)
	got, _, code := runCLI(t, "check", bare, nested)
	want := "ok BARE\n" +
		"warning BARE: sarc: at 0x8: file size 69, but the archive is 73 bytes (4 more; a modding tool's mistake, the game loads it); written back as it is while the archive is unedited\n" +
		"warning BARE: sarc: at 0x44: 5 zero bytes after the last file's data, part of no file; written back as they are while the archive is unedited\n" +
		"ok NESTED\n" +
		"warning NESTED: member Pack/inner.sarc: sarc: at 0x8: file size 69, but the archive is 73 bytes (4 more; a modding tool's mistake, the game loads it); written back as it is while the archive is unedited\n" +
		"warning NESTED: member Pack/inner.sarc: sarc: at 0x44: 5 zero bytes after the last file's data, part of no file; written back as they are while the archive is unedited\n"
	got = strings.NewReplacer(bare, "BARE", nested, "NESTED").Replace(got)
	if code != 0 || got != want {
		t.Fatalf("exit %d, output\n%s\nwant\n%s", code, got, want)
	}
}
