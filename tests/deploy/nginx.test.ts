/**
 * The nginx front (deploy/nginx/) passes `nginx -t` with a generated self-signed certificate under a
 * temporary prefix, on the host's nginx (Debian 12's 1.22, as departments run it) and on a newer one (the proxy
 * image's, Debian trixie's 1.26), since the site is installed on whichever nginx the host has.
 */
import assert from 'node:assert/strict';
import { have, must, ROOT, run } from './helpers.ts';
import { buildImage, ensureBaseImage, IMAGES, podman } from './podman.ts';
import { freePort } from '../support/instance.ts';
import { APP_JS, makeFakeDist } from '../support/pwa_dist.ts';
import { startNginx } from '../support/nginx_front.ts';
import { rawRequest } from '../support/raw_http.ts';
import { startTestServer } from '../support/server.ts';

const SITE = `${ROOT}deploy/nginx/legal-mail-portal.conf`;
const PROXY = `${ROOT}deploy/nginx/portal-proxy.conf`;

/** A prefix holding nginx.conf that includes the shipped site, with the certificate paths pointed into it. */
async function prefix(dir: string, inside: string): Promise<void> {
  await Deno.mkdir(`${dir}/logs`, { recursive: true });
  await must('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-keyout',
    `${dir}/portal.key`,
    '-out',
    `${dir}/portal.pem`,
  ]);
  const site = (await Deno.readTextFile(SITE))
    .replace('/etc/ssl/certs/legal-mail-portal.pem', `${inside}/portal.pem`)
    .replace('/etc/ssl/private/legal-mail-portal.key', `${inside}/portal.key`);
  await Deno.writeTextFile(`${dir}/site.conf`, site);
  await Deno.copyFile(PROXY, `${dir}/portal-proxy.conf`);
  await Deno.copyFile(`${ROOT}deploy/nginx/portal-blobs.conf`, `${dir}/portal-blobs.conf`);
  await Deno.writeTextFile(
    `${dir}/nginx.conf`,
    `pid ${inside}/nginx.pid;
error_log ${inside}/logs/error.log;
events {}
http {
    access_log off;
    include ${inside}/site.conf;
}
`,
  );
}

Deno.test('nginx: the shipped front redirects 80 to 443, speaks TLS 1.2/1.3 and HTTP/2 as every nginx since 1.9.5 reads it', async () => {
  const site = await Deno.readTextFile(SITE);
  const proxy = await Deno.readTextFile(PROXY);
  assert.match(site, /listen 80;[\s\S]*return 301 https:\/\/\$host\$request_uri;/);
  assert.match(site, /^\s*ssl_protocols TLSv1\.2 TLSv1\.3;/m);
  assert.match(site, /^\s*listen 443 ssl http2;/m);
  assert.match(site, /^\s*listen \[::\]:443 ssl http2;/m);
  // `http2 on;` (nginx 1.25.1+) stops Debian 12's and RHEL 9's nginx from loading the site.
  assert.doesNotMatch(site, /^\s*http2 on;/m);
  assert.match(proxy, /^proxy_http_version 1\.1;/m);
  assert.match(proxy, /^client_max_body_size 101m;/m, 'max_upload_mb is at most 100, plus 1 MB for the form');
});

Deno.test('nginx: both shipped fronts offer only forward-secret AEAD suites and log no URI', async () => {
  // No TLS 1.2 client may agree on AES128-SHA (static RSA, CBC), and no full URI (DOC numbers, searched names)
  // may reach nginx's access log.
  for (const file of [SITE, `${ROOT}deploy/container/nginx/default.conf`]) {
    const text = await Deno.readTextFile(file);
    const ciphers = /^\s*ssl_ciphers ([^;]+);/m.exec(text)?.[1];
    assert.ok(ciphers, `${file}: ssl_ciphers`);
    for (const suite of ciphers.split(':')) {
      assert.match(suite, /^ECDHE-(ECDSA|RSA)-.*(GCM|CHACHA20-POLY1305)/, suite);
    }
    const format = /^log_format portal_no_uri '([^']+)';/m.exec(text)?.[1];
    assert.ok(format, `${file}: log_format portal_no_uri`);
    assert.doesNotMatch(format, /\$(request|request_uri|uri|args|query_string)\b(?!_)/, 'no URI in the log');
    const logs = [...text.matchAll(/^\s*access_log ([^;]+);/gm)].map((m) => m[1]);
    assert.ok(
      logs.length > 0 && logs.every((l) => l.endsWith(' portal_no_uri') || l === 'off'),
      `${file}: ${logs}`,
    );
  }
});

Deno.test({
  name: "nginx: the host's nginx (Debian 12's 1.22) accepts the shipped site with a self-signed certificate",
  ignore: !(await have('nginx')),
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: 'lmp-nginx-' });
    try {
      await prefix(dir, dir);
      const version = await run('nginx', ['-v']);
      const { code, output } = await run('nginx', ['-t', '-p', dir, '-c', `${dir}/nginx.conf`]);
      console.log(`host ${version.output.trim()}: ${output.trim()}`);
      assert.equal(code, 0, `nginx -t failed:\n${output}`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("nginx: a newer nginx (the proxy image's, 1.25+) accepts the shipped site too", async () => {
  const dir = await Deno.makeTempDir({ prefix: 'lmp-nginx-' });
  try {
    await ensureBaseImage();
    await buildImage('proxy');
    await prefix(dir, '/t');
    const output = await podman([
      'run',
      '--rm',
      '--network=none',
      '-v',
      `${dir}:/t:Z`,
      IMAGES.proxy.name,
      'sh',
      '-c',
      'nginx -v 2>&1; nginx -t -p /t -c /t/nginx.conf 2>&1',
    ]);
    console.log(`in ${IMAGES.proxy.name}:\n${output.trim()}`);
    assert.match(output, /test is successful/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "nginx: the shipped proxy settings pass the API's precompressed answers through, and compress nothing",
  // The host's nginx serves plain HTTP here (no TLS or http2 on in this server block), so 1.22 will do.
  ignore: !(await have('nginx')),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dist = await makeFakeDist();
    const api = await startTestServer({ PWA_DIST: dist });
    const dir = await Deno.makeTempDir({ prefix: 'lmp-nginx-gzip-' });
    const port = freePort();
    await Deno.copyFile(PROXY, `${dir}/portal-proxy.conf`);
    // A host that compresses everything it may (gzip_proxied any, every type, no minimum): the shipped
    // settings must still leave compression to the API.
    const nginx = await startNginx(
      dir,
      port,
      `    access_log off;
    gzip on;
    gzip_proxied any;
    gzip_types *;
    gzip_min_length 0;
    gzip_vary on;
    server {
        listen 127.0.0.1:${port};
        location / {
            include ${dir}/portal-proxy.conf;
            proxy_pass http://127.0.0.1:${new URL(api.url).port};
        }
    }`,
    );
    const front = nginx.url;
    try {
      const original = await Deno.readFile(`${dist}${APP_JS}`);
      const expected = {
        'br, gzip': { encoding: 'br', bytes: await Deno.readFile(`${dist}${APP_JS}.br`) },
        'gzip': { encoding: 'gzip', bytes: await Deno.readFile(`${dist}${APP_JS}.gz`) },
        'identity': { encoding: undefined, bytes: original },
      };
      for (const [accept, { encoding, bytes }] of Object.entries(expected)) {
        const r = await rawRequest(front, 'GET', APP_JS, { 'Accept-Encoding': accept });
        assert.equal(r.status, 200, accept);
        assert.equal(r.headers.get('content-encoding'), encoding, accept);
        assert.equal(r.headers.get('vary'), 'Accept-Encoding', `${accept}: one Vary, the API's`);
        assert.ok(r.headers.get('etag'), `${accept}: the ETag survives`);
        assert.deepEqual(r.body, bytes, `${accept}: the API's bytes exactly, not compressed again`);
      }
      const json = await rawRequest(front, 'GET', '/api/config', { 'Accept-Encoding': 'gzip' });
      assert.equal(json.status, 200);
      assert.equal(json.headers.get('content-encoding'), undefined, 'an API answer is never compressed');
      assert.ok(JSON.parse(new TextDecoder().decode(json.body)));
    } finally {
      await nginx.stop();
      await api.stop();
      await Deno.remove(dir, { recursive: true });
      await Deno.remove(dist, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "nginx: the shipped site's plain HTTP serves ACME challenge tokens for certbot --webroot and redirects everything else",
  ignore: !(await have('nginx')),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const plain = /^server \{\n {4}listen 80;[\s\S]*?\n\}\n/m.exec(await Deno.readTextFile(SITE))?.[0];
    assert.ok(plain, 'the port 80 server block');
    const dir = await Deno.makeTempDir({ prefix: 'lmp-nginx-acme-' });
    const port = freePort();
    await Deno.mkdir(`${dir}/webroot/.well-known/acme-challenge`, { recursive: true });
    await Deno.writeTextFile(`${dir}/webroot/.well-known/acme-challenge/tok3n-_x`, 'tok3n-_x.thumbprint');
    const nginx = await startNginx(
      dir,
      port,
      `    access_log off;
${
        plain.replace('listen 80;', `listen 127.0.0.1:${port};`).replace('listen [::]:80;', '')
          .replaceAll('/var/www/letsencrypt', `${dir}/webroot`)
      }`,
    );
    try {
      const token = await rawRequest(nginx.url, 'GET', '/.well-known/acme-challenge/tok3n-_x');
      assert.equal(token.status, 200, new TextDecoder().decode(token.body));
      assert.equal(new TextDecoder().decode(token.body), 'tok3n-_x.thumbprint');
      for (const path of ['/', '/api/config', '/.well-known/other', '/login?x=1']) {
        const r = await rawRequest(nginx.url, 'GET', path);
        assert.equal(r.status, 301, path);
        assert.equal(r.headers.get('location'), `https://127.0.0.1${path}`, path);
      }
    } finally {
      await nginx.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** The shipped site's limits on slow clients (client_*_timeout, send_timeout, keepalive_timeout), as written. */
async function shippedTimeouts(): Promise<string[]> {
  const lines = (await Deno.readTextFile(SITE)).split('\n').map((line) => line.trim());
  return lines.filter((line) =>
    /^(client_header_timeout|client_body_timeout|send_timeout|keepalive_timeout) /.test(line)
  );
}

/** Reads until the peer closes the connection (or `limitMs` passes): what arrived, and whether it closed. */
async function readToClose(conn: Deno.Conn, limitMs: number): Promise<{ closed: boolean; text: string }> {
  const chunks: Uint8Array[] = [];
  const deadline = setTimeout(() => conn.close(), limitMs);
  let closed = false;
  try {
    const buffer = new Uint8Array(4096);
    for (;;) {
      const n = await conn.read(buffer);
      if (n === null) {
        closed = true;
        break;
      }
      chunks.push(buffer.slice(0, n));
    }
  } catch {
    // Closed here at the deadline: the server held the connection.
  } finally {
    clearTimeout(deadline);
  }
  const text = new TextDecoder().decode(new Uint8Array(chunks.flatMap((chunk) => [...chunk])));
  try {
    conn.close();
  } catch { /* already closed */ }
  return { closed, text };
}

Deno.test({
  name: 'nginx: the shipped site drops a client that sends its headers or its upload too slowly',
  ignore: !(await have('nginx')),
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const timeouts = await shippedTimeouts();
    const seconds = (name: string) =>
      Number(/(\d+)s;$/.exec(timeouts.find((t) => t.startsWith(name)) ?? '')?.[1]);
    assert.ok(
      seconds('client_header_timeout') > 0 && seconds('client_header_timeout') <= 15,
      timeouts.join(' '),
    );
    assert.ok(seconds('client_body_timeout') > 0 && seconds('client_body_timeout') <= 30, timeouts.join(' '));
    const api = await startTestServer();
    const dir = await Deno.makeTempDir({ prefix: 'lmp-nginx-slow-' });
    const port = freePort();
    await Deno.copyFile(PROXY, `${dir}/portal-proxy.conf`);
    const nginx = await startNginx(
      dir,
      port,
      `    access_log off;
    server {
        listen 127.0.0.1:${port};
        ${timeouts.join('\n        ')}
        location / {
            include ${dir}/portal-proxy.conf;
            proxy_pass http://127.0.0.1:${new URL(api.url).port};
        }
    }`,
    );
    try {
      // Far more than either limit: a connection still open then is one the front would hold for ever.
      const limitMs = (seconds('client_body_timeout') + 15) * 1000;
      const encoder = new TextEncoder();
      const slowHeader = await Deno.connect({ hostname: '127.0.0.1', port });
      await slowHeader.write(encoder.encode('GET /api/config HTTP/1.1\r\nHost: portal\r\n'));
      const slowBody = await Deno.connect({ hostname: '127.0.0.1', port });
      await slowBody.write(encoder.encode(
        'POST /api/auth/login HTTP/1.1\r\nHost: portal\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{"username":',
      ));
      const [header, body] = await Promise.all([
        readToClose(slowHeader, limitMs),
        readToClose(slowBody, limitMs),
      ]);
      assert.ok(header.closed, 'a request whose headers never end is dropped');
      assert.equal(header.text, '', 'and nothing reaches the API or comes back');
      assert.ok(body.closed, 'a body that stops arriving is dropped');
      // nginx logs a 408; with the body streamed to the API (proxy_request_buffering off) it may close at once.
      assert.ok(
        body.text === '' || /^HTTP\/1\.1 408 /.test(body.text),
        `nothing but a 408 comes back: ${body.text}`,
      );
      // The front still serves everyone else.
      const fine = await rawRequest(nginx.url, 'GET', '/api/config');
      assert.equal(fine.status, 200);
    } finally {
      await nginx.stop();
      await api.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
