package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.log.EpochSourceReaders;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** A MySQL-family log is read by epochs. */
final class MySqlSourceReaders extends EpochSourceReaders {

    /** Each read sees the latest commits: no snapshot kept between statements. */
    @Override
    protected void prepare(Connection source) throws SQLException {
        source.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
    }

    /** The new epoch is this statement's own through {@code LAST_INSERT_ID(expr)}, kept per session. */
    @Override
    protected long closeEpoch(Statement s, String epochTable) throws SQLException {
        if (s.executeUpdate("UPDATE " + epochTable + " SET epoch = LAST_INSERT_ID(epoch + 1) WHERE id = 1") != 1) return 0;
        try (ResultSet rs = s.executeQuery("SELECT LAST_INSERT_ID()")) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    @Override
    protected void startSnapshot(Connection donor, ChangeLogSchema log) throws SQLException {
        donor.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        donor.setAutoCommit(false);
        try (Statement s = donor.createStatement()) {
            s.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
        }
    }

    @Override
    protected String firstRows(int rows) {
        return " LIMIT " + rows;
    }
}
