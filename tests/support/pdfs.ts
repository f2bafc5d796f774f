/** Real PDFs for tests: made with pdf-lib, encrypted with /usr/bin/qpdf. */
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';

/** A valid PDF of `pages` pages with a line of text on each; `padTo` grows it (in a stream) to about that many bytes. */
export async function makePdf(
  options: { pages?: number; title?: string; padTo?: number } = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  if (options.title) doc.setTitle(options.title);
  doc.setAuthor('Test Suite');
  for (let i = 1; i <= (options.pages ?? 1); i++) {
    doc.addPage([612, 792]).drawText(`Page ${i}`, { x: 72, y: 700, size: 18, font });
  }
  if (options.padTo) {
    // Incompressible random bytes in an unreferenced stream object: the size is real, the pages unchanged.
    const filler = new Uint8Array(options.padTo);
    for (let at = 0; at < filler.length; at += 65536) crypto.getRandomValues(filler.subarray(at, at + 65536));
    doc.context.register(doc.context.stream(filler));
  }
  return await doc.save({ useObjectStreams: false });
}

/**
 * A letter of several pages, each page's text drawn line by line as a word processor would; `language` is
 * the catalog's /Lang (the language the document declares). A page given no lines has no text at all, as a scan.
 */
export async function makeLetterPdf(
  pages: string[][],
  options: { language?: string; title?: string } = {},
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  if (options.title) doc.setTitle(options.title);
  if (options.language) doc.setLanguage(options.language);
  for (const lines of pages) {
    const page = doc.addPage([612, 792]);
    if (lines.length === 0) {
      // A grey box where a scan would have its picture: something drawn, no text.
      page.drawRectangle({ x: 72, y: 400, width: 468, height: 300, color: rgb(0.8, 0.8, 0.8) });
    }
    lines.forEach((line, at) => page.drawText(line, { x: 72, y: 700 - at * 24, size: 14, font }));
  }
  return await doc.save({ useObjectStreams: false });
}

/** Encrypts with qpdf (AES-256): `userPassword` '' opens without a password; printing is refused unless `print`. */
export async function encryptPdf(
  bytes: Uint8Array,
  options: { userPassword: string; print?: boolean },
): Promise<Uint8Array> {
  const dir = await Deno.makeTempDir({ prefix: 'lmp-pdf-' });
  try {
    await Deno.writeFile(`${dir}/in.pdf`, bytes);
    const args = ['--encrypt', options.userPassword, 'owner-secret', '256'];
    if (!options.print) args.push('--print=none');
    args.push('--', `${dir}/in.pdf`, `${dir}/out.pdf`);
    const result = await new Deno.Command('/usr/bin/qpdf', { args, stdout: 'null', stderr: 'piped' })
      .output();
    if (!result.success) throw new Error(`qpdf failed: ${new TextDecoder().decode(result.stderr)}`);
    return await Deno.readFile(`${dir}/out.pdf`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The SHA-256 of some bytes in hex. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as BufferSource);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A stream of the bytes in pieces of `piece` bytes (to exercise chunk boundaries). */
export function streamOf(bytes: Uint8Array, piece = 100_000): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + piece));
      at += piece;
    },
  });
}

/** `megabytes` MiB of the byte `fill`, deflated (zlib) as it streams: a few hundred KiB for hundreds of MiB. */
export async function deflatedFill(megabytes: number, fill = 0): Promise<Uint8Array> {
  const mib = new Uint8Array(1024 * 1024).fill(fill);
  let left = megabytes;
  const source = new ReadableStream<Uint8Array<ArrayBuffer>>({
    pull(controller) {
      if (left-- <= 0) return controller.close();
      controller.enqueue(mib);
    },
  });
  return new Uint8Array(
    await new Response(source.pipeThrough(new CompressionStream('deflate'))).arrayBuffer(),
  );
}

/**
 * An image bomb: a small file (under 1 MB) whose page paints one 16000×16000 grey image, deflated from
 * 244 MiB of zeros; decoded to RGBA it would take about 1 GB.
 */
export async function imageBombPdf(side = 16000): Promise<Uint8Array> {
  const { PDFName, pushGraphicsState, popGraphicsState, concatTransformationMatrix, drawObject } =
    await import(
      'pdf-lib'
    );
  const pixels = await deflatedFill(Math.ceil((side * side) / (1024 * 1024)));
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const image = doc.context.stream(pixels, {
    Type: 'XObject',
    Subtype: 'Image',
    Width: side,
    Height: side,
    ColorSpace: 'DeviceGray',
    BitsPerComponent: 8,
    Filter: 'FlateDecode',
  });
  page.node.setXObject(PDFName.of('Im1'), doc.context.register(image));
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(612, 0, 0, 792, 0, 0),
    drawObject('Im1'),
    popGraphicsState(),
  );
  return await doc.save({ useObjectStreams: false });
}

/** A decompression bomb: a page whose content stream inflates from about 1 MB to `megabytes` MiB of spaces. */
export async function decompressionBombPdf(megabytes = 1024): Promise<Uint8Array> {
  const { PDFName } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const content = doc.context.stream(await deflatedFill(megabytes, 0x20), { Filter: 'FlateDecode' });
  page.node.set(PDFName.of('Contents'), doc.context.register(content));
  return await doc.save({ useObjectStreams: false });
}
