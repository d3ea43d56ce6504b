// The command registry. Later commands (ask, tools, eval-tools, eval, bench) are added here.

import type { CliCommand } from '../command';
import { schemaCommand } from './schema';
import { sqlCommand } from './sql';

export const COMMANDS: ReadonlyMap<string, CliCommand> = new Map([sqlCommand, schemaCommand].map((c) => [c.name, c]));
