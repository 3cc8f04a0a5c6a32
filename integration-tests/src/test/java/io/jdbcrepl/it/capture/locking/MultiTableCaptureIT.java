package io.jdbcrepl.it.capture.locking;

import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.jdbcrepl.it.capture.locking.LockingLog.rows;
import static io.jdbcrepl.it.capture.locking.LockingLog.texts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * MariaDB's multi-table UPDATE and DELETE (SPEC 8.3): the same results as the raw driver, found or
 * affected rows alike, and exactly one LCR per row changed of each replicated table, none for a
 * table that is not replicated, none for rolled-back work.
 */
class MultiTableCaptureIT {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    private static final String[] DDL = {
        "CREATE TABLE dept (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, total INT NOT NULL) ENGINE=InnoDB",
        "CREATE TABLE emp (id INT PRIMARY KEY, dept INT NOT NULL, salary DECIMAL(10,2)) ENGINE=InnoDB",
        "CREATE TABLE note (id INT PRIMARY KEY, txt VARCHAR(20)) ENGINE=InnoDB",
        "INSERT INTO dept VALUES (1, 'a', 0), (2, 'b', 0), (3, 'c', 0)",
        "INSERT INTO emp VALUES (1, 1, 10), (2, 1, 20), (3, 2, 30), (4, 2, 40), (5, 9, 50)",
        "INSERT INTO note VALUES (1, 'n1'), (2, 'n2')"};

    /** Every form, through the raw driver or jdbc:repl:, returning the counts the application saw. */
    private static List<String> script(Connection c) throws SQLException {
        List<String> seen = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE emp e JOIN dept d ON d.id = e.dept SET e.salary = e.salary + ? WHERE d.name = ?")) {
            ps.setInt(1, 5);
            ps.setString(2, "a");
            seen.add("join " + ps.executeUpdate());
        }
        try (Statement s = c.createStatement()) {
            // dept 2 joins two rows of emp, and is changed once
            seen.add("two tables " + s.executeUpdate("UPDATE emp, dept SET emp.salary = 1, dept.total = dept.total + 1"
                    + " WHERE emp.dept = dept.id AND dept.name = 'b'"));
            seen.add("found, not changed " + s.executeUpdate(
                    "UPDATE emp e JOIN dept d ON d.id = e.dept SET e.salary = e.salary WHERE d.name = 'a'"));
            seen.add("left join read " + s.executeUpdate(
                    "UPDATE emp e LEFT JOIN dept d ON d.id = e.dept SET e.dept = COALESCE(d.id, 0) WHERE e.id >= 4"));
            seen.add("derived table " + s.executeUpdate("UPDATE emp e JOIN (SELECT dept, MAX(salary) AS m FROM emp"
                    + " GROUP BY dept) x ON x.dept = e.dept SET e.salary = x.m WHERE e.salary < x.m"));
            seen.add("with a table not replicated " + s.executeUpdate(
                    "UPDATE emp JOIN note ON note.id = emp.id SET emp.salary = 7, note.txt = 'x'"));
        }
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            seen.add("rolled back " + s.executeUpdate("DELETE e FROM emp e JOIN dept d ON d.id = e.dept WHERE d.name = 'a'"));
            c.rollback();
            Savepoint sp = c.setSavepoint();
            seen.add("to a savepoint " + s.executeUpdate(
                    "DELETE emp, dept FROM emp JOIN dept ON dept.id = emp.dept WHERE dept.name = 'b'"));
            c.rollback(sp);
            seen.add("using " + s.executeUpdate(
                    "DELETE FROM emp USING emp LEFT JOIN dept ON dept.id = emp.dept WHERE dept.id IS NULL"));
            seen.add("star " + s.executeUpdate("DELETE emp.* FROM emp JOIN dept ON dept.id = emp.dept WHERE dept.name = 'a'"));
            seen.add("nothing " + s.executeUpdate("DELETE emp FROM emp JOIN dept ON dept.id = emp.dept WHERE dept.name = 'z'"));
        }
        c.commit();
        c.setAutoCommit(true);
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE dept d JOIN emp e ON e.dept = d.id AND e.salary > ? SET d.name = CONCAT(d.name, ?)")) {
            ps.setInt(1, 0);
            ps.setString(2, "!");
            seen.add("parameters in the join " + ps.executeUpdate());
        }
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE dept d JOIN emp e ON e.dept = d.id SET d.total = d.total + ? WHERE e.id = ?")) {
            for (int[] entry : new int[][] {{10, 3}, {20, 4}}) {
                ps.setInt(1, entry[0]);
                ps.setInt(2, entry[1]);
                ps.addBatch();
            }
            seen.add("batch " + java.util.Arrays.toString(ps.executeBatch()));
        }
        return seen;
    }

    /**
     * Found rows (the connectors' default) or affected rows, MariaDB Connector/J or MySQL
     * Connector/J (the MySQL path): the counts are the raw driver's either way.
     */
    @ParameterizedTest(name = "{0}, useAffectedRows={1}")
    @CsvSource({"MARIADB, false", "MARIADB, true", "MYSQL_DRIVER_ON_MARIADB, false", "MYSQL_DRIVER_ON_MARIADB, true"})
    void exactLcrsAndSameResultsAsTheRawDriver(Vendor vendor, boolean affectedRows) throws Exception {
        LockingLog.RawAndRepl<List<String>> run = LockingLog.rawAndRepl(databases, vendor, "mt",
                Map.of("useAffectedRows", String.valueOf(affectedRows), "repl.exclude", "note"),
                MultiTableCaptureIT::script, DDL);
        assertThat(run.repl()).isEqualTo(run.raw());
        assertThat(run.raw()).contains(affectedRows ? "found, not changed 0" : "found, not changed 2",
                "two tables 3", "with a table not replicated 4", "to a savepoint 3", "star 2", "batch [1, 1]");
        try (Connection a = run.rawDb().openRaw(); Connection b = run.replDb().openRaw()) {
            for (String table : List.of("emp", "dept", "note")) {
                String all = "SELECT * FROM " + table + " ORDER BY id";
                assertThat(rows(b, all)).as(table).isEqualTo(rows(a, all));
            }
            assertThat(texts(b, vendor)).containsExactly(
                    "UPDATE emp old={\"id\":1,\"salary\":10.00} new={\"salary\":15.00} cv=[\"salary\"]",
                    "UPDATE emp old={\"id\":2,\"salary\":20.00} new={\"salary\":25.00} cv=[\"salary\"]",
                    "UPDATE emp old={\"id\":3,\"salary\":30.00} new={\"salary\":1.00} cv=[\"salary\"]",
                    "UPDATE emp old={\"id\":4,\"salary\":40.00} new={\"salary\":1.00} cv=[\"salary\"]",
                    "UPDATE dept old={\"id\":2,\"total\":0} new={\"total\":1} cv=[\"total\"]",
                    // found, not changed: as a single-table UPDATE of a row to its own values, an LCR each
                    "UPDATE emp old={\"id\":1,\"salary\":15.00} new={\"salary\":15.00} cv=[\"salary\"]",
                    "UPDATE emp old={\"id\":2,\"salary\":25.00} new={\"salary\":25.00} cv=[\"salary\"]",
                    "UPDATE emp old={\"id\":4,\"dept\":2} new={\"dept\":2} cv=[\"dept\"]",
                    "UPDATE emp old={\"id\":5,\"dept\":9} new={\"dept\":0} cv=[\"dept\"]",
                    "UPDATE emp old={\"id\":1,\"salary\":15.00} new={\"salary\":25.00} cv=[\"salary\"]",
                    "UPDATE emp old={\"id\":1,\"salary\":25.00} new={\"salary\":7.00} cv=[\"salary\"]",
                    "UPDATE emp old={\"id\":2,\"salary\":25.00} new={\"salary\":7.00} cv=[\"salary\"]",
                    "DELETE emp old={\"id\":5,\"dept\":0,\"salary\":50.00} new=null cv=null",
                    "DELETE emp old={\"id\":1,\"dept\":1,\"salary\":7.00} new=null cv=null",
                    "DELETE emp old={\"id\":2,\"dept\":1,\"salary\":7.00} new=null cv=null",
                    "UPDATE dept old={\"id\":2,\"name\":\"b\"} new={\"name\":\"b!\"} cv=[\"name\"]",
                    "UPDATE dept old={\"id\":2,\"total\":1} new={\"total\":11} cv=[\"total\"]",
                    "UPDATE dept old={\"id\":2,\"total\":11} new={\"total\":31} cv=[\"total\"]");
        }
    }

    /** {@code repl.timestamp.<table>} (SPEC 5.6): each changed row's timestamp moves on, and is in its LCR. */
    @Test
    void theResolutionTimestampOfEachChangedRowMovesOn() throws Exception {
        TestDatabase db = databases.create(Vendor.MARIADB, "mt_ts");
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement()) {
            for (String d : DDL) s.execute(d);
            s.execute("ALTER TABLE emp ADD COLUMN ts DATETIME(6) NULL");
            s.execute("UPDATE emp SET ts = '2000-01-01 00:00:00'");
        }
        try (Connection c = db.openRepl(Map.of("repl.node", "n1", "repl.timestamp.emp", "ts"));
                Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("UPDATE emp e JOIN dept d ON d.id = e.dept SET e.salary = 0, d.total = 5"
                    + " WHERE d.name = 'a'")).isEqualTo(3);
        }
        try (Connection raw = db.openRaw()) {
            assertThat(rows(raw, "SELECT id FROM emp WHERE ts > '2020-01-01' ORDER BY id")).containsExactly("1", "2");
            assertThat(texts(raw, Vendor.MARIADB)).hasSize(3).allSatisfy(lcr -> {
                if (lcr.contains(" emp ")) assertThat(lcr).contains("\"ts\":\"20").endsWith("cv=[\"salary\",\"ts\"]");
                else assertThat(lcr).isEqualTo("UPDATE dept old={\"id\":1,\"total\":0} new={\"total\":5} cv=[\"total\"]");
            });
        }
    }

    /** What cannot be captured exactly is refused before it runs, saying how to write it; passthrough runs it. */
    @Test
    void shapesThatCannotBeExactAreRefusedWithARewrite() throws Exception {
        TestDatabase db = databases.create(Vendor.MARIADB, "mt_refused");
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement()) {
            for (String d : DDL) s.execute(d);
        }
        try (Connection c = db.openRepl(Map.of("repl.node", "n1", "repl.exclude", "note")); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeUpdate("UPDATE dept LEFT JOIN emp ON emp.dept = dept.id SET emp.salary = 0"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("outer side of a LEFT or RIGHT JOIN")
                    .hasMessageContaining("inner JOIN").satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0AR01"));
            assertThatThrownBy(() -> s.executeUpdate("UPDATE emp JOIN dept ON dept.id = emp.dept SET salary = 0"))
                    .hasMessageContaining("SET a.x");
            assertThatThrownBy(() -> s.executeUpdate("UPDATE emp JOIN dept ON dept.id = emp.dept SET emp.id = emp.id + 10"))
                    .hasMessageContaining("single-table UPDATE");
            // only tables that are not replicated changed: not captured, runs as written
            assertThat(s.executeUpdate("UPDATE emp JOIN note ON note.id = emp.id SET note.txt = 'y'")).isEqualTo(2);
        }
        try (Connection raw = db.openRaw()) {
            assertThat(rows(raw, "SELECT salary FROM emp ORDER BY id")).containsExactly("10.00", "20.00", "30.00", "40.00", "50.00");
            assertThat(LockingLog.count(raw, "SELECT COUNT(*) FROM repl_log")).isZero();
        }
        try (Connection c = db.openRepl(Map.of("repl.node", "n1", "repl.unsupported", "passthrough"));
                Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("UPDATE dept LEFT JOIN emp ON emp.dept = dept.id SET emp.salary = 0")).isEqualTo(4);
        }
    }
}
