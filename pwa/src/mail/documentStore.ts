/**
 * The documents held in memory (spec section 3): add one, replace all, append
 * with de-duplication by documentid (a later entry overrides an earlier one),
 * clear. Never persisted: logging out clears it.
 */

export interface DocumentRecord {
  documentid: string | number;
  [field: string]: unknown;
}

type Listener = (documents: readonly DocumentRecord[]) => void;

export interface DocumentStore {
  list(): readonly DocumentRecord[];
  add(document: DocumentRecord): void;
  replaceAll(documents: readonly DocumentRecord[]): void;
  append(documents: readonly DocumentRecord[]): void;
  clear(): void;
  /** Called after every change; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void;
}

/**
 * Merges `incoming` into `current` by documentid: an existing entry is replaced
 * in place by the later one, new ones go to the end in their order.
 */
export function mergeByDocumentId(
  current: readonly DocumentRecord[],
  incoming: readonly DocumentRecord[],
): DocumentRecord[] {
  const merged = [...current];
  const position = new Map(merged.map((doc, index) => [String(doc.documentid), index]));
  for (const doc of incoming) {
    const key = String(doc.documentid);
    const at = position.get(key);
    if (at === undefined) {
      position.set(key, merged.length);
      merged.push(doc);
    } else {
      merged[at] = doc;
    }
  }
  return merged;
}

/** A fresh store (the app uses the one below; tests make their own). */
export function createDocumentStore(): DocumentStore {
  let documents: readonly DocumentRecord[] = [];
  const listeners = new Set<Listener>();
  const set = (next: readonly DocumentRecord[]) => {
    documents = next;
    for (const listener of listeners) listener(documents);
  };
  return {
    list: () => documents,
    add: (document) => set(mergeByDocumentId(documents, [document])),
    replaceAll: (next) => set(mergeByDocumentId([], next)),
    append: (next) => set(mergeByDocumentId(documents, next)),
    clear: () => set([]),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The documents of the signed-in session. */
export const documentStore: DocumentStore = createDocumentStore();
