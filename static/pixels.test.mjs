// Unit tests of the pixel layer (pixels.js): coverage at a rectangle's edges, source over
// where rectangles meet, and a clear that leaves nothing behind.

import { test } from "node:test";
import assert from "node:assert/strict";
import { PixelRects } from "./pixels.js";

const px = (R, x, y) => Array.from(R.data.subarray((y * R.width + x) * 4, (y * R.width + x) * 4 + 4));

test("a rectangle covers its whole pixels and the parts of the pixels on its edges", () => {
  const R = new PixelRects(8, 8);
  R.rect(1.5, 2, 4.25, 3, 0x102030);
  assert.deepEqual(px(R, 2, 2), [0x10, 0x20, 0x30, 255]);
  assert.deepEqual(px(R, 1, 2), [0x10, 0x20, 0x30, 128]);
  assert.deepEqual(px(R, 4, 2), [0x10, 0x20, 0x30, 64]);
  assert.deepEqual(px(R, 5, 2), [0, 0, 0, 0]);
  assert.deepEqual(px(R, 2, 3), [0, 0, 0, 0]);
  assert.deepEqual(R.dirty(), [1, 2, 4, 1]);
  // Within one pixel both ways: the part of it that is covered.
  R.rect(6.25, 6.5, 6.75, 7, 0xffffff);
  assert.deepEqual(px(R, 6, 6), [255, 255, 255, 64]);
});

test("a rectangle goes over what is there, and clear empties what was drawn", () => {
  const R = new PixelRects(4, 4);
  R.rect(0, 0, 2.5, 1, 0x0000ff);
  R.rect(2, 0, 4, 1, 0xff0000);
  // Pixel 2: blue at half, then red whole: red.
  assert.deepEqual(px(R, 2, 0), [255, 0, 0, 255]);
  R.rect(0, 1, 1, 2, 0x0000ff);
  R.rect(0, 1, 1, 1.5, 0xff0000);
  // Red at 128/255 over opaque blue.
  assert.deepEqual(px(R, 0, 1), [128, 0, 127, 255]);
  R.rect(-5, -5, 0.5, 0.5, 0x00ff00); // cut to the buffer
  R.clear();
  assert.ok(R.data.every((v) => v === 0));
  assert.equal(R.dirty(), null);
});
