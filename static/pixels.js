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
    const bgr = ((rgb & 255) << 16) | (rgb & 0xff00) | (rgb >>> 16);
    // Columns fx0 to fx1 (exclusive) are covered whole across, the ones before and after in
    // part, by lx and rx (a rectangle within one column: by its width, as lx); rows alike.
    let fx0 = Math.ceil(x0), fx1 = Math.floor(x1), lx = fx0 - x0, rx = x1 - fx1;
    if (fx0 > fx1) {
      fx0 = fx1 = ix1;
      lx = x1 - x0;
      rx = 0;
    }
    if (iy1 - iy0 === 1) {
      this.row(iy0, y1 - y0, ix0, fx0, fx1, lx, rx, bgr);
      return;
    }
    let fy0 = Math.ceil(y0), fy1 = Math.floor(y1);
    if (fy0 > y0) this.row(iy0, fy0 - y0, ix0, fx0, fx1, lx, rx, bgr);
    for (let y = fy0; y < fy1; y++) this.row(y, 1, ix0, fx0, fx1, lx, rx, bgr);
    if (y1 > fy1) this.row(fy1, y1 - fy1, ix0, fx0, fx1, lx, rx, bgr);
  }

  // One row of rect: covered by cy down, columns fx0 to fx1 whole across, ix0 by lx, fx1 by rx.
  // Most pixels are still empty: they take the colour as it is, at its coverage.
  row(y, cy, ix0, fx0, fx1, lx, rx, bgr) {
    const u32 = this.u32, row = y * this.width;
    const a = (cy * 255 + 0.5) | 0;
    if (fx1 > fx0) {
      if (a >= 255) u32.fill(-16777216 | bgr, row + fx0, row + fx1);
      else if (a > 0) {
        const v = (a << 24) | bgr;
        for (let p = row + fx0, e = row + fx1; p < e; p++) {
          if (u32[p] === 0) u32[p] = v;
          else this.blend(p, a, bgr);
        }
      }
    }
    if (lx > 0) {
      const p = row + ix0, la = (lx * cy * 255 + 0.5) | 0;
      if (u32[p] === 0) {
        if (la > 0) u32[p] = (la << 24) | bgr;
      } else this.blend(p, la, bgr);
    }
    if (rx > 0) {
      const p = row + fx1, ra = (rx * cy * 255 + 0.5) | 0;
      if (u32[p] === 0) {
        if (ra > 0) u32[p] = (ra << 24) | bgr;
      } else this.blend(p, ra, bgr);
    }
  }

  // Puts colour bgr (0xBBGGRR) at alpha sa (0..255) over pixel p: source over, in the
  // buffer's unpremultiplied RGBA.
  blend(p, sa, bgr) {
    if (sa <= 0) return;
    const u32 = this.u32, d = u32[p], da = d >>> 24;
    if (sa >= 255 || da === 0) {
      u32[p] = (sa << 24) | bgr;
      return;
    }
    const r = bgr & 255, g = (bgr >>> 8) & 255, b = bgr >>> 16;
    // out = s·sa + d·da·(1 − sa), divided by the alpha out.
    const k = (da * (255 - sa)) / 255, oa = sa + k;
    const or = (r * sa + (d & 255) * k) / oa, og = (g * sa + ((d >>> 8) & 255) * k) / oa, ob = (b * sa + ((d >>> 16) & 255) * k) / oa;
    u32[p] = (Math.round(oa) << 24) | (Math.round(ob) << 16) | (Math.round(og) << 8) | Math.round(or);
  }
}
