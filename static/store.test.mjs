// Unit tests of store.js under node: the settings survive storage being refused, and no
// other module spells a storage key or reaches storage itself.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { getPref, setPref, getPrefJSON, PREF, DOC } from "./store.js";

test("settings read as absent and writes report failure when storage is refused", () => {
  delete globalThis.localStorage;
  assert.equal(getPref(PREF.wheel), null);
  assert.equal(setPref(PREF.wheel, "pan"), false);
  globalThis.localStorage = { getItem: () => { throw new Error("denied"); }, setItem: () => { throw new Error("full"); } };
  assert.equal(getPref(PREF.legend), null);
  assert.equal(setPref(PREF.legend, "open"), false);
  assert.deepEqual(getPrefJSON(PREF.recent, []), []);
  const mem = new Map();
  globalThis.localStorage = { getItem: (k) => (mem.has(k) ? mem.get(k) : null), setItem: (k, v) => mem.set(k, String(v)) };
  assert.equal(setPref(PREF.clipboard, '{"a":1}'), true);
  assert.deepEqual(getPrefJSON(PREF.clipboard, null), { a: 1 });
  mem.set(PREF.layouts, "not json");
  assert.equal(getPrefJSON(PREF.layouts, "fallback"), "fallback");
  delete globalThis.localStorage;
});

test("the keys are the ones stored by earlier versions, so nothing kept is lost", () => {
  assert.deepEqual({ ...PREF }, { recent: "ainb-editor.recent", layouts: "ainb-editor.layouts", clipboard: "ainb-editor.clipboard", legend: "ainb-editor.legend", wheel: "ainb.wheel" });
  assert.deepEqual([DOC.current, DOC.zsdic, DOC.catalogue, DOC.recent("a.ainb"), DOC.layout("ab12")], ["current", "zsdic", "catalogue", "recent:a.ainb", "layout:ab12"]);
});

test("no module but store.js reaches storage or spells a key", () => {
  const keys = [...Object.values(PREF), "recent:", "layout:"];
  for (const file of readdirSync(new URL(".", import.meta.url)).filter((f) => f.endsWith(".js") && f !== "store.js")) {
    const src = readFileSync(new URL(file, import.meta.url), "utf8");
    assert.ok(!/\blocalStorage\b|\bindexedDB\b|\bsessionStorage\b/.test(src), `${file} reaches storage itself`);
    assert.ok(!/(get|put|delete)Doc\(\s*["'`]/.test(src), `${file} spells an IndexedDB key`);
    for (const k of keys) assert.ok(!src.includes(`"${k}`), `${file} spells ${k}`);
  }
});
