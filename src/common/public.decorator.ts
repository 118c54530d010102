import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'tessera:isPublic';

/** Marks an endpoint that needs no auth token (api-contract §1 system endpoints). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
