/**
 * The Hono application: one sub-app per resource under /api, the PWA beside it,
 * one error handler for all.
 */
import { Hono } from 'hono';
import type { AppDeps } from './deps.ts';
import { clientAddress, trustedProxyMatcher } from './http/client_address.ts';
import type { AppEnv } from './http/context.ts';
import { handleError, notFound } from './http/errors.ts';
import { requestLog } from './http/request_log.ts';
import { createLogger } from './log.ts';
import { createMetrics } from './http/metrics.ts';
import { pwaStatic } from './http/pwa_static.ts';
import { securityHeaders } from './http/security_headers.ts';
import { adminAuditLogRoutes } from './routes/admin_audit_logs.ts';
import { auditRoutes } from './routes/audit.ts';
import { adminEmailOutboxRoutes } from './routes/admin_email_outbox.ts';
import { adminEntityRoutes } from './routes/admin_entities.ts';
import { adminHealthRoutes } from './routes/admin_health.ts';
import { adminIpWhitelistRoutes } from './routes/admin_ip_whitelist.ts';
import { adminOffenderRoutes } from './routes/admin_offenders.ts';
import { adminSettingRoutes } from './routes/admin_settings.ts';
import { adminUserRoutes } from './routes/admin_users.ts';
import { approverRoutes } from './routes/approver.ts';
import { authRoutes } from './routes/auth.ts';
import { adminMfaRoutes, mfaRoutes } from './routes/mfa.ts';
import { documentRoutes } from './routes/documents.ts';
import { healthRoutes } from './routes/health.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { publicRoutes } from './routes/public.ts';
import { referenceRoutes } from './routes/reference.ts';
import { preferenceRoutes } from './routes/preferences.ts';
import { receiptRoutes } from './routes/receipts.ts';
import { recipientRoutes } from './routes/recipients.ts';
import { representativeRoutes } from './routes/representative.ts';
import { representativeLinkRoutes } from './routes/representatives.ts';

/** Builds the application around its dependencies (a test passes its own). */
export function createApp(appDeps: AppDeps) {
  const isTrustedProxy = trustedProxyMatcher(appDeps.config.trustedProxies);
  // One registry per app (tests build several in one process); the requests' blob store calls are counted.
  const metrics = createMetrics(appDeps);
  const deps: AppDeps = { ...appDeps, blobs: metrics.countBlobErrors(appDeps.blobs) };

  const api = new Hono<AppEnv>()
    .use(async (c, next) => {
      // Privileged data never sits in a browser or proxy cache. Set before the handler, so an answer made with
      // c.json or c.body carries it from the start (a handler's own Cache-Control replaces it); an answer built
      // as a Response of its own does not, and gets it after.
      c.header('Cache-Control', 'no-store');
      await next();
      if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
    })
    .route('/', publicRoutes)
    .route('/health', healthRoutes)
    .route('/audit', auditRoutes)
    .route('/auth/mfa', mfaRoutes)
    .route('/auth', authRoutes)
    .route('/approver', approverRoutes)
    .route('/admin/audit-logs', adminAuditLogRoutes)
    .route('/admin/email-outbox', adminEmailOutboxRoutes)
    .route('/admin/users', adminMfaRoutes)
    .route('/admin/users', adminUserRoutes)
    .route('/admin/offenders', adminOffenderRoutes)
    .route('/admin/entities', adminEntityRoutes)
    .route('/admin/settings', adminSettingRoutes)
    .route('/admin/health', adminHealthRoutes)
    .route('/admin/ip-whitelist', adminIpWhitelistRoutes)
    .route('/documents', documentRoutes)
    .route('/representative', representativeRoutes)
    .route('/receipts', receiptRoutes)
    .route('/recipients', recipientRoutes)
    .route('/preferences', preferenceRoutes)
    .route('/attorney/representatives', representativeLinkRoutes)
    // The reference walks the whole app's routes, these two included, when it is first asked for.
    .route('/', referenceRoutes(() => app.routes))
    .all('*', () => {
      throw notFound('No such API endpoint.');
    });

  const app = new Hono<AppEnv>();
  // First, so the request id and the log line cover everything after it, failures included.
  app.use(requestLog(deps.log ?? createLogger(deps.config), isTrustedProxy));
  app.use(metrics.observe);
  app.use(securityHeaders);
  app.use(async (c, next) => {
    c.set('deps', deps);
    c.set('clientAddress', clientAddress(c, isTrustedProxy));
    await next();
  });
  app.onError(handleError);
  app.notFound((c) => c.json({ success: false, message: 'Not found.' }, 404));
  app.route('/api', api);
  // Before the PWA, whose fallback would otherwise answer /metrics with the web app's page.
  app.route('/', metricsRoutes(deps.config.metricsToken, metrics));
  app.route('/', pwaStatic(deps.config.pwaDist));
  return app;
}

export type App = ReturnType<typeof createApp>;
