import { Controller, Delete, HttpCode, Post, Put, Req } from '@nestjs/common';
import { ExtensionsMayAnswer } from '../../security/extension-routes.js';
import { RequiresAccess } from '../../security/requires-access.decorator.js';
import { ExtensionDispatch, noSuchEndpoint } from './extension-dispatch.js';

/**
 * The URL shapes only the project's functions take, beside the resources' own (whose handlers hand an
 * extension's request to `ExtensionDispatch`): a resource function's POST (`<table>/<name>`), a row function's
 * POST and PUT (`<table>/<key>/<name>`), a function resource's DELETE (`<name>`). Mounted only when the project
 * declares functions or function resources; RolesGuard answers 404 / 4040 for any other request on them.
 */
@Controller('rest/:account/:project/:version')
@ExtensionsMayAnswer()
export class ExtensionRoutesController {
  constructor(private readonly extensions: ExtensionDispatch) {}

  @Delete(':resource')
  @RequiresAccess('EXTENSION')
  deleteFunctionResource(@Req() req: unknown): Promise<unknown> {
    return this.extensions.claimed(req) ?? noSuchEndpoint();
  }

  @Post(':resource/:pk')
  @HttpCode(200)
  @RequiresAccess('EXTENSION')
  postResourceFunction(@Req() req: unknown): Promise<unknown> {
    return this.extensions.claimed(req) ?? noSuchEndpoint();
  }

  @Post(':resource/:pk/:attribute')
  @HttpCode(200)
  @RequiresAccess('EXTENSION')
  postRowFunction(@Req() req: unknown): Promise<unknown> {
    return this.extensions.claimed(req) ?? noSuchEndpoint();
  }

  @Put(':resource/:pk/:attribute')
  @RequiresAccess('EXTENSION')
  putRowFunction(@Req() req: unknown): Promise<unknown> {
    return this.extensions.claimed(req) ?? noSuchEndpoint();
  }
}
