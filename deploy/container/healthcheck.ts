/**
 * The container's HEALTHCHECK: the instance is healthy when /api/health/ready answers 200 (database
 * reachable, migrations applied, blob store writable). An older build without that route falls back
 * to /api/health. Run by the image's own Deno, so the runtime image needs no curl.
 */
const base = `http://127.0.0.1:${Deno.env.get('PORT') ?? '5000'}`;
const signal = AbortSignal.timeout(4000);
let response = await fetch(`${base}/api/health/ready`, { signal });
if (response.status === 404) {
  await response.body?.cancel();
  response = await fetch(`${base}/api/health`, { signal });
}
await response.body?.cancel();
Deno.exit(response.ok ? 0 : 1);
