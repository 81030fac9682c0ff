// Links that lead nowhere (a child to no node, an input reading an output its node lacks):
// the warnings the problems panel lists, the stubs the canvas draws, and edits that keep them.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createEdits } from "./edits.js";
import { computeEdges, danglingWarnings, EDGE_CHILD, EDGE_SOURCE } from "./model.js";
import { removeParam } from "./plugedits.js";
import { childRow } from "./metrics.js";
import { sampleDoc } from "./edits.test.mjs";

function danglingDoc() {
  const d = sampleDoc();
  d.nodes[0].children.splice(2, 0, { node: null, name: "none", condition: { int: 2 } });
  // Node 2 reads float output 3 of node 1, which has one float output.
  d.nodes[2].inputs[0].source = { node: 1, missingOutput: 3 };
  d.nodes[2].inputs[1].sources.push({ node: 1, missingOutput: 5 });
  return d;
}

test("warnings name each link that leads nowhere, with its node and path", () => {
  const d = danglingDoc();
  assert.deepEqual(danglingWarnings(d), [
    { node: 0, path: "nodes[0].children[2].node", message: 'child "none" leads to no node', warning: true },
    { node: 2, path: "nodes[2].inputs[0].source.missingOutput", message: "input InFloat reads float output 3 of #1 Producer, which has no such output", warning: true },
    { node: 2, path: "nodes[2].inputs[1].sources[3].missingOutput", message: "input Multi reads int output 5 of #1 Producer, which has no such output", warning: true },
  ]);
  assert.deepEqual(danglingWarnings(sampleDoc()), []);
});

test("stubs replace the links: no edge to a node, one stub per child and per input", () => {
  const d = danglingDoc();
  const E = computeEdges(d);
  const p = d.nodes[2].properties.length;
  assert.deepEqual([...E.stubs.node], [0, 2, 2]);
  assert.deepEqual([...E.stubs.row], [childRow(d.nodes[0], 2), p + 0, p + 1]);
  assert.deepEqual([...E.stubs.kind], [EDGE_CHILD, EDGE_SOURCE, EDGE_SOURCE]);
  // The old links from node 1's outputs to InFloat and to the third Multi source are gone;
  // every other link stays.
  const base = computeEdges(sampleDoc());
  assert.equal(E.count, base.count - 1);
  for (let k = 0; k < E.count; k++) assert.ok(E.to[k] !== 2 || E.toRow[k] !== p + 0, "an edge still enters InFloat");
});

test("duplicating keeps a child to no node; moving outputs leaves missing outputs alone", () => {
  const e = createEdits(danglingDoc());
  const [copy] = e.duplicate([0]);
  assert.deepEqual(e.node(copy).children.map((c) => c.node), [2, 3, null, 4]);
  // Removing node 1's float output (which the missing float output 3 is not) shifts the
  // real output after it, not the missing ones.
  assert.equal(removeParam(e, 1, "outputs", 1).ok, true);
  assert.deepEqual(e.node(2).inputs[1].sources, [{ node: 1 }, { node: 1, output: 1 }, {}, { node: 1, missingOutput: 5 }]);
  assert.deepEqual(e.node(2).inputs[0].source, { node: 1, missingOutput: 3 });
});
