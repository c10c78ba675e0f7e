import { appCommands } from './app-commands.js';
import { backupCommands } from './backup-commands.js';
import type { CliCommand } from './command.js';
import { customObjectCommands } from './custom-object-commands.js';
import { mailCommands } from './mail-commands.js';
import { orgCommands } from './org-commands.js';
import { processCommands } from './process-commands.js';
import { sandboxCommands } from './sandbox-commands.js';
import { tokenCommands } from './token-commands.js';
import { userCommands } from './user-commands.js';

/**
 * Every `cadence` command, in the order `cadence --help` lists them. A new command is a
 * defineCommand in the module of its group, and its group here.
 */
export const COMMANDS: readonly CliCommand[] = [
  ...processCommands,
  ...orgCommands,
  ...userCommands,
  ...tokenCommands,
  ...appCommands,
  ...customObjectCommands,
  ...mailCommands,
  ...backupCommands,
  ...sandboxCommands,
] as readonly CliCommand[];
