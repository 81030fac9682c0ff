package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"ainbeditor/internal/graph"
)

// renamed is the document with node id's name set to name, as the editor would send it.
func renamed(t testing.TB, doc []byte, id int, name string) []byte {
	t.Helper()
	d, err := graph.Decode(doc)
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.Nodes {
		if d.Nodes[i].ID == id {
			d.Nodes[i].Name = name
			return d.Encode()
		}
	}
	t.Fatalf("no node %d", id)
	return nil
}

func body(members ...string) []byte {
	return []byte("{" + strings.Join(members, ",") + "}")
}

type diffReply struct {
	Changes []struct {
		Op    string
		Path  []string
		Old   json.RawMessage
		New   json.RawMessage
		NodeA *int
		NodeB *int
	}
}

// /api/diff lists exactly the edit, with the node it belongs to on both sides; a document
// compared with itself has no change.
func TestDiffRoute(t *testing.T) {
	s := newTestServer(t, nil)
	a := parseOK(t, s, "x.ainb", corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	b := renamed(t, a, 7, "Renamed")
	rec := do(s, "POST", "/api/diff", "application/json", body(`"a":`+string(a), `"b":`+string(b)))
	if rec.Code != 200 {
		t.Fatalf("%d: %s", rec.Code, cut(rec.Body.Bytes()))
	}
	var got diffReply
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Changes) != 1 {
		t.Fatalf("%d changes, want 1: %s", len(got.Changes), cut(rec.Body.Bytes()))
	}
	c := got.Changes[0]
	if c.Op != "changed" || c.NodeA == nil || *c.NodeA != 7 || c.NodeB == nil || *c.NodeB != 7 || string(c.New) != `"Renamed"` || !strings.HasPrefix(c.Path[0], "node 7 ") {
		t.Errorf("change %+v (old %s, new %s)", c, c.Old, c.New)
	}
	// Node 27 removed and node 28 renumbered 27: the reply pairs the ids.
	d, err := graph.Decode(a)
	if err != nil {
		t.Fatal(err)
	}
	d.Nodes = append(d.Nodes[:27], d.Nodes[28])
	d.Nodes[27].ID = 27
	d.Nodes[0].Children = append(d.Nodes[0].Children[:21], d.Nodes[0].Children[22])
	d.Nodes[0].Children[21].Node = 27
	rec = do(s, "POST", "/api/diff", "application/json", body(`"a":`+string(a), `"b":`+string(d.Encode())))
	var ren struct{ Renumbered [][2]int }
	if err := json.Unmarshal(rec.Body.Bytes(), &ren); rec.Code != 200 || err != nil || len(ren.Renumbered) != 1 || ren.Renumbered[0] != [2]int{28, 27} {
		t.Errorf("renumbered: %d %v %s", rec.Code, err, cut(rec.Body.Bytes()))
	}
	rec = do(s, "POST", "/api/diff", "application/json", body(`"a":`+string(a), `"b":`+string(a)))
	if rec.Code != 200 || rec.Body.String() != `{"changes":[]}`+"\n" {
		t.Errorf("self: %d %q", rec.Code, cut(rec.Body.Bytes()))
	}
	// Bad requests name the member at fault.
	e := wantError(t, do(s, "POST", "/api/diff", "application/json", body(`"a":`+string(a))), http.StatusBadRequest)
	if e.Error != `invalid diff request: no member "b"; want {"a": document, "b": document}` {
		t.Errorf("missing b: %q", e.Error)
	}
	e = wantError(t, do(s, "POST", "/api/diff", "application/json", body(`"a":`+string(a), `"b":{"format":1}`)), http.StatusUnprocessableEntity)
	if !strings.HasPrefix(e.Error, "b: the document is not valid: ") {
		t.Errorf("bad b: %q", e.Error)
	}
	e = wantError(t, do(s, "POST", "/api/diff", "application/json", body(`"a":`+string(a), `"b":`+string(a), `"c":1`)), http.StatusBadRequest)
	if !strings.Contains(e.Error, `unknown member "c"`) {
		t.Errorf("extra member: %q", e.Error)
	}
	// Text that is not JSON is refused at its line and column, inside a member or after the
	// object, before any document is read.
	for _, c := range []struct{ body, at, want string }{
		{`{"a":` + string(a) + `,"b":[1,]}`, ",]", `invalid diff request: b: invalid JSON at POS: a comma before ] (trailing commas are not JSON)`},
		{`{"a":` + string(a) + `,"b":` + string(a) + `} x`, "x", `invalid diff request: invalid JSON at POS: text after the object`},
		{`{"a" 1}`, " 1", `invalid diff request: invalid JSON at POS: want : after a member name`},
	} {
		off := strings.LastIndex(c.body, c.at)
		if c.at == " 1" {
			off++
		}
		line := strings.Count(c.body[:off], "\n") + 1
		col := off - strings.LastIndex(c.body[:off], "\n")
		want := strings.Replace(c.want, "POS", fmt.Sprintf("line %d, column %d", line, col), 1)
		e = wantError(t, do(s, "POST", "/api/diff", "application/json", []byte(c.body)), http.StatusBadRequest)
		if e.Error != want {
			t.Errorf("%.40q: %q, want %q", c.body, e.Error, want)
		}
	}
}

type mergeReply struct {
	Document *struct {
		Nodes []struct {
			ID   int
			Name string
		}
	}
	Conflicts []struct {
		Path               []string
		Base, Ours, Theirs json.RawMessage
	}
}

func (m mergeReply) name(id int) string {
	for _, n := range m.Document.Nodes {
		if n.ID == id {
			return n.Name
		}
	}
	return "(none)"
}

// /api/merge combines edits to different places, lists a conflict with its three values and
// no document, and settles it with a preference.
func TestMergeRoute(t *testing.T) {
	s := newTestServer(t, nil)
	base := parseOK(t, s, "x.ainb", corpusFile(t, "synthetic/kitchen_sink_v407.ainb"))
	merge := func(ours, theirs []byte, extra ...string) mergeReply {
		t.Helper()
		rec := do(s, "POST", "/api/merge", "application/json", body(append([]string{`"base":` + string(base), `"ours":` + string(ours), `"theirs":` + string(theirs)}, extra...)...))
		if rec.Code != 200 {
			t.Fatalf("%d: %s", rec.Code, cut(rec.Body.Bytes()))
		}
		var m mergeReply
		if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := merge(renamed(t, base, 7, "Ours"), renamed(t, base, 3, "Theirs"))
	if m.Document == nil || len(m.Conflicts) != 0 || m.name(7) != "Ours" || m.name(3) != "Theirs" {
		t.Fatalf("disjoint edits: %+v", m)
	}
	m = merge(renamed(t, base, 7, "Ours"), renamed(t, base, 7, "Theirs"))
	if m.Document != nil || len(m.Conflicts) != 1 || string(m.Conflicts[0].Ours) != `"Ours"` || string(m.Conflicts[0].Theirs) != `"Theirs"` {
		t.Fatalf("one conflict: %+v", m)
	}
	for _, side := range []string{"ours", "theirs"} {
		m = merge(renamed(t, base, 7, "Ours"), renamed(t, base, 7, "Theirs"), fmt.Sprintf(`"prefer":%q`, side))
		if want := strings.ToUpper(side[:1]) + side[1:]; m.Document == nil || len(m.Conflicts) != 1 || m.name(7) != want {
			t.Errorf("prefer %s: node 7 named %q, %d conflicts", side, m.name(7), len(m.Conflicts))
		}
	}
	e := wantError(t, do(s, "POST", "/api/merge", "application/json", body(`"base":`+string(base), `"ours":`+string(base), `"theirs":`+string(base), `"prefer":"mine"`)), http.StatusBadRequest)
	if e.Error != `invalid merge request: prefer: preference "mine": want ours or theirs` {
		t.Errorf("prefer mine: %q", e.Error)
	}
	// Three documents at most: a body past three times -max-document is refused unread.
	small := newTestServer(t, func(c *Config) { c.MaxDocument = 1 << 20 })
	big := make([]byte, 3<<20+2<<10)
	wantError(t, do(small, "POST", "/api/merge", "application/json", big), http.StatusRequestEntityTooLarge)
}

// BenchmarkDiffRouteLargest is the server's part of opening Compare with… on the corpus's
// largest file (7,130 nodes) against a version with one node renamed: split the request,
// decode both documents, diff, write the reply.
func BenchmarkDiffRouteLargest(b *testing.B) {
	s := newTestServer(b, noRateLimits)
	a := parseOK(b, s, "nodedefs_ai_v407.ainb", corpusFile(b, "real/nodedefs_ai_v407.ainb"))
	req := body(`"a":`+string(a), `"b":`+string(renamed(b, a, 500, "Renamed")))
	b.SetBytes(int64(len(req)))
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		if rec := do(s, "POST", "/api/diff", "application/json", req); rec.Code != 200 {
			b.Fatalf("%d: %s", rec.Code, cut(rec.Body.Bytes()))
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}
