/**
 * The audit checkpoints in a bucket with Object Lock, on the run's Ceph gateway: each is an object under a
 * compliance-mode retention; deleting its version is refused (403); a delete marker does not hide it from
 * verification; a bucket without Object Lock refuses the checkpoint rather than keeping it unlocked.
 */
import assert from 'node:assert/strict';
import { AwsClient } from 'aws4fetch';
import { S3CheckpointStore } from '../../api/blobs/audit_checkpoint_store.ts';
import { S3ArchiveStore } from '../../api/blobs/audit_archive_store.ts';
import { archiveExpiredAuditRows } from '../../api/domain/audit_archive.ts';
import { signerFromSeed } from '../../api/domain/audit_signing.ts';
import { writeAuditCheckpoint } from '../../api/domain/audit_checkpoints.ts';
import { verifyAuditLog } from '../../api/domain/audit_verify.ts';
import { insert_audit_event } from '../../api/db/audit.ts';
import { createTestApp, DB_TEST, TEST_AUDIT_SEED, type TestApp } from '../support/app.ts';
import { createTestBucket, HAVE_S3, type TestBucket } from '../support/s3.ts';

const OPTIONS = { ...DB_TEST, ignore: !HAVE_S3 } as const;
let t: TestApp;
let locked: TestBucket;
const signer = await signerFromSeed(TEST_AUDIT_SEED, 'tests');

Deno.test({
  name: 's3: setup',
  ...OPTIONS,
  fn: async () => {
    t = await createTestApp({}, { demo: false });
    locked = await createTestBucket({ objectLock: true });
    for (let n = 0; n < 3; n++) {
      await insert_audit_event(t.deps.sql, {
        userId: null,
        eventType: 's3_checkpoint_test',
        resourceType: 'test',
        ipAddress: null,
        eventData: { n },
      });
    }
  },
});

Deno.test({
  name:
    's3: a checkpoint is an object under compliance-mode Object Lock; deleting its version is refused (403)',
  ...OPTIONS,
  fn: async () => {
    const store = new S3CheckpointStore(locked.client, locked.s3.prefix, 1);
    const result = await writeAuditCheckpoint({ sql: t.deps.sql, signer, store });
    assert.ok(result.written);
    const versions = [];
    for await (const v of locked.client.listObjectVersions(`${locked.s3.prefix}audit/checkpoints/`)) {
      versions.push(v);
    }
    assert.equal(versions.length, 1);
    const [{ key, versionId }] = versions;
    assert.equal(result.location, `s3://${locked.s3.bucket}/${key}`);
    const retention = await locked.client.getObjectRetention(key);
    assert.equal(retention?.mode, 'COMPLIANCE');
    assert.ok(retention!.retainUntil.getTime() > Date.now() + 23 * 3600_000);

    // The bucket owner's own key asks to delete that version: refused while the retention holds.
    const aws = new AwsClient({
      accessKeyId: locked.s3.accessKeyId,
      secretAccessKey: locked.s3.secretAccessKey,
      service: 's3',
      region: locked.s3.region,
      retries: 0,
    });
    const refused = await aws.fetch(locked.client.url(key, { versionId }), { method: 'DELETE' });
    assert.equal(refused.status, 403, await refused.text());
    // Nor can it be shortened to nothing.
    const shortened = await aws.fetch(locked.client.url(key, { retention: '' }), {
      method: 'PUT',
      body:
        `<Retention xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Mode>GOVERNANCE</Mode><RetainUntilDate>2020-01-01T00:00:00Z</RetainUntilDate></Retention>`,
    });
    assert.notEqual(shortened.status, 200, 'the retention was shortened');
    await shortened.body?.cancel();

    // A DELETE without a version only puts a delete marker in front: verification still reads the checkpoint.
    await locked.client.deleteObject(key);
    assert.equal(await locked.client.headObject(key), undefined);
    const listed = await store.list();
    assert.equal(listed.length, 1);
    const report = await verifyAuditLog(t.deps.sql, { stored: listed, trustedKeys: [signer.publicKey] });
    assert.ok(report.ok, report.message);
    assert.equal(report.checkpointsChecked, 1);
  },
});

Deno.test({
  name: 's3: a bucket without Object Lock refuses the checkpoint (it is never kept unlocked)',
  ...OPTIONS,
  fn: async () => {
    const plain = await createTestBucket();
    try {
      await insert_audit_event(t.deps.sql, {
        userId: null,
        eventType: 's3_checkpoint_test',
        resourceType: 'test',
        ipAddress: null,
      });
      const store = new S3CheckpointStore(plain.client, plain.s3.prefix, 1);
      await assert.rejects(() => writeAuditCheckpoint({ sql: t.deps.sql, signer, store }));
      assert.deepEqual(await store.list(), []);
    } finally {
      await plain.drop();
    }
  },
});

Deno.test({
  name: 's3: audit rows past retention go to locked archive objects, and verification reads them back',
  ...OPTIONS,
  fn: async () => {
    const store = new S3CheckpointStore(locked.client, locked.s3.prefix, 1);
    const archive = new S3ArchiveStore(locked.client, locked.s3.prefix, 1);
    await t.deps.sql`
      update settings set value = jsonb_set(value, '{value}', '365') where key = 'audit_retention_days'`;
    // The rows so far become 400 days old as far as the archive's clock is concerned.
    await t.deps
      .sql`insert into audit_logs (event_type, resource_type) values ('s3_checkpoint_test', 'test')`;
    await writeAuditCheckpoint({ sql: t.deps.sql, signer, store });
    const archived = await archiveExpiredAuditRows(
      { sql: t.deps.sql, signer, archive },
      { now: new Date(Date.now() + 400 * 86_400_000) },
    );
    assert.ok(archived > 0);
    const segments = await archive.list();
    assert.equal(segments.length, 1);
    const key = segments[0].location.replace(`s3://${locked.s3.bucket}/`, '');
    assert.equal((await locked.client.getObjectRetention(key))?.mode, 'COMPLIANCE');
    const report = await verifyAuditLog(t.deps.sql, {
      stored: await store.list(),
      segments,
      trustedKeys: [signer.publicKey],
    });
    assert.ok(report.ok, report.message);
  },
});

Deno.test({
  name: 's3: teardown',
  ...OPTIONS,
  fn: async () => {
    await locked.drop().catch(() => {});
    await t.close();
  },
});
