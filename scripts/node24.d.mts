// Types of node24.mjs for the TypeScript tests.
export declare const NODE24: { readonly version: string; readonly integrity: string };
export declare function node24(): string;
