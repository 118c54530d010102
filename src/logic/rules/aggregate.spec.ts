import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Member } from '../../../test/fixtures/teams/member.entity.js';
import { Team } from '../../../test/fixtures/teams/team.entity.js';
import { registryOf } from '../../../test/support/registry.js';
import type { ResourceRegistry } from '../../data/resource-registry.js';
import type { CanonicalRow } from '../../data/value-codec.js';
import { Customer } from '../../demo/entities/customer.entity.js';
import { Employee } from '../../demo/entities/employee.entity.js';
import { Lineitem } from '../../demo/entities/lineitem.entity.js';
import { Product } from '../../demo/entities/product.entity.js';
import { Purchaseorder } from '../../demo/entities/purchaseorder.entity.js';
import type { Aggregate } from '../rule-bank.js';
import { RuleBank } from '../rule-bank.js';
import { count, max, min, sum } from '../rule-dsl.js';
import { adjustments, type ParentAdjustment } from './aggregate.js';
import type { RuleContext } from './rule-context.js';

/** A transaction whose only answer is the children a min or max reads again; it counts the reads. */
function fakeContext(children: CanonicalRow[] = []) {
  const findChildren = jest.fn(async (..._args: unknown[]) => children);
  return { tx: { store: { findChildren } } as unknown as RuleContext, findChildren };
}

const member = (values: CanonicalRow): CanonicalRow => ({ member_id: 7, team_id: 1, age: 30, active: true, nickname: null, ...values });
const team = (values: CanonicalRow = {}): CanonicalRow => ({
  team_id: 1,
  name: 'Reds',
  active_members: 2,
  total_age: 50,
  oldest: 30,
  youngest: 20,
  max_members: 10,
  ...values,
});
const order = (values: CanonicalRow): CanonicalRow => ({
  order_number: 5,
  customer_name: 'Alpha',
  salesrep_id: null,
  amount_total: '100.0000',
  paid: false,
  notes: null,
  ...values,
});

describe('aggregate adjustments', () => {
  let teams: ResourceRegistry;
  let demo: ResourceRegistry;
  /** The member feeds: active_members (count where active), total_age (sum), oldest (max), youngest (min). */
  let memberFeeds: readonly Aggregate[];
  /** The order feed: customer.balance = Σ amount_total of unpaid orders. */
  let orderFeeds: readonly Aggregate[];
  beforeAll(async () => {
    teams = await registryOf([Team, Member]);
    memberFeeds = new RuleBank(teams, [
      count({ parent: Team, attr: 'active_members', children: Member, where: (m) => m.active }),
      sum({ parent: Team, attr: 'total_age', children: Member, childAttr: 'age' }),
      max({ parent: Team, attr: 'oldest', children: Member, childAttr: 'age' }),
      min({ parent: Team, attr: 'youngest', children: Member, childAttr: 'age' }),
    ]).for(teams.get('member')).feeds;
    demo = await registryOf([Customer, Employee, Lineitem, Product, Purchaseorder]);
    orderFeeds = new RuleBank(demo, [
      sum({ parent: Customer, attr: 'balance', children: Purchaseorder, childAttr: 'amount_total', where: (o) => !o.paid }),
    ]).for(demo.get('purchaseorder')).feeds;
  });

  const only = (...attrs: string[]): Aggregate[] => memberFeeds.filter((f) => attrs.includes(f.attr.name));
  const keys = (list: ParentAdjustment[]) => list.map((a) => [a.parent.name, a.relation.name, a.key]);

  describe('sum and count', () => {
    it('add an inserted child, and take a deleted one away, by delta', async () => {
      const feeds = only('active_members', 'total_age');
      const [added] = adjustments(feeds, null, member({ age: 30 }));
      expect(await added!.apply(team(), fakeContext().tx)).toEqual({ active_members: 3, total_age: 80 });
      const [removed] = adjustments(feeds, member({ age: 30 }), null);
      expect(await removed!.apply(team(), fakeContext().tx)).toEqual({ active_members: 1, total_age: 20 });
    });

    it('move by the difference when a child changes under the same parent', async () => {
      const list = adjustments(only('active_members', 'total_age'), member({ age: 30 }), member({ age: 34 }));
      expect(keys(list)).toEqual([['team', 'team', [1]]]);
      expect(await list[0]!.apply(team(), fakeContext().tx)).toEqual({ total_age: 54 });
    });

    it('make no adjustment when nothing they add up changed', () => {
      expect(adjustments(only('active_members', 'total_age'), member({ nickname: null }), member({ nickname: 'Ace' }))).toEqual([]);
      expect(adjustments(orderFeeds, order({ amount_total: '100.0000' }), order({ amount_total: '100.0000', notes: 'later' }))).toEqual([]);
    });

    it('take a re-parented child from the old parent and give it to the new one', async () => {
      const list = adjustments(only('active_members', 'total_age'), member({ team_id: 1, age: 30 }), member({ team_id: 2, age: 30 }));
      expect(keys(list)).toEqual([
        ['team', 'team', [1]],
        ['team', 'team', [2]],
      ]);
      expect(await list[0]!.apply(team(), fakeContext().tx)).toEqual({ active_members: 1, total_age: 20 });
      expect(await list[1]!.apply(team({ team_id: 2, active_members: 0, total_age: 0 }), fakeContext().tx)).toEqual({
        active_members: 1,
        total_age: 30,
      });
    });

    it('follow a where that flips: the child leaves and comes back', async () => {
      const [paying] = adjustments(orderFeeds, order({ paid: false }), order({ paid: true }));
      expect(paying!.key).toEqual(['Alpha']);
      expect(await paying!.apply({ name: 'Alpha', balance: '250.0000', credit_limit: '1000.0000' }, fakeContext().tx)).toEqual({
        balance: '150.0000',
      });
      const [unpaying] = adjustments(orderFeeds, order({ paid: true }), order({ paid: false }));
      expect(await unpaying!.apply({ name: 'Alpha', balance: '150.0000', credit_limit: '1000.0000' }, fakeContext().tx)).toEqual({
        balance: '250.0000',
      });
      expect(adjustments(orderFeeds, order({ paid: true, amount_total: '1.0000' }), order({ paid: true, amount_total: '2.0000' }))).toEqual(
        [],
      );
      const [leaving] = adjustments(only('active_members', 'total_age'), member({ active: true }), member({ active: false }));
      expect(await leaving!.apply(team(), fakeContext().tx)).toEqual({ active_members: 1 });
    });

    it('read a null child value as nothing to add, and a null parent total as zero', async () => {
      expect(adjustments(orderFeeds, order({ amount_total: null }), order({ amount_total: null }))).toEqual([]);
      const [arriving] = adjustments(orderFeeds, order({ amount_total: null }), order({ amount_total: '12.5000' }));
      expect(await arriving!.apply({ name: 'Alpha', balance: null, credit_limit: '1000.0000' }, fakeContext().tx)).toEqual({
        balance: '12.5000',
      });
      const [leaving] = adjustments(orderFeeds, order({ amount_total: '12.5000' }), order({ amount_total: null }));
      expect(await leaving!.apply({ name: 'Alpha', balance: '12.5000', credit_limit: '1000.0000' }, fakeContext().tx)).toEqual({
        balance: '0.0000',
      });
    });

    it('leave a parent alone for a child without one (a null foreign key), and for a zero', () => {
      expect(adjustments(only('active_members', 'total_age'), null, member({ team_id: null }))).toEqual([]);
      expect(adjustments(orderFeeds, null, order({ amount_total: '0.0000' }))).toEqual([]);
      expect(adjustments(orderFeeds, order({ amount_total: '0.0000' }), null)).toEqual([]);
    });
  });

  it('merges the aggregates of one parent into one adjustment (one UPDATE), each attribute from the current value', async () => {
    const list = adjustments(memberFeeds, null, member({ age: 41 }));
    expect(keys(list)).toEqual([['team', 'team', [1]]]);
    const { tx, findChildren } = fakeContext();
    expect(await list[0]!.apply(team(), tx)).toEqual({ active_members: 3, total_age: 91, oldest: 41, youngest: 20 });
    expect(findChildren).not.toHaveBeenCalled();
  });

  describe('min and max', () => {
    it('take an arriving child that beats the extreme, and keep the extreme otherwise, without reading children', async () => {
      const { tx, findChildren } = fakeContext();
      const [arrives] = adjustments(only('oldest', 'youngest'), null, member({ age: 18 }));
      expect(await arrives!.apply(team({ oldest: 30, youngest: 20 }), tx)).toEqual({ oldest: 30, youngest: 18 });
      const [first] = adjustments(only('oldest', 'youngest'), null, member({ age: 25 }));
      expect(await first!.apply(team({ oldest: null, youngest: null }), tx)).toEqual({ oldest: 25, youngest: 25 });
      expect(findChildren).not.toHaveBeenCalled();
    });

    it('keep the extreme, reading nothing, when a child that was not the extreme leaves', async () => {
      const { tx, findChildren } = fakeContext();
      const [leaves] = adjustments(only('oldest', 'youngest'), member({ age: 25 }), null);
      expect(await leaves!.apply(team({ oldest: 30, youngest: 20 }), tx)).toEqual({ oldest: 30, youngest: 20 });
      expect(findChildren).not.toHaveBeenCalled();
    });

    it('read the children again only when the extreme itself leaves', async () => {
      const remaining = [member({ member_id: 1, age: 22 }), member({ member_id: 2, age: 27 })];
      const { tx, findChildren } = fakeContext(remaining);
      const parent = team({ oldest: 30, youngest: 20 });
      const [leaves] = adjustments(only('oldest'), member({ age: 30 }), null);
      expect(await leaves!.apply(parent, tx)).toEqual({ oldest: 27 });
      expect(findChildren).toHaveBeenCalledTimes(1);
      expect(findChildren).toHaveBeenCalledWith(teams.get('member'), teams.get('member').parents[0], parent, false);
    });

    it('become null when the extreme leaves and no child is left', async () => {
      const { tx } = fakeContext([]);
      const [leaves] = adjustments(only('youngest'), member({ age: 20 }), null);
      expect(await leaves!.apply(team({ youngest: 20 }), tx)).toEqual({ youngest: null });
    });

    it('follow a child that moves: past the extreme without reads, away from it with one', async () => {
      const quiet = fakeContext();
      const [grows] = adjustments(only('oldest'), member({ age: 25 }), member({ age: 35 }));
      expect(await grows!.apply(team({ oldest: 30 }), quiet.tx)).toEqual({ oldest: 35 });
      expect(quiet.findChildren).not.toHaveBeenCalled();

      const reread = fakeContext([member({ member_id: 1, age: 28 }), member({ age: 26 })]);
      const [shrinks] = adjustments(only('oldest'), member({ age: 30 }), member({ age: 26 }));
      expect(await shrinks!.apply(team({ oldest: 30 }), reread.tx)).toEqual({ oldest: 28 });
      expect(reread.findChildren).toHaveBeenCalledTimes(1);

      expect(adjustments(only('oldest'), member({ age: 30, nickname: null }), member({ age: 30, nickname: 'Ace' }))).toEqual([]);
    });

    it('take a re-parented extreme from the old parent (reading it again) and offer it to the new one', async () => {
      const list = adjustments(only('oldest'), member({ team_id: 1, age: 30 }), member({ team_id: 2, age: 30 }));
      expect(keys(list)).toEqual([
        ['team', 'team', [1]],
        ['team', 'team', [2]],
      ]);
      const { tx, findChildren } = fakeContext([member({ member_id: 1, age: 21 })]);
      expect(await list[0]!.apply(team({ oldest: 30 }), tx)).toEqual({ oldest: 21 });
      expect(await list[1]!.apply(team({ team_id: 2, oldest: 40 }), tx)).toEqual({ oldest: 40 });
      expect(findChildren).toHaveBeenCalledTimes(1);
    });
  });
});
