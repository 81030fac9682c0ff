package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"ainbeditor/internal/ainb"
	"ainbeditor/internal/graph"
	"ainbeditor/internal/hostile"
	"ainbeditor/internal/testalloc"
)

// A 380 KB file whose 30,000 property names all point at one 20,000-byte string once made a
// 401 MB /api/parse reply and gigabytes of server memory; now it is a 422 that says why, and
// refusing it allocates a small multiple of the upload.
func TestParseNameAmplifier(t *testing.T) {
	testAmplifierRefused(t, nameAmplifier(t))
}

// The same names pointing at successive offsets inside the long string: each distinct inner
// offset was once a new copy of the string's rest, so the reader itself held as much as the
// reply. The text budget counts every reference the same, wherever it points.
func TestParseInnerOffsetAmplifier(t *testing.T) {
	// The file's references do point inside the string: read back, fifty tails.
	f, err := ainb.Read(hostile.SharedNamesAINB(t, 50, 20000, true))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Layout.Tails) != 50 {
		t.Fatalf("50 inner references read back as %d tails", len(f.Layout.Tails))
	}
	testAmplifierRefused(t, innerAmplifier(t))
}

// testAmplifierRefused checks that /api/parse refuses data with the text budget's 422, and
// that the refusal allocates at most 16 times the upload.
func testAmplifierRefused(t *testing.T, data []byte) {
	t.Helper()
	s := newTestServer(t, nil)
	var rec = do(s, "POST", "/api/parse", "application/octet-stream", data) // warm up
	n := testalloc.Bytes(func() { rec = do(s, "POST", "/api/parse", "application/octet-stream", data) })
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), "the file would expand without bound") {
		t.Fatalf("status %d: %s", rec.Code, cut(rec.Body.Bytes()))
	}
	t.Logf("upload %d bytes, reply %d bytes, allocated %d bytes", len(data), rec.Body.Len(), n)
	if n > 16*uint64(len(data)) {
		t.Errorf("refusing a %d-byte upload allocated %d bytes", len(data), n)
	}
}

// amplifierNames is how many property names the amplifiers hold: 30,000 names of about
// 20,000 bytes would hand out 600 MB of text.
const amplifierNames = 30000

// nameAmplifier is a 380 KB file whose 30,000 property names all point at one 20,000-byte
// string.
func nameAmplifier(t testing.TB) []byte { return amplifierFile(t, false) }

// innerAmplifier is a 380 KB file whose 30,000 property names point at 50 successive offsets
// inside one 20,000-byte string (recorded as the layout's tails, as the reader records them).
func innerAmplifier(t testing.TB) []byte { return amplifierFile(t, true) }

func amplifierFile(t testing.TB, inner bool) []byte {
	data := hostile.SharedNamesAINB(t, amplifierNames, 20000, inner)
	if len(data) > 500<<10 {
		t.Fatalf("the amplifier is %d bytes: the names are not shared", len(data))
	}
	return data
}

// A document whose expression compares with one 20,000-byte string on 2,000 lines builds to
// a small file (the string is stored once); parsing that file once disassembled to 40 MB of
// text. Now /api/parse refuses it with a 422.
func TestParseExpressionAmplifier(t *testing.T) {
	s := newTestServer(t, nil)
	bin := expressionAmplifier(t, s, 2000)
	rec := do(s, "POST", "/api/parse", "application/octet-stream", bin) // warm up
	n := testalloc.Bytes(func() { rec = do(s, "POST", "/api/parse", "application/octet-stream", bin) })
	t.Logf("a document of 2,000 comparisons built a %d-byte file; parsing it answers %d with %d bytes, allocating %d bytes", len(bin), rec.Code, rec.Body.Len(), n)
	var e struct{ Error string }
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || rec.Code != 422 || !strings.Contains(e.Error, "16 times the module's size") {
		t.Fatalf("parse of the %d-byte build: status %d: %s", len(bin), rec.Code, cut(rec.Body.Bytes()))
	}
	// Refusing it costs 1 MiB and a fixed multiple of the file, not the text it would make
	// (once 554 MB: the readable text was built, attempt after attempt, before it was measured).
	if n > 1<<20+16*uint64(len(bin)) {
		t.Errorf("refusing a %d-byte upload allocated %d bytes", len(bin), n)
	}
}

// expressionAmplifier builds, through s's /api/build, a file whose expression compares with
// one 20,000-byte string on the given number of lines.
func expressionAmplifier(t testing.TB, s *Server, lines int) []byte {
	t.Helper()
	doc, err := graph.Parse("x.ainb", corpusFile(t, "synthetic/expressions_v407.ainb"))
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("amplify ", 2500)
	var b strings.Builder
	b.WriteString(".input STRING\n.output BOOL\n.main\n")
	for range lines {
		b.WriteString("0x0000  EQL str GMem[0x0], str \"" + long + "\"\n")
	}
	b.WriteString("0x0000  END\n")
	doc.Expressions.Functions = append(doc.Expressions.Functions, graph.Function{Text: b.String()})
	rec := do(s, "POST", "/api/build", "application/json", doc.Encode())
	if rec.Code != 200 {
		t.Fatalf("build: status %d: %s", rec.Code, cut(rec.Body.Bytes()))
	}
	return rec.Body.Bytes()
}

// The parse reply has a budget of its own, proportional to the file: a document past it is a
// 422 that says so, with the budget and the size in the detail, and a document at it is
// answered. The corpus's files are far inside the default budget, so the test lowers it.
func TestParseReplyBudget(t *testing.T) {
	data := corpusFile(t, midFile)
	s := newTestServer(t, nil)
	size := len(parseOK(t, s, "x.ainb", data)) - 1 // the reply ends in a newline
	if limit := s.replyBudget(len(data)); int64(size) > limit/10 {
		t.Errorf("a %d-byte corpus file's %d-byte document is within a tenth of the default budget %d", len(data), size, limit)
	}

	s.replyRatio, s.replyBase = 0, int64(size)
	parseOK(t, s, "x.ainb", data)

	s.replyBase = int64(size) - 1
	rec := do(s, "POST", "/api/parse?name=x.ainb", "application/octet-stream", data)
	e := wantError(t, rec, 422)
	// Short by the closing brace: the writer gets to the end, and no part is to blame.
	if !strings.HasPrefix(e.Error, fmt.Sprintf("the file's document passes the %d bytes allowed for a %d-byte file: the file would expand without bound", size-1, len(data))) {
		t.Errorf("message %q", e.Error)
	}
	if e.Detail["limit"] != float64(size-1) || e.Detail["at"] != "" {
		t.Errorf("detail %v", e.Detail)
	}
	// Short by half: the writer stops in the middle of the nodes and says at which.
	s.replyBase = int64(size) / 2
	e = wantError(t, do(s, "POST", "/api/parse?name=x.ainb", "application/octet-stream", data), 422)
	if at, _ := e.Detail["at"].(string); !strings.HasPrefix(at, "node ") || !strings.Contains(e.Error, fmt.Sprintf("allowed for a %d-byte file at %q:", len(data), at)) {
		t.Errorf("half the budget: %q, detail %v", e.Error, e.Detail)
	}

	// The ratio counts the file's size: one times the file is less than its document.
	s.replyRatio, s.replyBase = 1, 0
	wantError(t, do(s, "POST", "/api/parse?name=x.ainb", "application/octet-stream", data), 422)
}
