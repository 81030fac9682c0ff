package preview

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/vector"
)

// A path is recorded first and rasterized later, so the rasterizer covers only the box its
// shapes touch: the vector rasterizer's cost is its area, and most batches (the plugs of one
// colour, one title's label) are small.
type path struct {
	ops            []op
	x0, y0, x1, y1 float32 // the bounds of every point recorded
	subs           []sub   // the subpaths, each from a moveTo
}

// sub is one subpath: ops[start:end], within its bounds.
type sub struct {
	start, end     int
	x0, y0, x1, y1 float32
}

type op struct {
	kind byte // 'M', 'L', 'C' (cubic: p[0..5]), 'Z'
	p    [6]float32
}

func (p *path) reset() {
	p.ops = p.ops[:0]
	p.subs = p.subs[:0]
	p.x0, p.y0, p.x1, p.y1 = math.MaxFloat32, math.MaxFloat32, -math.MaxFloat32, -math.MaxFloat32
}

func (p *path) see(x, y float32) {
	p.x0, p.y0 = min(p.x0, x), min(p.y0, y)
	p.x1, p.y1 = max(p.x1, x), max(p.y1, y)
	s := &p.subs[len(p.subs)-1]
	s.x0, s.y0 = min(s.x0, x), min(s.y0, y)
	s.x1, s.y1 = max(s.x1, x), max(s.y1, y)
	s.end = len(p.ops)
}

func (p *path) moveTo(x, y float32) {
	p.subs = append(p.subs, sub{start: len(p.ops), x0: x, y0: y, x1: x, y1: y})
	p.ops = append(p.ops, op{kind: 'M', p: [6]float32{x, y}})
	p.see(x, y)
}

func (p *path) lineTo(x, y float32) {
	p.ops = append(p.ops, op{kind: 'L', p: [6]float32{x, y}})
	p.see(x, y)
}

func (p *path) cubeTo(ax, ay, bx, by, cx, cy float32) {
	p.ops = append(p.ops, op{kind: 'C', p: [6]float32{ax, ay, bx, by, cx, cy}})
	p.see(ax, ay)
	p.see(bx, by)
	p.see(cx, cy)
}

func (p *path) close() {
	p.ops = append(p.ops, op{kind: 'Z'})
	p.subs[len(p.subs)-1].end = len(p.ops)
}

// kappa places the control points of a cubic that draws a quarter circle.
const kappa = 0.5522847

// rect adds a rectangle, clockwise on screen.
func (p *path) rect(x, y, w, h float32) {
	p.moveTo(x, y)
	p.lineTo(x+w, y)
	p.lineTo(x+w, y+h)
	p.lineTo(x, y+h)
	p.close()
}

// roundRect adds a rectangle with corners of radius r (the bottom ones square when topOnly),
// clockwise, or counter-clockwise when ccw: a counter-clockwise shape inside a clockwise one
// cuts a hole, which is how borders and rings are drawn.
func (p *path) roundRect(x, y, w, h, r float32, topOnly, ccw bool) {
	r = min(r, w/2, h/2)
	if r <= 0.3 {
		if ccw {
			p.moveTo(x, y)
			p.lineTo(x, y+h)
			p.lineTo(x+w, y+h)
			p.lineTo(x+w, y)
			p.close()
			return
		}
		p.rect(x, y, w, h)
		return
	}
	rb := r
	if topOnly {
		rb = 0
	}
	k := r * kappa
	kb := rb * kappa
	if !ccw {
		p.moveTo(x+r, y)
		p.lineTo(x+w-r, y)
		p.cubeTo(x+w-r+k, y, x+w, y+r-k, x+w, y+r)
		p.lineTo(x+w, y+h-rb)
		if rb > 0 {
			p.cubeTo(x+w, y+h-rb+kb, x+w-rb+kb, y+h, x+w-rb, y+h)
		}
		p.lineTo(x+rb, y+h)
		if rb > 0 {
			p.cubeTo(x+rb-kb, y+h, x, y+h-rb+kb, x, y+h-rb)
		}
		p.lineTo(x, y+r)
		p.cubeTo(x, y+r-k, x+r-k, y, x+r, y)
		p.close()
		return
	}
	p.moveTo(x+r, y)
	p.cubeTo(x+r-k, y, x, y+r-k, x, y+r)
	p.lineTo(x, y+h-rb)
	if rb > 0 {
		p.cubeTo(x, y+h-rb+kb, x+rb-kb, y+h, x+rb, y+h)
	}
	p.lineTo(x+w-rb, y+h)
	if rb > 0 {
		p.cubeTo(x+w-rb+kb, y+h, x+w, y+h-rb+kb, x+w, y+h-rb)
	}
	p.lineTo(x+w, y+r)
	p.cubeTo(x+w, y+r-k, x+w-r+k, y, x+w-r, y)
	p.close()
}

// circle adds a circle, clockwise or counter-clockwise.
func (p *path) circle(cx, cy, r float32, ccw bool) {
	k := r * kappa
	s := float32(1)
	if ccw {
		s = -1
	}
	p.moveTo(cx+r, cy)
	p.cubeTo(cx+r, cy+s*k, cx+k, cy+s*r, cx, cy+s*r)
	p.cubeTo(cx-k, cy+s*r, cx-r, cy+s*k, cx-r, cy)
	p.cubeTo(cx-r, cy-s*k, cx-k, cy-s*r, cx, cy-s*r)
	p.cubeTo(cx+k, cy-s*r, cx+r, cy-s*k, cx+r, cy)
	p.close()
}

// segment adds a line from a to b, w wide, as a quadrilateral. Each is wound the same way
// whatever its direction, so where the segments of a polyline overlap they add up rather
// than cancel.
func (p *path) segment(ax, ay, bx, by, w float64) {
	dx, dy := bx-ax, by-ay
	l := math.Hypot(dx, dy)
	if l == 0 {
		return
	}
	// Each end goes on a little under the pen, so consecutive segments meet without gaps.
	ex, ey := dx/l*w*0.25, dy/l*w*0.25
	nx, ny := -dy/l*w/2, dx/l*w/2
	p.moveTo(float32(ax-ex+nx), float32(ay-ey+ny))
	p.lineTo(float32(bx+ex+nx), float32(by+ey+ny))
	p.lineTo(float32(bx+ex-nx), float32(by+ey-ny))
	p.lineTo(float32(ax-ex-nx), float32(ay-ey-ny))
	p.close()
}

// painter fills recorded paths into an image.
type painter struct {
	dst   *image.RGBA
	z     vector.Rasterizer
	path  path
	src   image.Uniform
	tiles [][]sub
}

func newPainter(dst *image.RGBA) *painter {
	pt := &painter{dst: dst}
	pt.path.reset()
	return pt
}

// fill rasterizes the painter's own path in colour c over the image, then forgets it.
func (pt *painter) fill(c color.Color) { pt.fillPath(&pt.path, c) }

// tile is the side of the squares a large fill is cut into. The rasterizer's cost is the
// area it covers, every pixel of it, so a batch of shapes spread over the picture (the plugs
// of one colour) is rasterized square by square, skipping the squares it leaves empty.
const tile = 160

// fillPath rasterizes p in colour c over the image, then forgets p.
func (pt *painter) fillPath(p *path, c color.Color) {
	defer p.reset()
	if len(p.ops) == 0 {
		return
	}
	r := bounds(p.x0, p.y0, p.x1, p.y1).Intersect(pt.dst.Bounds())
	if r.Empty() {
		return
	}
	pt.src.C = c
	if r.Dx()*r.Dy() <= 2*tile*tile {
		pt.raster(p, r, p.subs)
		return
	}
	// The subpaths of each square they touch.
	cols, rows := (Width+tile-1)/tile, (Height+tile-1)/tile
	if cap(pt.tiles) < cols*rows {
		pt.tiles = make([][]sub, cols*rows)
	}
	tiles := pt.tiles[:cols*rows]
	for k := range tiles {
		tiles[k] = tiles[k][:0]
	}
	for _, sp := range p.subs {
		b := bounds(sp.x0, sp.y0, sp.x1, sp.y1).Intersect(r)
		if b.Empty() {
			continue
		}
		for ty := b.Min.Y / tile; ty <= (b.Max.Y-1)/tile; ty++ {
			for tx := b.Min.X / tile; tx <= (b.Max.X-1)/tile; tx++ {
				tiles[ty*cols+tx] = append(tiles[ty*cols+tx], sp)
			}
		}
	}
	for k, subs := range tiles {
		if len(subs) == 0 {
			continue
		}
		tr := image.Rect(k%cols*tile, k/cols*tile, k%cols*tile+tile, k/cols*tile+tile).Intersect(r)
		// Within the square, only the box its subpaths touch.
		x0, y0, x1, y1 := subs[0].x0, subs[0].y0, subs[0].x1, subs[0].y1
		for _, sp := range subs[1:] {
			x0, y0, x1, y1 = min(x0, sp.x0), min(y0, sp.y0), max(x1, sp.x1), max(y1, sp.y1)
		}
		if tr = tr.Intersect(bounds(x0, y0, x1, y1)); !tr.Empty() {
			pt.raster(p, tr, subs)
		}
	}
}

// bounds is the pixel rectangle that covers the box x0..x1, y0..y1.
func bounds(x0, y0, x1, y1 float32) image.Rectangle {
	return image.Rect(int(math.Floor(float64(x0))), int(math.Floor(float64(y0))),
		int(math.Ceil(float64(x1)))+1, int(math.Ceil(float64(y1)))+1)
}

// raster fills the subpaths of p within r, in pt.src's colour. Shapes reaching outside r are
// cut there: the rasterizer keeps what lies left of it in its first column, so a shape that
// starts outside still fills the inside.
func (pt *painter) raster(p *path, r image.Rectangle, subs []sub) {
	ox, oy := float32(r.Min.X), float32(r.Min.Y)
	pt.z.Reset(r.Dx(), r.Dy())
	for _, sp := range subs {
		for i := sp.start; i < sp.end; i++ {
			o := &p.ops[i]
			switch o.kind {
			case 'M':
				pt.z.MoveTo(o.p[0]-ox, o.p[1]-oy)
			case 'L':
				pt.z.LineTo(o.p[0]-ox, o.p[1]-oy)
			case 'C':
				pt.z.CubeTo(o.p[0]-ox, o.p[1]-oy, o.p[2]-ox, o.p[3]-oy, o.p[4]-ox, o.p[5]-oy)
			case 'Z':
				pt.z.ClosePath()
			}
		}
		pt.z.ClosePath()
	}
	pt.z.Draw(pt.dst, r, &pt.src, image.Point{})
}

// clear paints the whole image in c.
func (pt *painter) clear(c color.Color) {
	draw.Draw(pt.dst, pt.dst.Bounds(), &image.Uniform{C: c}, image.Point{}, draw.Src)
}

// hex is a colour written as the editor's CSS writes it, #rrggbb.
func hex(s string) color.NRGBA {
	var v uint32
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		}
		v = v<<4 | uint32(c)
	}
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 255}
}

// alpha is c at opacity a (0..1), as CSS's rgba().
func alpha(c color.NRGBA, a float64) color.NRGBA {
	c.A = uint8(math.Round(a * 255))
	return c
}
