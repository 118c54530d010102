import { Controller, Delete, Post, Put, UseInterceptors } from '@nestjs/common';
import { ExtensionsMayAnswer } from '../../security/extension-routes.js';
import { RequiresAccess } from '../../security/requires-access.decorator.js';
import { ExtensionDispatch, noSuchEndpoint } from './extension-dispatch.interceptor.js';

/**
 * The URL shapes only the project's functions take, beside the resources' own (which `ExtensionDispatch` shares
 * with tables): a resource function's POST (`<table>/<name>`), a row function's POST and PUT
 * (`<table>/<key>/<name>`), a function resource's DELETE (`<name>`). Mounted only when the project declares
 * functions or function resources; RolesGuard answers 404 / 4040 for any other request on them.
 */
@Controller('rest/:account/:project/:version')
@ExtensionsMayAnswer()
@UseInterceptors(ExtensionDispatch)
export class ExtensionRoutesController {
  @Delete(':resource')
  @RequiresAccess('EXTENSION')
  deleteFunctionResource(): never {
    return noSuchEndpoint();
  }

  @Post(':resource/:pk')
  @RequiresAccess('EXTENSION')
  postResourceFunction(): never {
    return noSuchEndpoint();
  }

  @Post(':resource/:pk/:attribute')
  @RequiresAccess('EXTENSION')
  postRowFunction(): never {
    return noSuchEndpoint();
  }

  @Put(':resource/:pk/:attribute')
  @RequiresAccess('EXTENSION')
  putRowFunction(): never {
    return noSuchEndpoint();
  }
}
