package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.lcr.ValueType;
import io.jdbcrepl.verify.VerifySql;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;

/** MySQL and MariaDB: text by its bytes ({@code CAST … AS BINARY}); NULL sorts first already. */
final class MySqlVerifySql implements VerifySql {

    @Override
    public String orderTerm(String quotedColumn, ValueType type) {
        return "CAST(" + quotedColumn + " AS BINARY)";
    }

    @Override
    public String nullsFirst() {
        return "";
    }

    @Override
    public boolean streamsInTransactionOnly() {
        return false;
    }

    /** MySQL Connector/J streams only with {@code Integer.MIN_VALUE}; MariaDB's with a positive size. */
    @Override
    public int streamingFetchSize(Connection connection, int rows) throws SQLException {
        boolean connectorJ = connection.getMetaData().getDriverName().toLowerCase(Locale.ROOT).contains("mysql connector");
        return connectorJ ? Integer.MIN_VALUE : rows;
    }
}
