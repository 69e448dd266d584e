#!/usr/bin/env node
// The `taskloop` command: runs the TypeScript CLI through tsx, so there is no build step to forget.
import { register } from 'tsx/esm/api';

register();
await import('../client/cli.ts');
