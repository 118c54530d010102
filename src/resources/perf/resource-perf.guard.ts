import type { ServerResponse } from 'node:http';
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { rawRequestOf } from '../../common/request-slot.js';
import { ResourceRegistry } from '../../data/resource-registry.js';
import { CustomResourceRegistry } from '../../documents/levels/custom-resource-registry.js';
import { ResourcePerf } from './resource-perf.js';

/**
 * Counts each request a resource handler takes in `ResourcePerf` (`@perf`), with its time from here to the end of its
 * answer (or to the connection's close, when the client went away first). A guard that never refuses, placed on the
 * resources controller: it runs after the global guards, so a request they refused is not counted and the resource is
 * one the registry knows (an unknown name was 404 already). Not an interceptor: Nest wraps every handler behind an
 * interceptor in an RxJS pipeline, which cost a GET by key about a third more CPU. A resource is named as the
 * registry names it: a custom resource's level by its custom resource (`Customers.Orders` counts as `Customers`).
 */
@Injectable()
export class ResourcePerfGuard implements CanActivate {
  constructor(
    private readonly perf: ResourcePerf,
    private readonly registry: ResourceRegistry,
    private readonly custom: CustomResourceRegistry,
  ) {}

  canActivate(context: ExecutionContext): true {
    const http = context.switchToHttp();
    const request = http.getRequest<{ params?: Record<string, string> }>();
    const name = request.params?.resource ?? '';
    const table = this.registry.find(name);
    const level = table ? undefined : this.custom.find(name, request.params?.version);
    const resource = table?.name ?? level?.resource.name;
    if (resource !== undefined) {
      const response = http.getResponse<{ raw?: ServerResponse } | ServerResponse>();
      const raw = ('raw' in response && response.raw ? response.raw : response) as ServerResponse;
      const started = process.hrtime.bigint();
      const method = rawRequestOf(request).method ?? 'GET';
      raw.once('close', () => {
        this.perf.record(
          resource,
          table ? 'TableBased' : 'Custom',
          method,
          raw.statusCode,
          Number(process.hrtime.bigint() - started) / 1e6,
        );
      });
    }
    return true;
  }
}
