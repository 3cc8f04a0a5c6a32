package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.log.EpochSourceReaders;

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

    @Override
    protected String firstRows(int rows) {
        return " FETCH FIRST " + rows + " ROWS ONLY";
    }
}
