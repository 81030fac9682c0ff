// Unit tests of the wheel's meaning (wheel.js), under node.

import { test } from "node:test";
import assert from "node:assert/strict";
import { wheelAction, wheelMode } from "./wheel.js";

const ev = (o) => ({ deltaX: 0, deltaY: 0, deltaMode: 0, ctrlKey: false, metaKey: false, shiftKey: false, ...o });

test("zoom mode: the wheel zooms, shift and sideways scrolls pan", () => {
  assert.deepEqual(wheelAction(ev({ deltaY: 100 }), "zoom", 800), { zoom: Math.exp(-0.22) });
  assert.deepEqual(wheelAction(ev({ deltaY: -3, deltaMode: 1 }), "zoom", 800), { zoom: Math.exp(48 * 0.0022) });
  assert.deepEqual(wheelAction(ev({ deltaY: 100, shiftKey: true }), "zoom", 800), { pan: [-100, 0] });
  assert.deepEqual(wheelAction(ev({ deltaX: 50, deltaY: 10 }), "zoom", 800), { pan: [-50, -10] });
});

test("pan mode: the wheel pans, ctrl zooms", () => {
  assert.deepEqual(wheelAction(ev({ deltaX: 5, deltaY: 100 }), "pan", 800), { pan: [-5, -100] });
  assert.deepEqual(wheelAction(ev({ deltaY: 1, deltaMode: 2 }), "pan", 800), { pan: [-0, -800] });
  assert.deepEqual(wheelAction(ev({ deltaY: 100, ctrlKey: true }), "pan", 800), { zoom: Math.exp(-0.22) });
});

test("without storage the mode is zoom", () => {
  assert.equal(wheelMode(), "zoom");
});
