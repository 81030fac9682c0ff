// BYML and AAMP files open in the tree view (tree.js) instead of the graph: loose files
// (.byml, .bgyml, .byml.zs, .bxml, .baiprog, .bphysics, ... or any file whose bytes say
// BYML or AAMP) and the members of an opened pack (packs.js). Each file is a session of the
// workspace (session.js) with its own document, undo history, expansions and selection,
// kept while the user moves between the pack's files; a loose file's session lasts until
// another file is opened.
//
// The server keeps nothing: a file is opened through /api/tree, and saved through
// /api/tree/build with the bytes it was opened from, so the built file keeps their layout
// and compression (see internal/server/tree.go). A loose file saves under its own name, in
// its own zstd dictionary or Yaz0; a pack member is saved with the pack (Save pack), or
// alone by Save.

import { Session, LOOSE, FOLDER } from "./session.js";
import { TreeEdits } from "./treeedits.js";
import { TreeView } from "./tree.js";
import { childCount, encodeShared, flatten, linkShared, resolvePath, rootOf } from "./treemodel.js";
import * as treeapi from "./treeapi.js";
import * as store from "./store.js";

// The editor members this module uses: its context (context.js).
export const EDITOR_NEEDS = ["doc", "download", "emit", "on", "packs", "root", "session", "status", "timings", "ui", "workspace"];

// Names the editor opens in the tree view: BYML (.byml, .bgyml, .sbyml, .mubin...) and the
// AAMP parameter archives of Breath of the Wild and Tears of the Kingdom, each maybe .zs.
export const TREE_NAME = new RegExp("\\.(byml|bgyml|sbyml|mubin|smubin|bxml|sbxml|baiprog|bphysics|bphyscharcon|bphyscontact|bphyslayer|" +
  "bphysmaterial|bas|baslist|bmodellist|bbonectrl|bdemo|batcl|batcllist|bawareness|bawntable|bchemical|bdmgparam|bdrop|bgparamlist|" +
  "bglght|bksky|blifecondition|blod|bmscdef|bmscinfo|brecipe|brgbw|brgcon|brgconfiglist|bshop|bsft|bsfbt|bumii|bxmlst|" +
  "bagl[a-z]+)(\\.zs)?$", "i");

// The format of a tree as /api/tree answers it, and as a share holds it.
export const TREE_FORMAT = "ainb-editor-tree/1";

// A tree as a share holds it: BYML's shared nodes are sent once.
export function shareDocument(kind, name, doc) {
  return { format: TREE_FORMAT, name, kind, document: kind === "byml" ? encodeShared(doc) : doc };
}

// The tree a share holds (shareDocument's), its BYML shared nodes linked again; throws on a
// share that holds no tree.
export function sharedDocument(shared) {
  if (!shared || shared.format !== TREE_FORMAT || (shared.kind !== "byml" && shared.kind !== "aamp")) throw new Error("the share holds no BYML or AAMP file");
  return shared.kind === "byml" ? linkShared(shared.document) : shared.document;
}

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
const sameBytes = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

export class TreeFiles {
  constructor(ed) {
    this.ed = ed;
    this.active = null; // the session shown, null while the graph shows
    this.view = new TreeView(ed, this);
    // An AINB document shown brings the graph back; the graph behind the tree closing (its
    // pack gone) leaves the tree where it is.
    ed.on("document", () => ed.doc && this.leave());
  }

  // ---- opening

  // Opens a loose file. Unsaved edits it would discard (the loose tree open before) are
  // asked about once it has opened; the same bytes as an edited loose file keep its session.
  async openFile(file) {
    const ed = this.ed, ws = ed.workspace;
    const t0 = performance.now();
    ed.status(`Opening ${file.name}…`);
    const bytes = new Uint8Array(await file.arrayBuffer());
    const same = ws.get(LOOSE, file.name);
    if (same && !same.graph && same.dirty() && same.original && sameBytes(same.original, bytes)) {
      this.show(same);
      ed.status(`${same.name} is open already, with unsaved edits`);
      ed.ui.toast(`${same.name} is the file already open: its unsaved edits are kept. Save writes them.`);
      return true;
    }
    let reply;
    try {
      reply = await treeapi.openTree(file.name, bytes, await store.getDoc(store.DOC.zsdic));
    } catch (err) {
      return this.failed(file, err);
    }
    // The graph of a loose AINB file stays behind the tree (an AINB file opened next gives
    // way to both).
    if (!ws.release((s) => s.group === LOOSE && !s.graph)) {
      ed.status("");
      return false;
    }
    this.show(this.session(LOOSE, file.name, reply, bytes), t0);
    return true;
  }

  // Opens a member of the open pack (its path in the pack).
  async openMember(path) {
    const ed = this.ed, pack = ed.packs.pack;
    const m = pack && pack.members.get(path);
    if (!m) return false;
    const kept = ed.workspace.get(FOLDER, path);
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
    this.show(this.session(FOLDER, path, reply, null), t0);
    return true;
  }

  failed(file, err) {
    const ed = this.ed;
    ed.status("");
    if (err.detail && err.detail.missing === "ZsDic.pack.zs" && file instanceof Blob) return ed.packs.needZsDic(file);
    ed.ui.toast(`Could not open ${file.name}: ${err.message}`, "error");
    return false;
  }

  // A new session of the workspace for a file as /api/tree answered it (original: a loose
  // file's bytes, which saving builds onto).
  session(group, path, reply, original) {
    const s = new Session({ kind: reply.kind, group, path, name: baseName(path), doc: reply.document, wrapping: reply.wrapping, original,
      warnings: Array.isArray(reply.warnings) ? reply.warnings : [] });
    // What the tree view shows of it.
    Object.assign(s, { expanded: new Set(), selected: null, scrollTop: 0, query: "", addType: "" });
    s.onChange = (cmd, how) => this.changed(s, cmd, how);
    s.edits = new TreeEdits(s);
    // A small top level opens at once.
    const root = rootOf(s.kind, s.doc);
    if (root && childCount(s.kind, root) <= 3) for (const c of s.kind === "byml" ? root.value.map((x) => (root.type === "array" ? x : x[1])) : [...root.objects, ...root.lists]) s.expanded.add(c);
    this.ed.workspace.add(s);
    return s;
  }

  // ---- showing

  show(s, t0) {
    const ed = this.ed;
    this.active = s;
    ed.workspace.activate(s);
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
    this.ed.workspace.active = this.ed.session;
    this.ed.root.classList.remove("tree-mode");
    this.view.hide();
    this.ed.ui.updateInfo();
    this.ed.emit("dirty");
  }

  // ---- edits

  changed(s, cmd) {
    if (s === this.active) this.view.changed(cmd);
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
    if (s.group === FOLDER && this.ed.packs.pack) view.pack = { name: this.ed.packs.pack.name, member: s.path };
    return [shareDocument(s.kind, s.name, s.doc), view];
  }

  // Shows a shared tree as a loose file of its own (Save writes it laid out anew), opened as
  // it was shared.
  openShared(shared, view) {
    if (!this.ed.workspace.release((s) => s.group === LOOSE)) return false;
    const { name, kind } = shared;
    let doc;
    try {
      doc = sharedDocument(shared);
    } catch (err) {
      this.ed.ui.toast(`Could not open the shared tree: ${err.message}`, "error");
      return false;
    }
    const s = this.session(LOOSE, String(name), { kind, document: doc, wrapping: null }, null);
    const t = view && typeof view.tree === "object" && view.tree ? view.tree : {};
    const last = (path) => {
      const chain = typeof path === "string" ? resolvePath(kind, doc, path) : null;
      return chain && chain.length ? chain[chain.length - 1] : null;
    };
    for (const path of Array.isArray(t.expanded) ? t.expanded.slice(0, MAX_SHARED_EXPANDED) : []) {
      const node = last(path);
      if (node) s.expanded.add(node);
    }
    this.show(s);
    const selected = last(t.selected);
    if (selected) this.view.select(selected, { reveal: true });
    return true;
  }

  // Follows a link's fragment on the tree shown: #compare=ID compares it with share ID.
  followFragment(hash) {
    return this.view.compare.openFragment(hash);
  }

  // ---- saving

  // The open file as built: the bytes it was opened from (a pack member's as last saved)
  // give it their layout and wrapping.
  async build(s) {
    const original = s.group === FOLDER ? this.ed.packs.pack.members.get(s.path).bytes : s.original;
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
    if (s.group === LOOSE) s.original = new Uint8Array(await built.blob.arrayBuffer());
    s.saved();
    ed.emit("dirty");
    const w = s.wrapping || {};
    const how = w.kind === "zstd" ? `, zstd${w.dictionary ? ` with dictionary ${w.dictionary}` : ""}` : w.kind === "yaz0" ? ", Yaz0" : "";
    ed.status(`Saved ${s.name} (${built.blob.size} bytes${how}${built.layout === "canonical" ? ", laid out anew" : ""})`);
    return true;
  }
}
