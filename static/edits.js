// Every change to the document goes through here: each edit is a transaction (Tx) of
// primitive operations recorded in the history, so it can be undone exactly. Objects are
// edited in place; keys this module does not know about are never touched. No DOM: the
// module runs under node as well (see createEdits and edits.test.mjs), so every operation
// the editor offers is a method here.
//
// Nodes are named by id. Values are named by a ref: {node, list: "properties" | "inputs",
// index} for a node's property or input, {attachment, index} for an attachment's property,
// with source: k added for the k-th source of a multi-input.

import { History, Tx, revert } from "./history.js";
import { MEMBERS } from "./document.js";
import { nodeHeight, NODE_WIDTH, clampCoord } from "./metrics.js";
import { freeOffset } from "./placement.js";
import {
  TYPE_LABEL, BLACKBOARD_TYPES, NODE_FLAGS, indexById, nextNodeId, nodeTitle, sourceKind, blackboardTypeFor,
  expressionText, forEachSource, hasDefaultChild, newCondition, clone, isSelector, missingOutput,
} from "./model.js";

// The editor members this module uses: its context (context.js).
export const EDITOR_NEEDS = ["doc", "history"];

export const CLIPBOARD_FORMAT = "ainb-editor-clipboard/2";

// ---- values

const f32 = new DataView(new ArrayBuffer(4));

// The bits of an f32 as the document writes them: "0x" and eight hex digits.
function bitsText(bits) {
  return "0x" + (bits >>> 0).toString(16).padStart(8, "0");
}

// A float as the document holds it: the nearest f32 as a number, or, for NaN, infinities and
// -0, the string of its bits, since JSON has no number for them. A string of bits is kept as
// it is (normalised), so a NaN keeps its payload.
export function toF32(x) {
  if (typeof x === "string") {
    const v = parseF32(x);
    return v === null ? 0 : v;
  }
  const f = Math.fround(Number(x));
  if (Number.isNaN(f)) return "0x7fc00000";
  if (!Number.isFinite(f) || Object.is(f, -0)) {
    f32.setFloat32(0, f);
    return bitsText(f32.getUint32(0));
  }
  return f;
}

// Reads what a user typed as a float, as the document value (see toF32): a number, inf,
// -inf, nan, -0, or the bits as 0x7fc00000. null when the text is not a float.
export function parseF32(text) {
  const s = String(text).trim().toLowerCase();
  if (/^[-+]?(inf|infinity)$/.test(s)) return toF32(s[0] === "-" ? -Infinity : Infinity);
  if (s === "nan") return "0x7fc00000";
  if (/^0x[0-9a-f]{1,8}$/.test(s)) {
    const bits = parseInt(s.slice(2), 16);
    f32.setUint32(0, bits);
    const f = f32.getFloat32(0);
    return Number.isFinite(f) && !Object.is(f, -0) ? f : bitsText(bits);
  }
  if (s === "" || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/.test(s)) return null;
  return toF32(Number(s));
}

// Reads an integer; null when the text is not one.
export function parseInt32(text) {
  const s = String(text).trim();
  if (!/^[-+]?\d+$/.test(s) && !/^0x[0-9a-f]+$/i.test(s)) return null;
  return Number(s);
}

export function toS32(x) {
  x = Number(x);
  if (!Number.isFinite(x)) return 0;
  x = Math.trunc(x);
  return Math.min(2147483647, Math.max(-2147483648, x)) + 0; // + 0: never -0
}

export function toU32(x) {
  x = Number(x);
  if (!Number.isFinite(x)) return 0;
  return Math.min(4294967295, Math.max(0, Math.trunc(x))) + 0;
}

// A value of type t made from what the user gave: s32 ints, u32s, booleans, f32 floats,
// strings, three-float vectors. component sets one component of a vector, old being the
// vector it changes. Pointers have no value (null).
export function toValue(t, value, component, old) {
  switch (t) {
    case "int": return toS32(value);
    case "u32": return toU32(value);
    case "bool": return !!value;
    case "float": return toF32(value);
    case "string": return String(value ?? "");
    case "vec3f": {
      if (component === undefined || component === null) return [0, 1, 2].map((k) => toF32((value || [])[k] ?? 0));
      const vec = Array.isArray(old) ? old.slice() : [0, 0, 0];
      vec[component] = toF32(value);
      return vec;
    }
    case "pointer": return null;
  }
  return value;
}

// The value a new blackboard parameter or a value of type t starts with.
export function zeroValue(t) {
  return toValue(t, t === "vec3f" ? [0, 0, 0] : t === "string" ? "" : 0);
}

const sameValue = (a, b) => JSON.stringify(a) === JSON.stringify(b);

export function randomGUID() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// A source object made from a description: null or {} for the immediate value,
// {node, output} (with expression: the output goes through that function first),
// {blackboard, component} or {expression}. Zero outputs and empty components are left out,
// as the document writes them.
export function makeSource(src) {
  switch (sourceKind(src)) {
    case "node": {
      const s = src.output ? { node: src.node, output: src.output } : { node: src.node };
      if (src.expression !== undefined && src.expression !== null) s.expression = src.expression;
      return s;
    }
    case "blackboard": return src.component ? { blackboard: src.blackboard, component: src.component } : { blackboard: src.blackboard };
    case "expression": return { expression: src.expression };
  }
  return null;
}

const CONDITION_BLACKBOARD = ["blackboard", "minBlackboard", "maxBlackboard"];

// What the children of node n compare with, as the file stores it: the condition fields
// (S32 and BSA selectors an int, string selectors a string, random selectors a weight, F32
// selectors a range) and the type of the blackboard parameters they may compare with
// instead; null when n's children have no condition.
function conditionShape(n) {
  switch (n.type) {
    case "S32Selector": return { keys: ["int", "blackboard"], type: "int" };
    case "StringSelector": return { keys: ["string", "blackboard"], type: "string" };
    case "RandomSelector": return { keys: ["weight", "blackboard"], type: "float" };
    case "F32Selector": return { keys: ["min", "max", "minBlackboard", "maxBlackboard"], type: "float" };
  }
  if (n.type === "UserDefined" && isSelector(n)) return { keys: ["int", "blackboard"], type: "int" };
  return null;
}

// The condition the default branch (the last child) of S32, F32 and string selectors
// stores: it is never compared, and files always hold these values there (the community's
// reader rejects others).
function defaultCondition(n) {
  switch (n.type) {
    case "S32Selector": return { int: 0 };
    case "F32Selector": return { min: 0, max: 0 };
    case "StringSelector": return { string: "その他" };
  }
  return undefined;
}

// ---- the edit module

export class Edits {
  // holder is what owns the document: anything with doc and history (the Editor, or the
  // bare holder of createEdits).
  constructor(holder) {
    this.ed = holder;
    this.indexCache = null;
    this.indexNodes = null;
    this.indexLength = -1;
  }

  get doc() {
    return this.ed.doc;
  }

  begin(label) {
    return new Tx(label);
  }

  commit(tx) {
    if (!tx.ops.length) return false;
    if (this.gather) return this.gather.push(tx), true;
    this.ed.history.push({ label: tx.label, ops: tx.ops, geometry: tx.geometry, structure: tx.structure });
    return true;
  }

  // Runs fn with every edit it commits gathered into one command named label: one user
  // action (add a node and link it) is one undo step. When fn returns false or {ok: false},
  // what it did is taken back and nothing is recorded. Returns what fn returns.
  group(label, fn) {
    const outer = this.gather;
    const parts = [];
    this.gather = parts;
    let res;
    try {
      res = fn();
    } catch (err) {
      res = err;
    } finally {
      this.gather = outer;
    }
    const tx = this.begin(label);
    for (const p of parts) {
      tx.ops.push(...p.ops);
      tx.geometry ||= p.geometry;
      tx.structure ||= p.structure;
    }
    if (res === false || (res && res.ok === false) || res instanceof Error) {
      for (let k = tx.ops.length - 1; k >= 0; k--) revert(tx.ops[k]);
      if (res instanceof Error) throw res;
      return res;
    }
    this.commit(tx);
    return res;
  }

  undo() {
    return this.ed.history.undo();
  }

  redo() {
    return this.ed.history.redo();
  }

  // ---- lookups

  // id → index in doc.nodes, kept until the node list changes.
  index() {
    const nodes = this.doc.nodes;
    if (this.indexNodes !== nodes || this.indexLength !== nodes.length || !this.indexValid()) {
      this.indexCache = indexById(this.doc);
      this.indexNodes = nodes;
      this.indexLength = nodes.length;
    }
    return this.indexCache;
  }

  // A cheap check that the cached index still matches (an undo may swap nodes of the same count).
  indexValid() {
    const nodes = this.doc.nodes;
    if (!nodes.length) return true;
    const probe = [0, nodes.length >> 1, nodes.length - 1];
    return probe.every((i) => this.indexCache.get(nodes[i].id) === i);
  }

  node(id) {
    const i = this.index().get(id);
    const n = i === undefined ? null : this.doc.nodes[i];
    if (n && n.id === id) return n;
    // The cache missed a change: look again.
    this.indexNodes = null;
    const j = this.index().get(id);
    return j === undefined ? null : this.doc.nodes[j];
  }

  // The property or input a ref names, or null.
  item(ref) {
    if (!ref) return null;
    if (ref.attachment !== undefined) {
      const a = (this.doc.attachments || [])[ref.attachment];
      return (a && (a.properties || [])[ref.index]) || null;
    }
    const n = this.node(ref.node);
    return (n && (n[ref.list] || [])[ref.index]) || null;
  }

  itemLabel(ref, item) {
    if (ref.attachment !== undefined) return `${item.name} of attachment ${ref.attachment}`;
    return `#${ref.node}.${item.name}`;
  }

  // ---- values and sources

  // Sets the immediate value of a property or input, converted to what its type holds.
  // component sets one component of a vec3f.
  setValue(ref, value, component) {
    const item = this.item(ref);
    if (!item || item.type === "pointer") return false;
    const v = toValue(item.type, value, component, item.value);
    if (sameValue(v, item.value)) return false;
    const tx = this.begin(`Edit ${this.itemLabel(ref, item)}`);
    tx.set(item, "value", v);
    return this.commit(tx);
  }

  // Why a source cannot feed the value ref names, or "".
  sourceProblem(ref, item, src) {
    const kind = sourceKind(src);
    if (kind === "node") {
      if (ref.attachment !== undefined || ref.list !== "inputs") return "only inputs take values from node outputs";
      if (src.blackboard !== undefined && src.blackboard !== null) return "a node output does not go through a blackboard parameter";
      if (src.expression !== undefined && src.expression !== null && expressionText(this.doc, src.expression) === undefined) return `there is no expression ${src.expression}`;
      return this.connectProblem(src.node, src.output || 0, ref.node, ref.index);
    }
    if (kind === "blackboard") {
      const p = (this.doc.blackboard || [])[src.blackboard];
      if (!p) return `there is no blackboard parameter ${src.blackboard}`;
      if (src.component && !["x", "y", "z"].includes(src.component)) return `no component ${src.component}`;
      if (src.component && item.type !== "float") return "only floats take one component of a vec3f";
      const want = blackboardTypeFor(item.type, src.component);
      if (p.type !== want) return `a ${TYPE_LABEL[item.type]} value cannot read the ${p.type} parameter ${p.name}`;
    }
    if (kind === "expression" && expressionText(this.doc, src.expression) === undefined) return `there is no expression ${src.expression}`;
    return "";
  }

  // Changes where a property or input takes its value: src is null for the immediate value,
  // {node, output} (an input; with expression, through that function), {blackboard,
  // component} or {expression}. src says the whole new source: what the old one had and src
  // does not (an expression a node output went through) goes. With ref.source, changes one
  // source of a multi-input. Returns {ok, reason}.
  setSource(ref, src, label) {
    const item = this.item(ref);
    if (!item) return { ok: false, reason: "no such value" };
    if (Array.isArray(item.sources) !== (ref.source !== undefined)) {
      return { ok: false, reason: Array.isArray(item.sources) ? "a multi-input's sources are set one by one" : "not a multi-input" };
    }
    const reason = this.sourceProblem(ref, item, src);
    if (reason) return { ok: false, reason };
    const tx = this.begin(label || `Source of ${this.itemLabel(ref, item)}`);
    this.applySource(tx, ref, item, src);
    tx.structure = true;
    return { ok: this.commit(tx) };
  }

  applySource(tx, ref, item, src) {
    const s = makeSource(src);
    if (ref.source !== undefined && Array.isArray(item.sources)) {
      const old = item.sources[ref.source];
      if (!old) return;
      const entry = s || {};
      if (old.isOutput) entry.isOutput = true;
      if (sameValue(entry, old)) return;
      tx.splice(item.sources, ref.source, 1, entry);
      return;
    }
    if (sameValue(s, item.source ?? null)) return;
    const was = usesDefault(item);
    tx.set(item, "source", s || undefined);
    // An input's "uses default" follows its source again; a property's stays what it was
    // (absent means the usual for the source it has, so it is written when that differs).
    if (ref.list === "inputs") tx.set(item, "usesDefault", undefined);
    else tx.set(item, "usesDefault", was === !s ? undefined : was);
  }

  // Why output k of node outId cannot feed input j of node inId, or "" when it can.
  connectProblem(outId, k, inId, j) {
    if (outId === inId) return "a node cannot feed its own input";
    const a = this.node(outId), b = this.node(inId);
    if (!a || !b) return "no such node";
    const out = (a.outputs || [])[k], input = (b.inputs || [])[j];
    if (!out) return `node #${outId} has no output ${k}`;
    if (!input) return `node #${inId} has no input ${j}`;
    if (out.type !== input.type) return `type mismatch: a ${TYPE_LABEL[out.type]} output cannot feed a ${TYPE_LABEL[input.type]} input`;
    return "";
  }

  // Makes output k of node outId the source of input j of node inId; a multi-input gains a
  // source rather than losing the ones it has. An input whose node output went through an
  // expression keeps the expression: it is how the input reads whatever feeds it, and the
  // drag that rewires the link says nothing about it (the inspector removes it).
  // Returns {ok, reason}.
  connect(outId, k, inId, j) {
    const reason = this.connectProblem(outId, k, inId, j);
    if (reason) return { ok: false, reason };
    const input = this.node(inId).inputs[j];
    const old = input.source;
    const through = !Array.isArray(input.sources) && sourceKind(old) === "node" ? old.expression : undefined;
    const src = makeSource({ node: outId, output: k, expression: through });
    const same = (s) => s && s.node === outId && (s.output || 0) === k && !missingOutput(s);
    const tx = this.begin(`Connect #${outId}.${this.node(outId).outputs[k].name} → #${inId}.${input.name}`);
    if (Array.isArray(input.sources)) {
      if (input.sources.some(same)) return { ok: false, reason: "already connected" };
      tx.splice(input.sources, input.sources.length, 0, src);
    } else {
      if (same(input.source)) return { ok: false, reason: "already connected" };
      this.applySource(tx, { node: inId, list: "inputs", index: j }, input, src);
    }
    tx.structure = true;
    this.commit(tx);
    return { ok: true };
  }

  // Lets go of an input's source (it takes its own value again, also when the node output
  // went through an expression: the expression goes with the link), or removes source k of
  // a multi-input.
  disconnect(inId, j, k) {
    const ref = { node: inId, list: "inputs", index: j };
    const input = this.item(ref);
    if (!input) return false;
    if (Array.isArray(input.sources)) {
      if (k === undefined) k = input.sources.length - 1;
      if (!input.sources[k]) return false;
      const tx = this.begin(`Disconnect #${inId}.${input.name}`);
      tx.splice(input.sources, k, 1);
      tx.structure = true;
      return this.commit(tx);
    }
    return this.setSource(ref, null, `Disconnect #${inId}.${input.name}`).ok;
  }

  // Sends the node output that feeds an input (or, with ref.source, one source of a
  // multi-input) through expression k, or with k null straight to the input again (the
  // link stays). Returns {ok, reason}.
  setSourceExpression(ref, k) {
    const item = this.item(ref);
    if (!item) return { ok: false, reason: "no such value" };
    const s = ref.source !== undefined ? (item.sources || [])[ref.source] : item.source;
    if (sourceKind(s) !== "node") return { ok: false, reason: "the value does not read a node output" };
    const want = k === null || k === undefined ? undefined : k;
    if (want !== undefined && expressionText(this.doc, want) === undefined) return { ok: false, reason: `there is no expression ${want}` };
    if (s.expression === want) return { ok: false, reason: want === undefined ? "the output goes through no expression" : `the output goes through expression ${want} already` };
    const tx = this.begin(want === undefined ? `Remove the expression of ${this.itemLabel(ref, item)}` : `Send ${this.itemLabel(ref, item)} through expression ${want}`);
    tx.set(s, "expression", want);
    tx.structure = true;
    return { ok: this.commit(tx) };
  }

  // Adds an entry to a multi-input: src as for setSource (null: the immediate value).
  addSource(ref, src) {
    const item = this.item(ref);
    if (!item || !Array.isArray(item.sources)) return { ok: false, reason: "not a multi-input" };
    const reason = src ? this.sourceProblem(ref, item, src) : "";
    if (reason) return { ok: false, reason };
    const tx = this.begin(`Add a source to ${this.itemLabel(ref, item)}`);
    tx.splice(item.sources, item.sources.length, 0, makeSource(src) || {});
    tx.structure = true;
    return { ok: this.commit(tx) };
  }

  // ---- names and flags

  // Renames a property, input or output: ref as for values, list "outputs" too.
  renameItem(ref, name) {
    const item = this.item(ref);
    if (!item) return false;
    const tx = this.begin(`Rename ${this.itemLabel(ref, item)} to ${name}`);
    tx.set(item, "name", String(name));
    tx.structure = true;
    return this.commit(tx);
  }

  // Renames a node. The name of a user-defined node is its class, and the BSA selector
  // classes keep a condition on each child: a node that becomes or stops being one gains or
  // loses its children's conditions.
  renameNode(id, name) {
    const n = this.node(id);
    if (!n) return false;
    const tx = this.begin(`Rename #${id}`);
    const was = !!conditionShape(n);
    tx.set(n, "name", String(name));
    if (was !== !!conditionShape(n)) (n.children || []).forEach((c, k) => tx.set(c, "condition", was ? undefined : newCondition(n, k)));
    tx.structure = true;
    return this.commit(tx);
  }

  // Sets one of the node's flags (query, moduleCaller, residentInit, multiParamV2). Flags
  // that are off are left out of the document. Only query nodes may be read as queries, so
  // a node that stops being one is no longer read: the other nodes' queries of it go, as
  // when it is deleted.
  setNodeFlag(id, flag, on) {
    const n = this.node(id);
    if (!n || !NODE_FLAGS.some(([f]) => f === flag)) return false;
    const tx = this.begin(`${on ? "Set" : "Clear"} ${flag} of #${id}`);
    tx.set(n, flag, on ? true : undefined);
    if (flag === "query" && !on) {
      for (const m of this.doc.nodes) {
        if (!(m.queries || []).includes(id)) continue;
        const qs = m.queries.filter((q) => q !== id);
        tx.set(m, "queries", qs.length ? qs : undefined);
      }
    }
    tx.structure = true;
    return this.commit(tx);
  }

  // ---- positions

  // Records a move made live by a drag: moved is [[id, oldX, oldY]], the nodes already at
  // their new places. A dragged node is pinned: the user chose its place, so Tidy
  // (applyLayout) leaves it there unless asked to lay out everything.
  moved(moved) {
    const tx = this.begin(moved.length === 1 ? `Move #${moved[0][0]}` : `Move ${moved.length} nodes`);
    for (const [id, ox, oy] of moved) {
      const n = this.node(id);
      if (!n) continue;
      const before = tx.ops.length;
      n.x = clampCoord(n.x);
      n.y = clampCoord(n.y);
      tx.record(n, "x", ox, n.x);
      tx.record(n, "y", oy, n.y);
      if (tx.ops.length > before && !n.pinned) tx.set(n, "pinned", true);
    }
    tx.geometry = true;
    return this.commit(tx);
  }

  // Moves nodes to given places as one edit (without pinning them): [[id, x, y]].
  moveTo(places, label = "Move") {
    const tx = this.begin(label);
    for (const [id, x, y] of places) {
      const n = this.node(id);
      if (!n || !Number.isFinite(x) || !Number.isFinite(y)) continue;
      tx.set(n, "x", clampCoord(x));
      tx.set(n, "y", clampCoord(y));
    }
    tx.geometry = true;
    return this.commit(tx);
  }

  // Applies positions from the server's layout (see api.layout) as one undoable edit: each
  // {id, x, y, pinned} (without id, by index) sets the node's x, y and pin, so an undo puts
  // each node back exactly, pins included. A position without pinned: true clears the pin
  // (a reset layout unpins everything).
  applyLayout(positions, label = "Tidy") {
    if (!Array.isArray(positions)) return false;
    const tx = this.begin(label);
    positions.forEach((q, i) => {
      const n = q.id !== undefined ? this.node(q.id) : this.doc.nodes[i];
      if (!n) return;
      if (Number.isFinite(q.x)) tx.set(n, "x", clampCoord(q.x));
      if (Number.isFinite(q.y)) tx.set(n, "y", clampCoord(q.y));
      tx.set(n, "pinned", q.pinned ? true : undefined);
    });
    tx.geometry = true;
    return this.commit(tx);
  }

  // ---- children, jumps, queries

  // Points child k of node id at another node.
  setChild(id, k, target) {
    const n = this.node(id);
    const c = n && (n.children || [])[k];
    if (!c) return { ok: false, reason: "no such child" };
    if (target === id) return { ok: false, reason: "a node cannot be its own child" };
    if (!this.node(target)) return { ok: false, reason: `there is no node #${target}` };
    const tx = this.begin(`Child ${c.name || k} of #${id} → #${target}`);
    tx.set(c, "node", target);
    tx.structure = true;
    return { ok: this.commit(tx) };
  }

  // Adds a child; selectors with a default branch keep it last, and a selector's new child
  // gets a condition. Returns {ok, index}.
  addChild(id, target, name) {
    const n = this.node(id);
    if (!n) return { ok: false, reason: "no such node" };
    if (target === id) return { ok: false, reason: "a node cannot be its own child" };
    if (!this.node(target)) return { ok: false, reason: `there is no node #${target}` };
    const tx = this.begin(`Add a child to #${id}`);
    const kids = tx.list(n, "children");
    const at = hasDefaultChild(n) && kids.length ? kids.length - 1 : kids.length;
    const child = { node: target, name: name ?? "" };
    const cond = hasDefaultChild(n) && !kids.length ? defaultCondition(n) : newCondition(n, at);
    if (cond) child.condition = cond;
    tx.splice(kids, at, 0, child);
    this.shiftReplacements(tx, id, at, +1);
    tx.structure = true;
    tx.geometry = true;
    this.commit(tx);
    return { ok: true, index: at };
  }

  removeChild(id, k) {
    const n = this.node(id);
    const c = n && (n.children || [])[k];
    if (!c) return false;
    const tx = this.begin(`Remove child ${c.name || k} of #${id}`);
    this.spliceChild(tx, n, k);
    tx.structure = true;
    tx.geometry = true;
    return this.commit(tx);
  }

  // Removes child k of n, keeping the replacement table's child indices right. When the
  // default branch goes, the child before it becomes the default and takes its condition.
  spliceChild(tx, n, k) {
    tx.splice(n.children, k, 1);
    this.shiftReplacements(tx, n.id, k, -1);
    if (hasDefaultChild(n) && k > 0 && k === n.children.length) tx.set(n.children[k - 1], "condition", defaultCondition(n));
    tx.prune(n, "children");
  }

  // Child indices of node id from k on moved by delta: replacements of those children
  // follow; with delta -1 the ones of child k itself go.
  shiftReplacements(tx, id, k, delta) {
    const reps = this.doc.replacements;
    if (!reps) return;
    for (let r = reps.length - 1; r >= 0; r--) {
      const rep = reps[r];
      if (rep.node !== id || rep.type === "removeAttachment") continue;
      if (delta < 0 && rep.index === k) tx.splice(reps, r, 1);
      else if (rep.index >= k) tx.set(rep, "index", rep.index + delta);
    }
  }

  setChildName(id, k, name) {
    const c = (this.node(id)?.children || [])[k];
    if (!c) return false;
    const tx = this.begin(`Rename child ${k} of #${id}`);
    tx.set(c, "name", String(name));
    tx.structure = true;
    return this.commit(tx);
  }

  // Sets a field of a child's condition: int, string, weight, min, max (converted to what
  // they hold), or blackboard, minBlackboard, maxBlackboard (a parameter index, or null for
  // the constant). Only the fields the node's selector compares (see conditionShape) and
  // parameters of the type it compares with are taken.
  setCondition(id, k, key, value) {
    const n = this.node(id);
    const c = (n?.children || [])[k];
    const shape = n && conditionShape(n);
    if (!c || !shape || !shape.keys.includes(key)) return false;
    if (hasDefaultChild(n) && k === n.children.length - 1) return false; // the default branch compares nothing
    let v;
    switch (key) {
      case "int": v = toS32(value); break;
      case "string": v = String(value); break;
      case "weight": case "min": case "max": v = toF32(value); break;
      case "blackboard": case "minBlackboard": case "maxBlackboard":
        if (value === null || value === undefined) v = undefined;
        else if ((this.doc.blackboard || [])[value]?.type !== shape.type) return false;
        else v = value;
        break;
      default: return false;
    }
    const tx = this.begin(`Condition of child ${c.name || k} of #${id}`);
    const cond = c.condition || {};
    if (!c.condition) tx.set(c, "condition", cond);
    tx.set(cond, key, v);
    tx.structure = true;
    return this.commit(tx);
  }

  addJump(id, target, command = "") {
    const n = this.node(id);
    if (!n || !this.node(target)) return { ok: false, reason: "no such node" };
    const tx = this.begin(`Add a jump to #${id}`);
    const jumps = tx.list(n, "jumps");
    const j = { node: target, type: 0 };
    if (command) j.command = command;
    tx.splice(jumps, jumps.length, 0, j);
    tx.structure = true;
    tx.geometry = true;
    this.commit(tx);
    return { ok: true, index: n.jumps.length - 1 };
  }

  removeJump(id, k) {
    const n = this.node(id);
    if (!n || !(n.jumps || [])[k]) return false;
    const tx = this.begin(`Remove jump ${k} of #${id}`);
    tx.splice(n.jumps, k, 1);
    tx.prune(n, "jumps");
    tx.structure = true;
    tx.geometry = true;
    return this.commit(tx);
  }

  // Sets a jump's target node, command, type (0 to 255) or postCalc. Only type 0 jumps name
  // a command: a jump of another type takes none, and loses its command when its type
  // changes.
  setJump(id, k, key, value) {
    const j = (this.node(id)?.jumps || [])[k];
    if (!j) return false;
    let v;
    switch (key) {
      case "node": if (!this.node(value)) return false; v = value; break;
      case "command": v = value ? String(value) : undefined; if (v !== undefined && j.type !== 0) return false; break;
      case "type": v = Number(value); if (!Number.isInteger(v) || v < 0 || v > 255) return false; break;
      case "postCalc": v = value ? true : undefined; break;
      default: return false;
    }
    const tx = this.begin(`Jump ${k} of #${id}`);
    tx.set(j, key, v);
    if (key === "type" && v !== 0) tx.set(j, "command", undefined);
    tx.structure = true;
    return this.commit(tx);
  }

  // Node id reads node query, which must be a query node.
  addQuery(id, query) {
    const n = this.node(id), q = this.node(query);
    if (!n || !q || id === query || !q.query) return false;
    if ((n.queries || []).includes(query)) return false;
    const tx = this.begin(`#${id} reads #${query}`);
    const qs = tx.list(n, "queries");
    tx.splice(qs, qs.length, 0, query);
    tx.structure = true;
    return this.commit(tx);
  }

  removeQuery(id, k) {
    const n = this.node(id);
    if (!n || (n.queries || [])[k] === undefined) return false;
    const tx = this.begin(`#${id} no longer reads #${n.queries[k]}`);
    tx.splice(n.queries, k, 1);
    tx.prune(n, "queries");
    tx.structure = true;
    return this.commit(tx);
  }

  // ---- nodes

  // Adds a node made from template (any node-shaped object) at (x, y). Returns its id.
  addNode(template, x, y) {
    const n = clone(template);
    n.x = x;
    n.y = y;
    delete n.id;
    return this.insertCopies([n], `Add ${nodeTitle(n)}`)[0];
  }

  duplicate(ids, dx = 40, dy = 40) {
    const nodes = ids.map((id) => this.node(id)).filter(Boolean).map((n) => Object.assign(clone(n), { x: n.x + dx, y: n.y + dy }));
    return this.insertCopies(nodes, ids.length === 1 ? `Duplicate #${ids[0]}` : `Duplicate ${ids.length} nodes`);
  }

  // A clipboard for the nodes: copies of them and of what another document needs to make
  // sense of them (see paste): the attachments they use and the names and types of the
  // blackboard parameters and texts of the expressions they read. Plain JSON.
  copyNodes(ids, source = "") {
    const doc = this.doc;
    const nodes = ids.map((id) => this.node(id)).filter(Boolean).map(clone);
    const attachments = {}, expressions = {}, blackboard = {};
    const bb = (k) => {
      const p = (doc.blackboard || [])[k];
      if (p) blackboard[k] = { name: p.name, type: p.type };
    };
    const refs = (s) => {
      if (s.blackboard !== undefined) bb(s.blackboard);
      if (s.expression !== undefined && expressionText(doc, s.expression) !== undefined) expressions[s.expression] = expressionText(doc, s.expression);
    };
    for (const n of nodes) {
      forEachSource(n, refs);
      for (const c of n.children || []) for (const key of CONDITION_BLACKBOARD) if (c.condition && c.condition[key] !== undefined) bb(c.condition[key]);
      for (const a of n.attachments || []) {
        const att = (doc.attachments || [])[a];
        if (!att) continue;
        attachments[a] = clone(att);
        forEachSource(att, refs);
      }
    }
    return { format: CLIPBOARD_FORMAT, source, version: doc.version, nodes, attachments, expressions, blackboard };
  }

  // Pastes a clipboard (see copyNodes) with its top-left node corner at `at` ([x, y]).
  // foreign says the copies come from another document. Returns the new ids.
  paste(clip, at, foreign) {
    if (!clip || !Array.isArray(clip.nodes) || !clip.nodes.length) return [];
    const x0 = Math.min(...clip.nodes.map((n) => n.x)), y0 = Math.min(...clip.nodes.map((n) => n.y));
    const [cx, cy] = at || [x0, y0];
    const nodes = clip.nodes.map((n) => Object.assign(clone(n), { x: n.x - x0 + cx, y: n.y - y0 + cy }));
    const count = `${nodes.length} node${nodes.length > 1 ? "s" : ""}`;
    return this.insertCopies(nodes, `Paste ${count}` + (foreign ? " from another file" : ""), { foreign: foreign ? clip : null });
  }

  // Appends copies of nodes (node objects with the ids they had, already at their new
  // places). Each copy gets a new id and GUID, and links among the copies follow the copies.
  // Copies that stay in their document keep their links to other nodes; copies from another
  // document (opts.foreign, a clipboard) cannot: see adopt. The copies move together to the
  // nearest place where they overlap no node (placement.js). They are not pinned, so Tidy
  // lays them out with the rest.
  insertCopies(nodes, label, opts = {}) {
    const doc = this.doc;
    const first = nextNodeId(doc);
    const remap = new Map();
    nodes.forEach((n, k) => {
      if (n.id !== undefined) remap.set(n.id, first + k);
    });
    const tx = this.begin(label);
    const ctx = { attMap: new Map() };
    const added = nodes.map((src, k) => {
      const n = clone(src);
      if (opts.foreign) this.adopt(tx, n, remap, opts.foreign, ctx);
      else this.keepLinks(n, remap);
      n.id = first + k;
      n.guid = randomGUID();
      n.x = clampCoord(n.x);
      n.y = clampCoord(n.y);
      delete n.pinned;
      // Only 0x404 files keep per-node state info.
      if (doc.version < 0x407 && !n.stateInfo) n.stateInfo = { desiredState: "", unknown: [0, 0, 0, 0] };
      if (doc.version >= 0x407) delete n.stateInfo;
      return reorder(n);
    });
    const [dx, dy] = freeOffset(doc.nodes, added);
    for (const n of added) {
      n.x = clampCoord(n.x + dx);
      n.y = clampCoord(n.y + dy);
    }
    tx.splice(doc.nodes, doc.nodes.length, 0, ...added);
    tx.structure = true;
    tx.geometry = true;
    this.commit(tx);
    return added.map((n) => n.id);
  }

  // Links of a copy within its document: to other copies they follow the copy; to nodes that
  // no longer exist they are cut.
  keepLinks(n, remap) {
    const ok = (id) => remap.has(id) || !!this.node(id);
    const to = (id) => (remap.has(id) ? remap.get(id) : id);
    this.relink(n, ok, to);
  }

  // Rewrites a node's links to other nodes: ok(id) says whether a link survives, to(id) is
  // where it leads then. A cut single source falls back to the value, a cut multi-input
  // source, child, jump or query goes.
  relink(n, ok, to) {
    for (const input of n.inputs || []) {
      const s = input.source;
      if (s && s.node !== undefined) {
        if (ok(s.node)) s.node = to(s.node);
        else {
          delete input.source;
          delete input.usesDefault;
        }
      }
      if (input.sources) {
        input.sources = input.sources.filter((x) => x.node === undefined || ok(x.node));
        for (const x of input.sources) if (x.node !== undefined) x.node = to(x.node);
      }
    }
    for (const key of ["children", "jumps"]) {
      if (!n[key]) continue;
      const last = n[key][n[key].length - 1];
      // A child to no node (null) leads nowhere in the copy too.
      n[key] = n[key].filter((c) => c.node === null || ok(c.node));
      for (const c of n[key]) if (c.node !== null) c.node = to(c.node);
      const now = n[key][n[key].length - 1];
      // A selector's default branch cut: the child before it becomes the default.
      if (key === "children" && hasDefaultChild(n) && now && now !== last) now.condition = defaultCondition(n);
      if (!n[key].length) delete n[key];
    }
    if (n.queries) {
      n.queries = n.queries.filter(ok).map(to);
      if (!n.queries.length) delete n.queries;
    }
  }

  // Fits a copy from another document into this one (the copy is a new object, so only
  // additions to the document go through tx): links to nodes that were not copied are cut;
  // its attachments are appended to this document's; blackboard references follow the
  // parameter of the same type and name and expression references the function of the same
  // text, or fall back to the value when this document has none.
  adopt(tx, n, remap, clip, ctx) {
    const doc = this.doc;
    this.relink(n, (id) => remap.has(id), (id) => remap.get(id));
    const bbIndex = (k, type) => {
      const want = (clip.blackboard || {})[k];
      if (!want || (type && want.type !== type)) return -1;
      return (doc.blackboard || []).findIndex((p) => p.name === want.name && p.type === want.type);
    };
    const retarget = (owner) => {
      const fix = (s) => {
        if (s.blackboard !== undefined) {
          const k = bbIndex(s.blackboard);
          if (k >= 0) s.blackboard = k;
          else {
            delete s.blackboard;
            delete s.component;
          }
        } else if (s.expression !== undefined) {
          const text = (clip.expressions || {})[s.expression];
          const fns = (doc.expressions && doc.expressions.functions) || [];
          const k = text === undefined ? -1 : fns.findIndex((f) => f.text === text);
          if (k >= 0) s.expression = k;
          else delete s.expression;
        }
      };
      for (const p of owner.properties || []) {
        if (!p.source) continue;
        const was = usesDefault(p);
        fix(p.source);
        if (sourceKind(p.source) === "value") {
          delete p.source;
          if (was) delete p.usesDefault;
          else p.usesDefault = false;
        }
      }
      for (const input of owner.inputs || []) {
        if (input.source) {
          fix(input.source);
          if (sourceKind(input.source) === "value") {
            delete input.source;
            delete input.usesDefault;
          }
        }
        for (const s of input.sources || []) fix(s);
      }
    };
    retarget(n);
    for (const c of n.children || []) {
      if (!c.condition) continue;
      for (const key of CONDITION_BLACKBOARD) {
        if (c.condition[key] === undefined) continue;
        const k = bbIndex(c.condition[key], conditionShape(n)?.type);
        if (k >= 0) c.condition[key] = k;
        else delete c.condition[key];
      }
    }
    if (n.attachments) {
      n.attachments = n.attachments.filter((a) => clip.attachments && clip.attachments[a]).map((a) => {
        if (!ctx.attMap.has(a)) {
          const att = clone(clip.attachments[a]);
          retarget(att);
          const all = tx.list(doc, "attachments");
          tx.splice(all, all.length, 0, att);
          ctx.attMap.set(a, all.length - 1);
        }
        return ctx.attMap.get(a);
      });
      if (!n.attachments.length) delete n.attachments;
    }
  }

  // Deletes nodes. No node is renumbered (references are ids); references to a deleted node
  // go away: single sources fall back to their value, multi-input sources, children, jumps,
  // queries, replacements and enum relocations naming it are removed. A node that roots a
  // command is not deleted: the command needs another root first.
  deleteNodes(ids) {
    const doc = this.doc;
    const dead = new Set(ids.filter((id) => this.node(id)));
    if (!dead.size) return { ok: false, reason: "no such node" };
    for (const [k, c] of (doc.commands || []).entries()) {
      if (dead.has(c.root) || dead.has(c.secondary)) {
        const id = dead.has(c.root) ? c.root : c.secondary;
        return { ok: false, reason: `node #${id} is a root of command ${k} (${c.name}); give the command another root first` };
      }
    }
    const list = [...dead];
    const tx = this.begin(list.length === 1 ? `Delete #${list[0]}` : `Delete ${list.length} nodes`);
    for (const n of doc.nodes) {
      if (dead.has(n.id)) continue;
      (n.inputs || []).forEach((input, j) => {
        if (input.source && dead.has(input.source.node)) this.applySource(tx, { node: n.id, list: "inputs", index: j }, input, null);
        if (input.sources) {
          for (let k = input.sources.length - 1; k >= 0; k--) if (dead.has(input.sources[k].node)) tx.splice(input.sources, k, 1);
        }
      });
      if (n.children) for (let k = n.children.length - 1; k >= 0; k--) if (dead.has(n.children[k].node)) this.spliceChild(tx, n, k);
      if (n.jumps) {
        for (let k = n.jumps.length - 1; k >= 0; k--) if (dead.has(n.jumps[k].node)) tx.splice(n.jumps, k, 1);
        tx.prune(n, "jumps");
      }
      if (n.queries && n.queries.some((q) => dead.has(q))) {
        const qs = n.queries.filter((q) => !dead.has(q));
        tx.set(n, "queries", qs.length ? qs : undefined);
      }
    }
    const reps = doc.replacements;
    if (reps) for (let k = reps.length - 1; k >= 0; k--) if (dead.has(reps[k].node) || dead.has(reps[k].new)) tx.splice(reps, k, 1);
    const relocs = doc.enumRelocations;
    if (relocs) {
      for (let k = relocs.length - 1; k >= 0; k--) {
        const t = relocs[k].target;
        if (t && t.node !== undefined && dead.has(t.node)) tx.splice(relocs, k, 1);
      }
    }
    for (let i = doc.nodes.length - 1; i >= 0; i--) if (dead.has(doc.nodes[i].id)) tx.splice(doc.nodes, i, 1);
    tx.structure = true;
    tx.geometry = true;
    this.commit(tx);
    return { ok: true };
  }

  // ---- commands

  addCommand(name, root) {
    if (!this.node(root)) return -1;
    const tx = this.begin(`Add command ${name}`);
    const cmds = tx.list(this.doc, "commands");
    tx.splice(cmds, cmds.length, 0, { name: String(name), guid: randomGUID(), root, secondary: -1 });
    tx.structure = true;
    this.commit(tx);
    return cmds.length - 1;
  }

  removeCommand(k) {
    const cmds = this.doc.commands || [];
    if (!cmds[k]) return false;
    const tx = this.begin(`Remove command ${cmds[k].name}`);
    tx.splice(cmds, k, 1);
    tx.structure = true;
    return this.commit(tx);
  }

  renameCommand(k, name) {
    const c = (this.doc.commands || [])[k];
    if (!c) return false;
    const tx = this.begin(`Rename command ${c.name}`);
    tx.set(c, "name", String(name));
    tx.structure = true;
    return this.commit(tx);
  }

  // Sets a command's root (key "root") or secondary root ("secondary", -1 for none).
  setCommandRoot(k, id, key = "root") {
    const c = (this.doc.commands || [])[k];
    if (!c || (key !== "root" && key !== "secondary")) return false;
    if (!(key === "secondary" && id === -1) && !this.node(id)) return false;
    const tx = this.begin(`${key === "root" ? "Root" : "Secondary root"} of ${c.name}`);
    tx.set(c, key, id);
    tx.structure = true;
    return this.commit(tx);
  }

  // ---- blackboard

  // Appends a parameter; returns its index. A build groups parameters by type, keeping
  // their order within a type.
  addBlackboard(type, name) {
    if (!BLACKBOARD_TYPES.includes(type)) return -1;
    if (type === "u32" && this.doc.version < 0x408) return -1;
    const tx = this.begin(`Add blackboard parameter ${name}`);
    const bb = tx.list(this.doc, "blackboard");
    tx.splice(bb, bb.length, 0, { name: String(name), type, inherit: "none", value: zeroValue(type) });
    tx.structure = true;
    this.commit(tx);
    return bb.length - 1;
  }

  renameBlackboard(k, name) {
    return this.setBlackboardField(k, "name", name);
  }

  // Sets a parameter's name, notes, file reference or inherit mode ("root", "parent",
  // "none"). References name parameters by index, so a rename needs no other change.
  setBlackboardField(k, key, value) {
    const p = (this.doc.blackboard || [])[k];
    if (!p || !["name", "notes", "file", "inherit"].includes(key)) return false;
    if (key === "inherit" && !["root", "parent", "none"].includes(value)) return false;
    let v = String(value ?? "");
    if ((key === "notes" || key === "file") && v === "") v = undefined;
    const tx = this.begin(key === "name" ? `Rename blackboard parameter ${p.name}` : `${key} of blackboard parameter ${p.name}`);
    tx.set(p, key, v);
    tx.structure = true;
    return this.commit(tx);
  }

  // Sets a parameter's default value, converted to what its type holds; component sets one
  // component of a vec3f. Pointers have none.
  setBlackboardValue(k, value, component) {
    const p = (this.doc.blackboard || [])[k];
    if (!p || p.type === "pointer") return false;
    const v = toValue(p.type, value, component, p.value);
    if (sameValue(v, p.value)) return false;
    const tx = this.begin(`Default of blackboard parameter ${p.name}`);
    tx.set(p, "value", v);
    return this.commit(tx);
  }

  // Removes parameter k: references to later parameters are renumbered; values that read k
  // fall back to their own value, and conditions that compared with it to their constant.
  removeBlackboard(k) {
    const bb = this.doc.blackboard || [];
    if (!bb[k]) return false;
    const tx = this.begin(`Remove blackboard parameter ${bb[k].name}`);
    this.forEachSourceRef((s, ref, item) => {
      if (s.blackboard === undefined) return;
      if (s.blackboard > k) tx.set(s, "blackboard", s.blackboard - 1);
      else if (s.blackboard === k) this.applySource(tx, ref, item, null);
    });
    for (const n of this.doc.nodes) {
      for (const c of n.children || []) {
        if (!c.condition) continue;
        for (const key of CONDITION_BLACKBOARD) {
          const v = c.condition[key];
          if (v === undefined) continue;
          if (v > k) tx.set(c.condition, key, v - 1);
          else if (v === k) tx.set(c.condition, key, undefined);
        }
      }
    }
    tx.splice(bb, k, 1);
    tx.structure = true;
    return this.commit(tx);
  }

  // Calls fn(source, ref, item) for every source of the document, ref naming the value (with
  // source: k for a multi-input's entries). Sources are collected first, so fn may edit.
  forEachSourceRef(fn) {
    const all = [];
    const walk = (owner, base) => {
      (owner.properties || []).forEach((p, j) => {
        if (p.source) all.push([p.source, { ...base, list: "properties", index: j }, p]);
      });
      (owner.inputs || []).forEach((input, j) => {
        const ref = { ...base, list: "inputs", index: j };
        if (input.source) all.push([input.source, ref, input]);
        (input.sources || []).forEach((s, k) => all.push([s, { ...ref, source: k }, input]));
      });
    };
    for (const n of this.doc.nodes) walk(n, { node: n.id });
    (this.doc.attachments || []).forEach((a, ai) => walk(a, { attachment: ai }));
    for (const [s, ref, item] of all) {
      if (ref.attachment !== undefined) delete ref.list;
      fn(s, ref, item);
    }
  }

  // ---- expressions

  // Sets expression k's text. The function keeps the text it had when parsed (parsedText,
  // from its first change; dropped when the text is set back to it): the build assembles
  // the module as parsed and compiles only the changed functions into it, so no other
  // function's bytes move (graph/tofile.go).
  setExpressionText(k, text) {
    const fns = this.doc.expressions && this.doc.expressions.functions;
    if (!fns || !fns[k]) return false;
    const fn = fns[k];
    text = String(text);
    const tx = this.begin(`Edit expression ${k}`);
    const parsed = fn.parsedText ?? fn.text;
    tx.set(fn, "text", text);
    tx.set(fn, "parsedText", parsed === text ? undefined : parsed);
    return this.commit(tx);
  }

  // Appends an expression function; returns its index, or -1 when the file has no
  // expression binary.
  addExpression(text) {
    const ex = this.doc.expressions;
    if (!ex) return -1;
    const tx = this.begin("Add an expression");
    const fns = tx.list(ex, "functions");
    tx.splice(fns, fns.length, 0, { text: String(text) });
    this.commit(tx);
    return fns.length - 1;
  }

  // Removes expression k: references to later functions are renumbered (node outputs that
  // go through one too), values that used k fall back to their own value, and node outputs
  // that went through k feed their input directly again.
  removeExpression(k) {
    const fns = this.doc.expressions && this.doc.expressions.functions;
    if (!fns || !fns[k]) return false;
    const tx = this.begin(`Remove expression ${k}`);
    this.forEachSourceRef((s, ref, item) => {
      if (s.expression === undefined) return;
      if (s.expression > k) tx.set(s, "expression", s.expression - 1);
      else if (s.expression === k && sourceKind(s) === "node") tx.set(s, "expression", undefined);
      else if (s.expression === k) this.applySource(tx, ref, item, null);
    });
    tx.splice(fns, k, 1);
    tx.structure = true;
    return this.commit(tx);
  }
}

// Whether a property or input uses its default: usesDefault, or when absent the usual (true
// for the immediate value, false with a source).
function usesDefault(item) {
  return item.usesDefault ?? !item.source;
}

// A node's members in the order the server writes them (types.go, through document.js), so
// that copies read like parsed nodes.
const NODE_KEYS = MEMBERS.Node;

function reorder(n) {
  const out = {};
  for (const k of NODE_KEYS) if (n[k] !== undefined) out[k] = n[k];
  for (const k of Object.keys(n)) if (!(k in out)) out[k] = n[k];
  return out;
}

// An edit module over a bare document, without an editor: for tests and scripts. The
// holder has the document and a history; onChange(cmd, how) hears every do, undo and redo.
export function createEdits(doc, { onChange } = {}) {
  const holder = { doc, history: new History(onChange) };
  const edits = new Edits(holder);
  edits.history = holder.history;
  return edits;
}

export { NODE_WIDTH, nodeHeight };
