// The free names of the TSDoc examples in src/context/postgres/ (see common.ts): the `pg`
// module as `import pg from 'pg'` gives it, and a pool of it.
import type pgModule from 'pg';

export declare const pg: typeof pgModule;
export declare const pool: pgModule.Pool;
