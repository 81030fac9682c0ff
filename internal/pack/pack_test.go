package pack

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/yaz0"
	"ainbeditor/internal/zs"
)

func read(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func codec(t testing.TB) *zs.Codec {
	t.Helper()
	c, err := zs.LoadZsDic(read(t, "zstd/ZsDic.pack.zs"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// unwrap is the archive inside a corpus pack, decoded apart from this package.
func unwrap(t testing.TB, c *zs.Codec, b []byte) []byte {
	t.Helper()
	switch Format(b) {
	case "zstd":
		out, err := c.Decompress(b, zs.MaxSize)
		if err != nil {
			t.Fatal(err)
		}
		return out
	case "yaz0":
		_, out, err := yaz0.Decompress(b)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	return b
}

// The corpus's archives: every one opens; saved unedited, the archive inside comes back
// byte for byte in the same wrapping (a bare archive is its input again).
func TestCorpusUnedited(t *testing.T) {
	c := codec(t)
	files := []string{"sarc/A-1.00.sarc", "sarc/ActorObserverByActorTagTag.sarc", "sarc/test.sarc",
		"sarc/Accessory_Battery.pack.zs", "sarc/Armor_006_Upper.pack.zs", "yaz0/Demo344_1.sbeventpack"}
	for _, name := range files {
		in := read(t, name)
		p, err := Open(in, c, 0)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(p.Members()) == 0 {
			t.Errorf("%s: no members", name)
		}
		out, err := p.Save(c, zs.Fast)
		if err != nil {
			t.Fatalf("%s: save: %v", name, err)
		}
		if Format(out) != Format(in) {
			t.Fatalf("%s: saved as %q, read as %q", name, Format(out), Format(in))
		}
		if Format(in) == "sarc" && !bytes.Equal(out, in) {
			t.Errorf("%s: an unedited archive did not save byte for byte", name)
		}
		if !bytes.Equal(unwrap(t, c, out), unwrap(t, c, in)) {
			t.Errorf("%s: the archive inside changed", name)
		}
		again, err := Open(out, c, 0)
		if err != nil {
			t.Fatalf("%s: reopen: %v", name, err)
		}
		if again.Wrapping != p.Wrapping {
			t.Errorf("%s: wrapping %+v saved as %+v", name, p.Wrapping, again.Wrapping)
		}
	}
}

// Replacing two members of a TotK pack: the saved pack has exactly those two new, every other
// member byte-identical, and the same dictionary.
func TestReplaceMembers(t *testing.T) {
	c := codec(t)
	in := read(t, "sarc/Armor_006_Upper.pack.zs")
	p, err := Open(in, c, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p.Wrapping != (Wrapping{Kind: "zstd", Dictionary: zs.DictPack}) {
		t.Fatalf("wrapping %+v", p.Wrapping)
	}
	ms := p.Members()
	if len(ms) < 3 {
		t.Fatalf("%d members", len(ms))
	}
	orig := map[string][]byte{}
	for _, f := range p.Archive.Files {
		orig[f.Name] = bytes.Clone(f.Data)
	}
	edits := map[string][]byte{
		ms[0].Name: append(bytes.Clone(orig[ms[0].Name]), "edited"...),
		ms[2].Name: []byte("short"),
	}
	for n, b := range edits {
		if err := p.Replace(n, b); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Replace("no/such/file", nil); err == nil || !strings.Contains(err.Error(), `"no/such/file"`) {
		t.Errorf("replacing a missing member: %v", err)
	}
	out, err := p.Save(c, zs.Fast)
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := zs.FrameDictID(out); id != zs.DictPack {
		t.Errorf("saved with dictionary %d", id)
	}
	q, err := Open(out, c, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Archive.Files) != len(orig) {
		t.Fatalf("%d members saved, %d read", len(q.Archive.Files), len(orig))
	}
	for _, f := range q.Archive.Files {
		want, edited := edits[f.Name]
		if !edited {
			want = orig[f.Name]
		}
		if !bytes.Equal(f.Data, want) {
			t.Errorf("member %s: %d bytes, want %d (edited %v)", f.Name, len(f.Data), len(want), edited)
		}
	}
}

// Without the dictionary the message names it; data that is no archive says what it is.
func TestOpenErrors(t *testing.T) {
	_, err := Open(read(t, "sarc/Accessory_Battery.pack.zs"), nil, 0)
	if !errors.Is(err, zs.ErrMissingDict) || err.Error() != "zstd frame needs dictionary 3 (TotK's pack.zsdic)" {
		t.Errorf("no dictionary: %v", err)
	}
	_, err = Open(read(t, "yaz0/0-0.shknm2"), nil, 0)
	if !errors.Is(err, ErrNotArchive) || err.Error() != "pack: yaz0 decompresses to data of no known format: not a SARC archive" {
		t.Errorf("yaz0 data: %v", err)
	}
	_, err = Open([]byte("AIB \x07\x04\x00\x00"), nil, 0)
	if !errors.Is(err, ErrNotArchive) || err.Error() != "pack: the file is ainb: not a SARC archive" {
		t.Errorf("an AINB file: %v", err)
	}
	// Past the caller's limit, in either wrapping.
	if _, err = Open(read(t, "sarc/Armor_006_Upper.pack.zs"), codec(t), 1000); err == nil || !strings.Contains(err.Error(), "1000") {
		t.Errorf("zstd past the limit: %v", err)
	}
	if _, err = Open(read(t, "yaz0/Demo344_1.sbeventpack"), nil, 1000); err == nil || err.Error() != "the file decompresses to 2847908 bytes, more than the limit of 1000" {
		t.Errorf("yaz0 past the limit: %v", err)
	}
	// A truncated archive keeps the reader's own message, with its offset.
	in := read(t, "sarc/ActorObserverByActorTagTag.sarc")
	if _, err = Open(in[:len(in)/2], nil, 0); err == nil || !strings.Contains(err.Error(), "0x") {
		t.Errorf("truncated archive: %v", err)
	}
}

func TestFormat(t *testing.T) {
	for in, want := range map[string]string{
		"AIB \x07\x04": "ainb", "AAMP\x02\x00": "aamp", "SARC": "sarc", "YB\x07\x00": "byml", "BY\x00\x03": "byml",
		"YB\x00\x00": "", "YB\x0b\x00": "", "Yaz0": "yaz0", "\x28\xb5\x2f\xfd": "zstd", "\x37\xa4\x30\xec": "zsdic", "": "", "xyz": "",
	} {
		if got := Format([]byte(in)); got != want {
			t.Errorf("Format(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzOpen(f *testing.F) {
	for _, name := range []string{"sarc/ActorObserverByActorTagTag.sarc", "yaz0/0-0.shknm2"} {
		b, err := os.ReadFile(filepath.Join(testcorpus.Dir(f), name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Open(b, nil, 0)
		if err != nil {
			return
		}
		out, err := p.Save(nil, zs.Fast)
		if err != nil {
			return
		}
		q, err := Open(out, nil, 0)
		if err != nil {
			t.Fatalf("a saved pack does not open: %v", err)
		}
		if len(q.Archive.Files) != len(p.Archive.Files) {
			t.Fatalf("%d members saved, %d read", len(p.Archive.Files), len(q.Archive.Files))
		}
	})
}
