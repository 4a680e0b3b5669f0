import type { MethodTable } from './methods.ts';
export const dictMethods: MethodTable = Object.freeze({});
