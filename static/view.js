// The view transform: which world point sits at the centre of the canvas, and the zoom.
// Keeping the centre (not a corner) makes a shared view land on the same spot in a window of
// another size.

import { clampCoord } from "./metrics.js";

export const MIN_ZOOM = 0.002;
export const MAX_ZOOM = 4;

export class View {
  constructor() {
    this.x = 0;
    this.y = 0;
    this.zoom = 1;
    this.width = 1; // canvas size in CSS pixels
    this.height = 1;
  }

  toScreen(wx, wy) {
    return [(wx - this.x) * this.zoom + this.width / 2, (wy - this.y) * this.zoom + this.height / 2];
  }

  toWorld(sx, sy) {
    return [(sx - this.width / 2) / this.zoom + this.x, (sy - this.height / 2) / this.zoom + this.y];
  }

  // The world rectangle on screen, as [x0, y0, x1, y1].
  visible() {
    const hw = this.width / 2 / this.zoom, hh = this.height / 2 / this.zoom;
    return [this.x - hw, this.y - hh, this.x + hw, this.y + hh];
  }

  panBy(dsx, dsy) {
    this.x = clampCoord(this.x - dsx / this.zoom);
    this.y = clampCoord(this.y - dsy / this.zoom);
  }

  // Zooms keeping the world point under (sx, sy) in place.
  zoomAt(sx, sy, factor) {
    const [wx, wy] = this.toWorld(sx, sy);
    this.zoom = clamp(this.zoom * factor, MIN_ZOOM, MAX_ZOOM);
    this.x = wx - (sx - this.width / 2) / this.zoom;
    this.y = wy - (sy - this.height / 2) / this.zoom;
  }

  fit(x0, y0, x1, y1, margin = 40, maxZoom = 1) {
    const w = Math.max(1, x1 - x0), h = Math.max(1, y1 - y0);
    const zx = (this.width - 2 * margin) / w, zy = (this.height - 2 * margin) / h;
    this.zoom = clamp(Math.min(zx, zy, maxZoom), MIN_ZOOM, MAX_ZOOM);
    this.x = (x0 + x1) / 2;
    this.y = (y0 + y1) / 2;
  }

  centerOn(wx, wy) {
    this.x = clampCoord(wx);
    this.y = clampCoord(wy);
  }

  // Takes a view from anywhere (a link, a share, an autosave): what is not a finite number
  // is ignored, and the rest is clamped, so no view can make drawing loop without end.
  set(v) {
    if (!v) return;
    if (Number.isFinite(v.x)) this.x = clampCoord(v.x);
    if (Number.isFinite(v.y)) this.y = clampCoord(v.y);
    if (Number.isFinite(v.zoom) && v.zoom > 0) this.zoom = clamp(v.zoom, MIN_ZOOM, MAX_ZOOM);
  }
}

export function clamp(v, lo, hi) {
  return v < lo ? lo : v > hi ? hi : v;
}
