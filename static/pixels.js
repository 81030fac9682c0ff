// Rectangles written straight into a pixel buffer, for the thousands of plain boxes and dots
// of the zoomed-out levels. Skia fills a small rectangle in about half a microsecond, most of
// it per call, so 7,000 dots cost milliseconds; written here a dot costs a few pixel stores
// and the whole layer is one putImageData and one drawImage. Edges are smoothed like a
// canvas does it: a pixel a rectangle covers in part gets that part of its colour, over what
// the layer holds already. No DOM, so it runs under node too.

export class PixelRects {
  constructor(width, height) {
    this.resize(width, height);
  }

  resize(width, height) {
    this.width = width;
    this.height = height;
    this.data = new Uint8ClampedArray(width * height * 4);
    this.u32 = new Int32Array(this.data.buffer);
    this.clear();
  }

  // Starts an empty layer: the pixels that the last one touched go back to transparent.
  clear() {
    if (this.x1 > this.x0) {
      const W = this.width;
      for (let y = this.y0; y < this.y1; y++) this.u32.fill(0, y * W + this.x0, y * W + this.x1);
    }
    this.x0 = this.y0 = 0;
    this.x1 = this.y1 = 0;
    this.empty = true;
  }

  // The part of the layer drawn on since clear, as [x, y, width, height], or null.
  dirty() {
    return this.empty ? null : [this.x0, this.y0, this.x1 - this.x0, this.y1 - this.y0];
  }

  // Fills the rectangle from (x0, y0) to (x1, y1), in pixels, with an opaque colour given as
  // 0xRRGGBB.
  rect(x0, y0, x1, y1, rgb) {
    const W = this.width, H = this.height;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > W) x1 = W;
    if (y1 > H) y1 = H;
    if (!(x1 > x0 && y1 > y0)) return;
    const ix0 = Math.floor(x0), iy0 = Math.floor(y0), ix1 = Math.ceil(x1), iy1 = Math.ceil(y1);
    if (this.empty) {
      this.x0 = ix0, this.y0 = iy0, this.x1 = ix1, this.y1 = iy1;
      this.empty = false;
    } else {
      if (ix0 < this.x0) this.x0 = ix0;
      if (iy0 < this.y0) this.y0 = iy0;
      if (ix1 > this.x1) this.x1 = ix1;
      if (iy1 > this.y1) this.y1 = iy1;
    }
    const bgr = ((rgb & 255) << 16) | (rgb & 0xff00) | (rgb >>> 16), solid = -16777216 | bgr;
    const u32 = this.u32;
    // Columns fx0 to fx1 (exclusive) are covered whole across, the ones before and after in
    // part, by lx and rx (a rectangle within one column: by its width, as lx). Each row is
    // covered by cy down. Most pixels are still empty: they take the colour as it is, at its
    // coverage; the others get it over them.
    let fx0 = Math.ceil(x0), fx1 = Math.floor(x1), lx = fx0 - x0, rx = x1 - fx1;
    if (fx0 > fx1) {
      fx0 = fx1 = ix1;
      lx = x1 - x0;
      rx = 0;
    }
    for (let y = iy0; y < iy1; y++) {
      const cy = (y + 1 < y1 ? y + 1 : y1) - (y > y0 ? y : y0);
      const row = y * W, a = (cy * 255 + 0.5) | 0;
      if (a >= 255) {
        if (fx1 - fx0 > 16) u32.fill(solid, row + fx0, row + fx1);
        else for (let p = row + fx0, e = row + fx1; p < e; p++) u32[p] = solid;
      } else if (a > 0) {
        const v = (a << 24) | bgr;
        for (let p = row + fx0, e = row + fx1; p < e; p++) {
          const d = u32[p];
          u32[p] = d === 0 ? v : over(d, a, bgr);
        }
      }
      if (lx > 0) {
        const la = (lx * cy * 255 + 0.5) | 0, p = row + ix0, d = u32[p];
        if (la > 0) u32[p] = d === 0 ? (la << 24) | bgr : over(d, la, bgr);
      }
      if (rx > 0) {
        const ra = (rx * cy * 255 + 0.5) | 0, p = row + fx1, d = u32[p];
        if (ra > 0) u32[p] = d === 0 ? (ra << 24) | bgr : over(d, ra, bgr);
      }
    }
  }
}

// Colour bgr (0xBBGGRR) at alpha sa (1..255) over pixel d, source over, in unpremultiplied
// RGBA: out = s·sa + d·da·(1 − sa), divided by the alpha out.
function over(d, sa, bgr) {
  const da = d >>> 24;
  if (sa >= 255 || da === 0) return (sa << 24) | bgr;
  const k = (da * (255 - sa)) / 255, oa = sa + k;
  const r = ((bgr & 255) * sa + (d & 255) * k) / oa, g = (((bgr >>> 8) & 255) * sa + ((d >>> 8) & 255) * k) / oa;
  const b = ((bgr >>> 16) * sa + ((d >>> 16) & 255) * k) / oa;
  return (((oa + 0.5) | 0) << 24) | (((b + 0.5) | 0) << 16) | (((g + 0.5) | 0) << 8) | ((r + 0.5) | 0);
}
