// The editor's collaborators (drawing, input, the panels, the inspector, ...) each get a
// narrow context: an object with only the editor members the module declares it needs
// (its EDITOR_NEEDS list; context.test.mjs checks the list is exactly what the module
// uses). Fields read through to the editor, so they follow the session shown; fields the
// module may set are marked "name=" in the list; methods are bound. The editor stays the
// page's one global, and no module can come to lean on more of it unnoticed.
// No DOM, so it runs under node too.

export function narrow(target, needs) {
  const ctx = {};
  for (const need of needs) {
    const writable = need.endsWith("=");
    const key = writable ? need.slice(0, -1) : need;
    const v = target[key];
    if (typeof v === "function" && !writable) {
      ctx[key] = v.bind(target);
      continue;
    }
    Object.defineProperty(ctx, key, {
      enumerable: true,
      get: () => target[key],
      set: writable ? (x) => { target[key] = x; } : undefined,
    });
  }
  return Object.freeze(ctx);
}

// The editor members a module's source uses, as "ed.NAME" (or "this.ed.NAME"), a written
// member as "NAME=": what its EDITOR_NEEDS must list.
export function usedMembers(source) {
  const used = new Set();
  for (const m of source.matchAll(/\bed\.([A-Za-z_$][\w$]*)(\s*=(?!=))?/g)) used.add(m[1] + (m[2] ? "=" : ""));
  // A member both read and written is listed once, as written.
  for (const u of [...used]) if (u.endsWith("=")) used.delete(u.slice(0, -1));
  return [...used].sort();
}
