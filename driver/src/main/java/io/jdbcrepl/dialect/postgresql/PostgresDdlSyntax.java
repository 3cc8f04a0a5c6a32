package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.ddl.DdlSyntax;
import io.jdbcrepl.lcr.ValueType;

/** PostgreSQL's DDL: times to the microsecond unless told, several tables and CASCADE in TRUNCATE, a primary key dropped by name. */
final class PostgresDdlSyntax implements DdlSyntax {

    @Override
    public int defaultFraction(ValueType type) {
        return 6;
    }

    @Override
    public String setType(String column, String type) {
        return "ALTER COLUMN " + column + " TYPE " + type;
    }

    @Override
    public boolean dropsPrimaryKeyUnnamed() {
        return false;
    }

    @Override
    public boolean truncatesWithCascade() {
        return true;
    }
}
