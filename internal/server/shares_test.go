package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"ainbeditor/internal/share"
)

// createShare posts body and returns the new share's id.
func createShare(t *testing.T, s http.Handler, body []byte) string {
	t.Helper()
	rec := do(s, "POST", "/api/shares", "application/json", body)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create share: %d: %s", rec.Code, cut(rec.Body.Bytes()))
	}
	var created struct{ ID, URL string }
	if err := json.Unmarshal(rec.Body.Bytes(), &created); err != nil {
		t.Fatal(err)
	}
	if !share.ValidID(created.ID) || created.URL != "/s/"+created.ID {
		t.Fatalf("created %+v", created)
	}
	if loc := rec.Header().Get("Location"); loc != "/api/shares/"+created.ID {
		t.Fatalf("Location %q", loc)
	}
	return created.ID
}

func TestShares(t *testing.T) {
	dir := t.TempDir()
	store, err := share.OpenDir(dir, 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	s := newServerWithStore(t, DefaultConfig(), store)
	// A name with HTML's special characters: the share must keep them as they are.
	doc := parseOK(t, s, url.QueryEscape("Enemy<&>.ainb"), corpusFile(t, midFile))
	if !bytes.Contains(doc, []byte(`"name":"Enemy<&>.ainb"`)) {
		t.Fatalf("document name not as expected: %s", cut(doc))
	}
	body := []byte(`{"document": ` + string(doc) + `,
		"view": {"command": 1, "viewport": {"x": -20.5, "y": 3, "zoom": 0.75}, "selection": [3, 4]}}`)
	id := createShare(t, s, body)

	rec := do(s, "GET", "/api/shares/"+id, "", nil)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("get: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	if got := rec.Header().Get("Cache-Control"); got != "private, max-age=31536000, immutable" {
		t.Errorf("Cache-Control %q", got)
	}
	// Stored compacted: the same JSON value, without the request's layout, and with its
	// kind said first.
	var compact, want bytes.Buffer
	json.Compact(&compact, body)
	want.WriteString(`{"kind":"ainb",`)
	want.Write(compact.Bytes()[1:])
	if !bytes.Equal(rec.Body.Bytes(), want.Bytes()) {
		t.Fatalf("share body differs from the posted JSON compacted:\n got %s\nwant %s", cut(rec.Body.Bytes()), cut(want.Bytes()))
	}
	stored, err := store.Get(context.Background(), id)
	if err != nil || !bytes.Equal(stored, rec.Body.Bytes()) {
		t.Fatalf("the store holds something else: %v", err)
	}

	// The page names the share for the editor to fetch.
	rec = do(s, "GET", "/s/"+id, "", nil)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `<div id="app" data-max-upload="16777216" data-share="`+id+`">`) {
		t.Fatalf("share page: %d %s", rec.Code, rec.Body.String())
	}

	// A new server on the same directory (a restart) serves it still.
	store2, err := share.OpenDir(dir, 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	s2 := newServerWithStore(t, DefaultConfig(), store2)
	if rec := do(s2, "GET", "/api/shares/"+id, "", nil); rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), want.Bytes()) {
		t.Fatalf("after restart: %d", rec.Code)
	}

	// Without a view, and with a null one: stored without it.
	for _, b := range []string{`{"document":` + string(doc) + `}`, `{"document":` + string(doc) + `,"view":null}`} {
		id := createShare(t, s, []byte(b))
		rec := do(s, "GET", "/api/shares/"+id, "", nil)
		if !bytes.Equal(rec.Body.Bytes(), append(append([]byte(`{"kind":"ainb","document":`), bytes.TrimSpace(doc)...), '}')) {
			t.Fatalf("share without a view: %s", cut(rec.Body.Bytes()))
		}
	}
}

func TestShareNotFound(t *testing.T) {
	s := newTestServer(t, nil)
	for _, id := range []string{share.NewID(), "nope", strings.Repeat("A", 26), "..%2f..%2fgo.mod", ".tmp-x"} {
		e := wantError(t, do(s, "GET", "/api/shares/"+id, "", nil), http.StatusNotFound)
		if e.Error != "no such share" {
			t.Errorf("%s: %q", id, e.Error)
		}
		rec := do(s, "GET", "/s/"+id, "", nil)
		if rec.Code != 404 || rec.Header().Get("Content-Type") != "text/html; charset=utf-8" ||
			!strings.Contains(rec.Body.String(), "This shared link does not exist") {
			t.Errorf("/s/%s: %d %s", id, rec.Code, rec.Body.String())
		}
	}
}

func TestCreateShareBadInput(t *testing.T) {
	s := newTestServer(t, nil)
	doc := string(parseOK(t, s, "x.ainb", corpusFile(t, midFile)))
	for _, c := range []struct {
		body, want string
		status     int
	}{
		{`{"document":` + doc + `,"view":[1]}`, "invalid share: the view must be a JSON object", 400},
		{`{"document":` + doc + `,"view":"x"}`, "invalid share: the view must be a JSON object", 400},
		{`{"document":` + doc + `,"extra":1}`, `invalid share: unknown member "extra" (members are spelled "kind", "document" and "view")`, 400},
		{`{"document":` + doc + `,"Document":{}}`, `invalid share: unknown member "Document" (members are spelled "kind", "document" and "view")`, 400},
		{`{"document":{},"document":` + doc + `}`, `invalid share: document: a second member of this name`, 400},
		{`{"document":` + doc + ",\"view\":{\"x\":\"\xff\"}}", fmt.Sprintf("invalid share: the text is not UTF-8 at byte %d", len(doc)+26), 400},
		{`{"view":{}}`, "invalid share: no document", 400},
		{`{"document":null}`, "invalid share: no document", 400},
		{`{"document":{"format":"ainb-editor-document/1"}}`, `the document is not valid: format: "ainb-editor-document/1", want "ainb-editor-document/2"`, 422},
		{`{"document":{"format":"other","file":{}}}`, "the document is not valid: file: line 1:19: unknown member", 422},
		{`{"document":` + doc + `} {}`, fmt.Sprintf("invalid JSON at byte %d: invalid character '{' after top-level value", len(doc)+15), 400},
		{`{"kind":"tree","document":` + doc + `}`, `invalid share: kind "tree", but the document is a share of kind "ainb"`, 422},
		{`{"kind":"graph","document":` + doc + `}`, `invalid share: kind "graph": want "ainb" or "tree"`, 400},
		{`{"kind":7,"document":` + doc + `}`, `invalid share: kind: want a string`, 400},
		{`[]`, `invalid share: not a JSON object; want {"kind": "ainb" or "tree" (optional), "document": ..., "view": {...}}`, 400},
		{`{"document":`, "invalid JSON at byte 12: unexpected end of JSON input", 400},
	} {
		e := wantError(t, do(s, "POST", "/api/shares", "application/json", []byte(c.body)), c.status)
		if e.Error != c.want {
			t.Errorf("%s: error %q, want %q", cut([]byte(c.body)), e.Error, c.want)
		}
	}
	wantError(t, do(s, "POST", "/api/shares", "text/plain", []byte(`{"document":`+doc+`}`)), http.StatusUnsupportedMediaType)
	e := wantError(t, do(s, "POST", "/api/shares", "application/json", []byte(`{"document":`+doc+`,"view":{"x":"`+strings.Repeat("x", 1<<20)+`"}}`)), http.StatusRequestEntityTooLarge)
	if e.Error != "the view is too large: the limit is 1048576 bytes" {
		t.Errorf("big view: %q", e.Error)
	}
	small := newTestServer(t, func(c *Config) { c.MaxDocument = 100 })
	wantError(t, do(small, "POST", "/api/shares", "application/json", []byte(`{"document":`+doc+`}`)), http.StatusRequestEntityTooLarge)
}

// secretStore fails with an error whose text must not reach the client.
type secretStore struct{}

var errSecret = errors.New("open /srv/secret/path: permission denied")

func (secretStore) Put(context.Context, []byte) (string, error) { return "", errSecret }
func (secretStore) Get(context.Context, string) ([]byte, error) { return nil, errSecret }
func (secretStore) Stat(context.Context, string) (share.Info, error) {
	return share.Info{}, errSecret
}
func (secretStore) Writable(context.Context) error { return nil }

func TestShareStoreFailure(t *testing.T) {
	s := newServerWithStore(t, DefaultConfig(), secretStore{})
	doc := string(parseOK(t, s, "x.ainb", corpusFile(t, midFile)))
	for _, rec := range []*httptest.ResponseRecorder{
		do(s, "POST", "/api/shares", "application/json", []byte(`{"document":`+doc+`}`)),
		do(s, "GET", "/api/shares/"+share.NewID(), "", nil),
	} {
		e := wantError(t, rec, http.StatusInternalServerError)
		if e.Error != "internal server error" || e.Detail != nil || strings.Contains(rec.Body.String(), "secret") {
			t.Errorf("500 body %s", rec.Body.String())
		}
	}
	rec := do(s, "GET", "/s/"+share.NewID(), "", nil)
	if rec.Code != 500 || strings.Contains(rec.Body.String(), "secret") || !strings.Contains(rec.Body.String(), "could not be opened") {
		t.Errorf("share page: %d %s", rec.Code, rec.Body.String())
	}
}
