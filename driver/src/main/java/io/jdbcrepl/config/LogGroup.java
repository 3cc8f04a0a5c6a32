package io.jdbcrepl.config;

import java.util.List;
import java.util.Objects;

/**
 * A supplemental log group ({@code repl.loggroup.<table>.<group>}): old values of these columns
 * are logged for an UPDATE when one of them is assigned, or always.
 */
public record LogGroup(String name, List<String> columns, boolean always) {

    public LogGroup {
        Objects.requireNonNull(name, "name");
        columns = List.copyOf(columns);
    }
}
