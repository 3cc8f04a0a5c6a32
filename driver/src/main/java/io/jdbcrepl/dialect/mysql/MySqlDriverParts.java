package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.dialect.DialectParts;

import java.util.List;

/** The MySQL family's parts that do database I/O (MariaDB's too, unless its package has its own). */
public final class MySqlDriverParts implements DialectParts {

    @Override
    public List<Object> parts() {
        return List.of(new MySqlSessionZone(), new MySqlCaptureMethod());
    }
}
