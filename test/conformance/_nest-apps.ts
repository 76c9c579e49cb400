/**
 * Nest apps for the tests, on @nestjs/platform-express and @nestjs/platform-fastify, built with
 * the real Nest packages. Decorators are applied as functions (Reflect.decorate, as TypeScript's
 * legacy decorators compile to), with the parameter types a compiler would emit.
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  type INestApplication,
  Module,
  NotFoundException,
  Param,
  Post,
  Req,
  ValidationPipe,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { Conventions } from 'api-conventions';
import { ConventionsModule, identityOf, Public, RouteConventions } from 'api-conventions/nest';
import { IsInt, IsString, Min } from 'class-validator';

/**
 * The major version of NestJS the tests run on: 12, or 11 and 10 in the `nest11` and `nest10`
 * test projects.
 */
export const nestMajor = process.env.API_CONVENTIONS_NEST ?? '12';
/** The platforms a Nest app runs on: NestJS 10's Fastify platform is built on Fastify 4. */
export const platforms =
  nestMajor === '10' ? (['express'] as const) : (['express', 'fastify'] as const);
/** One of {@link platforms}. */
export type Platform = 'express' | 'fastify';

type Decorator = ClassDecorator | MethodDecorator | PropertyDecorator;

/** Applies decorators to a class member as TypeScript's legacy decorators do. */
function on(target: object, key: string, ...decorators: Decorator[]): void {
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  const result = Reflect.decorate(decorators as MethodDecorator[], target, key, descriptor);
  if (result !== undefined) Object.defineProperty(target, key, result as PropertyDescriptor);
}

/** A new book, as ValidationPipe checks it. */
export class NewBook {
  title!: string;
  year!: number;
}
on(NewBook.prototype, 'title', IsString());
on(NewBook.prototype, 'year', IsInt(), Min(1400));

/** What the handlers recorded: which ran, for the fail-closed checks. */
export const ran: string[] = [];

class BooksController {
  list() {
    ran.push('list');
    return { books: [{ id: '1', title: 'Emma' }], hasNext: false };
  }
  one(id: string) {
    ran.push('one');
    if (id !== '1') throw new NotFoundException(`No book ${id}.`);
    return { id, title: 'Emma' };
  }
  create(book: NewBook) {
    ran.push('create');
    return { id: '2', ...book };
  }
  remove() {
    ran.push('remove');
  }
  status() {
    return { ok: true };
  }
  me(req: object) {
    return { subject: identityOf(req)?.subject ?? null };
  }
  fails() {
    throw new Error('secret detail of a failure');
  }
}
Controller('v1')(BooksController);
const books = BooksController.prototype;
on(books, 'list', Get('books'));
on(books, 'one', Get('books/:id'), Public());
Param('id')(books, 'one', 0);
on(books, 'create', Post('books'));
Body()(books, 'create', 0);
Reflect.defineMetadata('design:paramtypes', [NewBook], books, 'create');
on(
  books,
  'remove',
  Delete('books/:id'),
  HttpCode(204),
  RouteConventions({ scopes: ['books:write'] }),
);
on(books, 'status', Get('status'), Public());
on(books, 'me', Get('me'));
Req()(books, 'me', 0);
Reflect.defineMetadata('design:paramtypes', [Object], books, 'me');
on(books, 'fails', Get('failures'), Public());

/** A controller whose route settings misspell `scopes`. */
function misspelt(): new () => object {
  class MisspeltController {
    list() {
      return { items: [], hasNext: false };
    }
  }
  Controller('v1/misspelt')(MisspeltController);
  on(MisspeltController.prototype, 'list', Get(), RouteConventions({ scope: ['x'] } as never));
  return MisspeltController;
}

/** A running Nest app. */
export interface NestServed {
  readonly port: number;
  readonly app: INestApplication;
  close(): Promise<void>;
}

/** Starts a Nest app for `api` on `platform`, with ValidationPipe and Swagger at /docs; port 0. */
export async function serveNest(
  api: Conventions,
  platform: Platform,
  options: { docs?: boolean; misspelt?: boolean } = {},
): Promise<NestServed> {
  class AppModule {}
  const controllers: (new () => object)[] = [BooksController];
  if (options.misspelt) controllers.push(misspelt());
  Module({
    imports: [ConventionsModule.forRoot(api, options.docs ? { docs: 'docs' } : {})],
    controllers,
  })(AppModule);
  const adapter = platform === 'express' ? new ExpressAdapter() : new FastifyAdapter();
  const app = await NestFactory.create(AppModule, adapter, { logger: false });
  app.useGlobalPipes(new ValidationPipe());
  if (options.docs) {
    const document = SwaggerModule.createDocument(
      app,
      new DocumentBuilder().setTitle('Books').build(),
    );
    SwaggerModule.setup('docs', app, document);
  }
  try {
    await app.listen(0, '127.0.0.1');
  } catch (error) {
    await app.close();
    throw error;
  }
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { port, app, close: () => app.close() };
}
