import { compile } from 'json-schema-to-typescript';
import type { ResourceModel } from '../model.js';
import { pascalCase } from '../naming.js';
import { attributeValueSchema } from './body-schemas.js';
import { generatedHeader } from './header.js';

/** `<Type>Attributes`: the attributes a resource object of this type carries (write-only ones never). */
export async function emitTypes(resource: ResourceModel): Promise<string> {
  const attributes = resource.attributes.filter((a) => !a.writeOnly);
  const schema = {
    title: `${pascalCase(resource.type)}Attributes`,
    type: 'object' as const,
    additionalProperties: false,
    required: attributes.map((a) => a.name),
    properties: Object.fromEntries(
      attributes.map((a) => {
        const value = attributeValueSchema({ ...a, required: a.required });
        return [a.name, a.description ? { ...value, description: a.description } : value];
      }),
    ),
  };
  const code = await compile(schema, schema.title, { bannerComment: '', format: false, additionalProperties: false });
  return `${generatedHeader(resource.file)}\n${code}`;
}
