// Unit tests of the SVG drawing context (svgcontext.js) under node: each call the renderer
// makes becomes the SVG element it means, text stays text, and names cannot break the XML.

import { test } from "node:test";
import assert from "node:assert/strict";
import { SVGContext, SVGPath, escapeXML } from "./svgcontext.js";

// The elements, without the header, the last group's end and the closing tag.
const body = (ctx) => ctx.toString().split("\n").slice(2, -3);

test("shapes, paths and text become elements under their transform", () => {
  const ctx = new SVGContext(200, 100);
  ctx.setTransform(2, 0, 0, 2, 10, 20);
  ctx.fillStyle = "#24262c";
  ctx.fillRect(1, 2, 30, 40.5);
  ctx.beginPath();
  ctx.moveTo(0, 0);
  ctx.bezierCurveTo(1, 2, 3, 4, 5, 6);
  ctx.strokeStyle = "#3ad1ff";
  ctx.lineWidth = 1.5;
  ctx.setLineDash([4, 3]);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.font = "600 13px system-ui, sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillStyle = "#dfe2e8";
  ctx.fillText("Root <A&B>", 7, 8);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.strokeRect(0.5, 0.5, 10, 10);
  assert.deepEqual(body(ctx), [
    `<g transform="matrix(2 0 0 2 10 20)">`,
    `<rect x="1" y="2" width="30" height="40.5" fill="#24262c"/>`,
    `<path d="M0 0C1 2 3 4 5 6" fill="none" stroke="#3ad1ff" stroke-width="1.5" stroke-dasharray="4 3"/>`,
    `<text x="7" y="8" fill="#dfe2e8" style="font:600 13px system-ui, sans-serif" text-anchor="middle" dominant-baseline="central" xml:space="preserve">Root &lt;A&amp;B&gt;</text>`,
    `</g>`,
    `<g transform="matrix(1 0 0 1 0 0)">`,
    `<rect x="0.5" y="0.5" width="10" height="10" fill="none" stroke="#3ad1ff" stroke-width="1.5"/>`,
  ]);
  assert.match(ctx.toString(), /^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="200" height="100" viewBox="0 0 200 100">\n/);
  assert.match(ctx.toString(), /<\/g>\n<\/svg>\n$/);
});

test("a whole circle is two arcs; a part of one is one arc from its start", () => {
  const ctx = new SVGContext(10, 10);
  ctx.beginPath();
  ctx.arc(5, 5, 2, 0, Math.PI * 2);
  ctx.fill();
  ctx.beginPath();
  ctx.arc(0, 0, 1, 0, Math.PI / 2);
  ctx.fill();
  assert.deepEqual(body(ctx).slice(1), [
    `<path d="M7 5A2 2 0 0 1 3 5A2 2 0 0 1 7 5" fill="#000"/>`,
    `<path d="M1 0A1 1 0 0 1 0 1" fill="#000"/>`,
  ]);
});

test("a rounded rectangle keeps its radius inside half its sides", () => {
  const ctx = new SVGContext(10, 10);
  ctx.beginPath();
  ctx.roundRect(0, 0, 10, 4, 6);
  ctx.fill();
  assert.equal(body(ctx)[1], `<path d="M2 0H8A2 2 0 0 1 10 2V2A2 2 0 0 1 8 4H2A2 2 0 0 1 0 2V2A2 2 0 0 1 2 0Z" fill="#000"/>`);
});

test("save and restore bring back styles and the transform", () => {
  const ctx = new SVGContext(10, 10);
  ctx.fillStyle = "red";
  ctx.save();
  ctx.fillStyle = "blue";
  ctx.scale(2, 3);
  assert.deepEqual(ctx.getTransform(), { a: 2, b: 0, c: 0, d: 3, e: 0, f: 0 });
  ctx.restore();
  assert.equal(ctx.fillStyle, "red");
  assert.deepEqual(ctx.getTransform(), { a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 });
  const m = ctx.getTransform();
  ctx.setTransform(5, 0, 0, 5, 1, 1);
  ctx.setTransform(m);
  assert.deepEqual(ctx.getTransform(), m);
});

test("hostile names cannot leave their text element", () => {
  assert.equal(escapeXML(`"]]></text><script>x</script>'\u0001`), "&quot;]]&gt;&lt;/text&gt;&lt;script&gt;x&lt;/script&gt;&#39;\ufffd");
  const ctx = new SVGContext(10, 10);
  ctx.fillStyle = `red"/><script/>`;
  ctx.fillText("</svg>", 0, 0);
  assert.ok(!/<script|<\/svg>\s*</.test(body(ctx).join("")));
});

test("a call the renderer would need but the context lacks throws", () => {
  const ctx = new SVGContext(10, 10);
  assert.throws(() => ctx.clip(), TypeError);
});

test("paths made apart from the context (as Path2D batches are) fill and stroke as given", () => {
  const ctx = new SVGContext(10, 10);
  const p = ctx.newPath();
  assert.ok(p instanceof SVGPath);
  p.moveTo(0, 0);
  p.bezierCurveTo(1, 0, 2, 1, 3, 1);
  p.moveTo(5, 5);
  p.lineTo(6, 6);
  ctx.strokeStyle = "#abc";
  ctx.stroke(p);
  ctx.beginPath();
  ctx.stroke(); // an empty path draws nothing
  assert.deepEqual(body(ctx).slice(1), [`<path d="M0 0C1 0 2 1 3 1M5 5L6 6" fill="none" stroke="#abc" stroke-width="1"/>`]);
});
