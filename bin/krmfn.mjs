#!/usr/bin/env node
// The installed `krmfn` command: starts the CLI bundle through its code cache (src/node/launch.ts).
import { fileURLToPath } from 'node:url';
import { launch } from '../dist/launch.js';

await launch(fileURLToPath(new URL('../dist/cli.cjs', import.meta.url)));
