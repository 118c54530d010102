import { Module } from '@nestjs/common';
import { DataModule } from '../data/data.module.js';
import { LogicModule } from '../logic/logic.module.js';
import { SecurityModule } from '../security/security.module.js';
import { DocumentsService } from './documents.service.js';
import { DocumentReader } from './read/document-reader.js';
import { CustomResourcesModule } from './levels/custom-resources.module.js';

/**
 * The documents layer: every resource, a table's (one level) or a custom resource's (levels
 * nested), read by one reader and written by one writer, as the caller's roles allow. Security
 * decides what a caller may do (src/security/); the logic engine runs the rules of a write
 * (src/logic/); src/resources/ is the HTTP surface that calls this layer.
 */
@Module({
  imports: [DataModule, SecurityModule, LogicModule, CustomResourcesModule],
  providers: [DocumentsService, DocumentReader],
  exports: [DocumentsService, DocumentReader, CustomResourcesModule],
})
export class DocumentsModule {}
