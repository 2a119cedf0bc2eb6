/**
 * A forward-only schema change. `statements` are plain PostgreSQL run one by one in one transaction, on
 * PostgreSQL and on PGlite alike (PGlite's extended protocol takes one statement per query).
 */
export interface Migration {
  /** Unique, sortable: `NNNN_what_it_does`. Never rename or edit one that has shipped; add a new one. */
  readonly name: string;
  readonly statements: readonly string[];
}
