import fc from 'fast-check';
import { apiAs, type Api } from './support/api.js';
import { commits, teamsProject } from './fixtures/teams/teams-project.js';
import { describeEachTarget, suiteApp, type TestApp } from './support/test-app.js';

type Row = Record<string, unknown> & { '@metadata': { href: string; checksum: string; resource: string; verb: string } };
/** A member row, with the columns these tests put in URLs and flip. */
type Member = Row & { member_id: number; active: boolean };

describeEachTarget('logic engine: count, min, max, events and commit rules', (target) => {
  let t: TestApp;
  let api: Api;

  suiteApp(target, { project: teamsProject }, async (app) => {
    t = app;
    api = await apiAs(t, 'demo');
  });

  async function team(id: number): Promise<Row> {
    return (await api.get(`/team/${id}`).expect(200)).body[0] as Row;
  }

  async function newTeam(name: string, maxMembers = 10): Promise<number> {
    const res = await api.post('/team', { name, max_members: maxMembers }).expect(201);
    return res.body.txsummary[0].team_id as number;
  }

  async function addMember(teamId: number, age: number, active = true, nickname?: string): Promise<Row[]> {
    const res = await api.post('/member', { team_id: teamId, age, active, ...(nickname ? { nickname } : {}) }).expect(201);
    return res.body.txsummary as Row[];
  }

  it('counts qualifying children, sums, and keeps min and max as members come and go', async () => {
    const id = await newTeam('Eagles');
    await addMember(id, 30);
    await addMember(id, 25);
    const summary = await addMember(id, 41, false);
    expect(summary.find((r) => r['@metadata'].resource === 'main:team')).toMatchObject({
      active_members: 2,
      total_age: 96,
      oldest: 41,
      youngest: 25,
    });

    const youngest = (await api.get(`/member?filter=${encodeURIComponent(`team_id = ${id} and age = 25`)}`).expect(200)).body[0] as Member;
    await api.delete(`/member/${youngest.member_id}?checksum=override`).expect(200);
    expect(await team(id)).toMatchObject({ active_members: 1, total_age: 71, oldest: 41, youngest: 30 });

    const oldest = (await api.get(`/member?filter=${encodeURIComponent(`team_id = ${id} and age = 41`)}`).expect(200)).body[0] as Member;
    await api.put(`/member/${oldest.member_id}`, { '@metadata': { checksum: 'override' }, age: 20, active: true }).expect(200);
    expect(await team(id)).toMatchObject({ active_members: 2, total_age: 50, oldest: 30, youngest: 20 });
  });

  it('an empty team has no min or max', async () => {
    const id = await newTeam('Empty');
    const member = (await addMember(id, 50)).find((r) => r['@metadata'].resource === 'member') as Member;
    await api.delete(`/member/${member.member_id}?checksum=override`).expect(200);
    expect(await team(id)).toMatchObject({ active_members: 0, total_age: 0, oldest: null, youngest: null });
  });

  it('an early event may change the row before it is written', async () => {
    const id = await newTeam('Hawks');
    const summary = await addMember(id, 33, true, 'ace');
    expect(summary.find((r) => r['@metadata'].resource === 'member')!.nickname).toBe('ACE');
  });

  it('a commit constraint sees final values: a passing intermediate state is not judged', async () => {
    const id = await newTeam('Small', 1);
    const member = (summary: Row[]): Row => summary.find((r) => r['@metadata'].resource === 'member')!;
    const active = member(await addMember(id, 20, true));
    const inactive = member(await addMember(id, 21, false));
    // Swap which member is active in one request: in between, two are active (over the limit of 1).
    const swap = await api.put('/member', [
      { '@metadata': { checksum: 'override' }, member_id: inactive.member_id, active: true },
      { '@metadata': { checksum: 'override' }, member_id: active.member_id, active: false },
    ]);
    expect(swap.status).toBe(200);
    expect(await team(id)).toMatchObject({ active_members: 1 });
  });

  it('a commit constraint failure rolls back the whole transaction (422 / 4220)', async () => {
    const id = await newTeam('Tiny', 1);
    await addMember(id, 20, true);
    const before = await team(id);
    const res = await api.post('/member', { team_id: id, age: 22, active: true });
    expect(res.status).toBe(422);
    expect(res.body.errorCode).toBe(4220);
    expect(res.body.errorMessage).toMatch(/^Team Tiny has 2 active members, more than 1/);
    expect((await team(id))['@metadata'].checksum).toBe(before['@metadata'].checksum);
    expect((await api.get(`/member?filter=${encodeURIComponent(`team_id = ${id}`)}`).expect(200)).body).toHaveLength(1);
  });

  it('a commit event runs once per transaction and sees every touched row', async () => {
    const id = await newTeam('Owls');
    const before = commits.length;
    await api
      .post('/member', [
        { team_id: id, age: 1 },
        { team_id: id, age: 2 },
      ])
      .expect(201);
    expect(commits.length).toBe(before + 1);
    const touched = commits[commits.length - 1]!.touched;
    expect(touched.filter((r) => r.resource === 'member').map((r) => r.verb)).toEqual(['INSERT', 'INSERT']);
    expect(touched.filter((r) => r.resource === 'team')).toHaveLength(1);
  });

  it('random changes keep count, sum, min and max equal to their recomputation', async () => {
    const id = await newTeam('Random', 1000);
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), age: fc.integer({ min: 1, max: 99 }), active: fc.boolean() }),
      fc.record({ kind: fc.constant('age' as const), pick: fc.nat(), age: fc.integer({ min: 1, max: 99 }) }),
      fc.record({ kind: fc.constant('flip' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 15 }), async (ops) => {
        for (const o of ops) {
          const members = (await api.get(`/member?filter=${encodeURIComponent(`team_id = ${id}`)}&pagesize=500`).expect(200))
            .body as Member[];
          const chosen = members.length > 0 && 'pick' in o ? members[o.pick % members.length]! : undefined;
          if (o.kind === 'add') await addMember(id, o.age, o.active);
          else if (chosen && o.kind === 'age')
            await api.put(`/member/${chosen.member_id}`, { '@metadata': { checksum: 'override' }, age: o.age }).expect(200);
          else if (chosen && o.kind === 'flip')
            await api.put(`/member/${chosen.member_id}`, { '@metadata': { checksum: 'override' }, active: !chosen.active }).expect(200);
          else if (chosen && o.kind === 'remove') await api.delete(`/member/${chosen.member_id}?checksum=override`).expect(200);
        }
        const members = (await api.get(`/member?filter=${encodeURIComponent(`team_id = ${id}`)}&pagesize=500`).expect(200)).body as Row[];
        const ages = members.map((m) => m.age as number);
        expect(await team(id)).toMatchObject({
          active_members: members.filter((m) => m.active === true).length,
          total_age: ages.reduce((a, b) => a + b, 0),
          oldest: ages.length > 0 ? Math.max(...ages) : null,
          youngest: ages.length > 0 ? Math.min(...ages) : null,
        });
      }),
      { numRuns: 5 },
    );
  });
});
