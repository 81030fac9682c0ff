// Unit tests of the BYML/AAMP tree model (treemodel.js) under node.

import { test } from "node:test";
import assert from "node:assert/strict";
import {
  children, flatten, search, resolvePath, parseValue, parseKey, parseName, valueText, editText, compareKeys, crc32,
  insertionIndex, newNode, parents, floatText, typeOf,
} from "./treemodel.js";
import * as model from "./treemodel.js";

const byml = () => ({
  version: 7, bigEndian: false,
  root: { type: "hash", value: [
    ["Actors", { type: "array", value: [
      { type: "hash", value: [["name", { type: "string", value: "Horse" }], ["size", { type: "float", value: 1.5 }]] },
      { type: "hash", value: [["big", { type: "uint64", value: "18446744073709551615" }], ["name", { type: "string", value: "Cow/2" }]] },
    ] }],
    ["Hashes", { type: "hashmap32", value: [[5, { type: "uint", value: 7 }], [4000000000, { type: "null" }]] }],
  ] },
});

const aamp = () => ({
  version: 0, type: "xml",
  param_root: { hash: 0xa4f6cb6c, lists: [{ hash: 1, lists: [], objects: [] }], objects: [
    { hash: crc32("Obj"), name: "Obj", params: [
      { hash: crc32("Pos"), name: "Pos", type: "vec3", value: [1, 2.5, "nan"] },
      { hash: 77, type: "string32", value: "abc" },
    ] },
  ] },
});

test("children and flatten list entries depth first, expanded containers only", () => {
  const d = byml();
  assert.deepEqual(flatten("byml", d, new Set()).map((r) => [r.path, r.depth]), [["/Actors", 0], ["/Hashes", 0]]);
  const actors = d.root.value[0][1];
  const rows = flatten("byml", d, new Set([actors, actors.value[1]]));
  assert.deepEqual(rows.map((r) => r.path), ["/Actors", "/Actors/0", "/Actors/1", "/Actors/1/big", "/Actors/1/name", "/Hashes"]);
  assert.equal(rows[3].parent, actors.value[1]);
  assert.equal(rows[3].index, 0);
  // AAMP lists show their objects before their lists; names are the name or the hash.
  const a = aamp();
  assert.deepEqual(flatten("aamp", a, new Set([a.param_root.objects[0]])).map((r) => [r.path, r.group, r.index]),
    [["/Obj", "objects", 0], ["/Obj/Pos", "params", 0], ["/Obj/77", "params", 1], ["/1", "lists", 0]]);
  assert.equal(children("aamp", a.param_root.objects[0].params[0]).length, 0);
});

test("paths resolve, with / and ~ escaped", () => {
  const d = byml();
  const chain = resolvePath("byml", d, "/Actors/1/name");
  assert.equal(chain.length, 3);
  assert.equal(chain[2].value, "Cow/2");
  assert.equal(resolvePath("byml", d, "/Actors/7"), null);
  assert.equal(resolvePath("byml", d, "/Hashes/4000000000")[1].type, "null");
  d.root.value[0][0] = "A/c~";
  assert.equal(flatten("byml", d, new Set())[0].path, "/A~1c~0");
  assert.equal(resolvePath("byml", d, "/A~1c~0/0/size")[2].value, 1.5);
});

test("search finds keys and values in any case, with the containers above", () => {
  const d = byml();
  const hits = search("byml", d, "cow");
  assert.equal(hits.length, 1);
  assert.equal(hits[0].node.value, "Cow/2");
  assert.deepEqual(hits[0].chain, [d.root.value[0][1], d.root.value[0][1].value[1]]);
  assert.deepEqual(search("byml", d, "NAME").map((h) => h.node.value), ["Horse", "Cow/2"]);
  assert.equal(search("byml", d, "1.5")[0].node.type, "float");
  assert.equal(search("byml", d, "  ").length, 0);
  assert.equal(search("aamp", aamp(), "pos")[0].node.type, "vec3");
  assert.equal(search("byml", d, "a", 2).length, 2);
});

test("parents maps every node to its container", () => {
  const d = byml();
  const p = parents("byml", d);
  const horse = d.root.value[0][1].value[0];
  assert.equal(p.get(horse.value[0][1]), horse);
  assert.equal(p.get(d.root.value[0][1]), d.root);
});

test("values parse as their own type, with ranges", () => {
  const n = (type, value) => ({ type, value });
  const ok = (kind, node, text, want) => assert.deepEqual(parseValue(kind, node, text), { value: want }, `${node.type} ${text}`);
  const bad = (kind, node, text, re) => assert.match(parseValue(kind, node, text).error || "", re, `${node.type} ${text}`);
  ok("byml", n("int", 0), " -2147483648 ", -2147483648);
  bad("byml", n("int", 0), "2147483648", /out of range/);
  ok("byml", n("int", 0), "0x10", 16);
  bad("byml", n("int", 0), "1.5", /not an integer/);
  ok("byml", n("uint", 0), "4294967295", 4294967295);
  bad("byml", n("uint", 0), "-1", /out of range/);
  ok("byml", n("int64", "0"), "-9223372036854775808", "-9223372036854775808");
  bad("byml", n("int64", "0"), "9223372036854775808", /out of range/);
  ok("byml", n("uint64", "0"), "18446744073709551615", "18446744073709551615");
  ok("byml", n("float", 0), "1.1", 1.1);
  assert.equal(Math.fround(parseValue("byml", n("float", 0), "0.1234567891").value), Math.fround(0.1234567891));
  assert.equal(String(parseValue("byml", n("float", 0), "0.1234567891").value), "0.12345679");
  ok("byml", n("float", 0), "inf", "inf");
  ok("byml", n("float", 0), "NaN", "nan");
  bad("byml", n("float", 0), "1e39", /range of an f32/);
  ok("byml", n("double", 0), "0.1234567891", 0.1234567891);
  ok("byml", n("bool", false), "true", true);
  bad("byml", n("bool", false), "yes", /true or false/);
  ok("byml", n("string", ""), " spaced ", " spaced ");
  bad("byml", n("string", ""), "a\0b", /NUL/);
  ok("byml", n("binary", ""), "AAE=", "AAE=");
  bad("byml", n("binary", ""), "AAE", /base64/);
  ok("byml", { type: "file", value: { align: 8, data: "" } }, "AAEC", { align: 8, data: "AAEC" });
  assert.match(parseValue("byml", { type: "array", value: [] }, "1").error, /no value/);
  ok("aamp", n("vec3", [0, 0, 0]), "1, 2 3", [1, 2, 3]);
  bad("aamp", n("vec3", [0, 0, 0]), "1, 2", /needs 3 numbers/);
  ok("aamp", n("buffer_int", []), "", []);
  ok("aamp", n("buffer_binary", []), "0, 255", [0, 255]);
  bad("aamp", n("buffer_binary", []), "256", /out of range/);
  ok("aamp", n("string32", ""), "x".repeat(31), "x".repeat(31));
  bad("aamp", n("string32", ""), "x".repeat(32), /at most 31 bytes/);
  ok("aamp", n("f32", 0), "-0.5", -0.5);
  ok("aamp", n("u32", 0), "0xffffffff", 4294967295);
  const curve = [{ a: 1, b: 2, floats: new Array(30).fill(0) }];
  ok("aamp", n("curve1", curve), JSON.stringify(curve), curve);
  bad("aamp", n("curve1", curve), "[]", /list of 1/);
});

test("values read as rows show them and as fields edit them", () => {
  assert.equal(valueText("byml", { type: "string", value: "a\"b" }), '"a\\"b"');
  assert.equal(valueText("byml", { type: "float", value: 0.1 }), "0.1");
  assert.equal(valueText("byml", { type: "array", value: [1, 2] }), "[2]");
  assert.equal(valueText("byml", { type: "binary", value: "AAE=" }), "2 bytes");
  assert.equal(editText("byml", { type: "null" }), null);
  assert.equal(valueText("aamp", { type: "vec3", value: [1, 2.5, "nan"] }), "(1, 2.5, nan)");
  assert.equal(editText("aamp", { type: "vec3", value: [1, 2.5, "nan"] }), "1, 2.5, nan");
  assert.equal(valueText("aamp", { type: "buffer_int", value: [1, 2, 3, 4, 5, 6, 7, 8, 9] }), "[1, 2, 3, 4, 5, 6, 7, 8, … 9 values]");
  assert.equal(floatText(Math.fround(1.1), true), "1.1");
  assert.equal(floatText(-0, true), "-0");
  assert.equal(typeOf("aamp", aamp().param_root), "list");
});

test("keys: bytewise order, hash keys as numbers, AAMP names hash with CRC32", () => {
  assert.ok(compareKeys("B", "a") < 0);
  assert.ok(compareKeys("a", "ab") < 0);
  assert.ok(compareKeys("\uffff", "\u{10000}") < 0); // UTF-16 order would say otherwise
  assert.equal(crc32("param_root"), 0xa4f6cb6c);
  assert.equal(crc32("ü"), 0x63d969d5);
  assert.deepEqual(parseName("Foo"), { hash: crc32("Foo"), name: "Foo" });
  assert.deepEqual(parseName("0x10"), { hash: 16, name: undefined });
  assert.match(parseName(" ").error, /empty/);
  assert.deepEqual(parseKey("hashmap32", "7"), { key: 7 });
  assert.deepEqual(parseKey("hashmap64", "18446744073709551615"), { key: "18446744073709551615" });
  assert.match(parseKey("hashmap32", "4294967296").error, /out of range/);
  const h = { type: "hash", value: [["a", 1], ["c", 2]] };
  assert.equal(insertionIndex(h, "b"), 1);
  assert.equal(insertionIndex({ type: "hashmap64", value: [["9", 1], ["10", 2]].sort((x, y) => (BigInt(x[0]) < BigInt(y[0]) ? -1 : 1)) }, "11"), 2);
});

test("new entries start empty, zero or false, keys in the server's order", () => {
  assert.deepEqual(Object.keys(newNode("byml", "int")), ["type", "value"]);
  assert.deepEqual(newNode("byml", "null"), { type: "null" });
  assert.deepEqual(newNode("byml", "hash"), { type: "hash", value: [] });
  assert.deepEqual(newNode("aamp", "vec2"), { type: "vec2", value: [0, 0] });
  assert.deepEqual(newNode("aamp", "list"), { lists: [], objects: [] });
  assert.equal(newNode("aamp", "curve2").value.length, 2);
});

test("shared nodes: linked from the server's refs, counted, sent once again", () => {
  const text = '{"version":7,"bigEndian":false,"root":{"type":"hash","value":[["a",{"type":"array","id":0,"value":[{"type":"int","value":1}]}],' +
    '["b",{"ref":0}],["c",{"type":"array","value":[{"ref":0}]}]]}}';
  const doc = model.linkShared(JSON.parse(text));
  const [a, b, c] = doc.root.value.map((p) => p[1]);
  assert.equal(a, b);
  assert.equal(c.value[0], a);
  assert.equal(a.id, undefined);
  assert.equal(model.useCounts(doc).get(a), 3);
  assert.equal(model.useCounts(doc).get(c), 1);
  assert.equal(model.placeCount(doc, a.value[0]), 3);
  assert.equal(model.placeCount(doc, c), 1);
  assert.equal(JSON.stringify(model.encodeShared(doc)), text);
  // A document shared 2^40 times over stays cheap to count and search.
  let n = { type: "array", value: [] };
  for (let i = 0; i < 40; i++) n = { type: "array", value: [n, n] };
  const bomb = { version: 7, bigEndian: false, root: n };
  assert.equal(model.placeCount(bomb, n.value[0]), 2);
  assert.equal(model.search("byml", bomb, "array").length, 0);
  assert.throws(() => model.linkShared(JSON.parse('{"root":{"type":"array","value":[{"ref":3}]}}')), /ref 3 names no node defined before it/);
});

test("fromCompact reads the server's compact form: every type, shared nodes as one object, use counts", () => {
  // The form of internal/byml's TestCompactForm, as the server writes it.
  const text = '{"version":7,"bigEndian":false,"type":"h","root":[0,[1,[2,-1],0,0,1,0],[3,"0.1",2,"18446744073709551615"],[4,"AAE=",[16,"YWJj"]],' +
    '[5,[6],[7],0],[8,[9,4294967295],[10,"-2"],[11,true,null]],[12,0.5,"-inf"]],"keys":["arr","big","bin","empty","maps","one","x","b","a"],"strings":["s\\"","t"],' +
    '"shapes":[["aaaaaa",[0,1,2,3,4,5]],"hhsss",["i",[6]],"ddm","xy","ahh","",["",[]],"pqh",' +
    '["u",[7]],["l",["9223372036854775808"]],["bn",[7,8],1],"f"]}';
  const doc = model.fromCompact(JSON.parse(text));
  const shared = { type: "hash", value: [["x", { type: "int", value: -1 }]] };
  const double = { type: "double", value: 0.1 };
  assert.deepEqual(doc, {
    version: 7, bigEndian: false,
    root: { type: "hash", value: [
      ["arr", { type: "array", value: [shared, shared, { type: "string", value: 's"' }, { type: "string", value: "t" }, { type: "string", value: 's"' }] }],
      ["big", { type: "array", value: [double, double, { type: "uint64", value: "18446744073709551615" }] }],
      ["bin", { type: "array", value: [{ type: "binary", value: "AAE=" }, { type: "file", value: { align: 16, data: "YWJj" } }] }],
      ["empty", { type: "array", value: [{ type: "array", value: [] }, { type: "hash", value: [] }, shared] }],
      ["maps", { type: "array", value: [
        { type: "hashmap32", value: [[7, { type: "uint", value: 4294967295 }]] },
        { type: "hashmap64", value: [["9223372036854775808", { type: "int64", value: "-2" }]] },
        { type: "hash", unsorted: true, value: [["b", { type: "bool", value: true }], ["a", { type: "null" }]] },
      ] }],
      ["one", { type: "array", value: [{ type: "float", value: 0.5 }, { type: "float", value: "-inf" }] }],
    ] },
  });
  const [arr, big, , empty] = doc.root.value.map((e) => e[1]);
  assert.equal(arr.value[0], arr.value[1]);
  assert.equal(empty.value[2], arr.value[0]);
  assert.equal(big.value[0], big.value[1]);
  const uses = model.useCounts(doc);
  assert.deepEqual([uses.get(arr.value[0]), uses.get(big.value[0]), uses.get(arr), uses.get(doc.root), uses.get(arr.value[2])], [3, 2, 1, 1, undefined]);
  // Taken once: the next count walks the tree, and finds the same.
  const again = model.useCounts(doc);
  assert.notEqual(again, uses);
  assert.equal(again.size, uses.size);
  for (const [n, k] of uses) assert.equal(again.get(n), k);
  assert.equal(model.fromCompact({ version: 2, bigEndian: false, root: null, shapes: [] }).root, null);
});

test("fromCompact refuses a number that names no earlier node of its type or no string, and unknown letters", () => {
  const doc = (root, shapes) => ({ version: 2, bigEndian: false, type: "a", root, keys: ["k"], strings: ["x"], shapes });
  assert.throws(() => model.fromCompact(doc([0, 0], ["a"])), /compact document: 0 names no array before it/);
  assert.throws(() => model.fromCompact(doc([0, [1], 0], ["ah", ""])), /compact document: 0 names no hash before it/);
  assert.throws(() => model.fromCompact(doc([0, 1], ["z"])), /unknown type letter "z"/);
  assert.throws(() => model.fromCompact(doc([0, 1, 2], ["iii"])), /an array of 2 has the shape "iii"/);
  assert.throws(() => model.fromCompact(doc([3], ["a"])), /shape 3 is not in the list/);
  assert.throws(() => model.fromCompact(doc([0, 0, 1], ["s"])), /string 1 is not in the list/);
  assert.throws(() => model.fromCompact(doc([0, [1, 5]], ["h", ["i", [1]]])), /key 1 is not in the list/);
  // One shape for a hash (key 0, "k") and a hash map (hash 0).
  const both = model.fromCompact(doc([0, [1, 5], [1, 6]], ["hp", ["i", [0]]]));
  assert.deepEqual(both.root.value.map((m) => m.value[0][0]), ["k", 0]);
});
