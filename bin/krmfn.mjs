#!/usr/bin/env node
import { runAsProcess } from '../dist/cli.js';

await runAsProcess();
