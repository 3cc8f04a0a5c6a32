package io.jdbcrepl.mview;

import java.util.ArrayList;
import java.util.List;

/**
 * What a view's fast refresh needs from its master's log (Oracle's rules, as far as they apply),
 * and the columns by which the refresh finds what to recompute: the GROUP BY columns of an
 * aggregate view (each group the log names is recomputed), the master's primary key otherwise
 * (each row the log names is read again).
 */
public final class FastRefresh {

    private FastRefresh() {
    }

    /** Why {@code query} cannot be refreshed fast from {@code log} (null: it can); names what the log lacks. */
    public static String problem(ViewQuery query, LogDefinition log) {
        if (query.fastProblem() != null) return "its query has " + query.fastProblem();
        List<String> lacks = new ArrayList<>();
        if (query.aggregate()) {
            // Oracle: an aggregate view needs every column it names, with new values, in the log.
            for (String c : query.columns()) {
                if (!log.copies(c)) lacks.add("column " + c);
            }
            if (!log.newValues()) lacks.add("INCLUDING NEW VALUES");
            if (!log.rowid() && !log.primaryKey()) lacks.add("ROWID (or PRIMARY KEY)");
            for (String g : query.groupBy()) {
                if (query.items().stream().noneMatch(i -> g.equalsIgnoreCase(i.column()))) {
                    return "its select list lacks the GROUP BY column " + g + ", by which the view's groups are refreshed";
                }
            }
        } else {
            if (log.masterKey().isEmpty()) {
                return "the table " + log.master() + " has no primary key, by which a view without aggregates is refreshed";
            }
            for (String k : log.masterKey()) {
                if (!log.copies(k)) lacks.add("primary key column " + k + " (WITH PRIMARY KEY)");
            }
            if (!query.star()) {
                for (String k : log.masterKey()) {
                    if (query.items().stream().noneMatch(i -> k.equalsIgnoreCase(i.column()))) {
                        return "its select list lacks the primary key column " + k + " of " + log.master()
                                + ", by which a view without aggregates is refreshed";
                    }
                }
            }
        }
        if (lacks.isEmpty()) return null;
        return "the materialized view log " + log.logTable() + " on " + log.master() + " (" + log.options()
                + ") lacks " + String.join(", ", lacks);
    }

    /** The master columns by which the refresh finds what to recompute (empty: the whole view). */
    public static List<String> refreshKey(ViewQuery query, LogDefinition log) {
        return query.aggregate() ? query.groupBy() : log.masterKey();
    }
}
