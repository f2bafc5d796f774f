/**
 * Connects the pdf.js viewer to React: loads the document into the container,
 * mirrors page, zoom, rotation and layout into state, and offers the toolbar's
 * commands. Spec section 4: loading, then loaded or error.
 */
import { t } from 'i18next';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { storage } from '../lib/storage.ts';
import { isOnline } from '../offline/connectivity.ts';
import { cachesDocuments, viewerCache } from '../offline/viewerCache.ts';
import {
  createViewer,
  failedToReachServer,
  onPasswordNeeded,
  openDocument,
  openDocumentData,
  type PdfDocument,
  type PdfLoadingTask,
  printRefused,
  showDocument,
  type ViewerHandle,
} from './engine.ts';
import { attachHandTool } from './handTool.ts';
import { reportShown } from './shown.ts';
import {
  chooseScroll,
  chooseView,
  type Layout,
  rotate,
  type ScrollKind,
  type ViewKind,
  WHEEL_ZOOM_DEBOUNCE_MS,
  zoomStep,
} from './modes.ts';

/** The zoom a document opens with: the page fills the width of the window. */
export const INITIAL_ZOOM = 'page-width';

export type SelectionTool = 'text' | 'hand';

/** Where the document on screen came from: the API (audited there) or the tablet's cache (audited by the queue). */
export type DocumentOrigin = 'network' | 'cache';

export type ViewerStatus =
  /** `received` is the share downloaded, 0 to 1, once the size is known. */
  | { kind: 'loading'; received: number | null }
  | { kind: 'error'; message: string }
  | { kind: 'unavailable' }
  /** `fromPrintUrl`: these bytes are the print copy (the API has recorded the print). */
  | { kind: 'ready'; pdf: PdfDocument; origin: DocumentOrigin; fromPrintUrl: boolean }
  /**
   * The PDF needs its password (pdf.js's onPassword): `wrong` after one that did not open it; `submit` hands the
   * typed one to pdf.js, and loading goes on.
   */
  | { kind: 'password'; wrong: boolean; submit(password: string): void };

class NotCached extends Error {}

export interface ViewState {
  page: number;
  pageCount: number;
  scale: number;
  /** The named zoom in force ('page-width'…), or null for a plain scale. */
  preset: string | null;
  rotation: number;
  layout: Layout;
  tool: SelectionTool;
}

const INITIAL_VIEW: ViewState = {
  page: 1,
  pageCount: 0,
  scale: 1,
  preset: INITIAL_ZOOM,
  rotation: 0,
  layout: { scroll: 'vertical', view: 'single' },
  tool: 'text',
};

export interface ViewerCommands {
  goToPage(page: number): void;
  nextPage(): void;
  previousPage(): void;
  /** A zoom level ('1.25') or preset ('page-fit'). */
  setZoom(value: string): void;
  zoomBy(steps: number): void;
  rotateBy(delta: 90 | -90): void;
  setScroll(scroll: ScrollKind): void;
  setView(view: ViewKind): void;
  setTool(tool: SelectionTool): void;
}

interface RotationChanging {
  pagesRotation: number;
  /** The page shown before the rotation. */
  pageNumber: number;
}

/**
 * Runs the viewer in `containerRef`. `print` reads the bytes from the print URL; when the API refuses it (the PDF
 * forbids printing) the document is read from the view URL instead, and the print flow says why nothing prints.
 */
export function useViewer(
  containerRef: RefObject<HTMLDivElement | null>,
  documentId: string | undefined,
  print: boolean,
): { status: ViewerStatus; view: ViewState; commands: ViewerCommands } {
  const [status, setStatus] = useState<ViewerStatus>({ kind: 'loading', received: null });
  const [view, setView] = useState<ViewState>(INITIAL_VIEW);
  const handleRef = useRef<ViewerHandle | null>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!documentId || !container) return;
    let cancelled = false;
    let pdf: PdfDocument | null = null;
    const offender = cachesDocuments();
    let task: PdfLoadingTask | null = null;
    /** Asks the reader for the PDF's password instead of stopping (spec: loading, then loaded or error). */
    const askPassword = (loading: PdfLoadingTask) =>
      onPasswordNeeded(loading, (submit, wrong) => {
        if (cancelled) return;
        setStatus({
          kind: 'password',
          wrong,
          submit: (password) => {
            setStatus({ kind: 'loading', received: null });
            submit(password);
          },
        });
      });

    /** The cached copy (an offender's only), or NotCached. */
    type Loaded = { pdf: PdfDocument; origin: DocumentOrigin; fromPrintUrl: boolean };
    const fromCache = async (): Promise<Loaded> => {
      const bytes = offender ? await viewerCache.get(documentId) : null;
      if (!bytes || cancelled) throw new NotCached();
      task = openDocumentData(bytes);
      askPassword(task);
      return { pdf: await task.promise, origin: 'cache', fromPrintUrl: false };
    };
    /** The API's copy, with the download's progress; an offender's falls back to the cache when unreachable. */
    const fromNetwork = async (asPrint: boolean): Promise<Loaded> => {
      const loading = openDocument(documentId, { print: asPrint, token: storage.getGuid() });
      task = loading;
      askPassword(loading);
      loading.onProgress = ({ loaded, total }: { loaded: number; total: number }) => {
        // Only while loading: the rest of the file keeps arriving after the first page (and for the cache).
        if (!cancelled && total > 0) {
          const received = Math.min(1, loaded / total);
          setStatus((now) => now.kind === 'loading' ? { kind: 'loading', received } : now);
        }
      };
      try {
        return { pdf: await loading.promise, origin: 'network', fromPrintUrl: asPrint };
      } catch (error) {
        if (asPrint && !cancelled && printRefused(error)) return fromNetwork(false);
        if (offender && !cancelled && (failedToReachServer(error) || !isOnline())) return fromCache();
        throw error;
      }
    };
    // Offline, an offender's document opens from the cache at once; online, the API decides (a document
    // withdrawn or no longer theirs is refused even when a copy is cached), and the copy is refreshed.
    const loaded = offender && !isOnline() ? fromCache() : fromNetwork(print);
    loaded.catch(() => undefined);
    setStatus({ kind: 'loading', received: null });
    setView(INITIAL_VIEW);
    (async () => {
      const handle = await createViewer(container);
      if (cancelled) return handle.destroy();
      handleRef.current = handle;
      const { eventBus, viewer } = handle;
      eventBus.on('pagesinit', () => {
        viewer.currentScaleValue = INITIAL_ZOOM;
      });
      eventBus.on('pagechanging', ({ pageNumber }: { pageNumber: number }) => {
        setView((v) => ({ ...v, page: pageNumber }));
      });
      eventBus.on('scalechanging', ({ scale, presetValue }: { scale: number; presetValue?: string }) => {
        setView((v) => ({ ...v, scale, preset: presetValue ?? null }));
      });
      eventBus.on('rotationchanging', ({ pagesRotation, pageNumber }: RotationChanging) => {
        setView((v) => ({ ...v, rotation: pagesRotation }));
        // pdf.js keeps the scroll offset while every page changes shape, which lands on another page: back to
        // the one being read, as pdf.js's own viewer does.
        viewer.currentPageNumber = pageNumber;
      });
      let origin: DocumentOrigin;
      let fromPrintUrl: boolean;
      try {
        ({ pdf, origin, fromPrintUrl } = await loaded);
      } catch (error) {
        if (cancelled) return;
        setStatus(
          error instanceof NotCached
            ? { kind: 'unavailable' }
            : { kind: 'error', message: loadErrorMessage(error, print) },
        );
        return;
      }
      if (cancelled) return;
      // "Opened" is the screen showing the document: told once its first page is drawn, never on the download.
      let reported = false;
      eventBus.on('pagerendered', () => {
        if (reported || cancelled) return;
        reported = true;
        void reportShown(documentId, { fromCache: origin === 'cache', offender });
      });
      showDocument(handle, pdf);
      setView((v) => ({ ...v, pageCount: pdf?.numPages ?? 0 }));
      setStatus({ kind: 'ready', pdf, origin, fromPrintUrl });
      if (!offender) return;
      // The bytes of a view from the network are kept for reading offline (a print from the cache is queued when
      // it prints: usePrint.ts).
      if (origin === 'network') {
        const shown = pdf;
        void shown.getData().then((bytes) => {
          if (!cancelled) viewerCache.put(documentId, new Uint8Array(bytes));
        }, () => undefined);
      }
    })().catch((error) => {
      if (!cancelled) setStatus({ kind: 'error', message: loadErrorMessage(error, print) });
    });
    return () => {
      cancelled = true;
      handleRef.current?.destroy();
      handleRef.current = null;
      void task?.destroy();
    };
  }, [containerRef, documentId, print]);

  const withViewer = useCallback((run: (handle: ViewerHandle) => void) => {
    if (handleRef.current) run(handleRef.current);
  }, []);

  const applyLayout = useCallback((next: (layout: Layout) => Layout) => {
    setView((v) => {
      const layout = next(v.layout);
      handleRef.current?.setLayout(layout);
      return { ...v, layout };
    });
  }, []);

  const commands: ViewerCommands = {
    goToPage: (page) =>
      withViewer(({ viewer }) => {
        if (Number.isInteger(page) && page >= 1 && page <= viewer.pagesCount) viewer.currentPageNumber = page;
      }),
    nextPage: () => withViewer(({ viewer }) => void viewer.nextPage()),
    previousPage: () => withViewer(({ viewer }) => void viewer.previousPage()),
    setZoom: (value) => withViewer(({ viewer }) => void (viewer.currentScaleValue = value)),
    zoomBy: (steps) =>
      withViewer(({ viewer }) => void (viewer.currentScale = zoomStep(viewer.currentScale, steps))),
    rotateBy: (delta) =>
      withViewer(({ viewer }) => void (viewer.pagesRotation = rotate(viewer.pagesRotation, delta))),
    setScroll: (scroll) => applyLayout((layout) => chooseScroll(layout, scroll)),
    setView: (kind) => applyLayout((layout) => chooseView(layout, kind)),
    setTool: (tool) => setView((v) => ({ ...v, tool })),
  };

  // Ctrl+wheel zooms by levels; the ticks of one gesture are summed first.
  const zoomByRef = useRef(commands.zoomBy);
  zoomByRef.current = commands.zoomBy;
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    let ticks = 0;
    let timer: number | undefined;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      ticks += event.deltaY < 0 ? 1 : event.deltaY > 0 ? -1 : 0;
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        zoomByRef.current(ticks);
        ticks = 0;
      }, WHEEL_ZOOM_DEBOUNCE_MS);
    };
    container.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      container.removeEventListener('wheel', onWheel);
      window.clearTimeout(timer);
    };
  }, [containerRef]);

  useEffect(() => {
    const container = containerRef.current;
    if (!container || view.tool !== 'hand') return;
    return attachHandTool(container);
  }, [containerRef, view.tool]);

  return { status, view, commands };
}

/** The text after 'Error: '. A PDF that asks for a password says so; anything else is a load failure. */
function loadErrorMessage(error: unknown, print: boolean): string {
  if (error instanceof Error && error.name === 'PasswordException') {
    return t('viewer.passwordProtected');
  }
  // Spec section 8: the text after 'Error: ' ('Failed to load document', or '… for printing' with ?print=1).
  return print ? t('viewer.printLoadFailed') : t('viewer.loadFailed');
}
