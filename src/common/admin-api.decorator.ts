import { SetMetadata } from '@nestjs/common';

export const IS_ADMIN_API = 'tessera:isAdminApi';

/**
 * Marks the admin API's controllers: they are guarded by admin tokens (src/admin/), so the
 * API's token guard leaves them alone, and API tokens never open them.
 */
export const AdminApi = (): MethodDecorator & ClassDecorator => SetMetadata(IS_ADMIN_API, true);
