import { hash, verify } from '@node-rs/argon2';

// argon2id with OWASP's second recommended parameter set (19 MiB, 2 passes).
const options = { algorithm: 2 /* Algorithm.Argon2id (a const enum) */, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// A real hash of a random password: verifying against it costs the same time as a real
// user, so a login for an unknown e-mail cannot be told apart by timing.
let dummy: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(`no-such-user-${Math.random()}`);
  return dummy;
}
