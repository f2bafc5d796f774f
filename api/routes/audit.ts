/**
 * /api/audit/public-key: the Ed25519 key the audit log's checkpoints are signed with. Public: a public key gives
 * nothing away, and whoever checks the log or a checkpoint needs it without an account here.
 */
import { Hono } from 'hono';
import type { AuditPublicKeyAnswer } from '../../contract/shapes/audit_log.ts';
import { keyFingerprint } from '../domain/audit_signing.ts';
import type { AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';

export const auditRoutes = new Hono<AppEnv>()
  .get('/public-key', async (c) => {
    const publicKey = c.var.deps.auditPublicKey;
    if (!publicKey) throw notFound();
    const fingerprint = await keyFingerprint(publicKey);
    return c.json(
      {
        success: true,
        data: { algorithm: 'Ed25519', publicKey, fingerprint },
      } satisfies AuditPublicKeyAnswer,
    );
  });
