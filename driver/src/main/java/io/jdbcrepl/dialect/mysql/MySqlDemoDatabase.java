package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.demo.DemoDatabase;

/** The demo on MySQL and MariaDB: DATETIME for timestamps (TIMESTAMP there ends in 2038), InnoDB tables for transactions. */
final class MySqlDemoDatabase implements DemoDatabase {

    @Override
    public String timestampType() {
        return "DATETIME(6)";
    }

    @Override
    public String tableOptions() {
        return " ENGINE=InnoDB";
    }

    @Override
    public String label() {
        return "MariaDB/MySQL";
    }
}
