/** Scheme words that mark an Authorization header as meant for this service (api-contract §2), lower case. */
export const AUTH_SCHEMES: readonly string[] = ['caliveapicreator', 'espresso', 'bearer'];

/**
 * The key from a credential of the form `<key>` or `<key>:<n>`: the first node is the key,
 * the second is ignored (spec §2.1). Undefined when there is no key.
 */
export function keyFromCredential(credential: string): string | undefined {
  const key = credential.split(':', 1)[0]!.trim();
  return key === '' ? undefined : key;
}

/**
 * The key from `Authorization: <scheme> <key>[:n]` when the scheme is one of ours
 * (case-insensitive). Undefined for a missing header, another scheme (e.g. Basic, meant for
 * someone else) or a malformed one: to the caller that is "no token".
 */
export function keyFromAuthorizationHeader(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(header);
  if (!match || !AUTH_SCHEMES.includes(match[1]!.toLowerCase())) return undefined;
  return keyFromCredential(match[2]!);
}
