// Edits of a BYML or AAMP document (treemodel.js): set a value (its type kept), rename,
// add, remove and reorder entries, and replace the whole document (applying its YAML). Each
// edit is one transaction of history.js, so undo restores exactly what was there, the same
// objects in the same places. No DOM: it runs under node (treeedits.test.mjs).
//
// Entries are named by a row of treemodel.flatten: {node, key, parent, group, index}. Each
// method answers {ok: true, node?} or {ok: false, reason} and records nothing when it fails
// or changes nothing.

import { Tx } from "./history.js";
import {
  typeOf, isContainer, parseValue, parseKey, parseName, insertionIndex, newNode, addableTypes, renamable, reorderable,
  rootOf, crc32, nameOf, escapeKey,
} from "./treemodel.js";

export class TreeEdits {
  // session: {kind: "byml" | "aamp", doc, history}
  constructor(session) {
    this.s = session;
  }

  get kind() {
    return this.s.kind;
  }

  commit(tx) {
    if (!tx.ops.length) return false;
    tx.structure = true;
    this.s.history.push(tx);
    return true;
  }

  // The array that holds an entry.
  holder(row) {
    return this.kind === "byml" ? row.parent.value : row.parent[row.group];
  }

  setValue(row, text) {
    const kind = this.kind, node = row.node;
    if (isContainer(kind, node)) return { ok: false, reason: "a container has no value of its own: edit its entries" };
    const r = parseValue(kind, node, text);
    if (r.error) return { ok: false, reason: r.error };
    if (sameValue(node.value, r.value)) return { ok: true, node };
    const tx = new Tx(`Set ${label(row)}`);
    tx.set(node, "value", r.value);
    this.commit(tx);
    return { ok: true, node };
  }

  rename(row, text) {
    const kind = this.kind, parent = row.parent;
    if (!renamable(kind, parent)) return { ok: false, reason: "array items have no names: move them instead" };
    if (kind === "aamp") {
      const n = parseName(text);
      if (n.error) return { ok: false, reason: n.error };
      const tx = new Tx(`Rename ${label(row)} to ${n.name ?? text.trim()}`);
      tx.set(row.node, "hash", n.hash);
      tx.set(row.node, "name", n.name);
      this.commit(tx);
      return { ok: true, node: row.node };
    }
    const k = parseKey(parent.type, text);
    if (k.error) return { ok: false, reason: k.error };
    const entries = parent.value;
    if (String(k.key) === String(entries[row.index][0])) return { ok: true, node: row.node };
    if (entries.some((p) => String(p[0]) === String(k.key))) return { ok: false, reason: `${JSON.stringify(String(k.key))} is already a key here` };
    // Keys stay sorted: the entry moves to where its new key belongs.
    const tx = new Tx(`Rename ${label(row)} to ${k.key}`);
    tx.splice(entries, row.index, 1);
    tx.splice(entries, insertionIndex(parent, k.key), 0, [k.key, row.node]);
    this.commit(tx);
    return { ok: true, node: row.node };
  }

  // Adds an entry of a type: into target when it is a container (at its end), otherwise
  // after target among its siblings; into the top level without a target.
  add(target, type) {
    const kind = this.kind;
    let parent, after = -1, group = "";
    if (!target) parent = rootOf(kind, this.s.doc);
    else if (isContainer(kind, target.node)) parent = target.node;
    else {
      parent = target.parent;
      after = target.index;
      group = target.group;
    }
    if (!parent) return { ok: false, reason: "the document is empty" };
    if (!addableTypes(kind, parent).includes(type)) return { ok: false, reason: `a ${typeOf(kind, parent)} cannot hold a ${type}` };
    const node = newNode(kind, type);
    const tx = new Tx(`Add ${type}`);
    if (kind === "byml") {
      const entries = parent.value;
      if (parent.type === "array") tx.splice(entries, after >= 0 ? after + 1 : entries.length, 0, node);
      else {
        const key = freeKey(parent);
        tx.splice(entries, insertionIndex(parent, key), 0, [key, node]);
      }
    } else {
      const into = type === "object" ? "objects" : type === "list" ? "lists" : "params";
      const arr = parent[into];
      const name = freeName(arr, type === "object" ? "NewObject" : type === "list" ? "NewList" : "NewParam");
      // hash and name first, as the server writes them.
      const named = { hash: crc32(name), name, ...node };
      tx.splice(arr, after >= 0 && group === into ? after + 1 : arr.length, 0, named);
      this.commit(tx);
      return { ok: true, node: named, parent };
    }
    this.commit(tx);
    return { ok: true, node, parent };
  }

  remove(row) {
    const tx = new Tx(`Remove ${label(row)}`);
    tx.splice(this.holder(row), row.index, 1);
    this.commit(tx);
    return { ok: true };
  }

  // Moves an entry up (delta -1) or down (+1) among its siblings of the same group.
  move(row, delta) {
    if (!reorderable(this.kind, row.parent)) return { ok: false, reason: "a hash keeps its keys sorted: rename an entry to move it" };
    const arr = this.holder(row);
    const to = row.index + delta;
    if (to < 0 || to >= arr.length) return { ok: false, reason: delta < 0 ? "already the first" : "already the last" };
    const tx = new Tx(`Move ${label(row)} ${delta < 0 ? "up" : "down"}`);
    tx.splice(arr, row.index, 1);
    tx.splice(arr, to, 0, row.node);
    this.commit(tx);
    return { ok: true, node: row.node };
  }

  // Takes a change of Compare with… (treediff.js) back: the working copy gets the other
  // side's value at that place, as one edit. A value of the same type is set on the node
  // itself (it stays the node the view selects and expands); anything else puts a copy of
  // the other side's node in place. The other side's nodes are copied, never shared.
  takeBack(c) {
    const tx = new Tx(`Take back ${c.header || c.path}`);
    const copy = (n) => structuredClone(n);
    if (c.header) tx.set(this.s.doc, c.header, c.old && typeof c.old === "object" ? copy(c.old) : c.old);
    else if (c.op === "changed" && !isContainer(this.kind, c.new) && typeOf(this.kind, c.old) === typeOf(this.kind, c.new)) {
      tx.set(c.new, "value", copy(c.old.value));
    } else {
      const arr = this.kind === "byml" ? c.parent.value : c.parent[c.group];
      const entry = (n) => (this.kind === "byml" && c.parent.type !== "array" ? [c.key, n] : n);
      if (c.op === "added") tx.splice(arr, c.index, 1);
      else if (c.op === "removed") tx.splice(arr, c.index, 0, entry(copy(c.old)));
      else tx.splice(arr, c.index, 1, entry(copy(c.old)));
    }
    this.commit(tx);
    return { ok: true };
  }

  // Replaces the whole document with another of the same kind (an applied YAML text).
  replace(doc, label = "Apply YAML") {
    const tx = new Tx(label);
    const keys = this.kind === "byml" ? ["version", "bigEndian", "root"] : ["version", "type", "param_root"];
    for (const k of keys) if (!sameValue(this.s.doc[k], doc[k])) tx.set(this.s.doc, k, doc[k]);
    this.commit(tx);
    return { ok: true, changed: tx.ops.length > 0 };
  }
}

// Values of the JSON form are small (numbers, strings, short arrays): compare their text.
function sameValue(a, b) {
  return a === b || (typeof a === "object" && typeof b === "object" && JSON.stringify(a) === JSON.stringify(b));
}

function label(row) {
  return typeof row.key === "number" ? `[${row.key}]` : escapeKey(row.key);
}

// A key a BYML hash does not have yet: "New", "New1"...; a hash map's next hash.
function freeKey(parent) {
  const keys = new Set(parent.value.map((p) => String(p[0])));
  if (parent.type === "hash") {
    let k = "New";
    for (let i = 1; keys.has(k); i++) k = `New${i}`;
    return k;
  }
  let max = -1n;
  for (const p of parent.value) if (BigInt(p[0]) > max) max = BigInt(p[0]);
  const limit = parent.type === "hashmap32" ? 2n ** 32n : 2n ** 64n;
  let next = max + 1n;
  if (next >= limit) for (next = 0n; keys.has(String(next)); next++);
  return parent.type === "hashmap32" ? Number(next) : String(next);
}

function freeName(arr, base) {
  const names = new Set(arr.map(nameOf));
  let n = base;
  for (let i = 1; names.has(n); i++) n = `${base}${i}`;
  return n;
}
