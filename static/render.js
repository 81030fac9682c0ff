// Drawing the graph on the canvas. Everything is drawn in world units under one transform;
// what is drawn depends on the zoom (full nodes, then plain boxes, then dots) and only what
// the view meets is drawn at all.

import { rowCount, takesChildren, branchPoint, headerHeight, TITLE_LINE } from "./metrics.js";
import { PixelRects } from "./pixels.js";
import { COMPARE_COLOR } from "./compare.js";
import {
  HEADER, ROW, NODE_WIDTH, VALUE_TYPES, TYPE_COLOR, LINK_COLOR, TYPE_LABEL,
  nodeRows, nodeClass, nodeTitle, nodeHeight, headerColor, sourceKind, blackboardLabel, formatValue, conditionText, rowY,
  EDGE_SOURCE, EDGE_CHILD, EDGE_JUMP, EDGE_QUERY,
} from "./model.js";

// The editor members this module uses: its context (context.js).
export const EDITOR_NEEDS = ["boxSelect", "compare", "connect", "doc", "edges", "grid", "hover", "indexOf", "pictureless", "problemNodes", "search", "selection", "showMinimap", "view"];

// The grid is drawn from zoom 0.6 on: a screen of 8,000 pixels needs 333 steps an axis.
const MAX_GRID_STEPS = 1000;

export const LOD_FULL = 0.42; // at or above: text and plugs
export const LOD_BOX = 0.1; // at or above: boxes with headers; below: dots

const BG = "#16171b";
const BODY = "#24262c";
const BORDER = "#3a3e48";
const TEXT = "#dfe2e8";
const MUTED = "#8d93a0";
const SELECT = "#ffb347";
const HIT = "#3ad1ff";
const FONT_TITLE = "600 13px system-ui, sans-serif";
const FONT_ROW = "11px system-ui, sans-serif";
const FONT_BADGE = "600 10px system-ui, sans-serif";
const FONT_LABEL = "600 11px system-ui, sans-serif";
// Screen-size labels below LOD_FULL (drawLabels).
const LABEL_H = 15; // pixels
const LABEL_PAD = 3;
const LABEL_CELL = 8; // the grid that keeps labels apart, in pixels
const MIN_LABEL = 70; // a label's text gets at least this many pixels, however small its node
const MAX_LABEL = 240;
const MAX_LABELS = 800; // per frame
const EDGE_COLORS = VALUE_TYPES.map((t) => TYPE_COLOR[t]);
// The badge on a link whose node output goes through an expression before the input gets
// it: a disc in the expression colour with "ƒ", at the link's midpoint (the bezier's point at
// t = 0.5 is exactly halfway between its ends), so each source of a multi-input has its own.
const EXPR_BADGE_R = 7;
const FONT_EXPR_BADGE = "italic 700 11px Georgia, serif";
// Links that lead nowhere: the warning colour (the problems panel's) and the stub's length.
export const WARN_COLOR = "#f0a030";
export const STUB_LENGTH = 40;

export class Renderer {
  constructor(editor, canvas) {
    this.ed = editor;
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d", { alpha: false });
    this.rowCache = new Map(); // node index -> prepared rows with fitted text (drawing only)
    this.minimap = null; // cached picture of the whole graph
    this.minimapRect = null; // where the minimap sits on screen, for input
    this.measure = document.createElement("canvas").getContext("2d");
    this.lastFrameMs = 0;
    this.frames = 0;
    this.version = 0; // counts changes of the document's drawing (invalidate)
    this.placed = []; // the labels of the last picture drawn (drawLabels)
    this.labelCount = 0;
    this.visible_ = 0; // nodes in the last frame's view, -1 until counted (visibleCount)
    this.hitLabel = null; // id of the search hit whose label the frame shows, for tests
    this.scene = null; // the scene cache (blit)
    this.lastDirect = null; // the last frame drawn anew: its key and view
    this.layers = []; // pixel layers by canvas size (pixelLayer)
    this.dotColours = null; // the nodes' dot colours (drawDots)
  }

  invalidate() {
    this.version++;
    this.rowCache.clear();
    this.minimap = null;
    this.labels = null;
  }

  invalidateNode(i) {
    this.version++;
    this.rowCache.delete(i);
    this.minimap = null;
    if (this.labels) this.labels.text[i] = undefined;
  }

  resize() {
    const c = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, c.clientWidth), h = Math.max(1, c.clientHeight);
    if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
      c.width = Math.round(w * dpr);
      c.height = Math.round(h * dpr);
    }
    this.dpr = dpr;
    this.ed.view.width = w;
    this.ed.view.height = h;
  }

  // Draws a frame. A pan at an unchanged zoom and scene copies the picture from the scene
  // cache (see blit) instead of drawing the graph again; anything else draws the graph.
  draw() {
    const t0 = performance.now();
    this.resize();
    const ctx = this.ctx, ed = this.ed, v = ed.view, dpr = this.dpr;
    if (!ed.doc) {
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.fillStyle = BG;
      ctx.fillRect(0, 0, v.width, v.height);
      this.dropScene();
      this.lastFrameMs = performance.now() - t0;
      return;
    }
    this.frameView = [v.x, v.y, v.zoom, v.width, v.height];
    this.visible_ = -1;
    const key = this.sceneKey();
    this.copied = this.blit(key);
    if (!this.copied) {
      this.paint(ctx, 0);
      this.lastDirect = { key, zoom: v.zoom, x: v.x, y: v.y, cw: this.canvas.width, ch: this.canvas.height, dpr };
      this.labelCount = this.placed.length / 6;
      this.hitLabel = this.placed[4] ? ed.doc.nodes[this.placed[3]].id : null;
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (ed.boxSelect) {
      const b = ed.boxSelect;
      ctx.fillStyle = "rgba(58, 209, 255, 0.08)";
      ctx.strokeStyle = HIT;
      ctx.lineWidth = 1;
      const rx = Math.min(b.sx0, b.sx1), ry = Math.min(b.sy0, b.sy1);
      ctx.fillRect(rx, ry, Math.abs(b.sx1 - b.sx0), Math.abs(b.sy1 - b.sy0));
      ctx.strokeRect(rx + 0.5, ry + 0.5, Math.abs(b.sx1 - b.sx0), Math.abs(b.sy1 - b.sy0));
    }
    this.drawMinimap();
    this.frames++;
    this.lastFrameMs = performance.now() - t0;
  }

  // How many nodes the last frame's view meets, counted when asked (a copied frame does not
  // look the nodes up).
  get visibleCount() {
    if (this.visible_ < 0 && this.frameView && this.ed.grid) {
      const [x, y, z, w, h] = this.frameView;
      let n = 0;
      this.ed.grid.query(x - w / 2 / z - 10, y - h / 2 / z, x + w / 2 / z + 10, y + h / 2 / z, () => n++);
      this.visible_ = n;
    }
    return Math.max(0, this.visible_);
  }

  // Draws the graph into ctx (the canvas, or the scene cache) for the current view with md
  // device pixels more on every side: grid, edges, nodes at the zoom's level of detail, the
  // link being dragged, and the labels.
  paint(ctx, md) {
    const ed = this.ed, v = ed.view, dpr = this.dpr, z = v.zoom;
    const main = this.ctx;
    this.ctx = ctx;
    try {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.fillStyle = BG;
      ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
      const m = md / dpr; // the margin in CSS pixels
      ctx.setTransform(dpr * z, 0, 0, dpr * z, md + dpr * (v.width / 2 - v.x * z), md + dpr * (v.height / 2 - v.y * z));
      const hw = (v.width / 2 + m) / z, hh = (v.height / 2 + m) / z;
      const x0 = v.x - hw, y0 = v.y - hh, x1 = v.x + hw, y1 = v.y + hh;
      if (z >= 0.6) this.drawGrid(x0, y0, x1, y1);
      const vis = [];
      ed.grid.query(x0 - 10, y0, x1 + 10, y1, (i) => vis.push(i));
      // A view over most of the graph comes in order already (Grid.query scans the boxes).
      if (!ascending(vis)) vis.sort((a, b) => a - b);
      if (!md) this.visible_ = vis.length;
      this.drawEdges(x0, y0, x1, y1, z);
      if (z >= LOD_FULL) this.drawFull(vis);
      else if (z >= LOD_BOX) this.drawBoxes(vis);
      else this.drawDots(vis, z);
      this.drawCompare(vis, x0, y0, x1, y1, z);
      this.drawInteraction(z);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      this.placed = z < LOD_FULL ? this.drawLabels(vis, z, v.width + 2 * m, v.height + 2 * m) : [];
    } finally {
      this.ctx = main;
    }
  }

  // Draws the graph for a view that is not the canvas's (an exported picture): view is
  // {x, y, zoom, width, height} in CSS pixels, scale the device pixels per CSS pixel, ctx a
  // canvas context or an SVGContext of width*scale by height*scale. Nothing transient is
  // drawn: no hover, no link being dragged, no selection, no search hits. The canvas's own
  // view, caches and counters are as they were afterwards.
  paintPicture(ctx, view, scale) {
    const ed = this.ed, v = ed.view;
    const saved = { x: v.x, y: v.y, zoom: v.zoom, width: v.width, height: v.height };
    const keep = { dpr: this.dpr, placed: this.placed, visible: this.visible_ };
    const transient = ed.pictureless();
    try {
      Object.assign(v, view);
      this.dpr = scale;
      this.paint(ctx, 0);
    } finally {
      Object.assign(v, saved);
      this.dpr = keep.dpr;
      this.placed = keep.placed;
      this.visible_ = keep.visible;
      transient();
    }
  }

  // What the scene depends on besides the view: the document and the renderer's caches of
  // it (version, grid), the selection, the search, the hover and the problems. Sets are
  // summed by content, so a set changed in place changes the key.
  sceneKey() {
    const ed = this.ed, s = ed.search, h = ed.hover;
    return `${this.version}|${ed.grid.version}|${objectId(ed.doc)}|${objectId(ed.edges)}|${setHash(ed.selection)}|` +
      `${setHash(s.hitSet)}|${s.current}|${h ? h.node + "/" + h.row + "/" + h.side : ""}|${setHash(ed.problemNodes)}|${ed.compare.version}`;
  }

  // The scene cache: while the view only pans, at the same zoom and with nothing else
  // changed, the frame is a copy of a picture drawn once with a margin around the view.
  // The copy is exact: the picture is offset from the view by whole device pixels, so it
  // has the very pixels a frame drawn anew would have. A pan by a fraction of a pixel, a
  // zoom, an edit or a link being dragged draws anew. Returns whether it drew the frame.
  blit(key) {
    const ed = this.ed, v = ed.view, dpr = this.dpr, cw = this.canvas.width, ch = this.canvas.height;
    if (ed.connect) return false;
    const fits = (s) => s && s.key === key && s.zoom === v.zoom && s.cw === cw && s.ch === ch && s.dpr === dpr;
    const offset = (s) => {
      const dx = (v.x - s.x) * v.zoom * dpr, dy = (v.y - s.y) * v.zoom * dpr;
      const rx = Math.round(dx), ry = Math.round(dy);
      return Math.abs(dx - rx) < 1e-3 && Math.abs(dy - ry) < 1e-3 ? [rx, ry] : null;
    };
    let S = this.scene;
    let o = fits(S) ? offset(S) : null;
    if (!o || Math.abs(o[0]) > S.md || Math.abs(o[1]) > S.md) {
      // Build the scene only for a pan: a frame at this zoom and key went before, and the
      // view moved from it by whole pixels.
      const L = fits(S) ? S : fits(this.lastDirect) ? this.lastDirect : null;
      if (!L || !offset(L)) return false;
      S = this.buildScene(key, cw, ch);
      o = [0, 0];
    }
    const ctx = this.ctx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    // Pixel for pixel: no filtering to look for.
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(S.canvas, S.md + o[0], S.md + o[1], cw, ch, 0, 0, cw, ch);
    ctx.imageSmoothingEnabled = true;
    // The labels of the scene that the view shows.
    const P = S.placed, lx = S.md / dpr + o[0] / dpr, ly = S.md / dpr + o[1] / dpr, w = v.width, h = v.height;
    let n = 0;
    this.hitLabel = null;
    for (let k = 0; k < P.length; k += 6) {
      if (P[k] + P[k + 2] + 2 * LABEL_PAD <= lx || P[k] >= lx + w || P[k + 1] + LABEL_H <= ly || P[k + 1] >= ly + h) continue;
      n++;
      if (P[k + 4]) this.hitLabel = ed.doc.nodes[P[k + 3]].id;
    }
    this.labelCount = n;
    return true;
  }

  buildScene(key, cw, ch) {
    const v = this.ed.view, dpr = this.dpr;
    // A margin of up to 320 pixels a side: a pan of that much copies; the picture is at
    // most about twice the canvas.
    const md = Math.round(Math.min(320, 0.25 * Math.max(v.width, v.height)) * dpr);
    let S = this.scene;
    const canvas = S && S.canvas.width === cw + 2 * md && S.canvas.height === ch + 2 * md ? S.canvas : document.createElement("canvas");
    canvas.width = cw + 2 * md;
    canvas.height = ch + 2 * md;
    const sctx = S && S.canvas === canvas ? S.ctx : canvas.getContext("2d", { alpha: false });
    this.paint(sctx, md);
    S = { canvas, ctx: sctx, key, md, zoom: v.zoom, x: v.x, y: v.y, cw, ch, dpr, placed: this.placed };
    this.scene = S;
    return S;
  }

  // Forgets the scene cache: the next frame draws anew.
  dropScene() {
    this.scene = this.lastDirect = null;
  }

  drawGrid(x0, y0, x1, y1) {
    const ctx = this.ctx;
    const s = 40;
    ctx.fillStyle = "#1f2126";
    const gx0 = Math.floor(x0 / s) * s, gy0 = Math.floor(y0 / s) * s;
    // Counted steps, not "x += s" up to x1: that never ends where adding s changes nothing.
    const nx = Math.min(Math.floor((x1 - gx0) / s) + 1, MAX_GRID_STEPS), ny = Math.min(Math.floor((y1 - gy0) / s) + 1, MAX_GRID_STEPS);
    if (!(nx > 0 && ny > 0)) return;
    ctx.beginPath();
    for (let j = 0; j < ny; j++) for (let i = 0; i < nx; i++) ctx.rect(gx0 + i * s - 1, gy0 + j * s - 1, 2, 2);
    ctx.fill();
  }

  // The world point where an edge leaves or enters a node.
  endpoint(i, row, right) {
    const n = this.ed.doc.nodes[i];
    return [right ? n.x + NODE_WIDTH : n.x, rowY(n, row)];
  }

  drawEdges(x0, y0, x1, y1, z) {
    const ctx = this.ctx, E = this.ed.edges, pos = this.ed.doc.nodes;
    if (E && E.stubs && E.stubs.count) this.drawStubs(E.stubs, x0, y0, x1, y1, z);
    if (!E || !E.count) return;
    const simple = z < LOD_BOX;
    const sel = this.ed.selection;
    const W = NODE_WIDTH;
    // Edges are batched by style: one stroke per style instead of one per edge.
    const batches = new Map();
    const hot = [], badges = [];
    for (let k = 0; k < E.count; k++) {
      const a = E.from[k], b = E.to[k];
      const pa = pos[a], pb = pos[b];
      const kind = E.kind[k];
      const ay = E.fromRow[k] < 0 ? pa.y + HEADER / 2 : pa.y + headerHeight(pa) + E.fromRow[k] * ROW + ROW / 2;
      const by = E.toRow[k] < 0 ? pb.y + HEADER / 2 : pb.y + headerHeight(pb) + E.toRow[k] * ROW + ROW / 2;
      const ax = pa.x + W, bx = pb.x;
      const c = Math.max(40, Math.abs(bx - ax) * 0.5);
      if (Math.max(ax, bx) + c < x0 || Math.min(ax, bx) - c > x1 || Math.max(ay, by) < y0 || Math.min(ay, by) > y1) continue;
      const style = kind === EDGE_SOURCE ? "s" + E.color[k] : "k" + kind;
      if (sel.size && (sel.has(pa.id) || sel.has(pb.id))) hot.push(k);
      if (!simple && E.expr && E.expr[k] >= 0) badges.push((ax + bx) / 2, (ay + by) / 2);
      let path = batches.get(style);
      if (!path) batches.set(style, (path = newPath(ctx)));
      path.moveTo(ax, ay);
      if (simple) path.lineTo(bx, by);
      else path.bezierCurveTo(ax + c, ay, bx - c, by, bx, by);
    }
    const w = Math.max(1.5, 1.2 / z);
    for (const [style, path] of batches) {
      this.edgeStyle(style, w, z);
      ctx.stroke(path);
    }
    ctx.setLineDash([]);
    // Links of the selection stand out over the rest.
    if (hot.length && hot.length < 2000) {
      for (const k of hot) {
        const [ax, ay] = this.endpoint(E.from[k], E.fromRow[k], true);
        const [bx, by] = this.endpoint(E.to[k], E.toRow[k], false);
        const c = Math.max(40, Math.abs(bx - ax) * 0.5);
        const style = E.kind[k] === EDGE_SOURCE ? "s" + E.color[k] : "k" + E.kind[k];
        this.edgeStyle(style, w * 2, z);
        ctx.beginPath();
        ctx.moveTo(ax, ay);
        if (simple) ctx.lineTo(bx, by);
        else ctx.bezierCurveTo(ax + c, ay, bx - c, by, bx, by);
        ctx.stroke();
      }
      ctx.setLineDash([]);
    }
    if (badges.length) this.drawExprBadges(badges);
  }

  // The "ƒ" badges of links through an expression, centred at the points given (x, y pairs).
  drawExprBadges(P) {
    const ctx = this.ctx, r = EXPR_BADGE_R;
    ctx.save();
    const discs = newPath(ctx);
    for (let k = 0; k < P.length; k += 2) {
      discs.moveTo(P[k] + r, P[k + 1]);
      discs.arc(P[k], P[k + 1], r, 0, 2 * Math.PI);
    }
    ctx.fillStyle = LINK_COLOR.expression;
    ctx.fill(discs);
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = BG;
    ctx.stroke(discs);
    ctx.fillStyle = BG;
    ctx.font = FONT_EXPR_BADGE;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (let k = 0; k < P.length; k += 2) ctx.fillText("ƒ", P[k], P[k + 1] + 0.5);
    ctx.restore();
  }

  // Links that lead nowhere (a child to no node, an input reading an output its node lacks):
  // a short dashed stub off the plug, ending in a crossed ring, in the warning colour, so
  // they are not mistaken for a link to some node.
  drawStubs(S, x0, y0, x1, y1, z) {
    const ctx = this.ctx, nodes = this.ed.doc.nodes;
    const len = STUB_LENGTH, r = 6;
    const path = newPath(ctx), marks = newPath(ctx);
    for (let k = 0; k < S.count; k++) {
      const n = nodes[S.node[k]];
      const right = S.kind[k] === EDGE_CHILD;
      const ax = right ? n.x + NODE_WIDTH : n.x, y = rowY(n, S.row[k]);
      const bx = right ? ax + len : ax - len;
      if (Math.max(ax, bx) + r < x0 || Math.min(ax, bx) - r > x1 || y + r < y0 || y - r > y1) continue;
      path.moveTo(ax, y);
      path.lineTo(right ? bx - r : bx + r, y);
      marks.moveTo(bx + r, y);
      marks.arc(bx, y, r, 0, 2 * Math.PI);
      const d = r * 0.7;
      marks.moveTo(bx - d, y - d); marks.lineTo(bx + d, y + d);
      marks.moveTo(bx - d, y + d); marks.lineTo(bx + d, y - d);
    }
    ctx.strokeStyle = WARN_COLOR;
    ctx.lineWidth = Math.max(1.5, 1.2 / z);
    ctx.setLineDash(z >= LOD_BOX ? [4, 3] : []);
    ctx.stroke(path);
    ctx.setLineDash([]);
    ctx.stroke(marks);
  }

  edgeStyle(style, w, z) {
    const ctx = this.ctx;
    ctx.lineWidth = w;
    if (style[0] === "s") {
      ctx.strokeStyle = EDGE_COLORS[+style.slice(1)];
      ctx.setLineDash([]);
      return;
    }
    const kind = +style.slice(1);
    if (kind === EDGE_CHILD) {
      ctx.strokeStyle = LINK_COLOR.child;
      ctx.setLineDash([]);
    } else if (kind === EDGE_JUMP) {
      ctx.strokeStyle = LINK_COLOR.jump;
      ctx.setLineDash(z >= LOD_BOX ? [8, 5] : []);
    } else if (kind === EDGE_QUERY) {
      ctx.strokeStyle = LINK_COLOR.query;
      ctx.setLineDash(z >= LOD_BOX ? [3, 4] : []);
    }
  }

  // Dots are written as pixels (pixels.js), each at least a couple of pixels so every node
  // stays visible, later nodes over earlier ones.
  drawDots(vis, z) {
    const ctx = this.ctx, boxes = this.ed.grid.boxes, nodes = this.ed.doc.nodes;
    const P = this.pixelLayer(ctx), R = P.rects;
    const t = ctx.getTransform(), s = t.a, ox = t.e, oy = t.f;
    const min = 2.5 * this.dpr;
    // The nodes' colours, kept until the document changes: thousands of headerColor calls
    // cost more than the dots' pixels.
    let C = this.dotColours;
    if (!C || C.version !== this.version || C.rgb.length !== nodes.length) C = this.dotColours = { version: this.version, rgb: new Int32Array(nodes.length).fill(-1) };
    const rgb = C.rgb;
    for (let k = 0; k < vis.length; k++) {
      const i = vis[k], b = boxes[i];
      let c = rgb[i];
      if (c < 0) c = rgb[i] = lightRGB(headerColor(nodes[i]));
      const x0 = b[0] * s + ox, y0 = b[1] * s + oy;
      R.rect(x0, y0, x0 + Math.max((b[2] - b[0]) * s, min), y0 + Math.max((b[3] - b[1]) * s, min), c);
    }
    this.putLayer(ctx, P);
    this.outlineMarked(vis, 2 / z, true);
  }

  // The pixel layer for ctx's canvas size: its rectangles and the canvas they are put
  // through onto ctx. Two are kept, for the frame and the scene cache.
  pixelLayer(ctx) {
    const w = ctx.canvas.width, h = ctx.canvas.height;
    let P = this.layers.find((l) => l.w === w && l.h === h);
    if (!P) {
      const canvas = document.createElement("canvas");
      canvas.width = w;
      canvas.height = h;
      const rects = new PixelRects(w, h);
      P = { w, h, rects, canvas, ctx: canvas.getContext("2d"), image: new ImageData(rects.data, w, h) };
      this.layers = [P, ...this.layers.slice(0, 1)];
    }
    return P;
  }

  // Draws what the layer holds over ctx, pixel for pixel, and empties the layer.
  putLayer(ctx, P) {
    const d = P.rects.dirty();
    if (!d) return;
    P.ctx.putImageData(P.image, 0, 0, d[0], d[1], d[2], d[3]);
    const t = ctx.getTransform();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(P.canvas, d[0], d[1], d[2], d[3], d[0], d[1], d[2], d[3]);
    ctx.setTransform(t);
    P.rects.clear();
  }

  drawBoxes(vis) {
    const ctx = this.ctx, boxes = this.ed.grid.boxes, nodes = this.ed.doc.nodes;
    ctx.fillStyle = BODY;
    for (const i of vis) {
      const b = boxes[i];
      ctx.fillRect(b[0], b[1], b[2] - b[0], b[3] - b[1]);
    }
    for (const [col, ids] of groupByColour(vis, (i) => headerColor(nodes[i]))) {
      ctx.fillStyle = col;
      for (let k = 0; k < ids.length; k++) {
        const b = boxes[ids[k]];
        ctx.fillRect(b[0], b[1], b[2] - b[0], headerHeight(nodes[ids[k]]));
      }
    }
    this.outlineMarked(vis, 2.5 / this.ed.view.zoom, false);
  }

  outlineMarked(vis, w, dots) {
    const ctx = this.ctx, boxes = this.ed.grid.boxes, nodes = this.ed.doc.nodes, ed = this.ed;
    ctx.lineWidth = w;
    const hits = ed.search.hitSet;
    if (hits && hits.size) {
      ctx.strokeStyle = HIT;
      ctx.beginPath();
      for (const i of vis) if (hits.has(nodes[i].id)) rectOf(ctx, boxes[i], dots ? w : 0);
      ctx.stroke();
    }
    if (ed.selection.size) {
      ctx.strokeStyle = SELECT;
      ctx.beginPath();
      for (const id of ed.selection) {
        const i = ed.indexOf(id);
        if (i >= 0 && boxes[i]) rectOf(ctx, boxes[i], dots ? w * 2 : 0);
      }
      ctx.stroke();
    }
  }

  // Rows of a node with their text fitted to the box, kept until the node changes.
  prepared(i) {
    let r = this.rowCache.get(i);
    if (r) return r;
    const ed = this.ed, doc = ed.doc, n = doc.nodes[i];
    const m = this.measure;
    m.font = FONT_TITLE;
    const badges = [];
    if (n.residentInit) badges.push(["root", "#6b7a99"]);
    if (n.query) badges.push(["query", LINK_COLOR.query]);
    if (n.moduleCaller) badges.push(["module", "#e0a050"]);
    if (n.attachments && n.attachments.length) badges.push([`att ${n.attachments.length}`, "#8d93a0"]);
    if (n.queries && n.queries.length) badges.push([`Q${n.queries.length}`, LINK_COLOR.query]);
    const badgeW = badges.length * 4 + badges.reduce((s, b) => s + b[0].length * 6.5 + 8, 0);
    const label = "#" + n.id;
    const idxW = m.measureText(label).width;
    // The id stands clear of the new-child handle on the header's right end.
    const pad = takesChildren(n) ? 15 : 8;
    // The whole title, wrapped into the lines the header has for it (metrics.headerHeight);
    // only what the lines cannot hold is cut, and the tooltip has it whole.
    const hh = headerHeight(n);
    const titles = wrapTitle(m, nodeClass(n), NODE_WIDTH - 9 - pad - idxW - 8 - badgeW, NODE_WIDTH - 18, 1 + Math.round((hh - HEADER) / TITLE_LINE));
    m.font = FONT_ROW;
    const rows = nodeRows(doc, n).map((row) => prepareRow(m, doc, n, row));
    r = { title: titles[0], titles, hh, label, idxW, pad, rows, badges };
    this.rowCache.set(i, r);
    return r;
  }

  // Full nodes. A node on top of another hides all of it, text included, so where nodes
  // overlap each is drawn whole before the next, in document order (drawNodesInOrder).
  // Nodes apart from one another share no pixel, and the order between them changes
  // nothing: then each part is drawn for all of them at once, in the order a node draws its
  // parts (bodies, headers, borders, titles, badges, handles, stripes, row texts, plugs,
  // marks), one path per colour, so a frame of a hundred nodes fills and strokes a few
  // paths instead of a thousand.
  drawFull(vis) {
    if (this.overlapping(vis)) {
      this.drawNodesInOrder(vis);
      return;
    }
    const ctx = this.ctx, ed = this.ed, pos = ed.doc.nodes, boxes = ed.grid.boxes;
    const hits = ed.search.hitSet, current = ed.search.current, hv = ed.hover;
    const pw = NODE_WIDTH;
    // What to draw, by colour: node indices, or flat runs of coordinates and texts.
    const headers = new Map(), borders = new Map(), badgeTexts = new Map(), lefts = new Map(), rights = new Map();
    const plugFills = new Map(), plugStrokes = new Map(), marks = new Map();
    const titles = [], ids = [], badges = [], handles = [], stripes = [];
    const group = (m, k) => {
      let a = m.get(k);
      if (!a) m.set(k, (a = []));
      return a;
    };
    ctx.fillStyle = BODY;
    for (const i of vis) {
      const e = pos[i], b = boxes[i];
      const px = b[0], py = b[1], ph = b[3] - b[1];
      ctx.beginPath();
      ctx.roundRect(px, py, pw, ph, 6);
      ctx.fill();
      group(headers, headerColor(e)).push(i);
      const sel = ed.selection.has(e.id);
      const col = sel ? SELECT : hits && hits.has(e.id) ? HIT : ed.problemNodes.has(e.id) ? "#ff5d5d" : BORDER;
      group(borders, sel || current === e.id ? "2.5|" + col : "1|" + col).push(i);
      const pr = this.prepared(i);
      for (let k = 0; k < pr.titles.length; k++) titles.push(pr.titles[k], px + 9, py + HEADER / 2 + k * TITLE_LINE);
      ids.push(pr.label, px + pw - pr.pad, py + HEADER / 2);
      let bx = px + pw - pr.pad - pr.idxW - 6;
      for (let k = pr.badges.length - 1; k >= 0; k--) {
        const [label, col] = pr.badges[k];
        const w = label.length * 6.5 + 8;
        bx -= w;
        badges.push(bx, py + 7, w);
        group(badgeTexts, col).push(label, bx + w / 2, py + 15.5);
        bx -= 4;
      }
      if (takesChildren(e)) handles.push(e, !!(hv && hv.node === e.id && hv.side === "branch"));
      const rows = pr.rows;
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r];
        const cy = py + pr.hh + r * ROW + ROW / 2;
        if (r % 2 === 1) stripes.push(px + 1, cy - ROW / 2);
        if (row.left) group(lefts, row.leftColor || MUTED).push(row.left, px + 12, cy);
        if (row.leftValue) group(lefts, row.leftValueColor).push(row.leftValue, px + 12 + row.leftW + 5, cy);
        if (row.right) group(rights, row.rightColor || MUTED).push(row.right, px + pw - 12, cy);
        if (row.inPlug) {
          const hot = hv && hv.node === e.id && hv.row === r && hv.side === "in" ? 1 : 0;
          group(plugFills, row.inFilled ? row.inPlug : BODY).push(px, cy, hot);
          group(plugStrokes, row.inPlug).push(px, cy, hot);
        }
        if (row.outPlug) {
          const hot = hv && hv.node === e.id && hv.row === r && hv.side === "out" ? 1 : 0;
          group(plugFills, row.outPlug).push(px + pw, cy, hot);
          group(plugStrokes, row.outPlug).push(px + pw, cy, hot);
        }
        if (row.mark) group(marks, row.mark).push(px + 4, cy - 3);
      }
    }
    for (const [col, ids] of headers) {
      ctx.fillStyle = col;
      for (const i of ids) {
        const b = boxes[i];
        ctx.beginPath();
        ctx.roundRect(b[0], b[1], pw, this.prepared(i).hh, [6, 6, 0, 0]);
        ctx.fill();
      }
    }
    for (const [style, ids] of borders) {
      const k = style.indexOf("|");
      ctx.lineWidth = +style.slice(0, k);
      ctx.strokeStyle = style.slice(k + 1);
      for (const i of ids) {
        const b = boxes[i];
        ctx.beginPath();
        ctx.roundRect(b[0], b[1], pw, b[3] - b[1], 6);
        ctx.stroke();
      }
    }
    ctx.textBaseline = "middle";
    ctx.font = FONT_TITLE;
    texts(ctx, "left", TEXT, titles);
    texts(ctx, "right", "rgba(255,255,255,0.45)", ids);
    if (badges.length) {
      ctx.fillStyle = "rgba(0,0,0,0.35)";
      ctx.beginPath();
      for (let k = 0; k < badges.length; k += 3) ctx.roundRect(badges[k], badges[k + 1], badges[k + 2], 16, 8);
      ctx.fill();
      ctx.font = FONT_BADGE;
      for (const [col, a] of badgeTexts) texts(ctx, "center", col, a);
    }
    if (handles.length) this.branchHandles(handles);
    if (stripes.length) {
      ctx.fillStyle = "rgba(255,255,255,0.025)";
      for (let k = 0; k < stripes.length; k += 2) ctx.fillRect(stripes[k], stripes[k + 1], pw - 2, ROW);
    }
    ctx.font = FONT_ROW;
    for (const [col, a] of lefts) texts(ctx, "left", col, a);
    for (const [col, a] of rights) texts(ctx, "right", col, a);
    plugCircles(ctx, plugFills, "fillStyle", "fill");
    ctx.lineWidth = 1.5;
    plugCircles(ctx, plugStrokes, "strokeStyle", "stroke");
    for (const [col, a] of marks) {
      ctx.fillStyle = col;
      for (let k = 0; k < a.length; k += 2) ctx.fillRect(a[k], a[k + 1], 3, 6);
    }
  }

  // Whether any two of the nodes come near enough to share a pixel: boxes widened by what
  // sticks out of them (plugs and the new-child handle on the sides, a selection's border).
  overlapping(vis) {
    const boxes = this.ed.grid.boxes, n = vis.length;
    const order = vis.slice().sort((a, b) => boxes[a][1] - boxes[b][1]);
    const X = 10, Y = 3;
    for (let k = 0; k < n; k++) {
      const a = boxes[order[k]];
      for (let j = k + 1; j < n; j++) {
        const b = boxes[order[j]];
        if (b[1] - Y >= a[3] + Y) break;
        if (b[0] - X < a[2] + X && a[0] - X < b[2] + X) return true;
      }
    }
    return false;
  }

  // The new-child handles of a drawFull, given as node and whether the pointer is on it:
  // branchHandle's circles and crosses, with the colours set once for all.
  branchHandles(h) {
    const ctx = this.ctx;
    for (const hot of [false, true]) {
      ctx.fillStyle = hot ? LINK_COLOR.child : BODY;
      for (let k = 0; k < h.length; k += 2) {
        if (h[k + 1] !== hot) continue;
        const [x, y] = branchPoint(h[k]);
        ctx.beginPath();
        ctx.arc(x, y, hot ? 7 : 5.5, 0, Math.PI * 2);
        ctx.fill();
      }
    }
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = LINK_COLOR.child;
    for (let k = 0; k < h.length; k += 2) {
      const [x, y] = branchPoint(h[k]);
      ctx.beginPath();
      ctx.arc(x, y, h[k + 1] ? 7 : 5.5, 0, Math.PI * 2);
      ctx.stroke();
    }
    for (const hot of [false, true]) {
      ctx.strokeStyle = hot ? BODY : LINK_COLOR.child;
      for (let k = 0; k < h.length; k += 2) {
        if (h[k + 1] !== hot) continue;
        const [x, y] = branchPoint(h[k]), a = (hot ? 7 : 5.5) - 2.5;
        ctx.beginPath();
        ctx.moveTo(x - a, y);
        ctx.lineTo(x + a, y);
        ctx.moveTo(x, y - a);
        ctx.lineTo(x, y + a);
        ctx.stroke();
      }
    }
  }

  // Full nodes, each drawn whole (body, then its text and plugs) before the next, in document
  // order: a node on top of another hides all of it, text included. The font is set only
  // when it changes.
  drawNodesInOrder(vis) {
    const ctx = this.ctx, ed = this.ed, pos = ed.doc.nodes, boxes = ed.grid.boxes;
    const hits = ed.search.hitSet;
    const current = ed.search.current;
    const hv = ed.hover;
    const pw = NODE_WIDTH;
    let font = "";
    const setFont = (f) => {
      if (font !== f) ctx.font = font = f;
    };
    ctx.textBaseline = "middle";
    for (const i of vis) {
      const e = pos[i], b = boxes[i];
      const px = b[0], py = b[1], ph = b[3] - b[1];
      const sel = ed.selection.has(e.id);
      ctx.fillStyle = BODY;
      ctx.beginPath();
      ctx.roundRect(px, py, pw, ph, 6);
      ctx.fill();
      const pr = this.prepared(i);
      ctx.fillStyle = headerColor(e);
      ctx.beginPath();
      ctx.roundRect(px, py, pw, pr.hh, [6, 6, 0, 0]);
      ctx.fill();
      ctx.lineWidth = sel ? 2.5 : 1;
      ctx.strokeStyle = sel ? SELECT : hits && hits.has(e.id) ? HIT : ed.problemNodes.has(e.id) ? "#ff5d5d" : BORDER;
      if (current === e.id && !sel) ctx.lineWidth = 2.5;
      ctx.beginPath();
      ctx.roundRect(px, py, pw, ph, 6);
      ctx.stroke();

      setFont(FONT_TITLE);
      ctx.fillStyle = TEXT;
      ctx.textAlign = "left";
      for (let k = 0; k < pr.titles.length; k++) ctx.fillText(pr.titles[k], px + 9, py + HEADER / 2 + k * TITLE_LINE);
      ctx.textAlign = "right";
      ctx.fillStyle = "rgba(255,255,255,0.45)";
      ctx.fillText(pr.label, px + pw - pr.pad, py + HEADER / 2);
      if (pr.badges.length) {
        setFont(FONT_BADGE);
        let bx = px + pw - pr.pad - pr.idxW - 6;
        for (let k = pr.badges.length - 1; k >= 0; k--) {
          const [label, col] = pr.badges[k];
          const w = label.length * 6.5 + 8;
          bx -= w;
          ctx.fillStyle = "rgba(0,0,0,0.35)";
          ctx.beginPath();
          ctx.roundRect(bx, py + 7, w, 16, 8);
          ctx.fill();
          ctx.fillStyle = col;
          ctx.textAlign = "center";
          ctx.fillText(label, bx + w / 2, py + 15.5);
          bx -= 4;
        }
      }
      if (takesChildren(e)) this.branchHandle(e, hv && hv.node === e.id && hv.side === "branch");
      const rows = pr.rows;
      if (rows.length) setFont(FONT_ROW);
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r];
        const cy = py + pr.hh + r * ROW + ROW / 2;
        if (r % 2 === 1) {
          ctx.fillStyle = "rgba(255,255,255,0.025)";
          ctx.fillRect(px + 1, cy - ROW / 2, pw - 2, ROW);
        }
        if (row.left) {
          ctx.textAlign = "left";
          ctx.fillStyle = row.leftColor || MUTED;
          ctx.fillText(row.left, px + 12, cy);
        }
        if (row.leftValue) {
          ctx.textAlign = "left";
          ctx.fillStyle = row.leftValueColor;
          ctx.fillText(row.leftValue, px + 12 + row.leftW + 5, cy);
        }
        if (row.right) {
          ctx.textAlign = "right";
          ctx.fillStyle = row.rightColor || MUTED;
          ctx.fillText(row.right, px + pw - 12, cy);
        }
        if (row.inPlug) this.plug(px, cy, row.inPlug, hv && hv.node === e.id && hv.row === r && hv.side === "in", row.inFilled);
        if (row.outPlug) this.plug(px + pw, cy, row.outPlug, hv && hv.node === e.id && hv.row === r && hv.side === "out", true);
        if (row.mark) {
          ctx.fillStyle = row.mark;
          ctx.fillRect(px + 4, cy - 3, 3, 6);
        }
      }
    }
  }

  // Titles below LOD_FULL, where the nodes' own text would be too small to read: drawn at
  // screen size over the node's top-left corner, cut to about the node's width on screen
  // (never under MIN_LABEL pixels). Labels never overlap one another: the current search
  // hit goes first, then the selection, then the commands' roots, then nodes by size (the
  // most rows first); a label whose place is taken is left out, so a crowd of small nodes
  // shows the labels of its biggest ones. width and height are the area drawn on, in CSS
  // pixels. Returns the labels drawn: x, y, width, node, whether it is the hit, text.
  drawLabels(vis, z, width, height) {
    const ed = this.ed, ctx = this.ctx, v = ed.view, nodes = ed.doc.nodes, boxes = ed.grid.boxes;
    if (!vis.length) return [];
    const L = this.labelState(nodes);
    if (L.grid !== ed.grid.version) {
      // The nodes' corners, in arrays: a frame over thousands of nodes reads them in order of
      // importance, which is no order in memory.
      for (let i = 0; i < L.n; i++) {
        const b = boxes[i];
        L.x[i] = b ? b[0] : NaN;
        L.y[i] = b ? b[1] : NaN;
      }
      L.grid = ed.grid.version;
    }
    // Which nodes are on screen, by a stamp per frame.
    const stamp = ++L.frame;
    for (const i of vis) L.seen[i] = stamp;
    // Cells of LABEL_CELL pixels taken by labels already placed.
    const cw = Math.ceil(width / LABEL_CELL) + 1, ch = Math.ceil(height / LABEL_CELL) + 1;
    if (!L.taken || L.taken.length < cw * ch) L.taken = new Uint8Array(cw * ch);
    const taken = L.taken;
    taken.fill(0, 0, cw * ch);
    const ox = width / 2 - v.x * z, oy = height / 2 - v.y * z;
    const room = Math.min(MAX_LABEL, Math.max(MIN_LABEL, NODE_WIDTH * z));
    const placed = [];
    const bx = L.x, by = L.y;
    const tryPlace = (i, hit) => {
      if (L.seen[i] !== stamp || L.done[i] === stamp) return;
      L.done[i] = stamp;
      const sx = bx[i] * z + ox, sy = by[i] * z + oy;
      const x0 = Math.floor(sx / LABEL_CELL), y0 = Math.floor(sy / LABEL_CELL);
      // A label whose first cell is taken is left out before its text is looked at: in a
      // view of thousands of nodes, most are.
      if (!hit && x0 >= 0 && y0 >= 0 && x0 < cw && y0 < ch && taken[y0 * cw + x0]) return;
      const w = L.room[i] === room && L.text[i] !== undefined ? L.width[i] : this.labelText(L, nodes[i], i, room);
      const x1 = Math.floor((sx + w + 2 * LABEL_PAD) / LABEL_CELL), y1 = Math.floor((sy + LABEL_H) / LABEL_CELL);
      // And one whose last cell on the first row is taken.
      if (!hit && x1 >= 0 && x1 < cw && y0 >= 0 && y0 < ch && taken[y0 * cw + x1]) return;
      if (x1 < 0 || y1 < 0 || x0 >= cw || y0 >= ch) return;
      const cx0 = Math.max(0, x0), cy0 = Math.max(0, y0), cx1 = Math.min(cw - 1, x1), cy1 = Math.min(ch - 1, y1);
      if (!hit) {
        for (let cy = cy0; cy <= cy1; cy++) for (let cx = cx0; cx <= cx1; cx++) if (taken[cy * cw + cx]) return;
      }
      for (let cy = cy0; cy <= cy1; cy++) taken.fill(1, cy * cw + cx0, cy * cw + cx1 + 1);
      placed.push(sx, sy, w, i, hit ? 1 : 0, L.text[i]);
    };
    const cur = ed.search.current;
    if (cur !== undefined && cur !== null) {
      const i = ed.indexOf(cur);
      if (i >= 0) tryPlace(i, true);
    }
    for (const id of ed.selection) {
      const i = ed.indexOf(id);
      if (i >= 0) tryPlace(i, false);
    }
    // The nodes in view by importance: a view of a few hundred sorts them, one of most of the
    // graph goes down the whole order.
    const order = vis.length * 8 < L.n ? vis.slice().sort((a, b) => L.place[a] - L.place[b]) : L.order;
    for (let k = 0; k < order.length && placed.length < 6 * MAX_LABELS; k++) tryPlace(order[k], false);
    if (!placed.length) return placed;
    ctx.fillStyle = "rgba(14, 15, 18, 0.82)";
    ctx.beginPath();
    for (let k = 0; k < placed.length; k += 6) ctx.rect(placed[k], placed[k + 1], placed[k + 2] + 2 * LABEL_PAD, LABEL_H);
    ctx.fill();
    ctx.font = FONT_LABEL;
    ctx.textAlign = "left";
    ctx.textBaseline = "middle";
    ctx.fillStyle = TEXT;
    for (let k = 0; k < placed.length; k += 6) if (!placed[k + 4]) ctx.fillText(placed[k + 5], placed[k] + LABEL_PAD, placed[k + 1] + LABEL_H / 2);
    if (placed[4]) {
      ctx.strokeStyle = HIT;
      ctx.lineWidth = 1.5;
      ctx.strokeRect(placed[0] + 0.75, placed[1] + 0.75, placed[2] + 2 * LABEL_PAD - 1.5, LABEL_H - 1.5);
      ctx.fillStyle = HIT;
      ctx.fillText(placed[5], placed[0] + LABEL_PAD, placed[1] + LABEL_H / 2);
    }
    return placed;
  }

  // The tooltip for what a hit test found: a node's whole title at any zoom (the header
  // shows the class cut to the node's width, and labels below LOD_FULL are cut too), or,
  // over a row the node shows cut, that row's whole text. "" for none.
  tooltip(hit) {
    if (!hit || (hit.kind !== "node" && hit.kind !== "plug")) return "";
    const ed = this.ed, i = ed.indexOf(hit.node);
    if (i < 0) return "";
    const n = ed.doc.nodes[i];
    const title = `${nodeTitle(n)} #${n.id}`;
    if (hit.kind === "plug" && hit.side === "branch") return `New child of #${n.id}: drag to empty space for a new node, or onto a node to add that one; click to choose a class`;
    if (ed.view.zoom < LOD_FULL || hit.row < 0) return title;
    const row = this.prepared(i).rows[hit.row];
    return (row && row.tip) || title;
  }

  // What drawLabels keeps between frames, made again when the document changes: the order
  // of the nodes by importance, and each node's label cut for the room it had.
  labelState(nodes) {
    let L = this.labels;
    if (L && L.n === nodes.length) return L;
    const n = nodes.length;
    const rank = new Float64Array(n);
    for (let i = 0; i < n; i++) rank[i] = rowCount(nodes[i]) + 3 * ((nodes[i].children || []).length + (nodes[i].queries || []).length);
    for (const c of this.ed.doc.commands || []) {
      for (const id of [c.root, c.secondary]) {
        const i = this.ed.indexOf(id);
        if (i >= 0) rank[i] = Infinity;
      }
    }
    const order = Int32Array.from(nodes.keys()).sort((a, b) => rank[b] - rank[a] || a - b);
    const place = new Int32Array(n); // node -> its place in order
    for (let k = 0; k < n; k++) place[order[k]] = k;
    L = {
      n, order, place, seen: new Int32Array(n), done: new Int32Array(n), frame: 0, text: new Array(n), room: new Float64Array(n), width: new Float64Array(n), taken: null,
      x: new Float64Array(n), y: new Float64Array(n), grid: -1,
    };
    this.labels = L;
    return L;
  }

  // A node's label cut to room pixels, kept in L.text; returns its width. Widths come from a
  // table of character widths measured once, so a frame with thousands of labels measures no
  // text.
  labelText(L, n, i, room) {
    if (L.text[i] !== undefined && L.room[i] === room) return L.width[i];
    const full = nodeClass(n);
    let w = 0, k = 0;
    const ell = this.charWidth("…");
    for (; k < full.length; k++) {
      const c = this.charWidth(full[k]);
      if (w + c > room - (k < full.length - 1 ? ell : 0)) break;
      w += c;
    }
    let text = full;
    if (k < full.length) {
      text = full.slice(0, k) + "…";
      w += ell;
    }
    L.text[i] = text;
    L.room[i] = room;
    L.width[i] = w;
    return w;
  }

  charWidth(c) {
    let cw = this.charWidths || (this.charWidths = new Map());
    let w = cw.get(c);
    if (w === undefined) {
      this.measure.font = FONT_LABEL;
      w = this.measure.measureText(c).width;
      cw.set(c, w);
    }
    return w;
  }

  // The + on the right end of a node's header: drag it out for a new child (input.js).
  branchHandle(n, hot) {
    const ctx = this.ctx, [x, y] = branchPoint(n), r = hot ? 7 : 5.5, a = r - 2.5;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fillStyle = hot ? LINK_COLOR.child : BODY;
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = LINK_COLOR.child;
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(x - a, y);
    ctx.lineTo(x + a, y);
    ctx.moveTo(x, y - a);
    ctx.lineTo(x, y + a);
    ctx.strokeStyle = hot ? BODY : LINK_COLOR.child;
    ctx.stroke();
  }

  plug(x, y, color, hot, filled) {
    const ctx = this.ctx;
    ctx.beginPath();
    ctx.arc(x, y, hot ? 6 : 4.2, 0, Math.PI * 2);
    ctx.fillStyle = filled ? color : BODY;
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = color;
    ctx.stroke();
  }

  // The link being dragged out of a plug.
  // Compare mode (compare.js): a frame in its colour around each added or changed node, and
  // the nodes only the other file has as dashed ghosts where they are there, with their
  // titles. What it drew is kept for tests (compareDrawn: [id, colour, "node" or "ghost"]).
  drawCompare(vis, x0, y0, x1, y1, z) {
    const ed = this.ed, cmp = ed.compare.marks;
    this.compareDrawn = [];
    if (!cmp) return;
    const ctx = this.ctx, nodes = ed.doc.nodes, boxes = ed.grid.boxes, w = Math.max(3, 3 / z);
    ctx.lineWidth = w;
    for (const [op, col] of Object.entries(COMPARE_COLOR)) {
      if (op === "removed") continue;
      ctx.strokeStyle = col;
      ctx.beginPath();
      for (const i of vis) {
        if (cmp.status.get(nodes[i].id) !== op) continue;
        const b = boxes[i];
        ctx.rect(b[0] - w, b[1] - w, b[2] - b[0] + 2 * w, b[3] - b[1] + 2 * w);
        this.compareDrawn.push([nodes[i].id, col, "node"]);
      }
      ctx.stroke();
    }
    const col = COMPARE_COLOR.removed;
    ctx.setLineDash([8 / Math.min(z, 1), 5 / Math.min(z, 1)]);
    ctx.strokeStyle = col;
    ctx.fillStyle = "rgba(248, 81, 73, 0.12)";
    ctx.font = FONT_TITLE;
    ctx.textBaseline = "middle";
    ctx.textAlign = "left";
    for (const n of cmp.ghosts) {
      const h = nodeHeight(n);
      if (n.x > x1 || n.x + NODE_WIDTH < x0 || n.y > y1 || n.y + h < y0) continue;
      ctx.fillRect(n.x, n.y, NODE_WIDTH, h);
      ctx.strokeRect(n.x, n.y, NODE_WIDTH, h);
      this.compareDrawn.push([n.id, col, "ghost"]);
    }
    ctx.setLineDash([]);
    if (z >= LOD_BOX) {
      ctx.fillStyle = col;
      for (const n of cmp.ghosts) if (!(n.x > x1 || n.x + NODE_WIDTH < x0 || n.y > y1 || n.y + HEADER < y0)) ctx.fillText(`#${n.id} ${nodeClass(n)}`, n.x + 9, n.y + HEADER / 2, NODE_WIDTH - 18);
    }
  }

  drawInteraction(z) {
    const d = this.ed.connect;
    if (!d) return;
    const ctx = this.ctx;
    const [ax, ay] = d.start;
    const [bx, by] = d.end;
    ctx.lineWidth = 2.5 / Math.min(1, z);
    ctx.strokeStyle = d.refused ? "#ff5d5d" : d.color;
    ctx.setLineDash([6, 4]);
    ctx.beginPath();
    ctx.moveTo(ax, ay);
    const c = Math.max(40, Math.abs(bx - ax) * 0.5);
    const dir = d.fromOutput ? 1 : -1;
    ctx.bezierCurveTo(ax + c * dir, ay, bx - c * dir, by, bx, by);
    ctx.stroke();
    ctx.setLineDash([]);
  }

  drawMinimap() {
    const ed = this.ed, ctx = this.ctx, v = ed.view;
    if (!ed.showMinimap) {
      this.minimapRect = null;
      return;
    }
    const [gx0, gy0, gx1, gy1] = ed.grid.bounds;
    const gw = Math.max(1, gx1 - gx0), gh = Math.max(1, gy1 - gy0);
    const maxW = 190, maxH = 150;
    const s = Math.min(maxW / gw, maxH / gh);
    // The picture goes at whole device pixels and at its own size: a copy, where a place or
    // a size between pixels would filter it.
    const dpr = this.dpr;
    const mw = Math.ceil(Math.max(24, gw * s) * dpr) / dpr, mh = Math.ceil(Math.max(24, gh * s) * dpr) / dpr;
    const mx = Math.round((v.width - mw - 14) * dpr) / dpr, my = Math.round((v.height - mh - 14) * dpr) / dpr;
    this.minimapRect = { x: mx, y: my, w: mw, h: mh, s, gx0, gy0 };
    if (!this.minimap || this.minimap.width !== Math.round(mw * dpr) || this.minimap.height !== Math.round(mh * dpr)) this.minimap = this.renderMinimap(mw, mh, s, gx0, gy0);
    ctx.fillStyle = "rgba(12, 13, 16, 0.85)";
    ctx.fillRect(mx - 4, my - 4, mw + 8, mh + 8);
    ctx.drawImage(this.minimap, mx, my, mw, mh);
    const [x0, y0, x1, y1] = v.visible();
    const rx = mx + (x0 - gx0) * s, ry = my + (y0 - gy0) * s;
    // The view's outline, 1.5 pixels wide on the rectangle, cut to the minimap's panel: its
    // four sides as rectangles cut by hand, which is cheaper than a clip every frame.
    ctx.fillStyle = SELECT;
    const rw = Math.max(2, (x1 - x0) * s), rh = Math.max(2, (y1 - y0) * s), lw = 1.5, hl = lw / 2;
    const cx0 = mx - 4, cy0 = my - 4, cx1 = mx + mw + 4, cy1 = my + mh + 4;
    const side = (x, y, w, h) => {
      const a = Math.max(x, cx0), b = Math.max(y, cy0), c = Math.min(x + w, cx1), d = Math.min(y + h, cy1);
      if (c > a && d > b) ctx.fillRect(a, b, c - a, d - b);
    };
    side(rx - hl, ry - hl, rw + lw, lw);
    side(rx - hl, ry + rh - hl, rw + lw, lw);
    side(rx - hl, ry + hl, lw, rh - lw);
    side(rx + rw - hl, ry + hl, lw, rh - lw);
    ctx.strokeStyle = "#3a3e48";
    ctx.lineWidth = 1;
    ctx.strokeRect(mx - 4.5, my - 4.5, mw + 9, mh + 9);
  }

  renderMinimap(mw, mh, s, gx0, gy0) {
    const c = document.createElement("canvas");
    c.width = Math.round(mw * this.dpr);
    c.height = Math.round(mh * this.dpr);
    const ctx = c.getContext("2d");
    ctx.scale(this.dpr, this.dpr);
    const boxes = this.ed.grid.boxes, nodes = this.ed.doc.nodes;
    for (const [col, ids] of groupByColour(nodes.keys(), (i) => headerColor(nodes[i]))) {
      ctx.fillStyle = lighten(col);
      for (const i of ids) {
        const b = boxes[i];
        ctx.fillRect((b[0] - gx0) * s, (b[1] - gy0) * s, Math.max(1, (b[2] - b[0]) * s), Math.max(1, (b[3] - b[1]) * s));
      }
    }
    return c;
  }
}

// A path for batching into one fill or stroke: a Path2D on a canvas, or what the context
// makes when it must read the path back (the SVG export's context, svgcontext.js).
function newPath(ctx) {
  return ctx.newPath ? ctx.newPath() : new Path2D();
}

function ascending(a) {
  for (let k = 1; k < a.length; k++) if (a[k - 1] > a[k]) return false;
  return true;
}

// objectId numbers objects, so a key can say which object it saw.
const objectIds = new WeakMap();
let nextObjectId = 1;
function objectId(o) {
  if (!o || typeof o !== "object") return 0;
  let id = objectIds.get(o);
  if (!id) objectIds.set(o, (id = nextObjectId++));
  return id;
}

// setHash sums a set of numbers (node ids) by content, mixed so that sets of the same size
// and sum still differ: two different sets get the same hash by chance only.
function setHash(set) {
  if (!set) return "-";
  let a = 0, b = 0;
  for (const id of set) {
    let m = Math.imul((id | 0) ^ ((id | 0) >>> 16), 0x45d9f3b);
    m = Math.imul(m ^ (m >>> 16), 0x45d9f3b);
    a = (a + m) | 0;
    b = (b + Math.imul(m ^ (m >>> 13), 0x2c1b3c6d)) | 0;
  }
  return `${objectId(set)}.${set.size}.${a}.${b}`;
}

// groupByColour splits node indices by their colour, keeping their order within a colour,
// so that a canvas of thousands of nodes sets fillStyle once per colour, not per node. Each
// node is then one fillRect: Skia fills a rectangle faster than it scans a path of
// thousands of them (about 40 % less time for the 7,130 dots of the big file).
// plugCircles paints the plug circles of each colour, [x, y, big] triples, filled or stroked
// (style and paint name the context's property and method), one path a circle as a node
// drawn whole paints them, so the pixels are the same.
function plugCircles(ctx, groups, style, paint) {
  for (const [col, a] of groups) {
    ctx[style] = col;
    for (let k = 0; k < a.length; k += 3) {
      ctx.beginPath();
      ctx.arc(a[k], a[k + 1], a[k + 2] ? 6 : 4.2, 0, Math.PI * 2);
      ctx[paint]();
    }
  }
}

function groupByColour(ids, colourOf) {
  const groups = new Map();
  for (const i of ids) {
    const col = colourOf(i);
    let g = groups.get(col);
    if (!g) groups.set(col, (g = []));
    g.push(i);
  }
  return groups;
}

// Texts given as a flat run of text, x, y, in one alignment and colour.
function texts(ctx, align, col, a) {
  ctx.textAlign = align;
  ctx.fillStyle = col;
  for (let k = 0; k < a.length; k += 3) ctx.fillText(a[k], a[k + 1], a[k + 2]);
}

// b is a grid box [x0, y0, x1, y1].
function rectOf(ctx, b, pad) {
  ctx.rect(b[0] - pad, b[1] - pad, b[2] - b[0] + 2 * pad, b[3] - b[1] + 2 * pad);
}

// lighten's colour as 0xRRGGBB.
const lightRGBCache = new Map();
function lightRGB(hex) {
  let v = lightRGBCache.get(hex);
  if (v !== undefined) return v;
  const n = parseInt(hex.slice(1), 16);
  const f = (c) => Math.min(255, Math.round(c * 1.6 + 30));
  v = (f(n >> 16) << 16) | (f((n >> 8) & 255) << 8) | f(n & 255);
  lightRGBCache.set(hex, v);
  return v;
}

const lightCache = new Map();
function lighten(hex) {
  let v = lightCache.get(hex);
  if (v) return v;
  const n = parseInt(hex.slice(1), 16);
  const f = (c) => Math.min(255, Math.round(c * 1.6 + 30));
  v = `rgb(${f(n >> 16)}, ${f((n >> 8) & 255)}, ${f(n & 255)})`;
  lightCache.set(hex, v);
  return v;
}

// A title wrapped into at most maxLines lines, the first firstW wide (beside the id and
// badges), the others moreW. A line breaks after ".", "_", "/", "-" or a space, else before a
// capital that follows a small letter (class names are CamelCase joined by dots and
// underscores), when such a place keeps at least half the line; else where the width ends.
// When those breaks leave more than the lines hold, the lines are filled to their width
// instead: the whole title read across a break matters more than where the break is. What
// the last line still cannot hold is cut with "…".
export function wrapTitle(m, s, firstW, moreW, maxLines) {
  const nice = wrapLines(m, s, firstW, moreW, maxLines, true);
  if (!nice[nice.length - 1].endsWith("…") || s.endsWith("…")) return nice;
  return wrapLines(m, s, firstW, moreW, maxLines, false);
}

function wrapLines(m, s, firstW, moreW, maxLines, nice) {
  const out = [];
  let rest = s;
  while (rest && out.length < maxLines) {
    const w = out.length ? moreW : firstW;
    if (out.length === maxLines - 1 || m.measureText(rest).width <= w) {
      out.push(fit(m, rest, w));
      break;
    }
    // The longest prefix that fits, at least one character.
    let lo = 1, hi = rest.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (m.measureText(rest.slice(0, mid)).width <= w) lo = mid;
      else hi = mid - 1;
    }
    let cut = 0, camel = 0;
    for (let k = lo; nice && k >= Math.ceil(lo / 2) && !cut; k--) {
      const a = rest[k - 1], b = rest[k];
      if (".-_/ ".includes(a)) cut = k;
      else if (!camel && /[a-z0-9]/.test(a) && /[A-Z]/.test(b)) camel = k;
    }
    cut = cut || camel || lo;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  return out.length ? out : [""];
}

export function fit(m, s, maxW) {
  if (m.measureText(s).width <= maxW) return s;
  let lo = 0, hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (m.measureText(s.slice(0, mid) + "…").width <= maxW) lo = mid;
    else hi = mid - 1;
  }
  return s.slice(0, lo) + "…";
}

// What a row says: text on the left and right, plugs on the edges, and their colours.
function prepareRow(m, doc, n, row) {
  const out = {};
  const W = NODE_WIDTH;
  // Texts cut to fit are kept whole in out.tip, for the tooltip.
  const cut = [];
  const fitRow = (_, s, w) => {
    const r = fit(m, s, w);
    if (r !== s) cut.push(s);
    return r;
  };
  const sourceText = (item) => {
    const s = item.source;
    switch (sourceKind(s)) {
      case "expression": return [`ƒ${s.expression}`, LINK_COLOR.expression];
      case "blackboard": return [blackboardLabel(doc, s), LINK_COLOR.blackboard];
    }
    return [formatValue(item.type, item.value, item.className), TEXT];
  };
  switch (row.kind) {
    case "property": {
      const it = row.item;
      out.mark = TYPE_COLOR[it.type];
      const [val, col] = sourceText(it);
      out.left = fitRow(m, it.name, W * 0.5 - 14);
      out.right = fitRow(m, val, W - 24 - m.measureText(out.left).width - 10);
      out.rightColor = col;
      break;
    }
    case "io": {
      if (row.input) {
        const it = row.input.item;
        out.inPlug = TYPE_COLOR[it.type];
        const multi = it.sources;
        out.inFilled = multi ? multi.some((s) => sourceKind(s) === "node") : sourceKind(it.source) === "node";
        out.left = fitRow(m, it.name + (multi ? ` [${multi.length}]` : ""), row.output ? W * 0.5 - 18 : W * 0.45);
        out.leftW = m.measureText(out.left).width;
        out.leftColor = TEXT;
        if (!multi && out.inFilled && Number.isInteger(it.source.expression)) {
          // The linked output reaches the input through an expression: say which.
          const room = (row.output ? W * 0.5 : W - 12) - 12 - out.leftW - 8;
          if (room > 20) {
            out.leftValue = fitRow(m, `ƒ${it.source.expression}`, room);
            out.leftValueColor = LINK_COLOR.expression;
          }
        } else if (!multi && !out.inFilled) {
          const [val, col] = sourceText(it);
          const room = (row.output ? W * 0.5 : W - 12) - 12 - out.leftW - 8;
          if (room > 20) {
            out.leftValue = fitRow(m, val, room);
            out.leftValueColor = col === TEXT ? MUTED : col;
          }
        }
      }
      if (row.output) {
        const it = row.output.item;
        out.outPlug = TYPE_COLOR[it.type];
        out.right = fitRow(m, it.name, W * 0.5 - 18);
        out.rightColor = TEXT;
      }
      break;
    }
    case "child": {
      const c = row.child;
      out.outPlug = LINK_COLOR.child;
      const cond = conditionText(doc, n, c, row.isDefault);
      out.left = fitRow(m, c.name || "child", W * 0.45);
      out.leftColor = TEXT;
      if (cond) {
        out.right = fitRow(m, cond, W * 0.5 - 18);
        out.rightColor = "#f0c365";
      } else {
        out.right = c.node === null ? "→ no node" : `→ #${c.node}`;
        out.rightColor = MUTED;
      }
      break;
    }
    case "jump": {
      const j = row.jump;
      out.outPlug = LINK_COLOR.jump;
      out.left = fitRow(m, "jump" + (j.command ? " → " + j.command : ` type ${j.type ?? 0}`), W - 60);
      out.leftColor = LINK_COLOR.jump;
      out.right = `#${j.node}`;
      break;
    }
    case "attachment": {
      out.left = fitRow(m, "◆ " + (row.item ? row.item.name : `attachment ${row.ref}`), W - 60);
      out.right = `attachment ${row.ref}`;
      break;
    }
  }
  if (cut.length) out.tip = cut.join("\n");
  return out;
}

export { TYPE_LABEL };
