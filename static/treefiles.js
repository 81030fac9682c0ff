// BYML and AAMP files open in the tree view (tree.js) instead of the graph: loose files
// (.byml, .bgyml, .byml.zs, .bxml, .baiprog, .bphysics, ... or any file whose bytes say
// BYML or AAMP) and the members of an opened pack (packs.js). Each file is a session with its
// own document, undo history, expansions and selection, kept while the user moves between
// the pack's files; a loose file's session lasts until another file is opened.
//
// The server keeps nothing: a file is opened through /api/tree, and saved through
// /api/tree/build with the bytes it was opened from, so the built file keeps their layout
// and compression (see internal/server/tree.go). A loose file saves under its own name, in
// its own zstd dictionary or Yaz0; a pack member is saved with the pack (Save pack), or
// alone by Save.

import { History } from "./history.js";
import { TreeEdits } from "./treeedits.js";
import { TreeView } from "./tree.js";
import { childCount, encodeShared, flatten, linkShared, resolvePath, rootOf } from "./treemodel.js";
import * as treeapi from "./treeapi.js";
import * as store from "./store.js";

// Names the editor opens in the tree view: BYML (.byml, .bgyml, .sbyml, .mubin...) and the
// AAMP parameter archives of Breath of the Wild and Tears of the Kingdom, each maybe .zs.
export const TREE_NAME = new RegExp("\\.(byml|bgyml|sbyml|mubin|smubin|bxml|sbxml|baiprog|bphysics|bphyscharcon|bphyscontact|bphyslayer|" +
  "bphysmaterial|bas|baslist|bmodellist|bbonectrl|bdemo|batcl|batcllist|bawareness|bawntable|bchemical|bdmgparam|bdrop|bgparamlist|" +
  "bglght|bksky|blifecondition|blod|bmscdef|bmscinfo|brecipe|brgbw|brgcon|brgconfiglist|bshop|bsft|bsfbt|bumii|bxmlst|" +
  "bagl[a-z]+)(\\.zs)?$", "i");

// The format of a tree as /api/tree answers it, and as a share holds it.
export const TREE_FORMAT = "ainb-editor-tree/1";

// A shared view reopens at most this many expanded containers: a hostile share must not make
// the page resolve paths without end.
const MAX_SHARED_EXPANDED = 5000;

// What a file's first bytes say it is: "byml", "aamp", "sarc" or "".
export function sniff(b) {
  if (b.length < 4) return "";
  const tag = String.fromCharCode(b[0], b[1], b[2], b[3]);
  if (tag === "AAMP") return "aamp";
  if (tag === "SARC") return "sarc";
  const v = tag.startsWith("BY") ? (b[2] << 8) | b[3] : tag.startsWith("YB") ? b[2] | (b[3] << 8) : 0;
  return v >= 1 && v <= 10 ? "byml" : "";
}

const baseName = (path) => path.slice(path.lastIndexOf("/") + 1);

export class TreeFiles {
  constructor(ed) {
    this.ed = ed;
    this.sessions = new Map(); // key ("pack:PATH" or "file:NAME") -> session
    this.active = null; // the session shown, null while the graph shows
    this.loose = null; // the loose file's session
    this.view = new TreeView(ed, this);
    // An AINB document shown brings the graph back.
    ed.on("document", () => this.leave());
  }

  // ---- opening

  // Opens a loose file.
  async openFile(file) {
    const ed = this.ed;
    if (this.loose && this.loose.history.dirty() && !window.confirm(`Discard the unsaved edits of ${this.loose.name}?`)) return false;
    const t0 = performance.now();
    ed.status(`Opening ${file.name}…`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    let reply;
    try {
      reply = await treeapi.openTree(file.name, bytes, await store.getDoc(store.DOC.zsdic));
    } catch (err) {
      return this.failed(file, err);
    }
    if (this.loose) this.sessions.delete(this.loose.key);
    const s = this.session(`file:${file.name}`, file.name, null, reply, bytes);
    this.loose = s;
    this.show(s, t0);
    return true;
  }

  // Opens a member of the open pack (its path in the pack).
  async openMember(path) {
    const ed = this.ed, pack = ed.packs.pack;
    const m = pack && pack.members.get(path);
    if (!m) return false;
    const kept = this.sessions.get(`pack:${path}`);
    if (kept) {
      this.show(kept);
      ed.status(`Back in ${kept.name}`);
      return true;
    }
    const t0 = performance.now();
    ed.status(`Opening ${path}…`);
    let reply;
    try {
      reply = await treeapi.openTree(baseName(path), m.bytes, await store.getDoc(store.DOC.zsdic));
    } catch (err) {
      return this.failed({ name: path }, err);
    }
    if (ed.packs.pack !== pack) return false; // another pack opened meanwhile
    this.show(this.session(`pack:${path}`, baseName(path), path, reply, null), t0);
    return true;
  }

  failed(file, err) {
    const ed = this.ed;
    ed.status("");
    if (err.detail && err.detail.missing === "ZsDic.pack.zs" && file instanceof Blob) return ed.packs.needZsDic(file);
    ed.ui.toast(`Could not open ${file.name}: ${err.message}`, "error");
    return false;
  }

  session(key, name, path, reply, original) {
    const s = {
      key, name, path, kind: reply.kind, doc: reply.document, wrapping: reply.wrapping, original,
      warnings: Array.isArray(reply.warnings) ? reply.warnings : [],
      expanded: new Set(), selected: null, scrollTop: 0, query: "", addType: "",
    };
    s.history = new History((cmd, how) => this.changed(s, cmd, how));
    s.edits = new TreeEdits(s);
    // A small top level opens at once.
    const root = rootOf(s.kind, s.doc);
    if (root && childCount(s.kind, root) <= 3) for (const c of s.kind === "byml" ? root.value.map((x) => (root.type === "array" ? x : x[1])) : [...root.objects, ...root.lists]) s.expanded.add(c);
    this.sessions.set(key, s);
    return s;
  }

  // ---- showing

  show(s, t0) {
    const ed = this.ed;
    this.active = s;
    ed.root.classList.add("tree-mode");
    const t1 = performance.now();
    this.view.show(s);
    ed.emit("dirty");
    const top = childCount(s.kind, rootOf(s.kind, s.doc) || { value: [], type: "array" });
    const what = s.kind === "byml" ? `BYML version ${s.doc.version}` : `AAMP ${s.doc.type}`;
    const warned = s.warnings.length ? `; ${s.warnings.length} warning${s.warnings.length === 1 ? "" : "s"} (above the entries)` : "";
    ed.status(`Opened ${s.name}: ${what}, ${top} entr${top === 1 ? "y" : "ies"} at the top${warned}`);
    if (t0 !== undefined) {
      // The first frame with the rows drawn.
      requestAnimationFrame(() => setTimeout(() => {
        ed.timings.tree = { name: s.name, open: t1 - t0, firstRender: performance.now() - t0, rows: this.view.rows.length, domRows: this.view.rendered };
      }, 0));
    }
  }

  // Back to the graph (the sessions stay).
  leave() {
    if (!this.active) return;
    this.active = null;
    this.ed.root.classList.remove("tree-mode");
    this.view.hide();
    this.ed.ui.updateInfo();
    this.ed.emit("dirty");
  }

  // Another file opens outside the trees: the loose file's session goes (asking first when
  // it has unsaved edits). Returns false when the user keeps it.
  releaseLoose() {
    const s = this.loose;
    if (!s) return true;
    if (s.history.dirty() && !window.confirm(`Discard the unsaved edits of ${s.name}?`)) return false;
    this.sessions.delete(s.key);
    this.loose = null;
    if (this.active === s) this.leave();
    return true;
  }

  // ---- the pack's members

  packSessions() {
    return [...this.sessions.values()].filter((s) => s.path !== null);
  }

  // A new pack: the old one's members go.
  clearPack() {
    for (const s of this.packSessions()) {
      this.sessions.delete(s.key);
      if (this.active === s) this.leave();
    }
  }

  // ---- edits

  changed(s) {
    if (s === this.active) this.view.changed();
    this.ed.emit("dirty");
  }

  undo() {
    const cmd = this.active && this.active.history.undo();
    if (cmd) this.ed.status(`Undid: ${cmd.label}`);
  }

  redo() {
    const cmd = this.active && this.active.history.redo();
    if (cmd) this.ed.status(`Redid: ${cmd.label}`);
  }

  dirty() {
    return [...this.sessions.values()].some((s) => s.history.dirty());
  }

  // ---- shares

  // The shown tree as a share's document and view: its JSON form, the expanded containers and
  // the selected entry by path, and the pack it came from.
  shareOf(s) {
    const rows = flatten(s.kind, s.doc, s.expanded);
    const view = {
      tree: {
        expanded: rows.filter((r) => s.expanded.has(r.node)).slice(0, MAX_SHARED_EXPANDED).map((r) => r.path),
        selected: rows.find((r) => r.node === s.selected)?.path ?? "",
      },
    };
    if (s.path !== null && this.ed.packs.pack) view.pack = { name: this.ed.packs.pack.name, member: s.path };
    const doc = s.kind === "byml" ? encodeShared(s.doc) : s.doc; // shared nodes sent once
    return [{ format: TREE_FORMAT, name: s.name, kind: s.kind, document: doc }, view];
  }

  // Shows a shared tree as a loose file of its own (Save writes it laid out anew), opened as
  // it was shared.
  openShared(shared, view) {
    if (!this.releaseLoose()) return false;
    const { name, kind } = shared;
    let doc = shared.document;
    if (kind === "byml") {
      try {
        doc = linkShared(doc);
      } catch (err) {
        this.ed.ui.toast(`Could not open the shared tree: ${err.message}`, "error");
        return false;
      }
    }
    const s = this.session(`share:${name}`, String(name), null, { kind, document: doc, wrapping: null }, null);
    const t = view && typeof view.tree === "object" && view.tree ? view.tree : {};
    const last = (path) => {
      const chain = typeof path === "string" ? resolvePath(kind, doc, path) : null;
      return chain && chain.length ? chain[chain.length - 1] : null;
    };
    for (const path of Array.isArray(t.expanded) ? t.expanded.slice(0, MAX_SHARED_EXPANDED) : []) {
      const node = last(path);
      if (node) s.expanded.add(node);
    }
    this.loose = s;
    this.show(s);
    const selected = last(t.selected);
    if (selected) this.view.select(selected, { reveal: true });
    return true;
  }

  // ---- saving

  // The open file as built: the bytes it was opened from (a pack member's as last saved)
  // give it their layout and wrapping.
  async build(s) {
    const original = s.path !== null ? this.ed.packs.pack.members.get(s.path).bytes : s.original;
    const zsdic = s.wrapping && s.wrapping.kind === "zstd" ? await store.getDoc(store.DOC.zsdic) : null;
    return treeapi.buildTree(s.kind, s.doc, { name: s.path ?? s.name, original, zsdic });
  }

  // Saves the file shown under its own name: a loose file compressed as it came, a pack
  // member as its plain file (Save pack writes the pack).
  async save() {
    const ed = this.ed, s = this.active;
    if (!s) return false;
    ed.status("Building…");
    let built;
    try {
      built = await this.build(s);
    } catch (err) {
      ed.status("Save failed", "error");
      ed.ui.toast(`${s.name} cannot be built: ${err.message}`, "error");
      return false;
    }
    ed.download(built.blob, s.name);
    if (s.path === null) s.original = new Uint8Array(await built.blob.arrayBuffer());
    s.history.markSaved();
    ed.emit("dirty");
    const w = s.wrapping || {};
    const how = w.kind === "zstd" ? `, zstd${w.dictionary ? ` with dictionary ${w.dictionary}` : ""}` : w.kind === "yaz0" ? ", Yaz0" : "";
    ed.status(`Saved ${s.name} (${built.blob.size} bytes${how}${built.layout === "canonical" ? ", laid out anew" : ""})`);
    return true;
  }
}
