// The node catalogue in the browser: learned from every document the editor shows, kept in
// IndexedDB across sessions (bounded, see catalogue.js), and importable from AINB files or a
// folder of them the user picks. Files go through the server's /api/parse like any file
// opened.

import * as api from "./api.js";
import * as store from "./store.js";
import { emptyCatalogue, learn, boundedJSON, fromJSON, classCount } from "./catalogue.js";
import { count } from "./counts.js";

// The editor members this module uses: its context (context.js).
export const EDITOR_NEEDS = ["afterLoad", "doc", "emit", "name", "on", "root", "status", "ui"];

const SAVE_DELAY = 1500;
const AINB_NAME = /\.ainb(\.zs)?$/i;
// The server limits parses a client may ask for a minute; an import of a whole game folder
// waits and tries again rather than losing files.
const RATE_WAIT_MS = 5000;
const RATE_TRIES = 24;

export class CatalogueStore {
  constructor(ed) {
    this.ed = ed;
    this.cat = emptyCatalogue();
    this.pending = [];
    this.loaded = false;
    this.importing = false;
    this.ready = store.getDoc(store.DOC.catalogue).then((v) => {
      if (v && typeof v.text === "string") this.cat = fromJSON(v.text);
    }).catch(() => {}).finally(() => {
      this.loaded = true;
      for (const [doc, name] of this.pending.splice(0)) this.learnDoc(doc, name);
    });
    // The inspector offers a class's missing parameters: it shows what was just learned.
    ed.on("catalogue", () => ed.ui.inspector?.render());
    // Learned after the document's first frame, so opening a file is not slower for it.
    ed.on("document", () => {
      const doc = ed.doc, name = ed.name;
      if (!doc) return;
      const later = () => this.learnDoc(doc, name);
      // The editor runs afterLoad once the first frame is drawn.
      if (Array.isArray(ed.afterLoad)) ed.afterLoad.push(later);
      else setTimeout(later, 0);
    });
  }

  classes() {
    return this.cat;
  }

  learnDoc(doc, name) {
    if (!this.loaded) {
      this.pending.push([doc, name]);
      return 0;
    }
    const grew = learn(this.cat, doc, { name, now: Date.now() });
    this.scheduleSave();
    if (grew) this.ed.emit("catalogue");
    return grew;
  }

  scheduleSave() {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => this.save(), SAVE_DELAY);
  }

  save() {
    clearTimeout(this.saveTimer);
    return store.putDoc(store.DOC.catalogue, { text: boundedJSON(this.cat) });
  }

  // Learns the classes of AINB files (File objects; other names are passed over). Reports
  // progress in the status bar and returns {files, failed, classes}.
  async importFiles(files) {
    await this.ready;
    const list = [...files].filter((f) => AINB_NAME.test(f.name));
    if (!list.length) {
      this.ed.ui.toast("No .ainb or .ainb.zs files were chosen.", "error");
      return { files: 0, failed: 0, classes: 0 };
    }
    this.importing = true;
    const before = classCount(this.cat);
    let done = 0, failed = 0;
    const max = Number(this.ed.root.dataset.maxUpload || 0);
    try {
      for (const f of list) {
        this.ed.status(`Learning node classes: ${done + failed + 1} of ${list.length} files (${f.webkitRelativePath || f.name})…`);
        if (max > 0 && f.size > max) {
          failed++;
          continue;
        }
        const doc = await parseWithRetry(f);
        if (!doc) {
          failed++;
          continue;
        }
        learn(this.cat, doc, { name: f.webkitRelativePath || f.name, now: Date.now() });
        done++;
      }
    } finally {
      this.importing = false;
      await this.save();
    }
    // Counted as the palette counts them (classCount): a built-in type seen for the first
    // time was offered already, and is not new.
    const known = classCount(this.cat), added = known - before;
    const msg = `Learned node classes from ${count(done, "file")}: ${added} new, ${count(known, "class", "classes")} known` +
      (failed ? `; ${failed} file${failed === 1 ? "" : "s"} could not be read` : "");
    this.ed.status(msg, failed ? "error" : "");
    if (failed) this.ed.ui.toast(msg, "error");
    this.ed.emit("catalogue");
    return { files: done, failed, classes: added };
  }

  // Asks for files or a folder and imports them. The folder picker of the File System Access
  // API is used where the browser has it; otherwise a directory input.
  pick(folder) {
    if (folder && window.showDirectoryPicker) {
      window.showDirectoryPicker().then(async (dir) => this.importFiles(await filesIn(dir)), () => {});
      return;
    }
    const input = document.getElementById(folder ? "catalogue-folder" : "catalogue-files");
    if (input) input.click();
  }

  // The hidden inputs the pickers use; tests set their files directly.
  installInputs(root) {
    const make = (id, folder) => {
      const input = document.createElement("input");
      input.type = "file";
      input.id = id;
      input.multiple = true;
      input.hidden = true;
      if (folder) input.webkitdirectory = true;
      else input.accept = ".ainb,.zs";
      input.addEventListener("change", () => {
        const files = [...input.files];
        input.value = "";
        if (files.length) this.importFiles(files);
      });
      root.append(input);
    };
    make("catalogue-files", false);
    make("catalogue-folder", true);
  }
}

async function parseWithRetry(f) {
  const bytes = await f.arrayBuffer();
  for (let k = 0; k < RATE_TRIES; k++) {
    try {
      return await api.parseFile(f.name, bytes);
    } catch (err) {
      if (err.status !== 429 && err.status !== 503) return null;
      await new Promise((r) => setTimeout(r, RATE_WAIT_MS));
    }
  }
  return null;
}

// Every file under a directory handle, recursively.
async function filesIn(dir, out = []) {
  for await (const h of dir.values()) {
    if (h.kind === "file") {
      if (AINB_NAME.test(h.name)) out.push(await h.getFile());
    } else await filesIn(h, out);
  }
  return out;
}
