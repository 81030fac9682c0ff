// A pack: one of the game's archives (a SARC, bare, Yaz0 or TotK zstd: .pack.zs, .sarc,
// .pack, .szs...). Its AINB files open as a folder (folder.js), so each keeps its working copy
// and undo history and modules open from it; its BYML and AAMP files open in the tree view
// (treefiles.js), each keeping its own. Save pack builds every file edited since the pack was
// opened and asks the server for the pack with exactly the members whose bytes changed
// replaced, in the pack's own compression and dictionary. The server keeps nothing: the pack
// as last saved goes with each request, and so does the game's ZsDic.pack.zs, which the user
// chooses once and the browser keeps (store.js).

import { h, clear } from "./dom.js";
import * as api from "./api.js";
import * as store from "./store.js";
import * as shape from "./shape.js";
import { FOLDER } from "./session.js";

// The editor members this module uses: its context (context.js).
export const EDITOR_NEEDS = ["doc", "download", "emit", "folder", "name", "on", "openFile", "scheduleAutosave", "session", "setProblems", "status", "timings", "trees", "ui", "workspace"];

// Names the editor opens as packs rather than as AINB files.
export const PACK_NAME = /\.(pack|sarc|szs|bfarc|blarc|sblarc|sbactorpack|sbeventpack)(\.zs)?$/i;

const base64Bytes = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const baseName = (path) => path.slice(path.lastIndexOf("/") + 1);
const sameBytes = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
const kib = (n) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`);

export class Packs {
  constructor(ed) {
    this.ed = ed;
    this.pack = null; // {name, bytes (the pack as last saved), wrapping, members: Map path -> {format, bytes}}
    this.waiting = null; // a pack that needs ZsDic.pack.zs before it opens
    this.input = h("input", { type: "file", hidden: true, id: "pack-input", accept: ".zs,.pack,.sarc,.szs,.bfarc,.blarc,.sblarc,.sbactorpack,.sbeventpack" });
    this.input.addEventListener("change", () => {
      const f = this.input.files[0];
      this.input.value = "";
      if (f) this.open(f);
    });
    this.zsdicInput = h("input", { type: "file", hidden: true, id: "zsdic-input", accept: ".zs" });
    this.zsdicInput.addEventListener("change", () => {
      const f = this.zsdicInput.files[0];
      this.zsdicInput.value = "";
      if (f) this.setZsDic(f);
    });
    ed.ui.root.append(this.input, this.zsdicInput);
    const grow = ed.ui.toolbar.querySelector(".grow");
    ed.ui.toolbar.insertBefore(h("button.tool", { title: "Open one of the game's packs (.pack.zs, .sarc, .pack, .szs): its AINB files open as a folder, Save pack writes it back",
      dataset: { action: "open-pack" }, onclick: () => this.input.click() }, "Open pack…"), grow);
    this.summary = h("p.hint", {}, "No pack open.");
    this.list = h("ul.list.pack-files", {});
    this.saveButton = h("button.small", { dataset: { action: "save-pack" }, disabled: true, onclick: () => this.save() }, "Save pack");
    this.dictButton = h("button.small", { dataset: { action: "choose-zsdic" }, title: "The game's Pack/ZsDic.pack.zs: TotK's compressed packs need its dictionaries",
      onclick: () => this.zsdicInput.click() }, "Choose ZsDic.pack.zs…");
    this.panel = h("section.pack", { "aria-label": "Pack" }, h("div.panel-title", {}, "Pack"), this.summary,
      h("div.search-row", {}, this.saveButton, this.dictButton), this.list);
    ed.ui.left.append(this.panel);
    ed.on("dirty", () => this.renderList());
    ed.on("document", () => this.renderList());
  }

  // A file (a pack, or a loose BYML or AAMP file) needs the game's dictionaries: only a click
  // may open a file chooser, so the panel's button asks for ZsDic.pack.zs, then the file opens.
  needZsDic(file) {
    this.waiting = file;
    this.summary.textContent = `${file.name} needs the game's dictionaries: choose ZsDic.pack.zs (in the game's Pack folder).`;
    this.dictButton.classList.add("attention");
    this.ed.ui.toast(`${file.name} is compressed with a dictionary of the game: choose the game's ZsDic.pack.zs (Pack panel) to open it.`, "error");
    return false;
  }

  // Opens a pack file (a File or Blob with a name).
  async open(file) {
    const ed = this.ed;
    ed.status(`Opening ${file.name}…`);
    const t0 = performance.now();
    const bytes = new Uint8Array(await file.arrayBuffer());
    let reply;
    try {
      reply = await api.openPack(file.name, bytes, await store.getDoc(store.DOC.zsdic));
    } catch (err) {
      ed.status("");
      if (err.detail && err.detail.missing === "ZsDic.pack.zs") return this.needZsDic(file);
      ed.ui.toast(`Could not open ${file.name}: ${err.message}`, "error");
      return false;
    }
    // Only now, the pack read, are edits that opening it would discard asked about: those of
    // the open pack's or folder's files. The same file as the open pack (its bytes as opened
    // or last saved) keeps them: it is the file they were made on, and the user is told.
    const ws = ed.workspace;
    const edited = ed.folder.edited();
    if (this.pack && edited.length && file.name === this.pack.name && sameBytes(bytes, this.pack.bytes) && edited.every((p) => this.pack.members.has(p))) {
      const n = `${edited.length} file${edited.length === 1 ? "" : "s"}`;
      ed.status(`${file.name} is open already, with unsaved edits in ${n}`);
      ed.ui.toast(`${file.name} is the pack already open: its unsaved edits (${edited.join(", ")}) are kept. Save pack writes them.`);
      this.renderList();
      return true;
    }
    if (!ws.release((s) => s.group === FOLDER)) {
      ed.status("");
      return false;
    }
    // Members' bytes are decoded once: saving compares built files with them.
    const members = new Map(reply.files.map((f) => [f.name, { format: f.format, size: f.size, bytes: base64Bytes(f.data) }]));
    // What the archive breaks of the format's rules (a modding tool's short file size, ...):
    // the game loads it; it is shown, and kept until the pack is saved with an edit.
    const warnings = reply.warnings || [];
    this.pack = { name: file.name, bytes, wrapping: reply.wrapping, members, warnings };
    this.waiting = null;
    this.dictButton.classList.remove("attention");
    const ainb = reply.files.filter((f) => f.format === "ainb");
    // The pack's AINB files become the folder (replacing any folder open before).
    // The file shown, if it was the old pack's or folder's, closes with it; a file opened on
    // its own stays, and stays its own (Save saves it, not the pack).
    ed.folder.setFiles(file.name, ainb.map((f) => ({ file: f.name, blob: new File([members.get(f.name).bytes], baseName(f.name)) })), { discard: true });
    const t1 = performance.now();
    this.renderList();
    const t2 = performance.now();
    // The first frame with the list drawn.
    requestAnimationFrame(() => setTimeout(() => (ed.timings.packList = { files: members.size, open: t1 - t0, render: t2 - t1, firstRender: performance.now() - t0 }), 0));
    // "2 AINB, 16 BYML": what the editor opens, by format; the rest as "other".
    const counts = new Map();
    for (const f of reply.files) {
      const k = ["ainb", "byml", "aamp"].includes(f.format) ? f.format.toUpperCase() : "other";
      counts.set(k, (counts.get(k) || 0) + 1);
    }
    const kinds = ["AINB", "BYML", "AAMP", "other"].filter((k) => counts.has(k)).map((k) => `${counts.get(k)} ${k}`).join(", ");
    // A graph still shown is a file opened on its own, and the status says so. A pack
    // without AINB files says that plainly: its BYML and AAMP files are in the list.
    const trees = reply.files.filter((f) => f.format === "byml" || f.format === "aamp").length;
    const none = ainb.length ? "" : trees ? "; no AINB file: its BYML and AAMP files open from the Pack panel" : "; no AINB, BYML or AAMP file the editor opens";
    const shown = ed.doc ? `; the graph still shows ${ed.name}, opened on its own` : "";
    ed.status(`Opened pack ${file.name}: ${reply.files.length} file${reply.files.length === 1 ? "" : "s"} (${kinds})` + none + shown);
    for (const w of warnings) ed.ui.toast(`${file.name}: ${w}`);
    return true;
  }

  async setZsDic(file) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    await store.putDoc(store.DOC.zsdic, bytes);
    this.ed.status(`Kept ${file.name} for compressed packs`);
    if (this.waiting) return this.ed.openFile(this.waiting);
    return true;
  }

  // The game's ZsDic.pack.zs as the user chose it (bytes), or undefined: loose .zs files
  // open and save with it too.
  zsdic() {
    return store.getDoc(store.DOC.zsdic);
  }

  // The pack's files go (its sessions were released first: see Folder.setFiles).
  close() {
    if (!this.pack) return;
    this.pack = null;
    this.renderList();
  }

  // Whether the open file is one of the open pack's (so Save saves the pack).
  holdsOpenFile() {
    const s = this.ed.session;
    return !!this.pack && !!s && s.group === FOLDER && this.pack.members.has(s.path);
  }

  // What a share of the open file says of the pack it is in.
  shareView() {
    return this.holdsOpenFile() ? { pack: { name: this.pack.name, member: this.ed.session.path } } : {};
  }

  // The sessions of the pack's files visited since it was opened: AINB graphs and BYML and
  // AAMP trees, each with its working copy.
  visited() {
    return this.pack ? this.ed.workspace.list((s) => s.group === FOLDER && this.pack.members.has(s.path)) : [];
  }

  // Builds each AINB file visited, then the pack with those whose bytes now differ from the
  // pack's replaced, and downloads it under the pack's own name. Comparing the built bytes
  // (an unedited file builds to its own bytes) finds every change, even one already saved
  // on its own as a loose file.
  async save() {
    const ed = this.ed;
    if (!this.pack) return false;
    const visited = this.visited();
    ed.status(`Building ${this.pack.name}…`);
    const changed = [], hashes = new Map();
    let blob, warnings;
    try {
      for (const s of visited) {
        // A tree never edited is its member's bytes; an edited one is built onto them.
        if (!s.graph && !s.history.done.length) continue;
        const built = s.graph ? await api.build(JSON.stringify(s.doc)) : await this.ed.trees.build(s);
        const bytes = new Uint8Array(await built.blob.arrayBuffer());
        // The arrangement is kept by the file's hash, as a loose save keeps it: opening the
        // saved pack's member finds it (moving nodes alone changes no byte).
        if (s.graph) {
          hashes.set(s, await shape.sha256(bytes));
          await shape.remember(hashes.get(s), baseName(s.path), s.doc);
        }
        if (!sameBytes(bytes, this.pack.members.get(s.path).bytes)) changed.push({ name: s.path, data: built.blob, bytes });
      }
      ({ blob, warnings } = await api.buildPack(this.pack.name, this.pack.bytes, await store.getDoc(store.DOC.zsdic), changed));
    } catch (err) {
      ed.status("Save failed", "error");
      ed.ui.toast(`The pack cannot be saved: ${err.message}`, "error");
      return false;
    }
    ed.download(blob, this.pack.name);
    this.pack.bytes = new Uint8Array(await blob.arrayBuffer());
    for (const c of changed) this.pack.members.get(c.name).bytes = c.bytes;
    for (const s of visited) s.saved(hashes.get(s));
    if (ed.session && visited.includes(ed.session)) ed.setProblems([]);
    // The autosave of the file shown says it is saved now, so a reload does not flag it.
    ed.scheduleAutosave(0);
    this.lastSaved = changed.map((c) => c.name);
    ed.emit("dirty");
    ed.status(`Saved ${this.pack.name} (${blob.size} bytes; ${changed.length} file${changed.length === 1 ? "" : "s"} changed)`);
    // Saved with an edit, the pack was corrected: the saved bytes are what is open now.
    for (const w of warnings) ed.ui.toast(`${this.pack.name}: ${w}`);
    if (changed.length) this.pack.warnings = [];
    this.renderList();
    return true;
  }

  renderList() {
    const c = clear(this.list);
    this.saveButton.disabled = !this.pack;
    if (!this.pack) {
      // A pack waiting for the game's dictionaries keeps saying so.
      if (!this.waiting) this.summary.textContent = "No pack open.";
      this.summary.title = "";
      return;
    }
    const edited = new Set(this.visited().filter((s) => s.dirty()).map((s) => s.path));
    // The file on show, if it is one of the pack's (not a file opened on its own, nor a
    // file of a folder opened since).
    const on = this.ed.workspace.active;
    const shown = on && on.group === FOLDER ? on.path : "";
    const w = this.pack.wrapping;
    const how = w.kind === "zstd" ? (w.dictionary ? `zstd, dictionary ${w.dictionary}` : "zstd") : w.kind || "not compressed";
    const ws = this.pack.warnings;
    this.summary.textContent = `${this.pack.name}: ${this.pack.members.size} files (${how})` + (edited.size ? `; ${edited.size} with unsaved edits` : "") +
      (ws.length ? `; ${ws.length} warning${ws.length === 1 ? "" : "s"} (hover)` : "");
    this.summary.title = ws.join("\n");
    for (const [name, m] of this.pack.members) {
      const f = { name, format: m.format, size: m.bytes.length };
      const title = h("span.item-title", {}, (edited.has(f.name) ? "● " : "") + f.name);
      const meta = h("span.muted", {}, `${f.format || "data"}, ${kib(f.size)}`);
      const li = "li.item" + (name === shown ? ".active" : "");
      if (f.format === "ainb") {
        // The graph comes back for an AINB file (the trees keep their sessions).
        c.append(h(li, {}, h("button.item-main", { dataset: { member: f.name }, title: `Open ${f.name}`, onclick: () => this.ed.folder.visit(f.name) }, title, meta)));
      } else if (f.format === "byml" || f.format === "aamp") {
        c.append(h(li, {}, h("button.item-main", { dataset: { member: f.name }, title: `Open ${f.name} in the tree view`, onclick: () => this.ed.trees.openMember(f.name) }, title, meta)));
      } else {
        c.append(h(li, { dataset: { member: f.name } }, h("div.item-main", {}, title, meta)));
      }
    }
  }
}
