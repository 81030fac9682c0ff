// Undo and redo. A command is a list of primitive operations on the document objects; each
// one knows how to reverse itself, so any edit, however structural, undoes exactly.

export class History {
  constructor(onChange) {
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

  // Records a command whose operations have already been applied.
  push(cmd) {
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

// Operations: "set" a key (value undefined deletes it, so keys absent before stay absent after
// an undo) and "splice" an array.
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
    else op.obj[op.key] = op.old;
  } else {
    op.arr.splice(op.index, op.inserted.length, ...op.removed);
  }
}
