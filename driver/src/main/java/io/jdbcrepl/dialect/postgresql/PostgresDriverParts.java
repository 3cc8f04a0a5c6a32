package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.dialect.DialectParts;

import java.util.List;

/** PostgreSQL's parts that do database I/O, or need the driver module's types. */
public final class PostgresDriverParts implements DialectParts {

    @Override
    public List<Object> parts() {
        return List.of(new PostgresSourceReaders(), new PostgresApplySql(), new PostgresApplierLocks(),
                new PostgresApplyValues());
    }
}
