/**
 * View and Print open the document in an 800x800 pop-up (spec sections 2, 7,
 * 9). View shows a spinner first and moves to the viewer after 1.5 s. Print
 * opens the viewer with ?print=1: the viewer reads GET /api/documents/print/{id},
 * checks the PDF's print permission and calls window.print() 500 ms after the
 * pages are ready (a decision: a raw blob window would bypass that check).
 */
import { t } from 'i18next';

/** Spec section 9. */
export const POPUP_FEATURES = 'width=800,height=800';
export const VIEW_DELAY_MS = 1500;

/** In the language shown, read when shown. */
export const POPUP_TEXTS = {
  get blocked() {
    return t('popup.blocked');
  },
  get failed() {
    return t('popup.failed');
  },
  get printOpening() {
    return t('popup.printOpening');
  },
  get printBlocked() {
    return t('popup.printBlocked');
  },
};

/** What a viewer pop-up tells the window that opened it when its Close (or Escape) closes it. */
export const VIEWER_CLOSED = 'viewer-closed';

export interface ViewerClosedMessage {
  type: typeof VIEWER_CLOSED;
  documentId: string;
}

/** The control that opened each document's pop-up (View or Print), to be focused again when it closes. */
const openedBy = new Map<string, HTMLElement>();

/**
 * Focus goes back to the button that opened the pop-up, so a keyboard or screen-reader user is where they left
 * the list. The browser brings the opening window forward when the pop-up closes; the list may have redrawn
 * meanwhile, so the button is looked up again when the one remembered has left the page.
 */
function onViewerClosed(event: MessageEvent): void {
  const message = event.data as Partial<ViewerClosedMessage> | null;
  if (event.origin !== location.origin || message?.type !== VIEWER_CLOSED || !message.documentId) return;
  const trigger = openedBy.get(message.documentId);
  openedBy.delete(message.documentId);
  const again = document.querySelector<HTMLElement>(
    `[data-opens-document="${CSS.escape(message.documentId)}"]`,
  );
  (trigger?.isConnected ? trigger : again)?.focus();
}

function rememberOpener(documentId: string): void {
  if (openedBy.size === 0) window.addEventListener('message', onViewerClosed);
  if (document.activeElement instanceof HTMLElement) openedBy.set(documentId, document.activeElement);
}

/** The viewer's address for a document. */
export function viewerPath(documentId: string, print = false): string {
  return `/pdfViewer/${encodeURIComponent(documentId)}${print ? '?print=1' : ''}`;
}

export interface PopupNotice {
  success(text: string): void;
  error(text: string): void;
}

/** A spinner and 'Loading document...' in the empty pop-up until the viewer takes over. */
function showSpinner(popup: Window): void {
  const doc = popup.document;
  doc.title = 'Loading document...';
  const style = doc.createElement('style');
  style.textContent = `
    body { margin: 0; height: 100vh; display: flex; flex-direction: column; align-items: center;
      justify-content: center; gap: 16px; font-family: system-ui, sans-serif; color: #1f2937; }
    .spinner { width: 48px; height: 48px; border: 5px solid #d6dde8; border-top-color: #1f4e8c;
      border-radius: 50%; animation: spin 0.9s linear infinite; }
    @keyframes spin { to { transform: rotate(360deg); } }`;
  doc.head.append(style);
  const spinner = doc.createElement('div');
  spinner.className = 'spinner';
  spinner.setAttribute('role', 'status');
  spinner.setAttribute('aria-label', 'Loading document...');
  const label = doc.createElement('p');
  label.textContent = 'Loading document...';
  doc.body.replaceChildren(spinner, label);
}

/** View: the spinner pop-up, then the viewer after 1.5 s. */
export function openViewerPopup(documentId: string, notice: PopupNotice): void {
  let popup: Window | null;
  try {
    popup = window.open('', `document-${documentId}`, POPUP_FEATURES);
  } catch {
    notice.error(POPUP_TEXTS.failed);
    return;
  }
  if (!popup) {
    notice.error(POPUP_TEXTS.blocked);
    return;
  }
  rememberOpener(documentId);
  try {
    showSpinner(popup);
    const target = popup;
    window.setTimeout(() => {
      if (!target.closed) target.location.href = new URL(viewerPath(documentId), location.origin).href;
    }, VIEW_DELAY_MS);
  } catch {
    notice.error(POPUP_TEXTS.failed);
  }
}

/** Print: the viewer pop-up in print mode (see the file comment). */
export function openPrintPopup(documentId: string, notice: PopupNotice): void {
  let popup: Window | null = null;
  try {
    popup = window.open(viewerPath(documentId, true), `print-${documentId}`, POPUP_FEATURES);
  } catch {
    popup = null;
  }
  if (!popup) {
    notice.error(POPUP_TEXTS.printBlocked);
    return;
  }
  rememberOpener(documentId);
  notice.success(POPUP_TEXTS.printOpening);
}
