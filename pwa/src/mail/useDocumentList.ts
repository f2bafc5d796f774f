/**
 * Loads one document list and reloads it on demand. The caller decides what a
 * failure says (each portal has its own texts, spec section 8).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchDocuments, type ListSource } from './mailApi.ts';
import type { DocumentRow } from './listLogic.ts';

export interface DocumentListState {
  rows: DocumentRow[];
  loading: boolean;
  /** The last load's failure, null after a success. */
  error: unknown;
  reload(): void;
}

export function useDocumentList(
  source: ListSource | null,
  options: { quiet?: boolean; onLoaded?(rows: DocumentRow[]): void; onError?(error: unknown): void } = {},
): DocumentListState {
  const [rows, setRows] = useState<DocumentRow[]>([]);
  const [loading, setLoading] = useState(source !== null);
  const [error, setError] = useState<unknown>(null);
  const [round, setRound] = useState(0);
  // Callbacks through a ref: a new function each render must not reload the list.
  const callbacks = useRef(options);
  callbacks.current = options;
  const key = source ? JSON.stringify(source) : null;

  useEffect(() => {
    if (key === null) {
      setLoading(false);
      return;
    }
    const controller = new AbortController();
    setLoading(true);
    fetchDocuments(JSON.parse(key) as ListSource, {
      signal: controller.signal,
      quiet: callbacks.current.quiet,
    })
      .then((loaded) => {
        setRows(loaded);
        setError(null);
        callbacks.current.onLoaded?.(loaded);
      }, (failure) => {
        if (controller.signal.aborted) return;
        setError(failure);
        callbacks.current.onError?.(failure);
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [key, round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { rows, loading, error, reload };
}
