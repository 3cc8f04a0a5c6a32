package io.jdbcrepl.ddl;

import io.jdbcrepl.dialect.Dialect;

import java.sql.SQLException;

/** Placeholder until the cross-vendor translation lands: same vendor family only. */
public final class DdlTranslation {

    private DdlTranslation() {
    }

    public static String translate(String sql, Dialect from, Dialect to) throws SQLException {
        boolean mysqlFamily = from.name().startsWith("m") && to.name().startsWith("m");
        if (from.name().equals(to.name()) || mysqlFamily) return sql;
        throw new SQLException("DDL from " + from.name() + " cannot be translated for " + to.name() + ": " + sql, "0A000");
    }
}
