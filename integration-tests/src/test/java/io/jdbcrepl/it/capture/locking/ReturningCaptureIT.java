package io.jdbcrepl.it.capture.locking;

import io.jdbcrepl.it.support.Rows;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Trace;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;

import static io.jdbcrepl.it.capture.locking.LockingLog.rows;
import static io.jdbcrepl.it.capture.locking.LockingLog.texts;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * MariaDB {@code INSERT … RETURNING} and {@code DELETE … RETURNING} of the application's own,
 * through both connectors: the application sees the rows, columns, counts and results it sees
 * through the raw driver, the tables end the same and the LCRs are exact (the driver reads every
 * column after the application's items and hides them).
 */
class ReturningCaptureIT {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    static final String DDL = "CREATE TABLE r (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(10) NOT NULL,"
            + " qty INT DEFAULT 7) ENGINE=InnoDB";

    /** Rows through executeQuery, or through execute and getResultSet (MySQL Connector/J runs only SELECT as a query). */
    static java.util.List<String> query(Statement s, String sql, Vendor vendor) throws Exception {
        if (vendor == Vendor.MARIADB) return Rows.of(s.executeQuery(sql));
        return s.execute(sql) ? Rows.of(s.getResultSet()) : java.util.List.of();
    }

    static void script(Connection c, Trace t, Vendor vendor) throws Exception {
        try (Statement s = c.createStatement()) {
            t.value("execute insert returning", () -> s.execute("INSERT INTO r (name) VALUES ('a'), ('b') RETURNING id, name AS n"));
            t.value("its columns", () -> Rows.columns(s.getResultSet().getMetaData()));
            t.value("its rows", () -> Rows.of(s.getResultSet()));
            t.value("update count", s::getUpdateCount);
            t.value("more results", s::getMoreResults);
            t.value("update count after", s::getUpdateCount);
            t.value("result after", () -> s.getResultSet() == null);
            t.value("query insert returning *", () -> query(s, "INSERT INTO r (name, qty) VALUES ('c', 1) RETURNING *", vendor));
            t.value("query delete returning an expression", () -> query(s,
                    "DELETE FROM r WHERE qty = 7 RETURNING id * 10 AS ten, UPPER(name)", vendor));
            if (vendor != Vendor.MARIADB) {
                t.outcome("executeQuery of an insert returning", () -> Rows.of(s.executeQuery(
                        "INSERT INTO r (name, qty) VALUES ('x', 0) RETURNING id")));
            }
            t.outcome("executeUpdate of a delete returning", () -> s.executeUpdate("DELETE FROM r WHERE id = 99 RETURNING id"));
            t.value("insert select returning", () -> query(s, "INSERT INTO r (name, qty)"
                    + " SELECT CONCAT(name, '2'), qty + 1 FROM r WHERE qty > 0 RETURNING r.*", vendor));
            t.outcome("executeUpdate of a delete returning one row", () -> s.executeUpdate(
                    "DELETE FROM r WHERE name = 'c2' RETURNING id"));
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO r (name, qty) VALUES (?, ?) RETURNING qty, id")) {
            ps.setString(1, "p");
            ps.setInt(2, 5);
            t.value("prepared execute", ps::execute);
            t.value("prepared rows", () -> Rows.of(ps.getResultSet()));
            ps.setString(1, "q");
            ps.setInt(2, 6);
            ps.execute();
            try (ResultSet rs = ps.getResultSet()) {
                t.value("a column past the items", () -> {
                    rs.next();
                    try {
                        rs.getObject(3);
                        return "read";
                    } catch (java.sql.SQLException e) {
                        return "refused";
                    }
                });
            }
        }
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM r WHERE name = ? RETURNING name")) {
            ps.setString(1, "p");
            t.value("prepared delete in a transaction", () -> ps.execute() ? Rows.of(ps.getResultSet()) : null);
        }
        c.rollback();
        c.setAutoCommit(true);
    }

    @ParameterizedTest
    @EnumSource(value = Vendor.class, names = {"MARIADB", "MYSQL_DRIVER_ON_MARIADB"})
    void sameResultsAsTheRawDriverAndExactLcrs(Vendor vendor) throws Exception {
        LockingLog.RawAndRepl<Trace> run = LockingLog.rawAndRepl(databases, vendor, "ret", java.util.Map.of(), c -> {
            Trace t = new Trace();
            return t.run(() -> script(c, t, vendor));
        }, DDL);
        assertThat(run.raw().unexpected()).as(run.raw().text()).isEmpty();
        assertThat(run.repl().text()).isEqualTo(run.raw().text());
        String all = "SELECT * FROM r ORDER BY id";
        try (Connection a = run.rawDb().openRaw(); Connection b = run.replDb().openRaw()) {
            assertThat(rows(b, all)).isEqualTo(rows(a, all));
            String cv = "cv=[\"name\"]";
            assertThat(texts(b, vendor)).containsExactly(
                    "INSERT r old=null new={\"id\":1,\"name\":\"a\",\"qty\":7} " + cv,
                    "INSERT r old=null new={\"id\":2,\"name\":\"b\",\"qty\":7} " + cv,
                    "INSERT r old=null new={\"id\":3,\"name\":\"c\",\"qty\":1} cv=[\"name\",\"qty\"]",
                    "DELETE r old={\"id\":1,\"name\":\"a\",\"qty\":7} new=null cv=null",
                    "DELETE r old={\"id\":2,\"name\":\"b\",\"qty\":7} new=null cv=null",
                    "INSERT r old=null new={\"id\":4,\"name\":\"c2\",\"qty\":2} cv=[\"name\",\"qty\"]",
                    "DELETE r old={\"id\":4,\"name\":\"c2\",\"qty\":2} new=null cv=null",
                    "INSERT r old=null new={\"id\":5,\"name\":\"p\",\"qty\":5} cv=[\"name\",\"qty\"]",
                    "INSERT r old=null new={\"id\":6,\"name\":\"q\",\"qty\":6} cv=[\"name\",\"qty\"]");
        }
    }

    static void h2Script(Connection c, Trace t) throws Exception {
        try (Statement s = c.createStatement()) {
            t.value("query over an insert's final table", () -> {
                ResultSet rs = s.executeQuery("SELECT id, name AS n FROM FINAL TABLE (INSERT INTO r (name) VALUES ('a'), ('b'))");
                return Rows.columns(rs.getMetaData()) + " " + Rows.of(rs);
            });
            t.value("execute", () -> s.execute("SELECT * FROM FINAL TABLE (INSERT INTO r (name, qty) VALUES ('c', 1)) AS f"));
            t.value("its rows", () -> Rows.of(s.getResultSet()));
            t.value("update count", s::getUpdateCount);
            t.value("more results", s::getMoreResults);
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT f.id * 10 AS ten FROM OLD TABLE (DELETE FROM r WHERE qty = ?) f")) {
            ps.setInt(1, 7);
            t.value("prepared query over a delete's old table", () -> Rows.of(ps.executeQuery()));
        }
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            t.value("in a transaction rolled back", () -> Rows.of(s.executeQuery(
                    "SELECT name FROM FINAL TABLE (INSERT INTO r (name) VALUES ('gone'))")));
        }
        c.rollback();
        c.setAutoCommit(true);
    }

    /** H2's data change delta tables: the query over an INSERT's FINAL TABLE or a DELETE's OLD TABLE. */
    @ParameterizedTest
    @EnumSource(value = Vendor.class, names = {"H2"})
    void h2QueriesOverDeltaTablesGetTheirRowsAndExactLcrs(Vendor vendor) throws Exception {
        LockingLog.RawAndRepl<Trace> run = LockingLog.rawAndRepl(databases, vendor, "delta", java.util.Map.of(), c -> {
            Trace t = new Trace();
            return t.run(() -> h2Script(c, t));
        }, "CREATE TABLE r (id INT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, name VARCHAR(10) NOT NULL, qty INT DEFAULT 7)");
        assertThat(run.raw().unexpected()).as(run.raw().text()).isEmpty();
        assertThat(run.repl().text()).isEqualTo(run.raw().text());
        String all = "SELECT * FROM r ORDER BY id";
        try (Connection a = run.rawDb().openRaw(); Connection b = run.replDb().openRaw()) {
            assertThat(rows(b, all)).isEqualTo(rows(a, all)).containsExactly("3,c,1");
            assertThat(texts(b, vendor)).containsExactly(
                    "INSERT R old=null new={\"ID\":1,\"NAME\":\"a\",\"QTY\":7} cv=[\"NAME\"]",
                    "INSERT R old=null new={\"ID\":2,\"NAME\":\"b\",\"QTY\":7} cv=[\"NAME\"]",
                    "INSERT R old=null new={\"ID\":3,\"NAME\":\"c\",\"QTY\":1} cv=[\"NAME\",\"QTY\"]",
                    "DELETE R old={\"ID\":1,\"NAME\":\"a\",\"QTY\":7} new=null cv=null",
                    "DELETE R old={\"ID\":2,\"NAME\":\"b\",\"QTY\":7} new=null cv=null");
        }
    }
}
