// Everything the editor keeps in the browser, and every key it keeps it under: no other
// module spells a key. Small settings live in localStorage (prefs), documents and bytes in
// IndexedDB (which keeps big documents that localStorage cannot), documents as their JSON
// text. Storage refused (private mode, a sandboxed frame, node in tests) is no storage:
// reads find nothing and writes are dropped, since all of it is a convenience.

// localStorage keys.
export const PREF = Object.freeze({
  recent: "ainb-editor.recent", // the recently opened files, newest first
  layouts: "ainb-editor.layouts", // the index of kept node arrangements (shape.js)
  clipboard: "ainb-editor.clipboard", // nodes copied, for a paste in any tab
  legend: "ainb-editor.legend", // the legend "collapsed" or "open"
  wheel: "ainb.wheel", // what the wheel does: "zoom" or "pan" (wheel.js)
});

// IndexedDB keys: the autosave of the file shown, the game's ZsDic.pack.zs, the node
// catalogue, and one key per recent file and per kept arrangement.
export const DOC = Object.freeze({
  current: "current",
  zsdic: "zsdic",
  catalogue: "catalogue",
  recent: (name) => "recent:" + name,
  layout: (hash) => "layout:" + hash,
});

const MAX_RECENT = 10;
const DB = "ainb-editor";
const STORE = "documents";

// A localStorage value, or null (absent, or storage refused).
export function getPref(key) {
  try {
    return globalThis.localStorage ? localStorage.getItem(key) : null;
  } catch {
    return null;
  }
}

// Sets a localStorage value; returns false when storage refused it (full or disabled).
export function setPref(key, value) {
  try {
    localStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

// A localStorage value read as JSON, or fallback when absent or unreadable.
export function getPrefJSON(key, fallback) {
  try {
    const v = JSON.parse(getPref(key) ?? "null");
    return v ?? fallback;
  } catch {
    return fallback;
  }
}

function openDB() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

let dbPromise = null;
function db() {
  if (!dbPromise) dbPromise = openDB().catch(() => null);
  return dbPromise;
}

async function tx(mode, fn) {
  const d = await db();
  if (!d) return undefined;
  return new Promise((resolve) => {
    const t = d.transaction(STORE, mode);
    const req = fn(t.objectStore(STORE));
    t.oncomplete = () => resolve(req ? req.result : undefined);
    t.onerror = t.onabort = () => resolve(undefined);
  });
}

export function putDoc(key, value) {
  return tx("readwrite", (s) => s.put(value, key));
}

export function getDoc(key) {
  return tx("readonly", (s) => s.get(key));
}

export function deleteDoc(key) {
  return tx("readwrite", (s) => s.delete(key));
}

export function recent() {
  const v = getPrefJSON(PREF.recent, []);
  return Array.isArray(v) ? v : [];
}

// Adds a file to the recent list and keeps its document (as JSON text) for re-opening, with
// extra facts about the file (how it was compressed, its hash).
export async function remember(name, doc, extra = {}) {
  const key = DOC.recent(name);
  const list = recent().filter((r) => r.key !== key);
  list.unshift({ name, key, time: Date.now(), nodes: doc.nodes.length });
  const dropped = list.splice(MAX_RECENT);
  setPref(PREF.recent, JSON.stringify(list)); // the list is a convenience
  for (const r of dropped) deleteDoc(r.key);
  await putDoc(key, { ...extra, text: JSON.stringify(doc) });
}
