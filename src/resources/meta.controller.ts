import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { RequiresAccess } from '../security/requires-access.decorator.js';
import { RolesGuard } from '../security/roles.guard.js';
import type { Resource, ResourceColumn } from './resource-registry.js';
import { ResourceRegistry } from './resource-registry.js';

function describeColumn(column: ResourceColumn): Record<string, unknown> {
  return {
    name: column.name,
    type: column.kind,
    size: column.length ?? null,
    precision: column.precision ?? null,
    scale: column.scale ?? null,
    nullable: column.nullable,
    generated: column.generated,
    primaryKey: column.primary,
  };
}

/** `@resources`, `@tables`, `@tables/<name>`: what this API serves (api-contract §1). */
@Controller('rest/:account/:project/:version')
@UseGuards(RolesGuard)
export class MetaController {
  constructor(private readonly registry: ResourceRegistry) {}

  @Get('@resources')
  @RequiresAccess('META')
  resources(): unknown[] {
    return this.registry.resources.map((r) => ({
      name: r.name,
      prefixedName: `${this.registry.prefix}:${r.tableName}`,
      table: r.tableName,
      primaryKey: r.primaryKey.map((c) => c.name),
    }));
  }

  @Get('@tables')
  @RequiresAccess('META')
  tables(): unknown[] {
    return this.registry.resources.map((r) => this.table(r));
  }

  @Get('@tables/:name')
  @RequiresAccess('META')
  oneTable(@Param('name') name: string): unknown {
    return this.table(this.registry.get(name));
  }

  private table(resource: Resource): Record<string, unknown> {
    return {
      name: resource.tableName,
      columns: resource.columns.map(describeColumn),
      primaryKey: resource.primaryKey.map((c) => c.name),
      parents: resource.parents.map((p) => ({ name: p.name, parent: p.parent, columns: p.columns })),
      children: resource.children.map((c) => ({ name: c.name, child: c.child, via: c.via })),
    };
  }
}
