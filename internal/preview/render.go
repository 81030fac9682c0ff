package preview

import (
	"image"
	"image/color"
	"math"

	"ainbeditor/internal/graph"
)

// The picture: the size link previews ask for (1.91:1), with a band on top naming the file.
const (
	Width  = 1200
	Height = 630
	band   = 84
)

// Bounds on what one picture draws, whatever the share holds. The view at MinScale holds a
// few dozen nodes of a real file; these leave room for dense graphs and cut hostile ones.
const (
	MaxNodes = 600
	MaxLinks = 3000
	// MinScale and MaxScale bound the picture's zoom (image pixels per world unit). Below
	// MinScale titles are too small to read in a chat thumbnail, so a view zoomed further
	// out shows the part around its centre at MinScale.
	MinScale = 0.5
	MaxScale = 1.5
)

// The editor's colours (static/render.js, static/model.js).
var (
	colBG       = hex("#16171b")
	colBody     = hex("#24262c")
	colBorder   = hex("#3a3e48")
	colText     = hex("#dfe2e8")
	colMuted    = hex("#8d93a0")
	colSelect   = hex("#ffb347")
	colPanel    = hex("#1d1f24")
	colLine     = hex("#30343c")
	colGrid     = hex("#1f2126")
	colCond     = hex("#f0c365")
	colWarn     = hex("#f0a030")
	colIDs      = alpha(hex("#ffffff"), 0.45)
	colStripe   = alpha(hex("#ffffff"), 0.025)
	colChild    = hex("#aab2c0")
	colJump     = hex("#ff7ab8")
	colQuery    = hex("#3fc9a8")
	colExpr     = hex("#b794f6")
	colBlackbrd = hex("#f59e5b")
)

// valueTypes in the legend's order, with their colours (model.js TYPE_COLOR).
var valueTypes = []struct {
	name string
	col  color.NRGBA
}{
	{"int", hex("#5aa9ff")}, {"bool", hex("#ef6f7c")}, {"float", hex("#8fd16a")},
	{"string", hex("#f0c365")}, {"vec3f", hex("#c58af9")}, {"pointer", hex("#4fd1c5")},
}

func typeColor(t graph.ValueType) color.NRGBA {
	for _, v := range valueTypes {
		if string(t) == v.name {
			return v.col
		}
	}
	if t == "u32" {
		return hex("#f59e5b")
	}
	return colMuted
}

// headerColor groups nodes by what they do (model.js headerColor).
func headerColor(n *graph.Node) color.NRGBA {
	switch t := string(n.Type); {
	case n.Query:
		return hex("#23614f")
	case n.ModuleCaller:
		return hex("#6b4a1f")
	case isSelectorType(t):
		return hex("#7a4a14")
	case t == "Sequential" || t == "Simultaneous" || t == "Fork" || t == "Join":
		return hex("#2d4f86")
	case t == "Expression":
		return hex("#5b3a8a")
	case len(t) > 9 && t[:9] == "ModuleIF_":
		return hex("#1f5f6b")
	case t == "StateEnd" || t == "SplitTiming" || t == "Alert":
		return hex("#7a2d4b")
	}
	return hex("#3a4150")
}

func isSelectorType(t string) bool {
	switch t {
	case "S32Selector", "F32Selector", "StringSelector", "RandomSelector", "BoolSelector":
		return true
	}
	return false
}

// frame is where the picture looks: the world point at the centre of the graph area and the
// scale, image pixels per world unit.
type frame struct{ cx, cy, s float64 }

func (f frame) x(wx float64) float64 { return (wx-f.cx)*f.s + Width/2 }
func (f frame) y(wy float64) float64 { return (wy-f.cy)*f.s + band + (Height-band)/2 }

// world is the world rectangle the graph area shows.
func (f frame) world() (x0, y0, x1, y1 float64) {
	hw, hh := Width/2/f.s, (Height-band)/2/f.s
	return f.cx - hw, f.cy - hh, f.cx + hw, f.cy + hh
}

// Render draws the picture of doc as view v shows it. A document whose nodes all sit at one
// point (a share made by a script, say) is laid out first, as the editor would; that changes
// doc's positions.
func Render(doc *graph.Document, v View) *image.RGBA {
	r := newRenderer(doc, v)
	r.draw(Describe(doc, v))
	return r.img
}

// newRenderer frames the view and finds what it shows.
func newRenderer(doc *graph.Document, v View) *renderer {
	if needsLayout(doc) {
		graph.Layout(doc)
	}
	r := &renderer{doc: doc, img: image.NewRGBA(image.Rect(0, 0, Width, Height))}
	r.pt = newPainter(r.img)
	r.index = make(map[int]int, len(doc.Nodes))
	for i := range doc.Nodes {
		if _, dup := r.index[doc.Nodes[i].ID]; !dup {
			r.index[doc.Nodes[i].ID] = i
		}
	}
	r.selected = make(map[int]bool, len(v.Selection))
	for _, id := range v.Selection {
		r.selected[id] = true
	}
	r.f = r.choose(v)
	r.visible()
	r.fonts()
	return r
}

// draw paints the picture: the canvas, links, nodes, and the band with sum.
func (r *renderer) draw(sum Summary) {
	r.pt.clear(colBG)
	r.grid()
	r.links()
	r.nodes()
	r.header(sum)
}

// needsLayout reports a document of several nodes that all sit at one point.
func needsLayout(doc *graph.Document) bool {
	if len(doc.Nodes) < 2 {
		return false
	}
	x, y := doc.Nodes[0].X, doc.Nodes[0].Y
	for i := range doc.Nodes {
		if doc.Nodes[i].X != x || doc.Nodes[i].Y != y {
			return false
		}
	}
	return true
}

type renderer struct {
	doc      *graph.Document
	img      *image.RGBA
	pt       *painter
	index    map[int]int // node id -> index
	selected map[int]bool
	f        frame
	vis      []int // the nodes drawn, in document order
	drawn    []bool
	// linksDrawn counts the links drawn, at most MaxLinks, and pieces their straight pieces.
	linksDrawn, pieces int

	title, ids, row *face
}

// choose picks the frame: the shared view's centre at its zoom (within MinScale..MaxScale);
// when the view shows no node, or the share has no view, the selection, else the command in
// view (or the first), else the whole graph, fitted within the same bounds.
func (r *renderer) choose(v View) frame {
	if v.HasCentre {
		f := frame{v.X, v.Y, min(max(v.Zoom, MinScale), MaxScale)}
		if r.anyIn(f) {
			return f
		}
	}
	var ids []int
	for _, id := range v.Selection {
		if _, ok := r.index[id]; ok {
			ids = append(ids, id)
		}
	}
	if len(ids) > 0 {
		return r.fit(ids)
	}
	cmd := v.Command
	if cmd < 0 || cmd >= len(r.doc.Commands) {
		cmd = 0
	}
	if cmd < len(r.doc.Commands) {
		if i, ok := r.index[r.doc.Commands[cmd].Root]; ok {
			// Trees grow to the right of their roots and down: the root at the left of
			// the picture, a fifth of the way down.
			n := &r.doc.Nodes[i]
			s := 1.0
			return frame{n.X - 48/s + Width/2/s, n.Y + 0.3*(Height-band)/s, s}
		}
	}
	return r.fit(nil)
}

// fit frames the nodes with the given ids (every node for nil), zoomed to show them whole
// when that is readable.
func (r *renderer) fit(ids []int) frame {
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	add := func(n *graph.Node) {
		x0, y0 = min(x0, n.X), min(y0, n.Y)
		x1, y1 = max(x1, n.X+graph.NodeWidth), max(y1, n.Y+graph.NodeHeight(n))
	}
	if ids == nil {
		for i := range r.doc.Nodes {
			add(&r.doc.Nodes[i])
		}
	} else {
		for _, id := range ids {
			add(&r.doc.Nodes[r.index[id]])
		}
	}
	if x0 > x1 {
		return frame{0, 0, 1}
	}
	s := min((Width-80)/(x1-x0), (Height-band-60)/(y1-y0), 1)
	return frame{(x0 + x1) / 2, (y0 + y1) / 2, min(max(s, MinScale), MaxScale)}
}

// anyIn reports whether frame f shows any node.
func (r *renderer) anyIn(f frame) bool {
	x0, y0, x1, y1 := f.world()
	for i := range r.doc.Nodes {
		n := &r.doc.Nodes[i]
		if n.X+graph.NodeWidth >= x0 && n.X <= x1 && n.Y+graph.NodeHeight(n) >= y0 && n.Y <= y1 {
			return true
		}
	}
	return false
}

// visible lists the nodes the frame shows, at most MaxNodes, in document order (the order
// the editor draws them in, later nodes on top).
func (r *renderer) visible() {
	x0, y0, x1, y1 := r.f.world()
	pad := 12 / r.f.s // plugs stick out of the box
	r.drawn = make([]bool, len(r.doc.Nodes))
	for i := range r.doc.Nodes {
		n := &r.doc.Nodes[i]
		if n.X+graph.NodeWidth+pad >= x0 && n.X-pad <= x1 && n.Y+graph.NodeHeight(n) >= y0 && n.Y <= y1 {
			r.vis = append(r.vis, i)
			r.drawn[i] = true
			if len(r.vis) == MaxNodes {
				return
			}
		}
	}
}

// fonts makes the faces at the frame's scale. Titles stay legible in a thumbnail: larger
// than the editor's own (13 units) by nearly half, never under 14 pixels, filling most of
// the header's height.
func (r *renderer) fonts() {
	s := r.f.s
	r.title = newFace(boldFont(), min(max(14, 18*s), 26))
	r.ids = newFace(regularFont(), min(max(10, 12*s), 16))
	r.row = newFace(regularFont(), 12*s)
}

// grid draws the canvas's dots, every 40 world units, where they are at least 12 pixels
// apart.
func (r *renderer) grid() {
	step := 40.0
	for step*r.f.s < 12 {
		step *= 2
	}
	x0, y0, x1, y1 := r.f.world()
	p := &r.pt.path
	for gx := math.Floor(x0/step) * step; gx <= x1; gx += step {
		for gy := math.Floor(y0/step) * step; gy <= y1; gy += step {
			sx, sy := float32(r.f.x(gx)), float32(r.f.y(gy))
			p.rect(sx-1, sy-1, 2, 2)
		}
	}
	r.pt.fill(colGrid)
}
