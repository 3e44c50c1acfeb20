/**
 * The embeddable interpreter — environments, host primitives, evaluation, calling Scheme from
 * TypeScript, the module-loader hook — and the JSON ↔ Scheme mapping.
 *
 * @module
 */
export { Interpreter, isSchemeError, schemeString, symbol, toList } from "./interpreter.ts";
export type {
  EvalOptions,
  HostPrimitive,
  HostPrimitiveSpec,
  InterpreterOptions,
  LoadedModule,
  ModuleLoader,
} from "./options.ts";
export { fromJS, fromJson, type Json, toJS, toJson } from "./json.ts";
