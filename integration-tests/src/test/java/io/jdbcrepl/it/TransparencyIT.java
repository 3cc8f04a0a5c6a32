package io.jdbcrepl.it;

import io.jdbcrepl.it.support.ForEachVendor;
import io.jdbcrepl.it.support.Identities;
import io.jdbcrepl.it.support.RawVsRepl;
import io.jdbcrepl.it.support.Rows;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Trace;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigDecimal;
import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;

/**
 * A URL without {@code repl.node} is a pure pass-through (SPEC 2): every scenario here runs once
 * through the vendor's driver and once through {@code jdbc:repl:}, on the same freshly reset
 * tables, and the two traces must be equal. The raw driver is the reference, also where it throws.
 */
class TransparencyIT {

    @RegisterExtension
    static final TestDatabases DATABASES = TestDatabases.perClass();

    // ------------------------------------------------------------------ statements

    @ForEachVendor
    void plainStatements(Vendor vendor) throws Exception {
        assertSameThroughRepl(vendor, (c, t, v) -> {
            try (Statement s = c.createStatement()) {
                t.value("execute insert", () -> s.execute("INSERT INTO item (name, qty) VALUES ('apple', 3)"));
                t.value("update count", s::getUpdateCount);
                t.value("executeUpdate multi-row insert",
                        () -> s.executeUpdate("INSERT INTO item (name, qty, note) VALUES ('pear', 5, 'green'), ('plum', 7, NULL)"));
                t.value("executeUpdate update", () -> s.executeUpdate("UPDATE item SET qty = qty + 1 WHERE qty > 3"));
                t.value("executeQuery", () -> Rows.of(s.executeQuery("SELECT id, name, qty, note FROM item ORDER BY id")));
                t.value("execute select", () -> s.execute("SELECT name FROM item ORDER BY name"));
                t.value("result set", () -> Rows.of(s.getResultSet()));
                t.value("update count after select", s::getUpdateCount);
                t.value("more results", s::getMoreResults);
                t.value("update count at end", s::getUpdateCount);
                t.step("setMaxRows(1)", () -> s.setMaxRows(1));
                t.value("max rows", s::getMaxRows);
                t.value("limited query", () -> Rows.of(s.executeQuery("SELECT name FROM item ORDER BY name")));
                t.step("setMaxRows(0)", () -> s.setMaxRows(0));
                t.value("executeUpdate delete", () -> s.executeUpdate("DELETE FROM item WHERE name = 'plum'"));
                t.value("count", () -> Rows.of(s.executeQuery("SELECT count(*) AS n FROM item")));
            }
        });
    }

    @ForEachVendor
    void preparedStatements(Vendor vendor) throws Exception {
        assertSameThroughRepl(vendor, (c, t, v) -> {
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO item (name, qty, note, price) VALUES (?, ?, ?, ?)")) {
                t.value("parameter count", () -> insert.getParameterMetaData().getParameterCount());
                insert.setString(1, "apple");
                insert.setInt(2, 3);
                insert.setNull(3, Types.VARCHAR);
                insert.setBigDecimal(4, new BigDecimal("1.25"));
                t.value("insert 1", insert::executeUpdate);
                insert.clearParameters();
                insert.setString(1, "pear");
                insert.setInt(2, 5);
                insert.setString(3, "green");
                insert.setBigDecimal(4, new BigDecimal("2.50"));
                t.value("insert 2 (execute)", insert::execute);
                t.value("insert 2 update count", insert::getUpdateCount);
                insert.setString(1, "plum");
                insert.setObject(2, 7);
                insert.setObject(3, "purple", Types.VARCHAR);
                insert.setObject(4, null, Types.DECIMAL);
                t.outcome("insert 3 (executeLargeUpdate)", insert::executeLargeUpdate);
            }
            try (PreparedStatement query = c.prepareStatement("SELECT id, name, qty, note, price FROM item WHERE qty >= ? ORDER BY id")) {
                query.setInt(1, 4);
                t.value("query qty >= 4", () -> Rows.of(query.executeQuery()));
                query.setInt(1, 0);
                t.value("query qty >= 0", () -> Rows.of(query.executeQuery()));
                t.value("execute query", query::execute);
                t.value("its result set", () -> Rows.of(query.getResultSet()));
                t.value("result set metadata", () -> Rows.columns(query.getMetaData()));
            }
            try (PreparedStatement update = c.prepareStatement("UPDATE item SET qty = qty * ? WHERE name <> ?")) {
                update.setInt(1, 10);
                update.setString(2, "pear");
                t.value("update", update::executeUpdate);
            }
            try (Statement s = c.createStatement()) {
                t.value("after", () -> Rows.of(s.executeQuery("SELECT name, qty FROM item ORDER BY id")));
            }
        });
    }

    @ForEachVendor
    void callableStatements(Vendor vendor) throws Exception {
        assertSameThroughRepl(vendor, (c, t, v) -> {
            if (v == Vendor.H2) {
                try (CallableStatement cs = c.prepareCall("{? = call add_ints(?, ?)}")) {
                    cs.registerOutParameter(1, Types.INTEGER);
                    cs.setInt(2, 40);
                    cs.setInt(3, 2);
                    t.value("execute function", cs::execute);
                    t.value("result", () -> cs.getInt(1));
                }
                try (CallableStatement cs = c.prepareCall("{call add_ints(?, ?)}")) {
                    cs.setInt(1, 1);
                    cs.setInt(2, 2);
                    t.value("call as query", () -> Rows.of(cs.executeQuery()));
                }
                return;
            }
            try (CallableStatement cs = c.prepareCall("{? = call add_one(?)}")) {
                cs.registerOutParameter(1, Types.INTEGER);
                cs.setInt(2, 41);
                t.value("execute function", cs::execute);
                t.value("result", () -> cs.getInt(1));
                t.value("wasNull", cs::wasNull);
                cs.setInt(2, 99);
                t.value("execute again", cs::execute);
                t.value("result again", () -> cs.getObject(1));
            }
            String procedure = v == Vendor.POSTGRESQL ? "call double_it(?)" : "{call double_it(?)}";
            try (CallableStatement cs = c.prepareCall(procedure)) {
                cs.registerOutParameter(1, Types.INTEGER);
                cs.setInt(1, 21);
                t.value("execute procedure", cs::execute);
                t.value("INOUT result", () -> cs.getInt(1));
            }
        });
    }

    @ForEachVendor
    void batches(Vendor vendor) throws Exception {
        assertSameThroughRepl(vendor, (c, t, v) -> {
            try (Statement s = c.createStatement()) {
                s.addBatch("INSERT INTO item (name, qty) VALUES ('a', 1)");
                s.addBatch("INSERT INTO item (name, qty) VALUES ('b', 2)");
                s.addBatch("UPDATE item SET qty = qty + 10");
                t.value("statement executeBatch", s::executeBatch);
                t.value("empty batch after execute", s::executeBatch);
                s.addBatch("INSERT INTO item (name, qty) VALUES ('c', 3)");
                s.addBatch("DELETE FROM item WHERE name = 'a'");
                t.outcome("statement executeLargeBatch", s::executeLargeBatch);
                s.addBatch("INSERT INTO item (name, qty) VALUES ('never', 0)");
                s.clearBatch();
                t.value("cleared batch", s::executeBatch);
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (name, qty) VALUES (?, ?)")) {
                for (int i = 1; i <= 4; i++) {
                    ps.setString(1, "p" + i);
                    ps.setInt(2, i * 100);
                    ps.addBatch();
                }
                t.value("prepared executeBatch", ps::executeBatch);
                for (int i = 5; i <= 6; i++) {
                    ps.setString(1, "p" + i);
                    ps.setInt(2, i * 100);
                    ps.addBatch();
                }
                t.outcome("prepared executeLargeBatch", ps::executeLargeBatch);
                ps.setString(1, "p7");
                ps.setInt(2, 700);
                ps.addBatch();
                ps.setString(1, "p1"); // duplicate name: the batch fails here
                ps.setInt(2, 1);
                ps.addBatch();
                ps.setString(1, "p8");
                ps.setInt(2, 800);
                ps.addBatch();
                t.failure("failing batch", ps::executeBatch);
            }
            try (Statement s = c.createStatement()) {
                t.value("rows", () -> Rows.of(s.executeQuery("SELECT name, qty FROM item ORDER BY name")));
            }
        });
    }

    @ForEachVendor
    void executeLargeUpdate(Vendor vendor) throws Exception {
        assertSameThroughRepl(vendor, (c, t, v) -> {
            try (Statement s = c.createStatement()) {
                t.outcome("executeLargeUpdate", () -> s.executeLargeUpdate("INSERT INTO item (name, qty) VALUES ('a', 1)"));
                t.outcome("executeLargeUpdate with keys flag", () -> s.executeLargeUpdate(
                        "INSERT INTO item (name, qty) VALUES ('b', 2)", Statement.RETURN_GENERATED_KEYS));
                t.outcome("keys", () -> Rows.of(s.getGeneratedKeys()));
                t.outcome("executeLargeUpdate with column names", () -> s.executeLargeUpdate(
                        "INSERT INTO item (name, qty) VALUES ('c', 3)", new String[] {"id"}));
                t.outcome("executeLargeUpdate with column indexes", () -> s.executeLargeUpdate(
                        "INSERT INTO item (name, qty) VALUES ('d', 4)", new int[] {1}));
                t.outcome("large update count", s::getLargeUpdateCount);
                t.outcome("executeLargeUpdate update", () -> s.executeLargeUpdate("UPDATE item SET qty = qty * 2"));
                t.outcome("large max rows", () -> {
                    s.setLargeMaxRows(2);
                    return s.getLargeMaxRows();
                });
            }
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM item WHERE qty > ?")) {
                ps.setInt(1, 4);
                t.outcome("prepared executeLargeUpdate", ps::executeLargeUpdate);
            }
            try (Statement s = c.createStatement()) {
                t.value("rows", () -> Rows.of(s.executeQuery("SELECT name, qty FROM item ORDER BY name")));
            }
        });
    }

    @ForEachVendor
    void generatedKeys(Vendor vendor) throws Exception {
        assertSameThroughRepl(vendor, (c, t, v) -> {
            try (Statement s = c.createStatement()) {
                t.value("executeUpdate, RETURN_GENERATED_KEYS", () -> s.executeUpdate(
                        "INSERT INTO item (name, qty) VALUES ('a', 1)", Statement.RETURN_GENERATED_KEYS));
                t.value("keys", () -> Rows.of(s.getGeneratedKeys()));
                t.value("execute, column names", () -> s.execute(
                        "INSERT INTO item (name, qty) VALUES ('b', 2)", new String[] {"id"}));
                t.value("keys", () -> Rows.of(s.getGeneratedKeys()));
                t.outcome("executeUpdate, column indexes", () -> s.executeUpdate(
                        "INSERT INTO item (name, qty) VALUES ('c', 3)", new int[] {1}));
                t.outcome("keys", () -> Rows.of(s.getGeneratedKeys()));
                t.value("executeUpdate, NO_GENERATED_KEYS", () -> s.executeUpdate(
                        "INSERT INTO item (name, qty) VALUES ('d', 4)", Statement.NO_GENERATED_KEYS));
                t.outcome("keys", () -> Rows.of(s.getGeneratedKeys()));
                t.value("keys' statement", () -> {
                    s.executeUpdate("INSERT INTO item (name, qty) VALUES ('e', 5)", Statement.RETURN_GENERATED_KEYS);
                    try (ResultSet keys = s.getGeneratedKeys()) {
                        return Identities.whichStatement(keys.getStatement(), s);
                    }
                });
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (name, qty) VALUES (?, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                for (String name : new String[] {"f", "g"}) {
                    ps.setString(1, name);
                    ps.setInt(2, 6);
                    t.value("prepared, flag: " + name, ps::executeUpdate);
                    t.value("keys", () -> Rows.of(ps.getGeneratedKeys()));
                }
                ps.setString(1, "h");
                ps.setInt(2, 7);
                ps.addBatch();
                ps.setString(1, "i");
                ps.setInt(2, 7);
                ps.addBatch();
                t.value("prepared batch, flag", ps::executeBatch);
                t.outcome("batch keys", () -> Rows.of(ps.getGeneratedKeys()));
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (name, qty) VALUES (?, ?)", new String[] {"id"})) {
                ps.setString(1, "j");
                ps.setInt(2, 8);
                t.value("prepared, column names", ps::executeUpdate);
                t.value("keys", () -> Rows.of(ps.getGeneratedKeys()));
            }
            t.outcome("prepared, column indexes", () -> {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (name, qty) VALUES (?, ?)", new int[] {1})) {
                    ps.setString(1, "k");
                    ps.setInt(2, 9);
                    ps.executeUpdate();
                    return Rows.of(ps.getGeneratedKeys());
                }
            });
            try (Statement s = c.createStatement()) {
                t.value("rows", () -> Rows.of(s.executeQuery("SELECT id, name FROM item ORDER BY id")));
            }
        });
    }

    // ------------------------------------------------------------------ result sets

    @ForEachVendor
    void scrollableNavigation(Vendor vendor) throws Exception {
        assertSameThroughRepl(vendor, (c, t, v) -> {
            VendorSql.insertItems(c, 6);
            try (Statement s = c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY);
                    ResultSet rs = s.executeQuery("SELECT name, qty FROM item ORDER BY qty")) {
                t.value("type", rs::getType);
                t.value("concurrency", rs::getConcurrency);
                t.value("isBeforeFirst", rs::isBeforeFirst);
                t.value("absolute(3)", () -> rs.absolute(3) + " " + Rows.current(rs) + " row " + rs.getRow());
                t.value("relative(-1)", () -> rs.relative(-1) + " " + Rows.current(rs));
                t.value("relative(2)", () -> rs.relative(2) + " " + Rows.current(rs));
                t.value("previous()", () -> rs.previous() + " " + Rows.current(rs));
                t.value("first()", () -> rs.first() + " " + Rows.current(rs) + " isFirst " + rs.isFirst());
                t.value("last()", () -> rs.last() + " " + Rows.current(rs) + " isLast " + rs.isLast() + " row " + rs.getRow());
                t.value("absolute(-2)", () -> rs.absolute(-2) + " " + Rows.current(rs));
                t.value("relative(10)", () -> rs.relative(10) + " isAfterLast " + rs.isAfterLast());
                t.value("previous() from after last", () -> rs.previous() + " " + Rows.current(rs));
                t.step("beforeFirst()", rs::beforeFirst);
                t.value("next()", () -> rs.next() + " " + Rows.current(rs));
                t.step("afterLast()", rs::afterLast);
                t.value("previous()", () -> rs.previous() + " " + Rows.current(rs));
                t.value("absolute(0)", () -> rs.absolute(0) + " isBeforeFirst " + rs.isBeforeFirst());
                t.value("fetch direction", rs::getFetchDirection);
            }
            try (Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT name FROM item ORDER BY qty")) {
                t.value("forward-only type", rs::getType);
                t.value("next()", rs::next);
                t.outcome("previous() on forward-only", rs::previous);
            }
        });
    }

    @ForEachVendor
    void updatableResultSets(Vendor vendor) throws Exception {
        assertSameThroughRepl(vendor, (c, t, v) -> {
            VendorSql.insertItems(c, 3);
            try (Statement s = c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_UPDATABLE);
                    ResultSet rs = s.executeQuery("SELECT id, name, qty FROM item ORDER BY id")) {
                t.value("concurrency", rs::getConcurrency);
                t.value("next()", rs::next);
                t.step("updateInt + updateRow", () -> {
                    rs.updateInt("qty", 99);
                    rs.updateRow();
                });
                t.value("row after update", () -> Rows.current(rs));
                t.value("next()", rs::next);
                t.step("deleteRow", rs::deleteRow);
                t.step("moveToInsertRow + insertRow", () -> {
                    rs.moveToInsertRow();
                    rs.updateString("name", "inserted");
                    rs.updateInt("qty", 7);
                    rs.insertRow();
                    rs.moveToCurrentRow();
                });
                t.value("last()", () -> rs.last() + " " + Rows.current(rs));
            }
            try (Statement s = c.createStatement()) {
                t.value("table after", () -> Rows.of(s.executeQuery("SELECT name, qty FROM item ORDER BY name")));
            }
        });
    }

    // ------------------------------------------------------------------ errors

    @ForEachVendor
    void exceptionsCarryTheVendorsSqlState(Vendor vendor) throws Exception {
        assertSameThroughRepl(vendor, (c, t, v) -> {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO item (name, qty) VALUES ('a', 1)");
                t.failure("duplicate key, plain", () -> s.executeUpdate("INSERT INTO item (name, qty) VALUES ('a', 2)"));
                t.failure("syntax error, plain", () -> s.executeQuery("SELEKT name FROM item"));
                t.failure("unknown table", () -> s.executeQuery("SELECT * FROM no_such_table"));
                t.failure("not null violated", () -> s.executeUpdate("INSERT INTO item (name, qty) VALUES (NULL, 1)"));
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO item (name, qty) VALUES (?, ?)")) {
                ps.setString(1, "a");
                ps.setInt(2, 3);
                t.failure("duplicate key, prepared", ps::executeUpdate);
            }
            t.failure("syntax error, prepared", () -> {
                try (PreparedStatement ps = c.prepareStatement("SELEKT name FROM item WHERE qty = ?")) {
                    ps.setInt(1, 1);
                    ps.executeQuery();
                }
            });
            t.step("autocommit off", () -> c.setAutoCommit(false));
            try (Statement s = c.createStatement()) {
                t.failure("duplicate key in a transaction", () -> s.executeUpdate("INSERT INTO item (name, qty) VALUES ('a', 4)"));
                t.outcome("next statement in that transaction", () -> Rows.of(s.executeQuery("SELECT count(*) AS n FROM item")));
                t.step("rollback", c::rollback);
                t.value("after rollback", () -> Rows.of(s.executeQuery("SELECT count(*) AS n FROM item")));
            }
            t.step("autocommit on", () -> c.setAutoCommit(true));
        });
    }

    /** Runs the scenario raw, then through jdbc:repl:, on freshly reset tables; returns the raw trace. */
    private static Trace assertSameThroughRepl(Vendor vendor, RawVsRepl.Scenario scenario) throws Exception {
        return RawVsRepl.assertSame(DATABASES.shared(vendor, "transparency"), VendorSql::reset, scenario);
    }
}
