package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/aamp"
	"ainbeditor/internal/sarc"
	"ainbeditor/internal/yaz0"
	"ainbeditor/internal/zs"
)

// dump of an AAMP file, plain or wrapped, is aamp's YAML, and build turns that YAML back
// into the file, compressed as the output name says.
func TestDumpBuildAAMP(t *testing.T) {
	dic := zsdic(t)
	c := codec(t)
	src := glob(t, "aamp/Enemy_Lizalfos_Electric.bchemical")[0]
	orig := readFile(t, src)
	pio, err := aamp.Read(orig)
	if err != nil {
		t.Fatal(err)
	}
	want, err := aamp.ToYAML(pio)
	if err != nil {
		t.Fatal(err)
	}
	yz, _ := yaz0.Compress(orig, 0)
	z, _ := c.Compress(zs.DictZs, orig, zs.Smallest)
	for _, in := range []string{src, write(t, "x.sbchemical", yz), write(t, "x.bchemical.zs", z)} {
		out, errs, code := runCLI(t, "dump", "-zsdic", dic, in)
		if code != 0 || out != string(want) {
			t.Fatalf("dump %s: exit %d %s; output differs from aamp.ToYAML:\n%.300s", in, code, errs, out)
		}
	}

	yml := write(t, "x.yml", want)
	tmp := t.TempDir()
	for _, tc := range []struct {
		out    string
		flags  []string
		unwrap func([]byte) ([]byte, error)
	}{
		{"plain.bchemical", nil, nil},
		{"x.sbchemical", nil, func(b []byte) ([]byte, error) { _, d, err := yaz0.Decompress(b); return d, err }},
		{"forced.bchemical", []string{"-yaz0"}, func(b []byte) ([]byte, error) { _, d, err := yaz0.Decompress(b); return d, err }},
		{"unforced.sbchemical", []string{"-yaz0=false"}, nil},
		{"plain.sarc", nil, nil}, // .sarc is the uncompressed extension
		{"x.bchemical.zs", []string{"-zsdic", dic}, func(b []byte) ([]byte, error) { return c.Decompress(b, zs.MaxSize) }},
	} {
		p := filepath.Join(tmp, tc.out)
		args := append([]string{"build", yml, "-o", p}, tc.flags...)
		if _, errs, code := runCLI(t, args...); code != 0 {
			t.Fatalf("build -o %s: exit %d: %s", tc.out, code, errs)
		}
		got := readFile(t, p)
		if tc.unwrap != nil {
			if got, err = tc.unwrap(got); err != nil {
				t.Fatalf("%s: %v", tc.out, err)
			}
		}
		if !bytes.Equal(got, orig) {
			t.Errorf("%s: built file differs from the original", tc.out)
		}
	}
	// The .zs output uses dictionary 1, the game's for plain .zs names.
	if id, err := zs.FrameDictID(readFile(t, filepath.Join(tmp, "x.bchemical.zs"))); id != zs.DictZs || err != nil {
		t.Errorf("x.bchemical.zs frame dictionary %d (%v), want %d", id, err, zs.DictZs)
	}
}

func TestBuildTextErrors(t *testing.T) {
	dic := zsdic(t)
	tmp := t.TempDir()
	src := glob(t, "aamp/Horse.blifecondition")[0]
	yml, _, _ := runCLI(t, "dump", src)
	in := write(t, "h.yml", []byte(yml))
	byml := write(t, "byml.yml", []byte("# BYML\nkey: 1\n"))
	bad := write(t, "bad.yml", []byte("!io\nversion: 0\ntype: xml\nparam_root: 7\n"))
	for _, tc := range []struct {
		args []string
		code int
		errs string
	}{
		{[]string{"build", "-byml-version", "8", byml, "-o", filepath.Join(tmp, "x.byml")}, 2,
			"ainb: -byml-version 8: BYML is written in versions 1 to 7\n"},
		{[]string{"build", bad, "-o", filepath.Join(tmp, "x.bxml")}, 1,
			"ainb: " + bad + ": aamp: yaml: line 4 column 13 (at param_root): parameter list is not a mapping\n"},
		{[]string{"build", in, "-o", filepath.Join(tmp, "x.pack.zs")}, 1,
			"ainb: zstd frame needs dictionary 3 (TotK's pack.zsdic); give its path with -zsdic PATH or AINB_ZSDIC\n"},
		{[]string{"build", "-yaz0", "-zsdic", dic, in, "-o", filepath.Join(tmp, "y.bxml.zs")}, 2,
			"ainb: " + filepath.Join(tmp, "y.bxml.zs") + ": -yaz0 and a .zs name ask for two compressions\n"},
	} {
		_, errs, code := runCLI(t, tc.args...)
		if code != tc.code || errs != tc.errs {
			t.Errorf("%v: got %q (exit %d), want %q (exit %d)", tc.args, errs, code, tc.errs, tc.code)
		}
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("failed builds wrote %d files", len(ents))
	}
}

// dump lists an archive's files with their formats, through the archive's compression.
func TestDumpSARC(t *testing.T) {
	dic := zsdic(t)
	out, errs, code := runCLI(t, "dump", glob(t, "sarc/ActorObserverByActorTagTag.sarc")[0])
	want := "Actor/ActorLink/ActorObserverByActorTagTag.bxml     436  aamp\n" +
		"Actor/ModelList/ActorObserverTag.bmodellist         608  aamp\n" +
		"Actor/AIProgram/ActorObserverByActorTagTag.baiprog  552  aamp\n"
	if out != want || code != 0 {
		t.Fatalf("got %q (exit %d, %s), want %q", out, code, errs, want)
	}
	out, _, code = runCLI(t, "dump", glob(t, "zstd/ZsDic.pack.zs")[0])
	want = "zs.zsdic          131072  zsdic\n" +
		"bcett.byml.zsdic  131072  zsdic\n" +
		"pack.zsdic        131072  zsdic\n"
	if out != want || code != 0 {
		t.Fatalf("ZsDic.pack.zs: got %q (exit %d), want %q", out, code, want)
	}
	out, _, _ = runCLI(t, "dump", "-zsdic", dic, glob(t, "sarc/Accessory_Battery.pack.zs")[0])
	if !bytes.Contains([]byte(out), []byte("AI/Accessory_Battery.root.ainb ")) {
		t.Fatalf("Accessory_Battery.pack.zs listing lacks its AINB:\n%s", out)
	}
	out, _, _ = runCLI(t, "dump", glob(t, "yaz0/Demo344_1.sbeventpack")[0])
	if !bytes.Contains([]byte(out), []byte(fmt.Sprintf("%-64s  %7d  %s\n", "Model/Demo344_1.sbfres", 152916, `yaz0+unknown "FRES"`))) {
		t.Fatalf("Demo344_1.sbeventpack listing lacks its Yaz0 model:\n%s", out)
	}
	_, errs, code = runCLI(t, "dump", "-compat", glob(t, "sarc/ActorObserverByActorTagTag.sarc")[0])
	if code != 1 || !bytes.HasSuffix([]byte(errs), []byte(": -compat applies to AINB only, this is sarc\n")) {
		t.Fatalf("dump -compat of a SARC: %q (exit %d)", errs, code)
	}
}

// A long name does not pad every other line of a listing to its length.
func TestDumpSARCLongName(t *testing.T) {
	long := strings.Repeat("n", 200)
	a := sarc.Archive{HashMultiplier: 0x65}
	a.Add("a", []byte("AAMP"))
	a.Add(long, []byte("Yaz0"))
	b, _ := a.Bytes()
	out, errs, code := runCLI(t, "dump", write(t, "long.sarc", b))
	lines := map[string]bool{
		"a" + strings.Repeat(" ", 63) + "  4  aamp\n": true,
		long + "  4  yaz0+?\n":                        true,
	}
	for l := range strings.Lines(out) {
		if !lines[l] {
			t.Errorf("unexpected line %q", l)
		}
		delete(lines, l)
	}
	if len(lines) != 0 || code != 0 {
		t.Fatalf("missing lines %v (exit %d, %s)", lines, code, errs)
	}
}
