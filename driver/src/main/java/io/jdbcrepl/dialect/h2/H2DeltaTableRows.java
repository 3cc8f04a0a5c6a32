package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.capture.DeltaTableRows;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * H2: a query over a delta table ({@code FINAL TABLE}/{@code OLD TABLE}) larger than
 * {@code MAX_MEMORY_ROWS} is buffered to disk, where H2 2.4 loses its last rows; an in-memory
 * database never buffers (unlimited). A file database's {@code MAX_MEMORY_ROWS} when set, else H2's
 * default of 40,000 rows per GB of heap: this JVM's heap when embedded, and for a server, whose heap
 * the driver cannot see, that of a 256 MB one (10,000 rows: loud rather than short).
 */
final class H2DeltaTableRows implements DeltaTableRows {

    @Override
    public long limit(Connection connection, String url) throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT DATABASE_PATH(), (SELECT SETTING_VALUE FROM"
                        + " INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'MAX_MEMORY_ROWS')")) {
            rs.next();
            if (rs.getString(1) == null) return Long.MAX_VALUE;
            if (rs.getString(2) != null) return Long.parseLong(rs.getString(2).trim());
            if (url.startsWith("jdbc:h2:tcp:") || url.startsWith("jdbc:h2:ssl:")) return 10_000;
            return 40_000L * Runtime.getRuntime().maxMemory() / (1L << 30);
        }
    }
}
