package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ainbeditor/internal/pack"
	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/zs"
)

type packPart struct {
	field, filename string
	data            []byte
}

func packForm(t testing.TB, parts ...packPart) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		w, err := mw.CreateFormFile(p.field, p.filename)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(p.data)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return mw.FormDataContentType(), buf.Bytes()
}

func corpusAt(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testcorpus.Dir(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type packJSON struct {
	Format   string `json:"format"`
	Name     string `json:"name"`
	Wrapping struct {
		Kind       string `json:"kind"`
		Dictionary uint32 `json:"dictionary"`
	} `json:"wrapping"`
	Warnings []string `json:"warnings"`
	Files    []struct {
		Name   string `json:"name"`
		Size   int    `json:"size"`
		Format string `json:"format"`
		Data   string `json:"data"`
	} `json:"files"`
}

// A TotK pack opened with the dictionaries the request carries lists every member with its
// bytes; built again with two members replaced, it holds exactly those two changes, every
// other member byte-identical, compressed with the same dictionary.
func TestPackOpenAndBuild(t *testing.T) {
	s := newTestServer(t, nil)
	zsdic := corpusAt(t, "zstd/ZsDic.pack.zs")
	in := corpusAt(t, "sarc/Armor_006_Upper.pack.zs")

	ct, body := packForm(t, packPart{"zsdic", "ZsDic.pack.zs", zsdic}, packPart{"file", `C:\mods\Armor_006_Upper.pack.zs`, in})
	rec := do(s, "POST", "/api/pack", ct, body)
	if rec.Code != http.StatusOK {
		t.Fatalf("open: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}
	var got packJSON
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	codec, err := zs.LoadZsDic(zsdic)
	if err != nil {
		t.Fatal(err)
	}
	defer codec.Close()
	want, err := pack.Open(in, codec, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got.Format != PackFormat || got.Name != "Armor_006_Upper.pack.zs" || got.Wrapping.Kind != "zstd" || got.Wrapping.Dictionary != 3 || len(got.Files) != len(want.Archive.Files) {
		t.Fatalf("open: %+v", got)
	}
	orig := map[string][]byte{}
	for i, f := range want.Archive.Files {
		data, err := base64.StdEncoding.DecodeString(got.Files[i].Data)
		if err != nil {
			t.Fatal(err)
		}
		if got.Files[i].Name != f.Name || got.Files[i].Size != len(f.Data) || !bytes.Equal(data, f.Data) || got.Files[i].Format != pack.Format(f.Data) {
			t.Fatalf("member %d: %s %d %s, want %s %d", i, got.Files[i].Name, got.Files[i].Size, got.Files[i].Format, f.Name, len(f.Data))
		}
		orig[f.Name] = data
	}

	a, b := got.Files[0].Name, got.Files[len(got.Files)-1].Name
	edits := map[string][]byte{a: []byte("new first"), b: append(bytes.Clone(orig[b]), 0, 1, 2, 3)}
	ct, body = packForm(t, packPart{"file", "Armor_006_Upper.pack.zs", in}, packPart{"zsdic", "ZsDic.pack.zs", zsdic},
		packPart{"member", a, edits[a]}, packPart{"member", b, edits[b]})
	rec = do(s, "POST", "/api/pack/build", ct, body)
	if rec.Code != http.StatusOK {
		t.Fatalf("build: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}
	if cd := rec.Header().Get("Content-Disposition"); cd != `attachment; filename=Armor_006_Upper.pack.zs` {
		t.Errorf("Content-Disposition %q", cd)
	}
	out := rec.Body.Bytes()
	if id, _ := zs.FrameDictID(out); id != 3 {
		t.Errorf("saved with dictionary %d", id)
	}
	saved, err := pack.Open(out, codec, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(saved.Archive.Files) != len(orig) {
		t.Fatalf("%d members saved of %d", len(saved.Archive.Files), len(orig))
	}
	for _, f := range saved.Archive.Files {
		w, edited := edits[f.Name]
		if !edited {
			w = orig[f.Name]
		}
		if !bytes.Equal(f.Data, w) {
			t.Errorf("member %s changed (edited %v)", f.Name, edited)
		}
	}

	// Unedited, the archive inside comes back byte for byte.
	ct, body = packForm(t, packPart{"file", "Armor_006_Upper.pack.zs", in}, packPart{"zsdic", "ZsDic.pack.zs", zsdic})
	rec = do(s, "POST", "/api/pack/build", ct, body)
	if rec.Code != http.StatusOK {
		t.Fatalf("unedited build: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}
	inner, err := codec.Decompress(rec.Body.Bytes(), zs.MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	orig2, _ := codec.Decompress(in, zs.MaxSize)
	if !bytes.Equal(inner, orig2) {
		t.Error("an unedited pack's archive changed")
	}
}

// A bare SARC saves byte for byte; a Yaz0 one keeps its wrapping.
func TestPackBareAndYaz0(t *testing.T) {
	s := newTestServer(t, nil)
	in := corpusAt(t, "sarc/ActorObserverByActorTagTag.sarc")
	ct, body := packForm(t, packPart{"file", "x.sarc", in})
	rec := do(s, "POST", "/api/pack/build", ct, body)
	if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), in) {
		t.Fatalf("bare archive: %d, identical %v", rec.Code, bytes.Equal(rec.Body.Bytes(), in))
	}
	in = corpusAt(t, "yaz0/Demo344_1.sbeventpack")
	ct, body = packForm(t, packPart{"file", "Demo344_1.sbeventpack", in})
	rec = do(s, "POST", "/api/pack", ct, body)
	var got packJSON
	if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &got) != nil || got.Wrapping.Kind != "yaz0" || len(got.Files) == 0 {
		t.Fatalf("yaz0 pack: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}
}

func TestPackErrors(t *testing.T) {
	s := newTestServer(t, nil)
	in := corpusAt(t, "sarc/Accessory_Battery.pack.zs")

	// No dictionary: the message says which and where to find it.
	ct, body := packForm(t, packPart{"file", "Accessory_Battery.pack.zs", in})
	e := wantError(t, do(s, "POST", "/api/pack", ct, body), http.StatusUnprocessableEntity)
	if !strings.Contains(e.Error, "dictionary 3 (TotK's pack.zsdic)") || !strings.Contains(e.Error, "choose the game's ZsDic.pack.zs") {
		t.Errorf("no dictionary: %q", e.Error)
	}
	// A zsdic field that is not ZsDic.pack.zs.
	ct, body = packForm(t, packPart{"zsdic", "ZsDic.pack.zs", []byte("nonsense")}, packPart{"file", "a.pack.zs", in})
	e = wantError(t, do(s, "POST", "/api/pack", ct, body), http.StatusUnprocessableEntity)
	if !strings.HasPrefix(e.Error, "the zsdic field is not the game's ZsDic.pack.zs") {
		t.Errorf("bad zsdic: %q", e.Error)
	}
	// Not an archive; a member the pack does not have; no file; not multipart.
	ct, body = packForm(t, packPart{"file", "x.ainb", corpusFile(t, midFile)})
	if e = wantError(t, do(s, "POST", "/api/pack", ct, body), http.StatusUnprocessableEntity); e.Error != "pack: the file is ainb: not a SARC archive" {
		t.Errorf("an AINB file: %q", e.Error)
	}
	sarcIn := corpusAt(t, "sarc/ActorObserverByActorTagTag.sarc")
	ct, body = packForm(t, packPart{"file", "x.sarc", sarcIn}, packPart{"member", "Not/There.bgyml", []byte("x")})
	if e = wantError(t, do(s, "POST", "/api/pack/build", ct, body), http.StatusUnprocessableEntity); e.Error != `pack: no member "Not/There.bgyml"` {
		t.Errorf("missing member: %q", e.Error)
	}
	ct, body = packForm(t, packPart{"zsdic", "ZsDic.pack.zs", []byte("x")})
	if e = wantError(t, do(s, "POST", "/api/pack", ct, body), http.StatusBadRequest); e.Error != `no pack: send it in the multipart field "file"` {
		t.Errorf("no file: %q", e.Error)
	}
	wantError(t, do(s, "POST", "/api/pack", "application/octet-stream", sarcIn), http.StatusUnsupportedMediaType)
	// Too big: refused before reading.
	small := newTestServer(t, func(c *Config) { c.MaxUpload = 1000 })
	ct, body = packForm(t, packPart{"file", "x.sarc", bytes.Repeat([]byte{1}, 5000)})
	wantError(t, do(small, "POST", "/api/pack", ct, body), http.StatusRequestEntityTooLarge)
	// Another site's page may not call it.
	req := httptestRequest("POST", "/api/pack", ct, body)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	wantError(t, serve(s, req), http.StatusForbidden)
}

// Bare archives are written into kept buffers: builds one after another, edited and not,
// each answer with their own bytes.
func TestPackBareBuildsInTurn(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	in := corpusAt(t, "sarc/ActorObserverByActorTagTag.sarc")
	p, err := pack.Open(in, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	first := p.Archive.Files[0].Name
	for i := range 4 {
		form := []packPart{{"file", "x.sarc", in}}
		if i%2 == 1 {
			form = append(form, packPart{"member", first, []byte{'e', byte(i)}})
		}
		ct, body := packForm(t, form...)
		rec := do(s, "POST", "/api/pack/build", ct, body)
		if rec.Code != http.StatusOK {
			t.Fatalf("build %d: %d %s", i, rec.Code, cut(rec.Body.Bytes()))
		}
		if i%2 == 0 {
			if !bytes.Equal(rec.Body.Bytes(), in) {
				t.Fatalf("unedited build %d differs from the file", i)
			}
			continue
		}
		q, err := pack.Open(rec.Body.Bytes(), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := q.Archive.Files[0].Data; !bytes.Equal(got, []byte{'e', byte(i)}) {
			t.Fatalf("build %d: member %s holds %q", i, first, got)
		}
		if n := rec.Header().Get("Content-Length"); n != strconv.Itoa(rec.Body.Len()) {
			t.Errorf("build %d: Content-Length %s for %d bytes", i, n, rec.Body.Len())
		}
	}
}
