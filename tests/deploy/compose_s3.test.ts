/**
 * deploy/container/compose.s3.yaml read as compose reads it (YAML anchors and merges resolved by Debian's
 * python3-yaml, which podman-compose itself uses): the API replicas run BLOB_STORE=s3 with no volume, nothing is
 * shared between containers but the database's own, the rest matches compose.yaml, and every variable it needs
 * is in portal.env.example. It is not started here: the podman test (container.test.ts) runs compose.yaml.
 */
import assert from 'node:assert/strict';
import { ROOT, run } from './helpers.ts';

// deno-lint-ignore no-explicit-any
type Compose = any;

async function load(name: string): Promise<Compose> {
  const { code, output } = await run('/usr/bin/python3', [
    '-c',
    'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))',
    `${ROOT}deploy/container/${name}`,
  ]);
  assert.equal(code, 0, output);
  return JSON.parse(output);
}

const haveYaml = (await run('/usr/bin/python3', ['-c', 'import yaml']).catch(() => ({ code: 1 }))).code === 0;

Deno.test({
  name: 'compose.s3.yaml: two API replicas with BLOB_STORE=s3 and no shared volume; the rest as compose.yaml',
  ignore: !haveYaml,
  fn: async () => {
    const s3 = await load('compose.s3.yaml');
    const fs = await load('compose.yaml');
    for (const name of ['api1', 'api2']) {
      const api = s3.services[name];
      assert.equal(api.environment.BLOB_STORE, 's3');
      assert.equal(api.environment.BLOB_OFFLOAD, 'off', 'nginx has no file to send');
      assert.equal(api.volumes, undefined, `${name} mounts nothing`);
      for (const key of ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']) {
        assert.equal(api.environment[key], `\${${key}}`, `${name} takes ${key} from .env`);
      }
      // Everything else the replicas are given is compose.yaml's (but the offload canary's front: no offload).
      assert.equal(api.environment.OFFLOAD_CHECK_URL, undefined);
      const { BLOB_STORE: _a, BLOB_OFFLOAD: _b, OFFLOAD_CHECK_URL: _c, ...rest } =
        fs.services[name].environment;
      for (const [key, value] of Object.entries(rest)) assert.equal(api.environment[key], value, key);
      const { environment: _s, ...s3Rest } = api;
      const { environment: _f, volumes: _v, ...fsRest } = fs.services[name];
      assert.deepEqual(s3Rest, fsRest);
    }
    assert.deepEqual(s3.services.db, fs.services.db);
    assert.deepEqual(s3.networks, fs.networks);
    assert.equal(s3.name, fs.name);
    assert.deepEqual(
      s3.services.proxy.volumes,
      ['portal-tls:/etc/portal-tls'],
      'the proxy reads no documents',
    );
    assert.deepEqual(Object.keys(s3.volumes).sort(), ['portal-pgdata', 'portal-tls']);

    const example = await Deno.readTextFile(`${ROOT}deploy/container/portal.env.example`);
    // The variables without a default: .env must set them.
    const required = new Set(
      [...(await Deno.readTextFile(`${ROOT}deploy/container/compose.s3.yaml`)).matchAll(
        /\$\{([A-Z0-9_]+)\}/g,
      )]
        .map((m) => m[1]),
    );
    assert.ok(required.has('S3_SECRET_ACCESS_KEY'));
    for (const name of required) {
      assert.match(example, new RegExp(`^#? ?${name}=`, 'm'), `${name} in portal.env.example`);
    }
  },
});
