package io.jdbcrepl.dialect.mariadb;

import io.jdbcrepl.dialect.mysql.MySqlDialect;

import java.util.List;

/** MariaDB 10.5+ through MariaDB Connector/J: MySQL's SQL, with what MariaDB adds. */
public class MariaDbDialect extends MySqlDialect {

    @Override
    protected List<String> subprotocols() {
        return List.of("mariadb");
    }

    // ---- capture ----

    /** MariaDB Connector/J. */
    @Override
    protected boolean mysqlConnector() {
        return false;
    }
}
