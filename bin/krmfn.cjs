#!/usr/bin/env node
// The installed `krmfn` command: starts the CLI bundle through its code cache (src/node/launch.ts).
// CommonJS, so that a start loads no ES module (bin/krmfn.mjs is the same for ES module callers).
'use strict';
const { join } = require('node:path');
const { launch } = require('../dist/launch.cjs');

launch(join(__dirname, '..', 'dist', 'cli.cjs'));
