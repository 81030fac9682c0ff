package sarc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
)

// snapshot is an archive's observable content: names in SFAT order and data.
type snapshot struct {
	names []string
	data  map[string][]byte
}

func snap(t *testing.T, b []byte) (*Archive, snapshot) {
	t.Helper()
	a, err := Read(b)
	if err != nil {
		t.Fatal(err)
	}
	s := snapshot{data: map[string][]byte{}}
	for _, f := range a.Files {
		s.names = append(s.names, f.Name)
		s.data[f.Name] = bytes.Clone(f.Data)
	}
	return a, s
}

// offsets returns each file's absolute data offset in b.
func offsets(t *testing.T, b []byte) map[string]uint32 {
	t.Helper()
	a, err := Read(b)
	if err != nil {
		t.Fatal(err)
	}
	bo := binary.ByteOrder(binary.LittleEndian)
	if a.BigEndian {
		bo = binary.BigEndian
	}
	dataOff := bo.Uint32(b[12:])
	m := map[string]uint32{}
	for i, f := range a.Files {
		m[f.Name] = dataOff + bo.Uint32(b[0x20+16*i+8:])
	}
	return m
}

func editCorpus(t *testing.T, name string) []byte {
	for _, c := range corpusArchives(t) {
		if c.name == name {
			return c.data
		}
	}
	t.Fatalf("no corpus archive %s", name)
	return nil
}

// checkOnly verifies that after differs from before by exactly the described change.
func checkOnly(t *testing.T, before, after snapshot, a *Archive, wantNames []string, changed map[string][]byte) {
	t.Helper()
	if strings.Join(after.names, "\n") != strings.Join(wantNames, "\n") {
		t.Fatalf("names after edit:\n%v\nwant\n%v", after.names, wantNames)
	}
	for _, n := range after.names {
		want, ok := changed[n]
		if !ok {
			want = before.data[n]
		}
		if !bytes.Equal(after.data[n], want) {
			t.Errorf("%s: data differs (%d bytes, want %d)", n, len(after.data[n]), len(want))
		}
	}
	for i := 1; i < len(a.Files); i++ {
		if a.Hash(a.Files[i-1].Name) > a.Hash(a.Files[i].Name) {
			t.Errorf("SFAT not sorted by hash at %d", i)
		}
	}
}

func TestEditReplace(t *testing.T) {
	orig := editCorpus(t, "sarc/Accessory_Battery.pack.zs")
	a, before := snap(t, orig)
	target := a.Files[2].Name // a .bgyml in the middle of the data
	newData := []byte("YB\x07\x00 replaced with an odd length")
	if err := a.Replace(target, newData); err != nil {
		t.Fatal(err)
	}
	out, err := a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	b, after := snap(t, out)
	checkOnly(t, before, after, b, before.names, map[string][]byte{target: newData})

	// Files before the edited one stay where they were; later ones keep their recorded
	// alignment (8 in this archive) from their new starting point.
	oldOff, newOff := offsets(t, orig), offsets(t, out)
	for i, n := range before.names {
		switch {
		case i <= 2 && newOff[n] != oldOff[n]:
			t.Errorf("%s moved from 0x%x to 0x%x", n, oldOff[n], newOff[n])
		case newOff[n]%8 != 0:
			t.Errorf("%s at 0x%x, not 8-aligned", n, newOff[n])
		}
	}
	if err := a.Replace("missing", nil); err == nil || err.Error() != `sarc: replace "missing": no such file` {
		t.Errorf("replace missing: %v", err)
	}
}

func TestEditAddRemoveRename(t *testing.T) {
	orig := editCorpus(t, "sarc/ActorObserverByActorTagTag.sarc")

	a, before := snap(t, orig)
	add := []byte("AAMP new file")
	if err := a.Add("Actor/New.bxml", add); err != nil {
		t.Fatal(err)
	}
	out, err := a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	b, after := snap(t, out)
	want := sortedByHash(a, append(append([]string{}, before.names...), "Actor/New.bxml"))
	checkOnly(t, before, after, b, want, map[string][]byte{"Actor/New.bxml": add})
	if off := offsets(t, out)["Actor/New.bxml"]; off%4 != 0 {
		t.Errorf("new file at 0x%x, not aligned to the minimum 4", off)
	}
	if err := a.Add("Actor/New.bxml", nil); err == nil || err.Error() != `sarc: add "Actor/New.bxml": a file with that name exists` {
		t.Errorf("duplicate add: %v", err)
	}

	a, before = snap(t, orig)
	gone := before.names[1]
	if err := a.Remove(gone); err != nil {
		t.Fatal(err)
	}
	out, err = a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	b, after = snap(t, out)
	checkOnly(t, before, after, b, []string{before.names[0], before.names[2]}, nil)
	if _, ok := b.Lookup(gone); ok {
		t.Errorf("%s still present", gone)
	}

	a, before = snap(t, orig)
	old := before.names[0]
	if err := a.Rename(old, "Actor/Renamed.bxml"); err != nil {
		t.Fatal(err)
	}
	out, err = a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	b, after = snap(t, out)
	want = sortedByHash(a, []string{"Actor/Renamed.bxml", before.names[1], before.names[2]})
	before.data["Actor/Renamed.bxml"] = before.data[old]
	checkOnly(t, before, after, b, want, nil)
	if err := a.Rename(before.names[1], before.names[2]); err == nil {
		t.Error("rename onto an existing name succeeded")
	}
}

func sortedByHash(a *Archive, names []string) []string {
	out := append([]string(nil), names...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && a.Hash(out[j-1]) > a.Hash(out[j]); j-- {
			out[j-1], out[j] = out[j], out[j-1]
		}
	}
	return out
}

// bfh builds data carrying an nn::util::BinaryFileHeader that asks for 1<<log2 alignment.
func bfh(log2 byte, n int) []byte {
	b := make([]byte, n)
	copy(b, "FRES    ")
	b[0xC], b[0xD], b[0xE] = 0xFF, 0xFE, log2
	binary.LittleEndian.PutUint32(b[0x1C:], uint32(n))
	return b
}

func TestNewArchiveAlignment(t *testing.T) {
	a := &Archive{}
	files := map[string][]byte{
		"a.txt":         []byte("hello"),
		"b.bfres":       bfh(12, 0x40),        // header asks for 0x1000
		"c.sharc":       []byte("sharc data"), // extension table: 0x1000
		"d.baglenv":     []byte("env"),        // extension table: 8
		"e.bin":         bfh(3, 0x21),
		"f.bffnt":       []byte("font"), // 0x1000 little endian
		"dir/g.byml":    {},
		"unicode/ü.bin": []byte("x"),
	}
	want := map[string]uint32{"a.txt": 4, "b.bfres": 0x1000, "c.sharc": 0x1000, "d.baglenv": 8, "e.bin": 8, "f.bffnt": 0x1000, "dir/g.byml": 4, "unicode/ü.bin": 4}
	for n, d := range files {
		if err := a.Add(n, d); err != nil {
			t.Fatal(err)
		}
	}
	out, err := a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	r, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Files) != len(files) || r.BigEndian || r.HashMultiplier != 0x65 {
		t.Fatalf("read back %d files, big endian %v, multiplier %#x", len(r.Files), r.BigEndian, r.HashMultiplier)
	}
	offs := offsets(t, out)
	for n, al := range want {
		if offs[n]%al != 0 {
			t.Errorf("%s at 0x%x, want alignment 0x%x", n, offs[n], al)
		}
		if d, _ := r.Lookup(n); !bytes.Equal(d, files[n]) {
			t.Errorf("%s: data differs", n)
		}
	}
	// The data section starts aligned for the most demanding file, as oead does.
	if dataOff := binary.LittleEndian.Uint32(out[12:]); dataOff%0x1000 != 0 {
		t.Errorf("data offset 0x%x not 0x1000-aligned", dataOff)
	}
	// Written twice, the same bytes; and re-reading then writing is the identity.
	again, _ := a.Bytes()
	re, err := r.Bytes()
	if err != nil || !bytes.Equal(again, out) || !bytes.Equal(re, out) {
		t.Fatalf("writes not stable: %v", err)
	}
}

func TestBigEndianAndFlim(t *testing.T) {
	flim := make([]byte, 0x100)
	copy(flim[len(flim)-0x28:], "FLIM")
	binary.BigEndian.PutUint16(flim[len(flim)-8:], 0x200)
	a := &Archive{BigEndian: true}
	for _, n := range []string{"x.dat", "timg/y.bflim", "z.bffnt"} {
		d := []byte("abc")
		if strings.HasSuffix(n, "bflim") {
			d = flim
		}
		if err := a.Add(n, d); err != nil {
			t.Fatal(err)
		}
	}
	out, err := a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out[6:8], []byte{0xFE, 0xFF}) {
		t.Fatalf("byte order mark % x", out[6:8])
	}
	offs := offsets(t, out)
	if offs["timg/y.bflim"]%0x200 != 0 || offs["z.bffnt"]%0x2000 != 0 {
		t.Fatalf("offsets %v", offs)
	}
}

func TestHashCollisionIndex(t *testing.T) {
	// With multiplier 1 the hash is the byte sum: "ab" and "ba" collide.
	a := &Archive{HashMultiplier: 1}
	for _, n := range []string{"ab", "ba", "c"} {
		if err := a.Add(n, []byte(n)); err != nil {
			t.Fatal(err)
		}
	}
	out, err := a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	var attrs []string
	for i := 0; i < 3; i++ {
		attrs = append(attrs, fmt.Sprintf("%08x", binary.LittleEndian.Uint32(out[0x20+16*i+4:])))
	}
	if got := strings.Join(attrs, " "); got != "01000000 01000001 02000002" {
		t.Fatalf("attributes %s", got)
	}
	r, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Files[0].Name != "c" || r.Files[1].Name != "ab" || r.Files[2].Name != "ba" {
		t.Fatalf("order %q %q %q", r.Files[0].Name, r.Files[1].Name, r.Files[2].Name)
	}
}

func TestHeaderAlignmentCap(t *testing.T) {
	for _, c := range []struct {
		log2 byte
		want uint32
	}{{13, 0x2000}, {14, 1}, {31, 1}, {255, 1}} {
		if got := binaryFileHeaderAlignment(bfh(c.log2, 0x40)); got != c.want {
			t.Errorf("log2 %d: alignment %#x, want %#x", c.log2, got, c.want)
		}
	}
}

// Growing the first file by one byte shifts every later file; each must land on its
// recorded alignment (or recorded padding) and keep its bytes, in every corpus archive.
func TestCorpusGrowFirstFile(t *testing.T) {
	for _, c := range corpusArchives(t) {
		t.Run(c.name, func(t *testing.T) {
			a, before := snap(t, c.data)
			first := a.Files[0].Name
			grown := append(bytes.Clone(a.Files[0].Data), 0x5A)
			if err := a.Replace(first, grown); err != nil {
				t.Fatal(err)
			}
			out, err := a.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			b, after := snap(t, out)
			checkOnly(t, before, after, b, before.names, map[string][]byte{first: grown})
			offs := offsets(t, out)
			oldOffs := offsets(t, c.data)
			for i, f := range a.Files {
				if i == 0 {
					if want := a.ruleAlignment(f.Name, f.Data); offs[f.Name]%want != 0 {
						t.Errorf("%s at 0x%x, want alignment 0x%x", f.Name, offs[f.Name], want)
					}
					continue
				}
				p := f.placed
				prevEnd := offs[a.Files[i-1].Name] + uint32(len(a.Files[i-1].Data))
				if p.pad != 0 && offs[f.Name] != prevEnd+p.pad || p.pad == 0 && offs[f.Name] != alignUp(prevEnd, p.align) {
					t.Errorf("%s at 0x%x (was 0x%x): recorded align 0x%x pad 0x%x after 0x%x", f.Name, offs[f.Name], oldOffs[f.Name], p.align, p.pad, prevEnd)
				}
			}
		})
	}
}
