/**
 * The isolated PDF inspector: runs in its own Deno process (see inspect.ts) with no
 * permissions, reads one PDF from stdin and prints one JSON line on stdout. A hostile
 * file can only burn this process's time and heap, which the parent bounds.
 *
 * pdfjs's worker module is imported statically and handed over as `globalThis.pdfjsWorker`,
 * so pdfjs runs its "fake worker" in this thread without a dynamic import: that is why no
 * --allow-read is needed (static imports are resolved by Deno before permissions apply).
 */
import * as pdfjsWorker from 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import { getDocument, PDFDateString } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PDFDocument, PDFName, PDFNumber, PDFRawStream } from 'pdf-lib';

(globalThis as any).pdfjsWorker = pdfjsWorker;

/** pdfjs's PermissionFlag.PRINT (PDF 32000-1, table 22, bit 3). */
const PRINT_FLAG = 0x04;
/**
 * 40 megapixels: a 600 dpi scan of a letter page is 34 MP; the viewer refuses the same (pwa/src/viewer).
 * The 16000×16000 image of a 747 KB image bomb is 256 MP.
 */
const MAX_IMAGE_PIXELS = 40_000_000;

/** Metadata strings are shown in the Info modal; a hostile file gets no more than this per field. */
const MAX_TEXT = 500;

/**
 * A metadata string as PostgreSQL's JSON column can keep it and a screen can show it: control characters (NUL among
 * them) become spaces, half of a surrogate pair becomes U+FFFD, and it is cut at MAX_TEXT characters, never inside
 * a pair. A title with a NUL, or one cut in the middle of an emoji, would make the upload a 500.
 */
function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const clean = value.toWellFormed().replace(/\p{Cc}/gu, ' ').trim();
  return clean ? Array.from(clean).slice(0, MAX_TEXT).join('').trim() : null;
}

function date(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const parsed = PDFDateString.toDateObject(value);
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed.toISOString() : null;
}

async function readStdin(): Promise<Uint8Array> {
  return new Uint8Array(await new Response(Deno.stdin.readable).arrayBuffer());
}

/**
 * True when an image XObject declares more than MAX_IMAGE_PIXELS. pdf.js drops such an image silently,
 * so the file is read with pdf-lib, which parses objects without decoding any stream. A file pdf-lib
 * cannot read is left to pdf.js to judge.
 */
async function hugeImage(data: Uint8Array): Promise<boolean> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(data, {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
    });
  } catch {
    return false;
  }
  const dimension = (value: unknown) => value instanceof PDFNumber ? value.asNumber() : 0;
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    if (object.dict.get(PDFName.of('Subtype')) !== PDFName.of('Image')) continue;
    const pixels = dimension(object.dict.get(PDFName.of('Width'))) *
      dimension(object.dict.get(PDFName.of('Height')));
    if (pixels > MAX_IMAGE_PIXELS) return true;
  }
  return false;
}

async function inspect(data: Uint8Array) {
  // A copy: pdf.js takes ownership of the buffer it is given.
  if (await hugeImage(data.slice())) return { ok: false, reason: 'too_complex' };
  const task = getDocument({
    data,
    // Gone from pdfjs 6's types (it no longer compiles code from fonts), kept for any build that still reads it.
    ...{ isEvalSupported: false },
    enableXfa: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    // pdf.js drops an image over MAX_IMAGE_PIXELS without decoding it (hugeImage below refuses the file).
    maxImageSize: MAX_IMAGE_PIXELS,
    isOffscreenCanvasSupported: false,
    stopAtErrors: true,
    verbosity: 0,
  });
  let doc;
  try {
    doc = await task.promise;
  } catch (error) {
    // Needs a user password: kept, with the spec's lock icon (0 pages) and no printing.
    if ((error as Error)?.name === 'PasswordException') {
      return { ok: true, pages: 0, encrypted: true, printAllowed: false, metadata: emptyMetadata() };
    }
    return { ok: false, reason: 'unreadable' };
  }
  try {
    const { info } = await doc.getMetadata() as { info: Record<string, unknown> };
    // null when the file sets no restrictions; a Set of PermissionFlag (an array in older pdfjs) otherwise.
    const permissions = await doc.getPermissions() as Set<number> | number[] | null;
    // Every page must load and its content must parse: a damaged file fails here, and a
    // bomb in a content stream runs into the parent's time or memory limit.
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      await page.getOperatorList();
      page.cleanup();
    }
    return {
      ok: true,
      pages: doc.numPages,
      encrypted: info.EncryptFilterName != null,
      printAllowed: permissions === null || [...permissions].includes(PRINT_FLAG),
      metadata: {
        title: text(info.Title),
        author: text(info.Author),
        subject: text(info.Subject),
        keywords: text(info.Keywords),
        creator: text(info.Creator),
        producer: text(info.Producer),
        creationDate: date(info.CreationDate),
        modDate: date(info.ModDate),
        pdfVersion: text(info.PDFFormatVersion),
      },
    };
  } catch {
    return { ok: false, reason: 'unreadable' };
  } finally {
    await task.destroy();
  }
}

function emptyMetadata() {
  return {
    title: null,
    author: null,
    subject: null,
    keywords: null,
    creator: null,
    producer: null,
    creationDate: null,
    modDate: null,
    pdfVersion: null,
  };
}

const result = await inspect(await readStdin());
await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(result) + '\n'));
Deno.exit(0);
