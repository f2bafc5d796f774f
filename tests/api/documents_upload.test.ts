/** Uploading: the form's rules, PDF by bytes, the size limit as it streams, encrypted files, nothing left on failure. */
import assert from 'node:assert/strict';
import { createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { countDocuments, setNumberSetting, storedBlobs, upload } from '../support/documents.ts';
import { makeUser } from '../support/factories.ts';
import { encryptPdf, makePdf, sha256Hex } from '../support/pdfs.ts';

let t: TestApp;
let attorney: string;
let representative: string;
let pdf: Uint8Array;

Deno.test({
  name: 'setup',
  ...DB_TEST,
  fn: async () => {
    t = await createTestApp();
    attorney = await signIn(t, ...DEMO.attorney);
    representative = await signIn(t, ...DEMO.representative);
    pdf = await makePdf({ pages: 3, title: 'Hearing notes' });
  },
});

Deno.test({
  name: 'an attorney uploads a PDF: 201, pages, SHA-256, metadata, audited',
  ...DB_TEST,
  fn: async () => {
    const r = await upload(t, attorney, {
      file: pdf,
      recipient: '100001',
      title: '  Hearing notes  ',
      description: 'Read me',
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(r.body.message, 'Document uploaded successfully!');
    const d = r.body.document;
    assert.equal(d.name, 'Hearing notes');
    assert.equal(d.pages, 3);
    assert.equal(d.sha256, await sha256Hex(pdf));
    assert.equal(d.size, pdf.length);
    assert.equal(d.encrypted, false);
    assert.equal(d.print_allowed, true);
    assert.equal(d.metadata.title, 'Hearing notes');
    assert.equal(d.metadata.pdfVersion, '1.7');
    assert.equal(d.file_name, 'letter.pdf');
    const [audit] = await t.deps
      .sql`select user_id, resource_id from audit_logs where event_type = 'document_uploaded'`;
    assert.equal(audit.resource_id, d.documentid);
  },
});

Deno.test({
  name: 'a representative uploads through /api/representative/upload',
  ...DB_TEST,
  fn: async () => {
    const r = await upload(
      t,
      representative,
      { file: pdf, recipient: '100002', title: 'Visit' },
      '/api/representative/upload',
    );
    assert.equal(r.status, 201, JSON.stringify(r.body));
  },
});

Deno.test({
  name: 'missing fields, a long title and an unknown or inactive DOC number are 400s',
  ...DB_TEST,
  fn: async () => {
    const before = await countDocuments(t);
    const required = 'Please fill in all required fields';
    assert.deepEqual((await upload(t, attorney, { recipient: '100001', title: 'x' })).body.message, required);
    assert.equal((await upload(t, attorney, { file: pdf, title: 'x' })).body.message, required);
    assert.equal(
      (await upload(t, attorney, { file: pdf, recipient: '100001', title: '   ' })).body.message,
      required,
    );
    const long = await upload(t, attorney, { file: pdf, recipient: '100001', title: 'x'.repeat(201) });
    assert.equal(long.status, 400);
    assert.equal(long.body.message, 'Document title must be at most 200 characters.');
    const unknown = await upload(t, attorney, { file: pdf, recipient: '999999', title: 'x' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.message, 'No active offender has DOC number 999999.');
    const gone = await makeUser(t, { role: 'offender', status: 'deactivated' });
    assert.equal(
      (await upload(t, attorney, { file: pdf, recipient: gone.username, title: 'x' })).status,
      400,
    );
    assert.equal(await countDocuments(t), before);
  },
});

Deno.test({
  name: 'a body that is not multipart is a 400, never a 500',
  ...DB_TEST,
  fn: async () => {
    for (
      const [type, body] of [['application/json', '{}'], ['multipart/form-data; boundary=x', 'garbage'], [
        '',
        '',
      ]]
    ) {
      const r = await t.app.request('/api/documents/upload', {
        method: 'POST',
        headers: { authorization: `Bearer ${attorney}`, 'content-type': type },
        body,
      });
      assert.equal(r.status, 400, `${type}: ${r.status}`);
      assert.equal((await r.json()).success, false);
    }
  },
});

Deno.test({
  name: 'a non-PDF is 415 whatever its name; a truncated PDF is 422; nothing is stored',
  ...DB_TEST,
  fn: async () => {
    const before = await countDocuments(t);
    const blobs = await storedBlobs(t);
    const text = await upload(t, attorney, {
      file: 'Just some text, honestly.',
      fileName: 'a.pdf',
      recipient: '100001',
      title: 'x',
    });
    assert.equal(text.status, 415);
    assert.equal(text.body.message, 'The file is not a PDF.');
    const png = await upload(t, attorney, {
      file: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
      recipient: '100001',
      title: 'x',
    });
    assert.equal(png.status, 415);
    const big = await makePdf({ pages: 2, padTo: 50_000 });
    const truncated = await upload(t, attorney, {
      file: big.subarray(0, big.length >> 1),
      recipient: '100001',
      title: 'x',
    });
    assert.equal(truncated.status, 422);
    assert.equal(truncated.body.message, 'The PDF could not be read. It may be damaged or incomplete.');
    // Complete-looking tail, garbage body: the parser itself refuses it.
    const fake = new TextEncoder().encode('%PDF-1.7\nnot really a pdf\n%%EOF\n');
    assert.equal((await upload(t, attorney, { file: fake, recipient: '100001', title: 'x' })).status, 422);
    assert.equal(await countDocuments(t), before);
    assert.deepEqual(await storedBlobs(t), blobs);
  },
});

Deno.test({
  name: 'an 11 MB PDF is 413 with the limit in the message, and nothing is stored',
  ...DB_TEST,
  fn: async () => {
    const before = await countDocuments(t);
    const blobs = await storedBlobs(t);
    const huge = await makePdf({ pages: 1, padTo: 11 * 1024 * 1024 });
    const r = await upload(t, attorney, { file: huge, recipient: '100001', title: 'Too big' });
    assert.equal(r.status, 413);
    assert.equal(r.body.message, 'The file is larger than the 10 MB limit.');
    assert.equal(await countDocuments(t), before);
    assert.deepEqual(await storedBlobs(t), blobs);
  },
});

Deno.test({
  name: 'a Content-Length over the limit is refused before the body is read',
  ...DB_TEST,
  fn: async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(65536));
      },
    });
    const r = await t.app.request('/api/documents/upload', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${attorney}`,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(50 * 1024 * 1024),
      },
      body,
      duplex: 'half',
    } as RequestInit);
    assert.equal(r.status, 413);
    await r.body?.cancel();
    assert.ok(pulled <= 2, `read ${pulled} chunks of a body it should have refused`);
  },
});

Deno.test({
  name: 'a body without Content-Length is cut off as soon as it passes the limit',
  ...DB_TEST,
  fn: async () => {
    let sent = 0;
    // A well-formed opening and file part, then zeros: only the byte limit can stop it.
    const head = new TextEncoder().encode(
      '--x\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n\r\n%PDF-1.7\n',
    );
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) {
          sent += head.length;
          return controller.enqueue(head);
        }
        sent += 65536;
        if (sent > 100 * 1024 * 1024) return controller.close();
        controller.enqueue(new Uint8Array(65536));
      },
    });
    const r = await t.app.request('/api/documents/upload', {
      method: 'POST',
      headers: { authorization: `Bearer ${attorney}`, 'content-type': 'multipart/form-data; boundary=x' },
      body,
      duplex: 'half',
    } as RequestInit);
    assert.equal(r.status, 413);
    await r.body?.cancel();
    assert.ok(sent < 12 * 1024 * 1024, `read ${sent} bytes`);
  },
});

Deno.test({
  name: 'max_upload_mb changed in the settings table takes effect at once',
  ...DB_TEST,
  fn: async () => {
    const twoMb = await makePdf({ pages: 1, padTo: 2 * 1024 * 1024 });
    await setNumberSetting(t, 'max_upload_mb', 1);
    try {
      const r = await upload(t, attorney, { file: twoMb, recipient: '100001', title: 'Two MB' });
      assert.equal(r.status, 413);
      assert.equal(r.body.message, 'The file is larger than the 1 MB limit.');
      const cfg = await t.app.request('/api/config');
      assert.equal((await cfg.json()).data.maxUploadMb, 1);
    } finally {
      await setNumberSetting(t, 'max_upload_mb', 10);
    }
    assert.equal(
      (await upload(t, attorney, { file: twoMb, recipient: '100001', title: 'Two MB' })).status,
      201,
    );
  },
});

Deno.test({
  name: 'an encrypted PDF with printing disallowed is accepted with print_allowed false',
  ...DB_TEST,
  fn: async () => {
    const open = await encryptPdf(pdf, { userPassword: '' });
    const r = await upload(t, attorney, { file: open, recipient: '100001', title: 'No printing' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(r.body.document.encrypted, true);
    assert.equal(r.body.document.print_allowed, false);
    assert.equal(r.body.document.pages, 3);
    const locked = await encryptPdf(pdf, { userPassword: 'secret' });
    const l = await upload(t, attorney, { file: locked, recipient: '100001', title: 'Locked' });
    assert.equal(l.status, 201, JSON.stringify(l.body));
    assert.equal(l.body.document.pages, 0, 'the lock icon: pages cannot be counted without the password');
    assert.equal(l.body.document.encrypted, true);
    assert.equal(l.body.document.print_allowed, false);
  },
});

Deno.test({
  name: 'an upload cut off mid-body leaves nothing behind, and the server keeps answering',
  ...DB_TEST,
  fn: async () => {
    const before = await countDocuments(t);
    const blobs = await storedBlobs(t);
    const server = Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: () => {} }, t.app.fetch);
    try {
      const conn = await Deno.connect({ hostname: '127.0.0.1', port: server.addr.port });
      const boundary = 'cutoff';
      const head =
        `--${boundary}\r\nContent-Disposition: form-data; name="recipient_doc_number"\r\n\r\n100001\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nCut off\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="c.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
      const partial = new TextEncoder().encode(head + new TextDecoder().decode(pdf.subarray(0, 600)));
      const request =
        `POST /api/documents/upload HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${attorney}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${
          partial.length + 500_000
        }\r\n\r\n`;
      await conn.write(new TextEncoder().encode(request));
      await conn.write(partial);
      await new Promise((r) => setTimeout(r, 300));
      conn.close();
      await new Promise((r) => setTimeout(r, 500));
      const health = await fetch(`http://127.0.0.1:${server.addr.port}/api/health`);
      assert.equal(health.status, 200);
      await health.body?.cancel();
    } finally {
      await server.shutdown();
    }
    assert.equal(await countDocuments(t), before);
    assert.deepEqual(await storedBlobs(t), blobs);
  },
});

Deno.test({
  name: 'teardown',
  ...DB_TEST,
  fn: async () => {
    await t.close();
  },
});
