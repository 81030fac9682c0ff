package preview

import (
	"image/color"
	"math"

	"ainbeditor/internal/graph"
)

// Link styles: 0 to 5 are sources of the value types (valueTypes), then sources of any
// other type, children, jumps and queries.
const (
	styleOther = 6 + iota
	styleChild
	styleJump
	styleQuery
	styleCount
)

// links draws the links that meet the picture, as the editor does (render.js drawEdges): a
// bezier from the right edge of the plug's row to the left edge of the other node, children
// grey, jumps pink and dashed, queries green and dotted, sources in their value type's
// colour, the selection's links twice as wide. At most MaxLinks are drawn.
func (r *renderer) links() {
	var paths [styleCount]path
	for k := range paths {
		paths[k].reset()
	}
	x0, y0, x1, y1 := r.f.world()
	drawn := &r.linksDrawn
	w := max(1.5, 2*r.f.s)
	add := func(a int, arow int, b int, brow int, style int) bool {
		if *drawn >= MaxLinks {
			return false
		}
		na, nb := &r.doc.Nodes[a], &r.doc.Nodes[b]
		ax, ay := na.X+graph.NodeWidth, rowY(na, arow)
		bx, by := nb.X, rowY(nb, brow)
		c := max(40, math.Abs(bx-ax)*0.5)
		if max(ax, bx)+c < x0 || min(ax, bx)-c > x1 || max(ay, by) < y0 || min(ay, by) > y1 {
			return true
		}
		*drawn++
		lw := w
		if r.selected[na.ID] || r.selected[nb.ID] {
			lw *= 2
		}
		r.curve(&paths[style], ax, ay, ax+c, ay, bx-c, by, bx, by, lw, style)
		return true
	}
	defer func() {
		for k := range paths {
			r.pt.fillPath(&paths[k], styleColor(k))
		}
	}()
	for i := range r.doc.Nodes {
		n := &r.doc.Nodes[i]
		props := len(n.Properties)
		for j := range n.Inputs {
			in := &n.Inputs[j]
			style := typeStyle(in.Type)
			link := func(s *graph.Source) bool {
				if s == nil || s.Node == nil || s.MissingOutput != nil {
					return true
				}
				a, ok := r.index[*s.Node]
				if !ok {
					return true
				}
				return add(a, len(r.doc.Nodes[a].Properties)+s.Output, i, props+j, style)
			}
			if !link(in.Source) {
				return
			}
			for k := range in.Sources {
				if !link(&in.Sources[k]) {
					return
				}
			}
		}
		io := max(len(n.Inputs), len(n.Outputs))
		for k, c := range n.Children {
			if b, ok := r.index[c.Node]; ok && !add(i, props+io+k, b, -1, styleChild) {
				return
			}
		}
		for k, jp := range n.Jumps {
			if b, ok := r.index[jp.Node]; ok && !add(i, props+io+len(n.Children)+k, b, -1, styleJump) {
				return
			}
		}
		for _, q := range n.Queries {
			if a, ok := r.index[q]; ok && !add(a, -1, i, -1, styleQuery) {
				return
			}
		}
	}
}

func typeStyle(t graph.ValueType) int {
	for k, v := range valueTypes {
		if string(t) == v.name {
			return k
		}
	}
	return styleOther
}

func styleColor(k int) color.NRGBA {
	switch {
	case k < len(valueTypes):
		return valueTypes[k].col
	case k == styleChild:
		return colChild
	case k == styleJump:
		return colJump
	case k == styleQuery:
		return colQuery
	}
	return colMuted
}

// rowY is the world y of the middle of row r of a node, or of its header for r < 0
// (metrics.js rowY).
func rowY(n *graph.Node, r int) float64 {
	if r < 0 {
		return n.Y + graph.HeaderHeight/2
	}
	return n.Y + graph.HeaderHeight + float64(r)*graph.RowHeight + graph.RowHeight/2
}

// A link's bezier is drawn as straight pieces of about curvePiece pixels, at least
// minPieces and at most maxPieces of them (a link to a node far off the picture).
// Past maxLinkPieces in one picture, links get minPieces each: the pieces are what a
// picture of MaxLinks links holds in memory.
const (
	curvePiece    = 10
	minPieces     = 8
	maxPieces     = 96
	maxLinkPieces = 24000
)

// curve adds the cubic bezier (world coordinates) to p as a line lw pixels wide, dashed for
// jumps and dotted for queries, each piece cut to the picture.
func (r *renderer) curve(p *path, ax, ay, bx, by, cx, cy, dx, dy, lw float64, style int) {
	var dash [2]float64 // on, off, in pixels (render.js edgeStyle, in world units there)
	switch style {
	case styleJump:
		dash = [2]float64{8 * r.f.s, 5 * r.f.s}
	case styleQuery:
		dash = [2]float64{3 * r.f.s, 4 * r.f.s}
	}
	px, py := r.f.x(ax), r.f.y(ay)
	// The control polygon's length bounds the curve's.
	l := (math.Hypot(bx-ax, by-ay) + math.Hypot(cx-bx, cy-by) + math.Hypot(dx-cx, dy-cy)) * r.f.s
	steps := int(min(max(l/curvePiece, minPieces), maxPieces))
	if r.pieces += steps; r.pieces > maxLinkPieces {
		steps = minPieces
	}
	phase, on := 0.0, true
	for k := 1; k <= steps; k++ {
		t := float64(k) / float64(steps)
		u := 1 - t
		wx := u*u*u*ax + 3*u*u*t*bx + 3*u*t*t*cx + t*t*t*dx
		wy := u*u*u*ay + 3*u*u*t*by + 3*u*t*t*cy + t*t*t*dy
		qx, qy := r.f.x(wx), r.f.y(wy)
		sx, sy, ex, ey, ok := clip(px, py, qx, qy)
		switch {
		case !ok:
		case dash[0] == 0:
			p.segment(sx, sy, ex, ey, lw)
		default:
			// Walk the piece through the dash pattern; clipped first, it is at most the
			// picture's diagonal long.
			l := math.Hypot(ex-sx, ey-sy)
			for pos := 0.0; pos < l; {
				left := dash[0] - phase
				if !on {
					left = dash[1] - phase
				}
				step := min(left, l-pos)
				if on {
					f0, f1 := pos/l, (pos+step)/l
					p.segment(sx+(ex-sx)*f0, sy+(ey-sy)*f0, sx+(ex-sx)*f1, sy+(ey-sy)*f1, lw)
				}
				pos += step
				phase += step
				if step == left {
					phase, on = 0, !on
				}
			}
		}
		px, py = qx, qy
	}
}

// clip cuts the segment to a margin around the picture (Liang–Barsky), so a link to a node
// a billion units away adds a line of picture size; ok is false when nothing is left.
func clip(ax, ay, bx, by float64) (sx, sy, ex, ey float64, ok bool) {
	const m = 16
	t0, t1 := 0.0, 1.0
	dx, dy := bx-ax, by-ay
	for _, e := range [4][2]float64{{-dx, ax + m}, {dx, Width + m - ax}, {-dy, ay + m}, {dy, Height + m - ay}} {
		pe, q := e[0], e[1]
		if pe == 0 {
			if q < 0 {
				return 0, 0, 0, 0, false
			}
			continue
		}
		t := q / pe
		if pe < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
		if t0 > t1 {
			return 0, 0, 0, 0, false
		}
	}
	return ax + t0*dx, ay + t0*dy, ax + t1*dx, ay + t1*dy, true
}
