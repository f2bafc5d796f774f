/** Retention: the setting applies at once; the purge deletes expired documents (audited), then their bytes. */
import assert from 'node:assert/strict';
import { purgeExpiredDocuments } from '../../api/domain/retention.ts';
import { createTestApp, DB_TEST, DEMO, signIn, type TestApp } from '../support/app.ts';
import { countDocuments, setNumberSetting, storedBlobs, upload } from '../support/documents.ts';
import { makePdf } from '../support/pdfs.ts';

for (const backend of ['fs', 'postgres'] as const) {
  let t: TestApp;
  let attorney: string;
  let offender: string;

  Deno.test({
    name: `${backend}: setup`,
    ...DB_TEST,
    fn: async () => {
      t = await createTestApp({ BLOB_STORE: backend });
      attorney = await signIn(t, ...DEMO.attorney);
      offender = await signIn(t, ...DEMO.offender);
    },
  });

  Deno.test({
    name: `${backend}: document_retention_days changed in the settings table takes effect at once`,
    ...DB_TEST,
    fn: async () => {
      const r = await upload(t, attorney, {
        file: await makePdf(),
        recipient: '100001',
        title: 'Short-lived',
      });
      const list = async () =>
        (await (await t.app.request('/api/documents/offender/100001', {
          headers: { authorization: `Bearer ${offender}` },
        })).json()).documents;
      const [row] = await list();
      assert.equal(new Date(row.deletedate).getTime() - new Date(row.date).getTime(), 90 * 86400_000);
      await setNumberSetting(t, 'document_retention_days', 30);
      const [later] = await list();
      assert.equal(new Date(later.deletedate).getTime() - new Date(later.date).getTime(), 30 * 86400_000);
      await setNumberSetting(t, 'document_retention_days', 0);
      assert.deepEqual(await list(), [], 'an expired document is never listed');
      await setNumberSetting(t, 'document_retention_days', 90);
      assert.equal((await list()).length, 1);
      // Gone by other means: its bytes are now an orphan the next collection removes.
      await t.deps.sql`delete from documents where id = ${r.body.document.documentid}`;
      assert.deepEqual(await purgeExpiredDocuments(t.deps, { blobGraceMs: 0 }), { documents: 0, blobs: 1 });
    },
  });

  Deno.test({
    name: `${backend}: the purge removes expired documents, then their bytes once nothing refers to them`,
    ...DB_TEST,
    fn: async () => {
      const shared = await makePdf({ pages: 2, title: 'Shared bytes' });
      const own = await makePdf({ pages: 1, title: 'Own bytes' });
      const a =
        (await upload(t, attorney, { file: shared, recipient: '100001', title: 'Old copy' })).body.document;
      const b =
        (await upload(t, attorney, { file: shared, recipient: '100002', title: 'New copy' })).body.document;
      const c =
        (await upload(t, attorney, { file: own, recipient: '100001', title: 'Old own' })).body.document;
      await t.deps
        .sql`update documents set uploaded_at = now() - interval '91 days' where id in (${a.documentid}, ${c.documentid})`;
      const auditsBefore = (await t.deps.sql`select count(*)::int as n from audit_logs`)[0].n;

      const first = await purgeExpiredDocuments(t.deps, { blobGraceMs: 0 });
      assert.deepEqual(first, { documents: 2, blobs: 1 });
      assert.equal(await countDocuments(t), 1);
      assert.deepEqual(
        await storedBlobs(t),
        [b.sha256],
        'the shared bytes stay while a document refers to them',
      );
      const deleted = await t.deps
        .sql`select user_id, resource_id from audit_logs where event_type = 'document_deleted' order by id`;
      assert.deepEqual(deleted.map((r) => r.resource_id).sort(), [a.documentid, c.documentid].sort());
      assert.ok(deleted.every((r) => r.user_id === null));
      const auditsAfter = (await t.deps.sql`select count(*)::int as n from audit_logs`)[0].n;
      assert.equal(auditsAfter, auditsBefore + 2, 'the audit log only grows');
      assert.equal(
        (await t.app.request(`/api/documents/view/${a.documentid}`, {
          headers: { authorization: `Bearer ${offender}` },
        })).status,
        404,
      );

      await t.deps
        .sql`update documents set uploaded_at = now() - interval '91 days' where id = ${b.documentid}`;
      assert.deepEqual(await purgeExpiredDocuments(t.deps, { blobGraceMs: 0 }), { documents: 1, blobs: 1 });
      assert.deepEqual(await storedBlobs(t), []);
    },
  });

  Deno.test({
    name: `${backend}: a fresh blob without a row (an upload about to commit) is spared by the grace period`,
    ...DB_TEST,
    fn: async () => {
      const orphan = await t.deps.blobs.put(new Blob([await makePdf() as BlobPart]).stream());
      assert.deepEqual(await purgeExpiredDocuments(t.deps), { documents: 0, blobs: 0 });
      assert.deepEqual(await storedBlobs(t), [orphan.sha256]);
      assert.deepEqual(await purgeExpiredDocuments(t.deps, { blobGraceMs: 0 }), { documents: 0, blobs: 1 });
    },
  });

  Deno.test({
    name: `${backend}: teardown`,
    ...DB_TEST,
    fn: async () => {
      await t.close();
    },
  });
}
