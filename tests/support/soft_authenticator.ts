/**
 * A software passkey for API tests: an ES256 key made with WebCrypto that answers WebAuthn registrations ('none'
 * attestation) and assertions as a browser would hand them to the API (the JSON of `PublicKeyCredential`), with
 * its signature counter and its user-verified flag under the test's control.
 */

const encoder = new TextEncoder();

export function b64url(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The CBOR head of a major type with its argument (RFC 8949 section 3). */
function head(major: number, value: number): Uint8Array {
  if (value < 24) return new Uint8Array([(major << 5) | value]);
  if (value < 256) return new Uint8Array([(major << 5) | 24, value]);
  if (value < 65536) return new Uint8Array([(major << 5) | 25, value >> 8, value & 255]);
  throw new Error('CBOR value too large for this encoder');
}

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

/** Just enough CBOR for an attestation object and a COSE key. */
function cbor(value: Cbor): Uint8Array {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = encoder.encode(value);
    return concat(head(3, bytes.length), bytes);
  }
  if (value instanceof Uint8Array) return concat(head(2, value.length), value);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return concat(...parts);
}

/** An ECDSA signature as r||s (WebCrypto) turned into the DER WebAuthn carries. */
function derSignature(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    let trimmed: Uint8Array = bytes.slice(i);
    if (trimmed[0] & 0x80) trimmed = concat(new Uint8Array([0]), trimmed);
    return concat(new Uint8Array([0x02, trimmed.length]), trimmed);
  };
  const body = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

function counterBytes(n: number): Uint8Array {
  return new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
}

export class SoftAuthenticator {
  readonly credentialId = crypto.getRandomValues(new Uint8Array(16));
  /** The next assertion's signature counter (a cloned key would send one the server has seen). */
  counter = 0;
  /** Whether the key says it verified its user (a PIN or a fingerprint). */
  userVerified = true;

  private constructor(private readonly keys: CryptoKeyPair, readonly origin: string) {}

  static async create(origin = 'http://localhost'): Promise<SoftAuthenticator> {
    const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
      'sign',
      'verify',
    ]) as CryptoKeyPair;
    return new SoftAuthenticator(keys, origin);
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private flags(extra = 0): number {
    return UP | (this.userVerified ? UV : 0) | extra;
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Uint8Array {
    return encoder.encode(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** Answers a registration's options (`navigator.credentials.create`). */
  async register(options: { challenge: string; rp: { id?: string } }): Promise<Record<string, unknown>> {
    const rpIdHash = await sha256(encoder.encode(options.rp.id ?? new URL(this.origin).hostname));
    const jwk = await crypto.subtle.exportKey('jwk', this.keys.publicKey);
    const fromB64url = (s: string) =>
      Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
    const cose = cbor(
      new Map<Cbor, Cbor>([[1, 2], [3, -7], [-1, 1], [-2, fromB64url(jwk.x!)], [-3, fromB64url(jwk.y!)]]),
    );
    const authData = concat(
      rpIdHash,
      new Uint8Array([this.flags(AT)]),
      counterBytes(this.counter),
      new Uint8Array(16),
      new Uint8Array([this.credentialId.length >> 8, this.credentialId.length & 255]),
      this.credentialId,
      cose,
    );
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** Answers an assertion's options (`navigator.credentials.get`); the counter goes up by one first. */
  async assert(options: { challenge: string; rpId?: string }): Promise<Record<string, unknown>> {
    this.counter++;
    const rpIdHash = await sha256(encoder.encode(options.rpId ?? new URL(this.origin).hostname));
    const authData = concat(rpIdHash, new Uint8Array([this.flags()]), counterBytes(this.counter));
    const clientData = this.clientData('webauthn.get', options.challenge);
    const signed = concat(authData, await sha256(clientData));
    const raw = new Uint8Array(
      await crypto.subtle.sign(
        { name: 'ECDSA', hash: 'SHA-256' },
        this.keys.privateKey,
        signed as BufferSource,
      ),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(derSignature(raw)),
      },
      clientExtensionResults: {},
    };
  }
}
