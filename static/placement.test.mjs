// Unit tests of where new nodes go (placement.js), under node.

import { test } from "node:test";
import assert from "node:assert/strict";
import { freeOffset, GAP } from "./placement.js";
import { NODE_WIDTH, nodeHeight } from "./metrics.js";

const node = (x, y, rows = 0) => ({ x, y, properties: Array.from({ length: rows }, (_, k) => ({ name: "p" + k, type: "int", value: 0 })) });

function overlapsAny(nodes, group, gap = 0) {
  for (const a of group) {
    for (const b of nodes) {
      if (a.x - gap < b.x + NODE_WIDTH && b.x < a.x + NODE_WIDTH + gap && a.y - gap < b.y + nodeHeight(b) && b.y < a.y + nodeHeight(a) + gap) return true;
    }
  }
  return false;
}

test("a clear place stays", () => {
  assert.deepEqual(freeOffset([node(0, 0)], [node(1000, 0)]), [0, 0]);
  assert.deepEqual(freeOffset([], [node(5, 5)]), [0, 0]);
});

test("one node on top of another moves just past it", () => {
  // A node 38 high at (0, 0); the new one asked for at (10, 10): below it is 48 away
  // (38 + GAP - 10), right of it 270 away: it goes below.
  assert.deepEqual(freeOffset([node(0, 0)], [node(10, 10)]), [0, 38 + GAP - 10]);
});

test("a group keeps its arrangement and clears a crowd", () => {
  const nodes = [];
  for (let i = 0; i < 20; i++) for (let j = 0; j < 20; j++) nodes.push(node(i * 300, j * 60));
  const group = [node(900, 300, 2), node(1200, 420)];
  const [dx, dy] = freeOffset(nodes, group);
  const moved = group.map((n) => ({ ...n, x: n.x + dx, y: n.y + dy }));
  assert.equal(overlapsAny(nodes, moved, GAP - 1e-9), false);
  assert.ok(dx !== 0 || dy !== 0);
  // The group's box is 560 x 158 (y 300 to 458); no such box fits inside a 20 x 20 lattice
  // of 260 x 38 boxes 300 apart across and 60 down, and the nearest clear place is above
  // the lattice: its bottom GAP above y 0.
  assert.deepEqual([dx, dy], [0, -(300 + GAP + 158)]);
});
