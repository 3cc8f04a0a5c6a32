package io.jdbcrepl.apply;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.intercept.SqlState;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** Placeholder until the table creation lands: a missing table is refused. */
public final class TableCreation {

    private TableCreation() {
    }

    public record TablePlan(String localTable, List<String> createTable, List<String> constraints) {
    }

    public static TablePlan plan(Connection donor, Dialect donorDialect, String donorSchema, String table,
            Dialect localDialect, String localSchema) throws SQLException {
        throw SqlState.UNDEFINED_TABLE.exception("Table " + table + " is missing here: create it before joining");
    }
}
