package server

import (
	"encoding/binary"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/zs"
)

// A TotK pack a modding tool wrote with its header file size 4 short and 5 zero bytes after
// the data: opening it says so; saving it unedited keeps both (and says so), saving it with a
// member replaced writes the true size without the stray bytes (and says that).
func TestPackWarnings(t *testing.T) {
	s := newTestServer(t, nil)
	zsdic := corpusAt(t, "zstd/ZsDic.pack.zs")
	in, err := os.ReadFile(filepath.Join(testcorpus.GameDir(t, "zstd"), "TotK__SDCarpet.pack.zs__83d959de5a.zs"))
	if err != nil {
		t.Fatal(err)
	}
	codec, err := zs.LoadZsDic(zsdic)
	if err != nil {
		t.Fatal(err)
	}
	defer codec.Close()
	const (
		size = "sarc: at 0x8: file size 2474, but the archive is 2478 bytes (4 more; a modding tool's mistake, the game loads it); "
		tail = "sarc: at 0x9a9: 5 zero bytes after the last file's data, part of no file; "
	)
	kept := []string{size + "written back as it is while the archive is unedited", tail + "written back as they are while the archive is unedited"}
	fixed := []string{size + "the edited archive is written with its true size", tail + "left out of the edited archive"}

	ct, body := packForm(t, packPart{"zsdic", "ZsDic.pack.zs", zsdic}, packPart{"file", "SDCarpet.pack.zs", in})
	rec := do(s, "POST", "/api/pack", ct, body)
	if rec.Code != http.StatusOK {
		t.Fatalf("open: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}
	var got packJSON
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Warnings, kept) {
		t.Fatalf("open: warnings %q\nwant %q", got.Warnings, kept)
	}
	member := got.Files[0].Name

	for _, c := range []struct {
		name    string
		members []packPart
		want    []string
		size    uint32 // the saved archive's header file size
		length  int
	}{
		{"unedited", nil, kept, 2474, 2478},
		// The first member (0x1b9 bytes at 0x1b0) replaced by 4 bytes: the next, 4-aligned,
		// moves from 0x36c to 0x1b4, and so does every later byte: 2473 - 0x1b8 = 2033.
		{"edited", []packPart{{"member", member, []byte("ABCD")}}, fixed, 2033, 2033},
	} {
		parts := append([]packPart{{"zsdic", "ZsDic.pack.zs", zsdic}, {"file", "SDCarpet.pack.zs", in}}, c.members...)
		ct, body := packForm(t, parts...)
		rec := do(s, "POST", "/api/pack/build", ct, body)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: build %d %s", c.name, rec.Code, cut(rec.Body.Bytes()))
		}
		var ws []string
		if err := json.Unmarshal([]byte(rec.Header().Get(packWarningsHeader)), &ws); err != nil || !slices.Equal(ws, c.want) {
			t.Errorf("%s: %s %q (%v)\nwant %q", c.name, packWarningsHeader, ws, err, c.want)
		}
		inner, err := codec.Decompress(rec.Body.Bytes(), zs.MaxSize)
		if err != nil {
			t.Fatal(err)
		}
		if sz := binary.LittleEndian.Uint32(inner[8:]); sz != c.size || len(inner) != c.length {
			t.Errorf("%s: saved archive of %d bytes says %d; want %d bytes saying %d", c.name, len(inner), sz, c.length, c.size)
		}
	}
}
