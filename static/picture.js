// Export image: the view, or the whole graph, as a PNG or an SVG file, drawn by the renderer
// itself (Renderer.paintPicture) onto an offscreen canvas or an SVGContext, so a picture looks
// exactly like the editor and the SVG keeps every title as text.

import { SVGContext } from "./svgcontext.js";
import { LOD_FULL } from "./render.js";

export const EDITOR_NEEDS = ["grid", "renderer", "view"];

const MARGIN = 40; // CSS pixels around the whole graph
// A PNG stays well inside what every browser's canvas can hold (Chromium: 32,767 pixels a
// side and 268 million in all): a bigger graph is drawn smaller.
const PNG_SIDE = 16384;
const PNG_AREA = 64e6;
const PNG_SCALE = 2; // device pixels per CSS pixel for the view: sharp on high-density screens

// The view the picture shows and its scale. The view is the canvas's; the whole graph is
// fitted at full size for SVG (vector: every title readable at any size), and at the largest
// zoom a canvas can hold for PNG.
export function pictureView(ed, { whole, format }) {
  const v = ed.view;
  if (!whole) {
    const scale = format === "png" ? Math.min(PNG_SCALE, PNG_SIDE / Math.max(v.width, v.height)) : 1;
    return { view: { x: v.x, y: v.y, zoom: v.zoom, width: v.width, height: v.height }, scale };
  }
  const [x0, y0, x1, y1] = ed.grid.bounds;
  const bw = Math.max(1, x1 - x0), bh = Math.max(1, y1 - y0);
  let zoom = 1;
  if (format === "png") {
    const w = bw + 2 * MARGIN, h = bh + 2 * MARGIN;
    zoom = Math.min(1, PNG_SIDE / w, PNG_SIDE / h, Math.sqrt(PNG_AREA / (w * h)));
  }
  const width = Math.ceil(bw * zoom + 2 * MARGIN), height = Math.ceil(bh * zoom + 2 * MARGIN);
  return { view: { x: (x0 + x1) / 2, y: (y0 + y1) / 2, zoom, width, height }, scale: 1 };
}

// Draws the picture and returns it as a Blob (image/png or image/svg+xml).
export async function picture(ed, opts) {
  const { view, scale } = pictureView(ed, opts);
  const w = Math.max(1, Math.round(view.width * scale)), h = Math.max(1, Math.round(view.height * scale));
  if (opts.format === "svg") {
    const ctx = new SVGContext(w, h);
    ed.renderer.paintPicture(ctx, view, scale);
    return new Blob([ctx.toString()], { type: "image/svg+xml" });
  }
  const canvas = document.createElement("canvas");
  canvas.width = w;
  canvas.height = h;
  ed.renderer.paintPicture(canvas.getContext("2d", { alpha: false }), view, scale);
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
  if (!blob) throw new Error(`the browser could not make a ${w}×${h} PNG`);
  return blob;
}

// Whether a picture of the whole graph shows titles: below the renderer's full detail it
// shows boxes only, which the menu says.
export function wholeShowsTitles(ed, format) {
  return pictureView(ed, { whole: true, format }).view.zoom >= LOD_FULL;
}
