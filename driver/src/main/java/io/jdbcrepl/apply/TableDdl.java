package io.jdbcrepl.apply;

import io.jdbcrepl.lcr.ValueType;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/**
 * What differs per database in creating a table that a joining node lacks ({@link TableCreation}):
 * the exact column definitions read from a donor of this database, and, where this database
 * creates a table from another one's definition, the type that holds each portable type's values.
 * A part ({@code dialect.part(TableDdl.class)}).
 */
public interface TableDdl {

    /** How a column generates its values. */
    enum Identity { NONE, BY_DEFAULT, ALWAYS }

    /**
     * A column as its own database defines it.
     *
     * @param type       its type as CREATE TABLE writes it here (length, precision, collation, a
     *                   computed column's expression), or null when it cannot be written again exactly
     * @param defaultSql its default as SQL of this database, null for none (an identity has none)
     * @param identity   whether, and how, it is an identity (serial, AUTO_INCREMENT)
     * @param computed   whether the database computes it from other columns (never copied to another database)
     * @param note       what another database does not keep of it (an ENUM's values), or null
     * @param fraction   the fractional digits of a time or timestamp where JDBC's {@code DECIMAL_DIGITS} does not
     *                   give them, else -1
     */
    record NativeColumn(String type, String defaultSql, Identity identity, boolean computed, String note, int fraction) {
    }

    /** The table's columns by stored name, as this database defines them. */
    Map<String, NativeColumn> nativeColumns(Connection connection, String schema, String table) throws SQLException;

    /**
     * The table's unique constraints (not its primary key) by the name of the index that enforces
     * each (H2 names it after the constraint, {@code <constraint>_INDEX_<n>}); a unique index not
     * among them is an index of its own.
     */
    Map<String, String> uniqueConstraints(Connection connection, String schema, String table) throws SQLException;

    /**
     * The type here that holds exactly the values of a column of another database whose values are
     * logged as {@code type}, or null when there is none.
     *
     * @param column  its definition (size, scale, JDBC type) on the other database
     * @param indexed whether it is in the primary key or an index (a text there needs a length on some databases)
     */
    String mappedType(ValueType type, TableDefinition.Column column, boolean indexed);

    /** What follows the type of an identity column. */
    String identityClause(Identity identity);

    /**
     * The default that is the current date or time for a column of logged type {@code type} with
     * {@code fraction} digits; {@code mapped}: its type is {@link #mappedType}'s (a TIMESTAMPTZ may
     * then hold UTC), else its own database's. The standard SQL forms unless a database says otherwise.
     */
    default String currentTime(ValueType type, int fraction, boolean mapped) {
        return switch (type) {
            case DATE -> "CURRENT_DATE";
            case TIME -> "LOCALTIME";
            case TIMESTAMP -> "LOCALTIMESTAMP";
            default -> "CURRENT_TIMESTAMP";
        };
    }

    /** Whether index names are the table's own (else the schema's: an index named as another table's clashes). */
    boolean indexNamesPerTable();
}
