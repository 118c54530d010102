import type { ServerResponse } from 'node:http';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { rawRequestOf } from '../../common/request-slot.js';
import { ResourceRegistry } from '../../data/resource-registry.js';
import { CustomResourceRegistry } from '../../documents/levels/custom-resource-registry.js';
import { ResourcePerf } from './resource-perf.js';

/**
 * Counts each request a resource handler takes in `ResourcePerf` (`@perf`), with its time from here to the end of its
 * answer (or to the connection's close, when the client went away first). It runs after the guards, so the resource is
 * one the registry knows (an unknown name was 404 already), and it is named as the registry names it: a custom
 * resource's level by its custom resource (`Customers.Orders` counts as `Customers`).
 */
@Injectable()
export class ResourcePerfInterceptor implements NestInterceptor {
  constructor(
    private readonly perf: ResourcePerf,
    private readonly registry: ResourceRegistry,
    private readonly custom: CustomResourceRegistry,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<{ params?: Record<string, string> }>();
    const name = request.params?.resource ?? '';
    const table = this.registry.find(name);
    const level = table ? undefined : this.custom.find(name);
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
    return next.handle();
  }
}
