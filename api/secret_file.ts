/**
 * Secrets the API generates for itself when the environment gives none (the session signing key, the PIN
 * pepper): 32 random bytes as hex, written once into the data folder with mode 0600 and read back at every start.
 */

/** 32 random bytes as hex: what a generated secret file holds. */
const SECRET_HEX_LENGTH = 64;

/** The secret in `DATA_DIR/<name>`, created on first use. */
export async function readOrCreateSecretFile(dataDir: string, name: string): Promise<Uint8Array> {
  const path = `${dataDir}/${name}`;
  const existing = await readSecret(path);
  if (existing) return existing;
  await Deno.mkdir(dataDir, { recursive: true });
  const generated = Array.from(
    crypto.getRandomValues(new Uint8Array(32)),
    (b) => b.toString(16).padStart(2, '0'),
  ).join('');
  // Written whole under a name of its own, then linked into place: the real name never holds a partial secret.
  // Instances starting together on one DATA_DIR could otherwise read the file between its creation and its
  // write, and sign with an empty key. link fails if another instance linked first: theirs is used.
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(tmp, generated, { createNew: true, mode: 0o600 });
    const file = await Deno.open(tmp, { read: true });
    try {
      await file.sync();
    } finally {
      file.close();
    }
    await Deno.link(tmp, path);
    return new TextEncoder().encode(generated);
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    const theirs = await readSecret(path);
    if (!theirs) throw new Error(`${path} vanished while being created`);
    return theirs;
  } finally {
    await Deno.remove(tmp).catch(() => {});
  }
}

/** The secret in `DATA_DIR/<name>` when the file exists; never creates it (`npm run doctor`, the key check). */
export async function readSecretFile(dataDir: string, name: string): Promise<Uint8Array | undefined> {
  return await readSecret(`${dataDir}/${name}`);
}

/** The secret stored at `path`, undefined when there is none; a damaged one (empty, cut short) is refused. */
async function readSecret(path: string): Promise<Uint8Array | undefined> {
  let text: string;
  try {
    text = (await Deno.readTextFile(path)).trim();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  if (text.length < SECRET_HEX_LENGTH) {
    throw new Error(
      `${path} holds ${text.length} characters, not a secret of ${SECRET_HEX_LENGTH}: it is damaged. Restore it ` +
        'from a backup (removing it makes a new one: a new signing key ends every session, a new PIN pepper ' +
        'invalidates every PIN).',
    );
  }
  return new TextEncoder().encode(text);
}
