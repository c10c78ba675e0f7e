import { byCodePoint } from '../compare.js';
import { snakeCase } from '../naming.js';
import {
  SchemaFileError,
  type ActionModel,
  type AttributeModel,
  type CreateBodyModel,
  type OperationsModel,
  type ParamSchemaModel,
  type RelationshipModel,
  type ResourceModel,
} from '../model.js';

/** The shape the meta-schema guarantees; only what the model needs is typed. */
interface RawDefinition {
  type?: string;
  format?: AttributeModel['format'];
  items?: { type?: string; format?: AttributeModel['format']; maxLength?: number; $ref?: string };
  enum?: unknown[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  maxItems?: number;
  default?: unknown;
  examples?: unknown[];
  filterable?: boolean;
  sortable?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
  description?: string;
  data?: boolean;
  $ref?: string;
  anyOf?: { $ref: string }[];
  'x-required'?: boolean;
  'x-writable'?: string[];
  'x-inverse'?: string;
  'x-relationshipId'?: string;
  'x-search'?: boolean;
  'x-index'?: boolean;
  'x-importKey'?: number;
  'x-renderedAs'?: AttributeModel['renderedAs'];
  'x-filterBy'?: string[];
}

interface RawLink {
  href: string;
  method: string;
  rel: string;
  optionalParams?: string[];
  requiredParams?: string[];
  'x-paramSchemas'?: Record<string, ParamSchemaModel>;
  targetSchema?: { $ref?: string };
  'x-answer'?: ActionModel['answer'];
  'x-createBody'?: CreateBodyModel;
}

interface RawResource {
  title: string;
  description: string;
  stability: string;
  'x-scope': string;
  'x-webhookActions': string[];
  'x-listedWhen'?: { present: string[] };
  'x-foreignKeys'?: false;
  definitions: Record<string, RawDefinition>;
  links: RawLink[];
}

const STANDARD_RELS: Record<string, keyof OperationsModel> = {
  instances: 'list',
  self: 'get',
  create: 'create',
  update: 'update',
  destroy: 'delete',
};

/** Turns one meta-schema-valid file into its resource model. */
export function buildResourceModel(file: string, json: Record<string, unknown>): ResourceModel {
  const raw = json as unknown as RawResource;
  const expectedType = file.replace(/^.*\//, '').replace(/\.json$/, '');
  if (raw.title !== expectedType) {
    throw new SchemaFileError(file, '/title', `must equal the file name "${expectedType}"`);
  }
  const collection = collectionOf(file, raw);
  const names = Object.keys(raw.definitions).sort(byCodePoint);
  checkProperties(file, raw.title, names, json.properties as Record<string, { $ref: string }>);
  const actions = actionsOf(file, raw.title, raw.links);
  const attributes = names.filter((n) => !isRelationship(raw.definitions[n]!)).map((n) => attributeOf(file, n, raw.definitions[n]!, raw.definitions));
  const listedWhen = listedWhenOf(file, raw['x-listedWhen'], attributes);
  const createBody = createBodyOf(file, raw.links);
  return {
    type: raw.title,
    file,
    collection,
    table: snakeCase(collection),
    scope: raw['x-scope'],
    stability: raw.stability,
    description: raw.description,
    webhookActions: raw['x-webhookActions'],
    attributes,
    relationships: names.filter((n) => isRelationship(raw.definitions[n]!)).map((n) => relationshipOf(n, raw.definitions[n]!)),
    operations: operationsOf(raw.links),
    ...(createBody && { createBody }),
    actions: actions.member,
    collectionActions: actions.collection,
    ...(listedWhen && { listedWhen }),
    ...(raw['x-foreignKeys'] === false && { foreignKeys: false as const }),
    definition: json,
  };
}

function isRelationship(definition: RawDefinition): boolean {
  return definition.data !== undefined;
}

function collectionOf(file: string, raw: RawResource): string {
  const collections = new Set(raw.links.map((link) => link.href.split('/')[3]));
  if (collections.size !== 1) {
    throw new SchemaFileError(file, '/links', `every link must use one collection path, found ${[...collections].join(', ')}`);
  }
  return [...collections][0]!;
}

function checkProperties(file: string, type: string, names: string[], properties: Record<string, { $ref: string }>): void {
  for (const name of names) {
    const want = `#/definitions/${type}/definitions/${name}`;
    if (properties[name]?.$ref !== want) {
      throw new SchemaFileError(file, `/properties/${name}`, `must be {"$ref": "${want}"}`);
    }
  }
  for (const name of Object.keys(properties)) {
    if (!names.includes(name)) throw new SchemaFileError(file, `/properties/${name}`, 'has no definition');
  }
}

function attributeOf(file: string, name: string, d: RawDefinition, all: Record<string, RawDefinition>): AttributeModel {
  const aliased = d['x-relationshipId'];
  if (aliased !== undefined && (all[aliased]?.data !== true || d.readOnly !== true || d.type !== 'integer')) {
    throw new SchemaFileError(file, `/definitions/${name}/x-relationshipId`, `"${aliased}" must be a to-one relationship, and ${name} a read-only integer`);
  }
  // A value never rendered must not be found out through filters or sort order either.
  if (d.writeOnly === true && (d.readOnly === true || d.filterable === true || d.sortable === true)) {
    throw new SchemaFileError(file, `/definitions/${name}/writeOnly`, 'a write-only attribute cannot be read-only, filterable or sortable');
  }
  // Duplicates are found by lower(column): only a text column, or a text array, has one.
  if (d['x-importKey'] !== undefined && !isText(d.type, d.format) && !(d.type === 'array' && isText(d.items?.type, d.items?.format))) {
    throw new SchemaFileError(file, `/definitions/${name}/x-importKey`, 'an import key must be a string attribute (not a date or date-time) or an array of such strings');
  }
  // Only a filter or a sort order is served by an index: leaving out one nothing would have is a mistake.
  if (d['x-index'] === false && d.filterable !== true && d.sortable !== true) {
    throw new SchemaFileError(file, `/definitions/${name}/x-index`, 'only a filterable or sortable attribute has an index to leave out');
  }
  // Only a timestamp has another rendering: the value's type in responses follows from it.
  if (d['x-renderedAs'] !== undefined && (d.type !== 'string' || d.format !== 'date-time')) {
    throw new SchemaFileError(file, `/definitions/${name}/x-renderedAs`, 'only a date-time attribute can be rendered as epoch seconds');
  }
  return {
    name,
    column: aliased !== undefined ? `${snakeCase(aliased)}_id` : snakeCase(name),
    type: d.type as AttributeModel['type'],
    ...(d.format !== undefined && { format: d.format }),
    ...(d.items !== undefined && { items: d.items as NonNullable<AttributeModel['items']> }),
    ...(d.enum !== undefined && { enum: d.enum }),
    ...(d.maxLength !== undefined && { maxLength: d.maxLength }),
    ...(d.minimum !== undefined && { minimum: d.minimum }),
    ...(d.maximum !== undefined && { maximum: d.maximum }),
    ...(d.pattern !== undefined && { pattern: d.pattern }),
    ...(d.maxItems !== undefined && { maxItems: d.maxItems }),
    ...(d.default !== undefined && { default: d.default }),
    ...(d.examples !== undefined && { examples: d.examples }),
    filterable: d.filterable ?? false,
    sortable: d.sortable ?? false,
    readOnly: d.readOnly ?? false,
    writeOnly: d.writeOnly ?? false,
    required: d['x-required'] ?? false,
    ...(d.description !== undefined && { description: d.description }),
    ...(d['x-renderedAs'] !== undefined && { renderedAs: d['x-renderedAs'] }),
    ...(d['x-relationshipId'] !== undefined && { relationshipId: d['x-relationshipId'] }),
    search: d['x-search'] ?? false,
    indexed: d['x-index'] ?? true,
    ...(d['x-importKey'] !== undefined && { importKey: d['x-importKey'] }),
  };
}

/** A string the table stores as text: dates and date-times get date and timestamp columns. */
function isText(type: string | undefined, format: AttributeModel['format']): boolean {
  return type === 'string' && format !== 'date' && format !== 'date-time';
}

function targetOf(ref: string): string {
  return ref.replace('#/definitions/', '');
}

function relationshipOf(name: string, d: RawDefinition): RelationshipModel {
  if (d.data === false) {
    return { kind: 'toMany', name, target: targetOf(d.items!.$ref!), inverse: d['x-inverse']! };
  }
  const writable = d['x-writable'] ?? [];
  if (d.anyOf !== undefined) {
    return {
      kind: 'polymorphicToOne',
      name,
      targets: d.anyOf.map((ref) => targetOf(ref.$ref)).sort(byCodePoint),
      column: `${snakeCase(name)}_id`,
      typeColumn: `${snakeCase(name)}_type`,
      writableOnCreate: writable.includes('create'),
      writableOnUpdate: writable.includes('update'),
      required: d['x-required'] ?? false,
    };
  }
  return {
    kind: 'toOne',
    name,
    target: targetOf(d.$ref!),
    column: `${snakeCase(name)}_id`,
    writableOnCreate: writable.includes('create'),
    writableOnUpdate: writable.includes('update'),
    required: d['x-required'] ?? false,
    filterBy: [...(d['x-filterBy'] ?? [])].sort(byCodePoint),
  };
}

/** The create link's `x-createBody`, which no other link may carry; every required name must be an attribute of it. */
function createBodyOf(file: string, links: RawLink[]): CreateBodyModel | undefined {
  let found: CreateBodyModel | undefined;
  links.forEach((link, index) => {
    const body = link['x-createBody'];
    if (body === undefined) return;
    if (link.rel !== 'create') throw new SchemaFileError(file, `/links/${index}/x-createBody`, 'only a create link can declare a create body');
    const unknown = body.required.filter((name) => !Object.hasOwn(body.attributes, name));
    if (unknown.length) throw new SchemaFileError(file, `/links/${index}/x-createBody/required`, `${unknown.join(', ')} must be attributes of the create body`);
    found = { attributes: body.attributes, required: [...body.required], answer: body.answer };
  });
  return found;
}

function operationsOf(links: RawLink[]): OperationsModel {
  const present = new Set(links.map((link) => STANDARD_RELS[link.rel]).filter(Boolean));
  return {
    list: present.has('list'),
    get: present.has('get'),
    create: present.has('create'),
    update: present.has('update'),
    delete: present.has('delete'),
  };
}

const MEMBER_ACTION = /^\/api\/v2\/[^/]+\/\{:id\}\/actions\/([^/]+)$/;
const COLLECTION_ACTION = /^\/api\/v2\/[^/]+\/actions\/([^/]+)$/;

/** The type a link's targetSchema names, when it is not `type` itself. */
function otherTarget(link: RawLink, type: string): string | undefined {
  const named = /^#\/definitions\/([A-Za-z0-9]+)$/.exec(link.targetSchema?.$ref ?? '')?.[1];
  return named !== undefined && named !== type ? named : undefined;
}

/** Action links by what they act on: one record (`/{:id}/actions/<name>`) or the collection (`/actions/<name>`). */
function actionsOf(file: string, type: string, links: RawLink[]): { member: ActionModel[]; collection: ActionModel[] } {
  const found = { member: [] as ActionModel[], collection: [] as ActionModel[] };
  links.forEach((link, index) => {
    if (!link.href.includes('/actions/')) return;
    const onMember = MEMBER_ACTION.exec(link.href);
    const onCollection = COLLECTION_ACTION.exec(link.href);
    if (link.method !== 'POST' || (!onMember && !onCollection)) {
      const shapes = 'POST /api/v2/<collection>/{:id}/actions/<name> (on one record) or POST /api/v2/<collection>/actions/<name> (on the collection)';
      throw new SchemaFileError(file, `/links/${index}`, `an action link must be ${shapes}`);
    }
    const list = onMember ? found.member : found.collection;
    const name = (onMember ?? onCollection)![1]!;
    // Two links of one name would be one route and one OpenAPI path: the second would be lost.
    if (list.some((a) => a.name === name)) throw new SchemaFileError(file, `/links/${index}`, `action ${name} is declared twice`);
    const target = otherTarget(link, type);
    list.push({
      name,
      optionalParams: [...(link.optionalParams ?? [])].sort(byCodePoint),
      requiredParams: [...(link.requiredParams ?? [])].sort(byCodePoint),
      paramSchemas: paramSchemasOf(file, `/links/${index}`, name, link),
      ...(target !== undefined && { target }),
      ...(link['x-answer'] !== undefined && { answer: link['x-answer'] }),
    });
  });
  const byName = (a: ActionModel, b: ActionModel) => byCodePoint(a.name, b.name);
  return { member: found.member.sort(byName), collection: found.collection.sort(byName) };
}

/**
 * An action link's `x-paramSchemas`, sorted by name: one for every declared parameter and none
 * for another, each with only the keywords its type has, so the engine can check every value.
 */
function paramSchemasOf(file: string, pointer: string, action: string, link: RawLink): Record<string, ParamSchemaModel> {
  const given = link['x-paramSchemas'] ?? {};
  const declared = [...(link.requiredParams ?? []), ...(link.optionalParams ?? [])];
  for (const name of declared) {
    if (!Object.hasOwn(given, name)) {
      throw new SchemaFileError(
        file,
        `${pointer}/x-paramSchemas`,
        `action ${action} declares parameter ${name} without its schema: x-paramSchemas needs the JSON Schema of every name in optionalParams and requiredParams`,
      );
    }
  }
  for (const [name, schema] of Object.entries(given)) {
    const at = `${pointer}/x-paramSchemas/${name}`;
    if (!declared.includes(name)) throw new SchemaFileError(file, at, `describes ${name}, which is in neither optionalParams nor requiredParams`);
    const misplaced = paramKeywordsOutsideType(schema);
    if (misplaced) throw new SchemaFileError(file, at, `${misplaced} does not apply to a parameter of type ${schema.type}`);
  }
  return Object.fromEntries(Object.entries(given).sort(([a], [b]) => byCodePoint(a, b)));
}

const PARAM_KEYWORDS: Record<ParamSchemaModel['type'], readonly string[]> = {
  string: ['format', 'enum', 'maxLength'],
  integer: ['minimum', 'maximum'],
  boolean: [],
  object: [],
};

/** The first keyword of `schema` its type has no use for (`minimum` on a string), if any. */
function paramKeywordsOutsideType(schema: ParamSchemaModel): string | undefined {
  return Object.keys(schema).find((key) => key !== 'type' && key !== 'description' && !PARAM_KEYWORDS[schema.type].includes(key));
}

/** `x-listedWhen`, once every name it gives is an attribute of the resource. */
function listedWhenOf(file: string, given: RawResource['x-listedWhen'], attributes: readonly AttributeModel[]): ResourceModel['listedWhen'] {
  if (given === undefined) return undefined;
  given.present.forEach((name, index) => {
    if (!attributes.some((a) => a.name === name)) throw new SchemaFileError(file, `/x-listedWhen/present/${index}`, `"${name}" is not an attribute of this resource`);
  });
  return { present: [...given.present] };
}
