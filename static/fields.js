// Which text fields hold typing that is not yet applied to the document. Ctrl+Z in such a
// field undoes the typing (the browser's own undo); in a field whose text was applied (Enter
// or leaving it) or not touched, it undoes the last edit of the document, so Ctrl+Z right
// after Enter works without Esc first.

const pending = new WeakSet();

export function installFieldTracking(doc = document) {
  doc.addEventListener("input", (e) => pending.add(e.target), true);
  doc.addEventListener("change", (e) => pending.delete(e.target), true);
  doc.addEventListener("focusin", (e) => pending.delete(e.target), true);
  doc.addEventListener("keydown", (e) => {
    // Enter applies a one-line field (see inspector.js); in a textarea it is a new line.
    if (e.key === "Enter" && e.target && e.target.tagName === "INPUT") pending.delete(e.target);
  }, true);
}

// Whether the key event's field has typing of its own to undo.
export function hasPendingText(el) {
  return !!el && pending.has(el);
}
