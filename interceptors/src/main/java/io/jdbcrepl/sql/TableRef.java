package io.jdbcrepl.sql;

import io.jdbcrepl.dialect.Identifiers;

import io.jdbcrepl.dialect.Dialect;

import java.util.List;

/**
 * A table as a statement names it: schema (null when not qualified) and name without their quotes,
 * whether each was quoted, the alias (null when none, unquoted) and {@code sqlText}, the qualified
 * name exactly as written (quotes included, alias excluded), to put back into SQL.
 */
public record TableRef(String schema, String name, String alias, boolean schemaQuoted, boolean nameQuoted,
                       String sqlText) {

    /** The schema as the database stores it (see {@link Dialect#fold(String, boolean)}); null if none. */
    public String foldedSchema(Dialect dialect) {
        return dialect.fold(schema, schemaQuoted);
    }

    /** The name as the database stores it (see {@link Dialect#fold(String, boolean)}). */
    public String foldedName(Dialect dialect) {
        return dialect.fold(name, nameQuoted);
    }

    /** The alias if there is one, else the name: what the statement's other clauses call the table. */
    public String reference() {
        return alias != null ? alias : name;
    }

    /**
     * From a name as written: {@code t}, {@code hr.t}, {@code "Hr"."T"}, {@code db.hr.t} (a catalog
     * stays only in sqlText).
     */
    static TableRef of(List<String> partsAsWritten, String alias, String sqlText) {
        String last = partsAsWritten.get(partsAsWritten.size() - 1);
        String schema = partsAsWritten.size() > 1 ? partsAsWritten.get(partsAsWritten.size() - 2) : null;
        return new TableRef(schema == null ? null : Identifiers.unquote(schema), Identifiers.unquote(last),
                alias == null ? null : Identifiers.unquote(alias), Identifiers.isQuoted(schema),
                Identifiers.isQuoted(last), sqlText);
    }
}
