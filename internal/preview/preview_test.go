package preview

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ainbeditor/internal/graph"
	"ainbeditor/internal/testalloc"
	"ainbeditor/internal/testcorpus"
)

// small is a document of three nodes: a Sequential root (id 1) with two children, one of
// them a UserDefined class reading a blackboard parameter.
func small() *graph.Document {
	bb := 0
	return &graph.Document{
		Format: graph.Format, Name: "Enemy.root.ainb", Version: 0x407, Category: "AI",
		Commands:   []graph.Command{{Name: "Root", Root: 1, Secondary: -1}, {Name: "Attack", Root: 7, Secondary: -1}},
		Blackboard: []graph.BlackboardParam{{Name: "Target", Type: "int"}},
		Nodes: []graph.Node{
			{ID: 1, Type: "Sequential", X: 0, Y: 0, Children: []graph.Child{{Node: 7, Name: "first"}, {Node: 9, Name: "second"}}},
			{ID: 7, Type: "UserDefined", Name: "ChaseTarget", X: 340, Y: 0,
				Properties: []graph.Property{{Name: "Speed", Type: "float", Value: graph.Value{Float: 1.5}}},
				Inputs:     []graph.Input{{Name: "Who", Type: "int", Source: &graph.Source{Blackboard: &bb}}}},
			{ID: 9, Type: "Sequential", X: 340, Y: 200},
		},
	}
}

func TestDescribe(t *testing.T) {
	doc := small()
	for _, c := range []struct {
		view  View
		title string
	}{
		{View{Command: -1}, "Enemy.root.ainb"},
		{View{Command: 1}, "Enemy.root.ainb — command Attack"},
		{View{Command: 5}, "Enemy.root.ainb"},
		{View{Command: 1, Selection: []int{9}}, "Enemy.root.ainb — node #9 Sequential"},
		{View{Command: -1, Selection: []int{3, 7, 9}}, "Enemy.root.ainb — node #7 ChaseTarget and 1 other"},
	} {
		s := Describe(doc, c.view)
		if s.Title != c.title {
			t.Errorf("view %+v: title %q, want %q", c.view, s.Title, c.title)
		}
		const desc = "3 nodes, 2 commands, 1 blackboard parameter · category AI · version 0x407 (Tears of the Kingdom, Super Mario Bros. Wonder)"
		if s.Description != desc {
			t.Errorf("description %q, want %q", s.Description, desc)
		}
	}
	doc.Name, doc.Filename = "", "Self"
	doc.Nodes = append(doc.Nodes, make([]graph.Node, 7127)...)
	doc.Version, doc.Category = 0x404, ""
	doc.Modules = []graph.Module{{Path: "A"}, {Path: "B"}}
	s := Describe(doc, View{Command: -1})
	if s.Title != "Self" || s.Description != "7,130 nodes, 2 commands, 1 blackboard parameter, 2 modules · version 0x404 (Splatoon 3, Switch Sports)" {
		t.Errorf("got %q / %q", s.Title, s.Description)
	}
	if s := DescribeTree("Actor.bgyml", "byml"); s.Title != "Actor.bgyml" || s.Description != "BYML file in the AINB editor's tree view" {
		t.Errorf("tree: %+v", s)
	}
}

func TestClean(t *testing.T) {
	for _, c := range []struct {
		in    string
		limit int
		want  string
	}{
		{"  a\nb\t\t\"c\" <d> & e  ", 80, `a b "c" <d> & e`},
		{"x\u202Ey\u200Bz\r\n", 80, "x y z"},
		{strings.Repeat("é", 100), 10, strings.Repeat("é", 10) + "…"},
		{strings.Repeat("ab ", 10), 10, "ab ab ab a…"},
		{strings.Repeat("ab ", 10), 9, "ab ab ab…"},
		{"", 10, ""},
		{"\n\n", 10, ""},
		{"\xff\xfeok", 10, "\uFFFD\uFFFDok"},
	} {
		if got := Clean(c.in, c.limit); got != c.want {
			t.Errorf("Clean(%q, %d) = %q, want %q", c.in, c.limit, got, c.want)
		}
	}
}

func TestParseView(t *testing.T) {
	for in, want := range map[string]View{
		`{"command":1,"x":10.5,"y":-3,"zoom":0.25,"selection":[9,3,3,"a",-1,1.5]}`: {Command: 1, X: 10.5, Y: -3, Zoom: 0.25, HasCentre: true, Selection: []int{3, 9}},
		`{"x":1e308,"y":-1e300,"zoom":1e300}`:                                      {Command: -1, X: graph.MaxCoord, Y: -graph.MaxCoord, Zoom: maxZoom, HasCentre: true},
		`{"x":1,"y":"2","zoom":1,"command":"0"}`:                                   {Command: -1},
		`{"x":1,"y":2,"zoom":-1,"command":2.5}`:                                    {Command: -1},
		`[1,2]`:                                                                    {Command: -1},
		``:                                                                         {Command: -1},
		`{"x":1,"y":2,"zoom":1e-9}`:                                                {Command: -1, X: 1, Y: 2, Zoom: minZoom, HasCentre: true},
	} {
		got := ParseView([]byte(in))
		if got.Command != want.Command || got.X != want.X || got.Y != want.Y || got.Zoom != want.Zoom || got.HasCentre != want.HasCentre ||
			len(got.Selection) != len(want.Selection) || (len(want.Selection) > 0 && !equalInts(got.Selection, want.Selection)) {
			t.Errorf("ParseView(%s) = %+v, want %+v", in, got, want)
		}
	}
	var ids strings.Builder
	ids.WriteString(`{"selection":[`)
	for i := range 100000 {
		if i > 0 {
			ids.WriteByte(',')
		}
		ids.WriteString("1")
		_ = i
	}
	ids.WriteString(`]}`)
	if v := ParseView([]byte(ids.String())); len(v.Selection) != 1 {
		t.Errorf("a selection of one id many times: %v", v.Selection)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// rgb is the colour of a pixel, for comparing with the palette.
func rgb(img *image.RGBA, x, y int) color.NRGBA {
	c := img.RGBAAt(x, y)
	return color.NRGBA{c.R, c.G, c.B, 255}
}

// TestRenderShowsView draws the small document centred on node 7 at zoom 1 with node 9
// selected, and reads the pixels where the editor's look puts them.
func TestRenderShowsView(t *testing.T) {
	doc := small()
	v := View{Command: -1, X: 340 + 130, Y: 100, Zoom: 1, HasCentre: true, Selection: []int{9}}
	img := Render(doc, v)
	if b := img.Bounds(); b.Dx() != Width || b.Dy() != Height {
		t.Fatalf("size %v", b)
	}
	f := frame{v.X, v.Y, 1}
	// Node 7's header: UserDefined's colour, inside, clear of the text.
	at := func(wx, wy float64) (int, int) { return int(f.x(wx)), int(f.y(wy)) }
	checks := []struct {
		what string
		x, y int
		want color.NRGBA
	}{
		{"the band's accent stripe", 2, 40, colSelect},
		{"the band's bottom line", 600, band - 1, colLine},
		{"the band", 600, 10, colPanel},
	}
	x, y := at(340+250, 2)
	checks = append(checks, struct {
		what string
		x, y int
		want color.NRGBA
	}{"node 7's header", x, y, hex("#3a4150")})
	x, y = at(340+250, 200+2)
	checks = append(checks, struct {
		what string
		x, y int
		want color.NRGBA
	}{"node 9's header", x, y, hex("#2d4f86")})
	// Node 9 is selected: its border is the selection's colour, 2.5 pixels wide on its edge.
	x, y = at(340, 200+20)
	checks = append(checks, struct {
		what string
		x, y int
		want color.NRGBA
	}{"node 9's left border", x, y, colSelect})
	// Node 7's input plug reads a blackboard parameter: a ring with the body inside.
	x, y = at(340, rowY(&doc.Nodes[1], 1))
	checks = append(checks, struct {
		what string
		x, y int
		want color.NRGBA
	}{"node 7's open input plug", x, y, colBody})
	for _, c := range checks {
		if got := rgb(img, c.x, c.y); got != c.want {
			t.Errorf("%s at (%d, %d): %v, want %v", c.what, c.x, c.y, got, c.want)
		}
	}
	// Node 1 sits left of the view: its header reaches the picture; its child links leave it
	// in the child colour, somewhere along the way to node 7.
	if n := countColour(img, colChild, band, Height); n < 50 {
		t.Errorf("%d pixels of child links, want at least 50", n)
	}
}

func countColour(img *image.RGBA, c color.NRGBA, y0, y1 int) int {
	n := 0
	for y := y0; y < y1; y++ {
		for x := 0; x < Width; x++ {
			if rgb(img, x, y) == c {
				n++
			}
		}
	}
	return n
}

// TestRenderFramesWithoutView: a share without a view shows its first command's root at the
// left; one whose view looks at empty space falls back the same way.
func TestRenderFramesWithoutView(t *testing.T) {
	doc := small()
	for _, v := range []View{{Command: -1}, {Command: -1, X: 1e8, Y: 1e8, Zoom: 1, HasCentre: true}} {
		r := &renderer{doc: doc, index: map[int]int{1: 0, 7: 1, 9: 2}}
		f := r.choose(v)
		if got := f.x(0); got != 48 {
			t.Errorf("view %+v: the root's left edge at x %v, want 48", v, got)
		}
		if f.s != 1 {
			t.Errorf("view %+v: scale %v, want 1", v, f.s)
		}
	}
	// The selection, when the view shows nothing: fitted, at most at scale 1.
	r := &renderer{doc: doc, index: map[int]int{1: 0, 7: 1, 9: 2}}
	if f := r.choose(View{Command: -1, Selection: []int{9}}); f.cx != 340+130 || f.cy != 200+19 || f.s != 1 {
		t.Errorf("selection frame %+v", f)
	}
}

// TestRenderLaysOutStackedNodes: a share whose nodes all sit at one point is laid out as the
// editor would before it is drawn.
func TestRenderLaysOutStackedNodes(t *testing.T) {
	doc := small()
	for i := range doc.Nodes {
		doc.Nodes[i].X, doc.Nodes[i].Y = 5, 5
	}
	Render(doc, View{Command: -1})
	if doc.Nodes[1].X == doc.Nodes[0].X && doc.Nodes[1].Y == doc.Nodes[0].Y {
		t.Fatalf("nodes still stacked: %+v", doc.Nodes[1])
	}
}

// hostile is a document built to make drawing slow or large: n nodes on top of one another
// (not all at one point, which would be laid out instead), names of a hundred thousand
// characters, a node of a hundred thousand rows, and every node a child of the first.
func hostile(n int) *graph.Document {
	long := strings.Repeat("W\u202E\n<\"&>", 100000/8)
	doc := &graph.Document{Format: graph.Format, Name: long, Category: long, Version: 0x407,
		Commands: []graph.Command{{Name: long, Root: 0, Secondary: -1}}}
	doc.Nodes = make([]graph.Node, n)
	for i := range doc.Nodes {
		doc.Nodes[i] = graph.Node{ID: i, Type: "UserDefined", Name: long, X: float64(i % 7), Y: float64(i % 5)}
	}
	kids := make([]graph.Child, n)
	for i := range kids {
		kids[i] = graph.Child{Node: i, Name: long}
	}
	doc.Nodes[0].Children = kids
	props := make([]graph.Property, 100000)
	for i := range props {
		props[i] = graph.Property{Name: long, Type: "string", Value: graph.Value{String: long}}
	}
	doc.Nodes[1].Properties = props
	doc.Nodes[2].X, doc.Nodes[2].Y = graph.MaxCoord, -graph.MaxCoord
	return doc
}

// TestRenderHostile: whatever the share holds, a picture draws at most MaxNodes nodes and
// MaxLinks links, and allocates a bounded amount beyond an index of the nodes.
func TestRenderHostile(t *testing.T) {
	doc := hostile(100000)
	views := []View{
		ParseView([]byte(`{"x":1e308,"y":1e308,"zoom":1e300,"command":0,"selection":[0,1,2]}`)),
		ParseView([]byte(`{"x":3,"y":2,"zoom":1e-300}`)),
		{Command: 0},
	}
	for _, v := range views {
		var r *renderer
		n := testalloc.Bytes(func() {
			r = newRenderer(doc, v)
			r.draw(Describe(doc, v))
		})
		if len(r.vis) > MaxNodes {
			t.Errorf("view %+v: %d nodes drawn", v, len(r.vis))
		}
		if r.linksDrawn > MaxLinks {
			t.Errorf("view %+v: %d links drawn", v, r.linksDrawn)
		}
		// The picture (3 MB), the rasterizer's area (4 MB at most) and the id index and
		// marks of 100,000 nodes (about 4 MB).
		if n > 24<<20 {
			t.Errorf("view %+v: %d bytes allocated", v, n)
		}
	}
}

// TestRenderCorpusLargest draws the corpus's largest file (7,130 nodes) as it opens: its
// command's root at the left. The picture decodes as a 1200x630 PNG.
func TestRenderCorpusLargest(t *testing.T) {
	doc := largest(t)
	var png1 []byte
	n := testalloc.Bytes(func() {
		var err error
		png1, err = EncodePNG(Render(doc, View{Command: 0}))
		if err != nil {
			t.Fatal(err)
		}
	})
	img, err := png.Decode(bytes.NewReader(png1))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != Width || b.Dy() != Height {
		t.Fatalf("size %v", b)
	}
	if n > 24<<20 {
		t.Errorf("%d bytes allocated", n)
	}
	r := newRenderer(doc, View{Command: 0})
	if len(r.vis) < 10 {
		t.Errorf("%d nodes in the picture", len(r.vis))
	}
}

func largest(tb testing.TB) *graph.Document {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(testcorpus.Dir(tb), "ainb", "real", "nodedefs_ai_v407.ainb"))
	if err != nil {
		tb.Fatal(err)
	}
	doc, err := graph.Parse("nodedefs_ai_v407.ainb", data)
	if err != nil {
		tb.Fatal(err)
	}
	return doc
}

// BenchmarkRenderLargest draws and encodes the 7,130-node file's picture.
func BenchmarkRenderLargest(b *testing.B) {
	doc := largest(b)
	b.ReportAllocs()
	var out []byte
	cpu := processCPU()
	for b.Loop() {
		var err error
		if out, err = EncodePNG(Render(doc, View{Command: 0})); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(out)), "png-bytes")
}

// BenchmarkRenderHostile draws the picture of a hostile share of 100,000 nodes.
func BenchmarkRenderHostile(b *testing.B) {
	doc := hostile(100000)
	v := View{Command: 0}
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		if _, err := EncodePNG(Render(doc, v)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
}

// processCPU is the CPU time the process has used, all threads and the collector: on a
// machine shared with other work, ns/op counts the waits too.
func processCPU() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// TestFillAcrossTiles fills shapes that start left of the picture and cross the squares a
// large fill is cut into: every pixel inside is filled, none outside.
func TestFillAcrossTiles(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, Width, Height))
	pt := newPainter(img)
	pt.clear(colBG)
	p := &pt.path
	p.rect(-50, 10, 750, 300) // x -50..700, y 10..310
	p.rect(1000, 400, 20, 20)
	pt.fill(colSelect)
	for _, c := range []struct {
		x, y int
		want color.NRGBA
	}{
		{0, 10, colSelect}, {159, 100, colSelect}, {160, 100, colSelect}, {699, 309, colSelect},
		{700, 100, colBG}, {100, 310, colBG}, {100, 9, colBG}, {1010, 410, colSelect}, {990, 410, colBG},
	} {
		if got := rgb(img, c.x, c.y); got != c.want {
			t.Errorf("(%d, %d): %v, want %v", c.x, c.y, got, c.want)
		}
	}
}
