// Unit tests of what a point on a node hits (metrics.js), under node: the header's new-child
// handle in particular, which must not move any row.

import { test } from "node:test";
import assert from "node:assert/strict";
import { hitNode, branchPoint, takesChildren, nodeHeight, rowY, NODE_WIDTH, HEADER } from "./metrics.js";
import { childProblem } from "./model.js";

const seq = { id: 0, type: "Sequential", x: 100, y: 50, children: [{ node: 2, name: "" }] };
const query = { id: 1, type: "UserDefined", name: "Q", query: true, x: 500, y: 50, outputs: [{ name: "O", type: "int" }] };

test("the new-child handle sits on the header's right end of nodes that take children", () => {
  assert.deepEqual(branchPoint(seq), [100 + NODE_WIDTH, 50 + HEADER / 2]);
  assert.deepEqual(branchPoint(seq), [100 + NODE_WIDTH, rowY(seq, -1)]);
  const [x, y] = branchPoint(seq);
  assert.deepEqual(hitNode(seq, x, y), { part: "plug", side: "branch", row: -1 });
  assert.deepEqual(hitNode(seq, x + 7, y - 10), { part: "plug", side: "branch", row: -1 });
  assert.deepEqual(hitNode(seq, x - 20, y), { part: "header" });
  // Without plug hits (low zoom) the header is the header, and outside the box nothing.
  assert.deepEqual(hitNode(seq, x - 2, y, 0), { part: "header" });
  assert.equal(hitNode(seq, x + 5, y, 0), null);
  // The child plug of row 0 is where it was.
  assert.equal(hitNode(seq, x, rowY(seq, 0)).side, "child");
  assert.equal(nodeHeight(seq), HEADER + 18 + 8);
});

test("a query node has no handle and is no child", () => {
  assert.equal(takesChildren(query), false);
  assert.equal(takesChildren(seq), true);
  const [x, y] = branchPoint(query);
  assert.equal(hitNode(query, x + 5, y), null);
  assert.deepEqual(hitNode(query, x - 5, y), { part: "header" });
  assert.equal(childProblem(seq, query), "#1 is a query node: others read it, it never runs as a child");
  assert.equal(childProblem(query, seq), "#1 is a query node: others read it, it runs no children");
  assert.equal(childProblem(seq, seq), "a node cannot be its own child");
  assert.equal(childProblem(seq, { id: 2, type: "Sequential" }), "");
  assert.equal(childProblem(seq, undefined), "no such node");
});
