// The geometry of pasting, duplicating and tidying, over whole files, driven through the
// page's own modules (../api.js, ../edits.js, ../spatial.js, ../metrics.js: what the browser
// runs for Ctrl+A, Ctrl+C, Ctrl+V, Ctrl+D and L) against the real server. Run by
// TestNoOverlapAfterPasteDuplicateTidy (geometry_test.go), which checks the results; a
// browser test (TestGeometryBrowserAgrees) checks that the page, keys and all, ends with
// the very same places on a few files.
//
// Usage: node geometry.mjs MANIFEST.json
// The manifest is {"base": server URL, "aspect": canvas width / height, "positions": bool,
// "files": [path, ...], "out": path}. For each file the script writes one result to out (a
// JSON array, in the order of files): {"name", "nodes", "pasted", "pasteOverlap",
// "duplicated", "duplicateOverlap", "tidyLabel", "tidied", "tidyOverlap", "positions"?}.
// An overlap is "" or the first two nodes whose boxes overlap; positions, when asked for,
// are {id, x, y, pinned} of every node at the end.

import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";

const manifest = JSON.parse(readFileSync(process.argv[2], "utf8"));

// api.js fetches paths of the page's own origin; here that origin is the test's server.
const fetchOrigin = globalThis.fetch;
globalThis.fetch = (url, opts) => fetchOrigin(new URL(url, manifest.base), opts);

const { parseUpload, layout } = await import("../api.js");
const { createEdits } = await import("../edits.js");
const { clampPositions } = await import("../model.js");
const { Grid } = await import("../spatial.js");
const { NODE_WIDTH, nodeHeight } = await import("../metrics.js");

// The first two nodes whose boxes overlap, or "": a sweep over the boxes in order of their
// left edge (the check the browser test ran in the page).
function overlap(doc) {
  const ns = doc.nodes;
  const b = ns.map((n, i) => [n.x, n.y, n.x + NODE_WIDTH, n.y + nodeHeight(n), i]).sort((p, q) => p[0] - q[0]);
  for (let a = 0; a < b.length; a++) {
    for (let c = a + 1; c < b.length && b[c][0] < b[a][2]; c++) {
      if (b[c][1] < b[a][3] && b[a][1] < b[c][3]) {
        return `#${ns[b[a][4]].id} ${JSON.stringify(b[a].slice(0, 4))} and #${ns[b[c][4]].id} ${JSON.stringify(b[c].slice(0, 4))}`;
      }
    }
  }
  return "";
}

async function sweep(path) {
  const name = basename(path);
  const { doc } = await parseUpload(name, readFileSync(path));
  clampPositions(doc); // as the editor's load does
  const res = { name, nodes: doc.nodes.length };
  if (!doc.nodes.length) return res;
  const ed = createEdits(doc);
  // The view the editor fits to the whole graph (fitAll) is centred on the grid's bounds;
  // Ctrl+V pastes with the copies' top-left corner at the view's centre.
  const g = new Grid();
  g.build(doc.nodes);
  const [x0, y0, x1, y1] = g.bounds;
  // Ctrl+A, Ctrl+C: the clipboard goes through localStorage as JSON.
  const clip = JSON.parse(JSON.stringify(ed.copyNodes(doc.nodes.map((n) => n.id), "this document")));
  const pasted = ed.paste(clip, [(x0 + x1) / 2, (y0 + y1) / 2], false);
  res.pasted = doc.nodes.length;
  res.pasteOverlap = overlap(doc);
  // Ctrl+D duplicates the selection, which the paste left on the pasted nodes, by id.
  ed.duplicate([...pasted].sort((a, b) => a - b));
  res.duplicated = doc.nodes.length;
  res.duplicateOverlap = overlap(doc);
  // Pinned by hand, as a drag would: the first node, and the second on top of it.
  const ns = doc.nodes;
  ns[0].pinned = true;
  ns[1].pinned = true;
  ns[1].x = ns[0].x + 10;
  ns[1].y = ns[0].y + 10;
  // L: the editor's tidy, without the view it keeps in place.
  const positions = await layout(doc, { reset: false, aspect: manifest.aspect });
  if (positions.length !== doc.nodes.length) throw new Error(`${name}: the layout has ${positions.length} positions for ${doc.nodes.length} nodes`);
  res.tidied = ed.applyLayout(positions, "Tidy");
  res.tidyLabel = ed.history.done.at(-1)?.label ?? "";
  res.tidyOverlap = overlap(doc);
  if (manifest.positions) res.positions = doc.nodes.map((n) => ({ id: n.id, x: n.x, y: n.y, pinned: !!n.pinned }));
  return res;
}

const results = [];
for (const path of manifest.files) results.push(await sweep(path));
writeFileSync(manifest.out, JSON.stringify(results));
