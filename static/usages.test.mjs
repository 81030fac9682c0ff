// Unit tests of the folder-wide usages (usages.js) under node.

import { test } from "node:test";
import assert from "node:assert/strict";
import { usagesOf, findUsages, resolveModule, baseName } from "./usages.js";

const doc = {
  blackboard: [{ name: "Speed", type: "float" }, { name: "Target", type: "string" }, { name: "Count", type: "int" }],
  nodes: [
    { id: 0, type: "S32Selector", name: "", inputs: [{ name: "Value", type: "int", source: { blackboard: 2 } }],
      children: [{ node: 1, name: "a", condition: { minBlackboard: 0, maxBlackboard: 0 } }] },
    { id: 1, type: "UserDefined", name: "Walk", properties: [{ name: "S", type: "float", source: { blackboard: 0 } }],
      inputs: [{ name: "M", type: "string", sources: [{ blackboard: 1 }, { node: 0 }, { blackboard: 9 }] }] },
    { id: 2, type: "UserDefined", name: "Enemy.module", moduleCaller: true },
  ],
};

test("usagesOf lists classes, blackboard parameters (once per node) and modules", () => {
  assert.deepEqual(usagesOf(doc), [
    ["class", "S32Selector", 0], ["blackboard", "Count", 0], ["blackboard", "Speed", 0],
    ["class", "Walk", 1], ["blackboard", "Speed", 1], ["blackboard", "Target", 1],
    ["class", "Enemy.module", 2], ["module", "Enemy.module", 2],
  ]);
});

test("findUsages matches any case, exact names first, filtered by kind", () => {
  const files = [{ file: "b.ainb", usages: usagesOf(doc) }, { file: "a.ainb", usages: [["class", "WalkFast", 4], ["class", "walk", 7]] }];
  assert.deepEqual(findUsages(files, "class", "WALK").map((h) => [h.file, h.name, h.node, h.exact]),
    [["a.ainb", "walk", 7, true], ["b.ainb", "Walk", 1, true], ["a.ainb", "WalkFast", 4, false]]);
  assert.deepEqual(findUsages(files, "blackboard", "speed").map((h) => [h.file, h.node]), [["b.ainb", 0], ["b.ainb", 1]]);
  assert.deepEqual(findUsages(files, "", "enemy").map((h) => h.kind), ["class", "module"]);
  assert.deepEqual(findUsages(files, "class", "  "), []);
});

test("resolveModule by file name, then by the name inside the file", () => {
  const files = [{ file: "x/module_if.ainb", filename: "ModuleIF.module" }, { file: "Enemy.module.ainb.zs", filename: "Other" }];
  assert.equal(resolveModule(files, "enemy.module").file, "Enemy.module.ainb.zs");
  assert.equal(resolveModule(files, "ModuleIF.module").file, "x/module_if.ainb");
  assert.equal(resolveModule(files, "Missing.module"), null);
  assert.equal(baseName("a/b\\Foo.module.ainb.zs"), "Foo.module");
});
