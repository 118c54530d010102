import { Controller, Get, Inject } from '@nestjs/common';
import { AdminEndpoint, AdminOperation, AdminRoleRequired, schema } from '../admin-api/admin-endpoint.decorator.js';
import { AUTH_PROVIDER, type AuthProvider, type ProviderDescription } from './auth-provider.js';

/** The admin API's view of the active authentication provider: its name, file and settings (never secret values). */
@Controller('admin/v1/provider')
@AdminEndpoint()
@AdminRoleRequired('auditor')
export class ProviderController {
  constructor(@Inject(AUTH_PROVIDER) private readonly provider: AuthProvider) {}

  @AdminOperation({
    summary: 'The active authentication provider',
    description: 'Its name, module and settings, secret values blanked.',
    answer: schema('Provider'),
  })
  @Get()
  describe(): Promise<ProviderDescription> {
    return this.provider.describe();
  }
}
