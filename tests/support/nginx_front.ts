/**
 * Debian's nginx for the tests: a generated config in a temporary prefix, run in the foreground (not as a
 * daemon) and stopped by the test. `startNginx` is the shared frame (pid, logs, temp paths, the wait for the
 * port); `startNginxFront` is nginx in front of several API instances, as a load balancer would be.
 */
import { freePort } from './instance.ts';

export interface Front {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts nginx with `http` as the body of its `http {}` block, in `prefix` (its config, pid, logs and temp
 * folders go there; removed on stop when `removePrefix`). `http` listens on `port`; resolves once it accepts.
 */
export async function startNginx(
  prefix: string,
  port: number,
  http: string,
  options: { workerConnections?: number; removePrefix?: boolean } = {},
): Promise<Front> {
  const conf = `daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
${Deno.uid() === 0 ? 'user root;' : ''}
events { worker_connections ${options.workerConnections ?? 64}; }
http {
    client_body_temp_path ${prefix}/body;
    proxy_temp_path ${prefix}/proxy;
    fastcgi_temp_path ${prefix}/fastcgi;
    uwsgi_temp_path ${prefix}/uwsgi;
    scgi_temp_path ${prefix}/scgi;
${http}
}
`;
  await Deno.writeTextFile(`${prefix}/nginx.conf`, conf);
  const child = new Deno.Command('nginx', {
    args: ['-p', prefix, '-c', `${prefix}/nginx.conf`, '-e', `${prefix}/error.log`],
    stdout: 'null',
    stderr: 'piped',
  }).spawn();
  const errors = new Response(child.stderr).text();
  for (let i = 0; i < 100; i++) {
    try {
      (await Deno.connect({ hostname: '127.0.0.1', port })).close();
      return {
        url: `http://127.0.0.1:${port}`,
        async stop() {
          try {
            child.kill('SIGQUIT');
          } catch { /* gone */ }
          await child.status;
          await errors;
          if (options.removePrefix) await Deno.remove(prefix, { recursive: true }).catch(() => {});
        },
      };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`nginx did not start: ${await errors}`);
}

/** Starts nginx on a free port, balancing round-robin over `upstreams` (host:port). */
export async function startNginxFront(upstreams: string[]): Promise<Front> {
  const prefix = await Deno.makeTempDir({ prefix: 'lmp-nginx-' });
  const port = freePort();
  return await startNginx(
    prefix,
    port,
    `    access_log ${prefix}/access.log;
    upstream portal {
${upstreams.map((u) => `        server ${u};`).join('\n')}
    }
    server {
        listen 127.0.0.1:${port};
        client_max_body_size 20m;
        location / {
            proxy_pass http://portal;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Request-Id $request_id;
        }
    }`,
    { workerConnections: 256, removePrefix: true },
  );
}
