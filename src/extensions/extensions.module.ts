import { Module } from '@nestjs/common';
import { ExtensionRunner } from './extension-runner.js';

/** The project's extensions' common ground: how their code is run (`ExtensionRunner`). */
@Module({ providers: [ExtensionRunner], exports: [ExtensionRunner] })
export class ExtensionsModule {}
