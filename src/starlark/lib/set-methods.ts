import type { MethodTable } from './methods.ts';
export const setMethods: MethodTable = Object.freeze({});
