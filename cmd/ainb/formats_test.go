package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ainbeditor/internal/byml"
	"ainbeditor/internal/sarc"
	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/yaz0"
	"ainbeditor/internal/zs"
)

// zsdic returns the corpus's ZsDic.pack.zs and clears AINB_ZSDIC so that only what a test
// passes counts.
func zsdic(t *testing.T) string {
	t.Helper()
	t.Setenv("AINB_ZSDIC", "")
	return filepath.Join(testcorpus.Dir(t), "zstd", zs.ZsDicName)
}

func glob(t *testing.T, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(testcorpus.Dir(t), pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus files match %s (%v)", pattern, err)
	}
	return files
}

func write(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func codec(t *testing.T) *zs.Codec {
	t.Helper()
	c, err := zs.LoadZsDic(readFile(t, zsdic(t)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// Every SARC, Yaz0 and zstd file of the corpus checks, members included.
func TestCheckCorpusArchives(t *testing.T) {
	dic := zsdic(t)
	files := slices.Concat(glob(t, "sarc/*"), glob(t, "yaz0/*"), glob(t, "zstd/*"))
	out, errs, code := runCLI(t, append([]string{"check", "-zsdic", dic}, files...)...)
	var want strings.Builder
	for _, f := range files {
		want.WriteString("ok " + f + "\n")
	}
	if out != want.String() || code != 0 || errs != "" {
		t.Fatalf("got exit %d, stderr %q, output\n%s\nwant exit 0, output\n%s", code, errs, out, want.String())
	}
}

// Every zstd-compressed file anywhere in the corpus checks: Nintendo's frames, which carry
// their content size, and the resaved ones, which carry none and declare a 4 MiB window
// larger than their output limit.
func TestCheckCorpusZs(t *testing.T) {
	dic := zsdic(t)
	var files []string
	filepath.WalkDir(testcorpus.Dir(t), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".zs") {
			files = append(files, p)
		}
		return err
	})
	if len(files) < 8 || !slices.ContainsFunc(files, func(f string) bool { return strings.Contains(f, "totk-resaved") }) {
		t.Fatalf("%d .zs files in the corpus, want 8 or more, resaved ones among them:\n%s", len(files), strings.Join(files, "\n"))
	}
	out, errs, code := runCLI(t, append([]string{"check", "-zsdic", dic}, files...)...)
	if code != 0 || errs != "" || notOK(out) != "" {
		t.Fatalf("exit %d, stderr %q; lines that are not ok:\n%s", code, errs, notOK(out))
	}
}

func TestCheckCorpusAAMP(t *testing.T) {
	var files []string
	filepath.WalkDir(filepath.Join(testcorpus.Dir(t), "aamp"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".yml") {
			files = append(files, p)
		}
		return err
	})
	if len(files) < 1800 {
		t.Fatalf("%d AAMP files in the corpus, want 1,800 or more", len(files))
	}
	out, _, code := runCLI(t, append([]string{"check"}, files...)...)
	var want strings.Builder
	for _, f := range files {
		want.WriteString("ok " + f + "\n")
	}
	if out != want.String() || code != 0 {
		t.Fatalf("exit %d; lines that are not ok:\n%s", code, notOK(out))
	}
}

func notOK(out string) string {
	var s []string
	for l := range strings.Lines(out) {
		if !strings.HasPrefix(l, "ok ") {
			s = append(s, l)
		}
	}
	return strings.Join(s, "")
}

// A .zs file that needs a dictionary names it and says how to load it, from the flag or the
// environment.
func TestCheckZsDic(t *testing.T) {
	dic := zsdic(t)
	pack := glob(t, "sarc/Armor_006_Upper.pack.zs")[0]
	out, _, code := runCLI(t, "check", pack)
	want := "FAIL " + pack + ": zstd frame needs dictionary 3 (TotK's pack.zsdic); give its path with -zsdic PATH or AINB_ZSDIC\n"
	if out != want || code != 1 {
		t.Fatalf("got %q (exit %d), want %q", out, code, want)
	}
	t.Setenv("AINB_ZSDIC", dic)
	if out, _, code := runCLI(t, "check", pack); out != "ok "+pack+"\n" || code != 0 {
		t.Fatalf("with AINB_ZSDIC: %q (exit %d)", out, code)
	}
	if _, errs, code := runCLI(t, "check", "-zsdic", pack+".missing", pack); code != 1 || !strings.HasPrefix(errs, "ainb: -zsdic: open ") {
		t.Fatalf("a missing -zsdic file: %q (exit %d)", errs, code)
	}
}

// Corrupted copies fail with the reason, inside every kind of wrapping.
func TestCheckCorrupt(t *testing.T) {
	c := codec(t)
	dic := zsdic(t)
	good := readFile(t, glob(t, "aamp/Horse.blifecondition")[0])
	bad := bytes.Clone(good)
	bad[4] = 3 // version
	const badReason = "aamp: malformed data: at 0x4: version 3 is not supported (only 2)"

	arc := sarc.Archive{HashMultiplier: 0x65}
	arc.Add("a/good.bxml", good)
	arc.Add("b/bad.bxml", bad)
	pack, err := arc.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	yz, _ := yaz0.Compress(bad, 0)
	nestedArc := sarc.Archive{HashMultiplier: 0x65}
	nestedArc.Add("inner.pack", pack)
	yzGood, _ := yaz0.Compress(good, 0)
	nestedArc.Add("c/good.sbxml", yzGood)
	nested, _ := nestedArc.Bytes()
	zsBad, _ := c.Compress(zs.DictZs, bad, zs.Smallest)
	packZs, _ := c.Compress(zs.DictPack, pack, zs.Smallest)
	truncated, _ := yaz0.Compress(good, 0)
	truncated = truncated[:len(truncated)/2]
	hdr := bytes.Clone(pack)
	hdr[0x14] = 'X' // SFAT magic

	for _, tc := range []struct {
		name   string
		data   []byte
		reason string
	}{
		{"bad.bxml", bad, badReason},
		{"bad.sbxml", yz, badReason},
		{"bad.bxml.zs", zsBad, badReason},
		{"bad.pack", pack, "member b/bad.bxml: " + badReason},
		{"bad.pack.zs", packZs, "member b/bad.bxml: " + badReason},
		{"nested.pack", nested, "member inner.pack: member b/bad.bxml: " + badReason},
		{"truncated.sbxml", truncated, "yaz0: at 0x3d: input ends inside literal (decoded 65 of 136 bytes)"},
		{"header.pack", hdr, `sarc: at 0x14: magic "XFAT", want "SFAT"`},
		{"unknown.bin", []byte("ABCDEFGH"), `unknown format (magic "ABCD")`},
		{"empty.bin", nil, `unknown format (magic "")`},
	} {
		p := write(t, tc.name, tc.data)
		out, _, code := runCLI(t, "check", "-zsdic", dic, p)
		want := "FAIL " + p + ": " + tc.reason + "\n"
		if out != want || code != 1 {
			t.Errorf("%s: got %q (exit %d), want %q", tc.name, out, code, want)
		}
	}
}

// Every BYML corpus file (plain, Yaz0 or zstd, Nintendo's or resaved) checks ok; dump is the
// codec's YAML, and build of that YAML with the file's version gives the canonical bytes,
// which read back to the same YAML.
func TestBYML(t *testing.T) {
	dic := zsdic(t)
	files := slices.Concat(glob(t, "byml/*.byml"), glob(t, "byml/*.sbyml"), glob(t, "byml/totk/*"), glob(t, "byml/totk-resaved/*.bgyml"))
	out, errs, code := runCLI(t, append([]string{"check", "-zsdic", dic}, files...)...)
	if code != 0 || errs != "" {
		t.Fatalf("check: exit %d, %s; lines that are not ok:\n%s", code, errs, notOK(out))
	}
	tmp := t.TempDir()
	for _, f := range []string{glob(t, "byml/USen.byml")[0], glob(t, "byml/totk/*AIInfo*.bgyml")[0]} {
		yml, errs, code := runCLI(t, "dump", f)
		doc, err := byml.Read(readFile(t, f))
		if err != nil {
			t.Fatal(err)
		}
		want, err := doc.ToYAML()
		if code != 0 || errs != "" || err != nil || yml != string(want) {
			t.Fatalf("dump %s: exit %d, %s, %v; output differs from ToYAML: %v", f, code, errs, err, yml != string(want))
		}
		in := write(t, filepath.Base(f)+".yml", want)
		bin := filepath.Join(tmp, filepath.Base(f))
		version := fmt.Sprint(doc.Version)
		if _, errs, code := runCLI(t, "build", "-byml-version", version, in, "-o", bin); code != 0 || errs != "" {
			t.Fatalf("build %s: exit %d: %s", f, code, errs)
		}
		back, err := byml.Read(readFile(t, bin))
		if err != nil {
			t.Fatal(err)
		}
		canonical, _ := doc.BytesCanonical()
		// The canonical layout writes equal containers once, so the built file shares
		// them and its YAML anchors them where the original's did not: compare values,
		// and the YAML with that of the canonical file read back.
		canonDoc, _ := byml.Read(canonical)
		wantAgain, _ := canonDoc.ToYAML()
		again, _ := back.ToYAML()
		if back.Version != doc.Version || string(readFile(t, bin)) != string(canonical) || !byml.Equal(back.Root, doc.Root) || string(again) != string(wantAgain) {
			t.Errorf("%s: built version %d (want %d), canonical bytes %v, same values %v, same YAML %v", f, back.Version, doc.Version,
				string(readFile(t, bin)) == string(canonical), byml.Equal(back.Root, doc.Root), string(again) == string(wantAgain))
		}
	}
}

// YAML that is neither AAMP's nor JSON is BYML, written in the version and byte order asked.
func TestBuildBYMLOptions(t *testing.T) {
	in := write(t, "list.yml", []byte("[1, !u 0x2, {a: 3.0}]\n"))
	for _, tc := range []struct {
		args    []string
		magic   string
		version uint16
	}{
		{[]string{"-byml-version", "7", "-be"}, "BY\x00\x07", 7},
		// Version 1, Super Mario Odyssey's and Splatoon 2's, in both byte orders.
		{[]string{"-byml-version", "1", "-be"}, "BY\x00\x01", 1},
		{[]string{"-byml-version", "1"}, "YB\x01\x00", 1},
	} {
		out := filepath.Join(t.TempDir(), "x.byml")
		if _, errs, code := runCLI(t, append(append([]string{"build"}, tc.args...), in, "-o", out)...); code != 0 || errs != "" {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errs)
		}
		b := readFile(t, out)
		doc, err := byml.Read(b)
		if err != nil || string(b[:4]) != tc.magic || doc.Version != tc.version || doc.BigEndian != (tc.magic[0] == 'B') {
			t.Fatalf("%v: header %q, version %d, big endian %v: %v", tc.args, b[:4], doc.Version, doc.BigEndian, err)
		}
		if y, _ := doc.ToYAML(); string(y) != "- 1\n- !u 0x00000002\n- {a: 3.0}\n" {
			t.Fatalf("%v: reads back as %q", tc.args, y)
		}
	}
}
