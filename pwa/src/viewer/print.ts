/**
 * Printing from the viewer (spec sections 2 and 9): the chosen pages are drawn
 * at 150 DPI into images inside a container that only the printer sees
 * (viewer.css hides the app under @media print), then the browser's print
 * dialog opens. Printing the PDF itself through a frame would hand the bytes
 * to the browser's own viewer, with its download button.
 */
import { AnnotationMode } from 'pdfjs-dist';
import { type PdfDocument, PermissionFlag } from './engine.ts';

/** Spec section 9: print resolution scale 150/72 (150 DPI over PDF's 72 units per inch). */
export const PRINT_SCALE = 150 / 72;

/** Spec section 9: the print dialog opens 500 ms after the document is ready (auto-print). */
export const AUTO_PRINT_DELAY_MS = 500;

/** The class of the container that holds the rendered pages while printing. */
export const PRINT_CONTAINER_CLASS = 'viewer-print-container';

/** Whether the document's permissions allow printing (null: no restrictions). */
export async function printAllowed(pdf: PdfDocument): Promise<boolean> {
  const permissions = await pdf.getPermissions();
  return permissions === null || permissions.has(PermissionFlag.PRINT);
}

export interface PreparedPrint {
  /** Opens the print dialog; the rendered pages are removed after printing. */
  print(): void;
  /** Removes the rendered pages without printing. */
  discard(): void;
}

let pending: PreparedPrint | null = null;

/** Removes rendered pages still waiting for the printer (the viewer is closing). */
export function discardPendingPrint(): void {
  pending?.discard();
}

function canvasBlob(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The page could not be drawn.'))),
      'image/png',
    )
  );
}

/**
 * Renders `pages` (1-based) for printing. `onProgress` is told after each
 * page; an aborted `signal` stops between pages and removes what was drawn.
 */
export async function preparePrint(
  pdf: PdfDocument,
  pages: number[],
  options: { onProgress?(done: number, total: number): void; signal?: AbortSignal } = {},
): Promise<PreparedPrint> {
  pending?.discard();
  const container = document.createElement('div');
  container.className = PRINT_CONTAINER_CLASS;
  container.setAttribute('aria-hidden', 'true');
  const pageStyle = document.createElement('style');
  const urls: string[] = [];
  let done = false;
  const discard = () => {
    if (done) return;
    done = true;
    container.remove();
    pageStyle.remove();
    for (const url of urls) URL.revokeObjectURL(url);
    if (pending === job) pending = null;
  };
  const job: PreparedPrint = {
    discard,
    print() {
      window.addEventListener('afterprint', discard, { once: true });
      window.print();
    },
  };
  pending = job;
  try {
    for (const [index, number] of pages.entries()) {
      if (options.signal?.aborted) throw new DOMException('Printing was cancelled.', 'AbortError');
      const page = await pdf.getPage(number);
      const viewport = page.getViewport({ scale: PRINT_SCALE });
      if (index === 0) {
        // The paper follows the first page's size; the images fill it edge to edge.
        const { width, height } = page.getViewport({ scale: 1 });
        pageStyle.textContent = `@page { size: ${width}pt ${height}pt; margin: 0; }`;
      }
      const canvas = document.createElement('canvas');
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      await page.render({ canvas, viewport, intent: 'print', annotationMode: AnnotationMode.ENABLE }).promise;
      const url = URL.createObjectURL(await canvasBlob(canvas));
      urls.push(url);
      canvas.width = canvas.height = 0;
      page.cleanup();
      const wrapper = document.createElement('div');
      wrapper.className = 'viewer-print-page';
      const image = document.createElement('img');
      image.alt = `Page ${number}`;
      image.src = url;
      wrapper.append(image);
      container.append(wrapper);
      await image.decode().catch(() => {});
      options.onProgress?.(index + 1, pages.length);
    }
  } catch (error) {
    discard();
    throw error;
  }
  document.head.append(pageStyle);
  document.body.append(container);
  return job;
}
