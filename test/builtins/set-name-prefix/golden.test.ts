import { goldenSuite } from '../harness.ts';

goldenSuite(new URL('.', import.meta.url).pathname, 'set-name-prefix');
