package io.jdbcrepl.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * A statement that starts with WITH and changes rows: its main statement is an INSERT, UPDATE or
 * DELETE, or one of its WITH queries is (PostgreSQL's data-modifying CTEs), each a single-table
 * {@link Dml} of its own. A capture plan rewrites each of those in place and keeps the rest as
 * written, so the parameters stay in order. Where a dialect cannot capture it so, {@link #refusal}
 * says why and how to rewrite it.
 *
 * @param sql            the statement as written
 * @param head           {@code WITH } or {@code WITH RECURSIVE } as written
 * @param queries        the WITH queries in order
 * @param main           the main statement
 * @param parameterCount the JDBC {@code ?} parameters of the whole statement
 * @param refusal        what to refuse it with where such statements are not captured
 */
public record WithDml(String sql, String head, List<Part> queries, Part main, int parameterCount, Opaque refusal)
        implements Analysis {

    /**
     * A WITH query or the main statement.
     *
     * @param header a WITH query's {@code name [(columns)] AS [[NOT] MATERIALIZED]} as written; null for the main statement
     * @param text   the query inside its parentheses, or the main statement, as written
     * @param dml    the INSERT, UPDATE or DELETE {@link #text} is, else null
     */
    public record Part(String header, String text, Dml dml) {
    }

    public WithDml {
        queries = List.copyOf(queries);
    }

    /** The data changes, WITH queries first, in the order written. */
    public List<Dml> changes() {
        List<Dml> out = new ArrayList<>();
        for (Part q : queries) if (q.dml() != null) out.add(q.dml());
        if (main.dml() != null) out.add(main.dml());
        return out;
    }
}
