package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"ainbeditor/internal/byml"
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
