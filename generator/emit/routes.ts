import Handlebars from 'handlebars';
import type { ResourceModel, SchemaModel } from '../model.js';
import { pascalCase } from '../naming.js';
import { generatedHeader } from './header.js';

/** Templates are compiled by the caller (cli.ts reads them); these only build view models. */
export interface RouteTemplates {
  readonly route: string;
  readonly routesIndex: string;
}

function compileTemplate(source: string): HandlebarsTemplateDelegate {
  return Handlebars.compile(source, { noEscape: true, strict: true });
}

interface RouteView {
  readonly method: 'get' | 'post' | 'patch' | 'delete';
  readonly path: string;
  readonly handler: string;
}

function routesOf(resource: ResourceModel): RouteView[] {
  const collection = `/${resource.collection}`;
  const one = `${collection}/:id{[0-9]+}`;
  const { operations } = resource;
  const routes: RouteView[] = [];
  if (operations.list) routes.push({ method: 'get', path: collection, handler: 'list' });
  if (operations.create) routes.push({ method: 'post', path: collection, handler: 'create' });
  if (operations.get) routes.push({ method: 'get', path: one, handler: 'get' });
  if (operations.update) routes.push({ method: 'patch', path: one, handler: 'update' });
  if (operations.delete) routes.push({ method: 'delete', path: one, handler: 'destroy' });
  if (resource.actions.length) routes.push({ method: 'post', path: `${one}/actions/:action`, handler: 'action' });
  // Related-resource URLs (`/accounts/1/prospects`), which generic JSON:API clients follow.
  if (operations.get && resource.relationships.length) routes.push({ method: 'get', path: `${one}/:relationship{[A-Za-z][A-Za-z0-9]*}`, handler: 'related' });
  return routes;
}

export function emitRoute(resource: ResourceModel, templates: RouteTemplates): string {
  const validatorNames = [
    ...(resource.operations.create ? ['validateCreate'] : []),
    ...(resource.operations.update ? ['validateUpdate'] : []),
  ];
  return compileTemplate(templates.route)({
    header: generatedHeader(resource.file),
    type: resource.type,
    pascalType: pascalCase(resource.type),
    collection: resource.collection,
    validatorNames,
    validatorImports: validatorNames.join(', '),
    routes: routesOf(resource),
  });
}

export function emitRoutesIndex(model: SchemaModel, templates: RouteTemplates): string {
  return compileTemplate(templates.routesIndex)({
    header: generatedHeader('schema/'),
    resources: model.resources.map((r) => ({ type: r.type, pascalType: pascalCase(r.type) })),
  });
}
