// What survives a reload: the list of recently opened files (localStorage) and the documents
// themselves (IndexedDB, which keeps big documents that localStorage cannot), stored as
// their JSON text.

const RECENT_KEY = "ainb-editor.recent";
const MAX_RECENT = 10;
const DB = "ainb-editor";
const STORE = "documents";

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
  try {
    const v = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]");
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

// Adds a file to the recent list and keeps its document (as JSON text) for re-opening, with
// extra facts about the file (how it was compressed, its hash).
export async function remember(name, doc, extra = {}) {
  const key = "recent:" + name;
  const list = recent().filter((r) => r.key !== key);
  list.unshift({ name, key, time: Date.now(), nodes: doc.nodes.length });
  const dropped = list.splice(MAX_RECENT);
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(list));
  } catch {
    // storage full or disabled: the list is a convenience
  }
  for (const r of dropped) deleteDoc(r.key);
  await putDoc(key, { ...extra, text: JSON.stringify(doc) });
}
