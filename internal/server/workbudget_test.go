package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"testing"

	"ainbeditor/internal/hostile"
	"ainbeditor/internal/pack"
	"ainbeditor/internal/sarc"
	"ainbeditor/internal/testalloc"
	"ainbeditor/internal/yaz0"
)

// allocBound is an allocation bound measured without the race detector, which allocates
// about three times as much for the same work (the CI runs this package under -race).
func allocBound(n uint64) uint64 {
	if raceDetector {
		return 4 * n
	}
	return n
}

// The crafted save: thousands of member parts, each naming one of thousands of long names.
// Members are found through an index (the scans took 160 s of CPU at 8,382 of 16,383), and
// the request allocates a small multiple of its body.
func TestPackBuildManyMembers(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	const members, parts = 4000, 3000
	in := hostile.LongNamesPack(t, members, 1000)
	p, err := pack.Open(in, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	form := []packPart{{"file", "x.sarc", in}}
	for i := range parts {
		form = append(form, packPart{"member", p.Archive.Files[(i*7)%members].Name, []byte{'n', byte(i)}})
	}
	ct, body := packForm(t, form...)
	var rec *httptest.ResponseRecorder
	n := testalloc.Bytes(func() { rec = do(s, "POST", "/api/pack/build", ct, body) })
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, cut(rec.Body.Bytes()))
	}
	t.Logf("body %d bytes, reply %d bytes, allocated %d bytes", len(body), rec.Body.Len(), n)
	// Measured: 8 times the body, mostly decoding the parts' long file names.
	if n > allocBound(10*uint64(len(body))) {
		t.Errorf("a %d-byte body allocated %d bytes", len(body), n)
	}
	out, err := pack.Open(rec.Body.Bytes(), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Archive.Files) != members {
		t.Fatalf("%d members saved, want %d", len(out.Archive.Files), members)
	}
	// Each member holds the bytes of the last part naming it; the others are unchanged.
	want := map[string][]byte{}
	for i := range parts {
		want[p.Archive.Files[(i*7)%members].Name] = []byte{'n', byte(i)}
	}
	for i, f := range out.Archive.Files {
		w, ok := want[f.Name]
		if !ok {
			w = []byte{byte(p.Archive.Index(f.Name))}
		}
		if !bytes.Equal(f.Data, w) {
			t.Fatalf("member %d (%q) holds %q, want %q", i, f.Name[len(f.Name)-6:], f.Data, w)
		}
	}
}

// rawPart is one part of a hand-made multipart body.
func rawPart(mw *multipart.Writer, field, filename string, data []byte) {
	h := textproto.MIMEHeader{}
	cd := fmt.Sprintf("form-data; name=%q", field)
	if filename != "" {
		cd += fmt.Sprintf("; filename=%q", filename)
	}
	h.Set("Content-Disposition", cd)
	w, _ := mw.CreatePart(h)
	w.Write(data)
}

// Every multipart route reads through readForm: the body, each part, each field's total and
// the number of parts are bounded, with a clear answer for each.
func TestMultipartBounds(t *testing.T) {
	small := newTestServer(t, func(c *Config) { c.MaxUpload = 1000; noRateLimits(c) })
	sarcIn := corpusAt(t, "sarc/ActorObserverByActorTagTag.sarc")
	big := newTestServer(t, noRateLimits)

	// Members together past MaxUpload, each within it.
	ct, body := packForm(t, packPart{"file", "x.sarc", []byte("SARC")}, packPart{"member", "a", make([]byte, 600)}, packPart{"member", "b", make([]byte, 600)})
	if e := wantError(t, do(small, "POST", "/api/pack/build", ct, body), http.StatusRequestEntityTooLarge); e.Error != "request body too large: the limit is 1000 bytes" || e.Detail["limit"] != float64(1000) {
		t.Errorf("members past the total: %+v", e)
	}
	// One field twice, on each multipart route.
	for _, path := range []string{"/api/parse", "/api/pack", "/api/tree"} {
		ct, body = packForm(t, packPart{"file", "a", sarcIn}, packPart{"file", "b", sarcIn})
		if e := wantError(t, do(big, "POST", path, ct, body), http.StatusBadRequest); e.Error != `the multipart field "file" comes twice` {
			t.Errorf("%s, file twice: %q", path, e.Error)
		}
	}
	// A part past its field's cap, on each route.
	for _, path := range []string{"/api/parse", "/api/pack", "/api/tree"} {
		ct, body = packForm(t, packPart{"zsdic", "z", make([]byte, 10)}, packPart{"file", "a", make([]byte, 1001)})
		if e := wantError(t, do(small, "POST", path, ct, body), http.StatusRequestEntityTooLarge); e.Detail["limit"] != float64(1000) {
			t.Errorf("%s, file past its cap: %+v", path, e)
		}
	}
	// More parts than maxParts, all of a field nobody reads: refused at the first one past
	// the count, having allocated a small multiple of the body.
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for range maxParts + 1 {
		rawPart(mw, "x", "", nil)
	}
	mw.Close()
	var rec *httptest.ResponseRecorder
	n := testalloc.Bytes(func() { rec = do(big, "POST", "/api/pack", mw.FormDataContentType(), buf.Bytes()) })
	e := wantError(t, rec, http.StatusRequestEntityTooLarge)
	if e.Error != fmt.Sprintf("the multipart body has more than %d parts", maxParts) {
		t.Errorf("too many parts: %q", e.Error)
	}
	t.Logf("%d parts: body %d bytes, allocated %d bytes", maxParts+1, buf.Len(), n)
	if n > allocBound(16*uint64(buf.Len())) {
		t.Errorf("a %d-byte body of parts allocated %d bytes", buf.Len(), n)
	}
}

// A conversion slot is given back once the reply is built: a client reading a big pack
// listing slowly holds no slot while it drains, so with a single slot another parse is
// served meanwhile. (Before, /api/pack wrote its reply holding its slot, and four slow
// readers held every slot for two minutes.)
func TestSlotReleasedWhileReplyDrains(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.MaxConversions = 1; noRateLimits(c) })
	hs := httptest.NewServer(s)
	defer hs.Close()
	// A listing of 12 MiB, more than the socket buffers hold while the client reads none.
	r := rand.New(rand.NewPCG(5, 6))
	member := make([]byte, 9<<20)
	for i := range member {
		member[i] = byte(r.Uint32())
	}
	a := &sarc.Archive{Files: []sarc.File{{Name: "big.bin", Data: member}}}
	in, err := a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	ct, body := packForm(t, packPart{"file", "big.sarc", in})
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	defer client.CloseIdleConnections()
	// Guards the test against hanging should a slot be held again; no time is asserted.
	ctx, cancel := context.WithTimeout(context.Background(), 60e9)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", hs.URL+"/api/pack", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	slow, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Body.Close()
	if slow.StatusCode != http.StatusOK || slow.ContentLength < 12<<20 {
		t.Fatalf("listing: status %d, %d bytes", slow.StatusCode, slow.ContentLength)
	}
	var first [1]byte
	if _, err := io.ReadFull(slow.Body, first[:]); err != nil {
		t.Fatal(err)
	}
	if held := len(s.conversions); held != 0 {
		t.Fatalf("%d conversion slots held while the reply drains", held)
	}
	ct2, body2 := multipartBody(t, "file", "mid.ainb", corpusFile(t, midFile))
	req2, _ := http.NewRequestWithContext(ctx, "POST", hs.URL+"/api/parse", bytes.NewReader(body2))
	req2.Header.Set("Content-Type", ct2)
	resp, err := client.Do(req2)
	if err != nil {
		t.Fatalf("a parse while the listing drains: %v", err)
	}
	reply, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.HasPrefix(reply, []byte(`{"format":"ainb-editor-document/`)) {
		t.Errorf("a parse while the listing drains: %d %s", resp.StatusCode, cut(reply))
	}
	// The slow reader still gets its whole listing.
	rest, err := io.ReadAll(slow.Body)
	if err != nil || int64(len(rest)+1) != slow.ContentLength {
		t.Errorf("listing: read %d of %d bytes: %v", len(rest)+1, slow.ContentLength, err)
	}
}

// fromYAML sends a YAML text to /api/tree/from-yaml, measuring what the request allocates.
func fromYAML(t *testing.T, s *Server, kind string, text []byte) (*httptest.ResponseRecorder, uint64) {
	t.Helper()
	var rec *httptest.ResponseRecorder
	n := testalloc.Bytes(func() { rec = do(s, "POST", "/api/tree/from-yaml?kind="+kind, "application/yaml", text) })
	t.Logf("%s: text %d bytes, status %d, reply %d bytes, allocated %d bytes", kind, len(text), rec.Code, rec.Body.Len(), n)
	return rec, n
}

// A flow sequence of zeros and a text of aliases, 2 and 3 bytes a node, are refused from
// their characters before yaml.v3 parses them (at 64 and 6 MiB they exhausted memory).
func TestTreeFromYAMLNodeBudget(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	zeros := append([]byte("["), bytes.Repeat([]byte("0,"), 4<<20)...)
	zeros = append(zeros, "0]"...)
	aliases := []byte("a: &a [0]\nb: [")
	aliases = append(aliases, bytes.Repeat([]byte("*a,"), 2<<20)...)
	aliases = append(aliases, "*a]\n"...)
	for _, c := range []struct {
		name, kind string
		text       []byte
		estimate   int
	}{
		{"zeros", "byml", zeros, 2*(4<<20) + 6},
		{"zeros", "aamp", zeros, 2*(4<<20) + 6},
		{"aliases", "byml", aliases, 3*(2<<20) + 14},
	} {
		rec, n := fromYAML(t, s, c.kind, c.text)
		e := wantError(t, rec, http.StatusUnprocessableEntity)
		want := fmt.Sprintf("the YAML is not valid: the text holds about %d nodes, more than the %d allowed", c.estimate, 1<<20)
		if e.Error != want || rec.Body.Len() > 200 {
			t.Errorf("%s %s: %q (%d bytes), want %q", c.name, c.kind, e.Error, rec.Body.Len(), want)
		}
		// Reading the body is the cost: the text, and its buffer's growth.
		if n > allocBound(3*uint64(len(c.text))) {
			t.Errorf("%s %s: a %d-byte text allocated %d bytes", c.name, c.kind, len(c.text), n)
		}
	}
}

// Nested aliases, a billion nodes written out: BYML shares what they refer to, so the
// document reads and its JSON form, which sends a shared node once, stays small; AAMP
// would copy them and refuses the text, saying where.
func TestTreeFromYAMLAliases(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	var b bytes.Buffer
	b.WriteString("l0: &l0 [0]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d,", i-1), 10), ","))
	}
	rec, n := fromYAML(t, s, "byml", b.Bytes())
	if rec.Code != http.StatusOK || rec.Body.Len() > 64*b.Len() || n > allocBound(1<<20) {
		t.Errorf("byml: status %d, %d-byte reply, %d bytes allocated for a %d-byte text: %s", rec.Code, rec.Body.Len(), n, b.Len(), cut(rec.Body.Bytes()))
	}
	rec, _ = fromYAML(t, s, "aamp", b.Bytes())
	e := wantError(t, rec, http.StatusUnprocessableEntity)
	if e.Error != "the YAML is not valid: line 8 column 5: with its aliases expanded the document holds more than 4194304 nodes" || e.Detail["line"] != float64(8) {
		t.Errorf("aamp: %+v", e)
	}
}

// /api/expression takes a text of at most maxExpressionText bytes and a body to match: a
// 60 MB text exhausted memory; a body past the cap is refused on its length, a text past
// its cap once decoded, and an assignment of too many operations by the compiler, each
// within a small multiple of the body.
func TestExpressionBounds(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	body := func(text string) []byte {
		b, _ := json.Marshal(map[string]any{"version": 3, "text": text, "to": "listing"})
		return b
	}
	send := func(b []byte) (*httptest.ResponseRecorder, uint64) {
		var rec *httptest.ResponseRecorder
		n := testalloc.Bytes(func() { rec = do(s, "POST", "/api/expression", "application/json", b) })
		t.Logf("body %d bytes: status %d, reply %d bytes, allocated %d bytes", len(b), rec.Code, rec.Body.Len(), n)
		return rec, n
	}
	rec, n := send(body(strings.Repeat("\n", 60<<20)))
	if e := wantError(t, rec, http.StatusRequestEntityTooLarge); e.Detail["limit"] != float64(maxExpressionBody) || n > allocBound(1<<20) {
		t.Errorf("60 MB text: %+v, allocated %d", e, n)
	}
	// Escaped, the text fits the body but not its own cap.
	b := body(strings.Repeat("\x01", maxExpressionText+1))
	rec, n = send(b)
	e := wantError(t, rec, http.StatusRequestEntityTooLarge)
	if e.Error != fmt.Sprintf("the text is %d bytes, more than the %d a function's text may hold here", maxExpressionText+1, maxExpressionText) || n > allocBound(8*uint64(len(b))) {
		t.Errorf("text past its cap: %+v, allocated %d", e, n)
	}
	// The costliest text within the cap, a chain of additions, converts within a fixed
	// budget: 8,000 instructions, listed in 18 times the text.
	text := "LMem32[0x0] = " + strings.Repeat("1+", maxExpressionText/2-16) + "1"
	rec, n = send(body(text))
	var got struct{ Text string }
	if err := json.Unmarshal(rec.Body.Bytes(), &got); rec.Code != http.StatusOK || err != nil || strings.Count(got.Text, "ADD int LMem32[0x0], int 1") != maxExpressionText/2-16 {
		t.Errorf("long chain: status %d: %s", rec.Code, cut(rec.Body.Bytes()))
	}
	if n > allocBound(40<<20) {
		t.Errorf("converting a %d-byte text allocated %d bytes", len(text), n)
	}
}

// A save whose client has gone stops: nothing is compressed or answered and no slot is
// kept. The pack is the costliest Yaz0 input known (random two letters, which without the
// encoder's budget cost 90 s of CPU at 64 MiB).
func TestPackBuildClientGone(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	r := rand.New(rand.NewPCG(7, 8))
	member := make([]byte, 2<<20)
	for i := range member {
		member[i] = "ab"[r.IntN(2)]
	}
	a := &sarc.Archive{Files: []sarc.File{{Name: "m.bin", Data: member}}}
	raw, err := a.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	in, err := yaz0.Compress(raw, 0x80)
	if err != nil {
		t.Fatal(err)
	}
	ct, body := packForm(t, packPart{"file", "m.szs", in}, packPart{"member", "m.bin", member[:1<<20]})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptestRequest("POST", "/api/pack/build", ct, body).WithContext(ctx)
	var rec *httptest.ResponseRecorder
	n := testalloc.Bytes(func() { rec = serve(s, req) })
	if rec.Body.Len() != 0 || len(s.conversions) != 0 {
		t.Errorf("client gone: answered %d bytes, %d slots held", rec.Body.Len(), len(s.conversions))
	}
	if n > allocBound(3*uint64(len(body))) {
		t.Errorf("client gone: a %d-byte body allocated %d bytes", len(body), n)
	}
	// Served, the same request saves a pack that opens to the replaced member.
	rec = do(s, "POST", "/api/pack/build", ct, body)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, cut(rec.Body.Bytes()))
	}
	p, err := pack.Open(rec.Body.Bytes(), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := p.Archive.Lookup("m.bin"); !bytes.Equal(got, member[:1<<20]) || p.Wrapping.Kind != "yaz0" {
		t.Errorf("saved pack: %s, member of %d bytes", p.Wrapping.Kind, len(got))
	}
}
