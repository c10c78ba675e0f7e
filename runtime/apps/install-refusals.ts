import { forbidden } from '../jsonapi/index.js';
import type { InstallState } from './installs.js';

/**
 * 403 when an install cannot be used: the app was uninstalled or the org deleted, and for
 * access tokens also when the org is locked. The app is who it says it is (its token was
 * verified), so these are refusals, not authentication failures.
 */
export function refuseUnusableInstall(install: InstallState, options: { lockedOrgs: boolean }): void {
  if (install.uninstalledAt) {
    throw forbidden('appUninstalled', `The app was uninstalled from this organisation at ${install.uninstalledAt.toISOString()}`);
  }
  if (install.orgDeleted) throw forbidden('orgDeleted', 'The organisation of this install has been deleted');
  if (options.lockedOrgs && install.orgLocked) throw forbidden('orgLocked', 'The organisation of this install is locked');
}
