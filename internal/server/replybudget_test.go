package server

import (
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"ainbeditor/internal/hostile"
	"ainbeditor/internal/pack"
	"ainbeditor/internal/testalloc"
	"ainbeditor/internal/testcorpus"
	"ainbeditor/internal/zs"
)

// sendHostile sends data to route (as the multipart field "file", or as the body for
// /api/parse) and returns the answer and what it allocated. A small input is sent once
// before, to warm the server's pools; for a large one they are a small part of the
// allocations.
func sendHostile(t *testing.T, s *Server, route string, data []byte) (*httptest.ResponseRecorder, uint64) {
	t.Helper()
	ct, body := "application/octet-stream", data
	if route != "/api/parse" {
		ct, body = packForm(t, packPart{"file", "hostile", data})
	}
	var rec *httptest.ResponseRecorder
	if len(data) < 1<<20 {
		rec = do(s, "POST", route, ct, body)
	}
	n := testalloc.Bytes(func() { rec = do(s, "POST", route, ct, body) })
	return rec, n
}

// wantBudgetError checks a 422 of the reply budget: its message starts with prefix, and
// its detail gives the limit and, when at is not empty, the place starting with at.
func wantBudgetError(t *testing.T, rec *httptest.ResponseRecorder, prefix string, limit int, at string) {
	t.Helper()
	e := wantError(t, rec, 422)
	if !strings.HasPrefix(e.Error, prefix) || !strings.Contains(e.Error, "the file would expand without bound") {
		t.Errorf("message %.300q, want it to start %q", e.Error, prefix)
	}
	got, _ := e.Detail["at"].(string)
	if e.Detail["limit"] != float64(limit) || !strings.HasPrefix(got, at) || len(got) > 203 {
		t.Errorf("detail limit %v at %.80q, want %d at %q...", e.Detail["limit"], got, limit, at)
	}
	if rec.Body.Len() > 2048 {
		t.Errorf("the refusal is %d bytes", rec.Body.Len())
	}
}

// A BYML file of 200 arrays, each of 1,300 items all pointing at the next array, stands
// for 1,300^200 nodes. The JSON form names each array once: 2.3 times the file, answered,
// allocating 12 times the upload (the path of every item once took 52 MB more).
func TestTreeSharedChain(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	data := hostile.SharedChainBYML(200, 1300)
	rec, n := sendHostile(t, s, "/api/tree", data)
	t.Logf("upload %d bytes: %d, reply %d bytes, allocated %d", len(data), rec.Code, rec.Body.Len(), n)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `[{"type":"array","id":1,"value":[{"type":"array","id":2,"value":[`) {
		t.Fatalf("status %d: %s", rec.Code, cut(rec.Body.Bytes()))
	}
	if rec.Body.Len() > 5*len(data)/2 {
		t.Errorf("a %d-byte file answered %d bytes", len(data), rec.Body.Len())
	}
	if n > allocBound(16*uint64(len(data))) {
		t.Errorf("a %d-byte upload allocated %d bytes", len(data), n)
	}
}

// The same chain, 1,000 arrays of 12,000 items, is 60 MB that zstd sends in a few KB. Its
// JSON form, 120 MB of references, was once built whole; now the reply is held to 64 times
// the upload (plus 4 MiB) and refused where it passes that, having allocated no more than
// reading the file takes and twice the budget.
func TestTreeSharedChainZstd(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	plain := hostile.SharedChainBYML(1000, 12000)
	data := hostile.Zstd(t, plain)
	rec, n := sendHostile(t, s, "/api/tree", data)
	t.Logf("upload %d bytes (%d decompressed): %d, reply %d bytes, allocated %d", len(data), len(plain), rec.Code, rec.Body.Len(), n)
	limit := MaxReplyBase + MaxReplyWrappedRatio*len(data)
	wantBudgetError(t, rec, fmt.Sprintf("the file's JSON form passes the %d bytes allowed for a %d-byte file compressed in %d bytes at \"/0/0/0/", limit, len(plain), len(data)), limit, "/0/0/0/")
	// Reading holds the file and a pointer per item: three times the file.
	if budget := allocBound(3*uint64(len(plain)) + 3*uint64(limit)); n > budget {
		t.Errorf("refusing it allocated %d bytes, more than %d", n, budget)
	}
}

// 16,383 members named by 4,000 bytes of 0x01 each, which JSON writes as six bytes: a 66 MB
// archive that zstd sends in 157 KB, and whose listing (400 MB) /api/pack once answered.
func TestPackEscapedNamesZstd(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	plain := hostile.EscapedNamesPack(16383, 4000)
	data := hostile.Zstd(t, plain)
	rec, n := sendHostile(t, s, "/api/pack", data)
	t.Logf("upload %d bytes (%d decompressed): %d, reply %d bytes, allocated %d", len(data), len(plain), rec.Code, rec.Body.Len(), n)
	limit := MaxReplyBase + MaxReplyWrappedRatio*len(data)
	wantBudgetError(t, rec, fmt.Sprintf("the pack's listing passes the %d bytes allowed for a ", limit), limit, "member ")
	// Unwrapping and reading the names take about twice the archive.
	if budget := allocBound(3*uint64(len(plain)) + 3*uint64(limit)); n > budget {
		t.Errorf("refusing it allocated %d bytes, more than %d", n, budget)
	}
}

// The same names, 900 bytes each, sent as they are: 15 MB whose listing would be 95 MB.
// Sixteen times the upload allows it, but no reply is larger than -max-document.
func TestPackEscapedNamesPlain(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	data := hostile.EscapedNamesPack(16383, 900)
	rec, n := sendHostile(t, s, "/api/pack", data)
	t.Logf("upload %d bytes: %d, reply %d bytes, allocated %d", len(data), rec.Code, rec.Body.Len(), n)
	limit := int(s.cfg.MaxDocument)
	wantBudgetError(t, rec, fmt.Sprintf("the pack's listing passes the %d bytes allowed for a ", limit), limit, "member ")
	if budget := allocBound(4*uint64(len(data)) + 3*uint64(limit)); n > budget {
		t.Errorf("refusing it allocated %d bytes, more than %d", n, budget)
	}
}

// An AINB file whose 30,000 property names all point at one 2,000-byte string, padded to
// 4 MiB so that the reader's text budget (16 times the file) lets the 60 MB of names
// through: 320 bytes of zstd answered a 67 MB document. Now the reply is held to what was
// uploaded and refused before the one node holding the names is written.
func TestParsePaddedAmplifierZstd(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	plain := hostile.PaddedNamesAINB(t, 30000, 2000, 4<<20)
	data := hostile.Zstd(t, plain)
	rec, n := sendHostile(t, s, "/api/parse", data)
	t.Logf("upload %d bytes (%d decompressed): %d, reply %d bytes, allocated %d", len(data), len(plain), rec.Code, rec.Body.Len(), n)
	limit := MaxReplyBase + MaxReplyWrappedRatio*len(data)
	wantBudgetError(t, rec, fmt.Sprintf("the file's document passes the %d bytes allowed for a %d-byte file compressed in %d bytes at \"node 0\"", limit, len(plain), len(data)), limit, "node 0")
	// Reading the file (the names shared, the document's nodes) takes a few times its size.
	if budget := allocBound(8*uint64(len(plain)) + 2*uint64(limit)); n > budget {
		t.Errorf("refusing it allocated %d bytes, more than %d", n, budget)
	}
	// Sent as it is, the same file is 4 MiB, and its document within 16 times that and
	// -max-document: answered, as any file whose document is proportional to it.
	rec = do(s, "POST", "/api/parse", "application/octet-stream", plain)
	if rec.Code != 200 || rec.Body.Len() > int(s.cfg.MaxDocument) {
		t.Errorf("plain: status %d, %d bytes: %s", rec.Code, rec.Body.Len(), cut(rec.Body.Bytes()))
	}
}

// The games' compressed files (TotK with its dictionaries, SMBW without), packs and trees
// alike, open with their reply at most half its budget: the budget of 64 times the upload
// leaves the files twice what they need (the most is a TotK rstbl BYML's 30 times).
func TestReplyBudgetOfCompressedGameFiles(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	zsdic := corpusAt(t, "zstd/ZsDic.pack.zs")
	codec, err := zs.LoadZsDic(zsdic)
	if err != nil {
		t.Fatal(err)
	}
	files := testcorpus.GameFiles(t, "zstd")
	most, kinds := 0.0, map[string]int{}
	for _, path := range files {
		data := readFile(t, path)
		in, err := codec.Decompress(data, zs.MaxSize)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		route := map[string]string{"byml": "/api/tree", "aamp": "/api/tree", "sarc": "/api/pack", "ainb": "/api/parse"}[pack.Format(in)]
		if route == "" {
			continue // textures, physics: no editor of their own
		}
		var rec *httptest.ResponseRecorder
		if route == "/api/parse" {
			rec = do(s, "POST", route, "application/octet-stream", data)
		} else {
			ct, body := packForm(t, packPart{"file", filepath.Base(path), data}, packPart{"zsdic", "ZsDic.pack.zs", zsdic})
			rec = do(s, "POST", route, ct, body)
		}
		limit := s.replyLimit(len(in), len(data))
		if rec.Code != 200 || 2*(rec.Body.Len()-1) > limit {
			t.Errorf("%s: status %d, %d bytes for a budget of %d: %s", filepath.Base(path), rec.Code, rec.Body.Len()-1, limit, cut(rec.Body.Bytes()))
		}
		most = max(most, float64(rec.Body.Len())/float64(len(data)))
		kinds[pack.Format(in)]++
	}
	t.Logf("%v: replies at most %.1f times the upload", kinds, most)
	if kinds["byml"] == 0 || kinds["sarc"] == 0 {
		t.Errorf("the game files hold %v", kinds)
	}
}

// Each tree reply (the JSON form of a file, the YAML of a JSON form, the JSON form of a
// YAML text) stops at the budget as the parse document does: a budget below the reply is
// a 422 naming it, and the reply at its own size is answered.
func TestTreeReplyBudgets(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	data := readFile(t, filepath.Join(testcorpus.GameDir(t, "byml"), "SMO__WaterfallWorldHomeStageMap.byml__35f150b19f.byml"))
	ct, body := packForm(t, packPart{"file", "w.byml", data})
	doc := openTree(t, s, "w.byml", data, nil).Document
	yaml := do(s, "POST", "/api/tree/yaml?kind=byml", "application/json", doc)
	if yaml.Code != 200 {
		t.Fatalf("yaml: %d %s", yaml.Code, cut(yaml.Body.Bytes()))
	}
	for _, tc := range []struct {
		what, route, ct string
		body            []byte
		n               int
	}{
		{"the file's JSON form", "/api/tree", ct, body, len(data)},
		{"the YAML", "/api/tree/yaml?kind=byml", "application/json", doc, len(doc)},
		{"the YAML's JSON form", "/api/tree/from-yaml?kind=byml&version=3", "application/yaml", yaml.Body.Bytes(), yaml.Body.Len()},
	} {
		s.replyBase, s.replyRatio = MaxReplyBase, MaxReplyRatio
		full := do(s, "POST", tc.route, tc.ct, tc.body)
		if full.Code != 200 {
			t.Fatalf("%s: %d %s", tc.route, full.Code, cut(full.Body.Bytes()))
		}
		size := full.Body.Len()
		if !strings.HasPrefix(tc.route, "/api/tree/yaml") {
			size-- // the newline after JSON
		}
		s.replyBase, s.replyRatio = int64(size), 0
		if rec := do(s, "POST", tc.route, tc.ct, tc.body); rec.Code != 200 || rec.Body.Len() != full.Body.Len() {
			t.Errorf("%s within %d bytes: %d, %d bytes", tc.route, size, rec.Code, rec.Body.Len())
		}
		s.replyBase = int64(size) / 2
		wantBudgetError(t, do(s, "POST", tc.route, tc.ct, tc.body),
			fmt.Sprintf("%s passes the %d bytes allowed for a %d-byte file at \"/", tc.what, size/2, tc.n), size/2, "/")
	}
}

// A modder's largest honest file, the 2 MB node definitions of TotK's AI (7,130 nodes),
// compressed as hard as zstd can: its document is well inside the budget of its upload.
func TestReplyBudgetOfCompressedBigAINB(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	plain := corpusFile(t, "real/nodedefs_ai_v407.ainb")
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression))
	if err != nil {
		t.Fatal(err)
	}
	data := enc.EncodeAll(plain, nil)
	enc.Close()
	rec := do(s, "POST", "/api/parse", "application/octet-stream", data)
	limit := s.replyLimit(len(plain), len(data))
	t.Logf("%d bytes in %d compressed: document %d bytes, budget %d", len(plain), len(data), rec.Body.Len()-1, limit)
	if rec.Code != 200 || 2*(rec.Body.Len()-1) > limit {
		t.Errorf("status %d, %d bytes for a budget of %d: %s", rec.Code, rec.Body.Len()-1, limit, cut(rec.Body.Bytes()))
	}
}
