// Entry point: starts the editor in #app and exposes a small read-only hook for tests and
// scripts. The editor is the page's only global.

import { Editor } from "./editor.js";
import { setReadOnly, isReadOnly } from "./history.js";

const app = document.getElementById("app");
if (app) {
  // The embed (/e/{id}) shows a share read-only: no edit reaches the document.
  setReadOnly("readonly" in app.dataset);
  const ed = new Editor(app);
  window.ainbEditor = Object.freeze({
    ready: ed.ready,
    document: () => ed.doc,
    view: () => ({ command: ed.command, x: ed.view.x, y: ed.view.y, zoom: ed.view.zoom }),
    selection: () => ed.selectionList(),
    dirty: () => ed.dirty(),
    readOnly: () => isReadOnly(),
    loads: () => ed.loads,
    autosavedEdits: () => ed.autosavedEdits,
    status: () => ed.statusText,
    problems: () => ed.problems.slice(),
    warnings: () => ed.warnings.slice(),
    lastShare: () => ed.lastShare,
    lastEmbed: () => ed.lastEmbed || "",
    lastNodeLink: () => ed.lastNodeLink || "",
    lastRefusal: () => ed.lastRefusal || "",
    history: () => ({ undo: ed.history.done.map((c) => c.label), redo: ed.history.undone.map((c) => c.label) }),
    // Nodes are named by id: screenOf(id, row, side), selection() lists ids.
    screenOf: (node, row, side) => ed.screenOf(node, row, side),
    // The lines a node's header shows its title in, as drawn at full detail.
    titleLines: (node) => (ed.indexOf(node) < 0 ? null : ed.renderer.prepared(ed.indexOf(node)).titles.slice()),
    timings: () => ({ ...ed.timings }),
    treeSearches: () => ed.trees.view.searchRuns,
    // Compare with… and Merge… in the tree view: rows with their marks, the Changes list.
    treeDiff: () => ed.trees.view.compare.snapshot(),
    frame: () => ({ frames: ed.renderer.frames, lastMs: ed.renderer.lastFrameMs, visible: ed.renderer.visibleCount, labels: ed.renderer.labelCount, hitLabel: ed.renderer.hitLabel, copied: ed.renderer.copied }),
    // Draws n frames synchronously while panning by (dx, dy) screen pixels each, and returns
    // each frame's duration in ms. Reading a pixel back makes the canvas finish drawing, so
    // the times include rasterization, not only recording.
    benchPan(n, dx, dy) {
      const times = [];
      const ctx = ed.renderer.ctx;
      for (let k = 0; k < n; k++) {
        const t0 = performance.now();
        ed.view.panBy(dx, dy);
        ed.renderer.draw();
        ctx.getImageData(0, 0, 1, 1);
        times.push(performance.now() - t0);
      }
      ed.viewChanged();
      return times;
    },
    // Serializes the document n times as a save does and returns each time in ms.
    benchSerialize(n) {
      const times = [];
      for (let k = 0; k < n; k++) {
        const t0 = performance.now();
        JSON.stringify(ed.doc);
        times.push(performance.now() - t0);
      }
      return times;
    },
    // Sets the view and draws it anew (not from the scene cache): scripts that change the
    // document behind the editor's back redraw with this.
    setView(v) {
      ed.renderer.dropScene();
      ed.view.set(v);
      if (Number.isInteger(v.command)) ed.command = v.command;
      ed.viewChanged();
    },
    fitAll: () => ed.fitAll(),
    // How many links the canvas draws (the document's edges).
    links: () => (ed.edges ? ed.edges.count : 0),
    // Compare mode and the merge panel (compareview.js): rows, marks, merge conflicts, and
    // what the last frame drew in compare colours ([id, colour, "node" or "ghost"]).
    compare: () => ({ ...ed.compare.snapshot(), drawn: (ed.renderer.compareDrawn || []).slice() }),
  });
  ed.start();
}
