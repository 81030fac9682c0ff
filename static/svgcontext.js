// A drawing context that writes SVG: it takes the calls the renderer makes on a canvas 2D
// context (render.js paint) and records them as SVG elements, so an exported SVG is the very
// picture the canvas shows, drawn by the one renderer, with every text as <text> a reader can
// select and search. Only the part of the 2D context API the renderer uses is here; a call
// it does not know throws, so a renderer change cannot silently drop something from exports.
// No DOM except for drawImage (pixels go in as a PNG data URL), so it runs under node too.

const IDENTITY = Object.freeze({ a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 });

// Numbers in attributes: three decimals are a hundredth of a pixel at any sensible zoom.
const num = (x) => (Number.isInteger(x) ? String(x) : String(Math.round(x * 1000) / 1000));

export function escapeXML(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c])
    // XML 1.0 has no place for most control characters, even escaped.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "\ufffd");
}

const ANCHOR = { left: "start", start: "start", center: "middle", right: "end", end: "end" };
const BASELINE = { alphabetic: "auto", middle: "central", top: "text-before-edge", hanging: "hanging", bottom: "text-after-edge", ideographic: "ideographic" };

export class SVGContext {
  // width and height are the picture's size in pixels (what canvas.width and height give).
  constructor(width, height) {
    this.canvas = { width, height };
    this.out = []; // element strings, grouped by transform (see group)
    this.groupKey = null;
    this.state = this.defaults();
    this.stack = [];
    this.current = new SVGPath();
    this.imageSmoothingEnabled = true;
  }

  defaults() {
    return {
      m: IDENTITY, fillStyle: "#000", strokeStyle: "#000", lineWidth: 1, dash: [],
      font: "10px sans-serif", textAlign: "start", textBaseline: "alphabetic",
    };
  }

  get fillStyle() { return this.state.fillStyle; }
  set fillStyle(v) { this.state.fillStyle = String(v); }
  get strokeStyle() { return this.state.strokeStyle; }
  set strokeStyle(v) { this.state.strokeStyle = String(v); }
  get lineWidth() { return this.state.lineWidth; }
  set lineWidth(v) { if (Number.isFinite(v) && v > 0) this.state.lineWidth = v; }
  get font() { return this.state.font; }
  set font(v) { this.state.font = String(v); }
  get textAlign() { return this.state.textAlign; }
  set textAlign(v) { this.state.textAlign = v; }
  get textBaseline() { return this.state.textBaseline; }
  set textBaseline(v) { this.state.textBaseline = v; }
  setLineDash(d) { this.state.dash = d.slice(); }
  getLineDash() { return this.state.dash.slice(); }

  save() { this.stack.push({ ...this.state, dash: this.state.dash.slice() }); }
  restore() { if (this.stack.length) this.state = this.stack.pop(); }

  // setTransform(a, b, c, d, e, f), or setTransform(m) with a matrix from getTransform.
  setTransform(a, b, c, d, e, f) {
    this.state.m = typeof a === "object" ? { a: a.a, b: a.b, c: a.c, d: a.d, e: a.e, f: a.f } : { a, b, c, d, e, f };
  }
  getTransform() { return { ...this.state.m }; }
  scale(x, y) {
    const m = this.state.m;
    this.state.m = { a: m.a * x, b: m.b * x, c: m.c * y, d: m.d * y, e: m.e, f: m.f };
  }

  // ---- paths: kept in user space, written under the transform of the call that draws them

  // The renderer batches links into Path2D objects, which cannot be read back: it asks the
  // context for a path when the context can make one (see newPath in render.js).
  newPath() { return new SVGPath(); }
  beginPath() { this.current = new SVGPath(); }
  moveTo(x, y) { this.current.moveTo(x, y); }
  lineTo(x, y) { this.current.lineTo(x, y); }
  bezierCurveTo(x1, y1, x2, y2, x, y) { this.current.bezierCurveTo(x1, y1, x2, y2, x, y); }
  closePath() { this.current.closePath(); }
  rect(x, y, w, h) { this.current.rect(x, y, w, h); }
  roundRect(x, y, w, h, r) { this.current.roundRect(x, y, w, h, r); }
  arc(x, y, r, a0, a1, ccw) { this.current.arc(x, y, r, a0, a1, ccw); }

  fill(path = this.current) { if (path.d) this.emit(`<path d="${path.d}" fill="${escapeXML(this.state.fillStyle)}"/>`); }
  stroke(path = this.current) { if (path.d) this.emit(`<path d="${path.d}" fill="none"${this.strokeAttrs()}/>`); }
  fillRect(x, y, w, h) { this.emit(`<rect x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(h)}" fill="${escapeXML(this.state.fillStyle)}"/>`); }
  strokeRect(x, y, w, h) { this.emit(`<rect x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(h)}" fill="none"${this.strokeAttrs()}/>`); }

  strokeAttrs() {
    const s = this.state;
    let a = ` stroke="${escapeXML(s.strokeStyle)}" stroke-width="${num(s.lineWidth)}"`;
    if (s.dash.length) a += ` stroke-dasharray="${s.dash.map(num).join(" ")}"`;
    return a;
  }

  fillText(text, x, y) {
    const s = this.state;
    const anchor = ANCHOR[s.textAlign] || "start", base = BASELINE[s.textBaseline] || "auto";
    this.emit(`<text x="${num(x)}" y="${num(y)}" fill="${escapeXML(s.fillStyle)}" style="font:${escapeXML(s.font)}"` +
      (anchor !== "start" ? ` text-anchor="${anchor}"` : "") + (base !== "auto" ? ` dominant-baseline="${base}"` : "") +
      ` xml:space="preserve">${escapeXML(text)}</text>`);
  }

  // drawImage(image, sx, sy, sw, sh, dx, dy, dw, dh), the form the renderer uses (and the
  // three- and five-argument forms): the pixels go in as a PNG, cut to the source rectangle.
  drawImage(img, ...a) {
    let sx = 0, sy = 0, sw = img.width, sh = img.height, dx, dy, dw, dh;
    if (a.length === 2) [dx, dy, dw, dh] = [a[0], a[1], sw, sh];
    else if (a.length === 4) [dx, dy, dw, dh] = a;
    else [sx, sy, sw, sh, dx, dy, dw, dh] = a;
    if (!(sw > 0 && sh > 0)) return;
    const c = document.createElement("canvas");
    c.width = sw;
    c.height = sh;
    c.getContext("2d").drawImage(img, sx, sy, sw, sh, 0, 0, sw, sh);
    this.emit(`<image x="${num(dx)}" y="${num(dy)}" width="${num(dw)}" height="${num(dh)}" preserveAspectRatio="none" href="${c.toDataURL("image/png")}"/>`);
  }

  // Elements drawn under one transform share a group, so a picture of thousands of nodes
  // does not repeat the matrix on every element.
  emit(el) {
    const m = this.state.m;
    const key = `${num(m.a)} ${num(m.b)} ${num(m.c)} ${num(m.d)} ${num(m.e)} ${num(m.f)}`;
    if (key !== this.groupKey) {
      if (this.groupKey !== null) this.out.push("</g>");
      this.out.push(`<g transform="matrix(${key})">`);
      this.groupKey = key;
    }
    this.out.push(el);
  }

  // The whole picture as an SVG document.
  toString() {
    const { width, height } = this.canvas;
    const close = this.groupKey !== null ? "\n</g>" : "";
    return `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" viewBox="0 0 ${num(width)} ${num(height)}">\n` +
      this.out.join("\n") + close + "\n</svg>\n";
  }
}

// A path as SVG path data, built by the calls a canvas path takes (Path2D's, and a context's
// own between beginPath and fill or stroke).
export class SVGPath {
  constructor() {
    this.d = "";
  }

  moveTo(x, y) { this.d += `M${num(x)} ${num(y)}`; }
  lineTo(x, y) { this.d += `L${num(x)} ${num(y)}`; }
  bezierCurveTo(x1, y1, x2, y2, x, y) { this.d += `C${num(x1)} ${num(y1)} ${num(x2)} ${num(y2)} ${num(x)} ${num(y)}`; }
  closePath() { this.d += "Z"; }
  rect(x, y, w, h) { this.d += `M${num(x)} ${num(y)}h${num(w)}v${num(h)}h${num(-w)}Z`; }
  roundRect(x, y, w, h, r = 0) {
    const rr = Math.max(0, Math.min(Array.isArray(r) ? r[0] || 0 : r, Math.abs(w) / 2, Math.abs(h) / 2));
    if (!rr) return this.rect(x, y, w, h);
    this.d += `M${num(x + rr)} ${num(y)}H${num(x + w - rr)}A${num(rr)} ${num(rr)} 0 0 1 ${num(x + w)} ${num(y + rr)}` +
      `V${num(y + h - rr)}A${num(rr)} ${num(rr)} 0 0 1 ${num(x + w - rr)} ${num(y + h)}H${num(x + rr)}` +
      `A${num(rr)} ${num(rr)} 0 0 1 ${num(x)} ${num(y + h - rr)}V${num(y + rr)}A${num(rr)} ${num(rr)} 0 0 1 ${num(x + rr)} ${num(y)}Z`;
  }
  arc(x, y, r, a0, a1, ccw = false) {
    const sx = x + r * Math.cos(a0), sy = y + r * Math.sin(a0);
    // As on a canvas, an arc joins the path with a line from where it stood.
    this.d += `${this.d ? "L" : "M"}${num(sx)} ${num(sy)}`;
    let sweep = ccw ? a0 - a1 : a1 - a0;
    if (sweep >= 2 * Math.PI || sweep <= -2 * Math.PI) {
      // A whole circle is two half arcs: one SVG arc cannot end where it starts.
      const mx = x - r * Math.cos(a0), my = y - r * Math.sin(a0), f = ccw ? 0 : 1;
      this.d += `A${num(r)} ${num(r)} 0 0 ${f} ${num(mx)} ${num(my)}A${num(r)} ${num(r)} 0 0 ${f} ${num(sx)} ${num(sy)}`;
      return;
    }
    sweep = ((sweep % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
    const ex = x + r * Math.cos(a1), ey = y + r * Math.sin(a1);
    this.d += `A${num(r)} ${num(r)} 0 ${sweep > Math.PI ? 1 : 0} ${ccw ? 0 : 1} ${num(ex)} ${num(ey)}`;
  }
}
