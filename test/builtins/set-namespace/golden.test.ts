import { goldenSuite } from '../harness.ts';

goldenSuite(import.meta.dirname, 'set-namespace golden cases');
