package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.dialect.DialectParts;

import java.util.List;

/** The parts of the driver module for this database (see {@link DialectParts}). */
public final class PostgresDriverParts implements DialectParts {

    @Override
    public List<Object> parts() {
        return List.of(new PostgresLogTableSql(), new PostgresGrantSql(), new PostgresMviewSql(), new PostgresRefreshSql());
    }
}
