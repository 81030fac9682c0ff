package preview

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The Go fonts ship inside golang.org/x/image: the server needs no font installed, and every
// machine draws the same pixels.
var (
	regularFont = sync.OnceValue(func() *opentype.Font { return mustParse(goregular.TTF) })
	boldFont    = sync.OnceValue(func() *opentype.Font { return mustParse(gobold.TTF) })
)

func mustParse(ttf []byte) *opentype.Font {
	f, err := opentype.Parse(ttf)
	if err != nil {
		panic("preview: the embedded Go font does not parse: " + err.Error())
	}
	return f
}

// maxGlyphs bounds a face's glyph cache: a name of thousands of distinct characters draws
// them uncached rather than keep them all.
const maxGlyphs = 2048

// maxRunes bounds the characters any one text is measured or drawn with: names may be
// megabytes long, and a node is 260 units wide.
const maxRunes = 160

// face draws text of one font and size. Each glyph is rasterized once per face and its mask
// kept: a preview writes the same few dozen characters thousands of times.
type face struct {
	f      font.Face
	glyphs map[rune]*glyph
	ascent float64 // pixels above the baseline
	height float64 // ascent and descent
	src    image.Uniform
}

type glyph struct {
	mask *image.Alpha
	off  image.Point // the mask's top-left corner from the pen on the baseline
	adv  float64
}

func newFace(f *opentype.Font, size float64) *face {
	ff, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		panic("preview: a face of the embedded font: " + err.Error())
	}
	m := ff.Metrics()
	return &face{f: ff, glyphs: map[rune]*glyph{}, ascent: fx(m.Ascent), height: fx(m.Ascent + m.Descent)}
}

func fx(v fixed.Int26_6) float64 { return float64(v) / 64 }

func (fc *face) glyph(r rune) *glyph {
	if g, ok := fc.glyphs[r]; ok {
		return g
	}
	dr, mask, mp, adv, ok := fc.f.Glyph(fixed.Point26_6{}, r)
	if !ok {
		dr, mask, mp, adv, _ = fc.f.Glyph(fixed.Point26_6{}, '?')
	}
	g := &glyph{off: dr.Min, adv: fx(adv)}
	if !dr.Empty() && mask != nil {
		// The face reuses its mask for the next glyph: keep a copy.
		a := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
		draw.Draw(a, a.Bounds(), mask, mp, draw.Src)
		g.mask = a
	}
	if len(fc.glyphs) < maxGlyphs {
		fc.glyphs[r] = g
	}
	return g
}

// width is the advance of s, cut to maxRunes characters.
func (fc *face) width(s string) float64 {
	w, n := 0.0, 0
	for _, r := range s {
		if n++; n > maxRunes {
			break
		}
		w += fc.glyph(r).adv
	}
	return w
}

// fit is s cut with an ellipsis to at most maxW pixels wide, and at most maxRunes characters.
func (fc *face) fit(s string, maxW float64) string {
	if maxW <= 0 {
		return ""
	}
	if short(s) && fc.width(s) <= maxW {
		return s
	}
	room := maxW - fc.glyph('…').adv
	w, n := 0.0, 0
	for i, r := range s {
		a := fc.glyph(r).adv
		if w+a > room || n >= maxRunes {
			return s[:i] + "…"
		}
		w += a
		n++
	}
	return s
}

// short reports whether s has at most maxRunes characters, reading no further.
func short(s string) bool {
	n := 0
	for range s {
		if n++; n > maxRunes {
			return false
		}
	}
	return true
}

// draw writes s with its baseline at y, starting at x (align 0), centred on x (1) or ending
// at x (2); returns the width drawn.
func (fc *face) draw(dst *image.RGBA, s string, x, y float64, align int, c color.Color) float64 {
	w := fc.width(s)
	switch align {
	case 1:
		x -= w / 2
	case 2:
		x -= w
	}
	fc.src.C = c
	px, py := x, math.Round(y)
	n := 0
	clip := dst.Bounds()
	for _, r := range s {
		if n++; n > maxRunes || px > float64(clip.Max.X) {
			break
		}
		g := fc.glyph(r)
		if g.mask != nil {
			at := image.Pt(int(math.Round(px)), int(py)).Add(g.off)
			rect := image.Rectangle{Min: at, Max: at.Add(g.mask.Rect.Max)}
			draw.DrawMask(dst, rect, &fc.src, image.Point{}, g.mask, image.Point{}, draw.Over)
		}
		px += g.adv
	}
	return w
}

// middle is the baseline that centres the face's capitals and lower case on y.
func (fc *face) middle(y float64) float64 { return y + fc.ascent*0.36 }
