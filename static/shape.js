// Files keep their shape: the AINB binary has no node positions, so the editor keeps each
// saved file's arrangement in the browser, keyed by the SHA-256 of the file's bytes as saved
// (so opening that file again finds it), and writes and reads it as a small sidecar file
// (NAME.layout.json) to carry it elsewhere.

import { h } from "./dom.js";
import * as store from "./store.js";
import { count } from "./counts.js";

// The editor members this module uses: its context (context.js).
export const EDITOR_NEEDS = ["doc", "download", "edits", "fileHash", "name", "nodeById", "status", "ui"];

export const SIDECAR_FORMAT = "ainb-editor-layout/1";
// At most this many arrangements are kept, the least recently used dropped first, and none
// bigger than MAX_BYTES (a 7,000-node file takes about 200 KB).
const MAX_LAYOUTS = 50;
const MAX_BYTES = 4 << 20;

export async function sha256(buf) {
  const d = await crypto.subtle.digest("SHA-256", buf);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// The arrangement of a document: [id, x, y, pinned (0/1)] per node.
export function arrangement(doc) {
  return doc.nodes.map((n) => [n.id, n.x, n.y, n.pinned ? 1 : 0]);
}

function index() {
  const v = store.getPrefJSON(store.PREF.layouts, []);
  return Array.isArray(v) ? v : [];
}

function writeIndex(list) {
  store.setPref(store.PREF.layouts, JSON.stringify(list)); // arrangements are a convenience
}

// Keeps the arrangement of doc for the file whose bytes hash to hash.
export async function remember(hash, name, doc) {
  const value = { name, nodes: arrangement(doc) };
  if (JSON.stringify(value).length > MAX_BYTES) return false;
  const list = index().filter((e) => e.hash !== hash);
  list.unshift({ hash, name, time: Date.now() });
  for (const e of list.splice(MAX_LAYOUTS)) store.deleteDoc(store.DOC.layout(e.hash));
  writeIndex(list);
  await store.putDoc(store.DOC.layout(hash), value);
  return true;
}

// The arrangement kept for a file's hash, or null.
export async function recall(hash) {
  if (!index().some((e) => e.hash === hash)) return null;
  const v = await store.getDoc(store.DOC.layout(hash));
  return v && Array.isArray(v.nodes) ? v : null;
}

// Puts an arrangement on a freshly parsed document (before it is shown, so no undo step):
// only when every node it names exists and it names every node, since the file is the same
// one. Returns whether it did.
export function applyTo(doc, nodes) {
  if (!Array.isArray(nodes) || nodes.length !== doc.nodes.length) return false;
  const byId = new Map(doc.nodes.map((n) => [n.id, n]));
  if (!nodes.every((p) => Array.isArray(p) && byId.has(p[0]) && Number.isFinite(p[1]) && Number.isFinite(p[2]))) return false;
  for (const [id, x, y, pinned] of nodes) {
    const n = byId.get(id);
    n.x = x;
    n.y = y;
    if (pinned) n.pinned = true;
    else delete n.pinned;
  }
  return true;
}

// The sidecar file's text.
export function sidecar(name, hash, doc) {
  return JSON.stringify({ format: SIDECAR_FORMAT, file: name, sha256: hash || "", nodes: arrangement(doc) });
}

// Reads a sidecar: {file, sha256, nodes} or throws an Error saying what is wrong with it.
export function readSidecar(text) {
  let v;
  try {
    v = JSON.parse(text);
  } catch {
    throw new Error("it is not JSON");
  }
  if (!v || v.format !== SIDECAR_FORMAT || !Array.isArray(v.nodes)) throw new Error(`it is not a layout file of this editor (format ${SIDECAR_FORMAT})`);
  return v;
}

// The toolbar's Layout menu: export and import of the sidecar.
export class ShapeUI {
  constructor(ed) {
    this.ed = ed;
    const input = h("input", { type: "file", accept: ".json,application/json", hidden: true, id: "layout-input",
      onchange: async () => {
        const f = input.files[0];
        input.value = "";
        if (f) await this.importFile(f);
      } });
    this.input = input;
    const exp = h("button.tool", { title: "Download the node arrangement as a small .layout.json file", dataset: { action: "layout-export" },
      onclick: () => this.exportFile() }, "Export layout");
    const imp = h("button.tool", { title: "Place the nodes as a .layout.json file says", dataset: { action: "layout-import" },
      onclick: () => ed.doc && input.click() }, "Import layout");
    const grow = ed.ui.toolbar.querySelector(".grow");
    ed.ui.toolbar.insertBefore(h("span.sep", {}), grow);
    ed.ui.toolbar.insertBefore(exp, grow);
    ed.ui.toolbar.insertBefore(imp, grow);
    ed.ui.root.append(input);
  }

  layoutName() {
    return this.ed.name.replace(/\.zs$/i, "").replace(/\.ainb$/i, "") + ".layout.json";
  }

  exportFile() {
    const ed = this.ed;
    if (!ed.doc) return;
    const blob = new Blob([sidecar(ed.name, ed.fileHash, ed.doc)], { type: "application/json" });
    ed.download(blob, this.layoutName());
    ed.status(`Exported the arrangement of ${count(ed.doc.nodes.length, "node")} as ${this.layoutName()}`);
  }

  // Places the nodes the sidecar names, as one undoable step.
  async importFile(file) {
    const ed = this.ed;
    if (!ed.doc) return false;
    let v;
    try {
      v = readSidecar(await file.text());
    } catch (err) {
      ed.ui.toast(`Could not import ${file.name}: ${err.message}.`, "error");
      return false;
    }
    const places = v.nodes.filter((p) => Array.isArray(p) && ed.nodeById(p[0]) && Number.isFinite(p[1]) && Number.isFinite(p[2]));
    if (!places.length) {
      ed.ui.toast(`${file.name} places none of this file's nodes.`, "error");
      return false;
    }
    ed.edits.applyLayout(places.map(([id, x, y, pinned]) => ({ id, x, y, pinned: !!pinned })), "Import layout");
    const missing = ed.doc.nodes.length - places.length;
    ed.status(`Placed ${count(places.length, "node")} from ${file.name}` + (missing ? `; ${missing} node${missing === 1 ? " it does not name stays" : "s it does not name stay"} where ${missing === 1 ? "it was" : "they were"}` : ""));
    return true;
  }
}
