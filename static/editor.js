// The editor: the canvas controller. It shows one AINB session of the workspace (document,
// history, problems: session.js) with the state of the canvas around it (view, selection,
// search), and ties the modules together. Modules talk to it, never to each other's internals.

import { View } from "./view.js";
import { Grid } from "./spatial.js";
import * as render from "./render.js";
import { LOD_FULL } from "./render.js";
import { History, isReadOnly } from "./history.js";
import * as edits from "./edits.js";
import { CLIPBOARD_FORMAT } from "./edits.js";
import * as input from "./input.js";
import * as panels from "./panels.js";
import * as inspector from "./inspector.js";
import * as palette from "./palette.js";
import * as folder from "./folder.js";
import * as packs from "./packs.js";
import * as compareview from "./compareview.js";
import * as treefiles from "./treefiles.js";
import * as cataloguestore from "./cataloguestore.js";
import * as picker from "./picker.js";
import * as contextmenu from "./contextmenu.js";
import * as exprcode from "./exprcode.js";
import * as picture from "./picture.js";
import { narrow } from "./context.js";
import * as api from "./api.js";
import * as store from "./store.js";
import { count } from "./counts.js";
import * as shape from "./shape.js";
import { installFieldTracking } from "./fields.js";
import { PACK_NAME } from "./packs.js";
import { TREE_FORMAT, TREE_NAME, sniff } from "./treefiles.js";
import { Session, LOOSE } from "./session.js";
import { Workspace } from "./workspace.js";
import {
  computeEdges, danglingWarnings, reachable, indexById, nodeClass, formatValue, sourceKind, blackboardLabel, conditionText, FORMAT,
  NODE_WIDTH, nodeHeight, hitNode, rowY, clampPositions,
} from "./model.js";

const FRAGMENT_DELAY = 250;
const AUTOSAVE_DELAY = 1000;
const sameMark = (a, b) => !!a && a.n === b.n && a.top === b.top;

// A status that reports something done clears after this long, or at the next edit.
const STATUS_TTL = 8000;

export class Editor {
  constructor(root) {
    this.root = root;
    // Every open file is a session of the workspace; the canvas shows this one (still set,
    // behind the tree view, while a BYML or AAMP file shows).
    this.workspace = new Workspace({ confirm: (q) => window.confirm(q), dropped: (s) => this.dropped(s) });
    this.session = null;
    this.noHistory = new History();
    this.view = new View();
    this.grid = new Grid();
    this.edges = null;
    this.index = new Map(); // node id -> index in doc.nodes
    this.selection = new Set(); // node ids
    this.command = -1;
    this.hover = null; // plug under the pointer: {node (id), row, side}
    this.connect = null; // link being dragged
    this.boxSelect = null;
    this.problemNodes = new Set();
    // What the document says that leads nowhere (model.danglingWarnings): listed with the
    // problems as warnings, kept up to date with every edit, never blocking a save.
    this.warnings = [];
    this.search = { query: "", hits: [], index: -1, hitSet: null, current: -1, text: null };
    this.showMinimap = true;
    this.clipboard = null;
    this.listeners = new Map();
    this.loads = 0;
    this.timings = {};
    this.autosavedEdits = -1; // the undo steps the last stored autosave holds, for tests that reload
    this.lastShare = "";
    this.statusText = "";
    // Each collaborator sees only the members of the editor it declares (context.js).
    const ctx = (m) => narrow(this, m.EDITOR_NEEDS);
    this.edits = new edits.Edits(ctx(edits));
    this.ready = new Promise((resolve) => (this.resolveReady = resolve));
    this.ui = new panels.Panels(ctx(panels), root, { inspector: (el) => new inspector.Inspector(ctx(inspector), el) });
    this.renderer = new render.Renderer(ctx(render), this.ui.canvas);
    this.input = new input.Input(ctx(input), this.ui.canvas);
    installFieldTracking();
    this.shapeUI = new shape.ShapeUI(ctx(shape));
    this.folder = new folder.Folder(ctx(folder));
    this.packs = new packs.Packs(ctx(packs));
    this.compare = new compareview.CompareView(ctx(compareview));
    this.trees = new treefiles.TreeFiles(ctx(treefiles));
    this.catalogue = new cataloguestore.CatalogueStore(ctx(cataloguestore));
    this.catalogue.installInputs(root);
    this.picker = new picker.Picker(ctx(picker), this.ui.canvas);
    this.menu = new contextmenu.ContextMenu(ctx(contextmenu), this.ui.canvas);
    this.paletteContext = ctx(palette);
    this.exprContext = ctx(exprcode);
    this.pictureContext = ctx(picture);
    this.frameQueued = false;
    this.afterLoad = [];
    new ResizeObserver(() => this.requestRender()).observe(this.ui.canvas);
    window.addEventListener("beforeunload", (e) => {
      if (this.workspace.dirty()) {
        e.preventDefault();
        e.returnValue = "";
      }
    });
    window.addEventListener("hashchange", () => this.applyFragment());
    this.requestRender();
  }

  // What the shown session holds, for the modules that edit and draw it.
  get doc() {
    return this.session ? this.session.doc : null;
  }

  get name() {
    return this.session ? this.session.name : "";
  }

  get history() {
    return this.session ? this.session.history : this.noHistory;
  }

  // SHA-256 of the file as opened or last saved (see shape.js).
  get fileHash() {
    return this.session ? this.session.hash : "";
  }

  // The dictionary id of a .zs file as opened, null for a plain one.
  get zstdDict() {
    return this.session ? this.session.zstd : null;
  }

  get problems() {
    return this.session ? this.session.problems : [];
  }

  // Names the document for the clipboard: a paste is local only into the same one.
  get docKey() {
    return this.session ? this.session.docKey : "";
  }

  on(event, fn) {
    if (!this.listeners.has(event)) this.listeners.set(event, []);
    this.listeners.get(event).push(fn);
  }

  emit(event, ...args) {
    for (const fn of this.listeners.get(event) || []) fn(...args);
  }

  // The add-node palette (palette.js). opts: at, link.
  openPalette(opts = {}) {
    return palette.openPalette(this.paletteContext, opts);
  }

  // Expression function k as a code field (exprcode.js), with the form chosen for it in
  // this editor whichever panel shows it.
  expressionView(k, key, problem = null) {
    return exprcode.functionView(this.exprContext, k, key, problem);
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
        this.timings.firstDraw = this.renderer.lastFrameMs;
        this.pendingLoad = false;
        this.loads++;
        this.resolveReady(true);
        this.emit("drawn");
        // Work that can wait (storing the document) runs after the first frame is shown.
        const later = this.afterLoad.splice(0);
        if (later.length) setTimeout(() => later.forEach((fn) => fn()), 0);
      }
      this.emit("frame");
    });
  }

  // Sets the status bar. Work under way ("Opening…") stays until replaced; a report of
  // something done clears after STATUS_TTL or at the next edit, when it no longer holds.
  status(text, kind = "") {
    this.statusText = text;
    this.statusAt = this.history.done.length + ":" + this.history.undone.length;
    clearTimeout(this.statusTimer);
    if (text && !text.endsWith("…")) this.statusTimer = setTimeout(() => this.status(""), STATUS_TTL);
    this.emit("status", text, kind);
  }

  // ---- documents

  // Opens an AINB file (or a pack, or a BYML or AAMP file, by name or bytes). opts.group and
  // opts.path: the file is one of the open folder's (session.js); opts.push: the file shown
  // stays on the module trail, so it is not given up.
  async openFile(file, opts = {}) {
    // An archive of the game's opens as a pack: its AINB files become a folder. BYML and
    // AAMP files open in the tree view (treefiles.js), by name or else by their bytes.
    if (PACK_NAME.test(file.name)) return this.packs.open(file);
    if (TREE_NAME.test(file.name)) return this.trees.openFile(file);
    if (!/\.ainb(\.zs)?$/i.test(file.name) && file.size >= 4) {
      const kind = sniff(new Uint8Array(await file.slice(0, 8).arrayBuffer()));
      if (kind === "sarc") return this.packs.open(file);
      if (kind === "byml" || kind === "aamp") return this.trees.openFile(file);
    }
    this.timings.openStart = performance.now();
    if (file.size === 0) {
      this.ui.toast(`Could not open ${file.name}: the file is empty (0 bytes).`, "error");
      return false;
    }
    const max = Number(this.root.dataset.maxUpload || 0);
    if (max > 0 && file.size > max) {
      this.ui.toast(`${file.name} is ${(file.size / 1e6).toFixed(1)} MB; the server takes at most ${(max / 1e6).toFixed(1)} MB.`, "error");
      return false;
    }
    const group = opts.group || LOOSE, path = opts.path || file.name;
    this.status(`Opening ${file.name}…`);
    let doc, zstd, hash, kept;
    try {
      const bytes = await file.arrayBuffer();
      hash = await shape.sha256(bytes);
      // The very file an unsaved session came from: its edits were made on these bytes, so
      // the session stands for the file, and the user is told the edits are there.
      const same = this.workspace.reusable(group, path, hash);
      if (same) return this.enter(same, { push: opts.push, reused: true });
      // A TotK .zs needs one of the game's dictionaries: the ZsDic.pack.zs kept for packs
      // goes with it, so the server need not have them.
      const zsdic = isZstd(bytes) ? await this.packs.zsdic() : null;
      [{ doc, zstd }, kept] = await Promise.all([api.parseUpload(file.name, bytes, zsdic), shape.recall(hash)]);
    } catch (err) {
      this.status("");
      const d = err.detail || {};
      if (Number.isInteger(d.dictionary) || d.missing === "ZsDic.pack.zs") return this.packs.needZsDic(file);
      this.ui.toast(`Could not open ${file.name}: ${err.message}`, "error");
      return false;
    }
    this.timings.parsed = performance.now() - this.timings.openStart;
    const restored = !!kept && shape.applyTo(doc, kept.nodes);
    const s = new Session({ kind: "ainb", group, path, name: file.name, doc, hash, zstd });
    if (!this.enter(s, { push: opts.push })) return false;
    this.afterLoad.push(() => store.remember(file.name, doc, { zstd, hash }));
    this.status(`Opened ${file.name}: ${count(doc.nodes.length, "node")}` + (restored ? ", arranged as when it was saved" : ""));
    return true;
  }

  // Shows a session in place of the file shown. Only now, the file read, are unsaved edits
  // it would discard asked about: a loose file gives way to any other file (a file opened
  // on its own is kept while it shows), unless it stays on the module trail (push). The
  // files of the folder or pack stay in the workspace with their edits.
  enter(s, { push = false, reused = false, view = null } = {}) {
    const ws = this.workspace;
    if (!push && !ws.release((x) => x.group === LOOSE && x !== s)) {
      this.status("");
      return false;
    }
    if (!this.show(s, { view })) return false;
    if (reused) {
      this.status(`${s.name} is open already, with unsaved edits`);
      this.ui.toast(`${s.name} is the file already open: its unsaved edits are kept. Save writes them.`);
    }
    return true;
  }

  async reopen(entry) {
    const stored = await store.getDoc(entry.key);
    const doc = stored && typeof stored.text === "string" ? parseDoc(stored.text) : null;
    if (!doc || doc.format !== FORMAT) {
      this.ui.toast(`${entry.name} is no longer stored; open the file again.`, "error");
      return;
    }
    this.timings.openStart = performance.now();
    this.load(doc, { name: entry.name, zstd: stored.zstd, hash: stored.hash });
  }

  // Shows a document as a file of its own (a share, an autosave, a recent file), in place of
  // the loose file open (asking first when it has unsaved edits). opts: name, view
  // ({command, x, y, zoom, selection}), dirty, hash, zstd. Returns false for something that
  // is not a document of this editor's format (an autosave of an older editor, say).
  load(doc, opts = {}) {
    if (!this.isDocument(doc)) return false;
    const name = opts.name || doc.name || "untitled.ainb";
    const s = new Session({ kind: "ainb", path: name, doc, hash: opts.hash, zstd: opts.zstd, dirty: !!opts.dirty });
    return this.enter(s, { view: opts.view });
  }

  isDocument(doc) {
    if (doc && doc.format === FORMAT && Array.isArray(doc.nodes)) return true;
    this.ui.toast(`Not an editor document of format ${FORMAT}${doc && doc.format ? ` (it is ${doc.format})` : ""}; open the file again.`, "error");
    return false;
  }

  // Puts a session on the canvas, as the user left it (its view, selection and problems),
  // or fitted when it is new. opts.view: the view to show instead. The session left keeps
  // its view.
  show(s, opts = {}) {
    if (!this.isDocument(s.doc)) return false;
    this.trees.leave();
    this.workspace.activate(s);
    if (s === this.session && !opts.view) {
      this.emit("dirty");
      return true;
    }
    const t0 = performance.now();
    if (this.session && this.session !== s) this.session.view = this.viewState();
    const doc = s.doc;
    const outside = clampPositions(doc);
    this.session = s;
    s.onChange = (cmd, how) => {
      if (this.session === s) this.changed(cmd, how);
    };
    if (!s.docKey) s.docKey = randomKey();
    this.selection.clear();
    this.problemNodes.clear();
    this.search = { query: "", hits: [], index: -1, hitSet: null, current: -1, text: null };
    this.rebuild();
    // Problems belong to the file they were found in: the panel shows this one's.
    this.setProblems(s.problems);
    this.renderer.resize();
    const v = opts.view || s.view;
    if (v && Number.isFinite(v.zoom)) {
      this.command = Number.isInteger(v.command) ? v.command : -1;
      this.view.set(v);
      for (const id of v.selection || []) if (this.index.has(id)) this.selection.add(id);
    } else if ((doc.commands || []).length) {
      this.focusCommand(0, { select: false });
    } else {
      this.command = -1;
      this.fitAll();
    }
    this.pendingLoad = true;
    this.afterLoad.push(() => this.scheduleAutosave(0));
    this.timings.load = performance.now() - t0;
    if (outside) this.ui.toast(`${outside} node${outside > 1 ? "s were" : " was"} placed beyond ±1e9 and moved to the edge; save to keep the new places.`, "error");
    this.emit("document");
    this.emit("selection");
    this.emit("dirty");
    this.viewChanged();
    this.requestRender();
    return true;
  }

  // A session left the workspace (its folder or pack closed, another loose file opened): if
  // it was on show, it is shown no more.
  dropped(s) {
    if (s === this.trees.active) this.trees.leave();
    this.folder.forget(s);
    if (s === this.session) this.close();
  }

  // Shows no document: the file shown was closed with the pack or folder it came from
  // (whose edits the user chose to discard). The stored autosave goes too, so a reload does
  // not bring the file back as if it were still open.
  close() {
    if (!this.session) return;
    this.session = null;
    this.selection.clear();
    this.index = new Map();
    this.grid.build([]);
    this.edges = null;
    this.warnings = [];
    this.search = { query: "", hits: [], index: -1, hitSet: null, current: -1, text: null };
    clearTimeout(this.autosaveTimer);
    store.deleteDoc(store.DOC.current).catch(() => {});
    this.setProblems([]);
    this.renderer.invalidate();
    this.emit("document");
    this.emit("selection");
    this.emit("dirty");
    this.requestRender();
  }

  rebuild() {
    this.index = indexById(this.doc);
    this.grid.build(this.doc.nodes);
    this.edges = computeEdges(this.doc, this.index);
    this.updateWarnings();
    this.renderer.invalidate();
    this.search.text = null;
  }

  // Recomputes the warnings and tells the panel when they changed.
  updateWarnings() {
    const w = danglingWarnings(this.doc);
    const key = (ws) => ws.map((x) => x.path + "\n" + x.message).join("\n");
    if (key(w) === key(this.warnings)) return;
    this.warnings = w;
    this.emit("problems");
  }

  // The index of a node in doc.nodes, or -1.
  indexOf(id) {
    const i = this.index.get(id);
    return i === undefined ? -1 : i;
  }

  nodeById(id) {
    const i = this.index.get(id);
    return i === undefined ? null : this.doc.nodes[i];
  }

  // After any edit, undo or redo.
  changed(cmd) {
    if (cmd.structure || cmd.geometry) this.index = indexById(this.doc);
    if (cmd.geometry || cmd.structure) this.grid.build(this.doc.nodes);
    if (cmd.structure || cmd.geometry) this.edges = computeEdges(this.doc, this.index);
    if (cmd.structure) this.updateWarnings();
    this.renderer.invalidate();
    this.search.text = null;
    for (const id of [...this.selection]) if (!this.index.has(id)) this.selection.delete(id);
    if (this.search.query) this.runSearch(this.search.query, { keep: true });
    // A report of an earlier action no longer holds once the document changed after it.
    if (this.statusText && this.statusAt !== this.history.done.length + ":" + this.history.undone.length) this.status("");
    this.emit("change", cmd);
    this.emit("dirty");
    this.scheduleAutosave();
    this.requestRender();
  }

  // While a BYML or AAMP file shows, undo, redo and save are its own.
  undo() {
    if (this.trees.active) return this.trees.undo();
    const cmd = this.history.undo();
    if (cmd) this.status(`Undid: ${cmd.label}`);
  }

  redo() {
    if (this.trees.active) return this.trees.redo();
    const cmd = this.history.redo();
    if (cmd) this.status(`Redid: ${cmd.label}`);
  }

  dirty() {
    return !!this.doc && this.history.dirty();
  }

  // Keeps the open document in IndexedDB so a reload comes back to it, edits included.
  scheduleAutosave(delay = AUTOSAVE_DELAY) {
    clearTimeout(this.autosaveTimer);
    // An embed shows someone else's share: it must not replace the visitor's own work.
    if (isReadOnly()) return;
    this.autosaveTimer = setTimeout(() => {
      if (!this.doc) return;
      const t0 = performance.now();
      // Stored as JSON text: the document is plain JSON, and a string is what IndexedDB
      // stores fastest.
      const edits = this.history.done.length;
      store.putDoc(store.DOC.current, { text: JSON.stringify(this.doc), name: this.name, dirty: this.history.dirty(), zstd: this.zstdDict, hash: this.fileHash })
        .then(() => { this.autosavedEdits = edits; }, () => {});
      this.timings.autosave = performance.now() - t0;
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

  // The selected node ids, in ascending order.
  selectionList() {
    return [...this.selection].sort((a, b) => a - b);
  }

  writeFragment() {
    if (!this.doc) return;
    const v = this.view;
    const parts = [`cmd=${this.command}`, `x=${v.x}`, `y=${v.y}`, `z=${v.zoom}`];
    if (this.selection.size) parts.push(`sel=${this.selectionList().join(",")}`);
    // A diff opened by link (or shared) stays in the fragment, so a reload compares again.
    if (this.compare.shareId) parts.push(`compare=${encodeURIComponent(this.compare.shareId)}`);
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

  // A link to a place: #node=ID selects and centres that node, #command=NAME that command's
  // root. Null for any other fragment.
  static parsePlace(hash) {
    const p = new URLSearchParams((hash || "").replace(/^#/, ""));
    if (p.has("node")) {
      const id = Number(p.get("node"));
      return { node: Number.isInteger(id) ? id : NaN, text: p.get("node") };
    }
    if (p.has("command")) return { command: p.get("command") };
    return null;
  }

  // Goes to a place (parsePlace); says in the status bar when the file has no such place.
  goToPlace(place) {
    if (!this.doc || !place) return false;
    if ("command" in place) {
      const k = (this.doc.commands || []).findIndex((c) => c.name === place.command);
      if (k < 0) {
        this.status(`This file has no command named “${place.command}”`, "error");
        return false;
      }
      // The command's root is centred at a readable zoom, as a link to that node would.
      this.command = k;
      this.emit("command");
      const root = this.doc.commands[k].root;
      if (this.nodeById(root)) this.focusNode(root);
      else this.focusCommand(k);
      this.status(`Command ${place.command}`);
      return true;
    }
    const n = this.nodeById(place.node);
    if (!n) {
      this.status(`This file has no node ${place.text}`, "error");
      return false;
    }
    // The command whose tree holds the node becomes the one in view, as following a link does.
    const k = (this.doc.commands || []).findIndex((c) => reachable(this.doc, [c.root, c.secondary], this.index).has(n.id));
    if (k >= 0 && k !== this.command) {
      this.command = k;
      this.emit("command");
    }
    this.focusNode(n.id);
    this.status(`Node ${n.id}: ${n.name || n.type}`);
    return true;
  }

  // The link to a node of the shown document: on the share the page shows or that this file
  // was last shared as, with #node=ID; null when the document has changed since (or was
  // never shared), so the caller shares it first.
  nodeLink(id) {
    const base = this.shareBase();
    return base ? `${base}#node=${id}` : null;
  }

  shareBase() {
    const s = this.session;
    if (!s || !this.doc) return null;
    if (s.shared && s.shared.doc === this.doc && sameMark(s.shared.mark, this.historyMark())) return s.shared.link;
    return null;
  }

  // Where the history stands: equal marks mean the same document (an undo and a redo come
  // back to the mark; an undo and another edit do not).
  historyMark() {
    const done = this.history.done;
    return { n: done.length, top: done[done.length - 1] || null };
  }

  // Copies the link to a node, sharing the document first when it has no share that shows
  // it as it is now.
  async copyNodeLink(id) {
    let link = this.nodeLink(id);
    if (!link) {
      if (!(await this.share({ quiet: true }))) return null;
      link = this.nodeLink(id);
      if (!link) return null;
    }
    this.lastNodeLink = link;
    try {
      await navigator.clipboard.writeText(link);
      this.status(`Link to node ${id} copied`);
    } catch {
      this.ui.shareToast(link, false);
      this.status(`Link to node ${id} created`);
    }
    return link;
  }

  // Follows a fragment the user typed or pasted.
  applyFragment() {
    if (this.trees.active) return this.trees.followFragment(location.hash);
    if (!this.doc || location.hash === this.writingFragment) return;
    this.compare.openFragment(location.hash);
    const place = Editor.parsePlace(location.hash);
    if (place) {
      this.goToPlace(place);
      return;
    }
    const v = Editor.parseFragment(location.hash);
    if (!v) return;
    this.command = v.command;
    this.view.set(v);
    this.select(v.selection.filter((id) => this.index.has(id)));
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
  focusNode(id, opts = {}) {
    const n = this.doc && this.nodeById(id);
    if (!n) return;
    if (this.view.zoom < LOD_FULL) this.view.zoom = 1;
    this.view.centerOn(n.x + NODE_WIDTH / 2, n.y + Math.min(nodeHeight(n), this.view.height / this.view.zoom) / 2);
    if (opts.select !== false) this.select([id]);
    else this.viewChanged();
  }

  // The box around some nodes (ids), or null.
  boundsOf(ids) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const id of ids) {
      const n = this.nodeById(id);
      if (!n) continue;
      x0 = Math.min(x0, n.x); y0 = Math.min(y0, n.y);
      x1 = Math.max(x1, n.x + NODE_WIDTH); y1 = Math.max(y1, n.y + nodeHeight(n));
    }
    return x0 === Infinity ? null : [x0, y0, x1, y1];
  }

  focusCommand(k, opts = {}) {
    const c = (this.doc.commands || [])[k];
    if (!c) return;
    this.command = k;
    const b = this.boundsOf(reachable(this.doc, [c.root, c.secondary], this.index));
    if (b) this.view.fit(b[0], b[1], b[2], b[3], 60, 1);
    // A big tree is fitted from its root, so the root stays readable.
    const root = this.nodeById(c.root);
    if (this.view.zoom < LOD_FULL && root) {
      this.view.zoom = 0.8;
      this.view.x = root.x + this.view.width / 2 / this.view.zoom - 40;
      this.view.y = root.y + this.view.height / 2 / this.view.zoom - 40;
    }
    if (opts.select !== false && root) this.select([c.root]);
    else this.viewChanged();
    this.emit("command");
  }

  fitAll() {
    const [x0, y0, x1, y1] = this.grid.bounds;
    this.view.fit(x0, y0, x1, y1, 40, 1);
    this.viewChanged();
  }

  fitSelection() {
    const b = this.selection.size && this.boundsOf(this.selection);
    if (!b) return this.fitAll();
    this.view.fit(b[0], b[1], b[2], b[3], 60, 1);
    this.viewChanged();
  }

  // What is under a screen point: the minimap, a plug, a node (with its row) or nothing.
  // Only the document and the metrics decide (metrics.hitNode), never what was drawn.
  // Nodes are named by id; plugs carry the index of their input, output, child or jump.
  hitTest(sx, sy) {
    const mm = this.renderer.minimapRect;
    if (mm && sx >= mm.x - 4 && sx <= mm.x + mm.w + 4 && sy >= mm.y - 4 && sy <= mm.y + mm.h + 4) return { kind: "minimap" };
    if (!this.doc) return { kind: "empty" };
    const [wx, wy] = this.view.toWorld(sx, sy);
    const near = Math.max(7, 9 / this.view.zoom);
    const full = this.view.zoom >= LOD_FULL;
    let best = -1, part = null;
    // Later nodes draw on top, so the last one hit wins.
    this.grid.query(wx - near, wy, wx + near, wy, (i) => {
      if (i < best) return;
      const n = this.doc.nodes[i];
      const h = hitNode(n, wx, wy, full ? near : 0);
      if (!h) return;
      best = i;
      part = h;
    });
    if (best < 0) return { kind: "empty", wx, wy };
    const n = this.doc.nodes[best];
    const base = { kind: "node", node: n.id, wx, wy, row: -1 };
    if (part.part === "header" || !full) return base;
    if (part.part === "row") return { ...base, row: part.row, at: part.at };
    const at = part.at;
    const hit = { kind: "plug", side: part.side, node: n.id, row: part.row };
    switch (part.side) {
      case "in": return { ...hit, index: at.input, item: n.inputs[at.input], type: n.inputs[at.input].type };
      case "out": return { ...hit, index: at.output, item: n.outputs[at.output], type: n.outputs[at.output].type };
      case "child": return { ...hit, index: at.index, item: n.children[at.index] };
      case "jump": return { ...hit, index: at.index, item: n.jumps[at.index] };
      // The header's new-child handle: the child it makes would be the next one.
      case "branch": return { ...hit, index: (n.children || []).length, item: null };
    }
    return base;
  }

  // Screen point of a node part, for tests and tooltips: side "in"/"out" at a row, or the
  // header's centre when row < 0 (its new-child handle with side "branch").
  screenOf(id, row = -1, side = "") {
    const n = this.nodeById(id);
    if (!n) return null;
    let wx = n.x + NODE_WIDTH / 2;
    const wy = rowY(n, row);
    if (row >= 0) wx = side === "in" ? n.x : side === "out" ? n.x + NODE_WIDTH : n.x + NODE_WIDTH / 2;
    else if (side === "branch") wx = n.x + NODE_WIDTH; // the new-child handle
    const [sx, sy] = this.view.toScreen(wx, wy);
    const r = this.ui.canvas.getBoundingClientRect();
    return { x: sx + r.left, y: sy + r.top };
  }

  // Follows a link from a plug: an input to its source, a child or jump to its target.
  follow(hit) {
    if (hit.side === "in") {
      const it = hit.item;
      const s = it.sources ? it.sources.find((x) => sourceKind(x) === "node") : it.source;
      if (sourceKind(s) === "node") return this.focusNode(s.node);
      this.select([hit.node]);
      this.ui.inspector.reveal(`inputs.${hit.index}`);
      return;
    }
    if ((hit.side === "child" || hit.side === "jump") && this.nodeById(hit.item.node)) return this.focusNode(hit.item.node);
    if (hit.side === "out") {
      // The first input reading this output.
      const E = this.edges, from = this.indexOf(hit.node);
      for (let k = 0; k < E.count; k++) {
        if (E.from[k] === from && E.fromRow[k] === hit.row && E.kind[k] === 0) return this.focusNode(this.doc.nodes[E.to[k]].id);
      }
    }
  }

  // ---- search

  // What search looks in for the node at index i, lower case.
  searchText(i) {
    if (!this.search.text) this.search.text = new Array(this.doc.nodes.length);
    let t = this.search.text[i];
    if (t !== undefined) return t;
    const doc = this.doc, n = doc.nodes[i];
    const parts = [nodeClass(n), n.type, n.name, "#" + n.id];
    for (const group of ["properties", "inputs", "outputs"]) {
      for (const it of n[group] || []) {
        parts.push(it.name);
        if (it.className) parts.push(it.className);
        if (group === "outputs") continue;
        if (sourceKind(it.source) === "blackboard") parts.push(blackboardLabel(doc, it.source));
        parts.push(formatValue(it.type, it.value, it.className));
      }
    }
    for (const c of n.children || []) parts.push(c.name, conditionText(doc, n, c, false) || "");
    for (const j of n.jumps || []) if (j.command) parts.push(j.command);
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
      const n = this.doc.nodes.length;
      for (let i = 0; i < n; i++) if (this.searchText(i).includes(q)) s.hits.push(this.doc.nodes[i].id);
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
    if (this.trees.active) return this.trees.save();
    if (!this.doc) return false;
    // A file of the open pack saves the pack: that is the file the user opened.
    if (this.packs.holdsOpenFile()) return this.packs.save();
    // The session shown when Save was pressed is the one saved, whatever shows when the
    // answer comes.
    const s = this.session;
    this.status("Building…");
    let ids = null;
    try {
      // The document is plain JSON (-0, NaN and infinities are strings of their bits), so
      // the native writer serves; only the document is sent.
      const t0 = performance.now();
      const text = JSON.stringify(s.doc);
      this.timings.serialize = performance.now() - t0;
      ids = s.doc.nodes.map((n) => n.id);
      const zstd = s.zstd;
      const zsdic = zstd ? await this.packs.zsdic() : null;
      const { blob } = await api.build(text, { zstd, zsdic });
      // The name the file was opened with, whatever the server would call it.
      const name = this.downloadName(s);
      this.download(blob, name);
      // Opening the saved file again finds this arrangement by the file's hash.
      s.saved(await shape.sha256(await blob.arrayBuffer()));
      if (s === this.session) this.setProblems([]);
      this.emit("dirty");
      this.scheduleAutosave(0);
      await shape.remember(s.hash, name, s.doc);
      this.status(`Saved ${name} (${blob.size} bytes${zstd === null ? "" : zstd ? `, zstd with dictionary ${zstd}` : ", zstd"})`);
      return true;
    } catch (err) {
      this.status("Save failed", "error");
      if (s === this.session) this.showApiProblems(err, ids);
      this.ui.toast(`The file cannot be built: ${err.message}`, "error");
      return false;
    }
  }

  // Lists what the server found wrong with the document in the problems panel. ids are the
  // node ids of the document as it was sent: a problem names its node by index in that
  // document's nodes, and an expression by its path (expressions.functions[k].text), line and column.
  showApiProblems(err, ids) {
    const d = err.detail || {};
    const nodeId = (k) => (Number.isInteger(k) && k >= 0 ? (ids && k < ids.length ? ids[k] : k) : -1);
    const problem = (p) => {
      const out = { node: nodeId(p.node), path: p.path || "", message: p.message || "" };
      const m = /^expressions\.functions\[(\d+)\]/.exec(out.path);
      if (m) {
        out.expression = Number(m[1]);
        if (p.line) out.line = p.line;
        if (p.line && p.column) out.column = p.column;
        out.path = `expression ${out.expression}` + (p.line ? `, line ${p.line}` + (p.column ? `:${p.column}` : "") : "");
      }
      return out;
    };
    // detail.expression (or detail.function) with line: one expression that does not assemble.
    const expr = Number.isInteger(d.expression) ? d.expression : d.function;
    if (Array.isArray(d.problems)) this.setProblems(d.problems.map(problem));
    else if (Number.isInteger(expr)) this.setProblems([problem({ path: `expressions.functions[${expr}].text`, line: d.line, column: d.column, message: d.message || err.message })]);
    else this.setProblems([{ node: -1, path: "", message: err.message }]);
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
        positions = await api.layout(doc, { reset, aspect: this.view.width / this.view.height });
      } catch (err) {
        this.status("Tidy failed", "error");
        this.showApiProblems(err, doc.nodes.map((n) => n.id));
        this.ui.toast(`Could not tidy: ${err.message}`, "error");
        return false;
      }
      if (this.doc !== doc || this.history.done.length !== depth || this.history.done.at(-1) !== last) {
        this.status("");
        this.ui.toast("The document changed while tidying; nothing was moved. Tidy again.", "error");
        return false;
      }
      if (positions.length !== doc.nodes.length) {
        this.status("Tidy failed", "error");
        this.ui.toast(`Could not tidy: the layout has ${positions.length} positions for ${count(doc.nodes.length, "node")}`, "error");
        return false;
      }
      // Keep the viewport where the user is looking: the selected node (the lowest id), or
      // else the node nearest the view centre, stays at the same screen position. Fitting
      // everything instead would throw away the zoom and place the user chose, and on a big
      // file would zoom out so far nothing is readable; anchoring one node keeps what the
      // user was working on under their eyes.
      const a = this.nodeById(this.selection.size ? this.selectionList()[0] : this.nearestToCentre());
      const [ax, ay] = a ? [a.x, a.y] : [0, 0];
      const changed = this.edits.applyLayout(positions, reset ? "Tidy all" : "Tidy");
      if (a && (a.x !== ax || a.y !== ay)) {
        this.view.x += a.x - ax;
        this.view.y += a.y - ay;
        this.viewChanged();
      }
      const pinned = doc.nodes.filter((n) => n.pinned).length;
      this.status(!changed ? "Already tidy" : reset ? "Tidied every node" : `Tidied; ${pinned} pinned node${pinned === 1 ? "" : "s"} kept in place`);
      return changed;
    } finally {
      this.tidying = false;
      this.emit("tidy", false);
    }
  }

  // The id of the node whose box centre is nearest the centre of the view, or -1.
  nearestToCentre() {
    const cx = this.view.x, cy = this.view.y;
    let best = -1, bestD = Infinity;
    for (const n of this.doc.nodes) {
      const d = Math.hypot(n.x + NODE_WIDTH / 2 - cx, n.y + nodeHeight(n) / 2 - cy);
      if (d < bestD) {
        best = n.id;
        bestD = d;
      }
    }
    return best;
  }

  // Problems name nodes by id (node, or -1 for none).
  setProblems(problems) {
    if (this.session) this.session.problems = problems;
    this.problemNodes = new Set(problems.map((p) => p.node).filter((n) => n >= 0));
    this.emit("problems");
    this.requestRender();
  }

  // The file's own name; a file opened compressed saves compressed, as .zs.
  downloadName(s = this.session) {
    const n = s.name.replace(/\.zs$/i, "");
    const plain = /\.ainb$/i.test(n) ? n : n + ".ainb";
    return s.zstd === null ? plain : plain + ".zs";
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

  // Shares the document and view; quiet: the caller copies a link of its own (a node's), so
  // the share link is neither copied nor shown.
  async share({ quiet = false } = {}) {
    const tree = this.trees.active;
    if (!this.doc && !tree) return null;
    this.status("Sharing…");
    try {
      // A tree shares its JSON form; a file of a pack says which pack it is in.
      const [doc, view] = tree ? this.trees.shareOf(tree) : [this.doc, { ...this.viewState(), ...this.packs.shareView() }];
      const mark = this.historyMark();
      const res = await api.createShare(doc, view, tree ? "tree" : "ainb");
      const link = new URL(res.url, location.href).href;
      this.lastShare = link;
      this.lastEmbed = typeof res.embed === "string" ? res.embed : "";
      // Links to its nodes use this share while the document stays as it was shared.
      if (!tree && this.session) this.session.shared = { link, doc, mark };
      if (quiet) return link;
      const copied = await this.ui.offerLink(link, this.lastEmbed);
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
        const pack = s.view && s.view.pack;
        const from = pack && typeof pack.name === "string" && typeof pack.member === "string" ? ` (${pack.member} in ${pack.name})` : "";
        this.timings.openStart = performance.now();
        // Shares stored before kinds are told by their document's format.
        if (s.kind ? s.kind === "tree" : s.document && s.document.format === TREE_FORMAT) {
          if (this.trees.openShared(s.document, s.view)) {
            this.status(`Opened share ${id}` + from);
            this.trees.followFragment(location.hash);
          }
        } else if (this.load(s.document, { name: s.document.name, view })) {
          this.status(`Opened share ${id}` + from);
          // The share is the document as it is: links to its nodes need no new share.
          if (this.session) this.session.shared = { link: new URL(`/s/${encodeURIComponent(id)}`, location.href).href, doc: this.doc, mark: this.historyMark() };
          this.afterStart();
        }
      } catch (err) {
        this.ui.toast(`Could not open share ${id}: ${err.message}`, "error");
      }
      return;
    }
    const cur = await store.getDoc(store.DOC.current);
    const doc = cur && typeof cur.text === "string" ? parseDoc(cur.text) : null;
    // An autosave of an older editor (cur.doc) is not restored.
    if (doc && doc.format === FORMAT && !this.doc) {
      this.timings.openStart = performance.now();
      if (this.load(doc, { name: cur.name, view: frag, dirty: cur.dirty, zstd: cur.zstd, hash: cur.hash })) {
        this.status(`Restored ${cur.name}` + (cur.dirty ? " with unsaved edits" : ""));
        this.afterStart();
      }
    }
  }

  // A link to a place (#node=, #command=) is followed once the page's document shows; the
  // canvas must have its size first, so the place lands in the centre.
  afterStart() {
    this.compare.openFragment(location.hash);
    const place = Editor.parsePlace(location.hash);
    if (!place) return;
    requestAnimationFrame(() => {
      this.renderer.resize();
      this.goToPlace(place);
    });
  }

  // Removes what a picture must not show (hover, a link being dragged, the selection, search
  // hits) and returns what puts it back.
  pictureless() {
    const kept = { hover: this.hover, connect: this.connect, selection: this.selection, search: this.search };
    this.hover = null;
    this.connect = null;
    this.selection = new Set();
    this.search = { ...this.search, hitSet: null, current: -1 };
    return () => Object.assign(this, kept);
  }

  // Saves the view or the whole graph as a PNG or SVG file.
  async exportImage({ whole = false, format = "png" } = {}) {
    if (!this.doc) return null;
    this.status("Drawing the picture…");
    try {
      const t0 = performance.now();
      const blob = await picture.picture(this.pictureContext, { whole, format });
      this.timings.picture = performance.now() - t0;
      const base = this.downloadName().replace(/\.zs$/i, "").replace(/\.ainb$/i, "");
      const name = `${base}${whole ? "" : "-view"}.${format}`;
      this.download(blob, name);
      this.status(`Saved ${name}`);
      return blob;
    } catch (err) {
      this.status(`Could not draw the picture: ${err.message}`, "error");
      return null;
    } finally {
      this.renderer.dropScene();
      this.requestRender();
    }
  }

  // ---- clipboard

  // The clipboard lives in the browser's storage (store.js), so nodes copied in one tab
  // paste in another, even into another file. It carries what a paste into another
  // document needs (see Edits.copyNodes and Edits.paste). The copy in memory serves when
  // storage is full or disabled.
  copySelection() {
    if (!this.selection.size) return;
    const ids = this.selectionList();
    this.clipboard = this.edits.copyNodes(ids, this.docKey);
    // Too big for storage or storage disabled: pasting works in this tab only.
    store.setPref(store.PREF.clipboard, JSON.stringify(this.clipboard));
    this.status(`Copied ${count(ids.length, "node")}`);
  }

  // The last copy made in any tab.
  readClipboard() {
    // Unreadable, it falls back to this tab's own copy.
    const c = store.getPrefJSON(store.PREF.clipboard, null);
    if (c && c.format === CLIPBOARD_FORMAT && Array.isArray(c.nodes) && c.nodes.length) return c;
    return this.clipboard;
  }

  // Pastes at a world point (the view centre by default).
  paste(at) {
    const c = this.readClipboard();
    if (!c || !this.doc) return;
    const foreign = c.source !== this.docKey;
    const ids = this.edits.paste(c, at || [this.view.x, this.view.y], foreign);
    this.select(ids);
    this.status(`Pasted ${count(ids.length, "node")}` + (foreign ? "; links to nodes not copied were cut" : ""));
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

// Whether a file's bytes (an ArrayBuffer) start with the zstd magic.
function isZstd(buf) {
  const b = new Uint8Array(buf, 0, Math.min(4, buf.byteLength));
  return b.length === 4 && b[0] === 0x28 && b[1] === 0xb5 && b[2] === 0x2f && b[3] === 0xfd;
}

function parseDoc(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function randomKey() {
  const b = new Uint8Array(8);
  crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}
