/*
 * The types of fast-json-patch's core module, imported by its own path (lib/features/json-patch.ts):
 * the package's main module also builds a default object of every export, which keeps the whole
 * library (observe, compare) in each bundle. The package ships no declaration for the path.
 */
declare module 'fast-json-patch/module/core.mjs' {
  export { applyOperation } from 'fast-json-patch';
}
