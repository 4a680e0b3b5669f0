import { goldenSuite } from '../harness.ts';

goldenSuite(import.meta.dirname, 'set-labels golden cases');
