import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { AdminEndpoint, AdminOperation, schema } from '../admin-api/admin-endpoint.decorator.js';
import { whileClientConnected } from '../http/client-abort.js';
import { clientAddressOf } from '../http/client-address.js';
import { Public } from '../common/public.decorator.js';
import { rawRequestOf } from '../common/request-slot.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { AdminAccountsService, type AdminLoginAnswer } from './admin-accounts.service.js';
import { AdminLoginDto } from './dto/admin-login.dto.js';

/** The admin API's own login. */
@Controller('admin/v1')
@AdminEndpoint()
export class AdminAuthController {
  constructor(
    private readonly accounts: AdminAccountsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @AdminOperation({
    summary: 'Sign in as an admin',
    description:
      'Each sign-in makes a new admin token (lifetime TOKEN_LIFETIME_SECONDS). Failed sign-ins are throttled with the ' +
      "account's and the address's other failures.",
    answer: schema('AdminLoginAnswer'),
    errors: [401, 429],
  })
  @Post('@authentication')
  @HttpCode(200)
  login(@Body() body: AdminLoginDto, @Req() request: unknown): Promise<AdminLoginAnswer> {
    const raw = rawRequestOf(request);
    const address = clientAddressOf(raw, this.config.http.trustProxy);
    return whileClientConnected(raw, (gone) => this.accounts.login(body.username, body.password, { address, gone }));
  }
}
