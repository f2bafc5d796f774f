/**
 * `MFA_SECRET_KEY_PREVIOUS=old MFA_SECRET_KEY=new npm run keys:rotate-mfa`: seals every authenticator app's
 * secret again under the new key and records the new key's fingerprint, in one transaction, with the portal
 * stopped (docs/operations.md, "Rotating a key"). Recovery codes are kept only as an HMAC under the old key, so
 * they cannot move: the unused ones are removed, and their owners make new ones on their Security screen. The
 * set-password codes waiting in the e-mail outbox are sealed again too.
 * Exit codes: 0 rotated, 1 refused (a key that does not match the data, or the portal running on the embedded
 * database), 2 bad usage.
 */
import { loadConfig } from '../config.ts';
import { openDatabaseToWrite } from '../db/open.ts';
import {
  delete_unused_recovery_codes,
  find_key_fingerprint,
  insert_key_fingerprint,
  lock_totp_secrets,
  update_key_fingerprint,
  update_totp_secret,
} from '../db/key_fingerprints.ts';
import { keyFingerprint } from '../domain/keys.ts';
import { resealTotpSecret } from '../domain/mfa_secrets.ts';
import { lock_sealed_email_secrets, update_email_secret } from '../db/email_outbox.ts';
import { resealEmailSecret } from '../email/sealed_secret.ts';

const NAME = 'MFA_SECRET_KEY';

async function main(): Promise<number> {
  const config = loadConfig();
  if (!config.mfaSecretKey || !config.mfaSecretKeyPrevious) {
    console.error(
      'Set MFA_SECRET_KEY_PREVIOUS to the key in use and MFA_SECRET_KEY to the new one ' +
        '(docs/operations.md, "Rotating a key").',
    );
    return 2;
  }
  if (config.mfaSecretKey === config.mfaSecretKeyPrevious) {
    console.error('MFA_SECRET_KEY and MFA_SECRET_KEY_PREVIOUS are the same key: nothing to rotate.');
    return 2;
  }
  const encoder = new TextEncoder();
  const from = encoder.encode(config.mfaSecretKeyPrevious);
  const to = encoder.encode(config.mfaSecretKey);
  const opened = await openDatabaseToWrite(config, 'keys:rotate-mfa');
  if (!opened.ok) {
    console.error(`Nothing was changed: ${opened.message}.`);
    return 1;
  }
  const db = opened.db;
  try {
    const [fromPrint, toPrint] = await Promise.all([keyFingerprint(NAME, from), keyFingerprint(NAME, to)]);
    const stored = await find_key_fingerprint(db.sql, NAME);
    if (stored === toPrint) {
      console.log('The database is already under the new MFA_SECRET_KEY: nothing to do.');
      return 0;
    }
    if (stored && stored !== fromPrint) {
      console.error(
        'MFA_SECRET_KEY_PREVIOUS does not match this database: it is not the key its authenticator apps were ' +
          'sealed under. Nothing was changed.',
      );
      return 1;
    }
    const result = await db.sql.begin(async (tx) => {
      const rows = await lock_totp_secrets(tx);
      for (const row of rows) {
        const resealed = await resealTotpSecret({ from, to }, row.totp_secret, row.id);
        if (!resealed) {
          throw new Refused(`an authenticator app's secret (factor ${row.id}) does not open under it`);
        }
        await update_totp_secret(tx, row.id, resealed);
      }
      const waiting = await lock_sealed_email_secrets(tx);
      for (const row of waiting) {
        const resealed = await resealEmailSecret(
          { from, to },
          new Uint8Array(row.sealed_secret),
          row.to_address,
        );
        if (!resealed) throw new Refused(`a queued e-mail's code (outbox ${row.id}) does not open under it`);
        await update_email_secret(tx, row.id, resealed);
      }
      const users = await delete_unused_recovery_codes(tx);
      const moved = stored
        ? await update_key_fingerprint(tx, NAME, { from: stored, to: toPrint })
        : (await insert_key_fingerprint(tx, NAME, toPrint)) === toPrint;
      if (!moved) throw new Refused('another rotation changed the fingerprint meanwhile');
      return { factors: rows.length, users, emails: waiting.length };
    }).catch((error) => {
      if (error instanceof Refused) return error;
      throw error;
    });
    if (result instanceof Refused) {
      console.error(`MFA_SECRET_KEY_PREVIOUS: ${result.message}. Nothing was changed.`);
      return 1;
    }
    console.log(`Sealed ${result.factors} authenticator app secret(s) under the new MFA_SECRET_KEY.`);
    if (result.emails) {
      console.log(`Sealed the set-password codes of ${result.emails} e-mail(s) waiting in the outbox again.`);
    }
    console.log(
      `Removed the unused recovery codes of ${result.users} user(s): they make new ones on their Security screen.`,
    );
    console.log("Now set MFA_SECRET_KEY to the new key in the service's environment and start the portal.");
    return 0;
  } finally {
    await db.close();
  }
}

class Refused extends Error {}

Deno.exit(await main());
