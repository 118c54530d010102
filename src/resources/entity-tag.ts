/**
 * Whether an If-None-Match value names the given entity tag (RFC 9110 §13.1.2): `*`, or a
 * comma-separated list of tags compared weakly (a `W/` prefix is ignored on either side). A
 * value that is not a quoted tag never matches. The checksum tags Tessera sets hold no comma.
 */
export function ifNoneMatchHolds(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const tag = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const item of ifNoneMatch.split(',')) {
    const candidate = item.trim();
    if ((candidate.startsWith('W/') ? candidate.slice(2) : candidate) === tag) return true;
  }
  return false;
}
