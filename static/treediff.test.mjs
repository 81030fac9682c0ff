// Unit tests of Compare with… (treediff.js) and its take back (treeedits.js) under node: the
// exact changes, marks, ghost rows and lines of a BYML and an AAMP diff; each change taken
// back as one edit that undoes to the very text before; all of them taken back give the
// other side; a shared subtree changed at 2^30 places stops at the cap.

import { test } from "node:test";
import assert from "node:assert/strict";
import { History } from "./history.js";
import { TreeEdits } from "./treeedits.js";
import { flatten, crc32 } from "./treemodel.js";
import { diffTrees, hasher, withGhosts, changeLine, myers, MAX_CHANGES } from "./treediff.js";

const i = (value) => ({ type: "int", value });
const bymlOld = () => ({
  version: 2, bigEndian: false,
  root: { type: "hash", value: [
    ["List", { type: "array", value: [i(1), i(2), i(3)] }],
    ["b", { type: "string", value: "x" }],
    ["c", { type: "uint", value: 7 }],
    ["d", { type: "hash", value: [["deep", { type: "hash", value: [["v", { type: "double", value: 1.25 }]] }]] }],
  ] },
});
const bymlNew = () => {
  const d = bymlOld();
  const v = d.root.value;
  v[0][1].value.splice(1, 0, i(9));
  v.splice(1, 1); // b
  v[1][1].value = 8; // c
  v[2][1].value[0][1].value[0][1].value = 2.5;
  v.push(["e", { type: "float", value: 0.5 }]);
  return d;
};

const everything = (doc) => {
  const all = new Set();
  const mark = (n) => {
    if (n && typeof n === "object") {
      all.add(n);
      Object.values(n).forEach(mark);
    }
  };
  mark(doc);
  return all;
};

const lines = (kind, r) => r.changes.map((c) => changeLine(kind, c));

test("a BYML diff: exact changes in row order, marks and ghost rows", () => {
  const a = bymlOld(), b = bymlNew();
  const r = diffTrees("byml", a, b);
  assert.deepEqual(lines("byml", r), ["+ /List/1: 9", '- /b: "x"', "~ /c: 7 -> 8", "~ /d/deep/v: 1.25 -> 2.5", "+ /e: 0.5"]);
  assert.deepEqual(r.counts, { added: 2, removed: 1, changed: 2 });
  const root = b.root.value;
  assert.equal(r.marks.get(root[0][1]), "inside");
  assert.equal(r.marks.get(root[0][1].value[1]), "added");
  assert.equal(r.marks.get(root[0][1].value[0]), undefined);
  assert.equal(r.marks.get(root[1][1]), "changed");
  assert.equal(r.marks.get(root[2][1]), "inside");
  assert.equal(r.marks.get(root[3][1]), "added");
  const expanded = everything(b);
  const rows = withGhosts("byml", flatten("byml", b, expanded), r.ghosts, expanded, b.root);
  assert.deepEqual(rows.map((x) => (x.ghost ? "ghost " : "") + x.path),
    ["/List", "/List/0", "/List/1", "/List/2", "/List/3", "ghost /b", "/c", "/d", "/d/deep", "/d/deep/v", "/e"]);
  // Collapsed, the ghost of the top level still shows; those inside closed containers do not.
  const closed = withGhosts("byml", flatten("byml", b, new Set()), r.ghosts, new Set(), b.root);
  assert.deepEqual(closed.map((x) => (x.ghost ? "ghost " : "") + x.path), ["/List", "ghost /b", "/c", "/d", "/e"]);
  assert.deepEqual(diffTrees("byml", a, bymlOld()).changes, []);
});

test("arrays: a removed item is one change named by its old index; an edited one is a change inside; a new type is one change", () => {
  const h = (v) => ({ type: "hash", value: [["k", i(v)]] });
  const a = { version: 2, root: { type: "array", value: [i(1), i(2), i(3), h(3), i(4)] } };
  const b = { version: 3, root: { type: "array", value: [i(1), i(3), h(5), { type: "float", value: 4 }] } };
  const r = diffTrees("byml", a, b);
  assert.deepEqual(lines("byml", r), ["~ version: 2 -> 3", "- /1: 2", "~ /2/k: 3 -> 5", "~ /3: 4 -> 4 (int -> float)"]);
  const expanded = everything(b);
  assert.deepEqual(withGhosts("byml", flatten("byml", b, expanded), r.ghosts, expanded, b.root).map((x) => (x.ghost ? "ghost " : "") + x.path),
    ["/0", "ghost /1", "/1", "/2", "/2/k", "/3"]);
});

test("every change taken back is one edit that undoes exactly; all taken back give the other side", () => {
  for (const [kind, a, b] of [["byml", bymlOld(), bymlNew()], ["aamp", aampOld(), aampNew()]]) {
    const s = { kind, doc: b, history: new History() };
    const e = new TreeEdits(s);
    const start = diffTrees(kind, a, s.doc).changes.length;
    // A hasher of the working copy kept through the edits, each edit forgotten in it,
    // finds what a fresh one finds.
    const oldHash = hasher(kind);
    let newHash = hasher(kind), fresh = 0;
    diffTrees(kind, a, s.doc, oldHash, newHash);
    s.history.onChange = (cmd) => {
      for (const op of cmd.ops) if (!newHash.forget(op.obj || op.arr)) (newHash = hasher(kind)), fresh++;
      assert.deepEqual(lines(kind, diffTrees(kind, a, s.doc, oldHash, newHash)), lines(kind, diffTrees(kind, a, s.doc)), `${kind}: kept hashes after ${cmd.label}`);
    };
    for (let k = 0; k < start; k++) {
      const c = diffTrees(kind, a, s.doc).changes[0];
      const before = JSON.stringify(s.doc), n = s.history.done.length;
      assert.equal(e.takeBack(c).ok, true);
      assert.equal(s.history.done.length, n + 1, `${kind}: one edit for ${changeLine(kind, c)}`);
      assert.equal(diffTrees(kind, a, s.doc).changes.length, start - k - 1, `${kind}: ${changeLine(kind, c)} is gone`);
      const after = JSON.stringify(s.doc);
      s.history.undo();
      assert.equal(JSON.stringify(s.doc), before, `${kind}: undo of ${changeLine(kind, c)}`);
      s.history.redo();
      assert.equal(JSON.stringify(s.doc), after);
    }
    assert.equal(JSON.stringify(s.doc), JSON.stringify(a), `${kind}: everything taken back`);
    assert.equal(fresh, 0, `${kind}: an edit was not forgotten in the kept hasher`);
    // The taken-back values are copies: no object of the other side is in the working copy.
    const theirs = everything(a);
    assert.equal([...everything(s.doc)].filter((n) => theirs.has(n)).length, 0, `${kind}: an object of the other side was taken in`);
  }
});

const P = (name, type, value) => ({ hash: crc32(name), name, type, value });
const O = (name, ...params) => ({ hash: crc32(name), name, params });
const aampOld = () => ({
  version: 0, type: "xml",
  param_root: { hash: crc32("param_root"), name: "param_root", lists: [
    { hash: crc32("L"), name: "L", lists: [], objects: [O("Inner", P("q", "bool", true))] },
  ], objects: [
    O("A", P("x", "int", 1), P("y", "f32", 0.5), P("gone", "string32", "bye")),
    O("Old"),
  ] },
});
const aampNew = () => {
  const d = aampOld();
  const A = d.param_root.objects[0];
  A.params[1].value = 2.5; // y
  A.params.splice(2, 1); // gone
  A.params.push({ hash: 77, type: "vec3", value: [1, 2, 3] }); // a parameter named by hash only
  d.param_root.objects.splice(1, 1, O("New")); // Old removed, New added
  d.param_root.lists[0].objects[0].params[0].value = false;
  return d;
};

test("an AAMP diff: members by name, objects before lists as the rows show them", () => {
  const a = aampOld(), b = aampNew();
  const r = diffTrees("aamp", a, b);
  assert.deepEqual(lines("aamp", r), ["~ /A/y: 0.5 -> 2.5", '- /A/gone: "bye"', "+ /A/77: (1, 2, 3)", "- /Old: {0}", "+ /New: {0}", "~ /L/Inner/q: true -> false"]);
  const expanded = everything(b);
  const rows = withGhosts("aamp", flatten("aamp", b, expanded), r.ghosts, expanded, b.param_root);
  assert.deepEqual(rows.map((x) => (x.ghost ? "ghost " : "") + x.path),
    ["/A", "/A/x", "/A/y", "ghost /A/gone", "/A/77", "ghost /Old", "/New", "/L", "/L/Inner", "/L/Inner/q"]);
  assert.equal(r.marks.get(b.param_root.objects[0].params[1]), "changed");
  assert.equal(r.marks.get(b.param_root.lists[0]), "inside");
});

test("a subtree shared at 2^30 places, changed inside, stops at the cap", () => {
  const chain = (v) => {
    let n = { type: "array", value: [i(v), i(7)] };
    for (let k = 0; k < 30; k++) n = { type: "array", value: [n, n] };
    return { version: 2, root: n };
  };
  const r = diffTrees("byml", chain(7), chain(8));
  assert.equal(r.changes.length, MAX_CHANGES);
  assert.equal(r.truncated, true);
});

test("myers keeps a longest common subsequence", () => {
  const lcs = (a, b) => {
    const t = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
    for (let x = a.length - 1; x >= 0; x--) for (let y = b.length - 1; y >= 0; y--) t[x][y] = a[x] === b[y] ? t[x + 1][y + 1] + 1 : Math.max(t[x + 1][y], t[x][y + 1]);
    return t[0][0];
  };
  let seed = 1;
  const rand = (n) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
  for (let k = 0; k < 300; k++) {
    const a = Array.from({ length: rand(12) }, () => rand(4)), b = Array.from({ length: rand(12) }, () => rand(4));
    const keep = myers(a, b, 1000);
    assert.equal(keep.length, lcs(a, b), `${a} / ${b}`);
    for (let q = 0; q < keep.length; q++) {
      assert.equal(a[keep[q][0]], b[keep[q][1]]);
      if (q) assert.ok(keep[q][0] > keep[q - 1][0] && keep[q][1] > keep[q - 1][1]);
    }
  }
});

test("a root of another type is one change, taken back whole", () => {
  const a = { version: 2, bigEndian: false, root: { type: "array", value: [i(1)] } };
  const b = { version: 2, bigEndian: false, root: { type: "hash", value: [["k", i(1)]] } };
  const r = diffTrees("byml", a, b);
  assert.deepEqual(lines("byml", r), ["~ root: [1] -> {1} (array -> hash)"]);
  const s = { kind: "byml", doc: b, history: new History() };
  new TreeEdits(s).takeBack(r.changes[0]);
  assert.equal(JSON.stringify(s.doc), JSON.stringify(a));
  assert.notEqual(s.doc.root, a.root, "the other side's root was taken in, not a copy");
  s.history.undo();
  assert.equal(s.doc.root, b.root);
});
