package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.lcr.ValueType;
import io.jdbcrepl.verify.VerifySql;

import java.sql.Connection;

/** PostgreSQL: text by its bytes ({@code COLLATE "C"}); pgjdbc streams with a fetch size outside auto-commit only. */
final class PostgresVerifySql implements VerifySql {

    @Override
    public String orderTerm(String quotedColumn, ValueType type) {
        return type == ValueType.STRING ? quotedColumn + " COLLATE \"C\"" : quotedColumn;
    }

    /** PostgreSQL sorts NULL last by default. */
    @Override
    public String nullsFirst() {
        return " NULLS FIRST";
    }

    @Override
    public boolean streamsInTransactionOnly() {
        return true;
    }

    @Override
    public int streamingFetchSize(Connection connection, int rows) {
        return rows;
    }
}
