/** Namespaces the CLI bundle's protobuf descriptor leaves out, as paths from the root. */
export declare const droppedNamespaces: string[][];
/** A copy of `descriptor` without the dropped namespaces and without custom `(name)` options. */
export declare function pruneDescriptor<T extends object>(descriptor: T): T;
/** The json-module source with its descriptor pruned; throws when a kept type names a dropped one. */
export declare function leanJsonModule(source: string, protobufjs: unknown): string;
/** The esbuild plugin that bundles the lean json-module. */
export declare function leanProtosPlugin(resolveFrom: string): { name: string; setup(builder: unknown): void };
