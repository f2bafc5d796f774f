/**
 * The embedded installation (PGlite under DATA_DIR) as an operator starts it, with the fs store and with the
 * postgres store: after a PDF is uploaded and read back (whole, and a range across segments), no file anywhere
 * under DATA_DIR (the database's own files included) holds 48 bytes of it in a row.
 */
import assert from 'node:assert/strict';
import { SEGMENT_SIZE } from '../../api/blobs/stream_seal.ts';
import { type Instance, signInAt, startInstance } from '../support/instance.ts';
import { makePdf } from '../support/pdfs.ts';
import { filesHolding } from '../support/plaintext.ts';

for (const store of ['fs', 'postgres'] as const) {
  Deno.test({
    name:
      `embedded database, BLOB_STORE=${store}: no file under DATA_DIR holds 48 bytes of an uploaded PDF; it reads back exactly`,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      const dataDir = await Deno.makeTempDir({ prefix: `lmp-sealed-${store}-` });
      let portal: Instance | undefined;
      try {
        portal = await startInstance({ DATA_DIR: dataDir, PWA_DIST: `${dataDir}/no-pwa`, BLOB_STORE: store });
        const pdf = await makePdf({ pages: 2, title: 'At rest', padTo: 3 * SEGMENT_SIZE + 1000 });
        const attorney = await signInAt(portal.url, 'attorney@demo.test', 'Demo-Attorney-2026!');
        const form = new FormData();
        form.set('file', new File([pdf as BlobPart], 'letter.pdf', { type: 'application/pdf' }));
        form.set('recipient_doc_number', '100001');
        form.set('title', 'At rest');
        const up = await fetch(`${portal.url}/api/documents/upload`, {
          method: 'POST',
          headers: { authorization: `Bearer ${attorney}` },
          body: form,
        });
        const body = await up.json();
        assert.equal(up.status, 201, JSON.stringify(body));
        const headers = { authorization: `Bearer ${await signInAt(portal.url, '100001', '246810')}` };
        const path = `${portal.url}/api/documents/view/${body.document.documentid}`;
        const whole = await fetch(path, { headers });
        assert.deepEqual(new Uint8Array(await whole.arrayBuffer()), pdf);
        const [start, end] = [SEGMENT_SIZE - 100, 2 * SEGMENT_SIZE + 100];
        const part = await fetch(path, { headers: { ...headers, range: `bytes=${start}-${end}` } });
        assert.equal(part.status, 206);
        assert.deepEqual(new Uint8Array(await part.arrayBuffer()), pdf.subarray(start, end + 1));
        // Stopped, so the database's files are written out (its checkpoint at shutdown) before they are searched.
        assert.equal(await portal.stop(), 0);
        portal = undefined;
        assert.deepEqual(await filesHolding(dataDir, pdf), [], 'plaintext under DATA_DIR');
      } finally {
        await portal?.stop();
        await Deno.remove(dataDir, { recursive: true }).catch(() => {});
      }
    },
  });
}
