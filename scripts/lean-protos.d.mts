import type { ReflectionObject, Root } from 'protobufjs';

/** Namespaces the CLI bundle's protobuf descriptor leaves out, as paths from the root. */
export declare const droppedNamespaces: string[][];
/** A copy of `descriptor` without the dropped namespaces and without custom `(name)` options. */
export declare function pruneDescriptor<T extends object>(descriptor: T): T;
/** What bundled code uses of the descriptor: service methods it calls (lower camel case), protobuf names it writes. */
export interface UsedByCode {
  methods: Set<string>;
  names: Set<string>;
}
export declare function usedByCode(code: string): UsedByCode;
/** A copy of `descriptor` with only the used methods, what they reach, package enums and the named types. */
export declare function keepUsed<T extends object>(descriptor: T, used: UsedByCode, protobufjs: unknown): T;
/** The reflection object a dotted name in code points to: its longest prefix that is a nested path from the root. */
export declare function namedBy(root: Root, name: string): ReflectionObject | undefined;
/** The json-module source with its descriptor pruned; throws when a kept type names a dropped one. */
export declare function leanJsonModule(source: string, protobufjs: unknown, used?: UsedByCode): string;
/** The esbuild plugin that bundles the lean json-module; `'none'` leaves it empty (the scan build). */
export declare function leanProtosPlugin(
  resolveFrom: string,
  used?: UsedByCode | 'none',
): { name: string; setup(builder: unknown): void };
/** protobufjs' type.js with verify, fromObject and toObject generated on first call; throws when it changed. */
export declare function lazyConvertersSource(source: string): string;
