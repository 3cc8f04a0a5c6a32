package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.capture.CaptureMethod;
import io.jdbcrepl.intercept.SqlState;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

/** The MySQL family: locking capture with MariaDB's RETURNING; LOAD DATA loads. */
final class MySqlCaptureMethod implements CaptureMethod {

    @Override
    public boolean inStatement() {
        return false;
    }

    @Override
    public BulkLoad bulkLoad() {
        return BulkLoad.LOAD_DATA;
    }

    /**
     * Capture on the MySQL dialect uses MariaDB's INSERT/DELETE ... RETURNING: a MySQL server is
     * refused when the connection opens, not with a syntax error at its first INSERT.
     */
    @Override
    public void check(Connection raw) throws SQLException {
        String version = raw.getMetaData().getDatabaseProductVersion();
        if (version == null || !version.toLowerCase(Locale.ROOT).contains("mariadb")) {
            throw new SQLException("Capture (repl.node) on a MySQL server (" + version + ") is not supported: it uses"
                    + " MariaDB 10.6+'s RETURNING; connect without repl.node for a pass-through connection", SqlState.REFUSED.code());
        }
    }
}
