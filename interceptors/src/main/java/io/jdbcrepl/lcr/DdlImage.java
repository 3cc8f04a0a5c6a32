package io.jdbcrepl.lcr;

/**
 * The new values of a DDL LCR (Oracle's DDL LCR attributes, as a row image so that the log, its
 * signature and the error queue carry it like any LCR): the statement as the source ran it, its
 * command ({@code ALTER TABLE}, {@code TRUNCATE TABLE}, …), the source session's current schema
 * (where its unqualified names were) and the source's vendor.
 */
public final class DdlImage {

    public static final String STATEMENT = "statement";
    public static final String COMMAND = "command";
    public static final String CURRENT_SCHEMA = "current_schema";
    public static final String VENDOR = "vendor";

    private DdlImage() {
    }

    public static RowImage of(String statement, String command, String currentSchema, String vendor) {
        return new RowImage()
                .put(STATEMENT, ValueType.STRING, statement)
                .put(COMMAND, ValueType.STRING, command)
                .put(CURRENT_SCHEMA, ValueType.STRING, currentSchema)
                .put(VENDOR, ValueType.STRING, vendor);
    }

    /** A text attribute of a DDL LCR, or null when it has none. */
    public static String get(RowLcr lcr, String attribute) {
        TypedValue v = lcr.newValues().get(attribute);
        return v == null || v.isNull() ? null : v.value().toString();
    }
}
