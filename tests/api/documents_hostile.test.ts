/**
 * Hostile PDFs: files crafted to exhaust the parser are refused within the inspector's time
 * limit, and the API keeps answering meanwhile (the parser runs in a separate process).
 */
import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { createDeflate } from 'node:zlib';
import { PDFDocument, PDFName } from 'pdf-lib';
import { DEFAULT_LIMITS, inspectPdf, MAX_WAITING } from '../../api/pdf/inspect.ts';
import { failureError } from '../../api/http/failures.ts';
import { fail } from '../../api/domain/outcome.ts';
import { createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { countDocuments, storedBlobs, upload } from '../support/documents.ts';
import { makePdf } from '../support/pdfs.ts';

let t: TestApp;
let attorney: string;

/** `repeat` copies of `piece`, deflated as a stream (the test never holds the inflated form). */
async function deflated(piece: string, repeat: number): Promise<Uint8Array> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const block = Buffer.from(piece.repeat(Math.ceil((1 << 20) / piece.length)));
  for (let i = 0; i < repeat; i++) {
    if (!deflate.write(block)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return new Uint8Array(Buffer.concat(out));
}

/** A one-page PDF whose content stream is `content`, already Flate-compressed. */
async function pdfWithContent(content: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([200, 200]);
  const bomb = doc.context.stream(content, { Filter: 'FlateDecode', Length: content.length });
  page.node.set(PDFName.of('Contents'), doc.context.register(bomb));
  return await doc.save({ useObjectStreams: false });
}

/** Uploads `file` while polling /api/health; returns the upload's answer, its duration and the slowest health answer. */
async function uploadWhileProbing(file: Uint8Array) {
  const started = Date.now();
  let slowest = 0;
  let probes = 0;
  let done = false;
  const probing = (async () => {
    while (!done) {
      const t0 = Date.now();
      const r = await t.app.request('/api/health');
      assert.equal(r.status, 200);
      await r.body?.cancel();
      slowest = Math.max(slowest, Date.now() - t0);
      probes++;
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const result = await upload(t, attorney, { file, recipient: '100001', title: 'Hostile' });
  done = true;
  await probing;
  return { result, elapsed: Date.now() - started, slowest, probes };
}

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    attorney = await signIn(t, ...DEMO.attorney);
  },
});

Deno.test({
  name: 'a decompression bomb in a content stream is refused in time while /api/health answers',
  ...DB_TEST,
  fn: async () => {
    // ~400 MB of path operators inflating from well under 1 MB: the operator list alone outgrows the child's heap.
    const bomb = await pdfWithContent(await deflated('0 0 m 1 1 l S\n', 400));
    assert.ok(bomb.length < 2 * 1024 * 1024, `bomb is ${bomb.length} bytes`);
    const before = await countDocuments(t);
    const { result, elapsed, slowest, probes } = await uploadWhileProbing(bomb);
    assert.equal(result.status, 422, JSON.stringify(result.body));
    assert.equal(result.body.message, 'The PDF is too complex to process safely.');
    console.log(
      `refused after ${elapsed} ms; /api/health answered ${probes} times meanwhile, slowest ${slowest} ms`,
    );
    assert.ok(probes >= 1, 'the API answered other requests while the inspector worked');
    assert.equal(await countDocuments(t), before);
  },
});

Deno.test({
  name: 'a deeply nested content stream is answered within the limit and the API survives',
  ...DB_TEST,
  fn: async () => {
    const depth = 2_000_000;
    const nested = await deflated('['.repeat(1000), depth / 1000);
    const file = await pdfWithContent(nested);
    const { result, elapsed } = await uploadWhileProbing(file);
    // pdf.js may shrug it off (an empty page), fail it (unreadable) or hit a limit (too complex): never a hang or a 500.
    assert.ok([201, 422].includes(result.status), JSON.stringify(result.body));
    if (result.status === 201) assert.equal(typeof result.body.document.pages, 'number');
    console.log(`answered after ${elapsed} ms`);
  },
});

Deno.test({
  name: 'the time limit kills a parse that runs too long',
  ...DB_TEST,
  fn: async () => {
    const bomb = await pdfWithContent(await deflated('0 0 m 1 1 l S\n', 400));
    // The heap is ample, so only the 300 ms limit can end this parse as too complex.
    const result = await inspectPdf(bomb, { ...DEFAULT_LIMITS, timeoutMs: 300, heapMb: 512 });
    assert.deepEqual(result, { ok: false, reason: 'too_complex' });
  },
});

Deno.test({
  name:
    'past two running and MAX_WAITING queued inspections, the next is refused at once as busy (503, Retry-After)',
  ...DB_TEST,
  fn: async () => {
    const slow = await pdfWithContent(await deflated('0 0 m 1 1 l S\n', 400));
    const limits = { ...DEFAULT_LIMITS, timeoutMs: 1000 };
    const held = Array.from({ length: 2 + MAX_WAITING }, () => inspectPdf(slow, limits));
    let settled = 0;
    for (const inspection of held) inspection.then(() => settled++);
    assert.deepEqual(await inspectPdf(slow, limits), { ok: false, reason: 'busy' });
    assert.equal(settled, 0, 'refused before any slot was freed, not after waiting for one');
    for (const result of await Promise.all(held)) {
      assert.deepEqual(result, { ok: false, reason: 'too_complex' });
    }
    const error = failureError(fail('upload_busy'));
    assert.equal(error.status, 503);
    assert.equal(error.retryAfterSeconds, 30);
  },
});

Deno.test({
  name: 'text PostgreSQL cannot store is a 400 in the form and made storable in the PDF, never a 500',
  ...DB_TEST,
  fn: async () => {
    // Each of these must be a 400, not a 500 after the blob was written. (A form carries no half
    // surrogate pair: the browser sends UTF-8, and U+FFFD for one.)
    const file = await makePdf({ pages: 1 });
    const before = { documents: await countDocuments(t), blobs: (await storedBlobs(t)).length };
    for (
      const [fields, field] of [
        [{ title: 'a\u0000b' }, 'title'],
        [{ description: 'a\u0000b' }, 'description'],
        [{ recipient: '1000\u00001' }, 'recipient_doc_number'],
      ] as const
    ) {
      const r = await upload(t, attorney, { file, recipient: '100001', title: 'Letter', ...fields });
      assert.deepEqual([r.status, r.body.message], [
        400,
        `${field} contains a character that is not allowed.`,
      ]);
    }
    assert.deepEqual(
      { documents: await countDocuments(t), blobs: (await storedBlobs(t)).length },
      before,
      'nothing stored',
    );
    for (const title of ['evil\u0000title', `${'a'.repeat(499)}😀 and more`]) {
      const r = await upload(t, attorney, {
        file: await makePdf({ title }),
        recipient: '100001',
        title: 'Letter',
      });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      const [row] = await t.deps.sql<{ metadata: { title: string } }[]>`
        select metadata from documents where id = ${r.body.document.documentid}`;
      assert.ok(!row.metadata.title.includes('\u0000'));
      assert.equal(row.metadata.title, row.metadata.title.toWellFormed());
    }
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
