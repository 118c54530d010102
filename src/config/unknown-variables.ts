/**
 * Variables that look like a misspelling of one Tessera reads (`DATABSE_URL`), found in an
 * environment that also holds everything else the machine, the shell, npm and CI put there.
 *
 * Tessera's variables share no prefix (`PORT`, `HOST`, `DATABASE_URL`, `DB_*`, `LOGIN_*`,
 * `TESSERA_ADMIN_*`…), so a name is judged by its distance to the known names alone. Not by a
 * `TESSERA_` prefix either: Kubernetes gives every pod `<SERVICE>_PORT`, `<SERVICE>_SERVICE_HOST`
 * and the like for each service of its namespace, so a service named `tessera` or `tessera-db`
 * would put `TESSERA_PORT` or `TESSERA_DB_SERVICE_HOST` in Tessera's own environment.
 */

/** Shorter names are never judged: `TZ`, `CI`, `PWD`, `_` are one or two edits from anything. */
const MIN_LENGTH = 4;
/** Known names at least this long take two edits (`DATABSE_URL`, `LOG_LEVLE`); shorter ones one. */
const TWO_EDITS_FROM = 8;

/**
 * How many edits a name may be from `known` and still be taken for it. One for short names:
 * two edits from `HOST` are `HOME`, `POST`, `GHOST`…, ordinary names of other things.
 */
function editsAllowed(known: string): number {
  return known.length >= TWO_EDITS_FROM ? 2 : 1;
}

/**
 * The optimal-string-alignment distance of `a` and `b` (insertions, deletions, substitutions and
 * swaps of neighbours each count one), or `limit + 1` as soon as it must exceed `limit`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current.push(d);
      best = Math.min(best, d);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[b.length]!, limit + 1);
}

/** The known names `name` is likely a misspelling of (the closest ones), or none. Case is ignored: `port` is PORT. */
export function likelyMeant(name: string, known: readonly string[]): string[] {
  if (name.length < MIN_LENGTH || known.includes(name)) return [];
  const upper = name.toUpperCase();
  let closest = Number.POSITIVE_INFINITY;
  let meant: string[] = [];
  for (const candidate of known) {
    const limit = editsAllowed(candidate);
    const distance = editDistance(upper, candidate, limit);
    if (distance > limit || distance > closest) continue;
    if (distance < closest) meant = [];
    closest = distance;
    meant.push(candidate);
  }
  return meant;
}

/** One problem per variable of `env` that is likely a misspelling of a known name: `DATABSE_URL: did you mean DATABASE_URL?`. */
export function misspelledVariables(env: Record<string, string | undefined>, known: readonly string[]): string[] {
  return Object.keys(env)
    .sort()
    .flatMap((name) => {
      const meant = likelyMeant(name, known);
      if (meant.length === 0) return [];
      return [`${name}: did you mean ${meant.join(' or ')}? (Tessera reads no ${name}; rename it, or unset it if it is not for Tessera)`];
    });
}
