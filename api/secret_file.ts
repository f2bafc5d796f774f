/**
 * Secrets the API generates for itself when the environment gives none (the session signing key, the PIN
 * pepper): 32 random bytes as hex, written once into the data folder with mode 0600 and read back at every start.
 */

/** The secret in `DATA_DIR/<name>`, created on first use. */
export async function readOrCreateSecretFile(dataDir: string, name: string): Promise<Uint8Array> {
  const encoder = new TextEncoder();
  const path = `${dataDir}/${name}`;
  try {
    return encoder.encode((await Deno.readTextFile(path)).trim());
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  await Deno.mkdir(dataDir, { recursive: true });
  const generated = Array.from(
    crypto.getRandomValues(new Uint8Array(32)),
    (b) => b.toString(16).padStart(2, '0'),
  ).join('');
  // createNew: if another instance sharing DATA_DIR wrote it first, use theirs.
  try {
    await Deno.writeTextFile(path, generated, { createNew: true, mode: 0o600 });
    return encoder.encode(generated);
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    return encoder.encode((await Deno.readTextFile(path)).trim());
  }
}
