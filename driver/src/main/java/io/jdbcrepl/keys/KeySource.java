package io.jdbcrepl.keys;

/**
 * Where a database generates keys: a column's identity, serial or {@code nextval} default, its
 * AUTO_INCREMENT, or a sequence no column names (what Hibernate's {@code SEQUENCE} ids call).
 *
 * @param schema the table's schema, or the sequence's for a sequence alone
 * @param table the table, or null for a sequence alone
 * @param column the column, or null for a sequence alone
 * @param sequenceSchema the sequence's schema, or null where the column generates itself (H2 identity, AUTO_INCREMENT)
 * @param sequence the sequence's name, or null where the column generates itself
 * @param kind what generates the keys
 */
public record KeySource(String schema, String table, String column, String sequenceSchema, String sequence, Kind kind) {

    /** What generates the keys. */
    public enum Kind {
        /** {@code GENERATED ALWAYS AS IDENTITY}: an INSERT with a value needs {@code OVERRIDING SYSTEM VALUE}. */
        ALWAYS_IDENTITY("identity (always)"),
        IDENTITY("identity"),
        /** {@code serial}, or a column default naming a sequence. */
        DEFAULT_SEQUENCE("sequence default"),
        /** MariaDB/MySQL: set per session, nothing to arrange. */
        AUTO_INCREMENT("auto_increment"),
        /** A sequence no column names: the application calls it (Hibernate's {@code SEQUENCE} ids). */
        SEQUENCE("sequence");

        private final String text;

        Kind(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /** Whether the source feeds a column (not a sequence alone). */
    public boolean feedsColumn() {
        return column != null;
    }

    /** What status and the log call it: {@code public.orders.id (identity, sequence public.orders_id_seq)}. */
    public String describe() {
        String where = feedsColumn() ? schema + "." + table + "." + column + " (" + kind
                + (sequence != null ? ", sequence " + sequenceSchema + "." + sequence : "") + ")"
                : "sequence " + sequenceSchema + "." + sequence;
        return where;
    }
}
