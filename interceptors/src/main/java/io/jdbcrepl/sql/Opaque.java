package io.jdbcrepl.sql;

import java.util.List;

/**
 * A statement that may change rows, but which rows cannot be known from its SQL (MERGE, CALL,
 * TRUNCATE, multi-table UPDATE, …). The caller applies {@code repl.unsupported}.
 *
 * @param reason      a sentence for the user: what cannot be captured, why, and what to write instead
 * @param tablesNamed the tables the statement would change, as far as its SQL shows them; empty
 *                    when it does not show them (CALL, DO, unparsable SQL): then assume any table
 */
public record Opaque(String reason, List<TableRef> tablesNamed) implements Analysis {

    public Opaque {
        tablesNamed = List.copyOf(tablesNamed);
    }
}
