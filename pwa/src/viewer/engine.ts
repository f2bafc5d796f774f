/**
 * pdf.js, set up the one way this app uses it. The worker is a file of our
 * own build (the `?url` import makes Vite emit it as an asset), and so are the
 * decoders, CMaps and fonts it fetches when a document needs them
 * (pdfjsResources.ts), so no request leaves our origin and the
 * Content-Security-Policy can stay at 'self' (with 'wasm-unsafe-eval' for the
 * decoders). Scripting and XFA are off: a document is mail to be read and
 * printed, never a program.
 */
import * as pdfjsLib from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import 'pdfjs-dist/web/pdf_viewer.css';
import { API_BASE } from '../lib/api.ts';
import type { Layout } from './modes.ts';
import { pdfjsResourceBase } from './pdfjsResources.ts';

export type PdfDocument = pdfjsLib.PDFDocumentProxy;
export type PdfLoadingTask = pdfjsLib.PDFDocumentLoadingTask;
type ViewerModule = typeof import('pdfjs-dist/web/pdf_viewer.mjs');
export type PdfViewerComponent = InstanceType<ViewerModule['PDFViewer']>;
export type PdfEventBus = InstanceType<ViewerModule['EventBus']>;

export const { PermissionFlag, PDFDateString } = pdfjsLib;

pdfjsLib.GlobalWorkerOptions.workerSrc = workerUrl;

let viewerModule: Promise<ViewerModule> | null = null;

let worker: pdfjsLib.PDFWorker | null = null;

/**
 * One pdf.js worker for the window's life: starting one (fetching and compiling its module) is a good part of
 * the time to a first page, and a document's task only detaches from a worker it was given, never ends it.
 */
function sharedWorker(): pdfjsLib.PDFWorker {
  if (!worker || worker.destroyed) worker = new pdfjsLib.PDFWorker();
  return worker;
}

/**
 * The viewer components read pdf.js from `globalThis.pdfjsLib` when their
 * module is evaluated, so the global is set first and the module is imported
 * after it.
 */
function viewerComponents(): Promise<ViewerModule> {
  (globalThis as unknown as { pdfjsLib: typeof pdfjsLib }).pdfjsLib = pdfjsLib;
  viewerModule ??= import('pdfjs-dist/web/pdf_viewer.mjs');
  return viewerModule;
}

const RESOURCES = pdfjsResourceBase(pdfjsLib.version);

/**
 * Where pdf.js finds what it loads only for the documents that need it: JPEG 2000, JBIG2 and fax scans
 * (WebAssembly), CJK fonts' CMaps, the standard fonts' files and the CMYK profile. With all of these on our
 * origin the worker fetches them itself.
 */
const OPTIONAL_RESOURCES = {
  wasmUrl: `${RESOURCES}wasm/`,
  cMapUrl: `${RESOURCES}cmaps/`,
  cMapPacked: true,
  standardFontDataUrl: `${RESOURCES}standard_fonts/`,
  iccUrl: `${RESOURCES}iccs/`,
} as const;

/** Where the bytes come from: the print URL (audited as a print) when printing was asked for. */
export function documentUrl(documentId: string, print: boolean): string {
  return `${API_BASE}/documents/${print ? 'print' : 'view'}/${encodeURIComponent(documentId)}`;
}

/**
 * Starts loading a document. Range requests of 64 KiB without pre-fetching
 * show page 1 of a large file before the rest has arrived (the API answers
 * Range requests with 206).
 */
export function openDocument(
  documentId: string,
  options: { print: boolean; token: string | null },
): PdfLoadingTask {
  const params: NonNullable<Parameters<typeof pdfjsLib.getDocument>[0]> & { isEvalSupported: false } = {
    url: documentUrl(documentId, options.print),
    worker: sharedWorker(),
    httpHeaders: options.token ? { Authorization: `Bearer ${options.token}` } : {},
    withCredentials: false,
    // pdf.js 6 no longer has an eval path; kept so an older pdf.js would be held to the same rule.
    isEvalSupported: false,
    enableXfa: false,
    disableAutoFetch: true,
    disableStream: false,
    rangeChunkSize: 65536,
    ...OPTIONAL_RESOURCES,
    // Rendering on the main thread: the renderer worker would be a second script to serve.
    disableWorkerRendering: true,
  };
  return pdfjsLib.getDocument(params);
}

/**
 * Opens a document from bytes already here (the offline cache): the same rules as openDocument, no network.
 * pdf.js takes the buffer over (transfers it to its worker); the caller keeps no copy.
 */
export function openDocumentData(data: Uint8Array<ArrayBuffer>): PdfLoadingTask {
  const params: NonNullable<Parameters<typeof pdfjsLib.getDocument>[0]> & { isEvalSupported: false } = {
    data,
    worker: sharedWorker(),
    isEvalSupported: false,
    enableXfa: false,
    ...OPTIONAL_RESOURCES,
    disableWorkerRendering: true,
  };
  return pdfjsLib.getDocument(params);
}

/**
 * True when a PDF (a file the sender is about to upload, read on their own computer) needs a password to open: the
 * Upload modal tells the sender the recipient will need it. A file pdf.js cannot read at all is not this question's
 * to answer (the API refuses it on upload).
 */
export async function needsPassword(file: Blob): Promise<boolean> {
  const task = openDocumentData(new Uint8Array(await file.arrayBuffer()));
  try {
    await task.promise;
    return false;
  } catch (error) {
    // Without an onPassword handler pdf.js answers a PasswordException.
    return error instanceof Error && error.name === 'PasswordException';
  } finally {
    void task.destroy();
  }
}

/**
 * Calls `ask` whenever the PDF needs its password: first `wrong` false, then true after one that did not open it.
 * `ask` is given the way to hand a password back to pdf.js, which then goes on loading.
 */
export function onPasswordNeeded(
  task: PdfLoadingTask,
  ask: (submit: (password: string) => void, wrong: boolean) => void,
): void {
  task.onPassword = (submit: (password: string) => void, reason: number) =>
    ask(submit, reason === pdfjsLib.PasswordResponses.INCORRECT_PASSWORD);
}

/**
 * True when a load failed because the server could not be reached (as opposed to an answer: 404, 403, or a PDF
 * that does not parse). pdf.js reports HTTP statuses as ResponseException; a network failure arrives as
 * anything else.
 */
export function failedToReachServer(error: unknown): boolean {
  const name = error instanceof Error ? error.name : '';
  return !['ResponseException', 'PasswordException', 'InvalidPDFException', 'AbortException'].includes(name);
}

/** The print URL's 403: the PDF forbids printing (print_not_allowed). */
export function printRefused(error: unknown): boolean {
  return error instanceof Error && error.name === 'ResponseException' &&
    (error as Error & { status?: number }).status === 403;
}

export interface ViewerHandle {
  viewer: PdfViewerComponent;
  eventBus: PdfEventBus;
  setLayout(layout: Layout): void;
  /** Detaches the document and stops listening. */
  destroy(): void;
}

/**
 * Creates the page viewer inside `container` (which must be absolutely
 * positioned and hold one empty div). No scripting manager: PDF JavaScript
 * never runs. Links inside the PDF work within the document only: a facility
 * tablet must not be sent to an outside site from a letter.
 */
export async function createViewer(container: HTMLDivElement): Promise<ViewerHandle> {
  const { EventBus, PDFLinkService, PDFViewer, ScrollMode, SpreadMode } = await viewerComponents();
  const eventBus = new EventBus();
  const linkService = new PDFLinkService({ eventBus });
  linkService.externalLinkEnabled = false;
  const abort = new AbortController();
  // abortSignal is honoured by PDFViewer (it stops its resize and scroll
  // listeners) but missing from its published options type.
  const options: ConstructorParameters<ViewerModule['PDFViewer']>[0] & { abortSignal: AbortSignal } = {
    container,
    eventBus,
    linkService,
    abortSignal: abort.signal,
    annotationMode: pdfjsLib.AnnotationMode.ENABLE,
  };
  const viewer = new PDFViewer(options);
  linkService.setViewer(viewer);
  const scrollModes = {
    vertical: ScrollMode.VERTICAL,
    horizontal: ScrollMode.HORIZONTAL,
    wrapped: ScrollMode.WRAPPED,
  } as const;
  return {
    viewer,
    eventBus,
    setLayout(layout) {
      // Spread first: a dual spread is only valid with vertical scrolling.
      if (layout.view === 'single') viewer.spreadMode = SpreadMode.NONE;
      viewer.scrollMode = scrollModes[layout.scroll];
      if (layout.view === 'dual') viewer.spreadMode = SpreadMode.ODD;
    },
    destroy() {
      abort.abort();
      viewer.setDocument(null);
      linkService.setDocument(null);
    },
  };
}

/** Attaches a loaded document to the viewer. */
export function showDocument(handle: ViewerHandle, pdf: PdfDocument): void {
  handle.viewer.setDocument(pdf);
  handle.viewer.linkService.setDocument(pdf);
}
