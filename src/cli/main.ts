#!/usr/bin/env node
// The `agentlog` binary: builds the process context and runs one command.
import { processContext } from './context.js';
import { run } from './run.js';

const code = await run(process.argv.slice(2), processContext());
process.exitCode = code;
