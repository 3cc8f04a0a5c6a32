package io.jdbcrepl.it.capture.locking;

import io.jdbcrepl.it.support.DriverTables;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads a MariaDB or H2 node's change log with plain SQL. */
final class LockingLog {

    /** One repl_log row as text: command, old and new JSON, change vector. */
    record Row(long position, String txId, String command, String table, String oldValues, String newValues,
               String changeVector, String columnTypes) {
        @Override
        public String toString() {
            return command + " " + table + " old=" + oldValues + " new=" + newValues + " cv=" + changeVector;
        }
    }

    private LockingLog() {
    }

    static Map<String, String> nodeProperties(String node) {
        return Map.of("repl.node", node);
    }

    static String table(Vendor vendor, String name) {
        return vendor == Vendor.H2 ? name.toUpperCase() : name;
    }

    static List<Row> read(Connection raw, Vendor vendor) throws SQLException {
        List<Row> out = new ArrayList<>();
        try (Statement s = raw.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT position, tx_id, command_type, table_name, old_values, new_values, change_vector, column_types"
                        + " FROM " + DriverTables.table(raw, "repl_log") + " ORDER BY position")) {
            while (rs.next()) {
                out.add(new Row(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                        rs.getString(6), rs.getString(7), rs.getString(8)));
            }
        }
        return out;
    }

    static List<String> texts(Connection raw, Vendor vendor) throws SQLException {
        return read(raw, vendor).stream().map(Row::toString).toList();
    }

    /** The first column of the first row; the driver tables it names are read in the driver's schema. */
    static long count(Connection raw, String sql) throws SQLException {
        try (Statement s = raw.createStatement(); ResultSet rs = s.executeQuery(DriverTables.qualify(raw, sql))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) b.append(i > 1 ? "," : "").append(rs.getString(i));
                out.add(b.toString());
            }
        }
        return out;
    }

    /** Generated keys as text: the column labels, then the values row by row; closes the result. */
    static String keys(ResultSet rs) throws SQLException {
        List<String> out = new ArrayList<>();
        int n = rs.getMetaData().getColumnCount();
        for (int i = 1; i <= n; i++) out.add(rs.getMetaData().getColumnLabel(i));
        while (rs.next()) for (int i = 1; i <= n; i++) out.add(rs.getString(i));
        rs.close();
        return out.toString();
    }

    static Connection repl(TestDatabase db) throws SQLException {
        return db.openRepl(nodeProperties("n1"));
    }

    /** What a scenario returns of what the application saw. */
    @FunctionalInterface
    interface Script<T> {
        T run(Connection c) throws Exception;
    }

    /** A scenario's results through the raw driver on {@code rawDb} and through jdbc:repl: on {@code replDb}. */
    record RawAndRepl<T>(TestDatabase rawDb, TestDatabase replDb, T raw, T repl) {
    }

    /**
     * Runs {@code script} on two new databases made by {@code ddl}: through the raw driver on one,
     * through jdbc:repl: with repl.node=n1 on the other, {@code parameters} in both URLs.
     */
    static <T> RawAndRepl<T> rawAndRepl(TestDatabases databases, Vendor vendor, String label,
            Map<String, String> parameters, Script<T> script, String... ddl) throws Exception {
        TestDatabase rawDb = databases.create(vendor, label + "_raw");
        TestDatabase replDb = databases.create(vendor, label + "_repl");
        for (TestDatabase db : List.of(rawDb, replDb)) {
            try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
                for (String d : ddl) s.execute(d);
            }
        }
        T raw;
        try (Connection c = java.sql.DriverManager.getConnection(TestDatabase.withQuery(rawDb.rawUrl(), parameters),
                rawDb.credentials())) {
            raw = script.run(c);
        }
        Map<String, String> repl = new java.util.LinkedHashMap<>(parameters);
        repl.put("repl.node", "n1");
        T seen;
        try (Connection c = replDb.openRepl(repl)) {
            seen = script.run(c);
        }
        return new RawAndRepl<>(rawDb, replDb, raw, seen);
    }
}
