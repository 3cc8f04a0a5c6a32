package io.jdbcrepl.mview;

import io.jdbcrepl.mview.MviewCommand.Method;
import io.jdbcrepl.mview.MviewCommand.Name;

/**
 * A materialized view as the catalog keeps it: its table, its master, its query, how it refreshes
 * ({@link Method#FAST} or {@link Method#COMPLETE}; FORCE is decided at creation) and when.
 */
record ViewDefinition(Name view, Name master, ViewQuery query, Method method, boolean onCommit) {

    boolean fast() {
        return method == Method.FAST;
    }
}
