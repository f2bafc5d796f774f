/**
 * Probes for a load balancer, systemd or a container runtime. `/live`: the process answers (restart it if
 * not). `/ready`: it can serve — database reachable, every migration applied, blob store writable, and with
 * BLOB_OFFLOAD=nginx and OFFLOAD_CHECK_URL the front able to send the blobs — else 503, so a balancer sends
 * traffic elsewhere. Unauthenticated, so it says only ready or not: what failed goes to the log and to the
 * department administrator's GET /api/admin/health (routes/admin_health.ts). The costly checks run at most once a
 * minute whatever the traffic, and an unchanged cause of not being ready is logged at most once a minute
 * (http/readiness.ts).
 */
import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import {
  OFFLOAD_CANARY_FOLDER,
  OFFLOAD_CANARY_NAME,
  OFFLOAD_HEADER,
  OFFLOAD_LOCATION,
} from '../http/blob_offload.ts';
import { notFound } from '../http/errors.ts';
import { logReadiness, readiness } from '../http/readiness.ts';
import type { ReadinessAnswer } from '../../contract/shapes/health.ts';

export const healthRoutes = new Hono<AppEnv>()
  .get('/live', (c) => c.json({ success: true, status: 'live' }))
  .get('/ready', async (c) => {
    const report = await readiness(c.var.deps);
    // Not once a call: a monitor polling while not ready would flood the log (http/readiness.ts).
    logReadiness(c.var.deps, c.var.log, report);
    if (report.ready) return c.json({ success: true, status: 'ready' } satisfies ReadinessAnswer);
    return c.json({ success: false, message: 'Not ready.' }, 503);
  })
  // The offload canary (http/blob_offload.ts checkOffloadCanary): the front sends the canary file named here, as
  // it sends a document. Only a canary's name reaches the redirect; nothing else in the folder is reachable.
  .get('/offload-canary/:name', (c) => {
    const name = c.req.param('name');
    if (c.var.deps.config.blobOffload !== 'nginx' || !OFFLOAD_CANARY_NAME.test(name)) throw notFound();
    return c.body(null, 200, {
      'Content-Type': 'text/plain',
      [OFFLOAD_HEADER]: `${OFFLOAD_LOCATION}${OFFLOAD_CANARY_FOLDER}${name}`,
    });
  });
