// The workspace: every file open in the editor is a session (session.js) kept here, and one
// of them is shown. Loose files, a folder's files and a pack's members all go through it, so
// moving between them keeps each one's working copy, and nothing is dropped with unsaved
// edits unless the user agreed. Opening a file reads it; a session is reused for it only
// when the bytes are the file the session came from (reusable), and then the user is told.
// No DOM: the question is asked through confirm, so it runs under node too.

import { sessionKey } from "./session.js";

export class Workspace {
  // confirm(question) answers a yes-or-no question; dropped(session) hears every session
  // released (so whoever shows it stops).
  constructor({ confirm = (q) => globalThis.confirm(q), dropped = () => {} } = {}) {
    this.sessions = new Map(); // key -> session, in the order they were opened
    this.active = null;
    this.confirm = confirm;
    this.dropped = dropped;
  }

  get(group, path) {
    return this.sessions.get(sessionKey(group, path)) || null;
  }

  // Adds a session, replacing one of the same file (its working copy is gone: the caller
  // asked first, or it had no unsaved edits).
  add(s) {
    const old = this.sessions.get(s.key);
    if (old && old !== s) this.drop(old);
    this.sessions.set(s.key, s);
    return s;
  }

  activate(s) {
    if (s && this.sessions.get(s.key) !== s) this.add(s);
    this.active = s;
  }

  // The sessions pick chooses, in the order they were opened.
  list(pick = () => true) {
    return [...this.sessions.values()].filter(pick);
  }

  // The paths of the chosen sessions with unsaved edits.
  edited(pick = () => true) {
    return this.list(pick).filter((s) => s.dirty()).map((s) => s.path);
  }

  dirty() {
    return this.list().some((s) => s.dirty());
  }

  // The session of this file that may stand for bytes hashing to hash: the file it came
  // from, holding unsaved edits. A session without edits is not reused: the file is read.
  reusable(group, path, hash) {
    const s = this.get(group, path);
    return s && s.dirty() && s.sameFile(hash) ? s : null;
  }

  // Releases the chosen sessions: asks once about those with unsaved edits and, when the
  // user agrees or none has any, drops them all. Returns false, dropping nothing, when the
  // user keeps them.
  release(pick, { ask = true } = {}) {
    const chosen = this.list(pick);
    const edited = chosen.filter((s) => s.dirty()).map((s) => s.path);
    if (ask && edited.length && !this.confirm(discardQuestion(edited))) return false;
    for (const s of chosen) this.drop(s);
    return true;
  }

  drop(s) {
    if (this.sessions.get(s.key) !== s) return;
    this.sessions.delete(s.key);
    if (this.active === s) this.active = null;
    this.dropped(s);
  }
}

export function discardQuestion(paths) {
  return `Discard the unsaved edits of ${paths.join(", ")}?`;
}
