/**
 * `node dist/bench/profile-top.js <file.cpuprofile> [n]`: the functions that spent the most
 * self time in a V8 CPU profile (from `npm run bench -- --profile`), for the issue note.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function (name and location), in microseconds, largest first. */
export function selfTimes(profile: Profile): Array<{ name: string; where: string; micros: number }> {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, { name: string; where: string; micros: number }>();
  profile.samples.forEach((id, i) => {
    const node = byNode.get(id);
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${relative(process.cwd(), url.replace(/^file:\/\//, ''))}:${lineNumber + 1}` : '';
    const key = `${functionName}\u0000${where}`;
    const entry = totals.get(key) ?? { name: functionName || '(anonymous)', where, micros: 0 };
    entry.micros += profile.timeDeltas[i] ?? 0;
    totals.set(key, entry);
  });
  return [...totals.values()].sort((a, b) => b.micros - a.micros);
}

const [file, count] = process.argv.slice(2);
if (file) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const all = selfTimes(profile);
  const total = all.reduce((sum, e) => sum + e.micros, 0);
  for (const e of all.slice(0, Number(count ?? 25))) {
    process.stdout.write(`${((e.micros / total) * 100).toFixed(1).padStart(5)}%  ${e.name}  ${e.where}\n`);
  }
}
