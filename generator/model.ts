/**
 * The generator's internal model: what the loader makes of schema/ and every emitter reads.
 * It is read-only and already checked, so emitters never re-validate.
 */
import type { ParamSchema, RenderedAs } from '../runtime/model/descriptor.js';

export type ScalarType = 'string' | 'integer' | 'number' | 'boolean' | 'object';
export type AttributeType = ScalarType | 'array';
export type AttributeFormat = 'date-time' | 'date' | 'email' | 'uri' | 'html';

export interface AttributeModel {
  readonly name: string;
  readonly column: string;
  readonly type: AttributeType;
  readonly format?: AttributeFormat;
  readonly items?: { readonly type: ScalarType; readonly format?: AttributeFormat; readonly maxLength?: number };
  readonly enum?: readonly unknown[];
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly pattern?: string;
  readonly maxItems?: number;
  readonly default?: unknown;
  /** Sample values for readers (the schema's `examples`): the OpenAPI document's example create bodies start from the first. */
  readonly examples?: readonly unknown[];
  readonly filterable: boolean;
  readonly sortable: boolean;
  readonly readOnly: boolean;
  /** Accepted on write and stored, never rendered: a password, a one-off instruction. */
  readonly writeOnly: boolean;
  readonly required: boolean;
  readonly description?: string;
  /** How responses render a date-time other than in ISO 8601 (SPEC.md's batch times). */
  readonly renderedAs?: RenderedAs;
  /** Set when the attribute is the id of this to-one relationship: it has no column of its own. */
  readonly relationshipId?: string;
  /** Part of filter[q] search. */
  readonly search: boolean;
  /**
   * Whether a filterable or sortable attribute gets an index of its own (the schema's `x-index`,
   * true unless false). False where the table's rows are read within a narrower index (a batch's
   * items, by batch) and written far more often than filtered across it.
   */
  readonly indexed: boolean;
  /**
   * A CSV import finds a row's duplicates by this field, case-insensitively; among several, the
   * lowest number whose value the row has decides. Only on text and text-array attributes.
   */
  readonly importKey?: number;
}

export interface ToOneModel {
  readonly kind: 'toOne';
  readonly name: string;
  readonly target: string;
  readonly column: string;
  readonly writableOnCreate: boolean;
  readonly writableOnUpdate: boolean;
  readonly required: boolean;
  /** Target attributes usable in filter[<rel>][<attr>]. */
  readonly filterBy: readonly string[];
}

/**
 * A to-one relationship whose target is one of several types (the reference's
 * `contentCategoryMembership.content`: a sequence, snippet or template). Stored as two columns,
 * the target's type and id; no foreign key can name several tables, so writes check the target.
 */
export interface PolymorphicToOneModel {
  readonly kind: 'polymorphicToOne';
  readonly name: string;
  /** Sorted. */
  readonly targets: readonly string[];
  /** `<name>_id`. */
  readonly column: string;
  /** `<name>_type`: the target's type as the API names it. */
  readonly typeColumn: string;
  readonly writableOnCreate: boolean;
  readonly writableOnUpdate: boolean;
  readonly required: boolean;
}

export interface ToManyModel {
  readonly kind: 'toMany';
  readonly name: string;
  readonly target: string;
  /** The to-one relationship on the target that points back here. */
  readonly inverse: string;
}

export type RelationshipModel = ToOneModel | PolymorphicToOneModel | ToManyModel;

export interface ActionModel {
  readonly name: string;
  readonly optionalParams: readonly string[];
  readonly requiredParams: readonly string[];
  /** The link's `x-paramSchemas`: what each parameter's text must be, for every name of both lists. */
  readonly paramSchemas: Readonly<Record<string, ParamSchemaModel>>;
  /**
   * The type the action answers with, when its link's targetSchema names another than the
   * resource's own: an import's bulk upsert answers with the batch it started.
   */
  readonly target?: string;
  /** What the action answers when it is no resource's record (the link's `x-answer`): an upload link, a validation. */
  readonly answer?: ActionAnswerModel;
}

/** What an action parameter's text must be (the meta-schema's paramSchema): the runtime's own type. */
export type ParamSchemaModel = ParamSchema;

/** A document whose data has a type and attributes but no id (SPEC.md "Upload and validation results"). */
export interface ActionAnswerModel {
  readonly type: string;
  /** JSON Schema of each attribute. */
  readonly attributes: Readonly<Record<string, Record<string, unknown>>>;
}

/**
 * A create that is no JSON:API create (the link's `x-createBody`): SPEC.md's compliance request
 * takes snake_case attributes and answers `{data: {<answer>}}`. A module of the runtime serves
 * it ahead of the engine; the schema says what it takes, for the OpenAPI document.
 */
export interface CreateBodyModel {
  /** JSON Schema of each attribute of `data.attributes`. */
  readonly attributes: Readonly<Record<string, Record<string, unknown>>>;
  /** The attributes that must be given. */
  readonly required: readonly string[];
  /** JSON Schema of each member of the answer's `data`. */
  readonly answer: Readonly<Record<string, Record<string, unknown>>>;
}

export interface OperationsModel {
  readonly list: boolean;
  readonly get: boolean;
  readonly create: boolean;
  readonly update: boolean;
  readonly delete: boolean;
}

export interface ResourceModel {
  readonly type: string;
  /** The schema file, relative to the repository: `schema/prospect.json`. */
  readonly file: string;
  readonly collection: string;
  readonly table: string;
  readonly scope: string;
  readonly stability: string;
  readonly description: string;
  readonly webhookActions: readonly string[];
  readonly attributes: readonly AttributeModel[];
  readonly relationships: readonly RelationshipModel[];
  readonly operations: OperationsModel;
  /** Set when the create link declares a create that is no JSON:API create. */
  readonly createBody?: CreateBodyModel;
  /** POST <member>/actions/<name>: one record's actions. */
  readonly actions: readonly ActionModel[];
  /** POST <collection>/actions/<name>: actions on the collection (bulk actions), not on one record. */
  readonly collectionActions: readonly ActionModel[];
  /** `x-listedWhen`: collection reads show only records with a value for each of these attributes. */
  readonly listedWhen?: { readonly present: readonly string[] };
  /** `x-foreignKeys: false`: the table gets no foreign keys (to orgs, or of its to-one relationships). */
  readonly foreignKeys?: false;
  /** The file's JSON as written: what /api/v2/schema serves for this type. */
  readonly definition: Readonly<Record<string, unknown>>;
}

export interface SchemaModel {
  /** Sorted by type. */
  readonly resources: readonly ResourceModel[];
}

/** A fault in one schema file, located by a JSON pointer into it. */
export class SchemaFileError extends Error {
  constructor(
    readonly file: string,
    readonly pointer: string,
    readonly reason: string,
  ) {
    super(`${file}#${pointer}: ${reason}`);
    this.name = 'SchemaFileError';
  }
}
