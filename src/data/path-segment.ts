/**
 * A name or key part as one URL path segment: percent-encoded (`/`, spaces, line feeds...), and
 * `.` and `..` as `%2E` and `%2E%2E`, which clients would otherwise take for dot segments.
 */
export function pathSegment(text: string): string {
  if (text === '.' || text === '..') return text === '.' ? '%2E' : '%2E%2E';
  return encodeURIComponent(text);
}
