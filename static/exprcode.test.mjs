// Unit tests of the expression code highlighting (exprcode.js) under node.

import { test } from "node:test";
import assert from "node:assert/strict";
import { tokens, charIndex, isListing, errorText } from "./exprcode.js";

// t writes tokens compactly: "cls:text" for classed ones, the bare text for plain ones.
const t = (line) => tokens(line).map(([c, s]) => (c ? `${c}:${s}` : s));

test("tokens of readable code: locations, operators, literals, keywords and types", () => {
  assert.deepEqual(t("LMem32[0x0] = (In + 3 - GMem[0x0]) * -2.5e+3"), [
    "loc:LMem32", "punct:[", "num:0x0", "punct:]", " ", "punct:=", " ", "punct:(", "loc:In", " ", "punct:+", " ", "num:3",
    " ", "punct:-", " ", "loc:GMem", "punct:[", "num:0x0", "punct:])", " ", "punct:*", " ", "num:-2.5e+3"]);
  assert.deepEqual(t("    if (none GMem[0xc]) {"), ["    ", "kw:if", " ", "punct:(", "type:none", " ", "loc:GMem", "punct:[", "num:0xc", "punct:])", " ", "punct:{"]);
  assert.deepEqual(t("} else {"), ["punct:}", " ", "kw:else", " ", "punct:{"]);
  assert.deepEqual(t("LMem32[0x0] = inc(dec(-In))"), ["loc:LMem32", "punct:[", "num:0x0", "punct:]", " ", "punct:=", " ",
    "kw:inc", "punct:(", "kw:dec", "punct:(-", "loc:In", "punct:))"]);
  assert.deepEqual(t("Out = nan(0x7fc00001) // quiet"), ["loc:Out", " ", "punct:=", " ", "num:nan", "punct:(", "num:0x7fc00001", "punct:)", " ", "comment:// quiet"]);
  assert.deepEqual(t("UserOut[0x2].z = uint 4000000000 != true"), ["loc:UserOut", "punct:[", "num:0x2", "punct:]", "loc:.z", " ", "punct:=", " ",
    "type:uint", " ", "num:4000000000", " ", "punct:!=", " ", "num:true"]);
  assert.deepEqual(t("GMem[0x0] = vec3f(1.5, -2.0, 3.0)"), ["loc:GMem", "punct:[", "num:0x0", "punct:]", " ", "punct:=", " ",
    "type:vec3f", "punct:(", "num:1.5", "punct:,", " ", "num:-2.0", "punct:,", " ", "num:3.0", "punct:)"]);
  // A minus after a value is the operator; after an operator it is the number's sign.
  assert.deepEqual(t("Out = In - -3.5"), ["loc:Out", " ", "punct:=", " ", "loc:In", " ", "punct:-", " ", "num:-3.5"]);
  assert.deepEqual(t("Out = In -3"), ["loc:Out", " ", "punct:=", " ", "loc:In", " ", "punct:-", "num:3"]);
});

test("tokens of strings, calls, labels, gotos and directives", () => {
  assert.deepEqual(t(`LMem64[0x0] = "Swim/探索\\t\\"q\\" // not a comment"`), ["loc:LMem64", "punct:[", "num:0x0", "punct:]", " ", "punct:=", " ",
    `str:"Swim/探索\\t\\"q\\" // not a comment"`]);
  assert.deepEqual(t(`Out = "open`), ["loc:Out", " ", "punct:=", " ", `str:"open`]);
  assert.deepEqual(t("call Actor.IsNamed(bool, str), GMem[0x18]"), ["kw:call", " ", "name:Actor.IsNamed", "punct:(", "type:bool", "punct:,", " ",
    "type:str", "punct:),", " ", "loc:GMem", "punct:[", "num:0x18", "punct:]"]);
  assert.deepEqual(t("L1:"), ["label:L1:"]);
  assert.deepEqual(t("  L2:  "), ["  ", "label:L2:", "  "]);
  assert.deepEqual(t("goto L2 unless LMem32[0x4]"), ["kw:goto", " ", "name:L2", " ", "kw:unless", " ", "loc:LMem32", "punct:[", "num:0x4", "punct:]"]);
  assert.deepEqual(t(".memory static=0x20 scratch32=0x0 scratch64=0x0"), ["dir:.memory", " ", "name:static", "punct:=", "num:0x20", " ",
    "name:scratch32", "punct:=", "num:0x0", " ", "name:scratch64", "punct:=", "num:0x0"]);
  assert.deepEqual(t(".input VECTOR3F"), ["dir:.input", " ", "type:VECTOR3F"]);
  assert.deepEqual(t("asm {"), ["kw:asm", " ", "punct:{"]);
  assert.deepEqual(t("noend"), ["kw:noend"]);
});

test("tokens of the listing: offsets, opcodes, raw words and comments", () => {
  assert.deepEqual(t("0x0008  MUL float LMem32[0x0], float 2.0"), ["addr:0x0008", "  ", "op:MUL", " ", "type:float", " ", "loc:LMem32", "punct:[",
    "num:0x0", "punct:],", " ", "type:float", " ", "num:2.0"]);
  assert.deepEqual(t("    0x0000  .raw 0100000000000001 ; END"), ["    ", "addr:0x0000", "  ", "dir:.raw", " ", "num:0100000000000001", " ", "comment:; END"]);
  assert.deepEqual(t("0x0010  JZE bool LMem32[0x4], 0x48"), ["addr:0x0010", "  ", "op:JZE", " ", "type:bool", " ", "loc:LMem32", "punct:[",
    "num:0x4", "punct:],", " ", "num:0x48"]);
  // An upper-case word is an opcode only first on its line.
  assert.deepEqual(t("0x0000  STR int Out[0x0], int ABC"), ["addr:0x0000", "  ", "op:STR", " ", "type:int", " ", "loc:Out", "punct:[", "num:0x0",
    "punct:],", " ", "type:int", " ", "name:ABC"]);
  assert.deepEqual(t(".main"), ["dir:.main"]);
});

test("the tokens of any line join to the line", () => {
  for (const line of ["", "   ", "a+b", "\"\\\"", "0x0000", "0x00  X", "L1: x", "é😀 = \"😀\" + 1", "$%^&", "1..2", "-", "x.y.z(1)"]) {
    assert.equal(tokens(line).map((x) => x[1]).join(""), line, line);
  }
});

test("charIndex counts characters (code points), as the compiler's columns do", () => {
  assert.equal(charIndex("Out = FOO", 6), 6);
  assert.equal(charIndex(`"😀" + FOO`, 6), 7); // the emoji is one column and two UTF-16 units
  assert.equal(charIndex("探索 x", 3), 3);
  assert.equal(charIndex("ab", 5), 2);
});

test("isListing and errorText", () => {
  assert.equal(isListing(".input INT\n.output INT\n.main\n0x0000  END\n"), true);
  assert.equal(isListing(".input INT\n  .main ; x\n"), true);
  assert.equal(isListing(".input INT\nOut = 1\n// .main\n"), false);
  assert.equal(isListing(".mainly\n"), false);
  assert.equal(errorText({ line: 4, column: 7, message: "m" }), "line 4:7: m");
  assert.equal(errorText({ line: 3, column: 0, message: "m" }), "line 3: m");
  assert.equal(errorText({ line: 0, column: 0, message: "m" }), "m");
});
