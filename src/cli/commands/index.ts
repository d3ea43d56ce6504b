// The command registry. Later commands (ask, tools, eval-tools, eval, bench) are added here.

import type { CliCommand } from '../command';
import { askCommand } from './ask';
import { chatCommand } from './chat';
import { copyToPostgresCommand } from './copy-to-postgres';
import { directCommand } from './direct';
import { explainCommand } from './explain';
import { fixCommand } from './fix';
import { optimizeCommand } from './optimize';
import { benchCommand } from './bench';
import { evalCommand } from './eval';
import { evalToolsCommand } from './eval-tools';
import { importCommand } from './import';
import { linkCommand } from './link';
import { schemaCommand } from './schema';
import { serveCommand } from './serve';
import { sqlCommand } from './sql';
import { toolsCommand } from './tools';

export const COMMANDS: ReadonlyMap<string, CliCommand> = new Map(
  [
    sqlCommand,
    schemaCommand,
    importCommand,
    toolsCommand,
    askCommand,
    chatCommand,
    linkCommand,
    directCommand,
    fixCommand,
    optimizeCommand,
    explainCommand,
    evalCommand,
    evalToolsCommand,
    benchCommand,
    copyToPostgresCommand,
    serveCommand,
  ].map((c) => [c.name, c]),
);
