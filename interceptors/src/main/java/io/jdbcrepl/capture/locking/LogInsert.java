package io.jdbcrepl.capture.locking;

/**
 * The multi-row INSERT into the change log: nine values a row, bound by the driver
 * (tx_id, source_node, command_type, schema_name, table_name, old_values, new_values,
 * column_types, change_vector).
 */
public final class LogInsert {

    public static final int VALUES_PER_ROW = 9;

    private LogInsert() {
    }

    /** @param logTable the change log, quoted and qualified */
    public static String sql(String logTable, int rows) {
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(logTable)
                .append(" (tx_id, source_node, command_type, schema_name, table_name, old_values, new_values,"
                        + " column_types, change_vector) VALUES ");
        for (int r = 0; r < rows; r++) {
            if (r > 0) sql.append(", ");
            sql.append("(?, ?, ?, ?, ?, ?, ?, ?, ?)");
        }
        return sql.toString();
    }
}
