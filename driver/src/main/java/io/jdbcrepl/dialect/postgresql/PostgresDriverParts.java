package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.dialect.DialectParts;

import java.util.List;

/** PostgreSQL's parts that do database I/O. */
public final class PostgresDriverParts implements DialectParts {

    @Override
    public List<Object> parts() {
        return List.of(new PostgresCaptureMethod(), new PostgresInStatementCapture());
    }
}
