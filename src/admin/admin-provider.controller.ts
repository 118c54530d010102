import { Controller, Get, Inject } from '@nestjs/common';
import { AUTH_PROVIDER, type AuthProvider, type ProviderDescription } from '../provider/auth-provider.js';
import { AdminEndpoint } from './admin-endpoint.decorator.js';

/** The active authentication provider, for operators: its name, file and settings (never secret values). */
@Controller('admin/v1/provider')
@AdminEndpoint()
export class AdminProviderController {
  constructor(@Inject(AUTH_PROVIDER) private readonly provider: AuthProvider) {}

  @Get()
  describe(): Promise<ProviderDescription> {
    return this.provider.describe();
  }
}
