/**
 * SQL as the driver reads it, pure and without a database: the one lexer ({@link io.jdbcrepl.sql.SqlToken};
 * strings, comments and quoted names as each database reads them, for capture and the
 * materialized-view parser alike) and the statement analysis capture plans stand on.
 *
 * <p>{@link io.jdbcrepl.sql.SqlClassifier#mayChangeRows} decides cheaply, from the first
 * keyword, whether a statement needs a look at all; {@link io.jdbcrepl.sql.SqlClassifier#analyze}
 * parses it once (JSqlParser, in the caller's thread) into {@link io.jdbcrepl.sql.NotDml},
 * {@link io.jdbcrepl.sql.Opaque} (it may change rows its SQL does not name; with a reason the
 * user can act on) or {@link io.jdbcrepl.sql.Dml} (a single-table INSERT, UPDATE or DELETE
 * taken apart into the clauses, texts and parameter indexes a capture plan needs), or
 * {@link io.jdbcrepl.sql.MultiTableDml} (MySQL's multi-table UPDATE and DELETE: the join, the
 * tables it changes, the SET per table). Texts are cut from the SQL as written, never re-printed by
 * the parser.
 *
 * <p>Forms JSqlParser 5.3 does not read come back opaque, with the parser's message and, where the
 * leading words leave no doubt, the target table: PostgreSQL {@code ON CONFLICT} on an expression,
 * {@code DELETE … USING a JOIN b}, {@code WHERE CURRENT OF}, {@code SET (a, b) = ROW(…)} and a tuple
 * after a single assignment ({@code SET a = 1, (b, c) = …}), {@code E'…\''} strings; MySQL's
 * {@code VALUES … AS alias}, {@code #} comments and {@code :=}; H2's {@code FETCH FIRST} in UPDATE.
 * {@code UPDATE ONLY} / {@code DELETE FROM ONLY} are read by blanking ONLY before parsing, MySQL's
 * {@code DELETE FROM a USING …} and {@code DELETE a.* …} as {@code DELETE a FROM …} (same offsets).
 *
 * <p>{@link io.jdbcrepl.sql.SqlToken} is the one lexer's public view: other readers of SQL
 * (the materialized view statements) read strings, comments and quoted names with it, per dialect.
 */
package io.jdbcrepl.sql;
