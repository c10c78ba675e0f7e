import type { ResourceBehaviour } from '../engine/index.js';
import { enabledOnCreate, enablingActions } from './enabling.js';

/** A sequence template (a step's use of a template) is enabled when created; activate and deactivate switch it. */
export const sequenceTemplateBehaviour: ResourceBehaviour = {
  ...enabledOnCreate,
  actions: enablingActions,
};
