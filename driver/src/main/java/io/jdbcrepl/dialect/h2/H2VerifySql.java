package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.lcr.ValueType;
import io.jdbcrepl.verify.VerifySql;

import java.sql.Connection;

/** H2: the column itself (H2 compares text without a collation unless one is set). */
final class H2VerifySql implements VerifySql {

    @Override
    public String orderTerm(String quotedColumn, ValueType type) {
        return quotedColumn;
    }

    @Override
    public String nullsFirst() {
        return " NULLS FIRST";
    }

    @Override
    public boolean streamsInTransactionOnly() {
        return false;
    }

    @Override
    public int streamingFetchSize(Connection connection, int rows) {
        return rows;
    }
}
