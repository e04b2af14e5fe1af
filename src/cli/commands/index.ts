// The command registry: one line per command.
import type { Command } from '../command.js';
import { scanCommand } from './scan.js';
import { showCommand } from './show.js';
import { keepCommand } from './keep.js';
import { tailCommand } from './tail.js';
import { renameCommand } from './rename.js';
import { indexCommand } from './index-cmd.js';
import { searchCommand } from './search.js';
import { serveCommand } from './serve.js';
import { usageCommand } from './usage.js';
import { mcpCommand } from './mcp.js';
import { allowCommand } from './allow.js';
import { denyCommand } from './deny.js';
import { statusCommand } from './status.js';
import { loginCommand } from './login.js';
import { syncCommand } from './sync.js';
import { hubCommand } from './hub.js';

export const commands: readonly Command[] = [
  scanCommand,
  showCommand,
  keepCommand,
  tailCommand,
  renameCommand,
  indexCommand,
  searchCommand,
  serveCommand,
  usageCommand,
  mcpCommand,
  allowCommand,
  denyCommand,
  statusCommand,
  loginCommand,
  syncCommand,
  hubCommand,
];
