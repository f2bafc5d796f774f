/** On Deno Deploy (DENO_DEPLOYMENT_ID set) the API refuses state that would live on an instance's throwaway disk. */
import assert from 'node:assert/strict';
import { loadConfig } from '../../api/config.ts';
import { ROOT, run } from './helpers.ts';

const SECRET = 'x'.repeat(40);
const DEPLOY = {
  DENO_DEPLOYMENT_ID: 'abc123',
  SESSION_SECRET: SECRET,
  PIN_PEPPER: SECRET,
  MFA_SECRET_KEY: SECRET,
  BLOB_KEY: SECRET,
};

Deno.test('deno deploy: the embedded database is refused with a message naming DATABASE_URL', () => {
  assert.throws(() => loadConfig({ ...DEPLOY, BLOB_STORE: 'postgres' }), /Deno Deploy without DATABASE_URL/);
});

Deno.test('deno deploy: the fs blob store is refused, also when it is only the default', () => {
  const env = { ...DEPLOY, DATABASE_URL: 'postgres://u@db.example/portal' };
  assert.throws(
    () => loadConfig(env),
    /BLOB_STORE=s3 \(an object store, recommended\) or BLOB_STORE=postgres/,
  );
  assert.throws(() => loadConfig({ ...env, BLOB_STORE: 'fs' }), /BLOB_STORE=s3 .* or BLOB_STORE=postgres/);
});

Deno.test('deno deploy: a missing SESSION_SECRET is refused (each instance would generate its own)', () => {
  assert.throws(
    () =>
      loadConfig({
        DENO_DEPLOYMENT_ID: 'abc123',
        DATABASE_URL: 'postgres://u@db.example/portal',
        BLOB_STORE: 'postgres',
      }),
    /SESSION_SECRET/,
  );
});

Deno.test('deno deploy: a missing PIN_PEPPER is refused (PINs hashed on one instance would not verify on another)', () => {
  assert.throws(
    () =>
      loadConfig({
        DENO_DEPLOYMENT_ID: 'abc123',
        SESSION_SECRET: SECRET,
        DATABASE_URL: 'postgres://u@db.example/portal',
        BLOB_STORE: 'postgres',
      }),
    /PIN_PEPPER/,
  );
});

Deno.test('deno deploy: a missing BLOB_KEY is refused (each instance would seal under its own)', () => {
  const { BLOB_KEY: _unset, ...rest } = DEPLOY;
  assert.throws(
    () => loadConfig({ ...rest, DATABASE_URL: 'postgres://u@db.example/portal', BLOB_STORE: 'postgres' }),
    /BLOB_KEY \(a generated one would differ on every instance/,
  );
});

Deno.test('deno deploy: PostgreSQL, BLOB_STORE=postgres and a secret are accepted', () => {
  const config = loadConfig({
    ...DEPLOY,
    DATABASE_URL: 'postgres://u@db.example/portal',
    BLOB_STORE: 'postgres',
  });
  assert.equal(config.blobStore, 'postgres');
});

Deno.test('deno deploy: BLOB_STORE=s3, the recommended store, is accepted', () => {
  const config = loadConfig({
    ...DEPLOY,
    DATABASE_URL: 'postgres://u@db.example/portal',
    BLOB_STORE: 's3',
    S3_ENDPOINT: 'https://s3.us-east-1.amazonaws.com',
    S3_BUCKET: 'legal-mail',
    S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
    S3_SECRET_ACCESS_KEY: 'secret-example',
    S3_FORCE_PATH_STYLE: 'false',
  });
  assert.equal(config.blobStore, 's3');
});

Deno.test('deno deploy: elsewhere the embedded database and fs store stay the default', () => {
  const config = loadConfig({});
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.blobStore, 'fs');
});

Deno.test('deno deploy: api/main.ts exits at once with the message, before touching any disk', async () => {
  const dataDir = await Deno.makeTempDir({ prefix: 'lmp-deploy-' });
  try {
    const { code, output } = await run(`${ROOT}node_modules/.bin/deno`, ['run', '-A', 'api/main.ts'], {
      env: { DENO_DEPLOYMENT_ID: 'abc123', DATA_DIR: `${dataDir}/data`, PORT: '0', HOST: '127.0.0.1' },
    });
    assert.notEqual(code, 0, `the API started on "Deno Deploy" with the embedded database:\n${output}`);
    assert.match(output, /Refusing to start on Deno Deploy without DATABASE_URL/);
    assert.match(output, /deploy\/deno-deploy\.md/);
    assert.equal([...Deno.readDirSync(dataDir)].length, 0, 'it wrote to DATA_DIR before refusing');
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("the examples' placeholder secrets are refused, not run with (their value is published)", () => {
  const placeholder = 'change-me-to-64-random-characters-change-me-to-64-random-characters';
  for (const name of ['SESSION_SECRET', 'PIN_PEPPER']) {
    assert.throws(
      () => loadConfig({ [name]: placeholder }),
      new RegExp(`${name} is still the example's placeholder`),
    );
  }
  for (const example of ['deploy/portal.env.example', 'deploy/container/portal.env.example']) {
    const text = Deno.readTextFileSync(`${ROOT}/${example}`);
    assert.match(text, /^SESSION_SECRET=change-me/m, `${example} still shows the placeholder this refuses`);
  }
});
