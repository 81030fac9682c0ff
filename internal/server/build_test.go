package server

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

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
	// Builds write into buffers kept from earlier builds and parses: a small file after a
	// big one, and the big one again, each comes back exactly.
	small := corpusFile(t, "synthetic/minimal_v407.ainb")
	smallDoc := parseOK(t, s, "small.ainb", small)
	for k := range 4 {
		for _, c := range []struct {
			doc, want []byte
		}{{smallDoc, small}, {doc, data}} {
			rec := do(s, "POST", "/api/build", "application/json", c.doc)
			if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), c.want) {
				t.Fatalf("build %d: status %d, %d bytes, want the %d of the file", k, rec.Code, rec.Body.Len(), len(c.want))
			}
		}
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
	return doc.Encode()
}

func TestBuildDanglingIndex(t *testing.T) {
	s := newTestServer(t, nil)
	data := corpusFile(t, midFile)
	node := -1
	body := editDocument(t, s, data, func(d *graph.Document) {
		for i := range d.Nodes {
			if len(d.Nodes[i].Children) > 0 {
				d.Nodes[i].Children[0].Node = 9999
				node = i
				break
			}
		}
	})
	if node < 0 {
		t.Fatal("no node with a child in the test file")
	}
	e := wantError(t, do(s, "POST", "/api/build", "application/json", body), http.StatusUnprocessableEntity)
	wantPath := fmt.Sprintf("nodes[%d].children[0].node", node)
	wantMsg := "no node with id 9999"
	if e.Error != "the document is not valid: "+wantPath+": "+wantMsg {
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
		d.Commands[0].Root = 7000
		for i := range d.Nodes {
			if len(d.Nodes[i].Children) > 0 {
				d.Nodes[i].Children[0].Node = 4000
				break
			}
		}
	})
	e := wantError(t, do(s, "POST", "/api/build", "application/json", body), http.StatusUnprocessableEntity)
	problems, _ := e.Detail["problems"].([]any)
	if e.Error != "the document is not valid: 2 problems" || len(problems) != 2 {
		t.Fatalf("%q with %d problems", e.Error, len(problems))
	}
	// A problem outside any node has a null node.
	first := problems[0].(map[string]any)
	if v, ok := first["node"]; !ok || v != nil || first["path"] != "commands[0].root" || first["message"] != "no node with id 7000" {
		t.Fatalf("first problem %v, want commands[0].root with node null", first)
	}
}

// Problems of the JSON's shape come with every problem at once, each with its line and column.
func TestBuildShapeProblems(t *testing.T) {
	s := newTestServer(t, nil)
	body := []byte("{\"format\": \"ainb-editor-document/2\", \"name\": 7,\n \"nodes\": [{\"id\": 0, \"colour\": \"red\"}]}")
	e := wantError(t, do(s, "POST", "/api/build", "application/json", body), http.StatusUnprocessableEntity)
	problems, _ := e.Detail["problems"].([]any)
	want := []string{
		"map[column:46 line:1 message:want a string, found a number node:<nil> path:name]",
		"map[column:22 line:2 message:unknown member node:0 path:nodes[0].colour]",
	}
	// Then the required members the document lacks, at the closing brace of their object.
	for _, m := range []string{"type", "name", "guid", "x", "y"} {
		want = append(want, "map[column:37 line:2 message:missing node:0 path:nodes[0]."+m+"]")
	}
	for _, m := range []string{"version", "filename", "category", "commands", "attachments", "blackboard", "expressions",
		"modules", "moduleCall", "replacements", "enumRelocations", "section58", "hasSection6C"} {
		want = append(want, "map[column:39 line:2 message:missing node:<nil> path:"+m+"]")
	}
	if len(problems) != len(want) {
		t.Fatalf("problems %v", problems)
	}
	for i := range want {
		if got := fmt.Sprint(problems[i]); got != want[i] {
			t.Errorf("problem %d: %s, want %s", i, got, want[i])
		}
	}
}

func TestBuildExpressionError(t *testing.T) {
	s := newTestServer(t, nil)
	data := corpusFile(t, "synthetic/expressions_v407.ainb")
	var line int
	body := editDocument(t, s, data, func(d *graph.Document) {
		if d.Expressions == nil || len(d.Expressions.Functions) < 2 {
			t.Fatal("fewer than 2 expression functions in the test file")
		}
		text := strings.TrimRight(d.Expressions.Functions[1].Text, "\n")
		line = strings.Count(text, "\n") + 2
		d.Expressions.Functions[1].Text = text + "\nfrobnicate $1, $2\n"
	})
	e := wantError(t, do(s, "POST", "/api/build", "application/json", body), http.StatusUnprocessableEntity)
	problems, _ := e.Detail["problems"].([]any)
	if len(problems) != 1 {
		t.Fatalf("problems %v", e.Detail)
	}
	p := problems[0].(map[string]any)
	if p["path"] != "expressions.functions[1].text" || p["line"] != float64(line) || p["node"] != nil {
		t.Fatalf("problem %v, want expressions.functions[1].text at line %d", p, line)
	}
	if want := fmt.Sprintf("the document is not valid: expressions.functions[1].text: line %d:1: ", line); !strings.HasPrefix(e.Error, want) {
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

	e := wantError(t, do(s, "POST", "/api/build", "application/json", []byte(`{"format": "ainb-editor-document/2", "name": `)), http.StatusBadRequest)
	if e.Error != "invalid JSON at line 1, column 46: the text ends where a value belongs" || e.Detail["offset"] != float64(45) {
		t.Errorf("truncated JSON: %+v", e)
	}
	e = wantError(t, do(s, "POST", "/api/build", "application/json", []byte("{\"a\":1,\n}")), http.StatusBadRequest)
	if e.Error != "invalid JSON at line 2, column 1: want a member name in double quotes, found '}'" || e.Detail["line"] != float64(2) {
		t.Errorf("invalid JSON: %+v", e)
	}
	e = wantError(t, do(s, "POST", "/api/build", "application/json", []byte(`{"nodes":[{"id":0,"name":tru}]}`)), http.StatusBadRequest)
	if e.Error != "invalid JSON at line 1, column 29: invalid literal: want true, found '}'" || e.Detail["path"] != "nodes[0].name" {
		t.Errorf("invalid JSON in a node: %+v", e)
	}
	e = wantError(t, do(s, "POST", "/api/build", "application/json", nil), http.StatusBadRequest)
	if e.Error != "empty body: send the document as JSON" {
		t.Errorf("empty: %q", e.Error)
	}
	e = wantError(t, do(s, "POST", "/api/build", "application/json", []byte(`{"format":"something/2","version":1031,"category":"AI"}`)), http.StatusUnprocessableEntity)
	if e.Error != `the document is not valid: format: "something/2", want "ainb-editor-document/2"` {
		t.Errorf("wrong format: %q", e.Error)
	}
	e = wantError(t, do(s, "POST", "/api/build", "application/json", []byte(`[1,2]`)), http.StatusUnprocessableEntity)
	if e.Error != "the document is not valid: line 1:1: want an object, found an array" {
		t.Errorf("array: %q", e.Error)
	}
	// A multipart body is the document with the game's dictionaries (zsdicupload.go).
	for _, ct := range []string{"", "application/octet-stream", "text/plain", "application/jsonx"} {
		e = wantError(t, do(s, "POST", "/api/build", ct, doc), http.StatusUnsupportedMediaType)
		if !strings.HasSuffix(e.Error, ": send the document as application/json") {
			t.Errorf("%q: %q", ct, e.Error)
		}
	}
}

func TestBuildTooLarge(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.MaxDocument = 1000 })
	body := []byte(`{"format":"ainb-editor-document/2","name":"` + strings.Repeat("x", 1000) + `"}`)
	e := wantError(t, do(s, "POST", "/api/build", "application/json", body), http.StatusRequestEntityTooLarge)
	if e.Error != "request body too large: the limit is 1000 bytes" {
		t.Errorf("%q", e.Error)
	}
	req := httptestRequest("POST", "/api/build", "application/json", body)
	req.ContentLength = -1
	wantError(t, serve(s, req), http.StatusRequestEntityTooLarge)
}
