package io.jdbcrepl.dialect.h2;

import io.jdbcrepl.dialect.DialectParts;

import java.util.List;

/** The parts of the driver module for this database (see {@link DialectParts}). */
public final class H2DriverParts implements DialectParts {

    @Override
    public List<Object> parts() {
        return List.of(new H2LogTableSql(), new H2GrantSql(), new H2MviewSql(), new H2RefreshSql());
    }
}
