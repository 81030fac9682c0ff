// Unit tests of the edit module under node: every operation, its undo and its redo, on a
// bare document (createEdits). Run with `node --test static/` (node_test.go does).

import { test } from "node:test";
import assert from "node:assert/strict";
import { freeOffset } from "./placement.js";
import { createEdits, toF32, parseF32, toS32, toU32, toValue, CLIPBOARD_FORMAT } from "./edits.js";
import { indexById, sourceKind, computeEdges, reachable, nodeRows, conditionText, formatFloat, clampPositions, clampCoord, MAX_COORD } from "./model.js";

// A small document with one of everything the edits touch.
export function sampleDoc() {
  return {
    format: "ainb-editor-document/2",
    name: "sample.ainb",
    version: 1031,
    filename: "Sample",
    category: "AI",
    commands: [{ name: "Root", guid: "00000000-0000-4000-8000-000000000001", root: 0, secondary: -1 }],
    nodes: [
      { id: 0, type: "S32Selector", name: "", guid: "g0", residentInit: true, x: 0, y: 0,
        inputs: [{ name: "Value", type: "int", value: 0, source: { node: 1 } }],
        children: [
          { node: 2, name: "a", condition: { int: 1 } },
          { node: 3, name: "b", condition: { blackboard: 1 } },
          { node: 4, name: "default", condition: { int: 0 } },
        ] },
      { id: 1, type: "UserDefined", name: "Producer", guid: "g1", query: true, x: 340, y: 0,
        outputs: [
          { name: "OutInt", type: "int", connected: true },
          { name: "OutFloat", type: "float", connected: true },
          { name: "OutInt2", type: "int" },
        ] },
      { id: 2, type: "UserDefined", name: "Consumer", guid: "g2", x: 340, y: 200,
        properties: [
          { name: "PInt", type: "int", value: 5 },
          { name: "PBB", type: "float", value: 0, source: { blackboard: 2 } },
          { name: "PExpr", type: "int", value: 0, source: { expression: 0 } },
          { name: "PVec", type: "vec3f", value: [1, "0x80000000", 3] },
          { name: "PPtr", type: "pointer", className: "game::Thing", value: null },
        ],
        inputs: [
          { name: "InFloat", type: "float", value: 1.5, source: { node: 1, output: 1 } },
          { name: "Multi", type: "int", value: 0, sources: [{ node: 1 }, { node: 1, output: 2 }, {}] },
          { name: "InComp", type: "float", value: 0, source: { blackboard: 3, component: "y" } },
          { name: "InStr", type: "string", value: "hi" },
        ],
        outputs: [{ name: "Result", type: "int" }],
        queries: [1],
        attachments: [0] },
      { id: 3, type: "UserDefined", name: "Leaf", guid: "g3", x: 340, y: 400,
        jumps: [{ node: 4, type: 0, command: "Root" }] },
      { id: 4, type: "UserDefined", name: "Leaf", guid: "g4", x: 340, y: 600,
        properties: [{ name: "Team", type: "int", value: 12 }] },
    ],
    attachments: [{ name: "Att", debug: 0, properties: [{ name: "AP", type: "float", value: 2, source: { blackboard: 2 } }] }],
    blackboard: [
      { name: "S", type: "string", inherit: "none", value: "" },
      { name: "I", type: "int", inherit: "none", value: 3 },
      { name: "F", type: "float", inherit: "root", value: 0.5 },
      { name: "V", type: "vec3f", inherit: "none", value: [0, 0, 0] },
    ],
    expressions: { version: 2, functions: [{ text: ".main\nRET\n" }, { text: ".main\nNOP\nRET\n" }] },
    modules: [],
    moduleCall: { blackboardId: 0, parentBlackboardId: 0 },
    replacements: [
      { type: "removeChild", node: 0, index: 1 },
      { type: "replaceChild", node: 0, index: 2, new: 3 },
    ],
    enumRelocations: [
      { className: "Lp::Team", valueName: "Alpha", target: { node: 4, property: 0 } },
      { className: "Lp::Team", valueName: "Bravo", target: { node: 2, property: 0 } },
    ],
    section58: null,
    hasSection6C: false,
    layout: "opaque-layout-facts",
  };
}

// Every reference of the document leads somewhere.
function check(doc) {
  const index = indexById(doc);
  assert.equal(index.size, doc.nodes.length, "node ids are unique");
  const isNode = (id, what) => assert.ok(index.has(id), `${what}: no node #${id}`);
  for (const c of doc.commands) {
    isNode(c.root, `command ${c.name}`);
    if (c.secondary !== -1) isNode(c.secondary, `secondary of ${c.name}`);
  }
  const bb = doc.blackboard || [];
  const fns = (doc.expressions && doc.expressions.functions) || [];
  const src = (s, what) => {
    switch (sourceKind(s)) {
      case "node":
        isNode(s.node, what);
        if (s.expression !== undefined) assert.ok(fns[s.expression], `${what}: through no expression ${s.expression}`);
        break;
      case "blackboard": assert.ok(bb[s.blackboard], `${what}: no blackboard parameter ${s.blackboard}`); break;
      case "expression": assert.ok(fns[s.expression], `${what}: no expression ${s.expression}`); break;
    }
  };
  const owner = (o, what) => {
    for (const p of o.properties || []) if (p.source) src(p.source, `${what}.${p.name}`);
    for (const i of o.inputs || []) {
      assert.ok(!(i.source && i.sources), `${what}.${i.name}: source and sources`);
      if (i.source) src(i.source, `${what}.${i.name}`);
      for (const s of i.sources || []) src(s, `${what}.${i.name}[]`);
    }
  };
  for (const n of doc.nodes) {
    owner(n, `#${n.id}`);
    for (const c of n.children || []) {
      isNode(c.node, `child of #${n.id}`);
      for (const key of ["blackboard", "minBlackboard", "maxBlackboard"]) if (c.condition && c.condition[key] !== undefined) assert.ok(bb[c.condition[key]]);
    }
    for (const j of n.jumps || []) isNode(j.node, `jump of #${n.id}`);
    for (const q of n.queries || []) isNode(q, `query of #${n.id}`);
    for (const a of n.attachments || []) assert.ok(doc.attachments[a], `attachment ${a} of #${n.id}`);
    for (const key of ["children", "jumps", "queries", "attachments", "properties", "inputs", "outputs"]) {
      if (n[key] !== undefined) assert.ok(Array.isArray(n[key]), `#${n.id}.${key}`);
    }
  }
  (doc.attachments || []).forEach((a, k) => owner(a, `attachment ${k}`));
  for (const r of doc.replacements || []) {
    isNode(r.node, "replacement");
    if (r.new !== undefined) isNode(r.new, "replacement new");
  }
  for (const r of doc.enumRelocations || []) if (r.target && r.target.node !== undefined) isNode(r.target.node, "relocation");
  assert.equal(doc.layout, "opaque-layout-facts", "the layout passes through untouched");
  // Plain JSON: what JSON.stringify writes reads back as the same document.
  assert.deepEqual(JSON.parse(JSON.stringify(doc)), doc);
}

// Runs an edit and checks that it changed the document, that undo restores the exact text
// and redo the edited one.
function roundTrip(doc, ed, fn, expectChange = true) {
  const before = JSON.stringify(doc);
  const res = fn();
  const after = JSON.stringify(doc);
  check(doc);
  if (!expectChange) {
    assert.equal(after, before, "the edit changed nothing");
    return res;
  }
  assert.notEqual(after, before, "the edit changed the document");
  ed.undo();
  assert.equal(JSON.stringify(doc), before, "undo restores the document exactly");
  ed.redo();
  assert.equal(JSON.stringify(doc), after, "redo applies the edit again");
  return res;
}

function setup() {
  const doc = sampleDoc();
  const ed = createEdits(doc);
  check(doc);
  return { doc, ed, node: (id) => doc.nodes.find((n) => n.id === id) };
}

test("floats: f32 rounding, NaN, infinities and -0 as bits", () => {
  assert.equal(toF32(1.1), Math.fround(1.1));
  assert.equal(toF32(-0), "0x80000000");
  assert.equal(toF32(NaN), "0x7fc00000");
  assert.equal(toF32(Infinity), "0x7f800000");
  assert.equal(toF32(-Infinity), "0xff800000");
  assert.equal(toF32(1e40), "0x7f800000");
  assert.equal(parseF32("-0"), "0x80000000");
  assert.equal(parseF32("nan"), "0x7fc00000");
  assert.equal(parseF32("-inf"), "0xff800000");
  assert.equal(parseF32("0x7FC00001"), "0x7fc00001", "a NaN keeps its payload");
  assert.equal(parseF32("0x3f800000"), 1, "bits of an ordinary float read as the number");
  assert.equal(parseF32("1e3"), 1000);
  assert.equal(parseF32("abc"), null);
  assert.equal(formatFloat("0x80000000"), "-0");
  assert.equal(formatFloat("0x7f800000"), "inf");
  assert.equal(formatFloat(Math.fround(1.1)), "1.1");
  assert.equal(toS32(99999999999), 2147483647);
  assert.equal(toS32(-99999999999), -2147483648);
  assert.equal(toU32(4000000000), 4000000000);
  assert.equal(toU32(-1), 0);
  assert.deepEqual(toValue("vec3f", "-0", 1, [1, 2, 3]), [1, "0x80000000", 3]);
  assert.equal(toValue("bool", 1), true);
  assert.equal(toValue("pointer", 5), null);
});

test("setValue: every type, clamped and converted", () => {
  const { doc, ed, node } = setup();
  const p = (k) => ({ node: 2, list: "properties", index: k });
  roundTrip(doc, ed, () => ed.setValue(p(0), 99999999999));
  assert.equal(node(2).properties[0].value, 2147483647);
  roundTrip(doc, ed, () => ed.setValue(p(1), 1.1));
  assert.equal(node(2).properties[1].value, Math.fround(1.1));
  roundTrip(doc, ed, () => ed.setValue(p(1), NaN));
  assert.equal(node(2).properties[1].value, "0x7fc00000");
  roundTrip(doc, ed, () => ed.setValue(p(1), "-0"));
  assert.equal(node(2).properties[1].value, "0x80000000");
  roundTrip(doc, ed, () => ed.setValue(p(3), "0x80000000", 0));
  assert.deepEqual(node(2).properties[3].value, ["0x80000000", "0x80000000", 3]);
  roundTrip(doc, ed, () => ed.setValue(p(3), [1, 2, -0]));
  assert.deepEqual(node(2).properties[3].value, [1, 2, "0x80000000"]);
  roundTrip(doc, ed, () => ed.setValue({ node: 2, list: "inputs", index: 3 }, "there"));
  assert.equal(node(2).inputs[3].value, "there");
  roundTrip(doc, ed, () => ed.setValue({ attachment: 0, index: 0 }, 7.5));
  assert.equal(doc.attachments[0].properties[0].value, 7.5);
  assert.equal(roundTrip(doc, ed, () => ed.setValue(p(4), 1), false), false, "pointers have no value");
  assert.equal(roundTrip(doc, ed, () => ed.setValue(p(0), 2147483647), false), false, "the same value is no edit");
  // bool
  node(4).properties.push({ name: "B", type: "bool", value: false });
  roundTrip(doc, ed, () => ed.setValue({ node: 4, list: "properties", index: 1 }, 1));
  assert.equal(node(4).properties[1].value, true);
});

test("sources: value, node, blackboard (with component), expression", () => {
  const { doc, ed, node } = setup();
  const inp = (k) => ({ node: 2, list: "inputs", index: k });
  // An input falls back to its value.
  roundTrip(doc, ed, () => ed.setSource(inp(0), null));
  assert.equal(node(2).inputs[0].source, undefined);
  // ...reads a blackboard parameter, a vector component, an expression.
  roundTrip(doc, ed, () => ed.setSource(inp(0), { blackboard: 2 }));
  assert.deepEqual(node(2).inputs[0].source, { blackboard: 2 });
  roundTrip(doc, ed, () => ed.setSource(inp(0), { blackboard: 3, component: "z" }));
  assert.deepEqual(node(2).inputs[0].source, { blackboard: 3, component: "z" });
  roundTrip(doc, ed, () => ed.setSource(inp(0), { expression: 1 }));
  assert.deepEqual(node(2).inputs[0].source, { expression: 1 });
  // A property reads the blackboard or an expression, never a node.
  roundTrip(doc, ed, () => ed.setSource({ node: 2, list: "properties", index: 0 }, { blackboard: 1 }));
  assert.deepEqual(node(2).properties[0].source, { blackboard: 1 });
  const r = roundTrip(doc, ed, () => ed.setSource({ node: 2, list: "properties", index: 0 }, { node: 1 }), false);
  assert.equal(r.ok, false);
  // Wrong types, missing parameters and expressions are refused.
  assert.equal(roundTrip(doc, ed, () => ed.setSource(inp(0), { blackboard: 1 }), false).ok, false, "a float cannot read an int parameter");
  assert.equal(roundTrip(doc, ed, () => ed.setSource(inp(3), { blackboard: 3, component: "x" }), false).ok, false, "only floats read components");
  assert.equal(roundTrip(doc, ed, () => ed.setSource(inp(0), { blackboard: 9 }), false).ok, false);
  assert.equal(roundTrip(doc, ed, () => ed.setSource(inp(0), { expression: 9 }), false).ok, false);
  // One source of a multi-input.
  roundTrip(doc, ed, () => ed.setSource({ ...inp(1), source: 2 }, { blackboard: 1 }));
  assert.deepEqual(node(2).inputs[1].sources[2], { blackboard: 1 });
  roundTrip(doc, ed, () => ed.setSource({ ...inp(1), source: 0 }, null));
  assert.deepEqual(node(2).inputs[1].sources[0], {});
  roundTrip(doc, ed, () => ed.addSource(inp(1), { expression: 0 }));
  assert.deepEqual(node(2).inputs[1].sources.at(-1), { expression: 0 });
  // A property keeps its "uses default": PBB read the blackboard (usual: false), so falling
  // back to its value writes false; setting a source again makes it the usual once more.
  roundTrip(doc, ed, () => ed.setSource({ node: 2, list: "properties", index: 1 }, null));
  assert.equal(node(2).properties[1].usesDefault, false);
  roundTrip(doc, ed, () => ed.setSource({ node: 2, list: "properties", index: 1 }, { blackboard: 2 }));
  assert.equal("usesDefault" in node(2).properties[1], false);
  // usesDefault follows an input's source again.
  node(2).inputs[2].usesDefault = true;
  roundTrip(doc, ed, () => ed.setSource(inp(2), { blackboard: 2 }));
  assert.equal(node(2).inputs[2].usesDefault, undefined);
});

test("connect and disconnect: types must match, multi-inputs gain sources", () => {
  const { doc, ed, node } = setup();
  assert.match(roundTrip(doc, ed, () => ed.connect(1, 1, 0, 0), false).reason, /type mismatch/);
  assert.match(roundTrip(doc, ed, () => ed.connect(2, 0, 2, 1), false).reason, /own input/);
  assert.equal(roundTrip(doc, ed, () => ed.connect(1, 0, 0, 0), false).reason, "already connected");
  assert.equal(roundTrip(doc, ed, () => ed.connect(9, 0, 0, 0), false).ok, false);
  roundTrip(doc, ed, () => assert.equal(ed.connect(1, 2, 0, 0).ok, true));
  assert.deepEqual(node(0).inputs[0].source, { node: 1, output: 2 });
  roundTrip(doc, ed, () => assert.equal(ed.connect(2, 0, 0, 0).ok, true));
  assert.deepEqual(node(0).inputs[0].source, { node: 2 });
  // A multi-input gains a source.
  roundTrip(doc, ed, () => assert.equal(ed.connect(2, 0, 4, 0).ok, false), false);
  node(4).inputs = [{ name: "M", type: "int", value: 0, sources: [] }];
  roundTrip(doc, ed, () => assert.equal(ed.connect(2, 0, 4, 0).ok, true));
  roundTrip(doc, ed, () => assert.equal(ed.connect(1, 0, 4, 0).ok, true));
  assert.deepEqual(node(4).inputs[0].sources, [{ node: 2 }, { node: 1 }]);
  // Disconnecting a single input falls back to the value; a multi-input loses one source.
  roundTrip(doc, ed, () => assert.equal(ed.disconnect(0, 0), true));
  assert.equal(node(0).inputs[0].source, undefined);
  roundTrip(doc, ed, () => assert.equal(ed.disconnect(2, 1, 0), true));
  assert.deepEqual(node(2).inputs[1].sources, [{ node: 1, output: 2 }, {}]);
  roundTrip(doc, ed, () => assert.equal(ed.disconnect(4, 0), true));
  assert.deepEqual(node(4).inputs[0].sources, [{ node: 2 }], "the last source goes by default");
  roundTrip(doc, ed, () => assert.equal(ed.disconnect(4, 0, 0), true));
  assert.deepEqual(node(4).inputs[0].sources, [], "an empty multi-input stays a multi-input");
  roundTrip(doc, ed, () => assert.equal(ed.disconnect(4, 0), false), false);
});

test("renames: nodes, properties, inputs, outputs, commands, blackboard parameters", () => {
  const { doc, ed, node } = setup();
  roundTrip(doc, ed, () => ed.renameNode(2, "Renamed"));
  assert.equal(node(2).name, "Renamed");
  roundTrip(doc, ed, () => ed.renameItem({ node: 2, list: "properties", index: 0 }, "P0"));
  roundTrip(doc, ed, () => ed.renameItem({ node: 2, list: "inputs", index: 0 }, "I0"));
  roundTrip(doc, ed, () => ed.renameItem({ node: 1, list: "outputs", index: 0 }, "O0"));
  roundTrip(doc, ed, () => ed.renameItem({ attachment: 0, index: 0 }, "A0"));
  assert.deepEqual([node(2).properties[0].name, node(2).inputs[0].name, node(1).outputs[0].name, doc.attachments[0].properties[0].name], ["P0", "I0", "O0", "A0"]);
  roundTrip(doc, ed, () => ed.renameCommand(0, "Main"));
  assert.equal(doc.commands[0].name, "Main");
  roundTrip(doc, ed, () => ed.renameBlackboard(1, "Int1"));
  assert.equal(doc.blackboard[1].name, "Int1");
  roundTrip(doc, ed, () => ed.setChildName(0, 0, "first"));
  assert.equal(node(0).children[0].name, "first");
});

test("node flags are named booleans, absent when off", () => {
  const { doc, ed, node } = setup();
  roundTrip(doc, ed, () => ed.setNodeFlag(2, "query", true));
  assert.equal(node(2).query, true);
  roundTrip(doc, ed, () => ed.setNodeFlag(0, "residentInit", false));
  assert.equal("residentInit" in node(0), false);
  roundTrip(doc, ed, () => ed.setNodeFlag(2, "moduleCaller", true));
  roundTrip(doc, ed, () => ed.setNodeFlag(2, "multiParamV2", true));
  assert.equal(roundTrip(doc, ed, () => ed.setNodeFlag(2, "bogus", true), false), false);
});

test("children: set, add (before a selector's default), remove, conditions, replacements follow", () => {
  const { doc, ed, node } = setup();
  assert.equal(roundTrip(doc, ed, () => ed.setChild(0, 0, 0), false).ok, false);
  assert.equal(roundTrip(doc, ed, () => ed.setChild(0, 0, 99), false).ok, false);
  roundTrip(doc, ed, () => ed.setChild(0, 0, 1));
  assert.equal(node(0).children[0].node, 1);
  const res = roundTrip(doc, ed, () => ed.addChild(0, 3, "new"));
  assert.equal(res.index, 2, "the default branch stays last");
  assert.deepEqual(node(0).children[2], { node: 3, name: "new", condition: { int: 2 } });
  assert.equal(node(0).children[3].name, "default");
  assert.deepEqual(doc.replacements[1], { type: "replaceChild", node: 0, index: 3, new: 3 }, "the replacement follows its child");
  roundTrip(doc, ed, () => ed.removeChild(0, 1));
  assert.deepEqual(node(0).children.map((c) => c.name), ["a", "new", "default"]);
  assert.equal(doc.replacements.length, 1, "the replacement of the removed child goes");
  assert.equal(doc.replacements[0].index, 2);
  // A plain node gets children without conditions, and its list goes when emptied.
  roundTrip(doc, ed, () => ed.addChild(3, 4));
  assert.deepEqual(node(3).children, [{ node: 4, name: "" }]);
  roundTrip(doc, ed, () => ed.removeChild(3, 0));
  assert.equal("children" in node(3), false);
  // Conditions.
  roundTrip(doc, ed, () => ed.setCondition(0, 0, "int", 1e12));
  assert.equal(node(0).children[0].condition.int, 2147483647);
  roundTrip(doc, ed, () => ed.setCondition(0, 0, "blackboard", 1));
  assert.equal(node(0).children[0].condition.blackboard, 1);
  roundTrip(doc, ed, () => ed.setCondition(0, 0, "blackboard", null));
  assert.equal("blackboard" in node(0).children[0].condition, false);
  assert.equal(roundTrip(doc, ed, () => ed.setCondition(0, 0, "blackboard", 99), false), false);
  // Only what the selector compares: an S32 selector has no weight nor string, and compares
  // with int parameters only; children of other nodes have no condition.
  for (const [key, v] of [["weight", NaN], ["string", "x"], ["min", 1], ["blackboard", 2], ["blackboard", 0]]) {
    assert.equal(roundTrip(doc, ed, () => ed.setCondition(0, 0, key, v), false), false, `${key} ${v}`);
  }
  roundTrip(doc, ed, () => ed.addChild(3, 4));
  assert.equal(roundTrip(doc, ed, () => ed.setCondition(3, 0, "int", 1), false), false, "not a selector");
  // A random selector weighs its children, with float parameters.
  node(3).type = "RandomSelector";
  roundTrip(doc, ed, () => ed.setCondition(3, 0, "weight", NaN));
  assert.equal(node(3).children[0].condition.weight, "0x7fc00000");
  roundTrip(doc, ed, () => ed.setCondition(3, 0, "blackboard", 2));
  assert.equal(roundTrip(doc, ed, () => ed.setCondition(3, 0, "blackboard", 1), false), false, "an int parameter");
});

test("the default branch of S32, F32 and string selectors holds the condition files hold there", () => {
  const { doc, ed, node } = setup();
  // Not compared, so not edited: the inspector shows no fields for it.
  assert.equal(roundTrip(doc, ed, () => ed.setCondition(0, 2, "int", 5), false), false);
  // Removing the default branch makes the child before it the default.
  roundTrip(doc, ed, () => ed.removeChild(0, 2));
  assert.deepEqual(node(0).children[1], { node: 3, name: "b", condition: { int: 0 } });
  ed.undo();
  assert.deepEqual(node(0).children[1], { node: 3, name: "b", condition: { blackboard: 1 } });
  // So does deleting the node it leads to.
  roundTrip(doc, ed, () => ed.deleteNodes([4]));
  assert.deepEqual(node(0).children.map((c) => c.condition), [{ int: 1 }, { int: 0 }]);
  ed.undo();
  // And a copy whose default branch is cut.
  const [copy] = roundTrip(doc, ed, () => ed.paste(ed.copyNodes([0, 2, 3]), [0, 900], true));
  assert.deepEqual(node(copy).children.map((c) => c.condition), [{ int: 1 }, { int: 0 }]);
  // The first child of an empty selector is its default branch.
  for (const [type, cond] of [["S32Selector", { int: 0 }], ["F32Selector", { min: 0, max: 0 }], ["StringSelector", { string: "その他" }]]) {
    node(4).type = type;
    roundTrip(doc, ed, () => ed.addChild(4, 3));
    assert.deepEqual(node(4).children[0].condition, cond, type);
    ed.undo();
  }
});

test("renaming a node into or out of a BSA selector class adds or drops its children's conditions", () => {
  const { doc, ed, node } = setup();
  roundTrip(doc, ed, () => ed.addChild(3, 4, "x"));
  roundTrip(doc, ed, () => ed.addChild(3, 2, "y"));
  roundTrip(doc, ed, () => ed.renameNode(3, "SelectorBSABrainVerbUpdater"));
  assert.deepEqual(node(3).children, [{ node: 4, name: "x", condition: { int: 0 } }, { node: 2, name: "y", condition: { int: 1 } }]);
  roundTrip(doc, ed, () => ed.setCondition(3, 1, "blackboard", 1));
  roundTrip(doc, ed, () => ed.renameNode(3, "SelectorBSAFormChangeUpdater"));
  assert.deepEqual(node(3).children[1].condition, { int: 1, blackboard: 1 }, "still a BSA selector: conditions stay");
  roundTrip(doc, ed, () => ed.renameNode(3, "ectorBSAFormChangeUpdater"));
  assert.deepEqual(node(3).children, [{ node: 4, name: "x" }, { node: 2, name: "y" }]);
  roundTrip(doc, ed, () => ed.renameNode(0, "named"), true);
  assert.deepEqual(node(0).children[0].condition, { int: 1 }, "a built-in selector keeps its conditions");
});

test("jumps and queries", () => {
  const { doc, ed, node } = setup();
  roundTrip(doc, ed, () => ed.setJump(3, 0, "command", "Other"));
  assert.equal(node(3).jumps[0].command, "Other");
  roundTrip(doc, ed, () => ed.setJump(3, 0, "node", 2));
  roundTrip(doc, ed, () => ed.setJump(3, 0, "postCalc", true));
  roundTrip(doc, ed, () => ed.setJump(3, 0, "type", 1));
  assert.deepEqual(node(3).jumps[0], { node: 2, type: 1, postCalc: true }, "only type 0 jumps name a command");
  assert.equal(roundTrip(doc, ed, () => ed.setJump(3, 0, "command", "Other"), false), false, "not on a type 1 jump");
  for (const bad of [256, -1, 1.5, "x"]) assert.equal(roundTrip(doc, ed, () => ed.setJump(3, 0, "type", bad), false), false, `type ${bad}`);
  roundTrip(doc, ed, () => ed.setJump(3, 0, "type", 0));
  roundTrip(doc, ed, () => ed.setJump(3, 0, "command", "Other"));
  assert.deepEqual(node(3).jumps[0], { node: 2, type: 0, command: "Other", postCalc: true });
  roundTrip(doc, ed, () => ed.addJump(4, 3, "Root"));
  roundTrip(doc, ed, () => ed.removeJump(3, 0));
  assert.equal("jumps" in node(3), false);
  roundTrip(doc, ed, () => ed.addQuery(4, 1));
  assert.deepEqual(node(4).queries, [1]);
  roundTrip(doc, ed, () => ed.removeQuery(2, 0));
  assert.equal("queries" in node(2), false);
});

test("queries read only query nodes; a node that stops being one is no longer read", () => {
  const { doc, ed, node } = setup();
  assert.equal(roundTrip(doc, ed, () => ed.addQuery(4, 3), false), false, "node 3 is not a query node");
  roundTrip(doc, ed, () => ed.addQuery(4, 1));
  roundTrip(doc, ed, () => ed.setNodeFlag(1, "query", false));
  assert.equal("query" in node(1), false);
  assert.equal("queries" in node(2), false, "node 2 read only node 1");
  assert.equal("queries" in node(4), false);
  ed.undo();
  assert.deepEqual(node(2).queries, [1]);
  assert.deepEqual(node(4).queries, [1]);
});

test("delete: references are cut, nothing is renumbered, command roots are kept", () => {
  const { doc, ed, node } = setup();
  const r = roundTrip(doc, ed, () => ed.deleteNodes([0]), false);
  assert.equal(r.ok, false);
  assert.match(r.reason, /root of command 0/);
  roundTrip(doc, ed, () => ed.deleteNodes([1]));
  assert.equal(node(1), undefined);
  assert.deepEqual(doc.nodes.map((n) => n.id), [0, 2, 3, 4], "ids stay");
  assert.equal(node(0).inputs[0].source, undefined, "a single input falls back to its value");
  assert.equal(node(2).inputs[0].source, undefined);
  assert.deepEqual(node(2).inputs[1].sources, [{}], "multi-input sources from the node go");
  assert.equal("queries" in node(2), false);
  ed.undo();
  roundTrip(doc, ed, () => ed.deleteNodes([4]));
  assert.deepEqual(node(0).children.map((c) => c.node), [2, 3], "children to it go");
  assert.equal("jumps" in node(3), false, "jumps to it go");
  assert.deepEqual(doc.replacements, [{ type: "removeChild", node: 0, index: 1 }]);
  assert.deepEqual(doc.enumRelocations.map((r) => r.valueName), ["Bravo"], "its relocation goes, the others stay");
  ed.undo();
  roundTrip(doc, ed, () => ed.deleteNodes([3]));
  assert.equal(doc.replacements.length, 0, "replacements naming it (also as new) go");
  assert.deepEqual(node(0).children.map((c) => c.node), [2, 4]);
  ed.undo();
  roundTrip(doc, ed, () => ed.deleteNodes([2, 3, 4]));
  assert.equal(doc.nodes.length, 2);
  assert.equal("children" in node(0), false);
});

test("add, duplicate: new ids and GUIDs, links among copies follow, not pinned", () => {
  const { doc, ed, node } = setup();
  const id = roundTrip(doc, ed, () => ed.addNode({ type: "Sequential", name: "", guid: "", properties: [] }, 10, 20));
  assert.equal(id, 5);
  // Asked for on top of node 0 (at 0, 0), the new node (38 high) goes just above it, GAP
  // clear: nearer than below it (node 0 is 110 high).
  assert.deepEqual([node(5).x, node(5).y], [10, -20 - 38]);
  assert.notEqual(node(5).guid, "");
  node(3).pinned = true;
  const ids = roundTrip(doc, ed, () => ed.duplicate([0, 2, 3]));
  assert.deepEqual(ids, [6, 7, 8]);
  const [c0, c2, c3] = ids.map(node);
  assert.deepEqual(c0.children.map((c) => c.node), [7, 8, 4], "children among the copies follow them");
  assert.deepEqual(c0.inputs[0].source, { node: 1 }, "links to other nodes stay");
  assert.deepEqual(c2.inputs[1].sources, [{ node: 1 }, { node: 1, output: 2 }, {}]);
  assert.equal(c3.pinned, undefined, "copies are not pinned");
  // Asked for 40 right and down of the originals, the copies keep their arrangement and
  // move together to the nearest clear place: left of the originals and below the node
  // added above, GAP clear of both.
  assert.deepEqual([c0.x, c0.y, c2.x - c0.x, c2.y - c0.y, c3.y - c0.y], [-280, 130, 340, 200, 400]);
  assert.deepEqual(freeOffset(doc.nodes.slice(0, 6), [c0, c2, c3]), [0, 0], "the copies overlap nothing");
  assert.notEqual(c2.guid, node(2).guid);
  assert.deepEqual(Object.keys(c2).slice(0, 4), ["id", "type", "name", "guid"]);
});

test("0x404 files: new nodes get state info", () => {
  const { doc, ed, node } = setup();
  doc.version = 1028;
  const id = ed.addNode({ type: "Sequential", name: "", guid: "" }, 0, 0);
  assert.deepEqual(node(id).stateInfo, { desiredState: "", unknown: [0, 0, 0, 0] });
});

test("copy and paste in the same document keep links to nodes not copied", () => {
  const { doc, ed, node } = setup();
  const clip = ed.copyNodes([2, 3], "me");
  assert.equal(clip.format, CLIPBOARD_FORMAT);
  assert.deepEqual(Object.keys(clip.attachments), ["0"]);
  assert.deepEqual(clip.blackboard, { 2: { name: "F", type: "float" }, 3: { name: "V", type: "vec3f" } });
  assert.deepEqual(clip.expressions, { 0: ".main\nRET\n" });
  const ids = roundTrip(doc, ed, () => ed.paste(JSON.parse(JSON.stringify(clip)), [1000, 2000], false));
  assert.deepEqual(ids, [5, 6]);
  assert.deepEqual([node(5).x, node(5).y, node(6).x, node(6).y], [1000, 2000, 1000, 2200]);
  assert.deepEqual(node(5).queries, [1]);
  assert.deepEqual(node(5).inputs[0].source, { node: 1, output: 1 });
  assert.deepEqual(node(6).jumps, [{ node: 4, type: 0, command: "Root" }]);
  assert.deepEqual(node(5).attachments, [0], "the same attachment");
  assert.equal(doc.history === undefined, true);
  assert.equal(ed.history.done.at(-1).label, "Paste 2 nodes");
});

test("cross-file paste: blackboard by type and name, expressions by text, else values", () => {
  const src = setup();
  const clip = JSON.parse(JSON.stringify(src.ed.copyNodes([0, 2, 4], "other")));
  const doc = sampleDoc();
  // The target has F (float) at another index, no V, and only the second expression.
  doc.blackboard = [{ name: "F", type: "float", inherit: "none", value: 0 }, { name: "I", type: "string", inherit: "none", value: "" }];
  doc.expressions.functions = [{ text: "other" }, { text: ".main\nRET\n" }];
  doc.attachments = [];
  for (const n of doc.nodes) {
    delete n.attachments;
    for (const p of n.properties || []) delete p.source;
    for (const i of n.inputs || []) if (i.source && i.source.blackboard !== undefined) delete i.source;
    for (const c of n.children || []) if (c.condition) delete c.condition.blackboard;
  }
  const ed = createEdits(doc);
  check(doc);
  const ids = roundTrip(doc, ed, () => ed.paste(clip, [0, 5000], true));
  assert.deepEqual(ids, [5, 6, 7]);
  assert.equal(ed.history.done.at(-1).label, "Paste 3 nodes from another file");
  const node = (id) => doc.nodes.find((n) => n.id === id);
  const [sel, consumer, leaf] = ids.map(node);
  assert.deepEqual(sel.children.map((c) => c.node), [6, 7], "children among the copies follow; to node 3 (not copied) go");
  assert.equal(sel.inputs[0].source, undefined, "a source from a node not copied falls back to the value");
  assert.deepEqual(consumer.properties[1].source, { blackboard: 0 }, "F found by type and name");
  assert.deepEqual(consumer.properties[2].source, { expression: 1 }, "the expression found by its text");
  assert.equal(consumer.inputs[2].source, undefined, "V is not here: the value");
  assert.deepEqual(consumer.inputs[1].sources, [{}], "multi sources from nodes not copied go");
  assert.equal("queries" in consumer, false);
  assert.deepEqual(consumer.attachments, [0]);
  assert.equal(doc.attachments.length, 1);
  assert.deepEqual(doc.attachments[0].properties[0].source, { blackboard: 0 });
  assert.equal(leaf.properties[0].value, 12);
  // The type must match too: "I" is a string here, the copy's I an int.
  const clip2 = JSON.parse(JSON.stringify(src.ed.copyNodes([0, 3], "other")));
  ed.paste(clip2, [0, 0], true);
  const sel2 = doc.nodes.at(-2);
  assert.equal("blackboard" in sel2.children.find((c) => c.name === "b").condition, false, "an int condition does not take the string parameter I");
  check(doc);
});

test("commands: add, rename, set roots, remove", () => {
  const { doc, ed } = setup();
  const k = roundTrip(doc, ed, () => ed.addCommand("Second", 3));
  assert.equal(k, 1);
  assert.equal(doc.commands[1].root, 3);
  assert.equal(doc.commands[1].secondary, -1);
  assert.match(doc.commands[1].guid, /^[0-9a-f]{8}-/);
  roundTrip(doc, ed, () => ed.setCommandRoot(1, 4));
  roundTrip(doc, ed, () => ed.setCommandRoot(1, 2, "secondary"));
  assert.deepEqual([doc.commands[1].root, doc.commands[1].secondary], [4, 2]);
  roundTrip(doc, ed, () => ed.setCommandRoot(1, -1, "secondary"));
  assert.equal(roundTrip(doc, ed, () => ed.setCommandRoot(1, 99), false), false);
  roundTrip(doc, ed, () => ed.removeCommand(0));
  assert.deepEqual(doc.commands.map((c) => c.name), ["Second"]);
  // Node 0 is no root any more, so it can go.
  assert.equal(roundTrip(doc, ed, () => ed.deleteNodes([0])).ok, true);
});

test("blackboard: add, defaults of every type, fields, remove renumbers references", () => {
  const { doc, ed, node } = setup();
  const k = roundTrip(doc, ed, () => ed.addBlackboard("float", "Added"));
  assert.equal(k, 4);
  assert.deepEqual(doc.blackboard[4], { name: "Added", type: "float", inherit: "none", value: 0 });
  assert.equal(roundTrip(doc, ed, () => ed.addBlackboard("u32", "U"), false), -1, "no u32 before 0x408");
  doc.version = 1032;
  const u = roundTrip(doc, ed, () => ed.addBlackboard("u32", "U"));
  roundTrip(doc, ed, () => ed.setBlackboardValue(u, 4000000000));
  assert.equal(doc.blackboard[u].value, 4000000000);
  roundTrip(doc, ed, () => ed.setBlackboardValue(4, "-0"));
  assert.equal(doc.blackboard[4].value, "0x80000000");
  roundTrip(doc, ed, () => ed.setBlackboardValue(3, -0.5, 1));
  assert.deepEqual(doc.blackboard[3].value, [0, -0.5, 0]);
  roundTrip(doc, ed, () => ed.setBlackboardValue(0, "text"));
  roundTrip(doc, ed, () => ed.setBlackboardValue(1, 1e12));
  assert.equal(doc.blackboard[1].value, 2147483647);
  const b = ed.addBlackboard("bool", "B");
  roundTrip(doc, ed, () => ed.setBlackboardValue(b, true));
  const p = ed.addBlackboard("pointer", "P");
  assert.equal(doc.blackboard[p].value, null);
  assert.equal(roundTrip(doc, ed, () => ed.setBlackboardValue(p, 1), false), false);
  roundTrip(doc, ed, () => ed.setBlackboardField(4, "file", "Work/AI/Added.ainb"));
  roundTrip(doc, ed, () => ed.setBlackboardField(4, "notes", "a note"));
  roundTrip(doc, ed, () => ed.setBlackboardField(4, "inherit", "parent"));
  assert.deepEqual(doc.blackboard[4], { name: "Added", type: "float", inherit: "parent", value: "0x80000000", file: "Work/AI/Added.ainb", notes: "a note" });
  roundTrip(doc, ed, () => ed.setBlackboardField(4, "file", ""));
  assert.equal("file" in doc.blackboard[4], false);
  assert.equal(roundTrip(doc, ed, () => ed.setBlackboardField(4, "inherit", "bogus"), false), false);

  // Removing I (1): the condition that compared with it falls back to its constant; later
  // parameters move down by one.
  roundTrip(doc, ed, () => ed.removeBlackboard(1));
  assert.equal("blackboard" in node(0).children[1].condition, false);
  assert.deepEqual(node(2).properties[1].source, { blackboard: 1 }, "F moved from 2 to 1");
  assert.deepEqual(node(2).inputs[2].source, { blackboard: 2, component: "y" }, "V moved from 3 to 2");
  assert.deepEqual(doc.attachments[0].properties[0].source, { blackboard: 1 });
  // Removing F (now 1): what read it takes its own value.
  roundTrip(doc, ed, () => ed.removeBlackboard(1));
  assert.equal(node(2).properties[1].source, undefined);
  assert.equal(doc.attachments[0].properties[0].source, undefined);
  assert.deepEqual(node(2).inputs[2].source, { blackboard: 1, component: "y" });
  // A multi-input's source reading it becomes the immediate value.
  node(2).inputs[1].sources.push({ blackboard: 1, isOutput: true });
  roundTrip(doc, ed, () => ed.removeBlackboard(1));
  assert.deepEqual(node(2).inputs[1].sources.at(-1), { isOutput: true });
});

test("expressions: edit, add, remove renumbers references", () => {
  const { doc, ed, node } = setup();
  roundTrip(doc, ed, () => ed.setExpressionText(0, ".main\nNOP\n"));
  assert.equal(ed.history.done.at(-1).label, "Edit expression 0");
  const k = roundTrip(doc, ed, () => ed.addExpression(".main\n"));
  assert.equal(k, 2);
  node(4).properties[0].source = { expression: 1 };
  roundTrip(doc, ed, () => ed.removeExpression(0));
  assert.equal(node(2).properties[2].source, undefined);
  assert.deepEqual(node(4).properties[0].source, { expression: 0 });
  doc.expressions = null;
  assert.equal(ed.addExpression("x"), -1);
});

// A node output may go through an expression before the input gets it ({node, output,
// expression}): the expression is renumbered with the others, removing it keeps the link,
// rewiring the link keeps it, and letting go of the link lets go of both.
test("node outputs through an expression", () => {
  const { doc, ed, node } = setup();
  const inFloat = { node: 2, list: "inputs", index: 0 };
  const multi0 = { node: 2, list: "inputs", index: 1, source: 0 };
  assert.deepEqual(node(2).inputs[0].source, { node: 1, output: 1 });
  roundTrip(doc, ed, () => ed.setSourceExpression(inFloat, 1));
  assert.deepEqual(node(2).inputs[0].source, { node: 1, output: 1, expression: 1 });
  assert.equal(ed.history.done.at(-1).label, "Send #2.InFloat through expression 1");
  assert.deepEqual(roundTrip(doc, ed, () => ed.setSourceExpression(inFloat, 1), false), { ok: false, reason: "the output goes through expression 1 already" });
  assert.deepEqual(roundTrip(doc, ed, () => ed.setSourceExpression(inFloat, 2), false), { ok: false, reason: "there is no expression 2" });
  assert.deepEqual(roundTrip(doc, ed, () => ed.setSourceExpression({ node: 2, list: "inputs", index: 2 }, 0), false),
    { ok: false, reason: "the value does not read a node output" }, "a blackboard source has no node output to transform");
  assert.deepEqual(roundTrip(doc, ed, () => ed.setSource(inFloat, { node: 1, output: 1, expression: 5 }), false), { ok: false, reason: "there is no expression 5" });
  // One source of a multi-input.
  roundTrip(doc, ed, () => ed.setSourceExpression(multi0, 0));
  assert.deepEqual(node(2).inputs[1].sources[0], { node: 1, expression: 0 });
  // The badge's data: each link says which expression it goes through.
  const E = computeEdges(doc);
  const exprOf = (to, row) => [...E.expr].filter((_, k) => E.to[k] === doc.nodes.indexOf(node(to)) && E.toRow[k] === row);
  const p = node(2).properties.length;
  assert.deepEqual(exprOf(2, p + 0), [1]);
  assert.deepEqual(exprOf(2, p + 1), [0, -1]);

  // Rewiring the link keeps the expression; setSource says the whole source.
  node(3).outputs = [{ name: "F3", type: "float" }];
  roundTrip(doc, ed, () => ed.connect(3, 0, 2, 0));
  assert.deepEqual(node(2).inputs[0].source, { node: 3, expression: 1 });
  roundTrip(doc, ed, () => ed.setSource(inFloat, { node: 1, output: 1 }));
  assert.deepEqual(node(2).inputs[0].source, { node: 1, output: 1 });
  roundTrip(doc, ed, () => ed.setSource(inFloat, { node: 3, output: 0, expression: 1 }));
  assert.deepEqual(node(2).inputs[0].source, { node: 3, expression: 1 });

  // Removing expression 0: PExpr (which read it) falls back to its value, the multi-input's
  // source feeds the input directly again, and InFloat's expression 1 becomes 0.
  roundTrip(doc, ed, () => ed.removeExpression(0));
  assert.equal(node(2).properties[2].source, undefined);
  assert.deepEqual(node(2).inputs[1].sources[0], { node: 1 });
  assert.deepEqual(node(2).inputs[0].source, { node: 3, expression: 0 });
  // Adding one renumbers nothing (it is appended).
  assert.equal(roundTrip(doc, ed, () => ed.addExpression(".main\nRET\n")), 1);
  assert.deepEqual(node(2).inputs[0].source, { node: 3, expression: 0 });

  // A copy keeps the expression (same document, same function).
  const [, copy2] = roundTrip(doc, ed, () => ed.paste(ed.copyNodes([3, 2], "x"), [900, 900], false));
  assert.deepEqual(node(copy2).inputs[0].source.expression, 0);
  assert.notEqual(node(copy2).inputs[0].source.node, 3, "the copy reads the copied node");

  // Removing the expression keeps the link; letting go of the link drops both.
  roundTrip(doc, ed, () => ed.setSourceExpression(inFloat, null));
  assert.deepEqual(node(2).inputs[0].source, { node: 3 });
  assert.equal(ed.history.done.at(-1).label, "Remove the expression of #2.InFloat");
  ed.setSourceExpression(inFloat, 1);
  roundTrip(doc, ed, () => ed.disconnect(2, 0));
  assert.equal(node(2).inputs[0].source, undefined);
  ed.undo();
  assert.deepEqual(node(2).inputs[0].source, { node: 3, expression: 1 });
  // Deleting the source node drops the link and its expression: a single source falls back
  // to its value.
  roundTrip(doc, ed, () => ed.deleteNodes([3]));
  assert.equal(node(2).inputs[0].source, undefined);
});

// An edited function keeps its text as parsed (parsedText, right after text), for the build
// to edit that function alone in the module as parsed; a parse never has it.
test("expressions: an edited function keeps its parsed text until set back to it", () => {
  const { doc, ed } = setup();
  const fn = () => doc.expressions.functions[0];
  const parsed = fn().text;
  roundTrip(doc, ed, () => ed.setExpressionText(0, ".main\nNOP\n"));
  assert.deepEqual(fn(), { text: ".main\nNOP\n", parsedText: parsed });
  assert.deepEqual(Object.keys(fn()), ["text", "parsedText"]);
  // A second edit keeps the text as parsed, not the one before it.
  roundTrip(doc, ed, () => ed.setExpressionText(0, ".main\nNOP\nNOP\n"));
  assert.deepEqual(fn(), { text: ".main\nNOP\nNOP\n", parsedText: parsed });
  // The same text again is no edit.
  roundTrip(doc, ed, () => assert.equal(ed.setExpressionText(0, ".main\nNOP\nNOP\n"), false), false);
  // Back to the parsed text: the function is as parsed, with no parsed text.
  roundTrip(doc, ed, () => ed.setExpressionText(0, parsed));
  assert.deepEqual(fn(), { text: parsed });
  // Undoing every edit gives the parse back, exactly; redoing gives the edits.
  const end = JSON.stringify(doc);
  while (ed.undo());
  assert.deepEqual(fn(), { text: parsed });
  assert.deepEqual(doc.expressions.functions[1], { text: ".main\nNOP\nRET\n" });
  ed.redo();
  assert.deepEqual(fn(), { text: ".main\nNOP\n", parsedText: parsed });
  while (ed.redo());
  assert.equal(JSON.stringify(doc), end);
  // The other function was never touched.
  assert.deepEqual(doc.expressions.functions[1], { text: ".main\nNOP\nRET\n" });
});

test("positions: moves pin, layouts apply by id and set pins exactly", () => {
  const { doc, ed, node } = setup();
  // A drag moves the node live; moved records it.
  node(2).x = 500;
  node(2).y = 600;
  assert.equal(ed.moved([[2, 340, 200]]), true);
  assert.equal(node(2).pinned, true);
  ed.undo();
  assert.deepEqual([node(2).x, node(2).y, node(2).pinned], [340, 200, undefined]);
  ed.redo();
  roundTrip(doc, ed, () => ed.applyLayout([{ id: 2, x: 1, y: 2 }, { id: 3, x: 3, y: 4, pinned: true }], "Tidy"));
  assert.deepEqual([node(2).x, node(2).y, node(2).pinned, node(3).pinned], [1, 2, undefined, true]);
  assert.equal(roundTrip(doc, ed, () => ed.applyLayout([{ id: 2, x: 1, y: 2 }]), false), false, "already there");
  roundTrip(doc, ed, () => ed.moveTo([[4, 9, 9]]));
  assert.equal(node(4).pinned, undefined);
});

test("model: rows, edges, reachability, conditions", () => {
  const doc = sampleDoc();
  const n2 = doc.nodes[2];
  const rows = nodeRows(doc, n2);
  assert.deepEqual(rows.map((r) => r.kind), ["property", "property", "property", "property", "property", "io", "io", "io", "io", "attachment"]);
  const E = computeEdges(doc);
  // node 0: 1 source + 3 children; node 2: 1 + 2 sources, 1 query; node 3: 1 jump
  assert.equal(E.count, 4 + 4 + 1);
  assert.deepEqual([...reachable(doc, [0])].sort(), [0, 1, 2, 3, 4]);
  assert.deepEqual([...reachable(doc, [3])], [3]);
  assert.equal(conditionText(doc, doc.nodes[0], doc.nodes[0].children[1], false), "== $I");
  assert.equal(conditionText(doc, doc.nodes[0], doc.nodes[0].children[2], true), "default");
});

// A seeded random walk over every operation: after each step the document stays whole;
// undoing everything gives back the very text it started as, and redoing everything the
// text it ended as.
test("random edit sequences undo and redo exactly", () => {
  for (let seed = 1; seed <= 20; seed++) {
    let state = seed * 2654435761;
    const rnd = (n) => {
      state = (Math.imul(state ^ (state >>> 15), 2246822507) + 0x9e3779b9) >>> 0;
      return n > 0 ? state % n : 0;
    };
    const doc = sampleDoc();
    const start = JSON.stringify(doc);
    const ed = createEdits(doc);
    const ids = () => doc.nodes.map((n) => n.id);
    const anyId = () => (doc.nodes.length ? ids()[rnd(doc.nodes.length)] : 0);
    const node = (id) => doc.nodes.find((n) => n.id === id);
    const values = [0, 1, -1, 2147483648, 1.1, NaN, -0, Infinity, "0x7fc00001", "text", true, [1, -0, NaN]];
    const ops = [
      () => ed.addNode({ type: "Sequential", name: "", guid: "" }, rnd(1000), rnd(1000)),
      () => ed.duplicate([anyId(), anyId()]),
      () => ed.deleteNodes([anyId()]),
      () => ed.paste(ed.copyNodes([anyId(), anyId()], "x"), [rnd(500), rnd(500)], rnd(2) === 1),
      () => ed.connect(anyId(), rnd(3), anyId(), rnd(4)),
      () => ed.disconnect(anyId(), rnd(4), rnd(3)),
      () => {
        const n = node(anyId());
        const list = ["properties", "inputs"][rnd(2)];
        if (n && n[list] && n[list].length) ed.setValue({ node: n.id, list, index: rnd(n[list].length) }, values[rnd(values.length)], rnd(2) ? rnd(3) : undefined);
      },
      () => {
        const n = node(anyId());
        const list = ["properties", "inputs"][rnd(2)];
        const srcs = [null, { blackboard: rnd(5) }, { blackboard: 3, component: "x" }, { expression: rnd(3) }, { node: anyId(), output: rnd(3) },
          { node: anyId(), output: rnd(3), expression: rnd(3) }];
        if (n && n[list] && n[list].length) ed.setSource({ node: n.id, list, index: rnd(n[list].length) }, srcs[rnd(srcs.length)]);
      },
      () => ed.addChild(anyId(), anyId(), "c"),
      () => ed.removeChild(anyId(), rnd(3)),
      () => ed.setChild(anyId(), rnd(3), anyId()),
      () => ed.setCondition(anyId(), rnd(3), ["int", "string", "weight", "min", "max", "blackboard"][rnd(6)], rnd(3)),
      () => ed.addJump(anyId(), anyId(), "Root"),
      () => ed.removeJump(anyId(), rnd(2)),
      () => ed.addQuery(anyId(), anyId()),
      () => ed.removeQuery(anyId(), rnd(2)),
      () => ed.renameNode(anyId(), "n" + rnd(9)),
      () => ed.setNodeFlag(anyId(), ["query", "moduleCaller", "residentInit", "multiParamV2"][rnd(4)], rnd(2) === 1),
      () => ed.addCommand("C" + rnd(9), anyId()),
      () => ed.removeCommand(rnd(3)),
      () => ed.setCommandRoot(rnd(3), anyId()),
      () => ed.addBlackboard(["string", "int", "float", "bool", "vec3f", "pointer"][rnd(6)], "b" + rnd(9)),
      () => ed.removeBlackboard(rnd(6)),
      () => ed.setBlackboardValue(rnd(6), values[rnd(values.length)], rnd(3)),
      () => ed.renameBlackboard(rnd(6), "r" + rnd(9)),
      () => {
        const n = node(anyId());
        if (n && n.inputs && n.inputs.length) {
          const j = rnd(n.inputs.length);
          ed.setSourceExpression({ node: n.id, list: "inputs", index: j, source: n.inputs[j].sources ? rnd(3) : undefined }, rnd(2) ? rnd(3) : null);
        }
      },
      () => ed.addExpression(".main\n"),
      () => ed.removeExpression(rnd(3)),
      () => ed.setExpressionText(rnd(3), "t" + rnd(9)),
      () => ed.moveTo([[anyId(), rnd(900), rnd(900)]]),
      () => ed.applyLayout(doc.nodes.map((n) => ({ id: n.id, x: rnd(900), y: rnd(900), pinned: rnd(2) === 1 }))),
    ];
    for (let k = 0; k < 150; k++) {
      ops[rnd(ops.length)]();
      check(doc);
    }
    const end = JSON.stringify(doc);
    while (ed.undo());
    assert.equal(JSON.stringify(doc), start, `seed ${seed}: undoing everything`);
    while (ed.redo());
    assert.equal(JSON.stringify(doc), end, `seed ${seed}: redoing everything`);
  }
});

// Positions from a clipboard another tab wrote, a layout or a move never leave ±MAX_COORD,
// and what is not a number lands at 0: one node at 1e308 used to freeze the page.
test("positions stay within ±MAX_COORD", () => {
  assert.equal(MAX_COORD, 1e9);
  assert.deepEqual([1e308, -Infinity, NaN, "7", 12.5, -1e9].map(clampCoord), [1e9, -1e9, 0, 0, 12.5, -1e9]);
  const doc = sampleDoc();
  const ed = createEdits(doc);
  const clip = ed.copyNodes([2]);
  clip.nodes[0].x = 1e308;
  clip.nodes[0].y = NaN;
  const [a] = roundTrip(doc, ed, () => ed.paste(clip, null, false));
  const n = doc.nodes.find((q) => q.id === a);
  assert.deepEqual([n.x, n.y], [1e9, 0], "a paste in place lands at the edge, and NaN at 0");
  clip.nodes[0].y = 0;
  roundTrip(doc, ed, () => ed.paste(clip, [5e308, -3e9], false));
  const b = doc.nodes[doc.nodes.length - 1];
  assert.deepEqual([b.x, b.y], [1e9, -1e9]);
  roundTrip(doc, ed, () => ed.moveTo([[2, 2e9, -2e9]]));
  assert.deepEqual([doc.nodes[2].x, doc.nodes[2].y], [1e9, -1e9]);
  ed.undo();
  roundTrip(doc, ed, () => ed.applyLayout([{ id: 2, x: -1e300, y: 1e300 }]));
  assert.deepEqual([doc.nodes[2].x, doc.nodes[2].y], [-1e9, 1e9]);
  ed.undo();
  doc.nodes[1].x = Infinity;
  doc.nodes[3].y = -1e20;
  assert.equal(clampPositions(doc), 2);
  assert.deepEqual([doc.nodes[1].x, doc.nodes[3].y], [1e9, -1e9]);
  assert.equal(clampPositions(doc), 0);
});
