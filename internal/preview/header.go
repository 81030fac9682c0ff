package preview

import (
	"image"
	"image/color"
)

// header draws the band on top: the file's name, what the view shows and the counts, and the
// legend's colours (panels.js buildLegend) on the right.
func (r *renderer) header(sum Summary) {
	drawBand(r.pt, sum.Name, sum.Focus, sum.Counts, true)
}

// drawBand draws the band, with the legend when the picture shows a graph.
func drawBand(pt *painter, name, focus, counts string, withLegend bool) {
	p := &pt.path
	p.rect(0, 0, Width, band)
	pt.fill(colPanel)
	p.rect(0, band-1, Width, 1)
	pt.fill(colLine)
	p.rect(0, 0, 6, band)
	pt.fill(colSelect)

	big := newFace(boldFont(), 30)
	small := newFace(regularFont(), 19)
	legendW := 0.0
	if withLegend {
		legendW = legend(pt, Width-24)
	}
	room := float64(Width - 28 - 40 - legendW)
	big.draw(pt.dst, big.fit(name, room), 28, 40, 0, colText)
	x := 28.0
	if focus != "" {
		x += small.draw(pt.dst, small.fit(focus, room/2), x, 70, 0, colSelect)
		x += small.draw(pt.dst, " · ", x, 70, 0, colMuted)
	}
	small.draw(pt.dst, small.fit(counts, 28+room-x), x, 70, 0, colMuted)
}

// legend draws the colours of the value types and the link kinds in two rows ending at x
// and returns its width.
func legend(pt *painter, right float64) float64 {
	f := newFace(regularFont(), 15)
	type item struct {
		label string
		col   color.NRGBA
		mark  int // 0 disc, 1 line, 2 dashes, 3 dots
	}
	rows := [2][]item{}
	for _, v := range valueTypes {
		rows[0] = append(rows[0], item{v.name, v.col, 0})
	}
	rows[1] = []item{{"child", colChild, 1}, {"jump", colJump, 2}, {"query", colQuery, 3}, {"$ blackboard", colBlackbrd, -1}}
	widest := 0.0
	for k, row := range rows {
		w := 0.0
		for _, it := range row {
			w += f.width(it.label) + 18 + 14
			if it.mark == -1 {
				w -= 18
			}
		}
		widest = max(widest, w)
		x, y := right-w, float64(32+k*28)
		for _, it := range row {
			p := &pt.path
			switch it.mark {
			case 0:
				p.circle(float32(x+6), float32(y-5), 5, false)
			case 1:
				p.rect(float32(x), float32(y-6), 14, 2.5)
			case 2:
				p.rect(float32(x), float32(y-6), 6, 2.5)
				p.rect(float32(x+9), float32(y-6), 5, 2.5)
			case 3:
				for d := 0; d < 3; d++ {
					p.rect(float32(x+float64(d)*5.5), float32(y-6), 2.5, 2.5)
				}
			}
			pt.fill(it.col)
			if it.mark >= 0 {
				x += 18
			}
			x += f.draw(pt.dst, it.label, x, y, 0, it.col) + 14
		}
	}
	return widest
}

// RenderTree draws the picture of a shared BYML or AAMP tree: the band with its name and
// kind, and a line saying the link opens it in the tree view.
func RenderTree(name, kind string) *image.RGBA {
	sum := DescribeTree(name, kind)
	return RenderMessage(sum.Name, treeKind(kind), "Open the link to browse the "+treeKind(kind)+" in the tree view")
}

// RenderMessage draws a picture of the band alone, with name and counts in it, and a line
// of text below.
func RenderMessage(name, counts, line string) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, Width, Height))
	pt := newPainter(img)
	pt.clear(colBG)
	drawBand(pt, Clean(name, maxName), "", Clean(counts, maxDesc), false)
	f := newFace(regularFont(), 24)
	f.draw(img, f.fit(Clean(line, maxDesc), Width-80), Width/2, band+(Height-band)/2, 1, colMuted)
	return img
}
