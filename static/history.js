// Undo and redo. A command is a list of primitive operations on the document objects; each
// one knows how to reverse itself, so any edit, however structural, undoes exactly. Edits
// build a command as a transaction (Tx) and push it when it holds any operation. No DOM, so
// it runs under node too.

// A read-only page (the embed, /e/{id}) refuses every edit here, the one place all of them
// pass: Tx applies an edit's operations as it records them, so a refused command is taken
// back and its owner told as after an undo, to redraw what a drag moved live.
let readOnly = false;

export function setReadOnly(on) {
  readOnly = !!on;
}

export function isReadOnly() {
  return readOnly;
}

export class History {
  constructor(onChange = () => {}) {
    this.done = [];
    this.undone = [];
    this.savedAt = 0; // length of done when the document was last saved or opened
    this.onChange = onChange;
  }

  reset(dirty = false) {
    this.done = [];
    this.undone = [];
    this.savedAt = dirty ? -1 : 0;
  }

  // Records a command whose operations have already been applied; on a read-only page,
  // takes it back instead and returns false.
  push(cmd) {
    if (readOnly) {
      for (let k = cmd.ops.length - 1; k >= 0; k--) revert(cmd.ops[k]);
      this.onChange(cmd, "refused");
      return false;
    }
    this.done.push(cmd);
    // A redo branch below the save point can never come back, so the document stays dirty.
    if (this.savedAt > this.done.length - 1) this.savedAt = -1;
    this.undone = [];
    this.onChange(cmd, "do");
  }

  undo() {
    const cmd = this.done.pop();
    if (!cmd) return null;
    for (let k = cmd.ops.length - 1; k >= 0; k--) revert(cmd.ops[k]);
    this.undone.push(cmd);
    this.onChange(cmd, "undo");
    return cmd;
  }

  redo() {
    const cmd = this.undone.pop();
    if (!cmd) return null;
    for (const op of cmd.ops) apply(op);
    this.done.push(cmd);
    this.onChange(cmd, "redo");
    return cmd;
  }

  markSaved() {
    this.savedAt = this.done.length;
  }

  dirty() {
    return this.savedAt !== this.done.length;
  }
}

// A transaction: the operations of one edit, applied as they are recorded. geometry says
// that node positions or sizes changed, structure that nodes, links or rows did.
export class Tx {
  constructor(label) {
    this.label = label;
    this.ops = [];
    this.geometry = false;
    this.structure = false;
  }

  // Sets obj[key]; value undefined deletes the key, so keys absent before stay absent after
  // an undo.
  set(obj, key, value) {
    const had = Object.prototype.hasOwnProperty.call(obj, key);
    if (had && Object.is(obj[key], value)) return;
    if (!had && value === undefined) return;
    const op = { op: "set", obj, key, value, had, old: obj[key] };
    // A deleted key comes back where it was, so an undo restores the very JSON text.
    if (had && value === undefined) op.pos = Object.keys(obj).indexOf(key);
    apply(op);
    this.ops.push(op);
  }

  // Records a change that was already made (a drag moves nodes live).
  record(obj, key, old, value) {
    if (Object.is(old, value)) return;
    this.ops.push({ op: "set", obj, key, value, had: true, old });
  }

  splice(arr, index, del, ...inserted) {
    const op = { op: "splice", arr, index, removed: arr.slice(index, index + del), inserted };
    apply(op);
    this.ops.push(op);
  }

  // The array at obj[key], creating it when absent (documents omit empty lists).
  list(obj, key) {
    if (!Array.isArray(obj[key])) this.set(obj, key, []);
    return obj[key];
  }

  // Drops obj[key] when it is an empty array, so an edit that empties a list leaves the
  // document as the server would have written it.
  prune(obj, key) {
    if (Array.isArray(obj[key]) && !obj[key].length) this.set(obj, key, undefined);
  }
}

// Operations: "set" a key and "splice" an array.
export function apply(op) {
  if (op.op === "set") {
    if (op.value === undefined) delete op.obj[op.key];
    else op.obj[op.key] = op.value;
  } else {
    op.arr.splice(op.index, op.removed.length, ...op.inserted);
  }
}

export function revert(op) {
  if (op.op === "set") {
    if (!op.had) delete op.obj[op.key];
    else if (op.pos === undefined || op.key in op.obj) op.obj[op.key] = op.old;
    else restoreAt(op.obj, op.key, op.old, op.pos);
  } else {
    op.arr.splice(op.index, op.inserted.length, ...op.removed);
  }
}

// Puts a deleted key back at its place among the object's keys.
function restoreAt(obj, key, value, pos) {
  const entries = Object.entries(obj);
  if (pos >= entries.length) {
    obj[key] = value;
    return;
  }
  for (const [k] of entries) delete obj[k];
  entries.splice(pos, 0, [key, value]);
  for (const [k, v] of entries) obj[k] = v;
}
