import Handlebars from 'handlebars';
import type { ResourceModel, SchemaModel } from '../model.js';
import { generatedHeader } from './header.js';

/** Templates are compiled by the caller (cli.ts reads them); these only build view models. */
export interface RouteTemplates {
  readonly route: string;
  readonly routesIndex: string;
}

function compileTemplate(source: string): HandlebarsTemplateDelegate {
  return Handlebars.compile(source, { noEscape: true, strict: true });
}

export function emitRoute(resource: ResourceModel, templates: RouteTemplates): string {
  const validatorNames = [...(resource.operations.create ? ['validateCreate'] : []), ...(resource.operations.update ? ['validateUpdate'] : [])];
  return compileTemplate(templates.route)({
    header: generatedHeader(resource.file),
    type: resource.type,
    validatorNames,
    validatorImports: validatorNames.join(', '),
  });
}

export function emitRoutesIndex(model: SchemaModel, templates: RouteTemplates): string {
  return compileTemplate(templates.routesIndex)({
    header: generatedHeader('schema/'),
    resources: model.resources.map((r) => ({ type: r.type })),
  });
}
