import type { MethodTable } from './methods.ts';
export const listMethods: MethodTable = Object.freeze({});
