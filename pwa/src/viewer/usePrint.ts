/**
 * The viewer's print flow (spec section 4: inactive, checking permission,
 * preparing, ready, or cancelled when printing is not permitted).
 */
import { t } from 'i18next';
import { useCallback, useEffect, useRef, useState } from 'react';
import { storage } from '../lib/storage.ts';
import { viewerCache } from '../offline/viewerCache.ts';
import { openDocument, type PdfDocument, printRefused } from './engine.ts';
import { allPages } from './pageRanges.ts';
import { AUTO_PRINT_DELAY_MS, discardPendingPrint, preparePrint, printAllowed } from './print.ts';

export type PrintPhase =
  | { kind: 'inactive' }
  | { kind: 'checking' }
  /** The modal asking for all pages or a range is open. */
  | { kind: 'choosing' }
  | { kind: 'preparing'; done: number; total: number }
  | { kind: 'ready' }
  /** Printing is not permitted by the document. */
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string };

export interface PrintFlow {
  phase: PrintPhase;
  /** Starts the flow; `auto` skips the page choice and prints every page. */
  start(options?: { auto?: boolean }): void;
  /** Prints the chosen pages. */
  printPages(pages: number[]): void;
  /** Closes whatever the flow shows and stops rendering. */
  close(): void;
}

/**
 * The bytes to print. A document opened for viewing is read again from the print URL, so the API records the
 * printing ('Document Printed') the same way whichever button started it, and refuses it for a PDF that forbids
 * printing; one opened with ?print=1 already came from there.
 */
async function withPrintCopy<T>(
  source: { pdf: PdfDocument; documentId: string; fromPrintUrl: boolean; fromCache: boolean },
  run: (pdf: PdfDocument) => Promise<T>,
): Promise<T> {
  // From the tablet's cache (offline): the printing is queued for the audit log instead.
  if (source.fromCache) viewerCache.read(source.documentId, 'print');
  if (source.fromPrintUrl || source.fromCache) return run(source.pdf);
  const task = openDocument(source.documentId, { print: true, token: storage.getGuid() });
  try {
    return await run(await task.promise);
  } finally {
    void task.destroy();
  }
}

export function usePrint(
  pdf: PdfDocument | null,
  source: { documentId: string; fromPrintUrl: boolean; fromCache: boolean },
): PrintFlow {
  const { documentId, fromPrintUrl, fromCache } = source;
  const [phase, setPhase] = useState<PrintPhase>({ kind: 'inactive' });
  const abortRef = useRef<AbortController | null>(null);

  const printPages = useCallback((pages: number[], delay = 0) => {
    if (!pdf) return;
    abortRef.current?.abort();
    const abort = new AbortController();
    abortRef.current = abort;
    setPhase({ kind: 'preparing', done: 0, total: pages.length });
    withPrintCopy({ pdf, documentId, fromPrintUrl, fromCache }, (printed) =>
      preparePrint(printed, pages, {
        signal: abort.signal,
        onProgress: (done, total) => !abort.signal.aborted && setPhase({ kind: 'preparing', done, total }),
      })).then(
        (job) => {
          if (abort.signal.aborted) return job.discard();
          setPhase({ kind: 'ready' });
          window.setTimeout(() => {
            if (abort.signal.aborted) return job.discard();
            job.print();
            setPhase({ kind: 'inactive' });
          }, delay);
        },
        (error: unknown) => {
          if (abort.signal.aborted) return;
          // The API refused the print copy: the PDF forbids printing (a password-protected one's permissions
          // could not be read at upload, so it is never printed through the portal).
          if (printRefused(error)) return setPhase({ kind: 'cancelled' });
          console.error('Printing failed', error);
          setPhase({ kind: 'failed', message: t('print.failed') });
        },
      );
  }, [pdf, documentId, fromPrintUrl, fromCache]);

  const start = useCallback((options: { auto?: boolean } = {}) => {
    if (!pdf) return;
    setPhase({ kind: 'checking' });
    printAllowed(pdf).then(
      (allowed) => {
        if (!allowed) setPhase({ kind: 'cancelled' });
        else if (options.auto) printPages(allPages(pdf.numPages), AUTO_PRINT_DELAY_MS);
        else setPhase({ kind: 'choosing' });
      },
      () => setPhase({ kind: 'failed', message: t('print.failed') }),
    );
  }, [pdf, printPages]);

  const close = useCallback(() => {
    abortRef.current?.abort();
    abortRef.current = null;
    setPhase({ kind: 'inactive' });
  }, []);

  useEffect(() => () => {
    abortRef.current?.abort();
    discardPendingPrint();
  }, []);

  return { phase, start, printPages: (pages) => printPages(pages), close };
}
