package io.jdbcrepl.ddl;

import io.jdbcrepl.lcr.ValueType;

/**
 * What differs per database in reading and writing the DDL that {@link DdlTranslation} translates.
 * The defaults are standard SQL's. A part ({@code dialect.part(DdlSyntax.class)}).
 */
public interface DdlSyntax {

    // ---- reading this database's statements

    /** The fractional digits of a time or timestamp ({@code type}) written without them: standard SQL's 0 and 6. */
    default int defaultFraction(ValueType type) {
        return type == ValueType.TIME ? 0 : 6;
    }

    /** The precision and scale of a DECIMAL written without them, or null when it then has none (any number). */
    default int[] defaultDecimal() {
        return null;
    }

    /** Whether FLOAT without a precision is a 4-byte float (else, as in standard SQL, a double). */
    default boolean floatIsReal() {
        return false;
    }

    // ---- writing statements for this database

    /** The ALTER TABLE change that gives {@code column} (quoted) the type {@code type}, or null when this database needs the whole column. */
    default String setType(String column, String type) {
        return "ALTER COLUMN " + column + " SET DATA TYPE " + type;
    }

    /** The ALTER TABLE change that makes {@code column} (quoted) NOT NULL or nullable, or null when this database needs the whole column. */
    default String setNotNull(String column, boolean notNull) {
        return "ALTER COLUMN " + column + (notNull ? " SET NOT NULL" : " DROP NOT NULL");
    }

    /**
     * The ALTER TABLE change that defines column {@code from} (quoted) again, as {@code to} with {@code definition}
     * (its type, nullability and default), or null when this database has no such change.
     */
    default String redefine(String from, String to, String definition) {
        return null;
    }

    /** Whether an ALTER TABLE makes one change only (besides several ADD COLUMNs, written {@code ADD (a …, b …)}). */
    default boolean oneChangePerAlter() {
        return false;
    }

    /** Whether a RENAME in an ALTER TABLE must be its only change. */
    default boolean renamesAlone() {
        return true;
    }

    /** Whether DROP PRIMARY KEY names no constraint (else a primary key is dropped by its constraint's name). */
    default boolean dropsPrimaryKeyUnnamed() {
        return true;
    }

    /** Whether TRUNCATE takes several tables and CASCADE. */
    default boolean truncatesWithCascade() {
        return false;
    }

    /** Whether TRUNCATE always restarts the table's identity (so RESTART IDENTITY is not written). */
    default boolean truncateRestartsIdentity() {
        return false;
    }

    /** Whether DROP INDEX names the table ({@code DROP INDEX i ON t}), index names being each table's own. */
    default boolean dropIndexNamesTable() {
        return false;
    }

    /** What follows a CREATE TABLE's elements: nothing by default. */
    default String tableOptions() {
        return "";
    }

    /** Whether a column definition in ADD COLUMN may hold REFERENCES (else it is added as a constraint of its own). */
    default boolean inlineReferences() {
        return true;
    }

    /** Whether DROP TABLE … CASCADE drops what depends on the table (else CASCADE, doing nothing, is not written). */
    default boolean dropTableCascades() {
        return true;
    }

    /** The statement that renames table {@code from} (quoted, qualified as written) to {@code qualified} (in from's schema) or {@code bare}. */
    default String renameTable(String from, String qualified, String bare) {
        return "ALTER TABLE " + from + " RENAME TO " + bare;
    }
}
