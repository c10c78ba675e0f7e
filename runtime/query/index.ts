export { parseListRequest, parseSingleRequest, singleValue, type ListRequest, type ListContext, DEFAULT_PAGE_SIZE, MAX_OFFSET, MAX_PAGE_SIZE } from './list-request.js';
export { compileFilters, type FilterCondition } from './filters.js';
export { keysetCondition, orderBy, type SortKey } from './sort.js';
export { encodeCursor } from './cursor.js';
export { MAX_INCLUDE_DEPTH, type IncludeNode } from './include.js';
export type { Fieldsets } from './fields.js';
export { SqlParams } from './sql-builder.js';
export { COUNT_CAP, countsByDefault } from './count.js';
