// The command registry: one line per command.
import type { Command } from '../command.js';
import { scanCommand } from './scan.js';
import { showCommand } from './show.js';

export const commands: readonly Command[] = [scanCommand, showCommand];
