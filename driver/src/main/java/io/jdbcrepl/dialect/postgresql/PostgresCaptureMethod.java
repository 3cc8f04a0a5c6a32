package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.capture.CaptureMethod;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** PostgreSQL: each captured statement is rewritten into one data-modifying CTE; COPY loads. */
final class PostgresCaptureMethod implements CaptureMethod {

    @Override
    public boolean inStatement() {
        return true;
    }

    @Override
    public BulkLoad bulkLoad() {
        return BulkLoad.COPY;
    }

    /** GENERATED ALWAYS identity columns, which COPY fills from the file but INSERT only with OVERRIDING SYSTEM VALUE. */
    @Override
    public List<String> alwaysIdentity(Connection raw, String table, List<String> columns) throws SQLException {
        List<String> found = new ArrayList<>();
        try (PreparedStatement ps = raw.prepareStatement("SELECT attname FROM pg_attribute WHERE attrelid = ?::regclass"
                + " AND attidentity = 'a' AND NOT attisdropped")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (columns.contains(rs.getString(1))) found.add(rs.getString(1));
                }
            }
        }
        return found;
    }
}
