package io.jdbcrepl.it.capture.locking;

import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static io.jdbcrepl.it.capture.locking.LockingLog.count;
import static io.jdbcrepl.it.capture.locking.LockingLog.rows;
import static io.jdbcrepl.it.capture.locking.LockingLog.texts;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * MariaDB {@code INSERT … ON DUPLICATE KEY UPDATE} (and {@code UPDATE IGNORE}) through both connectors: per row an INSERT LCR,
 * an UPDATE LCR with old and new values, or nothing when the update leaves the row as it was; the
 * same update counts, generated keys and table contents as the raw driver, with found rows (the
 * connectors' default) and with {@code useAffectedRows=true}.
 */
class UpsertCaptureIT {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    static final String DDL = "CREATE TABLE acct (id INT AUTO_INCREMENT PRIMARY KEY, code VARCHAR(10) NOT NULL UNIQUE,"
            + " qty INT, price DECIMAL(8,2), seen DATETIME(6), tag VARBINARY(4), note VARCHAR(20)) ENGINE=InnoDB";

    /** The statements, through the raw driver or jdbc:repl:; returns what the application saw. */
    static List<String> script(Connection c, Vendor vendor) throws SQLException {
        List<String> seen = new ArrayList<>() {
            @Override
            public boolean add(String step) {
                // MySQL Connector/J makes up a key per counted row (1 or 2 per row here): not served yet
                return step.startsWith("keys ") && vendor != Vendor.MARIADB ? false : super.add(step);
            }
        };
        try (Statement s = c.createStatement()) {
            seen.add("seed " + s.executeUpdate("INSERT INTO acct (code, qty, price, seen, tag, note) VALUES"
                    + " ('a', 1, 1.50, '2020-01-02 03:04:05.123456', X'00FF', 'é'), ('b', 2, 2.00, NULL, NULL, NULL)"));
            seen.add("insert path " + s.executeUpdate("INSERT INTO acct (code, qty) VALUES ('c', 3)"
                    + " ON DUPLICATE KEY UPDATE qty = qty + VALUES(qty)", Statement.RETURN_GENERATED_KEYS));
            seen.add("keys " + LockingLog.keys(s.getGeneratedKeys()));
            seen.add("update path by a unique column " + s.executeUpdate("INSERT INTO acct (code, qty) VALUES ('a', 10)"
                    + " ON DUPLICATE KEY UPDATE qty = qty + VALUES(qty), seen = '2021-06-07 08:09:10.000001',"
                    + " tag = X'0102', note = 'ü', price = price * 2", Statement.RETURN_GENERATED_KEYS));
            seen.add("keys " + LockingLog.keys(s.getGeneratedKeys()));
            seen.add("unchanged " + s.executeUpdate("INSERT INTO acct (code, qty) VALUES ('b', 2)"
                    + " ON DUPLICATE KEY UPDATE qty = VALUES(qty)", Statement.RETURN_GENERATED_KEYS));
            seen.add("keys " + LockingLog.keys(s.getGeneratedKeys()));
            seen.add("key update " + s.executeUpdate("INSERT INTO acct (id, code) VALUES (1, 'zz')"
                    + " ON DUPLICATE KEY UPDATE id = id + 100", Statement.RETURN_GENERATED_KEYS));
            seen.add("keys " + LockingLog.keys(s.getGeneratedKeys()));
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO acct (code, qty, price) VALUES (?, ?, ?), (?, ?, ?),"
                + " (?, ?, ?) ON DUPLICATE KEY UPDATE qty = VALUES(qty), price = price + ?", Statement.RETURN_GENERATED_KEYS)) {
            Object[] values = {"b", 5, new BigDecimal("0.25"), "d", 4, new BigDecimal("4.00"), "d", 6, null, new BigDecimal("1.00")};
            for (int i = 0; i < values.length; i++) ps.setObject(i + 1, values[i]);
            seen.add("three rows: update, insert, update of the row just inserted " + ps.executeUpdate());
            seen.add("keys " + LockingLog.keys(ps.getGeneratedKeys()));
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO acct (code, qty) VALUES (?, ?)"
                + " ON DUPLICATE KEY UPDATE qty = qty + ?")) {
            for (Object[] row : List.of(new Object[] {"c", 1, 1}, new Object[] {"e", 9, 9}, new Object[] {"c", 0, 0})) {
                for (int i = 0; i < row.length; i++) ps.setObject(i + 1, row[i]);
                ps.addBatch();
            }
            seen.add("batch " + Arrays.toString(ps.executeBatch()));
        }
        try (Statement s = c.createStatement()) {
            seen.add("insert select " + s.executeUpdate("INSERT INTO acct (code, qty) SELECT code, 100 FROM acct AS src"
                    + " WHERE code IN ('a', 'f') UNION ALL SELECT 'f', 1 ON DUPLICATE KEY UPDATE qty = VALUES(qty)"));
            seen.add("ignore " + s.executeUpdate("INSERT IGNORE INTO acct (code, qty) VALUES ('g', 1), ('a', 1)"
                    + " ON DUPLICATE KEY UPDATE note = 'ig'"));
        }
        return seen;
    }

    @ParameterizedTest
    @EnumSource(value = Vendor.class, names = {"MARIADB", "MYSQL_DRIVER_ON_MARIADB"})
    void exactLcrsAndSameResultsAsTheRawDriver(Vendor vendor) throws Exception {
        LockingLog.RawAndRepl<List<String>> run = LockingLog.rawAndRepl(databases, vendor, "up", Map.of(),
                c -> script(c, vendor), DDL);
        assertThat(run.repl()).isEqualTo(run.raw());
        String all = "SELECT * FROM acct ORDER BY id";
        try (Connection a = run.rawDb().openRaw(); Connection b = run.replDb().openRaw()) {
            assertThat(rows(b, all)).isEqualTo(rows(a, all));
            assertThat(texts(b, vendor)).containsExactly(EXPECTED.toArray(String[]::new));
            // one transaction per statement and batch entry that changed rows (auto-commit); the two that changed none logged none
            assertThat(count(b, "SELECT COUNT(DISTINCT tx_id) FROM repl_log")).isEqualTo(9);
        }
    }

    static final String CV_INS = "[\"code\",\"qty\"]";
    static final List<String> EXPECTED = List.of(
            "INSERT acct old=null new={\"id\":1,\"code\":\"a\",\"qty\":1,\"price\":1.50,\"seen\":\"2020-01-02T03:04:05.123456\",\"tag\":\"AP8=\",\"note\":\"é\"} cv=[\"code\",\"qty\",\"price\",\"seen\",\"tag\",\"note\"]",
            "INSERT acct old=null new={\"id\":2,\"code\":\"b\",\"qty\":2,\"price\":2.00,\"seen\":null,\"tag\":null,\"note\":null} cv=[\"code\",\"qty\",\"price\",\"seen\",\"tag\",\"note\"]",
            "INSERT acct old=null new={\"id\":3,\"code\":\"c\",\"qty\":3,\"price\":null,\"seen\":null,\"tag\":null,\"note\":null} cv=" + CV_INS,
            "UPDATE acct old={\"id\":1,\"qty\":1,\"price\":1.50,\"seen\":\"2020-01-02T03:04:05.123456\",\"tag\":\"AP8=\",\"note\":\"é\"}"
                    + " new={\"qty\":11,\"price\":3.00,\"seen\":\"2021-06-07T08:09:10.000001\",\"tag\":\"AQI=\",\"note\":\"ü\"}"
                    + " cv=[\"qty\",\"price\",\"seen\",\"tag\",\"note\"]",
            "UPDATE acct old={\"id\":1} new={\"id\":101} cv=[\"id\"]",
            "UPDATE acct old={\"id\":2,\"qty\":2,\"price\":2.00} new={\"qty\":5,\"price\":3.00} cv=[\"qty\",\"price\"]",
            "INSERT acct old=null new={\"id\":102,\"code\":\"d\",\"qty\":4,\"price\":4.00,\"seen\":null,\"tag\":null,\"note\":null} cv=[\"code\",\"qty\",\"price\"]",
            "UPDATE acct old={\"id\":102,\"qty\":4,\"price\":4.00} new={\"qty\":6,\"price\":5.00} cv=[\"qty\",\"price\"]",
            "UPDATE acct old={\"id\":3,\"qty\":3} new={\"qty\":4} cv=[\"qty\"]",
            "INSERT acct old=null new={\"id\":106,\"code\":\"e\",\"qty\":9,\"price\":null,\"seen\":null,\"tag\":null,\"note\":null} cv=" + CV_INS,
            "UPDATE acct old={\"id\":101,\"qty\":11} new={\"qty\":100} cv=[\"qty\"]",
            "INSERT acct old=null new={\"id\":108,\"code\":\"f\",\"qty\":1,\"price\":null,\"seen\":null,\"tag\":null,\"note\":null} cv=" + CV_INS,
            "INSERT acct old=null new={\"id\":109,\"code\":\"g\",\"qty\":1,\"price\":null,\"seen\":null,\"tag\":null,\"note\":null} cv=" + CV_INS,
            "UPDATE acct old={\"id\":101,\"note\":\"ü\"} new={\"note\":\"ig\"} cv=[\"note\"]");

    /** With useAffectedRows=true an update that changes nothing counts 0, as the raw connector reports it. */
    @ParameterizedTest
    @EnumSource(value = Vendor.class, names = {"MARIADB", "MYSQL_DRIVER_ON_MARIADB"})
    void affectedRowsCountsAsTheRawDriver(Vendor vendor) throws Exception {
        LockingLog.RawAndRepl<List<String>> run = LockingLog.rawAndRepl(databases, vendor, "up_aff",
                Map.of("useAffectedRows", "true"), c -> script(c, vendor), DDL);
        assertThat(run.raw()).contains("unchanged 0");
        assertThat(run.repl()).isEqualTo(run.raw());
        try (Connection b = run.replDb().openRaw()) {
            assertThat(texts(b, vendor)).containsExactly(EXPECTED.toArray(String[]::new));
        }
    }

    /**
     * {@code UPDATE IGNORE} skips the rows whose change would break a unique key: they keep their
     * values and have no LCR; the others are captured as by UPDATE. Counts as the raw connector's.
     */
    @ParameterizedTest
    @EnumSource(value = Vendor.class, names = {"MARIADB", "MYSQL_DRIVER_ON_MARIADB"})
    void updateIgnoreLogsTheRowsItChanged(Vendor vendor) throws Exception {
        LockingLog.RawAndRepl<List<String>> run = LockingLog.rawAndRepl(databases, vendor, "ui", Map.of(), c -> {
            try (Statement s = c.createStatement()) {
                List<String> mine = new ArrayList<>();
                mine.add("all rows " + s.executeUpdate("UPDATE IGNORE u SET v = v + 1, w = w + 1"));
                mine.add("one row, skipped " + s.executeUpdate("UPDATE IGNORE u SET v = 2 WHERE id = 4"));
                mine.add("one row, changed " + s.executeUpdate("UPDATE IGNORE u SET v = 9 WHERE id = 4"));
                c.setAutoCommit(false);
                try (PreparedStatement ps = c.prepareStatement("UPDATE IGNORE u SET v = ? WHERE w >= ? ORDER BY id DESC")) {
                    ps.setInt(1, 7);
                    ps.setInt(2, 0);
                    mine.add("ordered, in a transaction " + ps.executeUpdate());
                }
                c.commit();
                return mine;
            }
        }, "CREATE TABLE u (id INT PRIMARY KEY, v INT NOT NULL UNIQUE, w INT) ENGINE=InnoDB",
                "INSERT INTO u VALUES (1, 1, 0), (2, 2, 0), (3, 3, 0), (4, 5, 0)");
        assertThat(run.repl()).isEqualTo(run.raw());
        String all = "SELECT * FROM u ORDER BY id";
        try (Connection a = run.rawDb().openRaw(); Connection b = run.replDb().openRaw()) {
            assertThat(rows(b, all)).isEqualTo(rows(a, all));
            assertThat(texts(b, vendor)).containsExactly(
                    "UPDATE u old={\"id\":3,\"v\":3,\"w\":0} new={\"v\":4,\"w\":1} cv=[\"v\",\"w\"]",
                    "UPDATE u old={\"id\":4,\"v\":5,\"w\":0} new={\"v\":6,\"w\":1} cv=[\"v\",\"w\"]",
                    "UPDATE u old={\"id\":4,\"v\":6} new={\"v\":9} cv=[\"v\"]",
                    "UPDATE u old={\"id\":4,\"v\":9} new={\"v\":7} cv=[\"v\"]");
        }
    }

    /** SPEC 5.6 through an upsert: an inserted row gets now, an updated one the next timestamp, whatever the statement says. */
    @ParameterizedTest
    @EnumSource(value = Vendor.class, names = {"MARIADB"})
    void timestampColumnIsMaintained(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "up_ts");
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement()) {
            s.execute("CREATE TABLE acct (id INT PRIMARY KEY, v INT, ts DATETIME(6))");
            // a peer's clock ran ahead: its value came in through the apply side, uncaptured
            s.execute("INSERT INTO acct (id, v, ts) VALUES (2, 1, '2999-01-01 00:00:00')");
        }
        try (Connection c = db.openRepl(Map.of("repl.node", "n1", "repl.timestamp.acct", "ts"))) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO acct (id, v) VALUES (?, ?), (?, ?)"
                    + " ON DUPLICATE KEY UPDATE v = v + ?")) {
                for (int i = 1; i <= 5; i++) ps.setInt(i, i == 3 ? 2 : i == 1 ? 1 : 10);
                assertThat(ps.executeUpdate()).as("one row inserted, one updated").isEqualTo(3);
            }
            assertThat(c.createStatement().executeUpdate("INSERT INTO acct (id, v, ts) VALUES (1, 5, '2999-06-06 00:00:00')"
                    + " ON DUPLICATE KEY UPDATE ts = VALUES(ts)")).isEqualTo(2);
        }
        try (Connection raw = db.openRaw()) {
            List<String> r = rows(raw, "SELECT id, v, ts FROM acct ORDER BY id");
            assertThat(r.get(0)).startsWith("1,10,").doesNotContain("2999");
            assertThat(r.get(1)).startsWith("2,11,2999-01-01 00:00:00.000001");
            List<String> lcrs = texts(raw, vendor);
            assertThat(lcrs).hasSize(3);
            assertThat(lcrs.get(0)).startsWith("INSERT acct old=null new={\"id\":1,\"v\":10,\"ts\":\"20")
                    .endsWith("cv=[\"id\",\"v\",\"ts\"]");
            assertThat(lcrs.get(1)).isEqualTo("UPDATE acct old={\"id\":2,\"v\":1,\"ts\":\"2999-01-01T00:00\"}"
                    + " new={\"v\":11,\"ts\":\"2999-01-01T00:00:00.000001\"} cv=[\"v\",\"ts\"]");
            assertThat(lcrs.get(2)).startsWith("UPDATE acct old={\"id\":1,\"ts\":\"20").endsWith("cv=[\"ts\"]")
                    .doesNotContain("2999");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Vendor.class, names = {"MARIADB"})
    void rollbackAndFailuresLeaveNoLcr(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "up_rb");
        try (Connection raw = db.openRaw()) {
            raw.createStatement().execute(DDL);
        }
        try (Connection c = LockingLog.repl(db); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO acct (code, qty) VALUES ('a', 1)");
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO acct (code, qty) VALUES ('a', 5), ('b', 1) ON DUPLICATE KEY UPDATE qty = VALUES(qty)");
            c.rollback();
            Savepoint sp = c.setSavepoint();
            s.executeUpdate("INSERT INTO acct (code, qty) VALUES ('a', 6) ON DUPLICATE KEY UPDATE qty = VALUES(qty)");
            c.rollback(sp);
            // the update path fails (NOT NULL): the statement changes nothing and logs nothing, the transaction goes on
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.executeUpdate("INSERT INTO acct (code, qty)"
                    + " VALUES ('c', 1), ('a', 7) ON DUPLICATE KEY UPDATE code = NULL")).isInstanceOf(SQLException.class);
            s.executeUpdate("INSERT INTO acct (code, qty) VALUES ('a', 8) ON DUPLICATE KEY UPDATE qty = VALUES(qty)");
            c.commit();
            c.setAutoCommit(true);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.executeUpdate("INSERT INTO acct (code, qty)"
                    + " VALUES ('d', 1), ('a', 9) ON DUPLICATE KEY UPDATE code = NULL")).isInstanceOf(SQLException.class);
        }
        try (Connection raw = db.openRaw()) {
            assertThat(texts(raw, vendor)).containsExactly(
                    "INSERT acct old=null new={\"id\":1,\"code\":\"a\",\"qty\":1,\"price\":null,\"seen\":null,\"tag\":null,\"note\":null} cv=" + CV_INS,
                    "UPDATE acct old={\"id\":1,\"qty\":1} new={\"qty\":8} cv=[\"qty\"]");
            assertThat(rows(raw, "SELECT code, qty FROM acct ORDER BY id")).containsExactly("a,8");
            assertThat(count(raw, "SELECT COUNT(*) FROM repl_tx")).isEqualTo(2);
        }
        // the copy of the old values cannot tell the target's columns from a SELECT's own of the same table
        try (Connection c = LockingLog.repl(db); Statement s = c.createStatement()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.executeUpdate("INSERT INTO acct (code, qty)"
                    + " SELECT CONCAT(code, 'x'), qty FROM acct ON DUPLICATE KEY UPDATE qty = VALUES(qty)"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("alias")
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("0AR01");
        }
        try (Connection raw = db.openRaw()) {
            assertThat(rows(raw, "SELECT code, qty FROM acct ORDER BY id")).containsExactly("a,8");
        }
    }
}
