// Where new nodes go: the nearest place to where they were asked for at which they overlap
// no node of the document. Adding, pasting and duplicating use it, so a new node never hides
// another one (or is hidden by it). No DOM, so it runs under node too.

import { NODE_WIDTH, nodeHeight, clampCoord } from "./metrics.js";
import { Grid } from "./spatial.js";

// GAP is the clear space kept around the new nodes, so that their borders and plugs do not
// touch a neighbour's.
export const GAP = 20;

// How many places are tried before giving up and putting the nodes below everything.
const MAX_TRIES = 1000;

// freeOffset returns [dx, dy], the smallest move (by distance, from a search over the
// edges of what is in the way) that takes the group of new nodes (each {x, y} plus its
// rows) to where its bounding box, with GAP around it, meets no node of nodes. The group is
// moved as a whole so its own arrangement stays. A group that is already clear gets [0, 0].
export function freeOffset(nodes, group) {
  if (!group.length || !nodes.length) return [0, 0];
  let gx0 = Infinity, gy0 = Infinity, gx1 = -Infinity, gy1 = -Infinity;
  for (const n of group) {
    const x = clampCoord(n.x), y = clampCoord(n.y);
    gx0 = Math.min(gx0, x);
    gy0 = Math.min(gy0, y);
    gx1 = Math.max(gx1, x + NODE_WIDTH);
    gy1 = Math.max(gy1, y + nodeHeight(n));
  }
  const w = gx1 - gx0, h = gy1 - gy0;
  const grid = new Grid();
  grid.build(nodes);
  const boxes = grid.boxes;
  // What is in the way of the box with its top-left corner at (x, y), GAP included.
  const blockers = (x, y) => {
    const out = [];
    grid.query(x - GAP, y - GAP, x + w + GAP, y + h + GAP, (i) => {
      const b = boxes[i];
      if (b[0] < x + w + GAP && x - GAP < b[2] && b[1] < y + h + GAP && y - GAP < b[3]) out.push(b);
    });
    return out;
  };
  // Best first by distance from where the group was asked for: each blocked place leads to
  // the places just past each of its blockers, on all four sides.
  const heap = new Heap();
  const seen = new Set();
  const push = (x, y) => {
    const key = x + "," + y;
    if (seen.has(key) || Math.abs(x) > 1e9 || Math.abs(y) > 1e9) return;
    seen.add(key);
    heap.push((x - gx0) ** 2 + (y - gy0) ** 2, x, y);
  };
  push(gx0, gy0);
  for (let tries = 0; tries < MAX_TRIES && heap.size; tries++) {
    const [x, y] = heap.pop();
    const bs = blockers(x, y);
    if (!bs.length) return [x - gx0, y - gy0];
    if (bs.length <= 16) {
      for (const b of bs) {
        push(b[2] + GAP, y);
        push(b[0] - GAP - w, y);
        push(x, b[3] + GAP);
        push(x, b[1] - GAP - h);
      }
      continue;
    }
    // A crowd in the way (a big group, a dense graph): past all of it at once, on each side.
    let l = Infinity, t = Infinity, r = -Infinity, btm = -Infinity;
    for (const b of bs) {
      l = Math.min(l, b[0]);
      t = Math.min(t, b[1]);
      r = Math.max(r, b[2]);
      btm = Math.max(btm, b[3]);
    }
    push(r + GAP, y);
    push(l - GAP - w, y);
    push(x, btm + GAP);
    push(x, t - GAP - h);
  }
  // Crowded beyond the search: below everything, where nothing can be.
  return [0, grid.bounds[3] + 4 * GAP - gy0];
}

// A binary min-heap of places by distance.
class Heap {
  constructor() {
    this.k = [];
    this.x = [];
    this.y = [];
  }

  get size() {
    return this.k.length;
  }

  push(k, x, y) {
    const K = this.k, X = this.x, Y = this.y;
    let i = K.length;
    K.push(k);
    X.push(x);
    Y.push(y);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (K[p] <= k) break;
      K[i] = K[p];
      X[i] = X[p];
      Y[i] = Y[p];
      i = p;
    }
    K[i] = k;
    X[i] = x;
    Y[i] = y;
  }

  pop() {
    const K = this.k, X = this.x, Y = this.y;
    const top = [X[0], Y[0]];
    const k = K.pop(), x = X.pop(), y = Y.pop();
    const n = K.length;
    if (n) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && K[c + 1] < K[c]) c++;
        if (K[c] >= k) break;
        K[i] = K[c];
        X[i] = X[c];
        Y[i] = Y[c];
        i = c;
      }
      K[i] = k;
      X[i] = x;
      Y[i] = y;
    }
    return top;
  }
}
