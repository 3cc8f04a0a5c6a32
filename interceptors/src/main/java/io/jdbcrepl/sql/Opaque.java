package io.jdbcrepl.sql;

import java.util.List;

/**
 * A statement that may change rows, but which rows cannot be known from its SQL (MERGE, CALL,
 * TRUNCATE, multi-table UPDATE, …). The caller applies {@code repl.unsupported}.
 *
 * @param reason      a sentence for the user: what cannot be captured, why, and what to write instead
 * @param tablesNamed the tables the statement would change, as far as its SQL shows them; empty
 *                    when it does not show them (CALL, DO, unparsable SQL): then assume any table
 * @param routine     a CALL or DO: a routine's statements, which the database runs out of the
 *                    driver's sight, may change any table
 */
public record Opaque(String reason, List<TableRef> tablesNamed, boolean routine) implements Analysis {

    public Opaque {
        tablesNamed = List.copyOf(tablesNamed);
    }

    public Opaque(String reason, List<TableRef> tablesNamed) {
        this(reason, tablesNamed, false);
    }

    /** A CALL or DO, which names no table. */
    static Opaque routine(String reason) {
        return new Opaque(reason, List.of(), true);
    }
}
