/** The folders compiled into dist/. */
export declare const sourceDirs: string[];
export declare const stampFile: string;
/** True when dist/.build-stamp is at least as new as every .ts file of the compiled folders. */
export declare function distIsCurrent(root: string): boolean;
