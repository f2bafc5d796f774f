/**
 * Second factors: /api/auth/mfa (the sign-in's second step, which only a step token opens, and a signed-in
 * user's own factors: the Security screen) and the admin's reset of another user's factors
 * (/api/admin/users/:id/mfa). docs/api.md, "Second factors".
 */
import { Hono } from 'hono';
import { z } from 'zod';
import {
  confirmAuthenticator,
  listFactors,
  regenerateRecoveryCodes,
  removeFactor,
  resetFactors,
  startAuthenticatorEnrolment,
  startStepEnrolment,
  verifySecondFactor,
} from '../domain/mfa.ts';
import type { MfaProof, MfaVerifyRequest } from '../../contract/shapes/mfa.ts';
import type { AppEnv } from '../http/context.ts';
import { failureError, failureText } from '../http/failures.ts';
import { requireRole } from '../http/guard.ts';
import { SUCCESS } from '../http/messages.ts';
import { canonicalUuid, jsonBodyLimit, valid } from '../http/validate.ts';

/** Staff only: offenders sign in with a PIN on a facility tablet and have no second factor. */
const STAFF = ['attorney', 'representative', 'admin', 'approver'] as const;

/** A code as typed: 6 digits, or a recovery code with its dashes; 64 characters bound the work. */
const code = z.string({ error: 'Please enter the code.' }).trim().min(1, 'Please enter the code.').max(
  64,
  'That code was not accepted. Please try again.',
);
const method = z.enum(['totp', 'recovery'], { error: "method must be 'totp' or 'recovery'." });
const mfaToken = z.string({ error: 'Please sign in again.' }).min(1, 'Please sign in again.').max(
  200,
  'Please sign in again.',
);
const factorName = z.string().trim().min(1).max(100).default('Authenticator app');

const verifyBody = z.object({ mfaToken, method, code }) satisfies z.ZodType<MfaVerifyRequest>;
const proofBody = z.object({ method, code }) satisfies z.ZodType<MfaProof>;
const stepEnrolBody = z.object({ mfaToken, name: factorName });
const enrolBody = z.object({ name: factorName });
const confirmBody = z.object({ factorId: canonicalUuid(failureText('mfa_factor_not_found')), code });
const factorParam = z.object({ id: canonicalUuid(failureText('mfa_factor_not_found')) });
const userParam = z.object({ id: canonicalUuid(failureText('user_not_found')) });

export const mfaRoutes = new Hono<AppEnv>()
  .use(jsonBodyLimit)
  // The second step of a sign-in (no session yet: the step token is the only proof of the password).
  .post('/verify', valid('json', verifyBody), async (c) => {
    const result = await verifySecondFactor(c.var.deps, {
      ...c.req.valid('json'),
      ipAddress: c.var.clientAddress,
      userAgent: c.req.header('user-agent') ?? null,
    });
    if (!result.ok) throw failureError(result);
    const { token, user, recoveryCodes } = result;
    return c.json({
      success: true,
      message: SUCCESS.loggedIn,
      token,
      user,
      ...(recoveryCodes ? { recoveryCodes } : {}),
    });
  })
  // A sign-in that must enrol: the step token starts an authenticator app, whose first code (/verify) signs in.
  .post('/enroll/totp', valid('json', stepEnrolBody), async (c) => {
    const { mfaToken, name } = c.req.valid('json');
    const result = await startStepEnrolment(c.var.deps, mfaToken, name);
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, data: result.enrolment });
  })
  .get('/factors', requireRole(STAFF), async (c) => {
    return c.json({ success: true, data: await listFactors(c.var.deps.sql, c.var.session) });
  })
  .post('/totp', requireRole(STAFF), valid('json', enrolBody), async (c) => {
    const enrolment = await startAuthenticatorEnrolment(c.var.deps, c.var.session, c.req.valid('json').name);
    return c.json({ success: true, data: enrolment });
  })
  .post('/totp/confirm', requireRole(STAFF), valid('json', confirmBody), async (c) => {
    const result = await confirmAuthenticator(c.var.deps, c.var.session, {
      ...c.req.valid('json'),
      ipAddress: c.var.clientAddress,
    });
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.mfaEnrolled, ...result });
  })
  .post(
    '/factors/:id/remove',
    requireRole(STAFF),
    valid('param', factorParam),
    valid('json', proofBody),
    async (c) => {
      const result = await removeFactor(c.var.deps, c.var.session, {
        ...c.req.valid('json'),
        factorId: c.req.valid('param').id,
        ipAddress: c.var.clientAddress,
      });
      if (!result.ok) throw failureError(result);
      return c.json({ success: true, message: SUCCESS.mfaRemoved });
    },
  )
  .post('/recovery-codes', requireRole(STAFF), valid('json', proofBody), async (c) => {
    const result = await regenerateRecoveryCodes(c.var.deps, c.var.session, {
      ...c.req.valid('json'),
      ipAddress: c.var.clientAddress,
    });
    if (!result.ok) throw failureError(result);
    return c.json({
      success: true,
      message: SUCCESS.mfaRecoveryCodesReplaced,
      recoveryCodes: result.recoveryCodes,
    });
  });

/** POST /api/admin/users/:id/mfa/reset: an admin removes another user's second factors. */
export const adminMfaRoutes = new Hono<AppEnv>()
  // The guard on the route, not `.use`: this sub-app shares /api/admin/users with the users' own routes.
  .post('/:id/mfa/reset', requireRole(['admin']), valid('param', userParam), async (c) => {
    const result = await resetFactors(c.var.deps.sql, c.var.session, {
      userId: c.req.valid('param').id,
      ipAddress: c.var.clientAddress,
    });
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.mfaReset });
  });
