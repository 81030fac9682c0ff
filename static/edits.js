// Every change to the document goes through here: each edit is a transaction of primitive
// operations recorded in the history, so it can be undone exactly. Objects are edited in
// place; keys this module does not know about are never touched.

import { apply } from "./history.js";
import { clone } from "./jsonio.js";
import {
  PARAM_TYPES, BB_TYPES, BB_FOR_PARAM, TYPE_LABEL, list, nodeHeight, flagSource, elementTitle, isSelector,
} from "./model.js";

const SOURCE_BITS = 0xc2000000 | 0x0c000000 | 0xffff;
const USES_DEFAULT = 1 << 23;

// The blackboard type a selector's branch words refer to, by element type (S32 and F32
// selectors); see model.branchCondition.
const SELECTOR_BB = { 1: "S32", 4: "F32" };

// Plug lists that mirror the sources of inputs of a type.
const MIRROR = { Int: "Int", String: "String", Bool: "Generic", Float: "Generic" };

class Tx {
  constructor(label) {
    this.label = label;
    this.ops = [];
    this.geometry = false; // positions or sizes changed
    this.structure = false; // nodes, links or rows changed
  }

  set(obj, key, value) {
    const had = Object.prototype.hasOwnProperty.call(obj, key);
    if (had && Object.is(obj[key], value)) return;
    if (!had && value === undefined) return;
    const op = { op: "set", obj, key, value, had, old: obj[key] };
    apply(op);
    this.ops.push(op);
  }

  // Records a change that was already made (a drag moves nodes live).
  record(obj, key, old, value) {
    if (Object.is(old, value)) return;
    this.ops.push({ op: "set", obj, key, value, had: true, old });
  }

  splice(arr, index, del, ...inserted) {
    const op = { op: "splice", arr, index, removed: arr.slice(index, index + del), inserted };
    apply(op);
    this.ops.push(op);
  }

  // The object at obj[key], creating it when absent (documents omit empty groups).
  ensure(obj, key, init) {
    if (obj[key] === undefined || obj[key] === null) this.set(obj, key, init);
    return obj[key];
  }
}

// A float as the document holds it: the nearest f32, or for NaN and infinities the string of
// its bits, since JSON has no number for them.
export function toF32(x) {
  const f = Math.fround(x);
  if (Number.isFinite(f)) return f;
  const dv = new DataView(new ArrayBuffer(4));
  dv.setFloat32(0, f);
  const bits = Number.isNaN(f) ? 0x7fc00000 : dv.getUint32(0);
  return "0x" + bits.toString(16).padStart(8, "0");
}

// Reads what a user typed as a float: a number, inf, nan, or the bits as 0x7fc00000.
export function parseF32(text) {
  const s = String(text).trim().toLowerCase();
  if (/^[-+]?(inf|infinity)$/.test(s)) return s[0] === "-" ? -Infinity : Infinity;
  if (s === "nan") return NaN;
  if (/^0x[0-9a-f]{1,8}$/.test(s)) {
    const dv = new DataView(new ArrayBuffer(4));
    dv.setUint32(0, parseInt(s.slice(2), 16));
    return dv.getFloat32(0);
  }
  if (s === "" || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/.test(s)) return null;
  return Number(s);
}

// Reads an integer; null when the text is not one.
export function parseInt32(text) {
  const s = String(text).trim();
  if (!/^[-+]?\d+$/.test(s) && !/^0x[0-9a-f]+$/i.test(s)) return null;
  return Number(s);
}

export function toS32(x) {
  if (!Number.isFinite(x)) return 0;
  x = Math.trunc(x);
  return Math.min(2147483647, Math.max(-2147483648, x));
}

export function toU32(x) {
  if (!Number.isFinite(x)) return 0;
  return Math.min(4294967295, Math.max(0, Math.trunc(x)));
}

export function randomGUID() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export class Edits {
  constructor(editor) {
    this.ed = editor;
  }

  get file() {
    return this.ed.doc.file;
  }

  begin(label) {
    return new Tx(label);
  }

  commit(tx) {
    if (!tx.ops.length) return false;
    this.ed.history.push({ label: tx.label, ops: tx.ops, geometry: tx.geometry, structure: tx.structure });
    return true;
  }

  // Resolves a reference to a parameter: {node, group: "Properties"|"Inputs", type, index} or
  // {att, type, index} for an attachment's property.
  param(ref) {
    const owner = ref.att !== undefined ? this.file.Attachments[ref.att] : this.file.Elements[ref.node];
    const group = ref.att !== undefined ? "Properties" : ref.group;
    return list(owner && owner[group], ref.type)[ref.index] || null;
  }

  // Sets an immediate value, converting it to what the type can hold: f32 floats, s32 ints,
  // 0/1 bools, a three-float vector.
  setValue(ref, value, component) {
    const item = this.param(ref);
    if (!item) return false;
    const tx = this.begin(`Edit ${item.Name}`);
    const v = tx.ensure(item, "Value", {});
    switch (ref.type) {
      case "Int": tx.set(v, "Int", toS32(Number(value))); break;
      case "Bool": tx.set(v, "Int", value ? 1 : 0); break;
      case "Float": tx.set(v, "Float", toF32(value)); break;
      case "String": tx.set(v, "String", String(value)); break;
      case "Vector3F": {
        const old = v.Vec || [0, 0, 0];
        const vec = old.slice();
        if (component === undefined) for (let k = 0; k < 3; k++) vec[k] = toF32(value[k]);
        else vec[component] = toF32(value);
        if (vec.every((x, k) => Object.is(x, old[k]))) return false;
        tx.set(v, "Vec", vec);
        break;
      }
      default: return false;
    }
    return this.commit(tx);
  }

  // Changes where a property or input takes its value. src is {kind: "value"}, {kind: "node",
  // node, output}, {kind: "bb", index, comp} or {kind: "expr", index}. For a multi-source input,
  // ref.source picks the source.
  setSource(ref, src, label) {
    const item = this.param(ref);
    if (!item) return false;
    const tx = this.begin(label || `Source of ${item.Name}`);
    this.applySource(tx, ref, item, src);
    tx.structure = true;
    return this.commit(tx);
  }

  applySource(tx, ref, item, src) {
    const isInput = ref.group === "Inputs" && ref.att === undefined;
    let holder = item;
    if (isInput) {
      if (item.Sources && ref.source !== undefined) holder = item.Sources[ref.source];
      else holder = item.Source || tx.ensure(item, "Source", { Node: -1, Output: 0, Flags: 0 });
    }
    let flags = (holder.Flags >>> 0) & ~SOURCE_BITS;
    switch (src.kind) {
      case "bb": flags = (flags | 0x80000000 | ((src.comp & 3) << 26) | (src.index & 0xffff)); break;
      case "expr": flags = (flags | 0xc2000000 | (src.index & 0xffff)); break;
    }
    if (isInput) {
      flags = src.kind === "value" ? flags | USES_DEFAULT : flags & ~USES_DEFAULT;
      tx.set(holder, "Node", src.kind === "node" ? src.node : -1);
      tx.set(holder, "Output", src.kind === "node" ? src.output : 0);
      this.mirror(tx, ref, item, src.kind === "node" ? src.node : -1);
    }
    tx.set(holder, "Flags", flags >>> 0);
  }

  // Selectors and expressions keep a copy of an input's source node in a plug of the same
  // name; it must follow the input.
  mirror(tx, ref, item, node) {
    const kind = MIRROR[ref.type];
    if (!kind) return;
    const e = this.file.Elements[ref.node];
    for (const p of list(e.Plugs, kind)) if (p.Name === item.Name && !p.Jump) tx.set(p, "Node", node);
  }

  // Why an output cannot feed an input, or "" when it can.
  connectProblem(outNode, outType, inNode, inType) {
    const els = this.file.Elements;
    if (outNode === inNode) return "a node cannot feed its own input";
    if (!els[outNode] || !els[inNode]) return "no such node";
    if (outType !== inType) return `type mismatch: a ${TYPE_LABEL[outType]} output cannot feed a ${TYPE_LABEL[inType]} input`;
    return "";
  }

  // Makes the output the source of the input. Returns {ok, reason}.
  connect(outNode, outType, outIndex, inNode, inType, inIndex) {
    const reason = this.connectProblem(outNode, outType, inNode, inType);
    if (reason) return { ok: false, reason };
    const ref = { node: inNode, group: "Inputs", type: inType, index: inIndex };
    const item = this.param(ref);
    if (!item) return { ok: false, reason: "no such input" };
    const tx = this.begin(`Connect #${outNode} → ${item.Name}`);
    if (item.Sources) {
      // A multi-input gains a source rather than losing the ones it has.
      if (item.Sources.some((s) => s.Node === outNode && s.Output === outIndex)) return { ok: false, reason: "already connected" };
      tx.splice(item.Sources, item.Sources.length, 0, { Node: outNode, Output: outIndex, Flags: 0 });
    } else {
      if (item.Source && item.Source.Node === outNode && item.Source.Output === outIndex) return { ok: false, reason: "already connected" };
      this.applySource(tx, ref, item, { kind: "node", node: outNode, output: outIndex });
    }
    tx.structure = true;
    this.commit(tx);
    return { ok: true };
  }

  disconnect(inNode, inType, inIndex, source) {
    const ref = { node: inNode, group: "Inputs", type: inType, index: inIndex, source };
    const item = this.param(ref);
    if (!item) return false;
    if (item.Sources && source !== undefined) {
      const tx = this.begin(`Disconnect ${item.Name}`);
      tx.splice(item.Sources, source, 1);
      tx.structure = true;
      return this.commit(tx);
    }
    return this.setSource(ref, { kind: "value" }, `Disconnect ${item.Name}`);
  }

  // Sets any plain field (names, flags, jump commands) of an object of the document.
  setField(obj, key, value, label) {
    const tx = this.begin(label || `Edit ${key}`);
    tx.set(obj, key, value);
    tx.structure = true;
    return this.commit(tx);
  }

  // Records a move made live by a drag: moved is [[index, oldX, oldY]]. A dragged node is
  // pinned: the user chose its place, so Tidy (applyLayout) leaves it there unless asked to
  // lay out everything.
  moved(moved) {
    const tx = this.begin(moved.length === 1 ? `Move #${moved[0][0]}` : `Move ${moved.length} nodes`);
    const pos = this.ed.doc.positions;
    for (const [i, ox, oy] of moved) {
      const p = pos[i];
      tx.record(p, "x", ox, p.x);
      tx.record(p, "y", oy, p.y);
      if (tx.ops.length && !p.pinned) tx.set(p, "pinned", true);
    }
    tx.geometry = true;
    return this.commit(tx);
  }

  // Applies positions from the server's layout (see api.layout) as one undoable edit: every
  // box's x, y, w, h and pinned flag, so an undo puts each node back exactly, pins included.
  // A position without pinned: true clears the pin (a reset layout unpins everything).
  applyLayout(positions, label = "Tidy") {
    const pos = this.ed.doc.positions;
    if (!Array.isArray(positions) || positions.length !== pos.length) return false;
    const tx = this.begin(label);
    positions.forEach((q, i) => {
      const p = pos[i];
      for (const key of ["x", "y", "w", "h"]) if (Number.isFinite(q[key])) tx.set(p, key, q[key]);
      tx.set(p, "pinned", q.pinned ? true : undefined);
    });
    tx.geometry = true;
    return this.commit(tx);
  }

  // Points a child plug (a tree edge) at another node.
  setChild(node, k, target) {
    const e = this.file.Elements[node];
    const p = list(e.Plugs, "Child")[k];
    if (!p) return { ok: false, reason: "no such child plug" };
    if (target === node) return { ok: false, reason: "a node cannot be its own child" };
    if (!this.file.Elements[target]) return { ok: false, reason: "no such node" };
    const tx = this.begin(`Child ${p.Name} → #${target}`);
    tx.set(p, "Node", target);
    tx.structure = true;
    this.commit(tx);
    return { ok: true };
  }

  // Adds a child plug; selectors with a default branch keep it last.
  addChild(node, target, name) {
    const e = this.file.Elements[node];
    if (!this.file.Elements[target]) return { ok: false, reason: "no such node" };
    const tx = this.begin(`Add branch to #${node}`);
    const plugs = tx.ensure(e, "Plugs", {});
    const kids = tx.ensure(plugs, "Child", []);
    const hasDefault = e.Type === 1 || e.Type === 4 || e.Type === 5;
    const at = hasDefault && kids.length ? kids.length - 1 : kids.length;
    const plug = { Node: target, Name: name ?? String(at) };
    if (e.Type === 1) plug.Int = at;
    if (e.Type === 6) plug.Float = 1;
    tx.splice(kids, at, 0, plug);
    this.resize(tx, node);
    this.commit(tx);
    return { ok: true, index: at };
  }

  removeChild(node, k) {
    const e = this.file.Elements[node];
    const kids = list(e.Plugs, "Child");
    if (!kids[k]) return false;
    const tx = this.begin(`Remove branch ${kids[k].Name} of #${node}`);
    tx.splice(kids, k, 1);
    this.resize(tx, node);
    return this.commit(tx);
  }

  setPlugField(plug, key, value, label) {
    const tx = this.begin(label || `Edit branch ${plug.Name}`);
    tx.set(plug, key, value);
    tx.structure = true;
    return this.commit(tx);
  }

  // Keeps a node's box as tall as its rows after rows come or go.
  resize(tx, i) {
    const p = this.ed.doc.positions[i];
    if (p) tx.set(p, "h", nodeHeight(this.file.Elements[i]));
    tx.structure = true;
    tx.geometry = true;
  }

  // Appends element copies at the given top-left corners. Links among the copies follow the
  // copies. Copies that stay in their file keep their links to other nodes; copies from
  // another file (foreign, see Editor.copySelection) cannot, since those indices mean other
  // nodes here: see adopt.
  insertCopies(elements, positions, label, foreign = null) {
    const file = this.file, doc = this.ed.doc;
    const base = file.Elements.length;
    const remap = new Map();
    elements.forEach((src, k) => remap.set(src.__index ?? -1 - k, base + k));
    const tx = this.begin(label);
    const added = [];
    const attMap = new Map();
    elements.forEach((src, k) => {
      const e = clone(src);
      delete e.__index;
      e.GUID = randomGUID();
      if (foreign) this.adopt(tx, e, remap, foreign, attMap);
      forEachNodeRef(e, (obj, key) => {
        if (remap.has(obj[key])) obj[key] = remap.get(obj[key]);
      });
      if (e.Queries) e.Queries = e.Queries.map((q) => (remap.has(q) ? remap.get(q) : q)).filter((q) => q < base + elements.length);
      added.push(e);
    });
    for (const e of added) forEachNodeRef(e, (obj, key) => {
      if (obj[key] >= base + elements.length) obj[key] = -1;
    });
    tx.splice(file.Elements, base, 0, ...added);
    // Added, pasted and duplicated nodes are NOT pinned: they land wherever the cursor or
    // the view centre happens to be, often on top of other nodes, and Tidy is what puts them
    // in a proper place; a pin would make Tidy leave them there. Only dragging a node (see
    // moved) says the user chose its place.
    tx.splice(doc.positions, base, 0, ...positions.map((p, k) => ({ x: p.x, y: p.y, w: 260, h: nodeHeight(added[k]) })));
    tx.structure = true;
    tx.geometry = true;
    this.commit(tx);
    return added.map((_, k) => base + k);
  }

  // Fits a copy from another file into this one, before its links are renumbered (so remap
  // still holds the other file's indices): links to nodes that were not copied are cut,
  // its attachments are appended to this file's, blackboard references follow the parameter
  // of the same type and name and expression references the function of the same text,
  // or fall back to the value when this file has none. The copy is a new object, so only
  // the additions to the file go through tx.
  adopt(tx, e, remap, foreign, attMap) {
    const file = this.file;
    const copied = (n) => remap.has(n);
    const bbNames = foreign.blackboard || {}, fnTexts = foreign.functions || {};
    const retarget = (holder, ptype, isInput) => {
      const src = flagSource(holder.Flags);
      if (src.kind === "value") return;
      let idx = -1;
      if (src.kind === "bb") {
        const t = src.comp ? "Vec3f" : BB_FOR_PARAM[ptype];
        const name = (bbNames[t] || [])[src.index];
        if (name !== undefined) idx = list(file.Blackboard && file.Blackboard.Params, t).findIndex((p) => p.Name === name);
      } else {
        const text = fnTexts[src.index];
        if (text !== undefined) idx = (this.ed.doc.functions || []).findIndex((f) => f.text === text);
      }
      let f = holder.Flags >>> 0;
      if (idx >= 0) f = (f & ~0xffff) | idx;
      else f = isInput ? (f & ~SOURCE_BITS) | USES_DEFAULT : f & ~SOURCE_BITS;
      holder.Flags = f >>> 0;
    };
    for (const t of PARAM_TYPES) {
      for (const p of list(e.Properties, t)) retarget(p, t, false);
      for (const input of list(e.Inputs, t)) {
        if (input.Sources) {
          input.Sources = input.Sources.filter((s) => s.Node < 0 || copied(s.Node));
          for (const s of input.Sources) retarget(s, t, true);
        }
        const s = input.Source;
        if (!s) continue;
        if (s.Node >= 0 && !copied(s.Node)) {
          s.Node = -1;
          s.Output = 0;
          s.Flags = ((s.Flags >>> 0) | USES_DEFAULT) >>> 0;
        }
        retarget(s, t, true);
      }
    }
    for (const kind of Object.keys(e.Plugs || {})) {
      // A tree edge or jump needs a node; other plugs (mirrors of inputs) may point nowhere.
      const keep = kind !== "Child" && kind !== "Transition";
      e.Plugs[kind] = e.Plugs[kind].filter((p) => p.Node < 0 || copied(p.Node) || keep);
      for (const p of e.Plugs[kind]) if (p.Node >= 0 && !copied(p.Node)) p.Node = -1;
    }
    // Selector branches may compare with a blackboard parameter instead of their constant.
    const plugType = SELECTOR_BB[e.Type];
    if (plugType) {
      for (const p of list(e.Plugs, "Child")) {
        for (const key of ["Word", "MaxWord"]) {
          const w = (p[key] || 0) >>> 0;
          if (!(w >>> 31)) continue;
          const name = (bbNames[plugType] || [])[w & 0xffff];
          const idx = name === undefined ? -1 : list(file.Blackboard && file.Blackboard.Params, plugType).findIndex((q) => q.Name === name);
          p[key] = idx >= 0 ? ((w & ~0xffff) | idx) >>> 0 : 0;
        }
      }
    }
    if (e.Queries) e.Queries = e.Queries.filter(copied);
    if (e.Queries && !e.Queries.length) delete e.Queries;
    if (e.Attachments) {
      e.Attachments = e.Attachments.filter((a) => foreign.attachments && foreign.attachments[a]).map((a) => {
        if (!attMap.has(a)) {
          const att = clone(foreign.attachments[a]);
          for (const t of PARAM_TYPES) for (const p of list(att.Properties, t)) retarget(p, t, false);
          const all = tx.ensure(file, "Attachments", []);
          tx.splice(all, all.length, 0, att);
          attMap.set(a, all.length - 1);
        }
        return attMap.get(a);
      });
      if (!e.Attachments.length) delete e.Attachments;
    }
    // Only 0x404 files keep per-node state info.
    if (file.Version < 0x407 && !e.StateInfo) e.StateInfo = { DesiredState: "", Unknown: [0, 0, 0, 0] };
    if (file.Version >= 0x407) delete e.StateInfo;
  }

  duplicate(ids, dx = 40, dy = 40) {
    const pos = this.ed.doc.positions;
    const els = ids.map((i) => Object.assign(clone(this.file.Elements[i]), { __index: i }));
    return this.insertCopies(els, ids.map((i) => ({ x: pos[i].x + dx, y: pos[i].y + dy })), ids.length === 1 ? `Duplicate #${ids[0]}` : `Duplicate ${ids.length} nodes`);
  }

  addNode(template, x, y) {
    const e = clone(template);
    e.GUID = randomGUID();
    return this.insertCopies([e], [{ x, y }], `Add ${elementTitle(e)}`)[0];
  }

  // Deletes nodes, renumbering every reference to the nodes after them. References to a
  // deleted node go away: sources fall back to their value, tree edges and jumps are removed.
  deleteNodes(ids) {
    const file = this.file, doc = this.ed.doc;
    const dead = new Set(ids);
    for (const [k, c] of (file.Commands || []).entries()) {
      if (dead.has(c.Root) || dead.has(c.Secondary)) return { ok: false, reason: `node #${dead.has(c.Root) ? c.Root : c.Secondary} is a root of command ${k} (${c.Name}); give the command another root first` };
    }
    const n = file.Elements.length;
    const map = new Int32Array(n);
    let next = 0;
    for (let i = 0; i < n; i++) map[i] = dead.has(i) ? -1 : next++;
    const re = (v) => (v >= 0 && v < n ? map[v] : v);
    const tx = this.begin(ids.length === 1 ? `Delete #${ids[0]}` : `Delete ${ids.length} nodes`);
    for (const c of file.Commands || []) {
      tx.set(c, "Root", re(c.Root));
      if (c.Secondary >= 0) tx.set(c, "Secondary", re(c.Secondary));
    }
    file.Elements.forEach((e, i) => {
      if (dead.has(i)) return;
      for (const t of PARAM_TYPES) {
        list(e.Inputs, t).forEach((input, j) => {
          const fix = (s, k) => {
            if (!s || s.Node < 0) return;
            if (map[s.Node] >= 0) tx.set(s, "Node", map[s.Node]);
            else if (k === undefined) this.applySource(tx, { node: i, group: "Inputs", type: t, index: j }, input, { kind: "value" });
          };
          fix(input.Source);
          if (input.Sources) {
            for (let k = input.Sources.length - 1; k >= 0; k--) {
              const s = input.Sources[k];
              if (s.Node >= 0 && map[s.Node] < 0) tx.splice(input.Sources, k, 1);
              else fix(s, k);
            }
          }
        });
      }
      let rows = false;
      for (const kind of Object.keys(e.Plugs || {})) {
        const plugs = e.Plugs[kind];
        for (let k = plugs.length - 1; k >= 0; k--) {
          const p = plugs[k];
          if (p.Node < 0 || p.Node >= n) continue;
          if (map[p.Node] >= 0) tx.set(p, "Node", map[p.Node]);
          else if (kind === "Child" || kind === "Transition") {
            tx.splice(plugs, k, 1);
            rows = true;
          } else tx.set(p, "Node", -1);
        }
      }
      if (e.Queries && e.Queries.some((q) => dead.has(q) || map[q] !== q)) {
        tx.set(e, "Queries", e.Queries.filter((q) => !dead.has(q)).map(re));
      }
      if (rows) this.resize(tx, i);
    });
    const rep = file.Replacement && file.Replacement.Entries;
    if (rep) {
      for (let k = rep.length - 1; k >= 0; k--) {
        const r = rep[k];
        if (dead.has(r.Element)) tx.splice(rep, k, 1);
        else {
          tx.set(r, "Element", re(r.Element));
          if (r.New >= 0) tx.set(r, "New", re(r.New));
        }
      }
    }
    // Enum relocations (0x404 files) name the value they patch by node: they follow their
    // node, and go with it when it is deleted.
    const relocs = file.EnumRelocations;
    if (relocs) {
      for (let k = relocs.length - 1; k >= 0; k--) {
        const target = relocs[k].Target;
        if (!target || target.Element < 0) continue;
        if (dead.has(target.Element)) tx.splice(relocs, k, 1);
        else tx.set(target, "Element", re(target.Element));
      }
    }
    const sorted = [...dead].sort((a, b) => b - a);
    for (const i of sorted) {
      tx.splice(file.Elements, i, 1);
      tx.splice(doc.positions, i, 1);
    }
    tx.structure = true;
    tx.geometry = true;
    this.commit(tx);
    return { ok: true };
  }

  // Blackboard parameters. Removing one renumbers every flag word that refers to a later
  // parameter of the same type; values that used the removed one fall back to immediates.
  addBlackboard(type, name) {
    const tx = this.begin(`Add blackboard ${name}`);
    const bb = tx.ensure(this.file, "Blackboard", {});
    const params = tx.ensure(bb, "Params", {});
    const arr = tx.ensure(params, type, []);
    const p = { Name: name, Notes: "", Inherit: 2, File: "", Value: {} };
    tx.splice(arr, arr.length, 0, p);
    tx.structure = true;
    this.commit(tx);
    return arr.length - 1;
  }

  // Renames a parameter or sets its file reference or notes. Flag words refer to
  // parameters by index, so a rename needs no other change.
  setBlackboardField(type, index, key, value) {
    const p = list(this.file.Blackboard && this.file.Blackboard.Params, type)[index];
    if (!p) return false;
    const label = key === "Name" ? `Rename blackboard ${p.Name}` : `${key} of blackboard ${p.Name}`;
    return this.setField(p, key, value, label);
  }

  // Sets a parameter's default, converted to what its type holds. U32 values live in Int as
  // the s32 of their bits, as the model stores them.
  setBlackboardValue(type, index, value, component) {
    const p = list(this.file.Blackboard && this.file.Blackboard.Params, type)[index];
    if (!p) return false;
    if (type === "VoidPtr") return false; // pointers have no default
    const old = (p.Value && p.Value.Vec) || [0, 0, 0];
    if (type === "Vec3f" && Object.is(old[component], toF32(value))) return false;
    const tx = this.begin(`Default of blackboard ${p.Name}`);
    const v = tx.ensure(p, "Value", {});
    switch (type) {
      case "String": tx.set(v, "String", String(value)); break;
      case "S32": tx.set(v, "Int", toS32(Number(value))); break;
      case "U32": tx.set(v, "Int", toU32(Number(value)) | 0); break;
      case "F32": tx.set(v, "Float", toF32(value)); break;
      case "Bool": tx.set(v, "Int", value ? 1 : 0); break;
      case "Vec3f": {
        const vec = old.slice();
        vec[component] = toF32(value);
        tx.set(v, "Vec", vec);
        break;
      }
    }
    return this.commit(tx);
  }

  removeBlackboard(type, index) {
    const arr = list(this.file.Blackboard && this.file.Blackboard.Params, type);
    if (!arr[index]) return false;
    const tx = this.begin(`Remove blackboard ${arr[index].Name}`);
    this.forEachFlags((holder, ptype, ref, item) => {
      const src = flagSource(holder.Flags);
      if (src.kind !== "bb") return;
      const t = src.comp ? "Vec3f" : BB_FOR_PARAM[ptype];
      if (t !== type) return;
      if (src.index === index) {
        if (ref) this.applySource(tx, ref, item, { kind: "value" });
        else tx.set(holder, "Flags", (holder.Flags >>> 0) & ~SOURCE_BITS);
      } else if (src.index > index) tx.set(holder, "Flags", ((holder.Flags >>> 0) - 1) >>> 0);
    });
    // Selector branches compare with a parameter through a word of their own.
    for (const e of this.file.Elements) {
      if (SELECTOR_BB[e.Type] !== type) continue;
      for (const p of list(e.Plugs, "Child")) {
        for (const key of ["Word", "MaxWord"]) {
          const w = (p[key] || 0) >>> 0;
          if (!(w >>> 31)) continue;
          if ((w & 0xffff) === index) tx.set(p, key, 0);
          else if ((w & 0xffff) > index) tx.set(p, key, (w - 1) >>> 0);
        }
      }
    }
    tx.splice(arr, index, 1);
    tx.structure = true;
    return this.commit(tx);
  }

  // Calls fn(holder, paramType, ref, item) for every flag word of the file: properties,
  // inputs and their sources, attachment properties.
  forEachFlags(fn) {
    const file = this.file;
    file.Elements.forEach((e, i) => {
      for (const t of PARAM_TYPES) {
        list(e.Properties, t).forEach((p, j) => fn(p, t, { node: i, group: "Properties", type: t, index: j }, p));
        list(e.Inputs, t).forEach((input, j) => {
          const ref = { node: i, group: "Inputs", type: t, index: j };
          if (input.Source) fn(input.Source, t, input.Sources ? null : ref, input);
          (input.Sources || []).forEach((s, k) => fn(s, t, { ...ref, source: k }, input));
        });
      }
    });
    (file.Attachments || []).forEach((a, ai) => {
      for (const t of PARAM_TYPES) list(a.Properties, t).forEach((p, j) => fn(p, t, { att: ai, type: t, index: j }, p));
    });
  }

  addCommand(name, root) {
    const tx = this.begin(`Add command ${name}`);
    const cmds = tx.ensure(this.file, "Commands", []);
    tx.splice(cmds, cmds.length, 0, { Name: name, GUID: randomGUID(), Root: root, Secondary: -1 });
    tx.structure = true;
    this.commit(tx);
    return cmds.length - 1;
  }

  removeCommand(k) {
    const cmds = this.file.Commands || [];
    if (!cmds[k]) return false;
    const tx = this.begin(`Remove command ${cmds[k].Name}`);
    tx.splice(cmds, k, 1);
    tx.structure = true;
    return this.commit(tx);
  }

  setFunctionText(k, text) {
    const fns = this.ed.doc.functions;
    if (!fns || !fns[k]) return false;
    return this.setField(fns[k], "text", text, `Edit expression ${k}`);
  }
}

// Calls fn(holder, paramType) for every flag word of an element's or attachment's
// properties and inputs.
export function forEachElementFlags(e, fn) {
  for (const t of PARAM_TYPES) {
    for (const p of list(e.Properties, t)) fn(p, t);
    for (const input of list(e.Inputs, t)) {
      if (input.Source) fn(input.Source, t);
      for (const s of input.Sources || []) fn(s, t);
    }
  }
}

// Calls fn(obj, key) for every field of an element holding a node index.
export function forEachNodeRef(e, fn) {
  for (const t of PARAM_TYPES) {
    for (const input of list(e.Inputs, t)) {
      if (input.Source && input.Source.Node >= 0) fn(input.Source, "Node");
      for (const s of input.Sources || []) if (s.Node >= 0) fn(s, "Node");
    }
  }
  for (const kind of Object.keys(e.Plugs || {})) for (const p of e.Plugs[kind]) if (p.Node >= 0) fn(p, "Node");
}

export { BB_TYPES, isSelector };
