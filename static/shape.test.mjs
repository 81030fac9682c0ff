// Unit tests of the arrangement store and sidecar (shape.js) under node. localStorage is a
// stand-in; IndexedDB is absent, which store.js treats as no storage.

import { test } from "node:test";
import assert from "node:assert/strict";

const mem = new Map();
globalThis.localStorage = {
  getItem: (k) => (mem.has(k) ? mem.get(k) : null),
  setItem: (k, v) => mem.set(k, String(v)),
  removeItem: (k) => mem.delete(k),
};
const { arrangement, applyTo, sidecar, readSidecar, remember, sha256, SIDECAR_FORMAT } = await import("./shape.js");

const doc = () => ({ nodes: [{ id: 0, x: 1, y: 2 }, { id: 1, x: 3, y: 4, pinned: true }, { id: 2, x: 5, y: 6 }] });

test("arrangement and applyTo round-trip, pins included", () => {
  const d = doc();
  assert.deepEqual(arrangement(d), [[0, 1, 2, 0], [1, 3, 4, 1], [2, 5, 6, 0]]);
  const e = doc();
  assert.equal(applyTo(e, [[0, 10, 20, 1], [1, 30, 40, 0], [2, 50, 60, 0]]), true);
  assert.deepEqual(e.nodes, [{ id: 0, x: 10, y: 20, pinned: true }, { id: 1, x: 30, y: 40 }, { id: 2, x: 50, y: 60 }]);
});

test("applyTo refuses an arrangement of another file, touching nothing", () => {
  for (const bad of [[[0, 1, 1, 0]], [[0, 1, 1, 0], [1, 1, 1, 0], [9, 1, 1, 0]], [[0, 1, 1, 0], [1, "x", 1, 0], [2, 1, 1, 0]], null]) {
    const d = doc();
    assert.equal(applyTo(d, bad), false);
    assert.deepEqual(d, doc());
  }
});

test("sidecar text and reading it back", () => {
  const text = sidecar("a.ainb", "ab", doc());
  assert.equal(text, `{"format":"${SIDECAR_FORMAT}","file":"a.ainb","sha256":"ab","nodes":[[0,1,2,0],[1,3,4,1],[2,5,6,0]]}`);
  assert.deepEqual(readSidecar(text).nodes, arrangement(doc()));
  assert.throws(() => readSidecar("{"), /it is not JSON/);
  assert.throws(() => readSidecar('{"format":"x","nodes":[]}'), /it is not a layout file of this editor \(format ainb-editor-layout\/1\)/);
});

test("sha256 of bytes", async () => {
  assert.equal(await sha256(new TextEncoder().encode("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
});

test("remember keeps at most 50 arrangements, the newest, and none too big", async () => {
  for (let k = 0; k < 53; k++) assert.equal(await remember("h" + k, `f${k}.ainb`, doc()), true);
  const index = JSON.parse(mem.get("ainb-editor.layouts"));
  assert.equal(index.length, 50);
  assert.equal(index[0].hash, "h52");
  assert.equal(index[49].hash, "h3");
  const big = { nodes: Array.from({ length: 200000 }, (_, id) => ({ id, x: 123456.5, y: 654321.25 })) };
  assert.equal(await remember("big", "big.ainb", big), false);
  assert.equal(JSON.parse(mem.get("ainb-editor.layouts"))[0].hash, "h52");
});
