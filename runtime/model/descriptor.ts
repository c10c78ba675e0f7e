/**
 * A resource descriptor is everything the engine needs to serve one resource type. Standard
 * resources get theirs from generated/descriptors (made from schema/); custom objects will
 * get theirs from the database at run time. The engine reads nothing else.
 */

export type AttributeType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

/** A rendering of a date-time other than ISO 8601: `epochSeconds` is `"1767225600"`. */
export type RenderedAs = 'epochSeconds';

export interface AttributeDescriptor {
  readonly name: string;
  readonly column: string;
  readonly type: AttributeType;
  /** `date-time` columns are timestamptz and rendered by PostgreSQL in ISO 8601 with milliseconds. */
  readonly format?: string;
  /** How responses render the value, when not as PostgreSQL gives it (schema `x-renderedAs`). */
  readonly renderedAs?: RenderedAs;
  /** Element type of an array attribute. */
  readonly itemType?: Exclude<AttributeType, 'array'>;
  readonly enum?: readonly unknown[];
  /** Set when the attribute is a to-one relationship's id under another name (bigint column). */
  readonly relationshipIdOf?: string;
  readonly filterable: boolean;
  readonly sortable: boolean;
  readonly readOnly: boolean;
  /** Accepted on write and stored, but never rendered nor copied into events. */
  readonly writeOnly?: boolean;
  readonly required: boolean;
  readonly default?: unknown;
  /** Part of filter[q] search. */
  readonly search: boolean;
  /**
   * A CSV import finds a row's duplicates by this field, compared case-insensitively; among
   * several, the lowest number whose value the row has decides (accounts: domain 1, name 2).
   */
  readonly importKey?: number;
}

export interface ToOneDescriptor {
  readonly kind: 'toOne';
  readonly name: string;
  readonly target: string;
  readonly column: string;
  readonly writableOnCreate: boolean;
  readonly writableOnUpdate: boolean;
  readonly required: boolean;
  /** Target attributes usable in the deprecated filter[<rel>][<attr>] form. */
  readonly filterBy: readonly string[];
}

/**
 * A to-one relationship whose target is one of several types (a content category membership's
 * `content`: a sequence, snippet or template), stored as the target's type and id. Rendered and
 * written as `{type, id}`; the write path checks the target exists, as no foreign key can.
 */
export interface PolymorphicToOneDescriptor {
  readonly kind: 'polymorphicToOne';
  readonly name: string;
  readonly targets: readonly string[];
  /** The target's id. */
  readonly column: string;
  /** The target's type. */
  readonly typeColumn: string;
  readonly writableOnCreate: boolean;
  readonly writableOnUpdate: boolean;
  readonly required: boolean;
}

/** A resource identifier: what a polymorphic to-one holds. */
export interface ResourceIdentifier {
  readonly type: string;
  readonly id: number;
}

export interface ToManyDescriptor {
  readonly kind: 'toMany';
  readonly name: string;
  readonly target: string;
  /** The target's to-one relationship that points back: `links.related` filters on it. */
  readonly inverse: string;
}

export type RelationshipDescriptor = ToOneDescriptor | PolymorphicToOneDescriptor | ToManyDescriptor;

/**
 * What the text of an action parameter must be (a link's `x-paramSchemas` entry): a string, a
 * date-time, one of `enum`; an integer in decimal digits; true or false; or, for `object`, a
 * deep object sent as actionParams[<name>][...] and read by the module serving the action.
 */
export interface ParamSchema {
  readonly type: 'string' | 'integer' | 'boolean' | 'object';
  readonly format?: 'date-time';
  readonly enum?: readonly string[];
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly description?: string;
}

export interface ActionDescriptor {
  readonly name: string;
  readonly optionalParams: readonly string[];
  readonly requiredParams: readonly string[];
  /** The schema of every name in optionalParams and requiredParams. */
  readonly paramSchemas: Readonly<Record<string, ParamSchema>>;
  /** The type the action answers with, when not the resource's own (an import's bulk upsert answers with a batch). */
  readonly target?: string;
  /** What the action answers when it is no resource's record: a type and attributes without an id (an upload link). */
  readonly answer?: {
    readonly type: string;
    /** JSON Schema of each attribute. */
    readonly attributes: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  };
}

export interface OperationsDescriptor {
  readonly list: boolean;
  readonly get: boolean;
  readonly create: boolean;
  readonly update: boolean;
  readonly delete: boolean;
}

export interface ResourceDescriptor {
  readonly type: string;
  /** Path segment under /api/v2: the pluralised type. */
  readonly collection: string;
  readonly table: string;
  /** OAuth scope stem: `prospects` for `prospects.read` and friends. */
  readonly scope: string;
  readonly webhookActions: readonly string[];
  readonly attributes: readonly AttributeDescriptor[];
  readonly relationships: readonly RelationshipDescriptor[];
  readonly operations: OperationsDescriptor;
  /** POST <member>/actions/<name>. */
  readonly actions: readonly ActionDescriptor[];
  /**
   * POST <collection>/actions/<name>: actions on the collection rather than one record (the
   * bulk actions). Declared here so that routes, 405 answers and OpenAPI describe them; the
   * module that serves them mounts its own routes ahead of the resource's.
   */
  readonly collectionActions: readonly ActionDescriptor[];
  /**
   * Collection reads (lists, their counts, to-many related lists) show only the records with a
   * value (not null, for text not empty) for each of these attributes: templates without a name
   * are hidden from lists, yet read by id and linked to like any other.
   */
  readonly listedWhen?: { readonly present: readonly string[] };
  /**
   * A create that is no JSON:API create (schema `x-createBody`): the JSON Schema of each
   * attribute it takes, those required, and the members of its answer's `data`. The module that
   * serves it (SPEC.md's compliance request: runtime/compliance) reads its attributes from here.
   */
  readonly createBody?: {
    readonly attributes: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
    readonly required: readonly string[];
    readonly answer: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  };
  /**
   * Set for resources that share a table with others (custom objects): the column and value
   * that select this resource's rows, added to every statement on the table.
   */
  readonly partition?: { readonly column: string; readonly value: number };
  /**
   * False where relationship columns have no foreign keys (custom objects, whose targets vary):
   * the write path then checks each target exists in the org.
   */
  readonly foreignKeys?: boolean;
}

/** A validation failure of a request body, located by a JSON pointer into it. */
export interface BodyIssue {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message?: string;
  readonly params: Record<string, unknown>;
}

/** An Ajv (standalone) validate function: true, or false with `errors` set. */
export interface BodyValidator {
  (body: unknown): boolean;
  errors?: readonly BodyIssue[] | null;
}

/** What a generated route module hands the engine for one resource. */
export interface ResourceModule {
  readonly descriptor: ResourceDescriptor;
  readonly validateCreate?: BodyValidator;
  readonly validateUpdate?: BodyValidator;
}
