// Compare with… in the tree view: what changed from another version of a BYML or AAMP file
// (the old side: the game's original, say) to the working copy (the new side), found on the
// tree model's values (treemodel.js), so an edit made while comparing is compared again at
// once. No DOM: it runs under node (treediff.test.mjs).
//
// It matches as internal/byml and internal/aamp Diff do: hash members by key, array
// elements aligned by a Myers diff over subtree hashes (an inserted element is one change,
// the removed and inserted elements between two kept ones paired in order and compared
// inside), AAMP lists, objects and parameters by name and occurrence; a type that changed,
// or a hash keeping unsorted keys, is one change of the whole. Places are named as the
// tree's rows name them (/Actors/3/name, an AAMP name or its decimal hash), and every
// change says where it shows among the working copy's rows: the new node, or for a removed
// entry the container its ghost row goes in and before which entry.
//
// Subtrees compare by a 53-bit hash of their content (two 32-bit lanes) without comparing
// the values again: two different subtrees taken for equal would need a hash collision.

import { rootOf, typeOf, isContainer, nameOf, escapeKey, keyOrder, valueText } from "./treemodel.js";

// The list stops here (truncated): a subtree shared at many places changes at each.
export const MAX_CHANGES = 20000;
// Past this many inserted and removed elements, the middle of two arrays pairs by position
// (as internal/byml's maxEditDistance), keeping the alignment's work bounded.
const MAX_EDITS = 1000;
const MAX_DEPTH = 1024;

// ---- hashes

// A hasher caches each node's hash by node object: the old side's stay valid while
// comparing (it is never edited); for the working copy, forget(obj) drops what an edit of obj
// (a node, or a container's member array) changed: its hash and its containers' up to the
// top, so comparing again after an edit hashes the edited path alone. The two lanes are module state while one node is mixed (no arrays, no closures per node:
// a big file has hundreds of thousands of nodes).
let laneA = 0, laneB = 0;

function mixText(s) {
  let a = laneA, b = laneB;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  laneA = a;
  laneB = b;
}

function mixNumber(x) {
  const lo = x >>> 0, hi = (x / 0x100000000) >>> 0;
  laneA = Math.imul(laneA ^ lo, 0x01000193) ^ hi;
  laneB = Math.imul(laneB ^ hi, 0x5bd1e995) ^ lo;
  laneB ^= laneB >>> 13;
}

// Types are mixed as small numbers, numbers by their 64 bits (so -0 is not 0).
const typeIds = new Map();
const f64 = new Float64Array(1), u32 = new Uint32Array(f64.buffer);

function mixValue(v) {
  if (typeof v === "string") {
    mixNumber(v.length);
    mixText(v);
  } else if (typeof v === "number") {
    f64[0] = v;
    mixNumber(u32[0]);
    mixNumber(u32[1]);
  } else if (typeof v === "boolean") mixNumber(v ? 3 : 2);
  else if (Array.isArray(v) && v.every((x) => typeof x === "number")) {
    mixNumber(v.length);
    for (const x of v) mixValue(x);
  } else mixText(JSON.stringify(v) ?? "");
}

// editable: whether forget is wanted (the working copy's); the other side's hasher keeps no
// containers, a third of the work of hashing a big file.
export function hasher(kind, { editable = true } = {}) {
  const cache = new Map();
  // up: node or member array -> the container holding it (an array of them for a node
  // shared by several).
  const up = new Map();
  const link = (child, parent) => {
    if (!editable) return;
    const p = up.get(child);
    if (p === undefined) up.set(child, parent);
    else if (p !== parent) {
      if (!Array.isArray(p)) up.set(child, [p, parent]);
      else if (!p.includes(parent)) p.push(parent);
    }
  };
  const byml = kind === "byml";
  const hash = (n, depth) => {
    let h = cache.get(n);
    if (h !== undefined) return h;
    const t = typeOf(kind, n) || "";
    let id = typeIds.get(t);
    if (id === undefined) typeIds.set(t, (id = typeIds.size + 1));
    laneA = 0x811c9dc5;
    laneB = 0x2545f491;
    mixNumber(id);
    if (!isContainer(kind, n)) mixValue(n.value);
    else {
      if (n.unsorted) mixNumber(1);
      let a = laneA, b = laneB;
      // Each child's hash first (it uses the lanes), then mixed into this node's.
      const one = (c, key) => {
        link(c, n);
        const ch = depth < MAX_DEPTH ? hash(c, depth + 1) : 0;
        laneA = a;
        laneB = b;
        if (key !== null) mixValue(key);
        mixNumber(ch);
        a = laneA;
        b = laneB;
      };
      if (byml) {
        const v = n.value;
        if (editable) up.set(v, n);
        if (n.type === "array") for (let i = 0; i < v.length; i++) one(v[i], null);
        else for (let i = 0; i < v.length; i++) one(v[i][1], v[i][0]);
      } else if (n.params) {
        if (editable) up.set(n.params, n);
        for (const c of n.params) one(c, c.hash >>> 0);
      } else {
        if (editable) {
          up.set(n.objects, n);
          up.set(n.lists, n);
        }
        for (const c of n.objects) one(c, c.hash >>> 0);
        laneA = a;
        laneB = b;
        mixNumber(0x7e57); // objects end, lists begin
        a = laneA;
        b = laneB;
        for (const c of n.lists) one(c, c.hash >>> 0);
      }
      laneA = a;
      laneB = b;
    }
    h = (laneA >>> 0) * 0x200000 + (laneB >>> 11);
    cache.set(n, h);
    return h;
  };
  const h = (n) => hash(n, 0);
  // Drops the hashes an edit of obj changed; false when obj is nothing this hasher saw (the
  // document itself, say): then only a new hasher is right.
  h.forget = (obj) => {
    if (!cache.has(obj) && !up.has(obj)) return false;
    const stack = [obj], seen = new Set();
    while (stack.length) {
      const x = stack.pop();
      if (seen.has(x)) continue;
      seen.add(x);
      cache.delete(x);
      const p = up.get(x);
      if (Array.isArray(p)) stack.push(...p);
      else if (p !== undefined) stack.push(p);
    }
    return true;
  };
  return h;
}

// ---- the diff

// diffTrees answers {changes, marks, ghosts, counts, truncated}:
//   - changes, in the order of the rows: {op: "added" | "removed" | "changed", path, key,
//     old, new (the nodes on each side, null where absent), parent (the working copy's
//     container; null for the header), group and index (the new node's place, or where a
//     removed entry's ghost goes), chain (the working copy's containers from the first
//     level down, then the node or ghost)}; a header change (BYML version, byte order; AAMP
//     version, type) has header: its member's name.
//   - marks: working-copy node -> "added", "changed", or "inside" for a container holding
//     changes.
//   - ghosts: working-copy container -> [{node, key, group, before, change}] in row order.
// oldHash: hasher(kind) of the old side, kept between diffs of the same old document.
// newHash: the working copy's hasher, kept between diffs when every edit since was
// forgotten in it.
export function diffTrees(kind, oldDoc, newDoc, oldHash = hasher(kind), newHash = hasher(kind)) {
  const d = new Differ(kind, oldHash, newHash);
  const header = kind === "byml" ? ["version", "bigEndian"] : ["version", "type"];
  for (const k of header) {
    if (oldDoc[k] !== newDoc[k]) d.add({ op: "changed", path: k, key: k, header: k, old: oldDoc[k], new: newDoc[k], parent: null, chain: [] });
  }
  const a = rootOf(kind, oldDoc), b = rootOf(kind, newDoc);
  // The roots compared by hash first: nothing changed is one lookup once hashed, and the
  // root is then known to the hasher (an edit of its members is forgotten from it).
  if (a && b && !d.same(a, b)) {
    if (typeOf(kind, a) !== typeOf(kind, b) || a.unsorted || b.unsorted) {
      const top = kind === "byml" ? "root" : "param_root";
      d.add({ op: "changed", path: "/", key: top, header: top, old: a, new: b, parent: null, chain: [] });
    } else d.inside(a, b, "", [], 0);
  }
  return { changes: d.changes, marks: d.marks, ghosts: d.ghosts, counts: d.counts, truncated: d.truncated };
}

class Differ {
  constructor(kind, oldHash, newHash) {
    this.kind = kind;
    this.oldHash = oldHash;
    this.newHash = newHash;
    this.changes = [];
    this.marks = new Map();
    this.ghosts = new Map();
    this.counts = { added: 0, removed: 0, changed: 0 };
    this.truncated = false;
  }

  full() {
    if (this.changes.length < MAX_CHANGES) return false;
    this.truncated = true;
    return true;
  }

  add(c) {
    if (this.full()) return;
    this.changes.push(c);
    this.counts[c.op]++;
    if (c.op !== "removed" && c.new && c.parent) this.marks.set(c.new, c.op);
    for (const n of c.chain.slice(0, -1)) if (!this.marks.has(n)) this.marks.set(n, "inside");
    if (c.op === "removed") {
      if (!this.ghosts.has(c.parent)) this.ghosts.set(c.parent, []);
      this.ghosts.get(c.parent).push({ node: c.old, key: c.key, group: c.group, before: c.index, change: c });
    }
  }

  same(a, b) {
    return a === b || this.oldHash(a) === this.newHash(b);
  }

  // One place present on both sides: a the old node, b the new one at parent's group/index.
  place(a, b, path, chain, parent, group, index, key, depth) {
    if (this.full() || this.same(a, b)) return;
    const k = this.kind;
    const whole = typeOf(k, a) !== typeOf(k, b) || !isContainer(k, a) || a.unsorted || b.unsorted || depth >= MAX_DEPTH;
    if (whole) {
      this.add({ op: "changed", path, key, old: a, new: b, parent, group, index, chain: [...chain, b] });
      return;
    }
    this.inside(a, b, path, [...chain, b], depth + 1);
  }

  removed(a, path, key, chain, parent, group, before) {
    this.add({ op: "removed", path, key, old: a, new: null, parent, group, index: before, chain: [...chain, a] });
  }

  added(b, path, key, chain, parent, group, index) {
    this.add({ op: "added", path, key, old: null, new: b, parent, group, index, chain: [...chain, b] });
  }

  // Two containers of one type: their members. chain: the new containers down to b (the
  // root not among them).
  inside(a, b, path, chain, depth) {
    if (this.kind === "aamp") {
      if (b.params) this.members(a.params, b.params, "params", b, path, chain, depth);
      else {
        this.members(a.objects, b.objects, "objects", b, path, chain, depth);
        this.members(a.lists, b.lists, "lists", b, path, chain, depth);
      }
      return;
    }
    if (b.type === "array") return this.array(a.value, b.value, b, path, chain, depth);
    // Hash members in key order, both sides sorted.
    const cmp = keyOrder(b.type);
    const x = a.value, y = b.value;
    let i = 0, j = 0;
    while (i < x.length || j < y.length) {
      if (this.full()) return;
      const c = i === x.length ? 1 : j === y.length ? -1 : cmp(x[i][0], y[j][0]);
      if (c < 0) {
        this.removed(x[i][1], `${path}/${escapeKey(x[i][0])}`, x[i][0], chain, b, "value", j);
        i++;
      } else if (c > 0) {
        this.added(y[j][1], `${path}/${escapeKey(y[j][0])}`, y[j][0], chain, b, "value", j);
        j++;
      } else {
        this.place(x[i][1], y[j][1], `${path}/${escapeKey(y[j][0])}`, chain, b, "value", j, y[j][0], depth);
        i++;
        j++;
      }
    }
  }

  // Array items, aligned: the common head and tail, then the kept pairs of a Myers diff.
  array(x, y, b, path, chain, depth) {
    const hx = x.map((n) => this.oldHash(n)), hy = y.map((n) => this.newHash(n));
    let head = 0;
    while (head < x.length && head < y.length && hx[head] === hy[head]) head++;
    let tail = 0;
    while (tail < x.length - head && tail < y.length - head && hx[x.length - 1 - tail] === hy[y.length - 1 - tail]) tail++;
    const keep = myers(hx.slice(head, x.length - tail), hy.slice(head, y.length - tail), MAX_EDITS);
    let i = head, j = head;
    const gap = (ei, ej) => {
      for (; i < ei && j < ej; i++, j++) this.place(x[i], y[j], `${path}/${j}`, chain, b, "value", j, j, depth);
      // A removed item is named by its index in the old array, as internal/byml names it.
      for (; i < ei; i++) this.removed(x[i], `${path}/${i}`, i, chain, b, "value", j);
      for (; j < ej; j++) this.added(y[j], `${path}/${j}`, j, chain, b, "value", j);
    };
    for (const [ki, kj] of keep) {
      gap(head + ki, head + kj);
      i++;
      j++;
    }
    gap(x.length - tail, y.length - tail);
    // The tail (and a middle paired by position when the alignment gave up) compare inside.
    for (; i < x.length && j < y.length; i++, j++) this.place(x[i], y[j], `${path}/${j}`, chain, b, "value", j, j, depth);
    for (; i < x.length; i++) this.removed(x[i], `${path}/${i}`, i, chain, b, "value", j);
    for (; j < y.length; j++) this.added(y[j], `${path}/${j}`, j, chain, b, "value", j);
  }

  // AAMP members of one group, matched by name hash and occurrence, in the working copy's
  // order; a removed one's ghost goes after the member its predecessor became.
  members(x, y, group, b, path, chain, depth) {
    const nth = (list) => {
      const seen = new Map();
      return list.map((n) => {
        const h = n.hash >>> 0;
        seen.set(h, (seen.get(h) || 0) + 1);
        return `${h}#${seen.get(h)}`;
      });
    };
    const kx = nth(x), ky = nth(y);
    const at = new Map(ky.map((k, j) => [k, j]));
    const partner = kx.map((k) => at.get(k) ?? -1);
    const matched = new Set(partner.filter((j) => j >= 0));
    // Where each removed member's ghost goes: after its nearest matched predecessor.
    const ghostsBefore = new Map();
    let after = 0;
    x.forEach((n, i) => {
      if (partner[i] >= 0) after = partner[i] + 1;
      else {
        if (!ghostsBefore.has(after)) ghostsBefore.set(after, []);
        ghostsBefore.get(after).push(n);
      }
    });
    const partnerOf = new Map(partner.map((j, i) => [j, i]));
    for (let j = 0; j <= y.length; j++) {
      for (const n of ghostsBefore.get(j) || []) this.removed(n, `${path}/${escapeKey(nameOf(n))}`, nameOf(n), chain, b, group, j);
      if (j === y.length || this.full()) break;
      const n = y[j], key = nameOf(n), p = `${path}/${escapeKey(key)}`;
      if (!matched.has(j)) this.added(n, p, key, chain, b, group, j);
      else this.place(x[partnerOf.get(j)], n, p, chain, b, group, j, key, depth);
    }
  }
}

// myers returns the pairs [i, j] of a[i] === b[j] kept by a shortest edit script, in order,
// or none (pair by position) past max edits. Each step keeps its diagonal vector trimmed to
// the diagonals it reaches, so memory is O(D²) for D edits.
export function myers(a, b, max) {
  const n = a.length, m = b.length;
  if (!n || !m) return [];
  max = Math.min(max, n + m);
  const trace = [];
  let prev = [0];
  for (let d = 0; d <= max; d++) {
    const v = new Array(2 * d + 1);
    const get = (k) => prev[k + d - 1];
    for (let k = -d; k <= d; k += 2) {
      let x = d === 0 ? 0 : k === -d || (k !== d && get(k - 1) < get(k + 1)) ? get(k + 1) : get(k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[k + d] = x;
      if (x >= n && y >= m) {
        trace.push(v);
        return backtrack(trace, n, m);
      }
    }
    trace.push(v);
    prev = v;
  }
  return [];
}

function backtrack(trace, n, m) {
  const keep = [];
  let x = n, y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    if (d === 0) {
      while (x > 0 && y > 0) keep.push([--x, --y]);
      break;
    }
    const prev = trace[d - 1];
    const get = (k) => prev[k + d - 1];
    const k = x - y;
    const pk = k === -d || (k !== d && get(k - 1) < get(k + 1)) ? k + 1 : k - 1;
    const px = pk === k + 1 ? get(pk) : get(pk) + 1;
    const py = px - k;
    while (x > px && y > py) keep.push([--x, --y]);
    x = get(pk);
    y = x - pk;
  }
  return keep.reverse();
}

// ---- rows

// The rows with the ghosts of removed entries put where they were: each ghost row
// {node, key, depth, parent, group, index: -1, path, ghost: change} goes before the row of
// the entry it was before, or after its container's last entry. expanded: the view's
// expanded containers (a ghost's container shows its ghosts only when open); root: the
// working copy's root.
export function withGhosts(kind, rows, ghosts, expanded, root) {
  if (!ghosts.size) return rows;
  const out = [];
  const order = { objects: 0, lists: 1, params: 0, value: 0 };
  const pending = []; // open containers with ghosts left: {parent, depth, list, next}
  const flush = (p, upTo) => {
    while (p.next < p.list.length && (!upTo || upTo(p.list[p.next]))) {
      const g = p.list[p.next++];
      out.push({ node: g.node, key: g.key, depth: p.depth, parent: p.parent, group: g.group, index: -1, path: g.change.path, ghost: g.change });
    }
  };
  const open = (parent, depth) => {
    const list = ghosts.get(parent);
    if (list) pending.push({ parent, depth, list, next: 0 });
  };
  open(root, 0);
  for (const r of rows) {
    while (pending.length && pending[pending.length - 1].depth > r.depth) flush(pending.pop());
    const top = pending[pending.length - 1];
    if (top && top.parent === r.parent) {
      flush(top, (g) => order[g.group] < order[r.group] || (g.group === r.group && g.before <= r.index));
    }
    out.push(r);
    if (expanded.has(r.node) && isContainer(kind, r.node)) open(r.node, r.depth + 1);
  }
  while (pending.length) flush(pending.pop());
  return out;
}

// ---- text

// A node's value as the Changes list shows it: as its row does (a header member: itself).
export function changeText(kind, n) {
  if (n === null || n === undefined) return "";
  return typeof n === "object" ? valueText(kind, n) : String(n);
}

// One line of the Changes list: "~ /path: old -> new", "+ /path: new", "- /path: old".
export function changeLine(kind, c) {
  const where = c.header ? c.header : c.path;
  if (c.op === "added") return `+ ${where}: ${changeText(kind, c.new)}`;
  if (c.op === "removed") return `- ${where}: ${changeText(kind, c.old)}`;
  const ta = c.old && typeof c.old === "object" ? typeOf(kind, c.old) : "", tb = c.new && typeof c.new === "object" ? typeOf(kind, c.new) : "";
  const type = ta !== tb ? ` (${ta} -> ${tb})` : "";
  return `~ ${where}: ${changeText(kind, c.old)} -> ${changeText(kind, c.new)}${type}`;
}
