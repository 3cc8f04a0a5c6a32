package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.dialect.DialectParts;

import java.util.List;

/** The parts of the driver module for this database (see {@link DialectParts}). */
public final class MySqlDriverParts implements DialectParts {

    @Override
    public List<Object> parts() {
        return List.of(new MySqlLogTableSql(), new MySqlGrantSql(), new MySqlMviewSql(), new MySqlRefreshSql());
    }
}
