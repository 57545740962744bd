// Types of fault-at.mjs for the TypeScript tests (its comments say what it counts).

/** Fails the `at`th call that may need space in `folder` with ENOSPC (in this process). */
export declare function armFullDisk(fault: { at: number; folder: string }): void;
/** Stops counting; the call the fault hit ("enospc at call 3: renameSync …"), if it did. */
export declare function disarm(): string | undefined;
