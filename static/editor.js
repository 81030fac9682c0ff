// The editor: owns the document and the state around it (view, selection, history) and ties
// the modules together. Modules talk to it, never to each other's internals.

import { View } from "./view.js";
import { Grid } from "./spatial.js";
import { Renderer, LOD_FULL } from "./render.js";
import { History } from "./history.js";
import { Edits, forEachElementFlags } from "./edits.js";
import { Input } from "./input.js";
import { Panels } from "./panels.js";
import * as api from "./api.js";
import * as store from "./store.js";
import { computeEdges, nodeRows, reachable, HEADER, ROW, list, PARAM_TYPES, BB_TYPES, elementClass, typeName, formatValue, flagSource, bbLabel } from "./model.js";
import { clone, stringify } from "./jsonio.js";

const FRAGMENT_DELAY = 250;
const AUTOSAVE_DELAY = 1000;
const CLIPBOARD_KEY = "ainb-editor.clipboard";
const CLIPBOARD_FORMAT = "ainb-editor-clipboard/1";

export class Editor {
  constructor(root) {
    this.root = root;
    this.doc = null;
    this.name = "";
    this.view = new View();
    this.grid = new Grid();
    this.edges = null;
    this.selection = new Set();
    this.command = -1;
    this.hover = null; // plug under the pointer: {node, row, side}
    this.connect = null; // link being dragged
    this.boxSelect = null;
    this.problems = [];
    this.problemNodes = new Set();
    this.search = { query: "", hits: [], index: -1, hitSet: null, current: -1, text: null };
    this.showMinimap = true;
    this.clipboard = null;
    this.listeners = new Map();
    this.loads = 0;
    this.timings = {};
    this.lastShare = "";
    this.statusText = "";
    this.history = new History((cmd, how) => this.changed(cmd, how));
    this.edits = new Edits(this);
    this.ready = new Promise((resolve) => (this.resolveReady = resolve));
    this.ui = new Panels(this, root);
    this.renderer = new Renderer(this, this.ui.canvas);
    this.input = new Input(this, this.ui.canvas);
    this.frameQueued = false;
    new ResizeObserver(() => this.requestRender()).observe(this.ui.canvas);
    window.addEventListener("beforeunload", (e) => {
      if (this.doc && this.history.dirty()) {
        e.preventDefault();
        e.returnValue = "";
      }
    });
    window.addEventListener("hashchange", () => this.applyFragment());
    this.requestRender();
  }

  on(event, fn) {
    if (!this.listeners.has(event)) this.listeners.set(event, []);
    this.listeners.get(event).push(fn);
  }

  emit(event, ...args) {
    for (const fn of this.listeners.get(event) || []) fn(...args);
  }

  // Redraws at the next animation frame, however many changes come before it.
  requestRender() {
    if (this.frameQueued) return;
    this.frameQueued = true;
    requestAnimationFrame(() => {
      this.frameQueued = false;
      this.renderer.draw();
      if (this.pendingLoad) {
        const t = performance.now();
        this.timings.firstFrame = t - (this.timings.openStart ?? t);
        this.pendingLoad = false;
        this.loads++;
        this.resolveReady(true);
        this.emit("drawn");
      }
      this.emit("frame");
    });
  }

  status(text, kind = "") {
    this.statusText = text;
    this.emit("status", text, kind);
  }

  // ---- documents

  async openFile(file) {
    this.timings.openStart = performance.now();
    const max = Number(this.root.dataset.maxUpload || 0);
    if (max > 0 && file.size > max) {
      this.ui.toast(`${file.name} is ${(file.size / 1e6).toFixed(1)} MB; the server takes at most ${(max / 1e6).toFixed(1)} MB.`, "error");
      return false;
    }
    if (this.doc && this.history.dirty() && !window.confirm("Discard the unsaved edits of " + this.name + "?")) return false;
    this.status(`Opening ${file.name}…`);
    let doc;
    try {
      doc = await api.parseFile(file.name, await file.arrayBuffer());
    } catch (err) {
      this.status("");
      this.ui.toast(`Could not open ${file.name}: ${err.message}`, "error");
      return false;
    }
    this.timings.parsed = performance.now() - this.timings.openStart;
    this.load(doc, { name: file.name });
    store.remember(file.name, doc);
    this.status(`Opened ${file.name}: ${doc.file.Elements.length} nodes`);
    return true;
  }

  async reopen(entry) {
    const doc = await store.getDoc(entry.key);
    if (!doc) {
      this.ui.toast(`${entry.name} is no longer stored; open the file again.`, "error");
      return;
    }
    if (this.doc && this.history.dirty() && !window.confirm("Discard the unsaved edits of " + this.name + "?")) return;
    this.timings.openStart = performance.now();
    this.load(doc, { name: entry.name });
  }

  // Shows a document. opts: name, view ({command, x, y, zoom, selection}), dirty.
  load(doc, opts = {}) {
    this.doc = doc;
    // Names this document for the clipboard: a paste is local only into the same one.
    this.docKey = randomKey();
    this.name = opts.name || doc.name || "untitled.ainb";
    if (!Array.isArray(doc.positions) || doc.positions.length !== doc.file.Elements.length) {
      this.ui.toast("The document has no node positions; nodes are stacked.", "error");
      doc.positions = doc.file.Elements.map((_, i) => ({ x: (i % 8) * 340, y: Math.floor(i / 8) * 300, w: 260, h: 200 }));
    }
    this.history.reset(!!opts.dirty);
    this.selection.clear();
    this.problems = [];
    this.problemNodes.clear();
    this.search = { query: "", hits: [], index: -1, hitSet: null, current: -1, text: null };
    this.rebuild();
    this.renderer.resize();
    const v = opts.view;
    if (v && Number.isFinite(v.zoom)) {
      this.command = Number.isInteger(v.command) ? v.command : -1;
      this.view.set(v);
      for (const i of v.selection || []) if (i >= 0 && i < doc.file.Elements.length) this.selection.add(i);
    } else if ((doc.file.Commands || []).length) {
      this.focusCommand(0, { select: false });
    } else {
      this.command = -1;
      this.fitAll();
    }
    this.pendingLoad = true;
    this.emit("document");
    this.emit("selection");
    this.emit("dirty");
    this.viewChanged();
    this.scheduleAutosave(0);
    this.requestRender();
  }

  rebuild() {
    this.grid.build(this.doc.positions);
    this.edges = computeEdges(this.doc.file);
    this.renderer.invalidate();
    this.search.text = null;
  }

  // After any edit, undo or redo.
  changed(cmd) {
    const n = this.doc.file.Elements.length;
    if (cmd.geometry) this.grid.build(this.doc.positions);
    if (cmd.structure || cmd.geometry) this.edges = computeEdges(this.doc.file);
    this.renderer.invalidate();
    this.search.text = null;
    for (const i of [...this.selection]) if (i >= n) this.selection.delete(i);
    if (this.search.query) this.runSearch(this.search.query, { keep: true });
    this.emit("change", cmd);
    this.emit("dirty");
    this.scheduleAutosave();
    this.requestRender();
  }

  undo() {
    const cmd = this.history.undo();
    if (cmd) this.status(`Undid: ${cmd.label}`);
  }

  redo() {
    const cmd = this.history.redo();
    if (cmd) this.status(`Redid: ${cmd.label}`);
  }

  dirty() {
    return !!this.doc && this.history.dirty();
  }

  // Keeps the open document in IndexedDB so a reload comes back to it, edits included.
  scheduleAutosave(delay = AUTOSAVE_DELAY) {
    clearTimeout(this.autosaveTimer);
    this.autosaveTimer = setTimeout(() => {
      if (!this.doc) return;
      store.putDoc("current", { doc: this.doc, name: this.name, dirty: this.history.dirty() });
    }, delay);
  }

  // ---- view and selection

  viewChanged() {
    this.requestRender();
    this.emit("view");
    clearTimeout(this.fragmentTimer);
    this.fragmentTimer = setTimeout(() => this.writeFragment(), FRAGMENT_DELAY);
  }

  viewState() {
    return { command: this.command, x: this.view.x, y: this.view.y, zoom: this.view.zoom, selection: this.selectionList() };
  }

  selectionList() {
    return [...this.selection].sort((a, b) => a - b);
  }

  writeFragment() {
    if (!this.doc) return;
    const v = this.view;
    const parts = [`cmd=${this.command}`, `x=${v.x}`, `y=${v.y}`, `z=${v.zoom}`];
    if (this.selection.size) parts.push(`sel=${this.selectionList().join(",")}`);
    const frag = "#" + parts.join("&");
    if (location.hash !== frag) {
      this.writingFragment = frag;
      history.replaceState(history.state, "", frag);
    }
  }

  static parseFragment(hash) {
    const p = new URLSearchParams((hash || "").replace(/^#/, ""));
    if (!p.has("z")) return null;
    const num = (k) => (p.has(k) ? Number(p.get(k)) : NaN);
    const sel = (p.get("sel") || "").split(",").filter(Boolean).map(Number).filter(Number.isInteger);
    return { command: Number.isInteger(num("cmd")) ? num("cmd") : -1, x: num("x"), y: num("y"), zoom: num("z"), selection: sel };
  }

  // Follows a fragment the user typed or pasted.
  applyFragment() {
    if (!this.doc || location.hash === this.writingFragment) return;
    const v = Editor.parseFragment(location.hash);
    if (!v) return;
    this.command = v.command;
    this.view.set(v);
    this.select(v.selection.filter((i) => i < this.doc.file.Elements.length));
    this.viewChanged();
  }

  select(ids, opts = {}) {
    if (!opts.add) this.selection.clear();
    for (const i of ids) {
      if (opts.toggle && this.selection.has(i)) this.selection.delete(i);
      else this.selection.add(i);
    }
    this.emit("selection");
    this.viewChanged();
  }

  // Centres a node and selects it; zooms in when the node would be too small to read.
  focusNode(i, opts = {}) {
    const p = this.doc && this.doc.positions[i];
    if (!p) return;
    if (this.view.zoom < LOD_FULL) this.view.zoom = 1;
    this.view.centerOn(p.x + p.w / 2, p.y + Math.min(p.h, this.view.height / this.view.zoom) / 2);
    if (opts.select !== false) this.select([i]);
    else this.viewChanged();
  }

  focusCommand(k, opts = {}) {
    const c = (this.doc.file.Commands || [])[k];
    if (!c) return;
    this.command = k;
    const nodes = reachable(this.doc.file, [c.Root, c.Secondary]);
    const pos = this.doc.positions;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const i of nodes) {
      const p = pos[i];
      x0 = Math.min(x0, p.x); y0 = Math.min(y0, p.y);
      x1 = Math.max(x1, p.x + p.w); y1 = Math.max(y1, p.y + p.h);
    }
    if (x0 !== Infinity) this.view.fit(x0, y0, x1, y1, 60, 1);
    // A big tree is fitted from its root, so the root stays readable.
    if (this.view.zoom < LOD_FULL && pos[c.Root]) {
      this.view.zoom = 0.8;
      const p = pos[c.Root];
      this.view.x = p.x + this.view.width / 2 / this.view.zoom - 40;
      this.view.y = p.y + this.view.height / 2 / this.view.zoom - 40;
    }
    if (opts.select !== false && c.Root >= 0) this.select([c.Root]);
    else this.viewChanged();
    this.emit("command");
  }

  fitAll() {
    const [x0, y0, x1, y1] = this.grid.bounds;
    this.view.fit(x0, y0, x1, y1, 40, 1);
    this.viewChanged();
  }

  fitSelection() {
    if (!this.selection.size) return this.fitAll();
    const pos = this.doc.positions;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const i of this.selection) {
      const p = pos[i];
      x0 = Math.min(x0, p.x); y0 = Math.min(y0, p.y);
      x1 = Math.max(x1, p.x + p.w); y1 = Math.max(y1, p.y + p.h);
    }
    this.view.fit(x0, y0, x1, y1, 60, 1);
    this.viewChanged();
  }

  // What is under a screen point: the minimap, a plug, a node (with its row) or nothing.
  hitTest(sx, sy) {
    const mm = this.renderer.minimapRect;
    if (mm && sx >= mm.x - 4 && sx <= mm.x + mm.w + 4 && sy >= mm.y - 4 && sy <= mm.y + mm.h + 4) return { kind: "minimap" };
    if (!this.doc) return { kind: "empty" };
    const [wx, wy] = this.view.toWorld(sx, sy);
    const tol = Math.max(6, 8 / this.view.zoom);
    let node = -1;
    const pos = this.doc.positions;
    this.grid.query(wx - tol, wy, wx + tol, wy, (i) => {
      if (i > node) node = i;
    });
    if (node < 0) return { kind: "empty", wx, wy };
    const p = pos[node];
    const inside = wx >= p.x && wx <= p.x + p.w;
    const base = { kind: "node", node, wx, wy, row: -1 };
    if (this.view.zoom < LOD_FULL || wy < p.y + HEADER) return inside ? base : { kind: "empty", wx, wy };
    const r = Math.floor((wy - p.y - HEADER) / ROW);
    const rows = this.renderer.prepared(node).rows;
    const rowInfo = nodeRows(this.doc.file, this.doc.file.Elements[node])[r];
    if (!rowInfo) return inside ? base : { kind: "empty", wx, wy };
    const near = Math.max(7, 9 / this.view.zoom);
    if (Math.abs(wx - p.x) <= near && rowInfo.kind === "io" && rowInfo.input) {
      return { kind: "plug", side: "in", node, row: r, type: rowInfo.input.type, index: rowInfo.input.index, item: rowInfo.input.item };
    }
    if (Math.abs(wx - (p.x + p.w)) <= near && rows[r].outPlug) {
      if (rowInfo.kind === "io") return { kind: "plug", side: "out", node, row: r, type: rowInfo.output.type, index: rowInfo.output.index, item: rowInfo.output.item };
      if (rowInfo.kind === "child") return { kind: "plug", side: "child", node, row: r, index: rowInfo.index, item: rowInfo.plug };
      if (rowInfo.kind === "jump") return { kind: "plug", side: "jump", node, row: r, index: rowInfo.index, item: rowInfo.plug };
    }
    if (!inside) return { kind: "empty", wx, wy };
    return { ...base, row: r, rowInfo };
  }

  // Screen point of a node part, for tests and tooltips: side "in"/"out" at a row, or the
  // header's centre when row < 0.
  screenOf(node, row = -1, side = "") {
    const p = this.doc.positions[node];
    let wx = p.x + p.w / 2, wy = p.y + HEADER / 2;
    if (row >= 0) {
      wy = p.y + HEADER + row * ROW + ROW / 2;
      wx = side === "in" ? p.x : side === "out" ? p.x + p.w : p.x + p.w / 2;
    }
    const [sx, sy] = this.view.toScreen(wx, wy);
    const r = this.ui.canvas.getBoundingClientRect();
    return { x: sx + r.left, y: sy + r.top };
  }

  // Follows a link from a plug: an input to its source, a child or jump to its target.
  follow(hit) {
    if (hit.side === "in") {
      const s = hit.item.Sources ? hit.item.Sources.find((x) => x.Node >= 0) : hit.item.Source;
      if (s && s.Node >= 0) return this.focusNode(s.Node);
      this.select([hit.node]);
      this.ui.inspector.reveal(`Inputs.${hit.type}.${hit.index}`);
      return;
    }
    if ((hit.side === "child" || hit.side === "jump") && hit.item.Node >= 0) return this.focusNode(hit.item.Node);
    if (hit.side === "out") {
      // The first input reading this output.
      const E = this.edges;
      for (let k = 0; k < E.count; k++) {
        if (E.from[k] === hit.node && E.fromRow[k] === hit.row && E.kind[k] === 0) return this.focusNode(E.to[k]);
      }
    }
  }

  // ---- search

  searchText(i) {
    if (!this.search.text) this.search.text = new Array(this.doc.file.Elements.length);
    let t = this.search.text[i];
    if (t !== undefined) return t;
    const file = this.doc.file, e = file.Elements[i];
    const parts = [elementClass(e), typeName(e.Type), e.Name, "#" + i];
    for (const group of ["Properties", "Inputs", "Outputs"]) {
      for (const pt of PARAM_TYPES) {
        for (const it of list(e[group], pt)) {
          parts.push(it.Name);
          if (it.ClassName) parts.push(it.ClassName);
          if (group === "Outputs") continue;
          const flags = group === "Inputs" ? (it.Source || {}).Flags : it.Flags;
          const src = flagSource(flags || 0);
          if (src.kind === "bb") parts.push(bbLabel(file, pt, src));
          parts.push(formatValue(pt, it.Value, it.ClassName));
        }
      }
    }
    for (const p of list(e.Plugs, "Child")) parts.push(p.Name, p.String || "");
    for (const p of list(e.Plugs, "Transition")) if (p.Jump && p.Jump.Command) parts.push(p.Jump.Command);
    t = parts.join("\n").toLowerCase();
    this.search.text[i] = t;
    return t;
  }

  runSearch(query, opts = {}) {
    const s = this.search;
    s.query = query;
    const q = query.trim().toLowerCase();
    s.hits = [];
    if (q && this.doc) {
      const n = this.doc.file.Elements.length;
      for (let i = 0; i < n; i++) if (this.searchText(i).includes(q)) s.hits.push(i);
    }
    s.hitSet = new Set(s.hits);
    if (!opts.keep) s.index = -1;
    else if (s.index >= s.hits.length) s.index = s.hits.length - 1;
    s.current = s.index >= 0 ? s.hits[s.index] : -1;
    this.emit("search");
    this.requestRender();
  }

  searchStep(dir) {
    const s = this.search;
    if (!s.hits.length) return;
    s.index = (s.index + dir + s.hits.length) % s.hits.length;
    if (s.index < 0) s.index += s.hits.length;
    s.current = s.hits[s.index];
    this.focusNode(s.current);
    this.emit("search");
  }

  // ---- save and share

  async save() {
    if (!this.doc) return false;
    this.status("Building…");
    try {
      const { blob, filename } = await api.build(this.doc);
      this.download(blob, filename || this.downloadName());
      this.history.markSaved();
      this.setProblems([]);
      this.emit("dirty");
      this.scheduleAutosave(0);
      this.status(`Saved ${filename || this.downloadName()} (${blob.size} bytes)`);
      return true;
    } catch (err) {
      this.status("Save failed", "error");
      this.showApiProblems(err);
      this.ui.toast(`The file cannot be built: ${err.message}`, "error");
      return false;
    }
  }

  // Lists what the server found wrong with the document in the problems panel.
  showApiProblems(err) {
    const d = err.detail || {};
    if (err.status === 422 && Array.isArray(d.problems)) this.setProblems(d.problems.map((p) => ({ node: p.node ?? -1, path: p.path, message: p.message })));
    else if (err.status === 422 && Number.isInteger(d.function)) {
      this.setProblems([{ node: -1, function: d.function, line: d.line, path: `function ${d.function}` + (d.line ? `, line ${d.line}` : ""), message: d.message || err.message }]);
    } else this.setProblems([{ node: -1, path: "", message: err.message }]);
  }

  // ---- tidy

  // Lays the nodes out again with the server's automatic layout, as one undoable edit.
  // Pinned nodes (the ones the user dragged) stay put unless reset, which lays out
  // everything and clears the pins. The document is sent as it is when Tidy is pressed; if
  // it changes before the answer comes (an edit, an undo, another file), the answer is
  // dropped rather than applied over edits it does not know about.
  async tidy(opts = {}) {
    if (!this.doc || this.tidying) return false;
    const reset = !!opts.reset;
    const doc = this.doc, last = this.history.done.at(-1), depth = this.history.done.length;
    this.tidying = true;
    this.emit("tidy", true);
    this.status(reset ? "Tidying every node…" : "Tidying…");
    try {
      let positions;
      try {
        positions = await api.layout(doc, { reset });
      } catch (err) {
        this.status("Tidy failed", "error");
        this.showApiProblems(err);
        this.ui.toast(`Could not tidy: ${err.message}`, "error");
        return false;
      }
      if (this.doc !== doc || this.history.done.length !== depth || this.history.done.at(-1) !== last) {
        this.status("");
        this.ui.toast("The document changed while tidying; nothing was moved. Tidy again.", "error");
        return false;
      }
      if (positions.length !== doc.positions.length) {
        this.status("Tidy failed", "error");
        this.ui.toast(`Could not tidy: the layout has ${positions.length} positions for ${doc.positions.length} nodes`, "error");
        return false;
      }
      // Keep the viewport where the user is looking: the selected node (the lowest-numbered
      // one), or else the node nearest the view centre, stays at the same screen position.
      // Fitting everything instead would throw away the zoom and place the user chose, and on
      // a big file would zoom out so far nothing is readable; anchoring one node keeps what
      // the user was working on under their eyes.
      const anchor = this.selection.size ? this.selectionList()[0] : this.nearestToCentre();
      const a = doc.positions[anchor];
      const [ax, ay] = a ? [a.x, a.y] : [0, 0];
      const changed = this.edits.applyLayout(positions, reset ? "Tidy all" : "Tidy");
      if (a && (a.x !== ax || a.y !== ay)) {
        this.view.x += a.x - ax;
        this.view.y += a.y - ay;
        this.viewChanged();
      }
      const pinned = doc.positions.filter((p) => p.pinned).length;
      this.status(!changed ? "Already tidy" : reset ? "Tidied every node" : `Tidied; ${pinned} pinned node${pinned === 1 ? "" : "s"} kept in place`);
      return changed;
    } finally {
      this.tidying = false;
      this.emit("tidy", false);
    }
  }

  // The node whose box centre is nearest the centre of the view, or -1 when there is none.
  nearestToCentre() {
    const pos = this.doc.positions;
    const cx = this.view.x, cy = this.view.y;
    let best = -1, bestD = Infinity;
    for (let i = 0; i < pos.length; i++) {
      const p = pos[i];
      const d = Math.hypot(p.x + p.w / 2 - cx, p.y + p.h / 2 - cy);
      if (d < bestD) {
        best = i;
        bestD = d;
      }
    }
    return best;
  }

  setProblems(problems) {
    this.problems = problems;
    this.problemNodes = new Set(problems.map((p) => p.node).filter((n) => n >= 0));
    this.emit("problems");
    this.requestRender();
  }

  downloadName() {
    const n = this.name.replace(/\.zs$/i, "");
    return /\.ainb$/i.test(n) ? n : n + ".ainb";
  }

  download(blob, name) {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    a.hidden = true;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  }

  async share() {
    if (!this.doc) return null;
    this.status("Sharing…");
    try {
      const res = await api.createShare(this.doc, this.viewState());
      const link = new URL(res.url, location.href).href;
      this.lastShare = link;
      let copied = false;
      try {
        await navigator.clipboard.writeText(link);
        copied = true;
      } catch {
        // no clipboard permission (or no focus): the toast shows the link to copy by hand
      }
      this.ui.shareToast(link, copied);
      this.status(copied ? "Share link copied" : "Share link created");
      return link;
    } catch (err) {
      this.ui.toast(`Could not share: ${err.message}`, "error");
      this.status("");
      return null;
    }
  }

  // Opens a share, the last document or nothing, as the page asks.
  async start() {
    const frag = Editor.parseFragment(location.hash);
    const id = this.root.dataset.share;
    if (id) {
      try {
        const s = await api.getShare(id);
        const view = frag || s.view || null;
        this.timings.openStart = performance.now();
        this.load(s.document, { name: s.document.name, view });
        this.status(`Opened share ${id}`);
      } catch (err) {
        this.ui.toast(`Could not open share ${id}: ${err.message}`, "error");
      }
      return;
    }
    const cur = await store.getDoc("current");
    if (cur && cur.doc && !this.doc) {
      this.timings.openStart = performance.now();
      this.load(cur.doc, { name: cur.name, view: frag, dirty: cur.dirty });
      this.status(`Restored ${cur.name}` + (cur.dirty ? " with unsaved edits" : ""));
    }
  }

  // ---- clipboard

  // The clipboard lives in localStorage, so nodes copied in one tab paste in another, even
  // into another file. It carries what a foreign paste needs to make sense of the copies
  // there (see Edits.adopt): the attachments they use and the names and texts of the
  // blackboard parameters and expression functions they read. The copy in memory serves
  // when storage is full or disabled.
  copySelection() {
    if (!this.selection.size) return;
    const ids = this.selectionList();
    const file = this.doc.file, pos = this.doc.positions;
    const elements = ids.map((i) => clone(file.Elements[i]));
    const attachments = {}, functions = {}, blackboard = {};
    const bb = (file.Blackboard && file.Blackboard.Params) || {};
    for (const t of BB_TYPES) if (list(bb, t).length) blackboard[t] = list(bb, t).map((p) => p.Name);
    const refs = (holder) => {
      const src = flagSource(holder.Flags);
      if (src.kind === "expr" && this.doc.functions && this.doc.functions[src.index]) functions[src.index] = this.doc.functions[src.index].text;
    };
    for (const e of elements) {
      forEachElementFlags(e, refs);
      for (const a of e.Attachments || []) {
        const att = (file.Attachments || [])[a];
        if (!att) continue;
        attachments[a] = att;
        forEachElementFlags(att, refs);
      }
    }
    this.clipboard = { format: CLIPBOARD_FORMAT, source: this.docKey, version: file.Version, ids, elements,
      positions: ids.map((i) => ({ x: pos[i].x, y: pos[i].y })), attachments, functions, blackboard };
    try {
      localStorage.setItem(CLIPBOARD_KEY, stringify(this.clipboard));
    } catch {
      // too big for storage or storage disabled: pasting works in this tab only
    }
    this.status(`Copied ${ids.length} node${ids.length > 1 ? "s" : ""}`);
  }

  // The last copy made in any tab.
  readClipboard() {
    try {
      const c = JSON.parse(localStorage.getItem(CLIPBOARD_KEY) || "null");
      if (c && c.format === CLIPBOARD_FORMAT && Array.isArray(c.elements) && c.elements.length) return c;
    } catch {
      // unreadable: fall back to this tab's own copy
    }
    return this.clipboard;
  }

  paste(at) {
    const c = this.readClipboard();
    if (!c || !this.doc) return;
    const [cx, cy] = at || [this.view.x, this.view.y];
    const x0 = Math.min(...c.positions.map((p) => p.x)), y0 = Math.min(...c.positions.map((p) => p.y));
    const els = c.elements.map((e, k) => Object.assign(clone(e), { __index: c.ids[k] }));
    const foreign = c.source === this.docKey ? null : c;
    const label = `Paste ${els.length} node${els.length > 1 ? "s" : ""}` + (foreign ? " from another file" : "");
    const ids = this.edits.insertCopies(els, c.positions.map((p) => ({ x: p.x - x0 + cx, y: p.y - y0 + cy })), label, foreign);
    this.select(ids);
    this.status(`Pasted ${ids.length} node${ids.length > 1 ? "s" : ""}` + (foreign ? "; links to nodes not copied were cut" : ""));
  }

  deleteSelection() {
    if (!this.selection.size) return;
    const res = this.edits.deleteNodes(this.selectionList());
    if (!res.ok) this.ui.toast(res.reason, "error");
    else this.select([]);
  }

  duplicateSelection() {
    if (!this.selection.size) return;
    this.select(this.edits.duplicate(this.selectionList()));
  }
}

function randomKey() {
  const b = new Uint8Array(8);
  crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}
