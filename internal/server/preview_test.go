package server

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"ainbeditor/internal/graph"
	"ainbeditor/internal/share"
	"ainbeditor/internal/testalloc"
)

// shareBody is the body of POST /api/shares for doc and a view.
func shareBody(t testing.TB, doc *graph.Document, view string) []byte {
	t.Helper()
	return []byte(`{"document":` + string(doc.AppendJSON(nil)) + `,"view":` + view + `}`)
}

// smallDoc is a document of two nodes named name, the root of command "Root" with a child.
func smallDoc(name string) *graph.Document {
	return &graph.Document{
		Format: graph.Format, Name: name, Version: 0x407, Category: "AI",
		Commands: []graph.Command{{Name: "Root", Root: 0, Secondary: -1}},
		Nodes: []graph.Node{
			{ID: 0, Type: "Sequential", Children: []graph.Child{{Node: 1, Name: "first"}}},
			{ID: 1, Type: "UserDefined", Name: "Wait", X: 340},
		},
	}
}

// drawn asks for share id's picture, so its description is made before a test opens the
// page: the page waits for it only pageMetaWait, which a slow run (-race) may pass.
func drawn(t *testing.T, s http.Handler, id string) {
	t.Helper()
	if rec := do(s, "GET", "/s/"+id+"/preview.png", "", nil); rec.Code != 200 {
		t.Fatalf("picture of %s: %d %s", id, rec.Code, cut(rec.Body.Bytes()))
	}
}

// metaOf returns the content of the meta tag with attribute attr (property or name) key,
// as the page writes it (escaped), failing when it is not there exactly once.
func metaOf(t *testing.T, page, attr, key string) string {
	t.Helper()
	open := `<meta ` + attr + `="` + key + `" content="`
	if n := strings.Count(page, open); n != 1 {
		t.Fatalf("%d %s tags in %s", n, key, cut([]byte(page)))
	}
	rest := page[strings.Index(page, open)+len(open):]
	return rest[:strings.IndexByte(rest, '"')]
}

// TestSharePageMeta: /s/{id} carries the OpenGraph and Twitter tags and a title saying the
// same; the values are escaped so that names holding quotes, brackets, ampersands and line
// breaks stay inside their attributes, and long names are cut.
func TestSharePageMeta(t *testing.T) {
	s := newTestServer(t, func(c *Config) { noRateLimits(c); c.AllowedHosts = []string{"ainb.test"} })
	name := "Evil\" onload=\"alert(1)\" <b>&amp;</b>\n'x'.ainb"
	doc := smallDoc(name)
	doc.Nodes[1].Name = "Wait</title><script>x</script>"
	id := createShare(t, s, shareBody(t, doc, `{"command":0,"x":100,"y":40,"zoom":1,"selection":[1]}`))
	drawn(t, s, id)
	req := httptestRequest("GET", "/s/"+id, "", nil)
	req.Host = "ainb.test:8080"
	rec := serve(s, req)
	if rec.Code != 200 {
		t.Fatalf("page: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}
	page := rec.Body.String()
	// The name with its line break made a space; the node's class cut at 80 characters.
	title := `Evil&#34; onload=&#34;alert(1)&#34; &lt;b&gt;&amp;amp;&lt;/b&gt; &#39;x&#39;.ainb — node #1 Wait&lt;/title&gt;&lt;script&gt;x&lt;/script&gt;`
	desc := `2 nodes, 1 command · category AI · version 0x407 (Tears of the Kingdom, Super Mario Bros. Wonder)`
	image := "http://ainb.test:8080/s/" + id + "/preview.png"
	for _, c := range []struct{ attr, key, want string }{
		{"property", "og:title", title},
		{"name", "twitter:title", title},
		{"property", "og:description", desc},
		{"name", "twitter:description", desc},
		{"name", "description", desc},
		{"property", "og:image", image},
		{"name", "twitter:image", image},
		{"property", "og:url", "http://ainb.test:8080/s/" + id},
		{"property", "og:type", "website"},
		{"name", "twitter:card", "summary_large_image"},
		{"property", "og:image:width", "1200"},
		{"property", "og:image:height", "630"},
	} {
		if got := metaOf(t, page, c.attr, c.key); got != c.want {
			t.Errorf("%s: %q, want %q", c.key, got, c.want)
		}
	}
	if !strings.Contains(page, "<title>"+title+" · AINB editor</title>") {
		t.Errorf("no title saying the same in %s", cut([]byte(page)))
	}
	// Nothing of the names became markup: the only tags are the page's own.
	for _, bad := range []string{"<b>", "<script>x", `" onload=`, "</title><script"} {
		if strings.Contains(page, bad) {
			t.Errorf("page holds %q", bad)
		}
	}
	if n := strings.Count(page, "<meta "); n != 17 {
		t.Errorf("%d meta tags, want 17", n)
	}

	// A long name is cut to 80 characters; with a public origin the image is named by it.
	s = newTestServer(t, func(c *Config) { noRateLimits(c); c.PublicOrigin = "https://ainb.example.org/" })
	id = createShare(t, s, shareBody(t, smallDoc(strings.Repeat("n", 5000)+".ainb"), `{}`))
	drawn(t, s, id)
	page = do(s, "GET", "/s/"+id, "", nil).Body.String()
	if got, want := metaOf(t, page, "property", "og:title"), strings.Repeat("n", 80)+"…"; got != want {
		t.Errorf("long name: og:title %q, want %q", got, want)
	}
	if got, want := metaOf(t, page, "property", "og:image"), "https://ainb.example.org/s/"+id+"/preview.png"; got != want {
		t.Errorf("og:image %q, want %q", got, want)
	}
	// Without a view the title names the file alone.
	if !strings.Contains(page, "<title>"+strings.Repeat("n", 80)+"… · AINB editor</title>") {
		t.Errorf("title of the long name: %s", cut([]byte(page)))
	}
}

// TestSharePageUnreadableShare: a share the server cannot read (written to the store by
// other means) still opens, with a generic description, and its picture says so.
func TestSharePageUnreadableShare(t *testing.T) {
	dir, err := share.OpenDir(t.TempDir(), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	s := newServerWithStore(t, DefaultConfig(), dir)
	id, err := dir.Put(context.Background(), []byte(`{"document":{"format":"nonsense"},"view":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	drawn(t, s, id)
	page := do(s, "GET", "/s/"+id, "", nil).Body.String()
	if got := metaOf(t, page, "property", "og:title"); got != "Shared graph" {
		t.Errorf("og:title %q", got)
	}
	rec := do(s, "GET", "/s/"+id+"/preview.png", "", nil)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/png" {
		t.Fatalf("picture: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
}

// TestPreviewImage: the picture is a 1200x630 PNG, cacheable for good under an ETag that
// answers 304 without the store being asked; unknown shares are 404s.
func TestPreviewImage(t *testing.T) {
	s, store, _ := countingServer(t, noRateLimits)
	id := createShare(t, s, shareBody(t, smallDoc("Enemy.root.ainb"), `{"command":0}`))
	rec := do(s, "GET", "/s/"+id+"/preview.png", "", nil)
	if rec.Code != 200 {
		t.Fatalf("picture: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}
	h := rec.Header()
	for k, want := range map[string]string{
		"Content-Type":                 "image/png",
		"ETag":                         `"p1-` + id + `"`,
		"Cache-Control":                "public, max-age=31536000, immutable",
		"Cross-Origin-Resource-Policy": "cross-origin",
		"Content-Length":               itoa(rec.Body.Len()),
	} {
		if got := h.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	img, err := png.Decode(bytes.NewReader(rec.Body.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 630 {
		t.Fatalf("picture of %v", b)
	}
	first := rec.Body.Bytes()
	// Drawn once: a second request, and the page, read nothing more from the store.
	gets := store.gets.Load()
	again := do(s, "GET", "/s/"+id+"/preview.png", "", nil)
	do(s, "GET", "/s/"+id, "", nil)
	if !bytes.Equal(again.Body.Bytes(), first) || store.gets.Load() != gets {
		t.Errorf("second request: %d bytes, %d more reads", again.Body.Len(), store.gets.Load()-gets)
	}
	// A client holding it gets a 304 without the store being asked.
	stats := store.stats.Load()
	req := httptestRequest("GET", "/s/"+id+"/preview.png", "", nil)
	req.Header.Set("If-None-Match", `W/"other", "p1-`+id+`"`)
	rec = serve(s, req)
	if rec.Code != http.StatusNotModified || rec.Body.Len() != 0 || rec.Header().Get("ETag") != `"p1-`+id+`"` ||
		rec.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Errorf("If-None-Match: %d, %d bytes, %v", rec.Code, rec.Body.Len(), rec.Header())
	}
	if store.stats.Load() != stats {
		t.Errorf("a 304 asked the store")
	}
	if rec := do(s, "HEAD", "/s/"+id+"/preview.png", "", nil); rec.Code != 200 || rec.Body.Len() != 0 {
		t.Errorf("HEAD: %d, %d bytes", rec.Code, rec.Body.Len())
	}
	wantError(t, do(s, "GET", "/s/"+share.NewID()+"/preview.png", "", nil), 404)
	wantError(t, do(s, "GET", "/s/not-an-id/preview.png", "", nil), 404)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestPreviewCacheBound: the cache keeps previews up to its byte cap, the least recently
// used going first.
func TestPreviewCacheBound(t *testing.T) {
	c := newPreviewCache(3000)
	mk := func(n int) *sharePreview { return &sharePreview{png: make([]byte, n)} }
	c.put("a", mk(1000))
	c.put("b", mk(1000))
	c.get("a")
	c.put("c", mk(1000)) // 3,768 bytes with overheads: b, used least recently, goes
	if c.get("a") == nil || c.get("b") != nil || c.get("c") == nil {
		t.Errorf("kept a %v, b %v, c %v", c.get("a") != nil, c.get("b") != nil, c.get("c") != nil)
	}
	c.put("huge", mk(5000))
	if c.get("huge") != nil || c.bytes() > 3000 {
		t.Errorf("a preview over the cap was kept (%d bytes held)", c.bytes())
	}
}

// TestPreviewLargestAlloc: the picture of the corpus's largest file (7,130 nodes) is made
// within a bounded allocation, and served from the cache afterwards at almost none.
func TestPreviewLargestAlloc(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	doc := parseOK(t, s, "nodedefs_ai_v407.ainb", corpusFile(t, "real/nodedefs_ai_v407.ainb"))
	body := []byte(`{"document":` + string(doc) + `,"view":{"command":0}}`)
	id := createShare(t, s, body)
	var rec *httptest.ResponseRecorder
	n := testalloc.Bytes(func() { rec = do(s, "GET", "/s/"+id+"/preview.png", "", nil) })
	if rec.Code != 200 {
		t.Fatalf("picture: %d", rec.Code)
	}
	// The share read (2.9 MB), the document decoded from it, the picture and its PNG.
	if limit := uint64(previewHeldFactor*len(body)) + 8<<20; n > limit {
		t.Errorf("the first picture allocated %d bytes, over %d", n, limit)
	}
	if n := testalloc.Bytes(func() { rec = do(s, "GET", "/s/"+id+"/preview.png", "", nil) }); n > 256<<10 {
		t.Errorf("a cached picture allocated %d bytes", n)
	}
	t.Logf("share %d bytes, PNG %d bytes, first picture allocated %d bytes", len(body), rec.Body.Len(), n)
}

// TestPreviewHostileShare: a share built to make the picture slow or large (100,000 nodes
// on top of one another, all children of the first, under a file name of 10,000 characters, a view at absurd coordinates and
// zoom) draws within a bounded allocation.
func TestPreviewHostileShare(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	long := strings.Repeat("<\"&>\n", 2000)
	doc := &graph.Document{Format: graph.Format, Name: long, Version: 0x407,
		Commands: []graph.Command{{Name: long, Root: 0, Secondary: -1}}}
	doc.Nodes = make([]graph.Node, 100000)
	kids := make([]graph.Child, 0, len(doc.Nodes))
	for i := range doc.Nodes {
		doc.Nodes[i] = graph.Node{ID: i, Type: "UserDefined", Name: long[:60], X: float64(i % 3), Y: float64(i % 2)}
		kids = append(kids, graph.Child{Node: i})
	}
	doc.Nodes[0].Children = kids
	body := shareBody(t, doc, `{"x":1e308,"y":-1e308,"zoom":1e300,"command":0,"selection":[0,1,2]}`)
	id := createShare(t, s, body)
	var rec *httptest.ResponseRecorder
	start := time.Now()
	n := testalloc.Bytes(func() { rec = do(s, "GET", "/s/"+id+"/preview.png", "", nil) })
	took := time.Since(start)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/png" {
		t.Fatalf("picture: %d %s", rec.Code, cut(rec.Body.Bytes()))
	}
	if limit := uint64(previewHeldFactor*len(body)) + 32<<20; n > limit {
		t.Errorf("a hostile share of %d bytes: the picture allocated %d bytes, over %d", len(body), n, limit)
	}
	if rec.Body.Len() > 1<<20 {
		t.Errorf("a picture of %d bytes", rec.Body.Len())
	}
	page := do(s, "GET", "/s/"+id, "", nil).Body.String()
	// The name cut at 80 characters (line breaks made spaces), then the selection.
	q := `&lt;&#34;&amp;&gt;`
	want := strings.Repeat(q+" ", 15) + q + "… — node #0 " + strings.Repeat(q+" ", 11) + q + " and 2 others"
	if got := metaOf(t, page, "property", "og:title"); got != want {
		t.Errorf("og:title %q, want %q", got, want)
	}
	t.Logf("share %d bytes, PNG %d bytes, allocated %d bytes in %v", len(body), rec.Body.Len(), n, took)
}

// TestPreviewConcurrentOnce: requests arriving together for a picture not yet drawn wait
// for one drawing, from one read of the share.
func TestPreviewConcurrentOnce(t *testing.T) {
	s, store, _ := countingServer(t, noRateLimits)
	id := createShare(t, s, shareBody(t, smallDoc("Enemy.root.ainb"), `{"command":0}`))
	const n = 8
	bodies := make([][]byte, n)
	codes := make([]int, n)
	var wg sync.WaitGroup
	for k := range n {
		wg.Go(func() {
			rec := do(s, "GET", "/s/"+id+"/preview.png", "", nil)
			codes[k], bodies[k] = rec.Code, rec.Body.Bytes()
		})
	}
	wg.Wait()
	for k := range n {
		if codes[k] != 200 || !bytes.Equal(bodies[k], bodies[0]) {
			t.Errorf("request %d: %d, %d bytes", k, codes[k], len(bodies[k]))
		}
	}
	if g := store.gets.Load(); g != 1 {
		t.Errorf("%d reads of the share for %d requests, want 1", g, n)
	}
	m := do(s, "GET", "/metrics", "", nil).Body.String()
	held := s.previews.bytes()
	for _, want := range []string{"\nainb_previews_drawn_total 1\n", "\nainb_preview_cache_bytes " + itoa(int(held)) + "\n"} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if held < int64(len(bodies[0])) {
		t.Errorf("the cache holds %d bytes, less than the picture's %d", held, len(bodies[0]))
	}
}

// TestPreviewBusy: while the body budget is full, a picture not yet drawn is a 503 with
// Retry-After, and the share page still opens, with the generic description.
func TestPreviewBusy(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	id := createShare(t, s, shareBody(t, smallDoc("Enemy.root.ainb"), `{"command":0}`))
	s.budget.wait = 10 * time.Millisecond
	release, err := s.budget.reserve(context.Background(), s.budget.size)
	if err != nil {
		t.Fatal(err)
	}
	rec := do(s, "GET", "/s/"+id+"/preview.png", "", nil)
	wantError(t, rec, http.StatusServiceUnavailable)
	if got := rec.Header().Get("Retry-After"); got != "1" {
		t.Errorf("Retry-After %q", got)
	}
	page := do(s, "GET", "/s/"+id, "", nil)
	if page.Code != 200 || metaOf(t, page.Body.String(), "property", "og:title") != "Shared graph" {
		t.Errorf("page while busy: %d, %s", page.Code, cut(page.Body.Bytes()))
	}
	release()
	// Nothing was kept of the refusal: with room again, the picture is drawn.
	if rec := do(s, "GET", "/s/"+id+"/preview.png", "", nil); rec.Code != 200 {
		t.Errorf("after the budget freed: %d", rec.Code)
	}
	if got := metaOf(t, do(s, "GET", "/s/"+id, "", nil).Body.String(), "property", "og:title"); got != "Enemy.root.ainb — command Root" {
		t.Errorf("og:title %q", got)
	}
}

// TestTreeSharePreview: a shared BYML tree is described by its name and kind.
func TestTreeSharePreview(t *testing.T) {
	s := newTestServer(t, noRateLimits)
	doc := `{"format":"` + TreeFormat + `","name":"Actor<1>.bgyml","kind":"byml","document":{"version":2,"bigEndian":false,"root":{"type":"hash","value":[["a",{"type":"int","value":5}]]}}}`
	id := createShare(t, s, []byte(`{"document":`+doc+`,"view":{}}`))
	drawn(t, s, id)
	page := do(s, "GET", "/s/"+id, "", nil).Body.String()
	if got := metaOf(t, page, "property", "og:title"); got != "Actor&lt;1&gt;.bgyml" {
		t.Errorf("og:title %q", got)
	}
	if got := metaOf(t, page, "property", "og:description"); got != "BYML file in the AINB editor&#39;s tree view" {
		t.Errorf("og:description %q", got)
	}
	rec := do(s, "GET", "/s/"+id+"/preview.png", "", nil)
	if _, err := png.Decode(bytes.NewReader(rec.Body.Bytes())); rec.Code != 200 || err != nil {
		t.Errorf("picture: %d, %v", rec.Code, err)
	}
}

// BenchmarkPreviewLargest makes the preview of a share of the corpus's largest file as the
// server does on a cache miss: read the stored share, decode the document, describe, draw
// and encode.
func BenchmarkPreviewLargest(b *testing.B) {
	s := newTestServer(b, noRateLimits)
	doc := parseOK(b, s, "nodedefs_ai_v407.ainb", corpusFile(b, "real/nodedefs_ai_v407.ainb"))
	data := []byte(`{"document":` + string(doc) + `,"view":{"command":0}}`)
	id := share.NewID()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		if _, err := renderShare(data, id); err != nil {
			b.Fatal(err)
		}
	}
	// CPU time, all threads: on a shared machine ns/op counts the waits too.
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}
