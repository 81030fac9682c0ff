package sarc

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ainbeditor/internal/testcorpus"
)

// toolWritten is small() as a modding tool writes it (the 37 TotK packs of the game files
// written so): five zero bytes after the last file's data, and a header file size 4 less
// than the archive's length.
func toolWritten(t testing.TB) []byte {
	b := append(small(t), 0, 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(b[8:], uint32(len(b)-4))
	return b
}

func warningStrings(a *Archive) []string {
	var out []string
	for _, w := range a.Warnings() {
		out = append(out, w.String())
	}
	return out
}

func TestToolWrittenSizeRoundTrip(t *testing.T) {
	in := toolWritten(t)
	a, err := Read(in)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(warningStrings(a), "\n")
	want := "sarc: at 0x8: file size 101, but the archive is 105 bytes (4 more; a modding tool's mistake, the game loads it); written back as it is while the archive is unedited\n" +
		"sarc: at 0x64: 5 zero bytes after the last file's data, part of no file; written back as they are while the archive is unedited"
	if got != want {
		t.Fatalf("warnings\n%s\nwant\n%s", got, want)
	}
	out, err := a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, in) {
		t.Fatalf("unedited archive written as\n% x\nwant\n% x", out, in)
	}
	// Nothing of the input is handed back: the output is a buffer of its own.
	if &out[0] == &in[0] {
		t.Fatal("Bytes returned the input buffer")
	}

	// Replacing a file with the same bytes in a new slice is an edit: the size comes out
	// true and the tail is gone, and Warnings says so.
	if err := a.Replace("b.txt", []byte("BBBBBBBB")); err != nil {
		t.Fatal(err)
	}
	got = strings.Join(warningStrings(a), "\n")
	want = "sarc: at 0x8: file size 101, but the archive is 105 bytes (4 more; a modding tool's mistake, the game loads it); the edited archive is written with its true size\n" +
		"sarc: at 0x64: 5 zero bytes after the last file's data, part of no file; left out of the edited archive"
	if got != want {
		t.Fatalf("warnings after the edit\n%s\nwant\n%s", got, want)
	}
	out, err = a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, small(t)) {
		t.Fatalf("edited archive written as\n% x\nwant\n% x", out, small(t))
	}
	r, err := Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if w := r.Warnings(); w != nil {
		t.Fatalf("the corrected archive warns: %v", w)
	}
}

// Removing or adding a file is an edit too; putting the same files back is not undone.
func TestToolWrittenEditsCorrect(t *testing.T) {
	for _, edit := range []func(a *Archive) error{
		func(a *Archive) error { return a.Remove("a.txt") },
		func(a *Archive) error { return a.Add("c.txt", []byte("CCCC")) },
		func(a *Archive) error { return a.Rename("a.txt", "z.txt") },
	} {
		a, err := Read(toolWritten(t))
		if err != nil {
			t.Fatal(err)
		}
		if err := edit(a); err != nil {
			t.Fatal(err)
		}
		out, err := a.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if size := binary.LittleEndian.Uint32(out[8:]); int(size) != len(out) {
			t.Errorf("edited archive: file size %d, %d bytes written", size, len(out))
		}
		if r, err := Read(out); err != nil || r.Warnings() != nil {
			t.Errorf("edited archive reads back with %v, warnings %v", err, r.Warnings())
		}
	}
}

// A tail that is not zeros, under a true file size, and an archive with no files at all.
func TestTailKept(t *testing.T) {
	b := append(small(t), "XYZ"...)
	binary.LittleEndian.PutUint32(b[8:], uint32(len(b)))
	empty := []byte("SARC\x14\x00\xff\xfe\x2a\x00\x00\x00\x28\x00\x00\x00\x00\x01\x00\x00SFAT\x0c\x00\x00\x00\x65\x00\x00\x00SFNT\x08\x00\x00\x00\x00\x00")
	for _, c := range []struct {
		name string
		in   []byte
		want string
	}{
		{"not zero", b, "sarc: at 0x64: 3 bytes, not all zero, after the last file's data, part of no file; written back as they are while the archive is unedited"},
		{"no files", empty, "sarc: at 0x28: 2 zero bytes after the last file's data, part of no file; written back as they are while the archive is unedited"},
	} {
		a, err := Read(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := strings.Join(warningStrings(a), "\n"); got != c.want {
			t.Errorf("%s: warnings %q\nwant %q", c.name, got, c.want)
		}
		out, err := a.Bytes()
		if err != nil || !bytes.Equal(out, c.in) {
			t.Errorf("%s: written as % x (%v)\nwant % x", c.name, out, err, c.in)
		}
	}
}

// The games' own bare SARCs: each one reads and writes back byte for byte, and exactly the
// modding tool's archives warn, each with its size 4 short and 5 zero bytes after the data.
func TestGameFilesRoundTrip(t *testing.T) {
	var warned []string
	for _, path := range testcorpus.GameFiles(t, "sarc") {
		in, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		a, err := Read(in)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		out, err := a.Bytes()
		if err != nil || !bytes.Equal(out, in) {
			t.Errorf("%s: written %d bytes (%v), was %d; differs at %d", name, len(out), err, len(in), firstDiff(out, in))
		}
		if ws := a.Warnings(); ws != nil {
			l := a.layout
			if l.sizeShort != 4 || !bytes.Equal(l.tail, make([]byte, 5)) || len(ws) != 2 {
				t.Errorf("%s: size %d short, tail % x, warnings %v", name, l.sizeShort, l.tail, ws)
			}
			warned = append(warned, strings.SplitN(name, "__", 3)[1])
		}
	}
	got := fmt.Sprint(warned)
	want := "[DgnObj_Small_BoxFloor_A_06.pack.zs FldObj_OblivionValleyWall_C_03.pack.zs FldObj_WaterPlaneCircle_A_02.pack.zs " +
		"Obj_TreeSkyBroadleaf_A_LL_01.pack.zs Obj_TreeSkyStump_Broadleaf_A_01.pack.zs SDCarpet.pack.zs SDCubeThing.pack.zs " +
		"SDFloor.pack.zs SDRoof.pack.zs SDStairs.pack.zs SDThickWall.pack.zs SDWallDoor.pack.zs SkyObj_ScraBuildRockWall_A_01.pack.zs " +
		"SkyObj_Structure_Parts_Road_B_16.pack.zs SkyObj_TempleOfTimeBridgeBroken_A_01.pack.zs SkyObj_TreeRoot_A_02.pack.zs " +
		"SkyObj_TreeRoot_A_04.pack.zs TestCastle.pack.zs WallBase.pack.zs]"
	if got != want {
		t.Errorf("archives with warnings:\n%s\nwant\n%s", got, want)
	}
}
