/**
 * Second factors: /api/auth/mfa (the sign-in's second step, which only a step token opens, and a signed-in
 * user's own factors: the Security screen) and the admin's reset of another user's factors
 * (/api/admin/users/:id/mfa). docs/api.md, "Second factors".
 */
import { Hono } from 'hono';
import { DEFAULT_AUTHENTICATOR_NAME } from '../../contract/shapes/mfa.ts';
import { z } from 'zod';
import {
  confirmAuthenticator,
  confirmPasskey,
  listFactors,
  proveIdentity,
  regenerateRecoveryCodes,
  removeFactor,
  resetFactors,
  startAuthenticatorEnrolment,
  startPasskeyProof,
  startPasskeyRegistration,
  startStepEnrolment,
  stepPasskeyOptions,
  verifySecondFactor,
} from '../domain/mfa.ts';
import { relyingParty } from '../domain/webauthn.ts';
import type {
  MfaIdentityProof,
  MfaPasskeyConfirmRequest,
  MfaProof,
  MfaStepPasskeyRequest,
  MfaVerifyRequest,
  PasskeyOptions,
} from '../../contract/shapes/mfa.ts';
import type { AppEnv } from '../http/context.ts';
import type { Context } from 'hono';
import { failureError, failureText } from '../http/failures.ts';
import { requireRole } from '../http/guard.ts';
import { SUCCESS } from '../http/messages.ts';
import { canonicalUuid, jsonBodyLimit, valid } from '../http/validate.ts';
import type { MfaFactorListAnswer } from '../../contract/shapes/mfa.ts';

/** Staff only: offenders sign in with a PIN on a facility tablet and have no second factor. */
const STAFF = ['attorney', 'representative', 'admin', 'approver'] as const;

/** A code as typed: 6 digits, or a recovery code with its dashes; 64 characters bound the work. */
const code = z.string({ error: 'Please enter the code.' }).trim().min(1, 'Please enter the code.').max(
  64,
  'That code was not accepted. Please try again.',
);
const method = z.enum(['totp', 'recovery'], { error: "method must be 'totp', 'recovery' or 'webauthn'." });
/**
 * A passkey's answer: any JSON object (bounded by the body limit). Its checks are the domain's, so a malformed
 * answer is refused and counted in the sign-in lock like a wrong code, never answered 400 uncounted.
 */
const passkeyResponse = z.record(z.string(), z.unknown(), {
  error: 'The passkey or security key sent no answer.',
});
const passkeyName = z.string().trim().max(100).optional();
const mfaToken = z.string({ error: 'Please sign in again.' }).min(1, 'Please sign in again.').max(
  200,
  'Please sign in again.',
);
const factorName = z.string().trim().min(1).max(100).default(DEFAULT_AUTHENTICATOR_NAME);

const verifyBody = z.union([
  z.object({ mfaToken, method, code }),
  z.object({ mfaToken, method: z.literal('webauthn'), response: passkeyResponse, name: passkeyName }),
]) satisfies z.ZodType<MfaVerifyRequest>;
const proofBody = z.union([
  z.object({ method, code }),
  z.object({ method: z.literal('webauthn'), response: passkeyResponse }),
]) satisfies z.ZodType<MfaProof>;
/** Before adding a factor: a second factor's proof, or the password of an account that has none. */
const identityBody = z.union([
  proofBody,
  z.object({
    method: z.literal('password'),
    password: z.string({ error: 'Please enter your password.' }).min(1, 'Please enter your password.').max(
      1024,
      'The current password is not correct.',
    ),
  }),
]) satisfies z.ZodType<MfaIdentityProof>;
const stepPasskeyBody = z.object({ mfaToken }) satisfies z.ZodType<MfaStepPasskeyRequest>;
const passkeyConfirmBody = z.object({
  name: z.string().trim().max(100).default(''),
  response: passkeyResponse,
}) satisfies z.ZodType<MfaPasskeyConfirmRequest, unknown>;

/** The relying party of this request: PORTAL_URL's, else the address the request came to (api/domain/webauthn.ts). */
const rpOf = (c: Context<AppEnv>) => relyingParty(c.var.deps.config, c.req.url);
/** The options a browser's passkey call takes, as the contract declares them. */
const asOptions = (options: { challenge: string }) => options as unknown as PasskeyOptions;
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
      rp: rpOf(c),
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
  // A sign-in step's passkey: the challenge of an assertion, kept with the step (one answer, sent to /verify).
  .post('/webauthn/options', valid('json', stepPasskeyBody), async (c) => {
    const { mfaToken } = c.req.valid('json');
    const result = await stepPasskeyOptions(c.var.deps, { mfaToken, purpose: 'verify' }, rpOf(c));
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, data: { options: asOptions(result.options) } });
  })
  // A sign-in that must enrol: a new key's registration, whose answer (/verify with its name) signs in.
  .post('/enroll/webauthn', valid('json', stepPasskeyBody), async (c) => {
    const { mfaToken } = c.req.valid('json');
    const result = await stepPasskeyOptions(c.var.deps, { mfaToken, purpose: 'enroll' }, rpOf(c));
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, data: { options: asOptions(result.options) } });
  })
  .get('/factors', requireRole(STAFF), async (c) => {
    return c.json(
      { success: true, data: await listFactors(c.var.deps.sql, c.var.session) } satisfies MfaFactorListAnswer,
    );
  })
  // Proving it is you (a factor, or the password where there is none) before adding a factor below.
  .post('/identity', requireRole(STAFF), valid('json', identityBody), async (c) => {
    const result = await proveIdentity(c.var.deps, c.var.session, {
      ...c.req.valid('json'),
      ipAddress: c.var.clientAddress,
      rp: rpOf(c),
    });
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.identityConfirmed });
  })
  .post('/totp', requireRole(STAFF), valid('json', enrolBody), async (c) => {
    const result = await startAuthenticatorEnrolment(c.var.deps, c.var.session, c.req.valid('json').name);
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, data: result.enrolment });
  })
  .post('/totp/confirm', requireRole(STAFF), valid('json', confirmBody), async (c) => {
    const result = await confirmAuthenticator(c.var.deps, c.var.session, {
      ...c.req.valid('json'),
      ipAddress: c.var.clientAddress,
    });
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.mfaEnrolled, ...result });
  })
  .post('/webauthn', requireRole(STAFF), async (c) => {
    const result = await startPasskeyRegistration(c.var.deps, c.var.session, rpOf(c));
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, data: { options: asOptions(result.options) } });
  })
  .post('/webauthn/confirm', requireRole(STAFF), valid('json', passkeyConfirmBody), async (c) => {
    const result = await confirmPasskey(c.var.deps, c.var.session, {
      ...c.req.valid('json'),
      ipAddress: c.var.clientAddress,
      rp: rpOf(c),
    });
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.mfaEnrolled, ...result });
  })
  // Proving a key again before removing or adding a factor or making new recovery codes.
  .post('/webauthn/proof-options', requireRole(STAFF), async (c) => {
    const result = await startPasskeyProof(c.var.deps, c.var.session, rpOf(c));
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, data: { options: asOptions(result.options) } });
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
        rp: rpOf(c),
      });
      if (!result.ok) throw failureError(result);
      return c.json({ success: true, message: SUCCESS.mfaRemoved });
    },
  )
  .post('/recovery-codes', requireRole(STAFF), valid('json', proofBody), async (c) => {
    const result = await regenerateRecoveryCodes(c.var.deps, c.var.session, {
      ...c.req.valid('json'),
      ipAddress: c.var.clientAddress,
      rp: rpOf(c),
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
