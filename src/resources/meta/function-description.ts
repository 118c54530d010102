import type { TableFunction } from '../../extensions/functions/function-registry.js';

/**
 * One entry of `@functions`: a row or resource function of a table, with LAC's fields (`name`, `signature`, `functionType`,
 * `resource_names`, `is_active`, `comments`, `parameters` with `type_name` and `is_required`, as the LAC CLI's
 * `list functions` prints them) and Tessera's (`methods`, `writes`, `roles`, `@metadata.href`: its URL template).
 */
export function describeFunction(baseUrl: string, fn: TableFunction): Record<string, unknown> {
  const { definition, table } = fn;
  const row = definition.kind === 'row';
  return {
    '@metadata': { href: `${baseUrl}/${table.urlName}/${row ? '{key}/' : ''}${definition.name}` },
    name: definition.name,
    signature: `${definition.name}(${Object.entries(definition.parameters ?? {})
      .map(([name, p]) => `${p.type} ${name}`)
      .join(', ')})`,
    functionType: row ? 'rowLevel' : 'resourceLevel',
    resource_names: [table.name],
    is_active: true,
    comments: definition.description ?? null,
    parameters: Object.entries(definition.parameters ?? {}).map(([name, p]) => ({
      name,
      type_name: p.type,
      is_required: p.required === true,
      comments: p.description ?? null,
      ...(p.min === undefined ? {} : { min: p.min }),
      ...(p.max === undefined ? {} : { max: p.max }),
    })),
    methods: fn.methods,
    writes: definition.writes === true,
    roles: definition.roles ?? null,
  };
}
