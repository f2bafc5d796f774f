/**
 * /api/auth: sign-in, sign-out, the signed-in user, registration and password change; the offender tablet's
 * offline data key and its lock screen (lock, unlock), which the server keeps: a locked session may only unlock
 * or sign out.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { changePassword, login, logout, NEW_PASSWORD_LIMITS } from '../domain/auth.ts';
import { lockSession, offlineKey, unlock } from '../domain/offline.ts';
import { completePasswordReset, requestPasswordReset, signOutEverywhere } from '../domain/password_reset.ts';
import { toPublicUser } from '../domain/public_user.ts';
import { saveOwnPreferences } from '../domain/languages.ts';
import { actorFrom } from '../domain/actor.ts';
import { LANGUAGES } from '../../contract/languages.ts';
import { submitRegistration } from '../domain/registration.ts';
import { dismissPinResetNotice, ownSignIns } from '../domain/pin_reset.ts';
import type { SignInsAnswer } from '../../contract/shapes/sign_ins.ts';
import { REGISTRATION_MESSAGES } from '../../contract/rules/registration.ts';
import type { RegistrationRequest } from '../../contract/shapes/registration.ts';
import type { UnlockRequest } from '../../contract/shapes/offline.ts';
import type {
  LoginAnswer,
  LoginRequest,
  MeAnswer,
  OwnPreferencesAnswer,
  OwnPreferencesRequest,
  PasswordChangeAnswer,
  PasswordChangeRequest,
} from '../../contract/shapes/user.ts';
import type { AppEnv } from '../http/context.ts';
import { failureError } from '../http/failures.ts';
import { requireRole, requireSignedIn } from '../http/guard.ts';
import { SUCCESS } from '../http/messages.ts';
import { jsonBodyLimit, valid } from '../http/validate.ts';
import type { MessageAnswer } from '../../contract/shapes/answer.ts';
import type { MfaStepAnswer } from '../../contract/shapes/mfa.ts';
import type { OfflineKeyAnswer } from '../../contract/shapes/offline.ts';

/** Long enough for any real name or address line; short enough to bound the work. */
const TEXT_MAX = 200;

const loginBody = z.object({
  username: z.string({ error: 'Please provide username!' }).trim().min(1, 'Please provide username!').max(
    TEXT_MAX,
    'Username is too long.',
  ),
  password: z.string({ error: 'Please provide password!' }).refine(
    (v) => v.trim() !== '',
    'Please provide password!',
  )
    .refine((v) => v.length <= TEXT_MAX, 'Password is too long.'),
  entity: z.string().max(100).default('default'),
}) satisfies z.ZodType<Required<LoginRequest>>;

const preferencesBody = z.object({
  language: z.enum(LANGUAGES, { error: "Language must be 'en', 'es' or null." }).nullable().optional(),
  largerText: z.boolean({ error: 'largerText must be true or false.' }).optional(),
}).refine(
  (body) => body.language !== undefined || body.largerText !== undefined,
  'Please send a language or largerText to save.',
) satisfies z.ZodType<OwnPreferencesRequest>;

const requiredText = z.string({ error: REGISTRATION_MESSAGES.required }).max(
  TEXT_MAX,
  'Please keep each field under 200 characters.',
);
/** What an account's name may hold (the users table's check): a longer one could register but never be approved. */
const NAME_MAX = 100;
const nameText = z.string({ error: REGISTRATION_MESSAGES.required }).max(
  NAME_MAX,
  'Please keep each name under 100 characters.',
);
const optionalText = z.string({ error: 'Optional fields must be text.' }).max(
  TEXT_MAX,
  'Please keep each field under 200 characters.',
)
  .nullish();

const registerBody = z.object({
  userType: z.enum(['attorney', 'representative'], {
    error: "userType must be 'attorney' or 'representative'.",
  })
    .default('attorney'),
  firstName: nameText,
  lastName: nameText,
  email: requiredText,
  password: requiredText,
  confirmPassword: requiredText,
  // A representative's is their supervising attorney's (contract/rules/registration.ts): they may leave it out.
  barNumber: requiredText.default(''),
  barState: requiredText,
  phone: optionalText,
  addressLine1: requiredText,
  addressLine2: optionalText,
  city: requiredText,
  state: requiredText,
  zipCode: requiredText,
  isRepresentative: z.boolean({ error: 'isRepresentative must be true or false.' }).default(false),
  supervisingAttorneyName: optionalText,
  supervisingAttorneyBar: optionalText,
  supervisingAttorneyEmail: optionalText,
  language: z.enum(LANGUAGES, { error: "language must be 'en' or 'es'." }).optional(),
  invitation: z.string({ error: 'The invitation code must be text.' }).max(
    TEXT_MAX,
    'The invitation code is too long.',
  )
    .optional(),
}) satisfies z.ZodType<RegistrationRequest>;

const passwordBody = z.object({
  currentPassword: z.string({ error: 'Please provide your current password.' }).min(
    1,
    'Please provide your current password.',
  )
    .max(NEW_PASSWORD_LIMITS.max),
  // The length rule depends on who changes it (a password or a PIN): api/domain/auth.ts applies it.
  newPassword: z.string({ error: 'Please provide a new password.' })
    .min(1, 'Please provide a new password.')
    .max(NEW_PASSWORD_LIMITS.max, 'Password is too long.'),
}) satisfies z.ZodType<PasswordChangeRequest>;

const forgotBody = z.object({
  email: z.string({ error: 'Please provide your e-mail address.' }).trim().min(
    1,
    'Please provide your e-mail address.',
  )
    .max(TEXT_MAX, 'E-mail address is too long.'),
  entity: z.string().max(100).default('default'),
});

const resetBody = z.object({
  token: z.string({ error: 'Please provide the code.' }).trim().min(1, 'Please provide the code.').max(
    TEXT_MAX,
    'The code is too long.',
  ),
  newPassword: z.string({ error: 'Please provide a new password.' }).min(1, 'Please provide a new password.')
    .max(NEW_PASSWORD_LIMITS.max, 'Password is too long.'),
});

const unlockBody = z.object({
  pin: z.string({ error: 'Please enter your PIN.' }).refine((v) => v.trim() !== '', 'Please enter your PIN.')
    .refine((v) => v.length <= TEXT_MAX, 'PIN is too long.'),
}) satisfies z.ZodType<UnlockRequest>;

export const authRoutes = new Hono<AppEnv>()
  .use(jsonBodyLimit)
  .post('/login', valid('json', loginBody), async (c) => {
    const body = c.req.valid('json');
    const result = await login(c.var.deps, {
      ...body,
      ipAddress: c.var.clientAddress,
      userAgent: c.req.header('user-agent') ?? null,
    });
    if (!result.ok) throw failureError(result);
    if ('secondFactor' in result) {
      return c.json({ success: true, ...result.secondFactor } satisfies MfaStepAnswer);
    }
    return c.json(
      {
        success: true,
        message: SUCCESS.loggedIn,
        token: result.token,
        user: result.user,
      } satisfies LoginAnswer,
    );
  })
  .post(
    '/logout',
    requireSignedIn({ duringPasswordChange: true, fromAnyNetwork: true, whileLocked: true }),
    async (c) => {
      await logout(c.var.deps, c.var.session, c.var.clientAddress);
      // "cache" only, no longer "storage": "storage" also unregisters the service worker, and the next
      // person on a facility tablet needs its precached shell to see the sign-in screen when the network is down.
      // The shell holds nothing private, and the client's own wipe (IndexedDB deleted, memory cleared) is the real
      // guarantee: Chromium applies Clear-Site-Data late in known cases. What the header still serves: the HTTP and
      // back-forward caches, so Back after sign-out cannot show the previous person's screens.
      c.header('Clear-Site-Data', '"cache"');
      return c.json({ success: true, message: SUCCESS.loggedOut } satisfies MessageAnswer);
    },
  )
  // Every session of the user ends, on every device, this one included.
  .post(
    '/logout-all',
    requireSignedIn({ duringPasswordChange: true, fromAnyNetwork: true, whileLocked: true }),
    async (c) => {
      await signOutEverywhere(c.var.deps, c.var.session, c.var.clientAddress);
      c.header('Clear-Site-Data', '"cache"');
      return c.json({ success: true, message: SUCCESS.signedOutEverywhere } satisfies MessageAnswer);
    },
  )
  // Staff only (offenders' PINs are reset by an admin): the same answer whether the address has an account or not.
  .post('/forgot-password', valid('json', forgotBody), async (c) => {
    const result = await requestPasswordReset(c.var.deps, {
      ...c.req.valid('json'),
      ipAddress: c.var.clientAddress,
    });
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.resetLinkSent } satisfies MessageAnswer);
  })
  .post('/reset-password', valid('json', resetBody), async (c) => {
    const result = await completePasswordReset(c.var.deps, {
      ...c.req.valid('json'),
      ipAddress: c.var.clientAddress,
    });
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.passwordSet });
  })
  .get('/me', requireSignedIn({ duringPasswordChange: true }), (c) => {
    const { session } = c.var;
    return c.json(
      { success: true, user: toPublicUser(session, session.must_change_password) } satisfies MeAnswer,
    );
  })
  // The user's own choices, from a portal's header: kept with the user, so they follow them to any tablet.
  .patch('/preferences', requireSignedIn(), valid('json', preferencesBody), async (c) => {
    const change = c.req.valid('json');
    const saved = await saveOwnPreferences(
      c.var.deps.sql,
      change,
      actorFrom(c.var.session, c.var.clientAddress),
    );
    const message = change.language !== undefined ? SUCCESS.languageSaved : SUCCESS.displaySaved;
    return c.json({ success: true, message, ...saved } satisfies OwnPreferencesAnswer);
  })
  .post(
    '/password',
    requireSignedIn({ duringPasswordChange: true }),
    valid('json', passwordBody),
    async (c) => {
      const result = await changePassword(c.var.deps, c.var.session, {
        ...c.req.valid('json'),
        ipAddress: c.var.clientAddress,
      });
      if (!result.ok) throw failureError(result);
      return c.json(
        { success: true, message: SUCCESS.passwordChanged, user: result.user } satisfies PasswordChangeAnswer,
      );
    },
  )
  // Offenders only: attorney, representative and staff portals cache nothing, so they have no key to ask for.
  // A locked session is refused it by the guard: the key comes back only with the PIN (unlock).
  .get('/offline-key', requireRole(['offender']), async (c) => {
    const result = await offlineKey(c.var.deps, c.var.session, c.var.clientAddress);
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, data: result.key } satisfies OfflineKeyAnswer);
  })
  .post('/lock', requireRole(['offender'], { whileLocked: true }), async (c) => {
    const result = await lockSession(c.var.deps, c.var.session, c.var.clientAddress);
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.locked } satisfies MessageAnswer);
  })
  .post('/unlock', requireRole(['offender'], { whileLocked: true }), valid('json', unlockBody), async (c) => {
    const result = await unlock(c.var.deps, c.var.session, {
      pin: c.req.valid('json').pin,
      ipAddress: c.var.clientAddress,
    });
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, data: result.key } satisfies OfflineKeyAnswer);
  })
  // The offender's own recent sign-ins (api/domain/pin_reset.ts): when, from where, and after a staff PIN reset.
  .get('/sign-ins', requireRole(['offender']), async (c) => {
    const data = await ownSignIns(c.var.deps, c.var.session);
    return c.json({ success: true, data } satisfies SignInsAnswer);
  })
  // "Staff reset your PIN" stays at every sign-in until the offender says they have read it.
  .post('/pin-reset-notice/dismiss', requireRole(['offender']), async (c) => {
    await dismissPinResetNotice(c.var.deps, c.var.session, c.var.clientAddress);
    return c.json({ success: true, message: SUCCESS.pinResetNoticeDismissed } satisfies MessageAnswer);
  })
  .post('/register', valid('json', registerBody), async (c) => {
    const result = await submitRegistration(c.var.deps, c.req.valid('json'), c.var.clientAddress);
    if (!result.ok) throw failureError(result);
    return c.json({ success: true, message: SUCCESS.registrationSubmitted } satisfies MessageAnswer, 201);
  });
