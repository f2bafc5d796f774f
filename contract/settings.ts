/**
 * The settings catalogue: every system setting's key, type, default, bounds, category, label and
 * description, declared once. The API reads its defaults and bounds from here, seeds missing rows from
 * here at start-up, and a test checks that the migrations' rows agree; the PWA's settings form checks a
 * value against the same bounds before it is sent.
 */

export type SettingType = 'number' | 'boolean' | 'text';
export type SettingCategory = 'security' | 'system' | 'email';

interface Common {
  category: SettingCategory;
  /** How a message names the setting ('Maximum upload size in MB must be …'). */
  label: string;
  /** The line the admin's settings screen shows under the key. */
  description: string;
}

export interface NumberSettingDefinition extends Common {
  type: 'number';
  default: number;
  unit?: string;
  /** Whole numbers from min to max, both included. */
  min: number;
  max: number;
  /** The policy a bound enforces, named in the refusal so an admin knows why it cannot be loosened. */
  policy?: string;
}

export interface BooleanSettingDefinition extends Common {
  type: 'boolean';
  default: boolean;
}

export interface TextSettingDefinition extends Common {
  type: 'text';
  default: string;
  /** The only values the setting may hold (an enum stored as text), when it has a fixed list. */
  choices?: readonly string[];
}

export type SettingDefinition = NumberSettingDefinition | BooleanSettingDefinition | TextSettingDefinition;

/**
 * The security bounds are the CJIS Security Policy's (5.5.3 unsuccessful login attempts, 5.5.5 session lock):
 * no setting may loosen them. The other floors keep the system usable (an idle timeout under 5 minutes signs people out while they read);
 * the ceilings keep a typo from switching a protection off (a lock of 1440 minutes is a day).
 */
export const SETTINGS = {
  failed_login_limit: {
    type: 'number',
    default: 5,
    unit: 'attempts',
    min: 1,
    max: 5,
    policy: 'CJIS Security Policy: at most 5 consecutive failed attempts',
    category: 'security',
    label: 'Failed login limit',
    description:
      'Consecutive failed sign-ins before a staff account is locked (offender accounts wait between tries instead)',
  },
  lockout_minutes: {
    type: 'number',
    default: 10,
    unit: 'minutes',
    min: 10,
    max: 1440,
    policy: 'CJIS Security Policy: a lock of at least 10 minutes',
    category: 'security',
    label: 'Lockout minutes',
    description: 'How long a locked staff account stays locked',
  },
  // 10 in 30 minutes: a PIN sprayed across many DOC numbers never trips the per-account lock, so one address
  // gets about two accounts' worth of failures before it must wait. A facility's own address (inside an active
  // range of the sign-in's entity) has no such budget: its usernames are slowed one by one instead.
  login_address_failure_limit: {
    type: 'number',
    default: 10,
    unit: 'attempts',
    min: 3,
    max: 100,
    category: 'security',
    label: 'Sign-in failures per address',
    description:
      'Failed sign-ins one network address may make within the window before its sign-ins are refused for a while',
  },
  login_address_failure_window_minutes: {
    type: 'number',
    default: 30,
    unit: 'minutes',
    min: 5,
    max: 1440,
    category: 'security',
    label: 'Sign-in failure window minutes',
    description: 'How far back the per-address sign-in failures are counted',
  },
  pin_min_length: {
    type: 'number',
    default: 6,
    unit: 'digits',
    min: 6,
    max: 12,
    policy: 'a PIN of at least 6 digits (a shorter one falls to a few bursts of guesses)',
    category: 'security',
    label: 'PIN minimum length',
    description: 'Fewest digits of a new or reset offender PIN',
  },
  session_idle_minutes: {
    type: 'number',
    default: 30,
    unit: 'minutes',
    min: 5,
    max: 30,
    policy: 'CJIS Security Policy: a session locks after at most 30 minutes of inactivity',
    category: 'security',
    label: 'Session idle minutes',
    description: 'Sign out after this long without activity',
  },
  session_max_hours: {
    type: 'number',
    default: 12,
    unit: 'hours',
    min: 1,
    max: 72,
    category: 'security',
    label: 'Session maximum hours',
    description: 'Longest a session may last, active or not',
  },
  // 5 minutes: a facility tablet is handed from person to person, so the screen locks (the data key leaves
  // memory, the PIN unlocks) long before the session's own idle limit ends it. Never above
  // session_idle_minutes: the API clamps it to that when it answers (api/domain/offline.ts), so lowering the
  // idle limit can never leave a lock that comes after the sign-out.
  tablet_lock_minutes: {
    type: 'number',
    default: 5,
    unit: 'minutes',
    min: 1,
    max: 30,
    policy: 'CJIS Security Policy: a device locks after at most 30 minutes of inactivity',
    category: 'security',
    label: 'Tablet lock minutes',
    description:
      "Lock an offender's tablet after this long without interaction (PIN to unlock; never later than the session idle minutes)",
  },
  // Admins and approvers by default: NIST SP 800-63B-4 (AAL2) and the CJIS Security Policy (5.6.2.2, since
  // 5.9.2) ask for a second factor on accounts that can reset PINs, read the audit log or decide who may send
  // privileged mail. Offenders never (a PIN on a facility tablet). Empty: nobody must (anyone may still enrol).
  mfa_required_roles: {
    type: 'text',
    default: 'admin,approver',
    category: 'security',
    label: 'Roles that must use a second factor',
    description:
      "Roles that must sign in with a passkey, security key or authenticator app, comma-separated (admin, approver, attorney, representative); 'none' for none",
  },
  ip_whitelist_when_empty: {
    type: 'text',
    default: 'deny',
    choices: ['deny', 'allow'],
    category: 'security',
    label: 'IP whitelist when empty',
    description:
      "Offender sign-ins when an entity that has had IP ranges has no active one: 'deny' refuses every address, 'allow' admits any",
  },
  // 10 an hour: one firm behind one address rarely registers more than a few people at once, and each
  // registration costs a full password hash and may queue an e-mail to the address it names.
  registration_limit_per_hour: {
    type: 'number',
    default: 10,
    unit: 'registrations',
    min: 1,
    max: 1000,
    category: 'security',
    label: 'Registrations per address per hour',
    description: 'Registrations one network address may submit in an hour before more are refused',
  },
  department_abbreviation: {
    type: 'text',
    default: 'DOC',
    category: 'system',
    label: 'Department abbreviation',
    description: 'Department abbreviation shown in every portal title',
  },
  document_retention_days: {
    type: 'number',
    default: 90,
    unit: 'days',
    min: 1,
    max: 3650,
    category: 'system',
    label: 'Document retention days',
    description: 'Days a document is kept before it is deleted',
  },
  // The CJIS Security Policy keeps audit records at least a year (5.4.7); seven years by default, a common
  // records schedule. Rows past it are archived, signed and chained, outside the database, then removed.
  audit_retention_days: {
    type: 'number',
    default: 2555,
    unit: 'days',
    min: 365,
    max: 36500,
    category: 'system',
    label: 'Audit log retention days',
    description: 'Days audit rows stay in the database before they move to the signed archive',
  },
  // 30 days: long enough for a person released by mistake, or transferred back, to keep their mail; short
  // enough that privileged mail does not outlive its reader's stay by months.
  release_purge_days: {
    type: 'number',
    default: 30,
    unit: 'days',
    min: 1,
    max: 3650,
    category: 'system',
    label: 'Release purge days',
    description: 'Days after an offender is released or transferred before their documents are deleted',
  },
  // 200 an hour: a public defender with two hundred clients can check each of them in an hour; a script reading
  // the roster gets 200 names an hour, and every lookup is in the audit log.
  recipient_lookup_limit_per_hour: {
    type: 'number',
    default: 200,
    unit: 'lookups',
    min: 10,
    max: 10000,
    category: 'security',
    label: 'Recipient lookups per hour',
    description: 'DOC number lookups one sender may make in an hour before they are refused',
  },
  // 10 minutes: pdf.js fetches a large file in dozens of ranges while its pages are scrolled, so one event per
  // range would bury the log; a window well under the 30-minute idle timeout still shows a long reading going on
  // (one event every 10 minutes) and a later reading in the same session as a new one.
  document_read_audit_window_minutes: {
    type: 'number',
    default: 10,
    unit: 'minutes',
    min: 1,
    max: 60,
    category: 'security',
    label: 'Document read audit window minutes',
    description:
      'Reads of one document by one session within this window are audited once (view and print apart)',
  },
  // 10 documents: a week's mail for most offenders, fetched ahead while the tablet is online so it can be read
  // when the facility network drops; 0 turns prefetching off (only documents opened once are kept).
  offline_prefetch_count: {
    type: 'number',
    default: 10,
    unit: 'documents',
    min: 0,
    max: 50,
    category: 'system',
    label: 'Offline prefetch count',
    description: "Unread documents an offender's tablet downloads ahead for offline reading",
  },
  // 200 MB: twenty 10 MB uploads (max_upload_mb's default), well inside what a browser grants one origin on a
  // tablet; least recently read documents are evicted first when it is full.
  offline_storage_budget_mb: {
    type: 'number',
    default: 200,
    unit: 'MB',
    min: 20,
    max: 2000,
    category: 'system',
    label: 'Offline storage budget in MB',
    description: "Most an offender's tablet keeps cached (encrypted) for offline reading",
  },
  max_upload_mb: {
    type: 'number',
    default: 10,
    unit: 'MB',
    min: 1,
    max: 100,
    category: 'system',
    label: 'Maximum upload size in MB',
    description: 'Largest PDF that can be uploaded',
  },
  smtp_enabled: {
    type: 'boolean',
    default: false,
    category: 'email',
    label: 'SMTP enabled',
    description: 'Send e-mail to registrants (messages wait in the outbox while disabled)',
  },
  smtp_host: {
    type: 'text',
    default: '',
    category: 'email',
    label: 'SMTP host',
    description: 'SMTP server host name (empty: not configured)',
  },
  smtp_port: {
    type: 'number',
    default: 25,
    min: 1,
    max: 65535,
    category: 'email',
    label: 'SMTP port',
    description: 'SMTP server port',
  },
  smtp_from: {
    type: 'text',
    default: 'no-reply@localhost',
    category: 'email',
    label: 'SMTP sender',
    description: "Sender address of the portal's e-mail",
  },
} as const satisfies Record<string, SettingDefinition>;

export type SettingKey = keyof typeof SETTINGS;

/** The keys whose values are numbers, booleans or text. */
export type NumberSettingKey = {
  [K in SettingKey]: (typeof SETTINGS)[K]['type'] extends 'number' ? K : never;
}[SettingKey];
export type BooleanSettingKey = {
  [K in SettingKey]: (typeof SETTINGS)[K]['type'] extends 'boolean' ? K : never;
}[SettingKey];
export type TextSettingKey = {
  [K in SettingKey]: (typeof SETTINGS)[K]['type'] extends 'text' ? K : never;
}[SettingKey];

/** The value a setting of key K holds. */
export type SettingValueOf<K extends SettingKey> = (typeof SETTINGS)[K]['default'] extends number ? number
  : (typeof SETTINGS)[K]['default'] extends boolean ? boolean
  : string;

/** True for a key of the catalogue. */
export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS, key);
}

/** The catalogue entry of `key`. */
export function settingDefinition(key: SettingKey): SettingDefinition {
  return SETTINGS[key];
}

/** The stored JSON of a setting's value: `{ type, value, unit? }` (the settings table's `value` column). */
export interface SettingValue {
  type: SettingType;
  value: number | boolean | string;
  unit?: string;
}

/** A setting's default as it is stored. */
export function defaultSettingValue(key: SettingKey): SettingValue {
  const definition: SettingDefinition = SETTINGS[key];
  return definition.type === 'number' && definition.unit !== undefined
    ? { type: 'number', value: definition.default, unit: definition.unit }
    : { type: definition.type, value: definition.default };
}
