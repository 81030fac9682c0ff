package server

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"ainbeditor/internal/aamp"
	"ainbeditor/internal/byml"
	"ainbeditor/internal/hostile"
	"ainbeditor/internal/testalloc"
)

// sides makes a multipart form of named fields, each a file part.
func sides(t testing.TB, fields ...string) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for i := 0; i+1 < len(fields); i += 2 {
		w, err := mw.CreateFormFile(fields[i], fields[i]+".bin")
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(fields[i+1]))
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return mw.FormDataContentType(), buf.Bytes()
}

func postSides(s http.Handler, t testing.TB, target string, fields ...string) (int, string) {
	t.Helper()
	ct, body := sides(t, fields...)
	rec := do(s, "POST", target, ct, body)
	return rec.Code, strings.TrimSuffix(rec.Body.String(), "\n")
}

// smallBYML is a BYML file of {Name, List, N} with the values given.
func smallBYML(t testing.TB, name string, list []int32, n int32) []byte {
	t.Helper()
	root := byml.NewHash()
	root.Set("Name", byml.NewString(name))
	l := byml.NewArray()
	for _, v := range list {
		l.Items = append(l.Items, byml.NewInt(v))
	}
	root.Set("List", l)
	root.Set("N", byml.NewInt(n))
	b, err := (&byml.Document{Version: 2, Root: root}).BytesCanonical()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func bymlJSON(t testing.TB, data []byte) string {
	t.Helper()
	d, err := byml.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	js, err := d.ToJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(js)
}

// /api/tree/diff lists a BYML file's changes against another file or a JSON form exactly,
// an inserted array element as one change; an AAMP archive's by name.
func TestTreeDiffRoute(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	a := smallBYML(t, "x", []int32{1, 2, 3}, 5)
	b := smallBYML(t, "y", []int32{1, 9, 2, 3}, 5)
	want := `{"kind":"byml","changes":[{"op":"added","path":["List","1"],"new":{"type":"int","value":9}},` +
		`{"op":"changed","path":["Name"],"old":{"type":"string","value":"x"},"new":{"type":"string","value":"y"}}]}`
	for _, bSide := range []string{string(b), bymlJSON(t, b)} {
		if code, got := postSides(s, t, "/api/tree/diff", "a", string(a), "b", bSide); code != 200 || got != want {
			t.Errorf("diff: %d %s\nwant %s", code, got, want)
		}
	}
	if code, got := postSides(s, t, "/api/tree/diff", "a", string(a), "b", string(a)); code != 200 || got != `{"kind":"byml","changes":[]}` {
		t.Errorf("self: %d %s", code, got)
	}
	// Two JSON forms: the kind says the format.
	if code, got := postSides(s, t, "/api/tree/diff?kind=byml", "a", bymlJSON(t, a), "b", bymlJSON(t, b)); code != 200 || got != want {
		t.Errorf("two JSON forms: %d %s", code, got)
	}

	p := func(name string, v int32) aamp.Parameter {
		return aamp.Parameter{Name: aamp.NameOf(name), Type: aamp.TypeInt, Value: v}
	}
	archive := func(ps ...aamp.Parameter) string {
		io := &aamp.ParameterIO{Type: "xml", Root: aamp.ParameterList{Name: aamp.NameOf("param_root"),
			Objects: []*aamp.ParameterObject{{Name: aamp.NameOf("Obj"), Params: ps}}}}
		data, err := io.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	code, got := postSides(s, t, "/api/tree/diff", "a", archive(p("x", 1), p("y", 2)), "b", archive(p("x", 1), p("y", 3), p("z", 4)))
	h := func(name string) uint32 { return uint32(aamp.NameOf(name)) }
	// No names table knows these names: the steps are their hashes.
	wantA := fmt.Sprintf(`{"kind":"aamp","changes":[{"op":"changed","path":["param_root","%#08x","%#08x"],"old":{"hash":%d,"type":"int","value":2},"new":{"hash":%[3]d,"type":"int","value":3}},`+
		`{"op":"added","path":["param_root","%#08[1]x","%#08[4]x"],"new":{"hash":%[5]d,"type":"int","value":4}}]}`, h("Obj"), h("y"), h("y"), h("z"), h("z"))
	if code != 200 || got != wantA {
		t.Errorf("aamp: %d %s\nwant %s", code, got, wantA)
	}
}

// /api/tree/merge merges a file base, a JSON form ours and a file theirs: without choices the
// one conflict is the answer and no document; each choice is honoured; choices for
// conflicts that are not there are refused.
func TestTreeMergeRoute(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	base := smallBYML(t, "x", []int32{1, 2, 3}, 5)
	ours := bymlJSON(t, smallBYML(t, "ours", []int32{1, 2, 3, 4}, 5))
	theirs := string(smallBYML(t, "theirs", []int32{0, 1, 2, 3}, 6))
	conflict := `"conflicts":[{"path":["Name"],"base":{"type":"string","value":"x"},"ours":{"type":"string","value":"ours"},"theirs":{"type":"string","value":"theirs"}}]}`
	code, got := postSides(s, t, "/api/tree/merge", "base", string(base), "ours", ours, "theirs", theirs)
	if want := `{"kind":"byml","document":null,` + conflict; code != 200 || got != want {
		t.Fatalf("open: %d %s\nwant %s", code, got, want)
	}
	for _, c := range []struct{ choice, name string }{{"ours", "ours"}, {"theirs", "theirs"}} {
		code, got = postSides(s, t, "/api/tree/merge", "base", string(base), "ours", ours, "theirs", theirs, "choices", `["`+c.choice+`"]`)
		doc := bymlJSON(t, smallBYML(t, c.name, []int32{0, 1, 2, 3, 4}, 6))
		if want := `{"kind":"byml","document":` + doc + `,` + conflict; code != 200 || got != want {
			t.Errorf("%s: %d %s\nwant %s", c.choice, code, got, want)
		}
	}
	code, got = postSides(s, t, "/api/tree/merge", "base", string(base), "ours", ours, "theirs", theirs, "prefer", "theirs")
	if doc := bymlJSON(t, smallBYML(t, "theirs", []int32{0, 1, 2, 3, 4}, 6)); code != 200 || got != `{"kind":"byml","document":`+doc+`,`+conflict {
		t.Errorf("prefer theirs: %d %s", code, got)
	}
	for _, c := range []struct {
		fields []string
		status int
		msg    string
	}{
		{[]string{"choices", `["ours","theirs"]`}, 422, "choices: 2 given for 1 conflicts: merge again without them to see the conflicts"},
		{[]string{"choices", `["mine"]`}, 400, `choices[0]: preference "mine": want ours or theirs`},
		{[]string{"choices", `{"a":1}`}, 400, `choices: want a JSON array of "ours", "theirs" or "", one per conflict`},
		{[]string{"prefer", "both"}, 400, `prefer: preference "both": want ours or theirs`},
	} {
		fields := append([]string{"base", string(base), "ours", ours, "theirs", theirs}, c.fields...)
		code, body := postSides(s, t, "/api/tree/merge", fields...)
		if code != c.status || !strings.Contains(body, `"error":"`+strings.ReplaceAll(c.msg, `"`, `\"`)+`"`) {
			t.Errorf("%v: %d %s; want %d %s", c.fields, code, body, c.status, c.msg)
		}
	}
}

// Bad and hostile sides are 4xx that say which side and why, never a panic: a missing side,
// a JSON form with no format, an AINB file, two formats, garbage, a bad JSON form, another
// content type, a body past the cap; a 1 KB file sharing an array at 2^40 places, changed
// inside, stops at the reply's budget.
func TestTreeDiffErrors(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	a := string(smallBYML(t, "x", []int32{1}, 5))
	ainb := string(corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	archive, err := (&aamp.ParameterIO{Type: "xml", Root: aamp.ParameterList{Name: aamp.NameOf("param_root")}}).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	chain := hostile.SharedChainBYML(40, 2)
	changed := bytes.Clone(chain)
	changed[len(changed)-4] = 8 // the last array's last int: 7 becomes 8
	for _, c := range []struct {
		name   string
		target string
		fields []string
		status int
		msg    string
	}{
		{"no b", "/api/tree/diff", []string{"a", a}, 400, `no b: send it in the multipart field \"b\", a BYML or AAMP file or its JSON form`},
		{"JSON without kind", "/api/tree/diff", []string{"a", `{"root":null}`, "b", `{}`}, 400, "a is a JSON form and no file says the format: say kind=byml or kind=aamp"},
		{"bad kind", "/api/tree/diff?kind=ainb", []string{"a", a, "b", a}, 400, `kind=\"ainb\": say kind=byml or kind=aamp`},
		{"AINB", "/api/tree/diff", []string{"a", a, "b", ainb}, 422, "b is not a BYML or AAMP file: it is an AINB file: open it in the graph editor"},
		{"two formats", "/api/tree/diff", []string{"a", a, "b", string(archive)}, 422, "b is AAMP, but a says BYML: compare files of one format"},
		{"kind against file", "/api/tree/diff?kind=aamp", []string{"a", a, "b", a}, 422, "a is BYML, but kind=aamp says AAMP: compare files of one format"},
		{"garbage", "/api/tree/diff", []string{"a", a, "b", "YB\x02\x00garbage"}, 422, "b: "},
		{"bad JSON form", "/api/tree/diff", []string{"a", a, "b", `{"version":2,"root":{"type":"int"}}`}, 422, "b: the document is not valid: "},
		{"shared chain", "/api/tree/diff", []string{"a", string(chain), "b", string(changed)}, 422, "the list of changes"},
		{"shared chain merge", "/api/tree/merge?kind=byml", []string{"base", string(chain), "ours", string(changed), "theirs", string(chain[:len(chain)-4]) + "\x09\x00\x00\x00", "prefer", "ours"}, 422, "the list of conflicts"},
	} {
		code, body := postSides(s, t, c.target, c.fields...)
		if code != c.status || !strings.Contains(body, `"error":"`+c.msg) {
			t.Errorf("%s: %d %s; want %d %s", c.name, code, cut([]byte(body)), c.status, c.msg)
		}
	}
	e := wantError(t, do(s, "POST", "/api/tree/diff", "application/json", []byte(`{}`)), http.StatusUnsupportedMediaType)
	if !strings.HasSuffix(e.Error, `send each side as a multipart field ("a", "b"): a BYML or AAMP file, or its JSON form`) {
		t.Errorf("content type: %q", e.Error)
	}
	small := newTestServer(t, func(c *Config) { noRateLimits(c); c.MaxUpload, c.MaxDocument = 1<<10, 1<<10 })
	ct, body := sides(t, "a", strings.Repeat("x", 4<<20), "b", a)
	wantError(t, do(small, "POST", "/api/tree/diff", ct, body), http.StatusRequestEntityTooLarge)
}

// A 1 KB file sharing an array at 2^40 places, changed inside, costs the diff and the merge
// no more than 8 times the reply's budget before they stop at it (2.6 and 3.6 times when written).
func TestTreeDiffWorkBudget(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	chain := hostile.SharedChainBYML(40, 2)
	changed := bytes.Clone(chain)
	changed[len(changed)-4] = 8
	theirs := bytes.Clone(chain)
	theirs[len(theirs)-4] = 9
	limit := s.replyLimit(3*len(chain), 0)
	for _, c := range []struct {
		target string
		fields []string
	}{
		{"/api/tree/diff", []string{"a", string(chain), "b", string(changed)}},
		{"/api/tree/merge", []string{"base", string(chain), "ours", string(changed), "theirs", string(theirs), "prefer", "ours"}},
	} {
		ct, body := sides(t, c.fields...)
		var rec *httptest.ResponseRecorder
		n := testalloc.Bytes(func() { rec = do(s, "POST", c.target, ct, body) })
		t.Logf("%s: status %d, allocated %d bytes (reply budget %d)", c.target, rec.Code, n, limit)
		if rec.Code != http.StatusUnprocessableEntity || n > uint64(8*limit) {
			t.Errorf("%s: status %d, allocated %d bytes: want 422 within 8 times the reply's budget of %d", c.target, rec.Code, n, limit)
		}
	}
}
