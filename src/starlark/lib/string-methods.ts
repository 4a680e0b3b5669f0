import type { MethodTable } from './methods.ts';
export const stringMethods: MethodTable = Object.freeze({});
export const bytesMethods: MethodTable = Object.freeze({});
