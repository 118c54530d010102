import type { InstanceClient } from '../support/instance-client.js';

export interface RaceFigures {
  rounds: number;
  /** Rounds where both updates got a definite answer. */
  decided: number;
  /** Decided rounds whose number of 200s was not exactly one, with what each answered. */
  wrong: string[];
}

/**
 * Same-checksum races: reads one purchase order, then sends two updates with that checksum at
 * once, one through each instance (so through different Galera nodes). Exactly one may win;
 * the other hears 409 / 4090 (stale checksum). The order must be one the line-item load does
 * not touch, or its amount_total would make both checksums stale.
 */
export async function runChecksumRaces(a: InstanceClient, b: InstanceClient, order: number, until: number): Promise<RaceFigures> {
  const figures: RaceFigures = { rounds: 0, decided: 0, wrong: [] };
  while (Date.now() < until) {
    figures.rounds += 1;
    const read = await a.get(`/purchaseorder/${order}`);
    const rows = read.body.rows as Array<{ '@metadata': { checksum: string } }> | undefined;
    if (read.status !== 200 || !rows?.[0]) continue;
    const checksum = rows[0]['@metadata'].checksum;
    const [ra, rb] = await Promise.all(
      [a, b].map((c) => c.put(`/purchaseorder/${order}`, { '@metadata': { checksum }, notes: `race ${figures.rounds} via ${c.name}` })),
    );
    const definite = (s: number) => s === 200 || s === 409;
    if (!definite(ra!.status) || !definite(rb!.status)) continue;
    figures.decided += 1;
    const winners = [ra!, rb!].filter((r) => r.status === 200).length;
    const losersStale = [ra!, rb!].filter((r) => r.status === 409).every((r) => r.body.errorCode === 4090);
    if (winners !== 1 || !losersStale)
      figures.wrong.push(
        `round ${figures.rounds}: ${a.name} ${ra!.status}/${ra!.body.errorCode}, ${b.name} ${rb!.status}/${rb!.body.errorCode}`,
      );
  }
  return figures;
}
