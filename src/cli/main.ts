#!/usr/bin/env node
/** @module The `memory-pool` command line: parses argv and runs one command. */
import { buildProgram } from './program.js';

await buildProgram().parseAsync(process.argv);
