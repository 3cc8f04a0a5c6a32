package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.dialect.DialectParts;

import java.util.List;

/** The MySQL family's parts that do database I/O, or need the driver module's types (MariaDB's too). */
public final class MySqlDriverParts implements DialectParts {

    @Override
    public List<Object> parts() {
        return List.of(new MySqlSourceReaders(), new MySqlApplySql(), new MySqlApplierLocks(), new MySqlApplyValues());
    }
}
