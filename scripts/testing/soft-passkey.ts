import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';

const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash('sha256').update(data).digest());
const b64url = (bytes: Uint8Array | string) => isoBase64URL.fromBuffer(new Uint8Array(typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes));
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/**
 * A software passkey for api tests: an ES256 key pair that answers WebAuthn registration
 * and assertion challenges as a browser and an authenticator would (attestation 'none'),
 * so every refusal of the passkey flows can be tried without a browser. The browser
 * journey uses Chromium's virtual authenticator instead.
 */
export class SoftPasskey {
  readonly credentialId = new Uint8Array(randomBytes(32));
  readonly #keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  counter = 0;

  constructor(
    readonly origin: string,
    readonly rpId = new URL(origin).hostname,
  ) {}

  get id(): string {
    return b64url(this.credentialId);
  }

  #authData(flags: number, attested?: Uint8Array): Uint8Array {
    const counter = new Uint8Array(4);
    new DataView(counter.buffer).setUint32(0, this.counter);
    return concat(sha256(this.rpId), new Uint8Array([flags]), counter, ...(attested ? [attested] : []));
  }

  #cosePublicKey(): Uint8Array {
    const jwk = this.#keys.publicKey.export({ format: 'jwk' });
    const coord = (v: string | undefined) => isoBase64URL.toBuffer(v ?? '');
    return isoCBOR.encode(new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, coord(jwk.x)], [-3, coord(jwk.y)]]));
  }

  /** What navigator.credentials.create() would give for these options. */
  register(options: { challenge: string }, origin = this.origin): RegistrationResponseJSON {
    const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false });
    const length = new Uint8Array(2);
    new DataView(length.buffer).setUint16(0, this.credentialId.length);
    const attested = concat(new Uint8Array(16), length, this.credentialId, this.#cosePublicKey());
    // Flags: user present (0x01), attested credential data included (0x40).
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', this.#authData(0x41, attested)]]) as never);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
    };
  }

  /** What navigator.credentials.get() would give: the counter moves on unless told otherwise. */
  assert(options: { challenge: string }, opts: { origin?: string; counter?: number } = {}): AuthenticationResponseJSON {
    this.counter = opts.counter ?? this.counter + 1;
    const clientDataJSON = JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: opts.origin ?? this.origin, crossOrigin: false });
    const authenticatorData = this.#authData(0x01);
    const signature = sign('sha256', concat(authenticatorData, sha256(clientDataJSON)), this.#keys.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authenticatorData), signature: b64url(new Uint8Array(signature)) },
      clientExtensionResults: {},
    };
  }
}
