// Unit tests of the BYML/AAMP tree edits (treeedits.js) under node: each edit does what it
// says, keeps the value's type, and undoes to the very JSON text it started from.

import { test } from "node:test";
import assert from "node:assert/strict";
import { History } from "./history.js";
import { TreeEdits } from "./treeedits.js";
import { flatten, crc32 } from "./treemodel.js";

const bymlDoc = () => ({
  version: 7, bigEndian: false,
  root: { type: "hash", value: [
    ["List", { type: "array", value: [{ type: "int", value: 1 }, { type: "int", value: 2 }, { type: "float", value: 0.5 }] }],
    ["b", { type: "string", value: "x" }],
    ["d", { type: "hashmap32", value: [[3, { type: "bool", value: true }]] }],
  ] },
});

const aampDoc = () => ({
  version: 0, type: "xml",
  param_root: { hash: 0xa4f6cb6c, lists: [], objects: [
    { hash: crc32("O"), name: "O", params: [{ hash: crc32("P"), name: "P", type: "f32", value: 1 }, { hash: 9, type: "int", value: 3 }] },
  ] },
});

function session(kind, doc) {
  const s = { kind, doc, history: new History() };
  return { s, e: new TreeEdits(s), all: new Set() };
}

// The row at a path, with every container expanded.
function row(kind, doc, path) {
  const expanded = new Set();
  const mark = (n) => {
    if (n && typeof n === "object") {
      expanded.add(n);
      Object.values(n).forEach(mark);
    }
  };
  mark(doc);
  return flatten(kind, doc, expanded).find((r) => r.path === path);
}

// Runs edit, then checks that undo gives the starting text back and redo the edited one.
function roundTrip(s, edit) {
  const before = JSON.stringify(s.doc);
  const res = edit();
  const after = JSON.stringify(s.doc);
  assert.notEqual(after, before, "the edit changed nothing");
  s.history.undo();
  assert.equal(JSON.stringify(s.doc), before, "undo");
  s.history.redo();
  assert.equal(JSON.stringify(s.doc), after, "redo");
  return res;
}

test("setValue keeps the type and refuses what the type cannot hold", () => {
  const { s, e } = session("byml", bymlDoc());
  roundTrip(s, () => assert.deepEqual(e.setValue(row("byml", s.doc, "/List/0"), "42").ok, true));
  assert.deepEqual(s.doc.root.value[0][1].value[0], { type: "int", value: 42 });
  roundTrip(s, () => e.setValue(row("byml", s.doc, "/List/2"), "1.1"));
  assert.equal(s.doc.root.value[0][1].value[2].type, "float");
  const bad = e.setValue(row("byml", s.doc, "/List/0"), "1.5");
  assert.equal(bad.ok, false);
  assert.match(bad.reason, /not an integer/);
  const n = s.history.done.length;
  e.setValue(row("byml", s.doc, "/b"), "x"); // unchanged: no step
  e.setValue(row("byml", s.doc, "/List/0"), "42");
  assert.equal(s.history.done.length, n);
  assert.equal(e.setValue(row("byml", s.doc, "/List"), "1").ok, false);
});

test("rename keeps a hash's keys sorted and unique; array items have no names", () => {
  const { s, e } = session("byml", bymlDoc());
  roundTrip(s, () => e.rename(row("byml", s.doc, "/b"), "0first"));
  assert.deepEqual(s.doc.root.value.map((p) => p[0]), ["0first", "List", "d"]);
  assert.match(e.rename(row("byml", s.doc, "/d"), "List").reason, /already a key/);
  assert.equal(e.rename(row("byml", s.doc, "/List/1"), "x").ok, false);
  roundTrip(s, () => e.rename(row("byml", s.doc, "/d/3"), "2"));
  assert.deepEqual(s.doc.root.value[2][1].value[0][0], 2);
  assert.match(e.rename(row("byml", s.doc, "/d/2"), "-1").reason, /out of range/);
});

test("add puts new entries into containers or after an entry, in sorted place for hashes", () => {
  const { s, e } = session("byml", bymlDoc());
  let r = roundTrip(s, () => e.add(row("byml", s.doc, "/List/0"), "uint"));
  assert.deepEqual(s.doc.root.value[0][1].value[1], { type: "uint", value: 0 });
  assert.equal(r.node, s.doc.root.value[0][1].value[1]);
  roundTrip(s, () => e.add(row("byml", s.doc, "/d"), "string"));
  assert.deepEqual(s.doc.root.value[2][1].value.map((p) => p[0]), [3, 4]);
  roundTrip(s, () => e.add(null, "hash"));
  assert.deepEqual(s.doc.root.value.map((p) => p[0]), ["List", "New", "b", "d"]);
  e.add(null, "null");
  assert.deepEqual(s.doc.root.value.map((p) => p[0]), ["List", "New", "New1", "b", "d"]);
  assert.deepEqual(s.doc.root.value[2][1], { type: "null" });
});

test("remove and move undo exactly; hashes do not reorder", () => {
  const { s, e } = session("byml", bymlDoc());
  const list = s.doc.root.value[0][1].value;
  const [a, b, c] = list;
  roundTrip(s, () => e.move(row("byml", s.doc, "/List/0"), 1));
  assert.deepEqual(list, [b, a, c]);
  assert.equal(e.move(row("byml", s.doc, "/List/0"), -1).ok, false);
  assert.match(e.move(row("byml", s.doc, "/b"), 1).reason, /sorted/);
  roundTrip(s, () => e.remove(row("byml", s.doc, "/List/2")));
  assert.deepEqual(list, [b, a]);
  s.history.undo();
  assert.equal(list[2], c, "undo puts back the very object");
});

test("AAMP: rename hashes the name, add names new entries, reorder parameters", () => {
  const { s, e } = session("aamp", aampDoc());
  roundTrip(s, () => e.rename(row("aamp", s.doc, "/O/P"), "Speed"));
  const p = s.doc.param_root.objects[0].params[0];
  assert.deepEqual([p.hash, p.name], [crc32("Speed"), "Speed"]);
  roundTrip(s, () => e.rename(row("aamp", s.doc, "/O/Speed"), "0x20"));
  assert.equal(p.hash, 0x20);
  assert.equal("name" in p, false);
  s.history.undo();
  roundTrip(s, () => e.add(row("aamp", s.doc, "/O/Speed"), "vec3"));
  assert.deepEqual(s.doc.param_root.objects[0].params[1], { hash: crc32("NewParam"), name: "NewParam", type: "vec3", value: [0, 0, 0] });
  roundTrip(s, () => e.add(null, "list"));
  assert.equal(s.doc.param_root.lists[0].name, "NewList");
  assert.equal(e.add(null, "f32").ok, false);
  roundTrip(s, () => e.move(row("aamp", s.doc, "/O/9"), -1));
  assert.equal(s.doc.param_root.objects[0].params[1].hash, 9);
  roundTrip(s, () => e.setValue(row("aamp", s.doc, "/O/NewParam"), "1 2 3"));
  assert.match(e.setValue(row("aamp", s.doc, "/O/NewParam"), "1 2").reason, /needs 3/);
});

test("replace swaps in a whole document as one step", () => {
  const { s, e } = session("byml", bymlDoc());
  const next = bymlDoc();
  next.root.value[1][1].value = "y";
  next.version = 2;
  roundTrip(s, () => e.replace(next));
  assert.equal(s.doc.root, next.root);
  assert.equal(s.history.done.length, 1);
  assert.equal(e.replace(JSON.parse(JSON.stringify(s.doc))).changed, false);
});
