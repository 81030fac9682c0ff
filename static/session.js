// A file open in the editor: what it is (an AINB graph, a BYML or AAMP tree), where it came
// from (a file opened on its own, or a file of the open folder or pack), the bytes it came
// from (their hash, and the bytes themselves where saving builds onto them), how they were
// wrapped, its document and undo history, and what the user left it showing (view,
// selection, problems). Sessions live in the workspace (workspace.js); the editor shows one.
// No DOM, so it runs under node too.

import { History } from "./history.js";

// Where a session's file came from. A folder's files and a pack's members are one group:
// the open pack is the open folder (its AINB files are the folder's files).
export const LOOSE = "file";
export const FOLDER = "folder";

export class Session {
  // kind: "ainb", "byml" or "aamp". path: the file's path in its folder or pack (a loose
  // file's is its name). hash: SHA-256 of the bytes it was opened from or last saved as, ""
  // when unknown (a share, an autosave of an older editor). zstd: an AINB file's zstd
  // dictionary id (0 for none), null when it came plain. wrapping: a tree's, as /api/tree
  // says. original: a loose tree's bytes, which saving builds onto. dirty: it opens with
  // edits not in any file (an autosave restored).
  constructor({ kind, group = LOOSE, path, name, doc, hash = "", zstd = null, wrapping = null, original = null, warnings = [], dirty = false }) {
    this.kind = kind;
    this.group = group;
    this.name = name || path || "";
    this.path = path || this.name;
    this.doc = doc;
    this.hash = hash;
    this.zstd = Number.isInteger(zstd) ? zstd : null;
    this.wrapping = wrapping;
    this.original = original;
    this.warnings = warnings;
    // Whoever shows the session hears its edits (the editor for a graph, the tree view for
    // a tree): onChange is set when it is shown.
    this.onChange = () => {};
    this.history = new History((cmd, how) => this.onChange(cmd, how));
    this.history.reset(dirty);
    this.view = null; // a graph's {command, x, y, zoom, selection} when it was last left
    this.problems = []; // what the last save or tidy found wrong, by node id
    // The share that shows this document as it now is ({link, doc, mark}: see
    // Editor.shareBase), which links to its nodes use.
    this.shared = null;
  }

  get key() {
    return sessionKey(this.group, this.path);
  }

  get graph() {
    return this.kind === "ainb";
  }

  dirty() {
    return this.history.dirty();
  }

  // The file was written: what the session holds is now saved, as the bytes hashing to hash.
  saved(hash = this.hash) {
    this.history.markSaved();
    this.hash = hash;
    this.problems = [];
  }

  // Whether bytes hashing to hash are the file this session came from (or was last saved as).
  sameFile(hash) {
    return !!hash && hash === this.hash;
  }
}

export function sessionKey(group, path) {
  return group + ":" + path;
}
