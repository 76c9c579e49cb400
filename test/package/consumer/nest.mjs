// An ES module Nest app (what `nest new` makes since NestJS 12) on the built package and the
// NestJS of the repository.
import 'reflect-metadata';
import * as common from '@nestjs/common';
import * as core from '@nestjs/core';
import nestCore from '@nestjs/core/package.json' with { type: 'json' };
import * as apiConventions from 'api-conventions';
import * as nest from 'api-conventions/nest';
import { serveNest } from './nest-app.cjs';

const result = await serveNest({ common, core, apiConventions, nest, version: nestCore.version });
console.log(JSON.stringify(result));
