import { Metrics, NO_COUNT, NO_METRICS, type RuleCounter } from '../observability/metrics.js';
import type { ParentRelation, Resource, ResourceColumn, ResourceRegistry } from '../data/resource-registry.js';
import { undeclaredReads } from './formula-dry-run.js';
import { messageProblems } from './message-format.js';
import { orderFormulas } from './formula-order.js';
import type { FiredRule } from './rule-log.js';
import { allocationDryRun } from './allocation-dry-run.js';
import type {
  AggregateRule,
  AllocateRule,
  CommitRowRule,
  CommitRule,
  ConstraintRule,
  CopyRule,
  EntityClass,
  EventRule,
  FormulaRule,
  ParentCheckRule,
  Rule,
} from './rule-dsl.js';

export interface Aggregate {
  rule: AggregateRule;
  parent: Resource;
  attr: ResourceColumn;
  child: Resource;
  relation: ParentRelation;
  childAttr?: ResourceColumn;
}

export interface ParentUse {
  relation: ParentRelation;
  parent: Resource;
  attr: string;
}

export interface Formula {
  rule: FormulaRule;
  resource: Resource;
  attr: ResourceColumn;
  ownUses: string[];
  parentUses: ParentUse[];
}

export interface Copy {
  rule: CopyRule;
  resource: Resource;
  attr: ResourceColumn;
  relation: ParentRelation;
  parent: Resource;
  from: ResourceColumn;
}

export interface ParentCheck {
  rule: ParentCheckRule;
  relation: ParentRelation;
  parent: Resource;
}

/** An `allocate` rule resolved against the registry (see `allocate` in `rule-dsl-rows.ts`). */
export interface Allocation {
  rule: AllocateRule;
  provider: Resource;
  recipient: Resource;
  allocation: Resource;
  /** The allocation's relations to the provider and to the recipient. */
  toProvider: ParentRelation;
  toRecipient: ParentRelation;
}

/** The rules that concern one resource, indexed for the engine. */
export class ResourceRules {
  /** In dependency order: a formula comes after the formulas it reads. */
  formulas: Formula[] = [];
  copies: Copy[] = [];
  constraints: ConstraintRule[] = [];
  commitConstraints: ConstraintRule[] = [];
  /** Relations whose parent row must exist when this resource's rows are written. */
  parentChecks: ParentCheck[] = [];
  early: EventRule[] = [];
  after: EventRule[] = [];
  /** Aggregates this resource feeds as the child. */
  feeds: Aggregate[] = [];
  /** Children's formulas that read this resource's attributes. */
  readByChildren: Formula[] = [];
  /** Attributes maintained by rules: clients may not write them. */
  derived = new Set<string>();
  /** Allocations this resource provides. */
  allocations: Allocation[] = [];
  /** Per-row commit events. */
  commitRows: CommitRowRule[] = [];
  /**
   * Relations to parents a write of this resource locks first although it feeds them no
   * aggregate: a provider's parent that its allocations' recipients feed (a payment's customer).
   */
  locksAlso: ParentRelation[] = [];

  get isEmpty(): boolean {
    return (
      this.formulas.length +
        this.copies.length +
        this.constraints.length +
        this.commitConstraints.length +
        this.parentChecks.length +
        this.early.length +
        this.after.length +
        this.allocations.length +
        this.commitRows.length +
        this.feeds.length +
        this.readByChildren.length ===
      0
    );
  }
}

/** The rules whose executions are counted: those that run project code or refuse writes (derivations run too often to be worth a label each). */
const COUNTED_KINDS: ReadonlySet<Rule['kind']> = new Set([
  'constraint',
  'commitConstraint',
  'parentCheck',
  'early',
  'after',
  'commit',
  'allocate',
  'commitRow',
]);

/** One rule as `@rules` lists it: its place in the project's list (1-based), kind, entity and attribute. */
export interface RuleListing {
  ident: number;
  kind: Rule['kind'];
  /** The resource the rule derives or checks (an aggregate's parent); null for a commit event, which has none. */
  entity: string | null;
  /** The attribute it derives; null for constraints and events. */
  attribute: string | null;
  /** As a rule summary names it: `sum customer.balance`, `constraint customer #2`. */
  name: string;
}

/**
 * A managed parent is inserted with its key from the child's foreign key and defaults for the
 * rest: its key must be all of the relation's parent columns, none generated (an explicit value
 * in an auto-increment key leaves PostgreSQL's sequence behind, and the next generated key
 * collides), and every other column must be nullable, defaulted or derived by a rule.
 */
function checkManagedParent(kind: string, parent: Resource, relation: ParentRelation, derived: ReadonlySet<string>): void {
  if (kind !== 'sum' && kind !== 'count') throw new Error(`insertParent is for sum and count, not ${kind}`);
  const fromChild = new Set(relation.columns.map((pair) => pair.parent));
  const keyNotGiven = parent.primaryKey.filter((column) => !fromChild.has(column.name)).map((column) => column.name);
  if (keyNotGiven.length > 0)
    throw new Error(`insertParent: relation ${relation.name} does not give ${parent.name}'s key ${keyNotGiven.join(', ')}`);
  const generated = parent.primaryKey.filter((column) => column.generated).map((column) => column.name);
  if (generated.length > 0)
    throw new Error(
      `insertParent: ${parent.name}'s key ${generated.join(', ')} is generated by the database; a managed parent needs a key the child gives`,
    );
  const required = parent.columns
    .filter((c) => !c.nullable && !c.hasDefault && !c.generated && !fromChild.has(c.name) && !derived.has(c.name))
    .map((c) => c.name);
  if (required.length > 0) throw new Error(`insertParent: ${parent.name} needs ${required.join(', ')}, which have no default`);
}

export class RuleBankError extends Error {
  constructor(readonly problems: string[]) {
    super(`The rules in the project are invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'RuleBankError';
  }
}

/**
 * The project's rules checked against the resource registry at boot: every problem is
 * collected (unknown entities, attributes or relations, a `via` left out where none or several
 * relations lead to the parent, placeholders or formats a message cannot fill, and, below,
 * relations lead to the parent, formula cycles, derived keys, a formula that reads what its
 * `uses` do not list) and reported in one `RuleBankError`.
 */
export class RuleBank {
  private readonly byResource = new Map<string, ResourceRules>();
  readonly commitRules: CommitRule[] = [];

  /** Constraints and events, each with its counter (see `counterOf`). */
  private readonly counters = new Map<Rule, RuleCounter>();
  /** Every rule as a rule summary names it. */
  private readonly descriptions = new Map<Rule, FiredRule>();
  /** Every rule in the project's order, for `@rules`. */
  private readonly listings: RuleListing[] = [];

  constructor(
    private readonly registry: ResourceRegistry,
    rules: readonly Rule[],
    metrics: Metrics = NO_METRICS,
  ) {
    const problems: string[] = [];
    rules.forEach((rule, index) => {
      try {
        this.add(rule);
        const description = this.description(rule, index);
        this.descriptions.set(rule, description);
        this.listings.push({
          ident: index + 1,
          kind: rule.kind,
          entity: this.entityName(rule) ?? null,
          attribute: description.attribute ?? null,
          name: description.name,
        });
        if (metrics.enabled && COUNTED_KINDS.has(rule.kind)) {
          const resource =
            'entity' in rule ? this.resourceOf(rule.entity).name : 'provider' in rule ? this.resourceOf(rule.provider).name : '';
          this.counters.set(rule, metrics.rule({ rule: String(index + 1), kind: rule.kind, resource }));
        }
      } catch (error) {
        problems.push(`rule ${index + 1} (${rule.kind}${'attr' in rule ? ` ${rule.attr}` : ''}): ${(error as Error).message}`);
      }
    });
    // Managed parents, once every rule is in: a column another rule derives needs no default.
    rules.forEach((rule, index) => {
      if (!('insertParent' in rule) || !rule.insertParent) return;
      const feed = [...this.byResource.values()].flatMap((r) => r.feeds).find((f) => f.rule === rule);
      if (!feed) return;
      try {
        checkManagedParent(rule.kind, feed.parent, feed.relation, this.for(feed.parent).derived);
      } catch (error) {
        problems.push(`rule ${index + 1} (${rule.kind} ${rule.attr}): ${(error as Error).message}`);
      }
    });
    rules.forEach((rule, index) => {
      if (rule.kind !== 'allocate') return;
      const allocation = this.registry.resources.find((r) => r.target === rule.allocation);
      if (allocation && this.for(allocation).derived.has(rule.amount.attr)) {
        problems.push(
          `rule ${index + 1} (allocate): ${allocation.name}.${rule.amount.attr} is derived by another rule; the allocation sets it`,
        );
      }
    });
    this.providerLocks();
    for (const [name, rules] of this.byResource) {
      try {
        rules.formulas = orderFormulas(rules.formulas);
      } catch (error) {
        problems.push(`${name}: ${(error as Error).message}`);
      }
    }
    if (problems.length > 0) throw new RuleBankError(problems);
  }

  /** A rule as a rule summary names it: `sum customer.balance`, `constraint customer #2` (its place in the project's list). */
  describe(rule: Rule): FiredRule {
    return this.descriptions.get(rule) ?? { type: rule.kind, name: rule.kind };
  }

  /** The project's rules, in its order (`@rules`). */
  list(): readonly RuleListing[] {
    return this.listings;
  }

  private entityName(rule: Rule): string | undefined {
    if ('entity' in rule) return this.resourceOf(rule.entity).name;
    if ('parent' in rule) return this.resourceOf(rule.parent).name;
    return 'provider' in rule ? this.resourceOf(rule.provider).name : undefined;
  }

  private description(rule: Rule, index: number): FiredRule {
    const entity = this.entityName(rule);
    const attribute = 'attr' in rule ? rule.attr : undefined;
    const name =
      attribute !== undefined ? `${rule.kind} ${entity}.${attribute}` : `${rule.kind} ${entity ?? ''} #${index + 1}`.replace('  ', ' ');
    return attribute !== undefined ? { type: rule.kind, attribute, name } : { type: rule.kind, name };
  }

  /** Where a constraint's or an event's executions (and a constraint's failures) are counted. */
  counterOf(rule: Rule): RuleCounter {
    return this.counters.get(rule) ?? NO_COUNT;
  }

  for(resource: Resource): ResourceRules {
    let rules = this.byResource.get(resource.name);
    if (!rules) {
      rules = new ResourceRules();
      this.byResource.set(resource.name, rules);
    }
    return rules;
  }

  private resourceOf(entity: EntityClass | undefined): Resource {
    const resource = this.registry.resources.find((r) => r.target === entity);
    if (!resource) throw new Error(`${entity?.name ?? String(entity)} is not an entity of this project`);
    if (resource.view) throw new Error(`${resource.name} is a view, which is read-only: no rule applies to it`);
    return resource;
  }

  /** The rule's resource, once its message's placeholders and formats are valid for it (see `message-format.ts`). */
  private checkedMessage(entity: EntityClass, message: string): Resource {
    const resource = this.resourceOf(entity);
    const problems = messageProblems(resource, message);
    if (problems.length > 0) throw new Error(problems.join('; '));
    return resource;
  }

  private column(resource: Resource, name: string): ResourceColumn {
    const column = resource.columnsByName.get(name);
    if (!column) throw new Error(`${resource.name} has no attribute "${name}"`);
    return column;
  }

  private derivable(resource: Resource, name: string): ResourceColumn {
    const column = this.column(resource, name);
    if (column.primary) throw new Error(`${resource.name}.${name} is a primary key column and cannot be derived`);
    if (this.for(resource).derived.has(name)) throw new Error(`${resource.name}.${name} is already derived by another rule`);
    return column;
  }

  private relation(child: Resource, via: string): ParentRelation {
    const relation = child.parents.find((p) => p.name === via);
    if (!relation) {
      throw new Error(
        `${child.name} has no many-to-one relation "${via}" (it has: ${child.parents.map((p) => p.name).join(', ') || 'none'})`,
      );
    }
    return relation;
  }

  /** The child's relation to the parent: `via`, which must lead there, or else the only one that does. */
  private link(child: Resource, parent: Resource, via: string | undefined): ParentRelation {
    if (via !== undefined) {
      const relation = this.relation(child, via);
      if (relation.parent !== parent.name) throw new Error(`relation ${child.name}.${via} leads to ${relation.parent}, not ${parent.name}`);
      return relation;
    }
    const links = child.parents.filter((p) => p.parent === parent.name);
    if (links.length === 1) return links[0]!;
    if (links.length === 0) {
      const others = child.parents.map((p) => `${p.name} -> ${p.parent}`).join(', ') || 'none';
      throw new Error(`${child.name} has no many-to-one relation to ${parent.name} (it has: ${others})`);
    }
    const names = links.map((p) => p.name).join(', ');
    throw new Error(`${child.name} has ${links.length} many-to-one relations to ${parent.name} (${names}): name one with via`);
  }

  private addAllocation(rule: AllocateRule): void {
    const provider = this.resourceOf(rule.provider);
    const recipient = this.resourceOf(rule.recipients.entity);
    const allocation = this.resourceOf(rule.allocation);
    const numeric = (resource: Resource, name: string): ResourceColumn => {
      const column = this.column(resource, name);
      if (column.kind !== 'decimal' && column.kind !== 'integer') throw new Error(`${resource.name}.${name} is not numeric`);
      return column;
    };
    numeric(provider, rule.available);
    const amount = numeric(allocation, rule.amount.attr);
    if (amount.primary) throw new Error(`${allocation.name}.${amount.name} is a primary key column`);
    for (const entry of rule.recipients.order ?? []) this.column(recipient, entry.replace(/^-/, ''));
    const toProvider = this.link(allocation, provider, rule.providerVia);
    const toRecipient = this.link(allocation, recipient, rule.recipientVia);
    const problems = allocationDryRun(rule, provider, recipient);
    if (problems.length > 0) throw new Error(problems.join('; '));
    this.for(provider).allocations.push({ rule, provider, recipient, allocation, toProvider, toRecipient });
  }

  /** A provider's parents that the recipients' aggregates also feed: a provider's write locks them first (see `locksAlso`). */
  private providerLocks(): void {
    for (const rules of this.byResource.values()) {
      for (const { provider, recipient } of rules.allocations) {
        const fed = this.ancestorsFed(recipient);
        for (const relation of provider.parents) {
          if (fed.has(relation.parent) && !rules.locksAlso.includes(relation)) rules.locksAlso.push(relation);
        }
      }
    }
  }

  /** The resources a write of `resource` adjusts through aggregates, at any depth. */
  private ancestorsFed(resource: Resource, seen = new Set<string>()): Set<string> {
    for (const feed of this.for(resource).feeds) {
      if (seen.has(feed.parent.name)) continue;
      seen.add(feed.parent.name);
      this.ancestorsFed(feed.parent, seen);
    }
    return seen;
  }

  private add(rule: Rule): void {
    switch (rule.kind) {
      case 'sum':
      case 'count':
      case 'min':
      case 'max': {
        const parent = this.resourceOf(rule.parent);
        const child = this.resourceOf(rule.children);
        const attr = this.derivable(parent, rule.attr);
        const relation = this.link(child, parent, rule.via);
        if (rule.kind !== 'count' && !rule.childAttr) throw new Error(`${rule.kind} needs childAttr`);
        const childAttr = rule.childAttr ? this.column(child, rule.childAttr) : undefined;
        if (rule.kind === 'sum' && childAttr && childAttr.kind !== 'decimal' && childAttr.kind !== 'integer') {
          throw new Error(`sum over ${child.name}.${childAttr.name}, which is not numeric`);
        }
        this.for(parent).derived.add(attr.name);
        this.for(child).feeds.push({ rule, parent, attr, child, relation, childAttr });
        return;
      }
      case 'formula': {
        const resource = this.resourceOf(rule.entity);
        const attr = this.derivable(resource, rule.attr);
        const ownUses: string[] = [];
        const parentUses: ParentUse[] = [];
        for (const use of rule.uses) {
          const [first, second] = use.split('.');
          if (second === undefined) {
            ownUses.push(this.column(resource, first!).name);
            continue;
          }
          const relation = this.relation(resource, first!);
          const parent = this.registry.get(relation.parent);
          parentUses.push({ relation, parent, attr: this.column(parent, second).name });
        }
        const formula: Formula = { rule, resource, attr, ownUses, parentUses };
        const undeclared = undeclaredReads(formula);
        if (undeclared.length > 0) {
          const reads = undeclared.map((name) => `"${name}"`).join(' and ');
          const which = undeclared.length === 1 ? 'which is' : 'which are';
          throw new Error(`formula ${resource.name}.${attr.name} reads ${reads}, ${which} not in its uses: ${JSON.stringify(rule.uses)}`);
        }
        this.for(resource).derived.add(attr.name);
        this.for(resource).formulas.push(formula);
        for (const use of parentUses) this.for(use.parent).readByChildren.push(formula);
        return;
      }
      case 'copy': {
        const resource = this.resourceOf(rule.entity);
        const attr = this.derivable(resource, rule.attr);
        if (rule.via === undefined && rule.parent === undefined) throw new Error('copy needs via or parent');
        const relation = rule.parent ? this.link(resource, this.resourceOf(rule.parent), rule.via) : this.relation(resource, rule.via!);
        const parent = this.registry.get(relation.parent);
        this.for(resource).derived.add(attr.name);
        this.for(resource).copies.push({ rule, resource, attr, relation, parent, from: this.column(parent, rule.from) });
        return;
      }
      case 'constraint':
        this.for(this.checkedMessage(rule.entity, rule.message)).constraints.push(rule);
        return;
      case 'commitConstraint':
        this.for(this.checkedMessage(rule.entity, rule.message)).commitConstraints.push(rule);
        return;
      case 'parentCheck': {
        const child = this.checkedMessage(rule.entity, rule.message);
        const parent = this.resourceOf(rule.parent);
        const relation = this.link(child, parent, rule.via);
        if (!parent.primaryKey.every((key) => relation.columns.some((pair) => pair.parent === key.name))) {
          throw new Error(`relation ${child.name}.${relation.name} does not lead to the primary key of ${parent.name}`);
        }
        this.for(child).parentChecks.push({ rule, relation, parent });
        return;
      }
      case 'early':
        this.for(this.resourceOf(rule.entity)).early.push(rule);
        return;
      case 'after':
        this.for(this.resourceOf(rule.entity)).after.push(rule);
        return;
      case 'commit':
        this.commitRules.push(rule);
        return;
      case 'commitRow':
        this.for(this.resourceOf(rule.entity)).commitRows.push(rule);
        return;
      case 'allocate':
        this.addAllocation(rule);
        return;
    }
  }
}
