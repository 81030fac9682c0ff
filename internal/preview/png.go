package preview

import (
	"bytes"
	"image"
	"image/png"
	"sync"
)

// encoder compresses at the fastest level: the picture is mostly flat colour, which even
// that level shrinks well, and it is encoded once per share.
var encoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pngBuffers{}}

type pngBuffers struct{ p sync.Pool }

func (b *pngBuffers) Get() *png.EncoderBuffer {
	v, _ := b.p.Get().(*png.EncoderBuffer)
	return v
}
func (b *pngBuffers) Put(v *png.EncoderBuffer) { b.p.Put(v) }

// EncodePNG is img as a PNG file.
func EncodePNG(img *image.RGBA) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(256 << 10)
	if err := encoder.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
