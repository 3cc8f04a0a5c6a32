package io.jdbcrepl.sql;

import java.util.List;

/**
 * A piece of the statement exactly as written (an expression, a clause body), with the 1-based
 * indexes of the JDBC {@code ?} parameters it contains, in source order: what a capture plan needs
 * to put the piece into SQL of its own and bind the application's values to it.
 */
public record SqlFragment(String text, List<Integer> parameters) {

    public SqlFragment {
        parameters = List.copyOf(parameters);
    }

    static SqlFragment of(String text) {
        return new SqlFragment(text, List.of());
    }
}
