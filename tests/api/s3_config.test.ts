/** BLOB_STORE=s3's settings, parsed once in api/config.ts: what is required, what defaults, what is refused. */
import assert from 'node:assert/strict';
import { loadConfig } from '../../api/config.ts';

const S3 = {
  BLOB_STORE: 's3',
  S3_ENDPOINT: 'https://objects.doc.example',
  S3_BUCKET: 'legal-mail',
  S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
  S3_SECRET_ACCESS_KEY: 'secret-example',
};

Deno.test('BLOB_STORE=s3 reads its settings; region us-east-1, path-style and no prefix by default', () => {
  const config = loadConfig(S3);
  assert.equal(config.blobStore, 's3');
  assert.deepEqual(config.s3, {
    endpoint: 'https://objects.doc.example',
    region: 'us-east-1',
    bucket: 'legal-mail',
    accessKeyId: 'AKIAEXAMPLE',
    secretAccessKey: 'secret-example',
    forcePathStyle: true,
    prefix: '',
  });
});

Deno.test('S3_PREFIX becomes a folder; S3_FORCE_PATH_STYLE=false and S3_REGION are kept', () => {
  for (
    const [prefix, folder] of [['portal', 'portal/'], ['/portal/', 'portal/'], ['a/b', 'a/b/'], ['/', '']]
  ) {
    assert.equal(loadConfig({ ...S3, S3_PREFIX: prefix }).s3?.prefix, folder, prefix);
  }
  const aws = loadConfig({ ...S3, S3_FORCE_PATH_STYLE: 'false', S3_REGION: 'us-gov-west-1' }).s3;
  assert.equal(aws?.forcePathStyle, false);
  assert.equal(aws?.region, 'us-gov-west-1');
});

Deno.test('BLOB_STORE=s3 without its endpoint, bucket or keys is refused, naming what is missing', () => {
  assert.throws(
    () => loadConfig({ BLOB_STORE: 's3' }),
    /BLOB_STORE=s3 needs S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY/,
  );
  assert.throws(() => loadConfig({ ...S3, S3_SECRET_ACCESS_KEY: '' }), /needs S3_SECRET_ACCESS_KEY/);
});

Deno.test('a malformed endpoint, bucket, prefix or path-style flag is refused with the rule', () => {
  assert.throws(
    () => loadConfig({ ...S3, S3_ENDPOINT: 'objects.doc.example' }),
    /S3_ENDPOINT must be an http/,
  );
  assert.throws(() => loadConfig({ ...S3, S3_BUCKET: 'Legal_Mail' }), /S3_BUCKET must be a bucket name/);
  assert.throws(() => loadConfig({ ...S3, S3_PREFIX: 'a b' }), /S3_PREFIX may hold/);
  assert.throws(
    () => loadConfig({ ...S3, S3_FORCE_PATH_STYLE: 'yes' }),
    /S3_FORCE_PATH_STYLE must be true or false/,
  );
  assert.throws(() => loadConfig({ BLOB_STORE: 'minio' }), /BLOB_STORE must be 'fs', 'postgres' or 's3'/);
});

Deno.test('other stores ignore the S3 settings; BLOB_OFFLOAD=nginx is refused with s3', () => {
  assert.equal(loadConfig({ S3_BUCKET: 'legal-mail' }).s3, undefined);
  assert.throws(() => loadConfig({ ...S3, BLOB_OFFLOAD: 'nginx' }), /BLOB_OFFLOAD=nginx needs BLOB_STORE=fs/);
});
