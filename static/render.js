// Drawing the graph on the canvas. Everything is drawn in world units under one transform;
// what is drawn depends on the zoom (full nodes, then plain boxes, then dots) and only what
// the view meets is drawn at all.

import {
  HEADER, ROW, PARAM_TYPES, TYPE_COLOR, LINK_COLOR, TYPE_LABEL,
  nodeRows, elementClass, headerColor, flagSource, bbLabel, formatValue, branchCondition,
  FLAG_QUERY, FLAG_MODULE_CALLER, FLAG_ROOT, EDGE_SOURCE, EDGE_CHILD, EDGE_JUMP, EDGE_QUERY,
} from "./model.js";

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
const EDGE_COLORS = PARAM_TYPES.map((t) => TYPE_COLOR[t]);

export class Renderer {
  constructor(editor, canvas) {
    this.ed = editor;
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d", { alpha: false });
    this.rowCache = new Map(); // node -> prepared rows with fitted text
    this.minimap = null; // cached picture of the whole graph
    this.minimapRect = null; // where the minimap sits on screen, for input
    this.measure = document.createElement("canvas").getContext("2d");
    this.lastFrameMs = 0;
    this.frames = 0;
  }

  invalidate() {
    this.rowCache.clear();
    this.minimap = null;
  }

  invalidateNode(i) {
    this.rowCache.delete(i);
    this.minimap = null;
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

  draw() {
    const t0 = performance.now();
    this.resize();
    const ctx = this.ctx, ed = this.ed, v = ed.view, dpr = this.dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = BG;
    ctx.fillRect(0, 0, v.width, v.height);
    if (!ed.doc) {
      this.lastFrameMs = performance.now() - t0;
      return;
    }
    const z = v.zoom;
    ctx.setTransform(dpr * z, 0, 0, dpr * z, dpr * (v.width / 2 - v.x * z), dpr * (v.height / 2 - v.y * z));
    const [x0, y0, x1, y1] = v.visible();
    if (z >= 0.6) this.drawGrid(x0, y0, x1, y1);
    const vis = [];
    ed.grid.query(x0 - 10, y0, x1 + 10, y1, (i) => vis.push(i));
    vis.sort((a, b) => a - b);
    this.visibleCount = vis.length;
    this.drawEdges(x0, y0, x1, y1, z);
    if (z >= LOD_FULL) this.drawFull(vis);
    else if (z >= LOD_BOX) this.drawBoxes(vis);
    else this.drawDots(vis, z);
    this.drawInteraction(z);
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

  drawGrid(x0, y0, x1, y1) {
    const ctx = this.ctx;
    const s = 40;
    ctx.fillStyle = "#1f2126";
    const gx0 = Math.floor(x0 / s) * s, gy0 = Math.floor(y0 / s) * s;
    ctx.beginPath();
    for (let y = gy0; y <= y1; y += s) for (let x = gx0; x <= x1; x += s) ctx.rect(x - 1, y - 1, 2, 2);
    ctx.fill();
  }

  // The world point where an edge leaves or enters a node.
  endpoint(i, row, right) {
    const p = this.ed.doc.positions[i];
    const y = row < 0 ? p.y + HEADER / 2 : p.y + HEADER + row * ROW + ROW / 2;
    return [right ? p.x + p.w : p.x, y];
  }

  drawEdges(x0, y0, x1, y1, z) {
    const ctx = this.ctx, E = this.ed.edges, pos = this.ed.doc.positions;
    if (!E || !E.count) return;
    const simple = z < LOD_BOX;
    const sel = this.ed.selection;
    // Edges are batched by style: one stroke per style instead of one per edge.
    const batches = new Map();
    const hot = [];
    for (let k = 0; k < E.count; k++) {
      const a = E.from[k], b = E.to[k];
      const pa = pos[a], pb = pos[b];
      const kind = E.kind[k];
      const ay = E.fromRow[k] < 0 ? pa.y + HEADER / 2 : pa.y + HEADER + E.fromRow[k] * ROW + ROW / 2;
      const by = E.toRow[k] < 0 ? pb.y + HEADER / 2 : pb.y + HEADER + E.toRow[k] * ROW + ROW / 2;
      const ax = pa.x + pa.w, bx = pb.x;
      const c = Math.max(40, Math.abs(bx - ax) * 0.5);
      if (Math.max(ax, bx) + c < x0 || Math.min(ax, bx) - c > x1 || Math.max(ay, by) < y0 || Math.min(ay, by) > y1) continue;
      const style = kind === EDGE_SOURCE ? "s" + E.color[k] : "k" + kind;
      if (sel.has(a) || sel.has(b)) hot.push(k);
      let path = batches.get(style);
      if (!path) batches.set(style, (path = new Path2D()));
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

  drawDots(vis, z) {
    const ctx = this.ctx, pos = this.ed.doc.positions, els = this.ed.doc.file.Elements;
    const min = 2.5 / z; // at least a couple of pixels, so every node stays visible
    fillByColour(ctx, vis, (i) => headerColor(els[i]), (path, i) => {
      const p = pos[i];
      path.rect(p.x, p.y, Math.max(p.w, min), Math.max(p.h, min));
    }, lighten);
    this.outlineMarked(vis, 2 / z, true);
  }

  drawBoxes(vis) {
    const ctx = this.ctx, pos = this.ed.doc.positions, els = this.ed.doc.file.Elements;
    ctx.fillStyle = BODY;
    ctx.beginPath();
    for (const i of vis) {
      const p = pos[i];
      ctx.rect(p.x, p.y, p.w, p.h);
    }
    ctx.fill();
    fillByColour(ctx, vis, (i) => headerColor(els[i]), (path, i) => {
      const p = pos[i];
      path.rect(p.x, p.y, p.w, HEADER);
    });
    this.outlineMarked(vis, 2.5 / this.ed.view.zoom, false);
  }

  outlineMarked(vis, w, dots) {
    const ctx = this.ctx, pos = this.ed.doc.positions, ed = this.ed;
    ctx.lineWidth = w;
    const hits = ed.search.hitSet;
    if (hits && hits.size) {
      ctx.strokeStyle = HIT;
      ctx.beginPath();
      for (const i of vis) if (hits.has(i)) rectOf(ctx, pos[i], dots ? w : 0);
      ctx.stroke();
    }
    if (ed.selection.size) {
      ctx.strokeStyle = SELECT;
      ctx.beginPath();
      for (const i of ed.selection) if (pos[i]) rectOf(ctx, pos[i], dots ? w * 2 : 0);
      ctx.stroke();
    }
  }

  // Rows of a node with their text fitted to the box, kept until the node changes.
  prepared(i) {
    let r = this.rowCache.get(i);
    if (r) return r;
    const ed = this.ed, file = ed.doc.file, e = file.Elements[i];
    const m = this.measure;
    m.font = FONT_TITLE;
    const badges = [];
    if (e.Flags & FLAG_ROOT) badges.push(["root", "#6b7a99"]);
    if (e.Flags & FLAG_QUERY) badges.push(["query", LINK_COLOR.query]);
    if (e.Flags & FLAG_MODULE_CALLER) badges.push(["module", "#e0a050"]);
    if (e.Attachments && e.Attachments.length) badges.push([`att ${e.Attachments.length}`, "#8d93a0"]);
    if (e.Queries && e.Queries.length) badges.push([`Q${e.Queries.length}`, LINK_COLOR.query]);
    const badgeW = badges.length * 4 + badges.reduce((s, b) => s + b[0].length * 6.5 + 8, 0);
    const idxW = m.measureText("#" + i).width;
    const title = fit(m, elementClass(e), 260 - 9 - 8 - idxW - 8 - badgeW);
    m.font = FONT_ROW;
    const rows = nodeRows(file, e).map((row) => prepareRow(m, file, e, row));
    r = { title, idxW, rows, badges, sub: e.Type !== 0 && e.Name ? fit(m, e.Name, 200) : "" };
    this.rowCache.set(i, r);
    return r;
  }

  drawFull(vis) {
    const ctx = this.ctx, ed = this.ed, pos = ed.doc.positions, els = ed.doc.file.Elements;
    const z = ed.view.zoom;
    const hits = ed.search.hitSet;
    const current = ed.search.current;
    for (const i of vis) {
      const p = pos[i], e = els[i];
      const sel = ed.selection.has(i);
      ctx.fillStyle = BODY;
      ctx.beginPath();
      ctx.roundRect(p.x, p.y, p.w, p.h, 6);
      ctx.fill();
      ctx.fillStyle = headerColor(e);
      ctx.beginPath();
      ctx.roundRect(p.x, p.y, p.w, HEADER, [6, 6, 0, 0]);
      ctx.fill();
      ctx.lineWidth = sel ? 2.5 : 1;
      ctx.strokeStyle = sel ? SELECT : hits && hits.has(i) ? HIT : ed.problemNodes.has(i) ? "#ff5d5d" : BORDER;
      if (current === i && !sel) ctx.lineWidth = 2.5;
      ctx.beginPath();
      ctx.roundRect(p.x, p.y, p.w, p.h, 6);
      ctx.stroke();
    }
    // Text in as few font switches as possible: titles, then rows.
    ctx.font = FONT_TITLE;
    ctx.textBaseline = "middle";
    for (const i of vis) {
      const p = pos[i], pr = this.prepared(i);
      ctx.fillStyle = TEXT;
      ctx.textAlign = "left";
      ctx.fillText(pr.title, p.x + 9, p.y + HEADER / 2);
      ctx.textAlign = "right";
      ctx.fillStyle = "rgba(255,255,255,0.45)";
      ctx.fillText("#" + i, p.x + p.w - 8, p.y + HEADER / 2);
    }
    ctx.font = "600 10px system-ui, sans-serif";
    for (const i of vis) {
      const p = pos[i], pr = this.prepared(i);
      if (!pr.badges.length) continue;
      let bx = p.x + p.w - 8 - pr.idxW - 6;
      for (let k = pr.badges.length - 1; k >= 0; k--) {
        const [label, col] = pr.badges[k];
        const w = label.length * 6.5 + 8;
        bx -= w;
        ctx.fillStyle = "rgba(0,0,0,0.35)";
        ctx.beginPath();
        ctx.roundRect(bx, p.y + 7, w, 16, 8);
        ctx.fill();
        ctx.fillStyle = col;
        ctx.textAlign = "center";
        ctx.fillText(label, bx + w / 2, p.y + 15.5);
        bx -= 4;
      }
    }
    ctx.font = FONT_ROW;
    const hv = ed.hover;
    for (const i of vis) {
      const p = pos[i], pr = this.prepared(i);
      const rows = pr.rows;
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r];
        const cy = p.y + HEADER + r * ROW + ROW / 2;
        if (r % 2 === 1) {
          ctx.fillStyle = "rgba(255,255,255,0.025)";
          ctx.fillRect(p.x + 1, cy - ROW / 2, p.w - 2, ROW);
        }
        if (row.left) {
          ctx.textAlign = "left";
          ctx.fillStyle = row.leftColor || MUTED;
          ctx.fillText(row.left, p.x + 12, cy);
        }
        if (row.leftValue) {
          ctx.textAlign = "left";
          ctx.fillStyle = row.leftValueColor;
          ctx.fillText(row.leftValue, p.x + 12 + row.leftW + 5, cy);
        }
        if (row.right) {
          ctx.textAlign = "right";
          ctx.fillStyle = row.rightColor || MUTED;
          ctx.fillText(row.right, p.x + p.w - 12, cy);
        }
        if (row.inPlug) this.plug(p.x, cy, row.inPlug, hv && hv.node === i && hv.row === r && hv.side === "in", row.inFilled);
        if (row.outPlug) this.plug(p.x + p.w, cy, row.outPlug, hv && hv.node === i && hv.row === r && hv.side === "out", true);
        if (row.mark) {
          ctx.fillStyle = row.mark;
          ctx.fillRect(p.x + 4, cy - 3, 3, 6);
        }
      }
    }
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
    const mw = Math.max(24, gw * s), mh = Math.max(24, gh * s);
    const mx = v.width - mw - 14, my = v.height - mh - 14;
    this.minimapRect = { x: mx, y: my, w: mw, h: mh, s, gx0, gy0 };
    if (!this.minimap || this.minimap.width !== Math.ceil(mw * this.dpr)) this.minimap = this.renderMinimap(mw, mh, s, gx0, gy0);
    ctx.fillStyle = "rgba(12, 13, 16, 0.85)";
    ctx.fillRect(mx - 4, my - 4, mw + 8, mh + 8);
    ctx.drawImage(this.minimap, mx, my, mw, mh);
    const [x0, y0, x1, y1] = v.visible();
    const rx = mx + (x0 - gx0) * s, ry = my + (y0 - gy0) * s;
    ctx.save();
    ctx.beginPath();
    ctx.rect(mx - 4, my - 4, mw + 8, mh + 8);
    ctx.clip();
    ctx.strokeStyle = SELECT;
    ctx.lineWidth = 1.5;
    ctx.strokeRect(rx, ry, Math.max(2, (x1 - x0) * s), Math.max(2, (y1 - y0) * s));
    ctx.restore();
    ctx.strokeStyle = "#3a3e48";
    ctx.lineWidth = 1;
    ctx.strokeRect(mx - 4.5, my - 4.5, mw + 9, mh + 9);
  }

  renderMinimap(mw, mh, s, gx0, gy0) {
    const c = document.createElement("canvas");
    c.width = Math.ceil(mw * this.dpr);
    c.height = Math.ceil(mh * this.dpr);
    const ctx = c.getContext("2d");
    ctx.scale(this.dpr, this.dpr);
    const pos = this.ed.doc.positions, els = this.ed.doc.file.Elements;
    fillByColour(ctx, pos.keys(), (i) => headerColor(els[i]), (path, i) => {
      const p = pos[i];
      path.rect((p.x - gx0) * s, (p.y - gy0) * s, Math.max(1, p.w * s), Math.max(1, p.h * s));
    }, lighten);
    return c;
  }
}

// fillByColour fills shapes for many nodes with one fill per colour: switching fillStyle per
// node is what makes a canvas of thousands of nodes slow. style maps a group's colour to its
// fill once per group, not once per node.
function fillByColour(ctx, ids, colourOf, addShape, style = (col) => col) {
  const groups = new Map();
  for (const i of ids) {
    const col = colourOf(i);
    let path = groups.get(col);
    if (!path) groups.set(col, (path = new Path2D()));
    addShape(path, i);
  }
  for (const [col, path] of groups) {
    ctx.fillStyle = style(col);
    ctx.fill(path);
  }
}

function rectOf(ctx, p, pad) {
  ctx.rect(p.x - pad, p.y - pad, p.w + 2 * pad, p.h + 2 * pad);
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
function prepareRow(m, file, e, row) {
  const out = {};
  const W = 260;
  const sourceText = (ptype, flags, value, className) => {
    const src = flagSource(flags);
    if (src.kind === "expr") return [`ƒ${src.index}`, LINK_COLOR.expr];
    if (src.kind === "bb") return [bbLabel(file, ptype, src), "#f59e5b"];
    return [formatValue(ptype, value, className), TEXT];
  };
  switch (row.kind) {
    case "prop": {
      const it = row.item;
      out.mark = TYPE_COLOR[row.type];
      const [val, col] = sourceText(row.type, it.Flags, it.Value, it.ClassName);
      out.left = fit(m, it.Name, W * 0.5 - 14);
      out.right = fit(m, val, W - 24 - m.measureText(out.left).width - 10);
      out.rightColor = col;
      break;
    }
    case "io": {
      if (row.input) {
        const it = row.input.item, t = row.input.type;
        out.inPlug = TYPE_COLOR[t];
        const multi = it.Sources;
        const src = multi ? null : it.Source;
        out.inFilled = multi ? multi.some((s) => s.Node >= 0) : src.Node >= 0;
        out.left = fit(m, it.Name + (multi ? ` [${multi.length}]` : ""), row.output ? W * 0.5 - 18 : W * 0.45);
        out.leftW = m.measureText(out.left).width;
        out.leftColor = TEXT;
        if (!multi && src.Node < 0) {
          const [val, col] = sourceText(t, src.Flags, it.Value, it.ClassName);
          const room = (row.output ? W * 0.5 : W - 12) - 12 - out.leftW - 8;
          if (room > 20) {
            out.leftValue = fit(m, val, room);
            out.leftValueColor = col === TEXT ? MUTED : col;
          }
        }
      }
      if (row.output) {
        const it = row.output.item;
        out.outPlug = TYPE_COLOR[row.output.type];
        out.right = fit(m, it.Name, W * 0.5 - 18);
        out.rightColor = TEXT;
      }
      break;
    }
    case "child": {
      const p = row.plug;
      out.outPlug = LINK_COLOR.child;
      const cond = branchCondition(file, e, p, row.isDefault);
      out.left = fit(m, cond ? `${p.Name}` : p.Name || "child", W * 0.45);
      out.leftColor = TEXT;
      if (cond) {
        out.right = fit(m, cond, W * 0.5 - 18);
        out.rightColor = "#f0c365";
      } else {
        out.right = `→ #${p.Node}`;
        out.rightColor = MUTED;
      }
      break;
    }
    case "jump": {
      const j = row.plug.Jump || {};
      out.outPlug = LINK_COLOR.jump;
      out.left = fit(m, "jump" + (j.Command ? " → " + j.Command : ` type ${j.Type ?? 0}`), W - 60);
      out.leftColor = LINK_COLOR.jump;
      out.right = `#${row.plug.Node}`;
      break;
    }
    case "att": {
      out.left = fit(m, "◆ " + (row.item ? row.item.Name : `attachment ${row.att}`), W - 60);
      out.right = `att ${row.att}`;
      break;
    }
  }
  return out;
}

export { TYPE_LABEL };
