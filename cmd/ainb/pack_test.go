package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/sarc"
	"ainbeditor/internal/yaz0"
	"ainbeditor/internal/zs"
)

// unpack then pack gives the archive back: byte for byte when plain; through compression,
// whose encoders are not Nintendo's, the decompressed archive byte for byte.
func TestUnpackPack(t *testing.T) {
	dic := zsdic(t)
	c := codec(t)
	yaz0Decode := func(b []byte) ([]byte, error) { _, d, err := yaz0.Decompress(b); return d, err }
	for _, tc := range []struct {
		file   string
		unwrap func([]byte) ([]byte, error)
		check  func(t *testing.T, out []byte)
	}{
		{"sarc/A-1.00.sarc", nil, nil},
		{"sarc/test.sarc", nil, nil}, // big endian
		{"sarc/Armor_006_Upper.pack.zs", func(b []byte) ([]byte, error) { return c.Decompress(b, zs.MaxSize) }, func(t *testing.T, out []byte) {
			if id, err := zs.FrameDictID(out); id != zs.DictPack || err != nil {
				t.Errorf("frame dictionary %d (%v), want %d", id, err, zs.DictPack)
			}
		}},
		{"yaz0/Demo344_1.sbeventpack", yaz0Decode, func(t *testing.T, out []byte) {
			if h, err := yaz0.ParseHeader(out); h.Alignment != 0x100 || err != nil {
				t.Errorf("Yaz0 alignment %#x (%v), want 0x100 as in the original", h.Alignment, err)
			}
		}},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			src := glob(t, tc.file)[0]
			dir := filepath.Join(t.TempDir(), "files")
			if _, errs, code := runCLI(t, "unpack", "-zsdic", dic, src, dir); code != 0 {
				t.Fatalf("unpack: exit %d: %s", code, errs)
			}
			out := filepath.Join(t.TempDir(), filepath.Base(src))
			if _, errs, code := runCLI(t, "pack", dir, "-o", out, "-zsdic", dic); code != 0 {
				t.Fatalf("pack: exit %d: %s", code, errs)
			}
			want, got := readFile(t, src), readFile(t, out)
			if tc.check != nil {
				tc.check(t, got)
			}
			if tc.unwrap != nil {
				var err error
				if want, err = tc.unwrap(want); err != nil {
					t.Fatal(err)
				}
				if got, err = tc.unwrap(got); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(got, want) {
				t.Fatal("the packed archive differs from the original")
			}
			// Every member is a file under dir with its bytes.
			a, err := sarc.Read(want)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range a.Files {
				if b := readFile(t, filepath.Join(dir, filepath.FromSlash(f.Name))); !bytes.Equal(b, f.Data) {
					t.Errorf("%s differs from the member", f.Name)
				}
			}
		})
	}
}

// A directory without a manifest packs as a new little-endian archive, files by name hash.
func TestPackNew(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("bee"), 0o644)
	os.WriteFile(filepath.Join(dir, "sub", "a.txt"), []byte("ay"), 0o644)
	out := filepath.Join(t.TempDir(), "new.sarc")
	if _, errs, code := runCLI(t, "pack", "-o", out, dir); code != 0 {
		t.Fatalf("pack: exit %d: %s", code, errs)
	}
	want := sarc.Archive{HashMultiplier: 0x65}
	want.Add("sub/a.txt", []byte("ay"))
	want.Add("b.txt", []byte("bee"))
	wb, _ := want.Bytes()
	if got := readFile(t, out); !bytes.Equal(got, wb) {
		t.Fatalf("got\n%x\nwant\n%x", got, wb)
	}
}

// unpack refuses, before writing anything, members whose names would land outside DIR or
// not as one file of that name.
func TestUnpackHostile(t *testing.T) {
	for _, tc := range []struct {
		names []string
		err   string
	}{
		{[]string{"ok.txt", "../evil"}, `member "../evil": ".." in path`},
		{[]string{"a/../../evil"}, `member "a/../../evil": ".." in path`},
		{[]string{"/abs/evil"}, `member "/abs/evil": absolute path`},
		{[]string{`..\evil`}, `member "..\\evil": backslash in name`},
		{[]string{"a//b"}, `member "a//b": empty or "." path element`},
		{[]string{"a", "a/b"}, `member "a": another member's name uses it as a directory`},
		{[]string{manifestName}, `member ".sarc.yml": the name unpack keeps for the archive's layout`},
	} {
		a := sarc.Archive{HashMultiplier: 0x65}
		for _, n := range tc.names {
			if err := a.Add(n, []byte("x")); err != nil {
				t.Fatal(err)
			}
		}
		b, err := a.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		top := t.TempDir()
		src := filepath.Join(top, "hostile.sarc")
		os.WriteFile(src, b, 0o644)
		dir := filepath.Join(top, "out", "dir")
		_, errs, code := runCLI(t, "unpack", src, dir)
		if want := "ainb: " + src + ": " + tc.err + "\n"; code != 1 || errs != want {
			t.Errorf("%q: got %q (exit %d), want %q", tc.names, errs, code, want)
		}
		if _, err := os.Stat(filepath.Join(top, "out")); !os.IsNotExist(err) {
			t.Errorf("%q: unpack created its output directory (%v)", tc.names, err)
		}
		if _, err := os.Stat(filepath.Join(top, "evil")); !os.IsNotExist(err) {
			t.Errorf("%q: unpack wrote outside its directory", tc.names)
		}
	}
}

// A symbolic link already in DIR cannot carry a member outside it.
func TestUnpackSymlink(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "dir")
	os.MkdirAll(filepath.Join(top, "elsewhere"), 0o755)
	os.MkdirAll(dir, 0o755)
	if err := os.Symlink(filepath.Join(top, "elsewhere"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	a := sarc.Archive{HashMultiplier: 0x65}
	a.Add("link/evil", []byte("x"))
	b, _ := a.Bytes()
	src := filepath.Join(top, "link.sarc")
	os.WriteFile(src, b, 0o644)
	_, errs, code := runCLI(t, "unpack", src, dir)
	if code != 1 || !strings.Contains(errs, "path escapes from parent") {
		t.Fatalf("got %q (exit %d), want a refusal", errs, code)
	}
	if _, err := os.Stat(filepath.Join(top, "elsewhere", "evil")); !os.IsNotExist(err) {
		t.Fatal("unpack wrote through the link")
	}
}
