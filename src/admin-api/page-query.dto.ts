import { Type } from 'class-transformer';
import { IsInt, IsOptional, Min } from 'class-validator';

/** `?offset=&pagesize=` of the admin lists; pagesize is capped at PAGE_SIZE_MAX. */
export class PageQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  pagesize?: number;
}
