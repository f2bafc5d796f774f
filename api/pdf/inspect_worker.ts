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

(globalThis as any).pdfjsWorker = pdfjsWorker;

/** pdfjs's PermissionFlag.PRINT (PDF 32000-1, table 22, bit 3). */
const PRINT_FLAG = 0x04;
/** Metadata strings are shown in the Info modal; a hostile file gets no more than this per field. */
const MAX_TEXT = 500;

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim().slice(0, MAX_TEXT) : null;
}

function date(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const parsed = PDFDateString.toDateObject(value);
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed.toISOString() : null;
}

async function readStdin(): Promise<Uint8Array> {
  return new Uint8Array(await new Response(Deno.stdin.readable).arrayBuffer());
}

async function inspect(data: Uint8Array) {
  const task = getDocument({
    data,
    // Gone from pdfjs 6's types (it no longer compiles code from fonts), kept for any build that still reads it.
    ...{ isEvalSupported: false },
    enableXfa: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
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
