// Unit tests of compare.js and merge.js under node: marks, rows, taking changes back (each
// one edit whose undo restores the very document) and settling merge conflicts. The changes
// are written as /api/diff sends them (TestCompareWith checks the same against the server).

import { test } from "node:test";
import assert from "node:assert/strict";
import { marks, describe, rowText, takeBack, namedIndex, stepNode, DiffRefresher } from "./compare.js";
import { within, settle, relinks, replaceDocument, conflictText } from "./merge.js";
import { createEdits } from "./edits.js";

function docA() {
  return {
    format: "ainb-editor-document/2", name: "t.ainb", version: 1031, filename: "T", category: "AI",
    commands: [{ name: "Root", guid: "00000000-0000-4000-8000-000000000001", root: 0, secondary: -1 }],
    nodes: [
      { id: 0, type: "Sequential", name: "", guid: "g0", x: 0, y: 0, children: [{ node: 1, name: "" }, { node: 2, name: "" }] },
      { id: 1, type: "UserDefined", name: "Walk", guid: "g1", x: 300, y: 0,
        properties: [{ name: "Speed", type: "float", value: 1.5 }, { name: "Flag", type: "bool", value: true }],
        inputs: [{ name: "Target", type: "float", value: 0, source: { blackboard: 0 } }] },
      { id: 2, type: "UserDefined", name: "Wait", guid: "g2", x: 300, y: 200 },
    ],
    attachments: [],
    blackboard: [{ name: "Dist", type: "float", inherit: "none", value: 0 }, { name: "Time", type: "float", inherit: "none", value: 2 }],
    expressions: null, modules: [], moduleCall: { blackboardId: 0, parentBlackboardId: 0 },
    replacements: [], enumRelocations: [], section58: null, hasSection6C: false,
  };
}

// The working copy: node 1's Speed changed and its input reads Time, node 2 deleted (with the
// child that led to it), node 3 added as the second child.
function docB() {
  const d = docA();
  d.nodes[0].children = [{ node: 1, name: "" }, { node: 3, name: "" }];
  d.nodes[1].properties[0].value = 3;
  d.nodes[1].inputs[0].source = { blackboard: 1 };
  d.nodes.splice(2, 1, { id: 3, type: "UserDefined", name: "Run", guid: "g3", x: 300, y: 400 });
  d.category = "Edited";
  return d;
}

const changes = [
  { op: "changed", path: ["category"], old: "AI", new: "Edited" },
  { op: "changed", path: ["node 0 Sequential (guid g0)", "child 1"], old: { node: 2, name: "" }, new: { node: 3, name: "" }, nodeA: 0, nodeB: 0 },
  { op: "changed", path: ["node 1 Walk (guid g1)", "property Speed", "value"], old: 1.5, new: 3, nodeA: 1, nodeB: 1 },
  { op: "changed", path: ["node 1 Walk (guid g1)", "input Target", "source"], old: { blackboard: 0 }, new: { blackboard: 1 }, nodeA: 1, nodeB: 1 },
  { op: "removed", path: ["node 2 Wait (guid g2)"], old: {}, nodeA: 2 },
  { op: "added", path: ["node 3 Run (guid g3)"], new: {}, nodeB: 3 },
];

test("marks: changed and added nodes of the working copy, ghosts of the other file's", () => {
  const m = marks(changes, docA());
  assert.deepEqual([...m.status], [[0, "changed"], [1, "changed"], [3, "added"]]);
  assert.deepEqual(m.ghosts.map((n) => n.id), [2]);
});

test("rows name the node, the place and both values", () => {
  const rows = changes.map((c) => rowText(describe(c, docA(), docB())));
  assert.deepEqual(rows, [
    "category: \"AI\" → \"Edited\"",
    "#0 Sequential · child 1: node: 2 → 3",
    "#1 Walk · property Speed / value: 1.5 → 3",
    "#1 Walk · input Target / source: {\"blackboard\":0} → {\"blackboard\":1}",
    "#2 Wait · node only in the other file",
    "#3 Run · node only here",
  ]);
});

test("steps and names", () => {
  assert.equal(stepNode("node 12 Root (guid x)"), 12);
  assert.equal(stepNode("node 7"), 7);
  assert.equal(stepNode("command Root"), -1);
  assert.equal(namedIndex([{ name: "A" }, { name: "B" }, { name: "A" }], "A#2"), 2);
  assert.equal(namedIndex([{ name: "A#2" }], "A#2"), 0);
  assert.equal(namedIndex([{ name: "A" }], "C"), -1);
});

// Each change taken back is one history entry that gives the other file's value exactly,
// and its undo gives the working copy back exactly.
test("taking each change back, and undoing it", () => {
  const a = docA();
  const cases = [
    [0, (d) => assert.equal(d.category, "AI")],
    [2, (d) => assert.equal(d.nodes[1].properties[0].value, 1.5)],
    [3, (d) => assert.deepEqual(d.nodes[1].inputs[0].source, { blackboard: 0 })],
    [4, (d) => assert.deepEqual(d.nodes.map((n) => n.id), [0, 1, 2, 3]) || assert.deepEqual(d.nodes[2], a.nodes[2])],
    [5, (d) => assert.deepEqual(d.nodes.map((n) => n.id), [0, 1])],
  ];
  for (const [k, check] of cases) {
    const doc = docB();
    const before = JSON.stringify(doc);
    const edits = createEdits(doc);
    const res = takeBack(edits, a, changes[k], { changes });
    assert.deepEqual(res, { ok: true }, `change ${k}`);
    assert.equal(edits.history.done.length, 1, `change ${k}: one edit`);
    check(doc);
    edits.undo();
    assert.equal(JSON.stringify(doc), before, `change ${k}: undo`);
  }
});

// Child 1 of node 0 leads to node 2 in the other file, which the working copy lacks: refused
// until the node is back, then the link follows it.
test("a link to a node only the other file has waits for the node", () => {
  const doc = docB();
  const before = JSON.stringify(doc);
  const edits = createEdits(doc);
  const res = takeBack(edits, docA(), changes[1], { changes });
  assert.deepEqual(res, { ok: false, reason: "Cannot take back node 0 Sequential (guid g0) / child 1: it links to node #2, which only the other file has: take that node back first" });
  assert.equal(JSON.stringify(doc), before);
  assert.equal(edits.history.done.length, 0);
  // The node back, the changes say so (as a fresh diff would: node 2 is matched now).
  assert.deepEqual(takeBack(edits, docA(), changes[4], { changes }), { ok: true });
  const now = changes.filter((c) => c !== changes[4]);
  assert.deepEqual(takeBack(edits, docA(), changes[1], { changes: now }), { ok: true });
  assert.deepEqual(doc.nodes[0].children, [{ node: 1, name: "" }, { node: 2, name: "" }]);
  edits.undo();
  edits.undo();
  assert.equal(JSON.stringify(doc), before);
});

test("a change at an unknown place is refused", () => {
  const c = { op: "changed", path: ["node 1 Walk (guid g1)", "stripes"], old: 1, new: 2, nodeA: 1, nodeB: 1 };
  const res = takeBack(createEdits(docB()), docA(), c, { changes: [c] });
  assert.equal(res.ok, false);
  assert.equal(res.reason, "Cannot take back node 1 Walk (guid g1) / stripes: stripes is not a place the editor takes back (take the whole node's change instead)");
});

// Attachments are the document's, used by index: the node's attachment k taken back points at
// the working copy's attachment of the same content (its blackboard link translated), added
// when there is none; the one it had stays for other nodes.
test("an attachment taken back", () => {
  const a = docA(), doc = docB();
  a.attachments = [{ name: "Shared", debug: 0 }, { name: "Mine", debug: 0, properties: [{ name: "P", type: "float", value: 0, source: { blackboard: 1 } }] }];
  a.nodes[1].attachments = [0, 1];
  doc.attachments = [{ name: "Shared", debug: 0 }, { name: "Other", debug: 0 }];
  doc.blackboard.reverse(); // Time is parameter 0 here
  doc.nodes[1].attachments = [0, 1];
  const before = JSON.stringify(doc);
  const edits = createEdits(doc);
  const c = { op: "changed", path: ["node 1 Walk (guid g1)", "attachment 1"], old: {}, new: {}, nodeA: 1, nodeB: 1 };
  assert.deepEqual(takeBack(edits, a, c, { changes: [c] }), { ok: true });
  assert.deepEqual(doc.nodes[1].attachments, [0, 2]);
  assert.deepEqual(doc.attachments[2], { name: "Mine", debug: 0, properties: [{ name: "P", type: "float", value: 0, source: { blackboard: 0 } }] });
  assert.deepEqual(doc.attachments[1], { name: "Other", debug: 0 });
  edits.undo();
  assert.equal(JSON.stringify(doc), before);
});

test("within: a conflict's place holds the changes under it", () => {
  const k = { path: ["node 1 Walk (guid g1)", "property Speed"] };
  assert.equal(within({ path: ["node 1 Other", "property Speed", "value"], nodeA: 1, nodeB: 1 }, k), true);
  assert.equal(within({ path: ["node 1 Walk (guid g1)", "property Flag"], nodeA: 1, nodeB: 1 }, k), false);
  assert.equal(within({ path: ["node 2 Walk", "property Speed"], nodeA: 2, nodeB: 2 }, k), false);
  assert.equal(within({ path: ["category"] }, { path: ["category"] }), true);
});

// Two conflicts settled each way: the result takes ours at one and theirs at the other.
test("settle mixes the two merges as chosen, and checks each choice holds", async () => {
  const mo = docA(), mt = docA();
  mo.category = "Ours";
  mt.category = "Theirs";
  mo.nodes[1].properties[0].value = 10;
  mt.nodes[1].properties[0].value = 20;
  const conflicts = [{ path: ["category"] }, { path: ["node 1 Walk (guid g1)", "property Speed"] }];
  const ask = async (prefer) => ({ document: structuredClone(prefer === "ours" ? mo : mt), conflicts });
  // A small diff of exactly the two places.
  const diff = async (a, b) => {
    const out = [];
    if (a.category !== b.category) out.push({ op: "changed", path: ["category"], old: a.category, new: b.category });
    const va = a.nodes[1].properties[0].value, vb = b.nodes[1].properties[0].value;
    if (va !== vb) out.push({ op: "changed", path: ["node 1 Walk (guid g1)", "property Speed", "value"], old: va, new: vb, nodeA: 1, nodeB: 1 });
    return { changes: out };
  };
  let d = await settle(conflicts, ["ours", "theirs"], ask, diff);
  assert.equal(d.category, "Ours");
  assert.equal(d.nodes[1].properties[0].value, 20);
  d = await settle(conflicts, ["theirs", "ours"], ask, diff);
  assert.equal(d.category, "Theirs");
  assert.equal(d.nodes[1].properties[0].value, 10);
  d = await settle(conflicts, ["theirs", "theirs"], ask, diff);
  assert.deepEqual(d, mt);
  await assert.rejects(settle(conflicts, ["ours"], ask, diff), { message: "every conflict needs a choice of ours or theirs (1 of 2 chosen)" });
});

// Base: node 0 runs 1, 2 and 4; ours deletes 2 (and the child leading to it), theirs renames
// it, and the category is a second conflict. Keeping 2 by "theirs" brings back the child
// the delete took (the server's theirs-preferring merge has it), and only that.
test("settle: a node kept against its removal comes back with the links to it", async () => {
  const base = docA();
  base.nodes[0].children.push({ node: 4, name: "" });
  base.nodes.push({ id: 4, type: "UserDefined", name: "Look", guid: "g4", x: 300, y: 400 });
  const mo = structuredClone(base), mt = structuredClone(base);
  mo.category = "Ours";
  mt.category = "Theirs";
  mo.nodes.splice(2, 1);
  mo.nodes[0].children.splice(1, 1);
  mt.nodes[2].name = "WaitTheirs";
  const step = (n) => `node ${n.id} ${n.name} (guid ${n.guid})`;
  const conflicts = [{ path: [step(base.nodes[2])] }, { path: ["category"] }];
  const ask = async (prefer) => ({ document: structuredClone(prefer === "ours" ? mo : mt), conflicts });
  // A small diff of the places these documents differ at: the category, whole nodes and
  // their names, node 0's children by index.
  const diff = async (a, b) => {
    const out = [];
    if (a.category !== b.category) out.push({ op: "changed", path: ["category"], old: a.category, new: b.category });
    const ca = a.nodes[0].children, cb = b.nodes[0].children;
    for (let k = 0; k < Math.max(ca.length, cb.length); k++) {
      const path = [step(a.nodes[0]), `child ${k}`];
      if (k >= cb.length) out.push({ op: "removed", path, old: ca[k], nodeA: 0, nodeB: 0 });
      else if (k >= ca.length) out.push({ op: "added", path, new: cb[k], nodeA: 0, nodeB: 0 });
      else if (ca[k].node !== cb[k].node) out.push({ op: "changed", path, old: ca[k], new: cb[k], nodeA: 0, nodeB: 0 });
    }
    for (const n of a.nodes) {
      const m = b.nodes.find((x) => x.id === n.id);
      if (!m) out.push({ op: "removed", path: [step(n)], old: n, nodeA: n.id });
      else if (m.name !== n.name) out.push({ op: "changed", path: [step(n), "name"], old: n.name, new: m.name, nodeA: n.id, nodeB: m.id });
    }
    for (const m of b.nodes) if (!a.nodes.some((n) => n.id === m.id)) out.push({ op: "added", path: [step(m)], new: m, nodeB: m.id });
    return { changes: out, renumbered: [] };
  };
  let d = await settle(conflicts, ["theirs", "ours"], ask, diff);
  assert.equal(d.category, "Ours");
  assert.deepEqual(d.nodes.map((n) => [n.id, n.name]), [[0, ""], [1, "Walk"], [2, "WaitTheirs"], [4, "Look"]]);
  assert.deepEqual(d.nodes[0].children, base.nodes[0].children);
  d = await settle(conflicts, ["ours", "theirs"], ask, diff);
  assert.equal(d.category, "Theirs");
  assert.deepEqual(d.nodes.map((n) => n.id), [0, 1, 4]);
  assert.deepEqual(d.nodes[0].children, mo.nodes[0].children);
  // Only the changes that give back links to the kept node (and the later children they move
  // down): not the category's or the node's own, and none for node 1, whose child is in both.
  const { changes } = await diff(mt, mo);
  assert.deepEqual(relinks(changes, [2]).map((c) => c.path.join(" / ")), ["node 0  (guid g0) / child 1", "node 0  (guid g0) / child 2"]);
  assert.deepEqual(relinks(changes, [1]), []);
  // A replacement of node 0's last child: the theirs-preferring merge has its index as in
  // base, the result one less; it comes back with node 0's children, and not without them.
  const reps = { op: "changed", path: ["replacements"], old: [{ type: "removeChild", node: 0, index: 2 }], new: [{ type: "removeChild", node: 0, index: 1 }] };
  assert.deepEqual(relinks([...changes, reps], [2]).map((c) => c.path.join(" / ")), ["node 0  (guid g0) / child 1", "node 0  (guid g0) / child 2", "replacements"]);
  assert.deepEqual(relinks([...changes, reps], [1]), []);
});

test("replaceDocument is one edit whose undo restores the very document", () => {
  const doc = docB();
  const before = JSON.stringify(doc);
  const edits = createEdits(doc);
  const next = docA();
  replaceDocument(edits, next, "Merge");
  assert.deepEqual(doc, docA());
  assert.equal(edits.history.done.length, 1);
  edits.undo();
  assert.equal(JSON.stringify(doc), before);
});

// A link to a node the files number differently follows the diff's renumbered pairs.
test("a link to a renumbered node is translated", () => {
  const doc = docB();
  doc.nodes[1].id = 7; // the working copy numbers Walk 7
  doc.nodes[0].children[0].node = 7;
  const c = { op: "changed", path: ["node 0 Sequential (guid g0)", "child 0"], old: { node: 1, name: "" }, new: { node: 7, name: "x" }, nodeA: 0, nodeB: 0 };
  doc.nodes[0].children[0].name = "x";
  const edits = createEdits(doc);
  assert.deepEqual(takeBack(edits, docA(), c, { changes: [c], renumbered: [[1, 7]] }), { ok: true });
  assert.deepEqual(doc.nodes[0].children[0], { node: 7, name: "" });
  assert.deepEqual(edits.history.done.map((x) => x.label), ["Take back #0 Sequential · child 0"]);
});

// A renamed blackboard parameter (the path names it as the other file does) is taken back
// at its place; one only the other file has comes back last; one only the working copy has
// goes, its readers falling back to their values.
test("blackboard parameters: renamed, removed and added", () => {
  const doc = docB();
  doc.blackboard[1].name = "Clock";
  const edits = createEdits(doc);
  const rename = { op: "changed", path: ["blackboard Time"], old: {}, new: {} };
  assert.deepEqual(takeBack(edits, docA(), rename, { changes: [rename] }), { ok: true });
  assert.deepEqual(doc.blackboard, docA().blackboard);

  const a = docA();
  a.blackboard.push({ name: "Extra", type: "int", inherit: "none", value: 1 });
  const gone = { op: "removed", path: ["blackboard Extra"], old: {} };
  assert.deepEqual(takeBack(edits, a, gone, { changes: [gone] }), { ok: true });
  assert.deepEqual(doc.blackboard, a.blackboard);

  // Walk's input reads Time (1): with Dist (0) gone it reads parameter 0, Time.
  const added = { op: "added", path: ["blackboard Dist"], new: {} };
  const fewer = docA();
  fewer.blackboard.shift();
  assert.deepEqual(takeBack(edits, fewer, added, { changes: [added] }), { ok: true });
  assert.deepEqual(doc.blackboard.map((p) => p.name), ["Time", "Extra"]);
  assert.deepEqual(doc.nodes[1].inputs[0].source, { blackboard: 0 });
  assert.deepEqual(edits.history.done.map((x) => x.label), ["Take back blackboard Time", "Take back blackboard Extra", "Take back blackboard Dist"]);
  edits.undo();
  edits.undo();
  edits.undo();
  assert.deepEqual(doc.blackboard.map((p) => p.name), ["Dist", "Clock"]);
});

// Timers run by hand: fire() runs what is due.
function fakeTimers() {
  let next = 1;
  const due = new Map();
  return {
    setTimeout: (fn) => (due.set(next, fn), next++),
    clearTimeout: (id) => due.delete(id),
    pending: () => due.size,
    fire() {
      const fns = [...due.values()];
      due.clear();
      fns.forEach((fn) => fn());
    },
  };
}

// Questions answered by hand, in any order: answer(k, reply) settles the k-th.
function askLater() {
  const asked = [];
  const ask = () => new Promise((resolve, reject) => asked.push({ resolve, reject }));
  return { ask, asked, answer: (k, reply) => asked[k].resolve(reply) };
}

test("DiffRefresher: a burst of edits asks once, after the pause", async () => {
  const timers = fakeTimers(), q = askLater(), shown = [];
  const r = new DiffRefresher({ ask: q.ask, apply: (x) => shown.push(x), timers });
  r.schedule();
  r.schedule();
  r.schedule();
  assert.equal(q.asked.length, 0);
  assert.equal(timers.pending(), 1);
  timers.fire();
  assert.equal(q.asked.length, 1);
  q.answer(0, "fresh");
  await new Promise((res) => setImmediate(res));
  assert.deepEqual(shown, ["fresh"]);
});

test("DiffRefresher: an older answer coming last is dropped, and any after cancel", async () => {
  const timers = fakeTimers(), q = askLater(), shown = [], failed = [];
  const r = new DiffRefresher({ ask: q.ask, apply: (x) => shown.push(x), fail: (e) => failed.push(e.message), timers });
  const first = r.run(), second = r.run();
  q.answer(1, "new");
  q.answer(0, "old");
  assert.deepEqual([await first, await second], [false, true]);
  assert.deepEqual(shown, ["new"]);
  const third = r.run();
  r.cancel();
  q.answer(2, "late");
  assert.equal(await third, false);
  const fourth = r.run();
  q.asked[3].reject(new Error("422: bad"));
  assert.equal(await fourth, false);
  assert.deepEqual(shown, ["new"]);
  assert.deepEqual(failed, ["422: bad"]);
});

// A conflict's row names the node by id and title and, for objects alike in the rest, only
// the members that differ; other values whole.
test("conflict rows", () => {
  const prop = (v) => ({ name: "Speed", type: "float", value: v });
  assert.equal(conflictText({ path: ["node 1 Walk (guid g1)", "property Speed"], base: prop(1), ours: prop(2), theirs: prop(3) }, docB()),
    "#1 Walk · property Speed: value: base 1, ours 2, theirs 3");
  assert.equal(conflictText({ path: ["category"], base: "AI", ours: "A", theirs: "B" }, docB()), `category: base "AI", ours "A", theirs "B"`);
  assert.equal(conflictText({ path: ["node 2 Wait"], base: {}, theirs: { id: 2 } }, docB()), "node 2 Wait: base {}, ours (none), theirs {\"id\":2}");
});
