package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"ainbeditor/internal/byml"
	"ainbeditor/internal/preview"
	"ainbeditor/internal/share"
)

// A BYML file's tree, as /api/tree answers it, can be shared and comes back as sent; a tree
// document with another member, another kind or a document its kind cannot read is refused
// with what is wrong.
func TestShareTree(t *testing.T) {
	s := newTestServer(t, nil)
	data := corpusAt(t, "byml/LevelSensor.byml")
	doc, err := byml.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	js, err := doc.ToJSON()
	if err != nil {
		t.Fatal(err)
	}
	tree := `{"format":"` + TreeFormat + `","name":"LevelSensor.byml","kind":"byml","document":` + string(js) + `}`
	body := `{"document":` + tree + `,"view":{"tree":{"selected":"/flag/0","expanded":["/flag"]},"pack":{"name":"X.pack.zs","member":"LevelSensor.byml"}}}`
	rec := do(s, "POST", "/api/shares", "application/json", []byte(body))
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}
	var created struct{ ID string }
	json.Unmarshal(rec.Body.Bytes(), &created)
	rec = do(s, "GET", "/api/shares/"+created.ID, "", nil)
	if rec.Code != http.StatusOK || !bytes.Contains(rec.Body.Bytes(), []byte(`"document":`+tree)) {
		t.Fatalf("read back: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}

	for _, c := range []struct {
		doc    string
		status int
		msg    string
	}{
		{strings.Replace(tree, `"kind":"byml"`, `"kind":"xml"`, 1), 422, `invalid tree document: kind "xml": want "byml" or "aamp"`},
		{strings.Replace(tree, `"name":"LevelSensor.byml"`, `"name":"LevelSensor.byml","size":3`, 1), 400, `invalid tree document: unknown member "size" (members are spelled "format", "name", "kind" and "document")`},
		{strings.Replace(tree, `"kind":"byml"`, `"kind":"aamp"`, 1), 422, "invalid tree document: document: "},
		{strings.Replace(tree, `"name":"LevelSensor.byml"`, `"name":7`, 1), 422, "invalid tree document: name: want a string"},
	} {
		rec := do(s, "POST", "/api/shares", "application/json", []byte(`{"document":`+c.doc+`}`))
		e := wantError(t, rec, c.status)
		if !strings.HasPrefix(e.Error, c.msg) {
			t.Errorf("error %q, want %q", e.Error, c.msg)
		}
	}
	// Without the tree format first, a document is the AINB editor's, and this one is not.
	wantError(t, do(s, "POST", "/api/shares", "application/json", []byte(`{"document":{"kind":"byml","format":"`+TreeFormat+`"}}`)), 422)
}

// Shares carry their kind: the tree share above is stored as kind "tree". Shares stored
// before kinds, without one, still open and draw as what their document is.
func TestShareKinds(t *testing.T) {
	dir := t.TempDir()
	store, err := share.OpenDir(dir, DefaultConfig().MaxShare)
	if err != nil {
		t.Fatal(err)
	}
	s := newServerWithStore(t, DefaultConfig(), store)
	data := corpusAt(t, "byml/LevelSensor.byml")
	doc, err := byml.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	js, err := doc.ToJSON()
	if err != nil {
		t.Fatal(err)
	}
	tree := `{"format":"` + TreeFormat + `","name":"LevelSensor.byml","kind":"byml","document":` + string(js) + `}`
	ainbDoc := string(parseOK(t, s, "x.ainb", corpusFile(t, smallFile)))
	for _, c := range []struct {
		body, kind string
	}{
		{`{"document":` + tree + `}`, ShareTree},
		{`{"kind":"tree","document":` + tree + `}`, ShareTree},
		{`{"document":` + ainbDoc + `}`, ShareAINB},
	} {
		id := createShare(t, s, []byte(c.body))
		rec := do(s, "GET", "/api/shares/"+id, "", nil)
		if want := `{"kind":"` + c.kind + `",`; !bytes.HasPrefix(rec.Body.Bytes(), []byte(want)) {
			t.Errorf("stored as %s, want it to start %s", cut(rec.Body.Bytes()), want)
		}
		// The same share as stored before kinds: no kind, read by its document.
		old := append([]byte("{"), rec.Body.Bytes()[len(`{"kind":"`+c.kind+`",`):]...)
		oldID, err := store.Put(context.Background(), old)
		if err != nil {
			t.Fatal(err)
		}
		sum := preview.Summary{}
		for _, b := range [][]byte{rec.Body.Bytes(), old} {
			req, err := parseShareRequest(b)
			if err != nil {
				t.Fatal(err)
			}
			if k := shareKind(req); k != c.kind {
				t.Errorf("%.60s: kind %q, want %q", b, k, c.kind)
			}
			if _, err := drawShare(b, &sum); err != nil {
				t.Errorf("%.60s: %v", b, err)
			}
		}
		if rec := do(s, "GET", "/s/"+oldID+"/preview.png", "", nil); rec.Code != http.StatusOK {
			t.Errorf("the picture of a share without a kind: %d", rec.Code)
		}
	}
}
