/**
 * An authenticator app for the tests that run real processes: enrols one on a signed-in staff account and signs
 * in with its codes, over HTTP (`otpauth` computes the codes as a phone's app would).
 */
import * as OTPAuth from 'otpauth';

/** The code an authenticator app shows for `secret` (base32), `steps` periods from now. */
export function totpCode(secret: string, steps = 0): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

async function post(base: string, path: string, body: unknown, token?: string) {
  const r = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: await r.json() };
}

/**
 * Enrols an authenticator app on the signed-in account at `base`, proving it with the account's password first
 * (as the Security screen does); answers its secret (base32).
 */
export async function enrolAuthenticator(base: string, token: string, password: string): Promise<string> {
  const proved = await post(base, '/api/auth/mfa/identity', { method: 'password', password }, token);
  if (proved.status !== 200) throw new Error(`proof: ${proved.status} ${JSON.stringify(proved.body)}`);
  const started = await post(base, '/api/auth/mfa/totp', { name: 'Phone' }, token);
  if (started.status !== 200) throw new Error(`enrolment: ${started.status} ${JSON.stringify(started.body)}`);
  const { factorId, secret } = started.body.data;
  const confirmed = await post(
    base,
    '/api/auth/mfa/totp/confirm',
    { factorId, code: totpCode(secret) },
    token,
  );
  if (confirmed.status !== 200) {
    throw new Error(`confirmation: ${confirmed.status} ${JSON.stringify(confirmed.body)}`);
  }
  return secret;
}

/**
 * Signs in with the password and then an authenticator code `steps` periods ahead (each code is accepted once:
 * a later step than the last one used, still inside the one-step skew); answers the second step's status and
 * body (its token on success).
 */
export async function signInWithTotp(
  base: string,
  user: { username: string; password: string; secret: string; steps?: number },
): Promise<{ status: number; body: { token?: string; code?: string; message?: string } }> {
  const first = await post(base, '/api/auth/login', {
    username: user.username,
    password: user.password,
    entity: 'default',
  });
  if (first.status !== 200 || !first.body.mfaToken) {
    throw new Error(`sign-in of ${user.username}: ${first.status} ${JSON.stringify(first.body)}`);
  }
  return await post(base, '/api/auth/mfa/verify', {
    mfaToken: first.body.mfaToken,
    method: 'totp',
    code: totpCode(user.secret, user.steps ?? 1),
  });
}
