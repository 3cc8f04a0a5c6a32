package io.jdbcrepl.sql;

import java.util.List;

/** Where an INSERT's rows come from. */
public sealed interface InsertSource {

    /** The whole source as written ({@code VALUES (…), (…)}, the query, {@code DEFAULT VALUES}). */
    SqlFragment text();

    /**
     * {@code VALUES (…), (…)}: each row's expressions as written, in column order. MySQL's
     * {@code INSERT … SET a = 1, b = ?} is one row of the SET values.
     */
    record Values(SqlFragment text, List<List<SqlFragment>> rows) implements InsertSource {
        public Values {
            rows = rows.stream().map(List::copyOf).toList();
        }

        public int rowCount() {
            return rows.size();
        }
    }

    /** {@code INSERT … SELECT} (or another query): the query as written. */
    record Query(SqlFragment text) implements InsertSource {
    }

    /** {@code INSERT … DEFAULT VALUES}: one row of defaults. */
    record DefaultValues(SqlFragment text) implements InsertSource {
    }
}
