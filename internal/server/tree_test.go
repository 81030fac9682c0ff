package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"ainbeditor/internal/aamp"
	"ainbeditor/internal/byml"
	"ainbeditor/internal/pack"
	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/yaz0"
	"ainbeditor/internal/zs"
)

// treeJSON is /api/tree's answer, the document left as text.
type treeJSON struct {
	Format   string `json:"format"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Wrapping struct {
		Kind          string `json:"kind"`
		Dictionary    uint32 `json:"dictionary"`
		Yaz0Alignment uint32 `json:"yaz0Alignment"`
	} `json:"wrapping"`
	Size     int             `json:"size"`
	Document json.RawMessage `json:"document"`
}

func openTree(t testing.TB, s http.Handler, name string, data, zsdic []byte) treeJSON {
	t.Helper()
	parts := []packPart{{"file", name, data}}
	if zsdic != nil {
		parts = append(parts, packPart{"zsdic", "ZsDic.pack.zs", zsdic})
	}
	ct, body := packForm(t, parts...)
	rec := do(s, "POST", "/api/tree", ct, body)
	if rec.Code != http.StatusOK {
		t.Fatalf("open %s: %d %s", name, rec.Code, cut(rec.Body.Bytes()))
	}
	var got treeJSON
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	return got
}

// buildTree builds a document, with the original file when orig is not nil.
func buildTree(t testing.TB, s http.Handler, kind, name string, doc, orig, zsdic []byte) ([]byte, string) {
	t.Helper()
	parts := []packPart{{"document", "document.json", doc}}
	if orig != nil {
		parts = append(parts, packPart{"file", name, orig})
	}
	if zsdic != nil {
		parts = append(parts, packPart{"zsdic", "ZsDic.pack.zs", zsdic})
	}
	ct, body := packForm(t, parts...)
	rec := do(s, "POST", "/api/tree/build?kind="+kind, ct, body)
	if rec.Code != http.StatusOK {
		t.Fatalf("build %s: %d %s", name, rec.Code, cut(rec.Body.Bytes()))
	}
	return rec.Body.Bytes(), rec.Header().Get(layoutHeader)
}

// treeFiles lists the corpus's BYML and AAMP files (YAML dumps left out).
func treeFiles(t testing.TB) []string {
	t.Helper()
	dir := testcorpus.Dir(t)
	var out []string
	for _, sub := range []string{"byml", "aamp"} {
		filepath.WalkDir(filepath.Join(dir, sub), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if ext := filepath.Ext(path); ext != ".yml" && ext != ".yaml" && !strings.HasSuffix(path, ".pack.zs") {
				out = append(out, path)
			}
			return nil
		})
	}
	if len(out) < 1800 {
		t.Fatalf("only %d BYML and AAMP files in the corpus", len(out))
	}
	return out
}

// inner removes a file's zstd or Yaz0 wrapping.
func inner(t testing.TB, data []byte, codec *zs.Codec) []byte {
	t.Helper()
	switch pack.Format(data) {
	case "zstd":
		out, err := codec.Decompress(data, zs.MaxSize)
		if err != nil {
			t.Fatal(err)
		}
		return out
	case "yaz0":
		_, out, err := yaz0.Decompress(data)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	return data
}

// Every corpus BYML and AAMP file goes through the JSON form and back: with its original
// the build gives the original bytes (in the same wrapping and dictionary), and without it
// the canonical file holds the same tree, every value of the same type. For the BYML files
// under 256 KiB and one AAMP file of each extension, the YAML of the JSON form also reads
// back as the same JSON form (the packages' own tests take every file through YAML; the
// large ones here would only repeat that, slowly under -race). Under -race, where this loop
// finds no races it does not find without (the requests are the same, two at a time), the
// files are a sample: every BYML file under 1 MiB and every tenth AAMP file, one of each
// extension among them; without -race, every file.
func TestTreeCorpusRoundTrip(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	zsdic := corpusAt(t, "zstd/ZsDic.pack.zs")
	codec, err := zs.LoadZsDic(zsdic)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(codec.Close)
	var mu sync.Mutex
	counts := map[string]int{}
	extSeen := map[string]bool{}
	t.Run("files", func(t *testing.T) {
		for i, path := range treeFiles(t) {
			name := filepath.Base(path)
			ext := filepath.Ext(name)
			isBYML := strings.Contains(path, string(filepath.Separator)+"byml"+string(filepath.Separator))
			yaml := !extSeen[ext] || isBYML
			sample := isBYML && fileSize(path) <= 1<<20 || !isBYML && (!extSeen[ext] || i%10 == 0)
			if raceDetector && !sample {
				continue
			}
			extSeen[ext] = true
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				kind := roundTrip(t, s, codec, zsdic, path, yaml)
				mu.Lock()
				counts[kind]++
				mu.Unlock()
			})
		}
	})
	if !raceDetector && (counts["byml"] < 40 || counts["aamp"] < 1800) {
		t.Errorf("files by kind %v", counts)
	}
}

// roundTrip checks one file (see TestTreeCorpusRoundTrip) and returns its kind.
func roundTrip(t *testing.T, s http.Handler, codec *zs.Codec, zsdic []byte, path string, yaml bool) string {
	data := readFile(t, path)
	name := filepath.Base(path)
	got := openTree(t, s, name, data, zsdic)
	plain := inner(t, data, codec)
	if got.Format != TreeFormat || got.Name != name || got.Kind != pack.Format(plain) || got.Wrapping.Kind != pack.Format(data) && pack.Format(data) != got.Kind || got.Size != len(plain) {
		t.Fatalf("answer %s %s %s %+v %d", got.Format, got.Name, got.Kind, got.Wrapping, got.Size)
	}

	out, layout := buildTree(t, s, got.Kind, name, got.Document, data, zsdic)
	if pack.Format(out) != pack.Format(data) {
		t.Fatalf("built %q, was %q", pack.Format(out), pack.Format(data))
	}
	if got.Wrapping.Kind == "zstd" {
		if id, _ := zs.FrameDictID(out); id != got.Wrapping.Dictionary {
			t.Errorf("built with dictionary %d, was %d", id, got.Wrapping.Dictionary)
		}
	}
	if !bytes.Equal(inner(t, out, codec), plain) {
		t.Errorf("an unedited document built with its original is not the original")
	}
	if got.Kind == "byml" && layout != "preserved" {
		t.Errorf("layout %q", layout)
	}

	// Without the original: the same tree, types included.
	canon, _ := buildTree(t, s, got.Kind, name, got.Document, nil, nil)
	if got.Kind == "byml" {
		a, err := byml.Read(plain)
		if err != nil {
			t.Fatal(err)
		}
		b, err := byml.Read(canon)
		if err != nil {
			t.Fatalf("canonical build: %v", err)
		}
		if !byml.Equal(a.Root, b.Root) || a.Version != b.Version || a.BigEndian != b.BigEndian {
			t.Errorf("the canonical build holds another tree")
		}
	} else {
		a, err := aamp.Read(plain)
		if err != nil {
			t.Fatal(err)
		}
		b, err := aamp.Read(canon)
		if err != nil {
			t.Fatalf("canonical build: %v", err)
		}
		aj, _ := aamp.ToJSON(a)
		bj, _ := aamp.ToJSON(b)
		if !bytes.Equal(aj, bj) {
			t.Errorf("the canonical build holds another tree")
		}
	}
	if !yaml || got.Kind == "byml" && len(plain) > 256<<10 {
		return got.Kind
	}

	// YAML and back.
	rec := do(s, "POST", "/api/tree/yaml?kind="+got.Kind, "application/json", got.Document)
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/yaml") {
		t.Fatalf("yaml: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}
	q := "/api/tree/from-yaml?kind=" + got.Kind
	if got.Kind == "byml" {
		var head struct {
			Version   int  `json:"version"`
			BigEndian bool `json:"bigEndian"`
		}
		json.Unmarshal(got.Document, &head)
		q += "&version=" + strconv.Itoa(head.Version)
		if head.BigEndian {
			q += "&bigEndian=1"
		}
	}
	back := do(s, "POST", q, "application/yaml", rec.Body.Bytes())
	if back.Code != http.StatusOK {
		t.Fatalf("from yaml: %d %s", back.Code, cut(back.Body.Bytes()))
	}
	if !bytes.Equal(bytes.TrimSuffix(back.Body.Bytes(), []byte("\n")), got.Document) {
		t.Errorf("the YAML reads back as another document")
	}
	return got.Kind
}

func fileSize(path string) int64 {
	info, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return info.Size()
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// editBYML rewrites a JSON form through the model.
func editBYML(t testing.TB, doc []byte, edit func(root *byml.Node)) []byte {
	t.Helper()
	d, err := byml.FromJSON(doc)
	if err != nil {
		t.Fatal(err)
	}
	edit(d.Root)
	out, err := d.ToJSON()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// differing counts the bytes at which a and b (of one length) differ.
func differing(a, b []byte) int {
	if len(a) != len(b) {
		return -1
	}
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

// A value edit of the largest BYML keeps the file's layout: the built file differs from the
// original in that value's bytes alone, and the value keeps its type. An edit of the shape
// (a new key) lays the file out canonically, with the tree as edited.
func TestTreeBYMLEditKeepsLayoutAndTypes(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	data := corpusAt(t, "byml/ActorInfo.product.byml")
	got := openTree(t, s, "ActorInfo.product.byml", data, nil)
	// A deep value: the first actor from number 5000 with a bounding box.
	k := 5000
	doc := editBYML(t, got.Document, func(root *byml.Node) {
		for ; root.Get("Actors").Items[k].Get("aabbMax") == nil; k++ {
		}
		a := root.Get("Actors").Items[k]
		a.Get("aabbMax").Get("X").Bits = uint64(math.Float32bits(12.5))
		a.Get("instSize").Bits = byml.NewInt(-7).Bits
	})
	out, layout := buildTree(t, s, "byml", "ActorInfo.product.byml", doc, data, nil)
	if layout != "preserved" {
		t.Errorf("layout %q", layout)
	}
	if n := differing(out, data); n < 1 || n > 8 {
		t.Errorf("%d bytes differ, want the two values' (at most 8)", n)
	}
	d, err := byml.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	a := d.Root.Get("Actors").Items[k]
	if x := a.Get("aabbMax").Get("X"); x.Kind != byml.Float || x.FloatValue() != 12.5 {
		t.Errorf("aabbMax.X is %s %v", x.Kind, x.FloatValue())
	}
	if v := a.Get("instSize"); v.Kind != byml.Int || v.IntValue() != -7 {
		t.Errorf("instSize is %s %v", v.Kind, v.IntValue())
	}

	// A new key: canonical, and the tree is the edited one.
	doc = editBYML(t, got.Document, func(root *byml.Node) {
		root.Get("Actors").Items[3].Set("zzNew", byml.NewUInt(7))
	})
	out, layout = buildTree(t, s, "byml", "ActorInfo.product.byml", doc, data, nil)
	if layout != "canonical" {
		t.Errorf("new key: layout %q", layout)
	}
	d, err = byml.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := byml.FromJSON(doc)
	if !byml.Equal(d.Root, want.Root) {
		t.Error("new key: the built tree is not the edited one")
	}
}

// A subtree the file shares between two parents stays shared while both uses are equal;
// editing one use changes that use only.
func TestTreeBYMLSharedNodes(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	root := byml.NewHash()
	root.Set("a", byml.NewArray(byml.NewInt(1), byml.NewInt(2)))
	root.Set("b", byml.NewArray(byml.NewInt(1), byml.NewInt(2)))
	data, err := (&byml.Document{Version: 7, Root: root}).BytesCanonical()
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := byml.Read(data); d.Root.Get("a") != d.Root.Get("b") {
		t.Fatal("the canonical writer did not share the equal arrays")
	}
	got := openTree(t, s, "shared.byml", data, nil)
	out, layout := buildTree(t, s, "byml", "shared.byml", got.Document, data, nil)
	if !bytes.Equal(out, data) || layout != "preserved" {
		t.Errorf("unedited: identical %v, layout %q", bytes.Equal(out, data), layout)
	}
	// The document sends the shared array once and refers to it.
	const sharedJSON = `{"version":7,"bigEndian":false,"root":{"type":"hash","value":[["a",{"type":"array","id":0,"value":[{"type":"int","value":1},{"type":"int","value":2}]}],["b",{"ref":0}]]}}`
	if string(got.Document) != sharedJSON {
		t.Fatalf("document %s, want %s", got.Document, sharedJSON)
	}
	// An edit of the shared node is an edit at both places, in the layout.
	doc := editBYML(t, got.Document, func(root *byml.Node) { root.Get("b").Items[1].Bits = 9 })
	out, layout = buildTree(t, s, "byml", "shared.byml", doc, data, nil)
	d, err := byml.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := d.Root.Get("a").Items[1].IntValue(), d.Root.Get("b").Items[1].IntValue(); a != 9 || b != 9 || layout != "preserved" || len(out) != len(data) {
		t.Errorf("a[1] = %d, b[1] = %d, layout %s; want 9, 9, preserved", a, b, layout)
	}
	// A document that writes the two out apart, one of them changed, unshares them: the
	// other keeps its values, whichever use the graft reaches first.
	for _, tc := range []struct{ a, b string }{{"5", "1"}, {"1", "5"}} {
		apart := fmt.Sprintf(`{"version":7,"bigEndian":false,"root":{"type":"hash","value":[["a",{"type":"array","value":[{"type":"int","value":%s},{"type":"int","value":2}]}],["b",{"type":"array","value":[{"type":"int","value":%s},{"type":"int","value":2}]}]]}}`, tc.a, tc.b)
		out, _ = buildTree(t, s, "byml", "shared.byml", []byte(apart), data, nil)
		d, _ = byml.Read(out)
		if a, b := d.Root.Get("a").Items[0].IntValue(), d.Root.Get("b").Items[0].IntValue(); fmt.Sprint(a) != tc.a || fmt.Sprint(b) != tc.b {
			t.Errorf("a[0] = %d, b[0] = %d; want %s and %s", a, b, tc.a, tc.b)
		}
	}
}

// The games' files that broke the format's rules or shared heavily open, say what looks
// wrong, and come back byte for byte from their document.
func TestTreeGameFilesWarningsAndSharing(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	dir := testcorpus.GameDir(t, "byml")
	for _, tc := range []struct {
		name, warnings string
		refs           bool
	}{
		{"TotK__Enemy_Drake_Lord.engine__actor__GameParameterTable.bgyml__5fd9985622.byml",
			`[{"path":"/Components","offset":844,"message":"keys are not sorted (\"SaveToFigureParam\" comes after \"gamebalance_AttackParam\"): the game binary-searches keys and may not find some entries. Saving keeps the entries as they are."}]`, false},
		{"SMO__WaterfallWorldHomeStageMap.byml__35f150b19f.byml", `[]`, true},
	} {
		data := readFile(t, filepath.Join(dir, tc.name))
		ct, body := packForm(t, packPart{"file", tc.name, data})
		rec := do(s, "POST", "/api/tree", ct, body)
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", tc.name, rec.Code, cut(rec.Body.Bytes()))
		}
		var got struct {
			Warnings json.RawMessage `json:"warnings"`
			Document json.RawMessage `json:"document"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if string(got.Warnings) != tc.warnings {
			t.Errorf("%s: warnings %s, want %s", tc.name, got.Warnings, tc.warnings)
		}
		if refs := bytes.Contains(got.Document, []byte(`{"ref":`)); refs != tc.refs {
			t.Errorf("%s: document has refs %v, want %v", tc.name, refs, tc.refs)
		}
		if len(got.Document) > 16*len(data) {
			t.Errorf("%s: document of %d bytes from %d", tc.name, len(got.Document), len(data))
		}
		out, layout := buildTree(t, s, "byml", tc.name, got.Document, data, nil)
		if !bytes.Equal(out, data) || layout != "preserved" {
			t.Errorf("%s: built file identical %v, layout %s", tc.name, bytes.Equal(out, data), layout)
		}
	}
}

// An AAMP value edit keeps the layout and the type; a TotK .zs BYML comes back compressed
// with its own dictionary.
func TestTreeAAMPEditAndZstd(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	data := corpusAt(t, "aamp/Lizalfos.bphysics")
	got := openTree(t, s, "Lizalfos.bphysics", data, nil)
	pio, err := aamp.FromJSON(got.Document)
	if err != nil {
		t.Fatal(err)
	}
	// An f32 whose value no other parameter has: the file stores equal data once, and a
	// value that leaves such sharing cannot stay in place.
	var f32s []*aamp.Parameter
	seen := map[float32]int{}
	var walk func(l *aamp.ParameterList)
	walk = func(l *aamp.ParameterList) {
		for _, o := range l.Objects {
			for i := range o.Params {
				if p := &o.Params[i]; p.Type == aamp.TypeF32 {
					f32s = append(f32s, p)
					seen[p.Value.(float32)]++
				}
			}
		}
		for _, c := range l.Lists {
			walk(c)
		}
	}
	walk(&pio.Root)
	var edited *aamp.Parameter
	for _, p := range f32s {
		if seen[p.Value.(float32)] == 1 {
			edited = p
			break
		}
	}
	if edited == nil {
		t.Fatal("no f32 parameter of its own value")
	}
	edited.Value = float32(0.123456)
	doc, err := aamp.ToJSON(pio)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := buildTree(t, s, "aamp", "Lizalfos.bphysics", doc, data, nil)
	if n := differing(out, data); n < 1 || n > 4 {
		t.Errorf("%d bytes differ, want the value's (at most 4)", n)
	}
	back, err := aamp.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	bj, _ := aamp.ToJSON(back)
	if !bytes.Equal(bj, doc) {
		t.Error("the built file is not the edited document")
	}

	zsdic := corpusAt(t, "zstd/ZsDic.pack.zs")
	zsIn := corpusAt(t, "byml/totk/Tag.Product.120.rstbl.byml.zs")
	got = openTree(t, s, "Tag.Product.120.rstbl.byml.zs", zsIn, zsdic)
	if got.Wrapping.Kind != "zstd" || got.Wrapping.Dictionary != 1 || got.Kind != "byml" {
		t.Fatalf("wrapping %+v, kind %s", got.Wrapping, got.Kind)
	}
	ct, body := packForm(t, packPart{"file", "Tag.Product.120.rstbl.byml.zs", zsIn})
	e := wantError(t, do(s, "POST", "/api/tree", ct, body), http.StatusUnprocessableEntity)
	if e.Detail["missing"] != "ZsDic.pack.zs" {
		t.Errorf("no dictionary: %q %v", e.Error, e.Detail)
	}
	ct, body = packForm(t, packPart{"document", "d.json", got.Document}, packPart{"file", "Tag.Product.120.rstbl.byml.zs", zsIn})
	e = wantError(t, do(s, "POST", "/api/tree/build?kind=byml", ct, body), http.StatusUnprocessableEntity)
	if e.Detail["missing"] != "ZsDic.pack.zs" {
		t.Errorf("build without the dictionary: %q %v", e.Error, e.Detail)
	}
	// The Yaz0 file of the corpus keeps its wrapping too.
	yIn := corpusAt(t, "byml/ActorInfo.product.sbyml")
	got = openTree(t, s, "ActorInfo.product.sbyml", yIn, nil)
	out, _ = buildTree(t, s, "byml", "ActorInfo.product.sbyml", got.Document, yIn, nil)
	if h, err := yaz0.ParseHeader(out); err != nil || h.Alignment != got.Wrapping.Yaz0Alignment || got.Wrapping.Kind != "yaz0" {
		t.Errorf("yaz0: %+v %v, was %+v", h, err, got.Wrapping)
	}
}

func TestTreeErrors(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	bymlIn := corpusAt(t, "byml/LevelSensor.byml")
	got := openTree(t, s, "LevelSensor.byml", bymlIn, nil)

	// Not multipart; no file; no kind; no document.
	wantError(t, do(s, "POST", "/api/tree", "application/octet-stream", bymlIn), http.StatusUnsupportedMediaType)
	ct, body := packForm(t, packPart{"zsdic", "ZsDic.pack.zs", []byte("x")})
	if e := wantError(t, do(s, "POST", "/api/tree", ct, body), http.StatusBadRequest); e.Error != `no file: send it in the multipart field "file"` {
		t.Errorf("no file: %q", e.Error)
	}
	ct, body = packForm(t, packPart{"document", "d.json", got.Document})
	if e := wantError(t, do(s, "POST", "/api/tree/build", ct, body), http.StatusBadRequest); e.Error != "no kind: say kind=byml or kind=aamp" {
		t.Errorf("no kind: %q", e.Error)
	}
	wantError(t, do(s, "POST", "/api/tree/build?kind=ainb", ct, body), http.StatusBadRequest)
	ct, body = packForm(t, packPart{"file", "LevelSensor.byml", bymlIn})
	if e := wantError(t, do(s, "POST", "/api/tree/build?kind=byml", ct, body), http.StatusBadRequest); e.Error != `no document: send the JSON form in the multipart field "document"` {
		t.Errorf("no document: %q", e.Error)
	}
	ct, body = packForm(t, packPart{"file", "a.byml", bymlIn}, packPart{"file", "b.byml", bymlIn})
	wantError(t, do(s, "POST", "/api/tree", ct, body), http.StatusBadRequest)

	// Not BYML or AAMP; damaged; the original of another kind.
	ct, body = packForm(t, packPart{"file", "x.ainb", corpusFile(t, smallFile)})
	if e := wantError(t, do(s, "POST", "/api/tree", ct, body), http.StatusUnprocessableEntity); e.Error != "x.ainb is not a BYML or AAMP file: it is an AINB file: open it in the graph editor" || e.Detail["format"] != "ainb" {
		t.Errorf("an AINB file: %q %v", e.Error, e.Detail)
	}
	ct, body = packForm(t, packPart{"file", "cut.byml", bymlIn[:len(bymlIn)/2]})
	if e := wantError(t, do(s, "POST", "/api/tree", ct, body), http.StatusUnprocessableEntity); !strings.HasPrefix(e.Error, "byml: ") {
		t.Errorf("a cut file: %q", e.Error)
	}
	ct, body = packForm(t, packPart{"document", "d.json", got.Document}, packPart{"file", "x.bxml", corpusAt(t, "aamp/TBox_Field_Stone.bxml")})
	if e := wantError(t, do(s, "POST", "/api/tree/build?kind=byml", ct, body), http.StatusUnprocessableEntity); e.Detail["format"] != "aamp" {
		t.Errorf("original of another kind: %q %v", e.Error, e.Detail)
	}

	// Documents that are not valid: a type changed to one that does not exist, an int out
	// of range, broken JSON; each says why.
	for _, c := range []struct{ doc, want string }{
		{strings.Replace(string(got.Document), `"type":"int"`, `"type":"integer"`, 1), `unknown node type "integer"`},
		{`{"version":7,"bigEndian":false,"root":{"type":"array","value":[{"type":"int","value":5000000000}]}}`, "5000000000"},
		{`{"version":7,"root":{"type":"array","value":[}`, "invalid JSON at line 1, column 46"},
	} {
		ct, body = packForm(t, packPart{"document", "d.json", []byte(c.doc)})
		if e := wantError(t, do(s, "POST", "/api/tree/build?kind=byml", ct, body), http.StatusUnprocessableEntity); !strings.HasPrefix(e.Error, "the document is not valid: ") || !strings.Contains(e.Error, c.want) {
			t.Errorf("document %.60s: %q", c.doc, e.Error)
		}
	}
	ct, body = packForm(t, packPart{"document", "d.json", []byte(`{"version":0,"type":"xml","param_root":{"lists":[],"objects":[{"name":"o","params":[{"name":"p","type":"f32","value":"x"}]}]}}`)})
	wantError(t, do(s, "POST", "/api/tree/build?kind=aamp", ct, body), http.StatusUnprocessableEntity)

	// YAML problems name their line; versions out of range and other content types are refused.
	for _, c := range []struct {
		kind, text string
		line       float64
		path       string
	}{
		{"byml", "a: 1\nb: [1, 2\nc: 3\n", 0, ""},
		{"byml", "a: 1\nb: !u -5\n", 2, "b"},
		{"byml", "a: 1\nb:\n  c: !nonsense 5\n", 3, "b/c"},
		{"aamp", "!io\nversion: 0\ntype: xml\nparam_root: !list\n  objects:\n    o: !obj {p: !vec3 [1, 2]}\n  lists: {}\n", 6, "param_root/objects/o/p"},
	} {
		e := wantError(t, do(s, "POST", "/api/tree/from-yaml?kind="+c.kind, "application/yaml", []byte(c.text)), http.StatusUnprocessableEntity)
		line, _ := e.Detail["line"].(float64)
		path, _ := e.Detail["path"].(string)
		if !strings.HasPrefix(e.Error, "the YAML is not valid: line ") || line == 0 || c.line != 0 && line != c.line || path != c.path {
			t.Errorf("%q: %q %v", c.text, e.Error, e.Detail)
		}
	}
	wantError(t, do(s, "POST", "/api/tree/from-yaml?kind=byml&version=9", "application/yaml", []byte("a: 1\n")), http.StatusBadRequest)
	wantError(t, do(s, "POST", "/api/tree/from-yaml?kind=byml", "image/png", []byte("a: 1\n")), http.StatusUnsupportedMediaType)
	wantError(t, do(s, "POST", "/api/tree/yaml?kind=byml", "text/plain", got.Document), http.StatusUnsupportedMediaType)
	rec := do(s, "POST", "/api/tree/from-yaml?kind=byml&version=7&bigEndian=1", "", []byte("a: 1\n"))
	if rec.Code != http.StatusOK || strings.TrimSpace(rec.Body.String()) != `{"version":7,"bigEndian":true,"root":{"type":"hash","value":[["a",{"type":"int","value":1}]]}}` {
		t.Errorf("from yaml: %d %s", rec.Code, rec.Body.String())
	}

	// Limits: bodies over the caps, another site's page, the reply budget.
	small := newTestServer(t, func(c *Config) { c.MaxUpload = 1000 })
	ct, body = packForm(t, packPart{"file", "x.byml", bymlIn})
	wantError(t, do(small, "POST", "/api/tree", ct, body), http.StatusRequestEntityTooLarge)
	smallDoc := newTestServer(t, func(c *Config) { c.MaxDocument = 1000 })
	wantError(t, do(smallDoc, "POST", "/api/tree/yaml?kind=byml", "application/json", got.Document), http.StatusRequestEntityTooLarge)
	wantError(t, do(smallDoc, "POST", "/api/tree/from-yaml?kind=byml", "application/yaml", bytes.Repeat([]byte("a: 1\n"), 300)), http.StatusRequestEntityTooLarge)
	ct, body = packForm(t, packPart{"document", "d.json", got.Document})
	wantError(t, do(smallDoc, "POST", "/api/tree/build?kind=byml", ct, body), http.StatusRequestEntityTooLarge)
	for _, path := range []string{"/api/tree", "/api/tree/build?kind=byml", "/api/tree/yaml?kind=byml", "/api/tree/from-yaml?kind=byml"} {
		req := httptestRequest("POST", path, ct, body)
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		wantError(t, serve(s, req), http.StatusForbidden)
	}
	tight := newTestServer(t, nil)
	tight.replyBase, tight.replyRatio = 1000, 1
	ct, body = packForm(t, packPart{"file", "LevelSensor.byml", bymlIn})
	if e := wantError(t, do(tight, "POST", "/api/tree", ct, body), http.StatusUnprocessableEntity); e.Detail["limit"] == nil {
		t.Errorf("reply budget: %q %v", e.Error, e.Detail)
	}
}

// Conversions count against the client's rate like parses.
func TestTreeRate(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.ConvertRate = 2 })
	data := corpusAt(t, "byml/LevelSensor.byml")
	ct, body := packForm(t, packPart{"file", "LevelSensor.byml", data})
	for i := range 3 {
		rec := do(s, "POST", "/api/tree", ct, body)
		if i < 2 && rec.Code != http.StatusOK || i == 2 && rec.Code != http.StatusTooManyRequests {
			t.Fatalf("request %d: %d", i, rec.Code)
		}
	}
}
