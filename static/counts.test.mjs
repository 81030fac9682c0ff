// Unit tests of how counts and zooms are said (counts.js), under node.

import { test } from "node:test";
import assert from "node:assert/strict";
import { count, zoomText } from "./counts.js";

test("a count agrees in number with its word", () => {
  assert.equal(count(0, "node"), "0 nodes");
  assert.equal(count(1, "node"), "1 node");
  assert.equal(count(2, "node"), "2 nodes");
  assert.equal(count(1, "class", "classes"), "1 class");
  assert.equal(count(3, "class", "classes"), "3 classes");
});

test("the zoom never reads 0%: two significant digits below 10 %, whole above", () => {
  assert.equal(zoomText(1), "zoom 100%");
  assert.equal(zoomText(0.42), "zoom 42%");
  assert.equal(zoomText(0.1), "zoom 10%");
  assert.equal(zoomText(0.0996), "zoom 10%");
  assert.equal(zoomText(0.0913), "zoom 9.1%");
  assert.equal(zoomText(0.004), "zoom 0.4%");
  assert.equal(zoomText(0.002), "zoom 0.2%");
  assert.equal(zoomText(0.00123), "zoom 0.12%");
  assert.equal(zoomText(4), "zoom 400%");
});
