/** The incremental SHA-256 both backends compute while the bytes stream in. */
import { createHash } from 'node:crypto';

export function sha256Hasher() {
  const hash = createHash('sha256');
  let size = 0;
  return {
    update(chunk: Uint8Array) {
      hash.update(chunk);
      size += chunk.length;
    },
    digest: () => ({ sha256: hash.digest('hex'), size }),
  };
}
