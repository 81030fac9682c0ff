// A uniform grid over node boxes: culling and hit testing touch only the cells in question,
// so the cost of a frame follows what is on screen, not the size of the file. Boxes come
// from the nodes' places and the metrics (metrics.js), never from what the renderer drew.
// Nodes are known here by their index in doc.nodes.

import { NODE_WIDTH, nodeHeight } from "./metrics.js";

export class Grid {
  constructor(cell = 512) {
    this.cell = cell;
    this.cells = new Map(); // "cx,cy" -> node indices
    this.boxes = []; // node -> [x0, y0, x1, y1]
    this.stamp = new Int32Array(0);
    this.query_ = 0;
    this.bounds = [0, 0, 0, 0];
    this.version = 0; // counts changes of the boxes, for caches of what was drawn
  }

  build(nodes) {
    this.version++;
    this.cells.clear();
    this.boxes = new Array(nodes.length);
    this.stamp = new Int32Array(nodes.length);
    for (let i = 0; i < nodes.length; i++) this.insert(i, nodes[i]);
    this.computeBounds();
  }

  computeBounds() {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const b of this.boxes) {
      if (!b) continue;
      if (b[0] < x0) x0 = b[0];
      if (b[1] < y0) y0 = b[1];
      if (b[2] > x1) x1 = b[2];
      if (b[3] > y1) y1 = b[3];
    }
    this.bounds = x0 === Infinity ? [0, 0, 0, 0] : [x0, y0, x1, y1];
  }

  insert(i, n) {
    this.version++;
    const b = [n.x, n.y, n.x + NODE_WIDTH, n.y + nodeHeight(n)];
    this.boxes[i] = b;
    this.eachCell(b, (key) => {
      let c = this.cells.get(key);
      if (!c) this.cells.set(key, (c = []));
      c.push(i);
    });
  }

  remove(i) {
    this.version++;
    const b = this.boxes[i];
    if (!b) return;
    this.eachCell(b, (key) => {
      const c = this.cells.get(key);
      const k = c ? c.indexOf(i) : -1;
      if (k >= 0) c.splice(k, 1);
    });
    this.boxes[i] = null;
  }

  update(i, n) {
    this.remove(i);
    this.insert(i, n);
    this.computeBounds();
  }

  eachCell(b, fn) {
    const s = this.cell;
    const cx0 = Math.floor(b[0] / s), cy0 = Math.floor(b[1] / s);
    const cx1 = Math.floor(b[2] / s), cy1 = Math.floor(b[3] / s);
    for (let cy = cy0; cy <= cy1; cy++) for (let cx = cx0; cx <= cx1; cx++) fn(cx + "," + cy);
  }

  // Calls fn(i) once for every node whose box meets the rectangle.
  query(x0, y0, x1, y1, fn) {
    const s = this.cell;
    const cx0 = Math.floor(x0 / s), cy0 = Math.floor(y0 / s);
    const cx1 = Math.floor(x1 / s), cy1 = Math.floor(y1 / s);
    const boxes = this.boxes;
    // A view over most of the graph is cheaper to scan than to walk cell by cell.
    if ((cx1 - cx0 + 1) * (cy1 - cy0 + 1) > this.cells.size) {
      for (let i = 0; i < boxes.length; i++) {
        const b = boxes[i];
        if (b && b[2] >= x0 && b[0] <= x1 && b[3] >= y0 && b[1] <= y1) fn(i);
      }
      return;
    }
    const q = ++this.query_;
    const stamp = this.stamp;
    for (let cy = cy0; cy <= cy1; cy++) {
      for (let cx = cx0; cx <= cx1; cx++) {
        const c = this.cells.get(cx + "," + cy);
        if (!c) continue;
        for (let k = 0; k < c.length; k++) {
          const i = c[k];
          if (stamp[i] === q) continue;
          stamp[i] = q;
          const b = boxes[i];
          if (b[2] >= x0 && b[0] <= x1 && b[3] >= y0 && b[1] <= y1) fn(i);
        }
      }
    }
  }

  // The topmost node under a world point, or -1. Later nodes draw on top.
  hit(x, y) {
    let best = -1;
    this.query(x, y, x, y, (i) => {
      if (i > best) best = i;
    });
    return best;
  }
}
