import Handlebars from 'handlebars';
import type { ResourceModel, SchemaModel } from '../model.js';
import { generatedHeader } from './header.js';

/** Templates are compiled by the caller (cli.ts reads them); these only build view models. */
export interface ModuleTemplates {
  readonly resourceModule: string;
  readonly resourcesIndex: string;
}

function compileTemplate(source: string): HandlebarsTemplateDelegate {
  return Handlebars.compile(source, { noEscape: true, strict: true });
}

export function emitResourceModule(resource: ResourceModel, templates: ModuleTemplates): string {
  const validatorNames = [...(resource.operations.create ? ['validateCreate'] : []), ...(resource.operations.update ? ['validateUpdate'] : [])];
  return compileTemplate(templates.resourceModule)({
    header: generatedHeader(resource.file),
    type: resource.type,
    validatorNames,
    validatorImports: validatorNames.join(', '),
  });
}

export function emitResourcesIndex(model: SchemaModel, templates: ModuleTemplates): string {
  return compileTemplate(templates.resourcesIndex)({
    header: generatedHeader('schema/'),
    resources: model.resources.map((r) => ({ type: r.type })),
  });
}
