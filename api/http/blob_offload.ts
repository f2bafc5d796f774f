/**
 * BLOB_OFFLOAD=nginx: what the API and the nginx in front agree on. The API answers a document it has
 * authorized and audited with `X-Accel-Redirect: /_blobs/ab/cd/<sha256>`; nginx's `internal` location of that
 * name (deploy/nginx/portal-blobs.conf) maps it onto the fs store's folder and sends the file. nginx acts on
 * the header only in an upstream's answer, and the location answers no request from outside (404).
 */
export const OFFLOAD_HEADER = 'X-Accel-Redirect';
export const OFFLOAD_LOCATION = '/_blobs/';

/**
 * The offload canary: a file written where the blobs are, the way they are (the same folder depth, mode 0600), and
 * asked for through the front: the API's canary route answers it with X-Accel-Redirect, so only an nginx that can
 * open the store's files sends its bytes back. Each check writes a file of its own (instances sharing a folder never
 * read each other's) and removes it after. `00/00/` is a folder the blobs' own names could use, which the store's
 * listing and collection skip (a canary's name is not a SHA-256).
 */
export const OFFLOAD_CANARY_ROUTE = '/api/health/offload-canary/';
export const OFFLOAD_CANARY_FOLDER = '00/00/';
export const OFFLOAD_CANARY_NAME = /^offload-canary-[0-9a-f-]{36}$/;

/**
 * Throws, with a message that says what to check, unless the front at `checkUrl` (OFFLOAD_CHECK_URL) sends the
 * bytes of a canary written now under `blobsDir` (the fs store's folder, DATA_DIR/blobs). Readiness runs it (at
 * most once a minute) and so can an operator's check of the installation.
 */
export async function checkOffloadCanary(
  options: { blobsDir: string; checkUrl: string; timeoutMs?: number },
): Promise<void> {
  const name = `offload-canary-${crypto.randomUUID()}`;
  const folder = `${options.blobsDir}/${OFFLOAD_CANARY_FOLDER}`;
  const token = crypto.randomUUID();
  await Deno.mkdir(folder, { recursive: true });
  await Deno.writeTextFile(`${folder}${name}`, token, { createNew: true, mode: 0o600 });
  const url = `${options.checkUrl.replace(/\/+$/, '')}${OFFLOAD_CANARY_ROUTE}${name}`;
  try {
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 5000) });
    } catch (error) {
      // Deno's fetch says only "fetch failed"; its cause says why (connection refused, no such host, TLS).
      const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
      throw new Error(
        `the offload canary: cannot reach the front at ${url}: ${cause} (check OFFLOAD_CHECK_URL)`,
      );
    }
    const body = await response.text().catch(() => '');
    if (response.status !== 200) {
      throw new Error(
        `the offload canary: the front at ${url} answered ${response.status}: nginx cannot open the blobs (check that its worker user may read ${options.blobsDir} and that portal-blobs.conf's alias names it)`,
      );
    }
    if (body !== token) {
      throw new Error(
        `the offload canary: the front at ${url} answered 200 without the canary's bytes: is it the nginx with portal-blobs.conf in front of this API?`,
      );
    }
  } finally {
    await Deno.remove(`${folder}${name}`).catch(() => {});
  }
}
