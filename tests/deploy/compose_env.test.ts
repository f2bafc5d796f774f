/**
 * What the compose files give the API replicas, read as compose reads them (Debian's python3-yaml, as
 * podman-compose does): every setting docs/operations.md's "Several instances" says instances share, each passed
 * by both files, and found in portal.env.example; the variables that may stay empty in .env are unset to the API
 * when they are; compose.yaml's offload canary goes through the proxy's unpublished server, which the host's nginx
 * runs here with that server block as shipped.
 */
import assert from 'node:assert/strict';
import { have, ROOT, run } from './helpers.ts';
import { freePort, type Instance, startInstance } from '../support/instance.ts';
import { startNginx } from '../support/nginx_front.ts';
import { docCommands } from '../support/doc_commands.ts';
import { loadConfig } from '../../api/config.ts';

// deno-lint-ignore no-explicit-any
type Compose = any;

const COMPOSE_FILES = ['compose.yaml', 'compose.s3.yaml'];

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

/** The variables docs/operations.md's "Several instances" says every instance must share (its first sh block). */
async function documentedSharedSettings(): Promise<string[]> {
  const [block] = await docCommands('docs/operations.md', '## Several instances');
  return block.map((line) => /^([A-Z][A-Z0-9_]+)=/.exec(line)?.[1]).filter((name): name is string => !!name);
}

Deno.test({
  name:
    'compose: both files pass every setting "Several instances" says instances share, from portal.env.example',
  ignore: !haveYaml,
  fn: async () => {
    const shared = await documentedSharedSettings();
    for (const name of ['AUDIT_SIGNING_KEY', 'BLOB_KEY', 'MFA_SECRET_KEY_PREVIOUS', 'SMTP_CA_FILE']) {
      assert.ok(shared.includes(name), `the list names ${name}`);
    }
    const example = await Deno.readTextFile(`${ROOT}deploy/container/portal.env.example`);
    for (const file of COMPOSE_FILES) {
      const compose = await load(file);
      for (const service of ['api1', 'api2']) {
        const environment: Record<string, string> = compose.services[service].environment;
        for (const name of shared) {
          assert.ok(name in environment, `${file} ${service} passes ${name}`);
          // Taken from .env as it is (no ${X:-} default: podman-compose 1.0 would pass that text itself).
          const from = /^\$\{([A-Z0-9_]+)\}$/.exec(String(environment[name]))?.[1];
          if (from) {
            assert.equal(from, name, `${file} ${service}: ${name} from .env's ${name}`);
            assert.match(example, new RegExp(`^#? ?${name}=`, 'm'), `${name} in portal.env.example`);
          }
        }
      }
    }
  },
});

Deno.test('compose: the rotation keys and SMTP_CA_FILE left empty in .env are unset to the API', () => {
  const optional = [
    'SESSION_SECRET_PREVIOUS',
    'PIN_PEPPER_PREVIOUS',
    'MFA_SECRET_KEY_PREVIOUS',
    'BLOB_KEY_PREVIOUS',
    'SMTP_CA_FILE',
  ];
  const config = loadConfig({
    SESSION_SECRET: 'compose-session-secret-0123456789abcdef',
    ...Object.fromEntries(optional.map((name) => [name, ''])),
  }, { terminal: false });
  assert.equal(config.sessionSecretPrevious, undefined);
  assert.equal(config.pinPepperPrevious, undefined);
  assert.equal(config.mfaSecretKeyPrevious, undefined);
  assert.equal(config.blobKeyPrevious, undefined);
  assert.equal(config.smtp.caFile, undefined);
});

Deno.test({
  name:
    "compose.yaml: BLOB_OFFLOAD=nginx's canary asks the proxy's server on 8080, which compose does not publish",
  ignore: !haveYaml,
  fn: async () => {
    const compose = await load('compose.yaml');
    for (const service of ['api1', 'api2']) {
      const environment = compose.services[service].environment;
      assert.equal(environment.BLOB_OFFLOAD, '${BLOB_OFFLOAD:-nginx}');
      assert.equal(environment.OFFLOAD_CHECK_URL, 'http://proxy:8080');
    }
    assert.ok(
      compose.services.proxy.ports.every((p: string) => !/:8080$/.test(p)),
      `published: ${compose.services.proxy.ports}`,
    );
    const conf = await Deno.readTextFile(`${ROOT}deploy/container/nginx/default.conf`);
    assert.ok(canaryServer(conf), 'default.conf has a server on 8080');
  },
});

/** default.conf's `listen 8080` server block, as shipped. */
function canaryServer(conf: string): string | undefined {
  return /^server \{\n {4}listen 8080;\n[\s\S]*?^\}\n/m.exec(conf)?.[0];
}

Deno.test({
  name:
    "compose.yaml's canary server (the host's nginx): readiness's offload canary passes through it, and it answers nothing else",
  ignore: !(await have('nginx')),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: 'lmp-compose-canary-' });
    const dataDir = await Deno.makeTempDir({ prefix: 'lmp-compose-canary-data-' });
    let api: Instance | undefined;
    let front: { stop(): Promise<void> } | undefined;
    try {
      const port = freePort();
      const conf = await Deno.readTextFile(`${ROOT}deploy/container/nginx/default.conf`);
      const server = canaryServer(conf)!
        .replace('listen 8080;', `listen 127.0.0.1:${port};`)
        .replace(/access_log [^;]+;/, 'access_log off;')
        .replace('/etc/nginx/portal-blobs.conf', `${dir}/portal-blobs.conf`)
        .replace('/etc/nginx/portal-proxy.conf', `${dir}/portal-proxy.conf`);
      const blobs = await Deno.readTextFile(`${ROOT}deploy/nginx/portal-blobs.conf`);
      await Deno.writeTextFile(
        `${dir}/portal-blobs.conf`,
        blobs.replace('/var/lib/legal-mail-portal/blobs/', `${dataDir}/blobs/`),
      );
      await Deno.copyFile(`${ROOT}deploy/nginx/portal-proxy.conf`, `${dir}/portal-proxy.conf`);
      api = await startInstance({
        DATA_DIR: dataDir,
        DEMO_SEED: '0',
        BLOB_STORE: 'fs',
        BLOB_OFFLOAD: 'nginx',
        OFFLOAD_CHECK_URL: `http://127.0.0.1:${port}`,
        TRUSTED_PROXIES: '127.0.0.1',
        PWA_DIST: `${dataDir}/no-pwa`,
      });
      front = await startNginx(
        dir,
        port,
        `    upstream portal_api {\n        server 127.0.0.1:${api.port};\n    }\n${server}`,
      );
      const ready = await fetch(`${api.url}/api/health/ready`);
      assert.deepEqual([ready.status, await ready.json()], [200, { success: true, status: 'ready' }]);
      for (const path of ['/', '/api/health', '/api/health/ready', '/_blobs/00/00/anything']) {
        const r = await fetch(`http://127.0.0.1:${port}${path}`);
        await r.body?.cancel();
        assert.equal(r.status, 404, path);
      }
    } finally {
      await front?.stop();
      await api?.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
