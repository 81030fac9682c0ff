package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/graph"
)

func TestBuildRoundTrip(t *testing.T) {
	s := newTestServer(t, nil)
	data := corpusFile(t, midFile)
	doc := parseOK(t, s, "Enemy_Return.ainb", data)
	rec := do(s, "POST", "/api/build", "application/json; charset=utf-8", doc)
	if rec.Code != 200 {
		t.Fatalf("status %d: %s", rec.Code, cut(rec.Body.Bytes()))
	}
	if !bytes.Equal(rec.Body.Bytes(), data) {
		t.Fatal("an unedited document did not build the original bytes")
	}
	h := rec.Header()
	if h.Get("Content-Type") != "application/octet-stream" ||
		h.Get("Content-Disposition") != `attachment; filename="Enemy_Return.ainb"` ||
		h.Get("Content-Length") != fmt.Sprint(len(data)) {
		t.Fatalf("headers %v", h)
	}
}

func TestAttachment(t *testing.T) {
	for in, want := range map[string]string{
		"Enemy.ainb":            `attachment; filename="Enemy.ainb"`,
		"":                      `attachment; filename="file.ainb"`,
		"../../x.ainb":          `attachment; filename="x.ainb"`,
		"a\"b\r\nSet-Cookie: x": `attachment; filename="abSet-Cookie: x"`,
		"ドラ.ainb":               `attachment; filename="__.ainb"; filename*=UTF-8''%E3%83%89%E3%83%A9.ainb`,
		"a b;c.ainb":            `attachment; filename="a b;c.ainb"`,
		"é (1).ainb":            `attachment; filename="_ (1).ainb"; filename*=UTF-8''%C3%A9%20%281%29.ainb`,
	} {
		if got := attachment(in); got != want {
			t.Errorf("attachment(%q) = %q, want %q", in, got, want)
		}
	}
}

// editDocument parses data through the API, lets edit change the document, and returns its
// JSON.
func editDocument(t *testing.T, s http.Handler, data []byte, edit func(*graph.Document)) []byte {
	t.Helper()
	doc, err := graph.Decode(parseOK(t, s, "x.ainb", data))
	if err != nil {
		t.Fatal(err)
	}
	edit(doc)
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBuildDanglingIndex(t *testing.T) {
	s := newTestServer(t, nil)
	data := corpusFile(t, midFile)
	node := -1
	var nodes int
	body := editDocument(t, s, data, func(d *graph.Document) {
		nodes = len(d.File.Elements)
		for i := range d.File.Elements {
			if len(d.File.Elements[i].Plugs[ainb.PlugChild]) > 0 {
				d.File.Elements[i].Plugs[ainb.PlugChild][0].Node = 9999
				node = i
				break
			}
		}
	})
	if node < 0 {
		t.Fatal("no node with a child plug in the test file")
	}
	e := wantError(t, do(s, "POST", "/api/build", "application/json", body), http.StatusUnprocessableEntity)
	wantPath := fmt.Sprintf("Nodes[%d].Plugs.Child[0].Node Index", node)
	wantMsg := fmt.Sprintf("9999 out of range (%d nodes)", nodes)
	if e.Error != "the file is not valid: "+wantPath+": "+wantMsg {
		t.Errorf("error %q", e.Error)
	}
	problems, _ := e.Detail["problems"].([]any)
	if len(problems) != 1 {
		t.Fatalf("problems %v, want one", e.Detail["problems"])
	}
	want := map[string]any{"node": float64(node), "path": wantPath, "message": wantMsg}
	if fmt.Sprint(problems[0]) != fmt.Sprint(want) {
		t.Fatalf("problem %v, want %v", problems[0], want)
	}
}

func TestBuildSeveralProblems(t *testing.T) {
	s := newTestServer(t, nil)
	body := editDocument(t, s, corpusFile(t, midFile), func(d *graph.Document) {
		d.File.Commands[0].Root = 7000
		for i := range d.File.Elements {
			if len(d.File.Elements[i].Plugs[ainb.PlugChild]) > 0 {
				d.File.Elements[i].Plugs[ainb.PlugChild][0].Node = -5
				break
			}
		}
	})
	e := wantError(t, do(s, "POST", "/api/build", "application/json", body), http.StatusUnprocessableEntity)
	problems, _ := e.Detail["problems"].([]any)
	if e.Error != "the file is not valid: 2 problems" || len(problems) != 2 {
		t.Fatalf("%q with %d problems", e.Error, len(problems))
	}
	// A problem outside any node has a null node.
	first := problems[0].(map[string]any)
	if v, ok := first["node"]; !ok || v != nil || first["path"] != "Commands[0].Root Node Index" {
		t.Fatalf("first problem %v, want Commands[0].Root Node Index with node null", first)
	}
}

func TestBuildExpressionError(t *testing.T) {
	s := newTestServer(t, nil)
	data := corpusFile(t, "synthetic/expressions_v407.ainb")
	var line int
	body := editDocument(t, s, data, func(d *graph.Document) {
		if len(d.Functions) < 2 {
			t.Fatalf("%d expression functions in the test file, want 2 or more", len(d.Functions))
		}
		text := strings.TrimRight(d.Functions[1].Text, "\n")
		line = strings.Count(text, "\n") + 2
		d.Functions[1].Text = text + "\nfrobnicate $1, $2\n"
	})
	e := wantError(t, do(s, "POST", "/api/build", "application/json", body), http.StatusUnprocessableEntity)
	if e.Detail["function"] != float64(1) || e.Detail["line"] != float64(line) {
		t.Fatalf("detail %v, want function 1 line %d; error %q", e.Detail, line, e.Error)
	}
	if want := fmt.Sprintf("expression function 1: line %d", line); !strings.HasPrefix(e.Error, want) {
		t.Fatalf("error %q, want it to start %q", e.Error, want)
	}
	// The unedited document still builds the original.
	rec := do(s, "POST", "/api/build", "application/json", parseOK(t, s, "x.ainb", data))
	if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), data) {
		t.Fatalf("unedited: %d", rec.Code)
	}
}

func TestBuildBadInput(t *testing.T) {
	s := newTestServer(t, nil)
	doc := parseOK(t, s, "x.ainb", corpusFile(t, midFile))

	e := wantError(t, do(s, "POST", "/api/build", "application/json", []byte(`{"format": "ainb-editor-document/1", "name": `)), http.StatusBadRequest)
	if e.Error != "invalid JSON at byte 45: unexpected end of JSON input" {
		t.Errorf("truncated JSON: %q", e.Error)
	}
	e = wantError(t, do(s, "POST", "/api/build", "application/json", []byte(`{"a":1,}`)), http.StatusBadRequest)
	if e.Error != "invalid JSON at byte 8: invalid character '}' looking for beginning of object key string" || e.Detail["offset"] != float64(8) {
		t.Errorf("invalid JSON: %+v", e)
	}
	e = wantError(t, do(s, "POST", "/api/build", "application/json", nil), http.StatusBadRequest)
	if e.Error != "empty body: send the document as JSON" {
		t.Errorf("empty: %q", e.Error)
	}
	e = wantError(t, do(s, "POST", "/api/build", "application/json", []byte(`{"format":"something/2","file":{}}`)), http.StatusBadRequest)
	if e.Error != `invalid document: document: format "something/2", want "ainb-editor-document/1"` {
		t.Errorf("wrong format: %q", e.Error)
	}
	e = wantError(t, do(s, "POST", "/api/build", "application/json", []byte(`{"format":"ainb-editor-document/1","name":7}`)), http.StatusBadRequest)
	if e.Error != "invalid document: name: a JSON number is not allowed here" {
		t.Errorf("wrong type: %q", e.Error)
	}
	e = wantError(t, do(s, "POST", "/api/build", "application/json", []byte(`[1,2]`)), http.StatusBadRequest)
	if e.Error != "invalid document: a JSON array is not allowed here" {
		t.Errorf("array: %q", e.Error)
	}
	for _, ct := range []string{"", "application/octet-stream", "text/plain", "multipart/form-data; boundary=x", "application/jsonx"} {
		e = wantError(t, do(s, "POST", "/api/build", ct, doc), http.StatusUnsupportedMediaType)
		if !strings.HasSuffix(e.Error, ": send the document as application/json") {
			t.Errorf("%q: %q", ct, e.Error)
		}
	}
}

func TestBuildTooLarge(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.MaxDocument = 1000 })
	body := []byte(`{"format":"ainb-editor-document/1","name":"` + strings.Repeat("x", 1000) + `"}`)
	e := wantError(t, do(s, "POST", "/api/build", "application/json", body), http.StatusRequestEntityTooLarge)
	if e.Error != "request body too large: the limit is 1000 bytes" {
		t.Errorf("%q", e.Error)
	}
	req := httptestRequest("POST", "/api/build", "application/json", body)
	req.ContentLength = -1
	wantError(t, serve(s, req), http.StatusRequestEntityTooLarge)
}
