import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type postgres from 'postgres';
import { AdminError } from '../operator/index.js';
import { requireApp } from './register.js';

/** RS256 with shorter keys is refused by jose, and SPEC.md's example key has 2048 bits. */
const MIN_MODULUS_BITS = 2048;

function isPrivateKey(pem: string): boolean {
  try {
    createPrivateKey(pem);
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses a PEM-encoded RSA public key. A private key is refused, not reduced to its public
 * half: whoever sends one has disclosed it and should make a new pair.
 */
export function parseRsaPublicKey(pem: string): KeyObject {
  if (isPrivateKey(pem)) throw new AdminError('this is a private key: register the public key only, and replace this key pair, since its private key has left its owner');
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (error) {
    throw new AdminError(`not a PEM-encoded public key: ${(error as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'rsa') throw new AdminError(`app keys must be RSA keys, not ${key.asymmetricKeyType ?? 'unknown'}`);
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_MODULUS_BITS) throw new AdminError(`RSA keys must have at least ${MIN_MODULUS_BITS} bits, not ${bits}`);
  return key;
}

/** Registers a public key; app tokens signed with its private key are accepted from now on. */
export async function addKey(sql: postgres.Sql, options: { appId: string; publicKeyPem: string }): Promise<{ keyId: number }> {
  const key = parseRsaPublicKey(options.publicKeyPem);
  // Stored in one canonical form (SPKI), whatever PEM flavour was registered.
  const pem = key.export({ type: 'spki', format: 'pem' }).toString();
  return sql.begin(async (tx) => {
    await requireApp(tx, options.appId);
    const [row] = await tx<{ id: number }[]>`
      insert into cadence_system.app_keys (app_guid, public_key_pem) values (${options.appId}, ${pem}) returning id`;
    return { keyId: row!.id };
  });
}

/** Stops accepting app tokens signed with this key. Access tokens issued before stay valid. */
export async function revokeKey(sql: postgres.Sql, options: { appId: string; keyId: number }): Promise<{ keyId: number; revokedAt: string }> {
  const [row] = await sql<{ revoked_at: Date }[]>`
    update cadence_system.app_keys set revoked_at = coalesce(revoked_at, now())
     where id = ${options.keyId} and app_guid = ${options.appId}
    returning revoked_at`;
  if (!row) throw new AdminError(`app ${options.appId} has no key ${options.keyId}`);
  return { keyId: options.keyId, revokedAt: row.revoked_at.toISOString() };
}

/** The keys an app token of `appId` may be signed with. */
export async function activeKeys(sql: postgres.Sql, appId: string): Promise<KeyObject[]> {
  const rows = await sql<{ public_key_pem: string }[]>`
    select public_key_pem from cadence_system.app_keys where app_guid = ${appId} and revoked_at is null order by id`;
  return rows.map((r) => createPublicKey(r.public_key_pem));
}
