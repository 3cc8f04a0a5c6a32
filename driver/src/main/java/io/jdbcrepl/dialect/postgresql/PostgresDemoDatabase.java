package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.demo.DemoDatabase;

/** The demo on PostgreSQL. */
final class PostgresDemoDatabase implements DemoDatabase {

    @Override
    public String timestampType() {
        return "TIMESTAMP(6)";
    }

    @Override
    public String label() {
        return "PostgreSQL";
    }
}
