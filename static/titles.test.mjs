// Unit tests of a node header's title: how many lines it gets (metrics.js, as graph.TitleLines)
// and how it is wrapped into them (render.js wrapTitle), under node with a measurer of 7
// units a character.

import { test } from "node:test";
import assert from "node:assert/strict";
import { titleLines, headerHeight, nodeHeight, rowY, hitNode, HEADER, TITLE_LINE, ROW, FOOTER } from "./metrics.js";
import { wrapTitle } from "./render.js";

const m = { measureText: (s) => ({ width: s.length * 7 }) };

test("a title gets one line up to 24 characters, then one more per 30, at most 3", () => {
  assert.deepEqual([0, 24, 25, 54, 55, 84, 85, 300].map(titleLines), [1, 1, 2, 2, 3, 3, 3, 3]);
  const long = { type: "UserDefined", name: "ActorCommon.RequestCameraShakeWithASControllerRumbleEvent.module", x: 0, y: 100, properties: [{}] };
  assert.equal(headerHeight(long), HEADER + 2 * TITLE_LINE);
  assert.equal(nodeHeight(long), HEADER + 2 * TITLE_LINE + ROW + FOOTER);
  // The rows start below the taller header; the header's own point stays on its first line.
  assert.equal(rowY(long, 0), 100 + HEADER + 2 * TITLE_LINE + ROW / 2);
  assert.equal(rowY(long, -1), 100 + HEADER / 2);
  assert.deepEqual(hitNode(long, 50, 100 + HEADER + TITLE_LINE), { part: "header" });
  assert.equal(hitNode(long, 50, 100 + HEADER + 2 * TITLE_LINE + 1, 0).row, 0);
  // A built-in type shows its type, whatever its name; characters, not UTF-16 units, count.
  assert.equal(headerHeight({ type: "Sequential", name: "x".repeat(80) }), HEADER);
  assert.equal(headerHeight({ type: "UserDefined", name: "𝄞".repeat(24) }), HEADER);
  assert.equal(headerHeight({ type: "UserDefined", name: "𝄞".repeat(25) }), HEADER + TITLE_LINE);
});

test("a title wraps at dots, underscores and CamelCase, and only what three lines cannot hold is cut", () => {
  // 140 units on the first line (20 characters), 210 on the others (30).
  assert.deepEqual(wrapTitle(m, "Short", 140, 210, 1), ["Short"]);
  assert.deepEqual(wrapTitle(m, "ActorCommon.RequestCameraShakeWithASControllerRumbleEvent.module", 140, 210, 3),
    ["ActorCommon.", "RequestCameraShakeWith", "ASControllerRumbleEvent.module"]);
  assert.deepEqual(wrapTitle(m, "Enemy_Bokoblin_GuardPostLookAround", 140, 210, 2), ["Enemy_Bokoblin_", "GuardPostLookAround"]);
  // With no break in the second half of the room, the line ends where the width does.
  assert.deepEqual(wrapTitle(m, "abcdefghijklmnopqrstuvwxyz", 140, 210, 2), ["abcdefghijklmnopqrst", "uvwxyz"]);
  // Where the nice breaks leave too much for the last line, the lines are filled instead.
  assert.deepEqual(wrapTitle(m, "ActorCommon.RequestCameraShakeWithASControllerRumbleEvent.module", 140, 180, 3),
    ["ActorCommon.RequestC", "ameraShakeWithASControlle", "rRumbleEvent.module"]);
  // Too long for its lines: the last is cut.
  const cut = wrapTitle(m, "A".repeat(100), 140, 210, 2);
  assert.equal(cut.length, 2);
  assert.equal(cut[0], "A".repeat(20));
  assert.equal(cut[1], "A".repeat(29) + "…");
  // Every line fits its width.
  for (const [k, line] of wrapTitle(m, "Aa".repeat(60), 140, 210, 3).entries()) assert.ok(line.length * 7 <= (k ? 210 : 140), line);
});
