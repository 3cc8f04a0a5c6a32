package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.log.EpochSourceReaders;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** An H2 log is read by epochs. */
final class H2SourceReaders extends EpochSourceReaders {

    /** The new epoch is this statement's own through its data change delta table. */
    @Override
    protected long closeEpoch(Statement s, String epochTable) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT epoch FROM FINAL TABLE (UPDATE " + epochTable
                + " SET epoch = epoch + 1 WHERE id = 1)")) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    /**
     * H2's SNAPSHOT isolation shows every table as of the transaction's first read (REPEATABLE READ
     * would show each table as of its own first read).
     */
    @Override
    protected void startSnapshot(Connection donor, ChangeLogSchema log) throws SQLException {
        try (Statement s = donor.createStatement()) {
            s.execute("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SNAPSHOT");
            donor.setAutoCommit(false);
            try (ResultSet rs = s.executeQuery("SELECT epoch FROM " + log.table("repl_epoch"))) {
                rs.next();
            }
        }
    }

    @Override
    protected String firstRows(int rows) {
        return " FETCH FIRST " + rows + " ROWS ONLY";
    }
}
