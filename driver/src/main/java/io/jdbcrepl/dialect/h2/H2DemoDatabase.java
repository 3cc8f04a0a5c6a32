package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.demo.DemoDatabase;

/** The demo on H2. */
final class H2DemoDatabase implements DemoDatabase {

    @Override
    public String timestampType() {
        return "TIMESTAMP(6)";
    }

    @Override
    public String label() {
        return "H2";
    }
}
