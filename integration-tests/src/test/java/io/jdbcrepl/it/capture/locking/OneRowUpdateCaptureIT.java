package io.jdbcrepl.it.capture.locking;

import io.jdbcrepl.it.support.DriverTables;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static io.jdbcrepl.it.capture.locking.LockingLog.count;
import static io.jdbcrepl.it.capture.locking.LockingLog.rows;
import static io.jdbcrepl.it.capture.locking.LockingLog.texts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * MariaDB, both connectors: an UPDATE by the whole primary key runs as one compound statement (and
 * in auto-commit mode with its commit as one more); the same results, rows and exact LCRs as the
 * general path and the raw driver, and nothing left by a failure or a rollback.
 */
class OneRowUpdateCaptureIT {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    private static final String DDL = "CREATE TABLE acct (id INT PRIMARY KEY, bal INT NOT NULL, note VARCHAR(10)) ENGINE=InnoDB";
    private static final String PAIR = "CREATE TABLE pair (a INT, b INT, v VARCHAR(10), PRIMARY KEY (a, b)) ENGINE=InnoDB";

    private static List<String> script(Connection c) throws SQLException {
        List<String> seen = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("UPDATE acct SET bal = bal + ? WHERE id = ?")) {
            for (int[] args : new int[][] {{5, 1}, {0, 2}, {7, 99}}) { // changed, unchanged, no such row
                ps.setInt(1, args[0]);
                ps.setInt(2, args[1]);
                seen.add("update " + args[1] + ": " + ps.executeUpdate());
            }
        }
        try (Statement s = c.createStatement()) {
            seen.add("literal key: " + s.executeUpdate("UPDATE acct SET note = 'lit' WHERE id = 3"));
        }
        c.setAutoCommit(false);
        try (PreparedStatement ps = c.prepareStatement("UPDATE acct SET note = ?, bal = bal * 2 WHERE `acct`.`id` = ?")) {
            ps.setString(1, "tx");
            ps.setInt(2, 3);
            seen.add("in transaction, rolled back: " + ps.executeUpdate());
            ps.setString(1, "rolled");
            ps.setInt(2, 1);
            seen.add("rolled back: " + ps.executeUpdate());
            c.rollback();
            ps.setString(1, "tx2");
            ps.setInt(2, 2);
            seen.add("committed: " + ps.executeUpdate());
            // a database error in the UPDATE: the statement fails, nothing changed, the transaction goes on
            ps.setString(1, "much too long for ten");
            ps.setInt(2, 2);
            assertThatThrownBy(ps::executeUpdate).isInstanceOf(SQLException.class);
            c.commit();
        } finally {
            c.setAutoCommit(true);
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE pair SET v = ? WHERE b = ? AND a = ?")) {
            ps.setString(1, "p");
            ps.setInt(2, 2);
            ps.setInt(3, 1);
            seen.add("composite: " + ps.executeUpdate());
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE acct SET note = ? WHERE id = ?")) {
            ps.setString(1, "too long for ten characters");
            ps.setInt(2, 1);
            assertThatThrownBy(ps::executeUpdate).isInstanceOf(SQLException.class);
        }
        try (Statement s = c.createStatement()) { // RETURNING through both connectors
            seen.add("insert: " + s.executeUpdate("INSERT INTO acct VALUES (4, 40, 'd')"));
            seen.add("delete: " + s.executeUpdate("DELETE FROM acct WHERE id = 4"));
        }
        assertThat(c.getAutoCommit()).isTrue();
        return seen;
    }

    private static void fill(Connection raw) throws SQLException {
        try (Statement s = raw.createStatement()) {
            s.execute(DDL);
            s.execute(PAIR);
            s.execute("INSERT INTO acct VALUES (1, 10, 'a'), (2, 20, 'b'), (3, 30, 'c')");
            s.execute("INSERT INTO pair VALUES (1, 2, 'x'), (2, 1, 'y')");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Vendor.class, names = {"MARIADB", "MYSQL_DRIVER_ON_MARIADB"})
    void sameResultsAndExactLcrs(Vendor vendor) throws Exception {
        sameResultsAndExactLcrs(vendor, new Properties());
    }

    /** The compound statement is prepared on the client even when the application asks for server-side ones. */
    @ParameterizedTest
    @EnumSource(value = Vendor.class, names = {"MARIADB", "MYSQL_DRIVER_ON_MARIADB"})
    void sameWithServerSidePreparedStatements(Vendor vendor) throws Exception {
        Properties server = new Properties();
        server.setProperty("useServerPrepStmts", "true");
        sameResultsAndExactLcrs(vendor, server);
    }

    private void sameResultsAndExactLcrs(Vendor vendor, Properties extra) throws Exception {
        TestDatabase rawDb = databases.create(vendor, "lk1_raw");
        TestDatabase replDb = databases.create(vendor, "lk1_repl");
        List<String> rawSeen;
        try (Connection raw = java.sql.DriverManager.getConnection(rawDb.rawUrl(), withCredentials(rawDb, extra))) {
            fill(raw);
            rawSeen = script(raw);
        }
        try (Connection raw = replDb.openRaw()) {
            fill(raw);
        }
        List<String> replSeen;
        Properties repl = new Properties();
        repl.putAll(extra);
        repl.setProperty("repl.node", "n1");
        try (Connection c = replDb.openRepl(repl)) {
            replSeen = script(c);
        }
        assertThat(replSeen).isEqualTo(rawSeen).contains("update 99: 0");
        try (Connection a = rawDb.openRaw(); Connection b = replDb.openRaw()) {
            for (String q : List.of("SELECT * FROM acct ORDER BY id", "SELECT * FROM pair ORDER BY a, b")) {
                assertThat(rows(b, q)).isEqualTo(rows(a, q));
            }
            assertThat(texts(b, Vendor.MARIADB)).containsExactly(
                    "UPDATE acct old={\"id\":1,\"bal\":10} new={\"bal\":15} cv=[\"bal\"]",
                    "UPDATE acct old={\"id\":2,\"bal\":20} new={\"bal\":20} cv=[\"bal\"]",
                    "UPDATE acct old={\"id\":3,\"note\":\"c\"} new={\"note\":\"lit\"} cv=[\"note\"]",
                    "UPDATE acct old={\"id\":2,\"bal\":20,\"note\":\"b\"} new={\"bal\":40,\"note\":\"tx2\"} cv=[\"bal\",\"note\"]",
                    "UPDATE pair old={\"a\":1,\"b\":2,\"v\":\"x\"} new={\"v\":\"p\"} cv=[\"v\"]",
                    "INSERT acct old=null new={\"id\":4,\"bal\":40,\"note\":\"d\"} cv=[\"id\",\"bal\",\"note\"]",
                    "DELETE acct old={\"id\":4,\"bal\":40,\"note\":\"d\"} new=null cv=null");
            // each auto-commit statement and the explicit transaction: one stamp each, LCRs or not
            assertThat(count(b, "SELECT COUNT(DISTINCT tx_id) FROM repl_log")).isEqualTo(7);
            assertThat(count(b, "SELECT COUNT(*) FROM repl_log l LEFT JOIN repl_tx t ON t.tx_id = l.tx_id"
                    + " WHERE t.tx_id IS NULL")).as("every LCR's transaction is stamped").isZero();
            assertThat(count(b, "SELECT COUNT(*) FROM repl_tx t WHERE t.last_position <>"
                    + " (SELECT COALESCE(MAX(position), 0) FROM repl_log l WHERE l.tx_id = t.tx_id)")).isZero();
        }
    }

    /** A failing stamp (repl_epoch emptied): the statement, or the commit, fails and leaves nothing. */
    @ParameterizedTest
    @EnumSource(value = Vendor.class, names = {"MARIADB", "MYSQL_DRIVER_ON_MARIADB"})
    void aFailingStampCommitsNothing(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "lk1_stamp");
        try (Connection raw = db.openRaw()) {
            fill(raw);
        }
        try (Connection repl = LockingLog.repl(db); Statement s = repl.createStatement()) {
            s.executeUpdate("UPDATE acct SET bal = 11 WHERE id = 1"); // installs the change log
            try (Connection raw = db.openRaw()) {
                raw.createStatement().execute(DriverTables.qualify(raw, "DELETE FROM repl_epoch"));
            }
            for (String sql : List.of("UPDATE acct SET bal = 12 WHERE id = 1", "UPDATE acct SET bal = 12 WHERE bal > 0",
                    "INSERT INTO acct VALUES (4, 40, 'd')", "DELETE FROM acct WHERE id = 2")) {
                assertThatThrownBy(() -> s.executeUpdate(sql)).as(sql).isInstanceOf(SQLException.class)
                        .hasMessageContaining("repl_epoch has no row with id 1")
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("55000"));
            }
            repl.setAutoCommit(false);
            s.executeUpdate("UPDATE acct SET bal = 13 WHERE id = 1");
            assertThatThrownBy(repl::commit).isInstanceOf(SQLException.class).hasMessageContaining("repl_epoch");
            repl.rollback();
            repl.setAutoCommit(true);
            assertThat(repl.getAutoCommit()).isTrue();
        }
        try (Connection raw = db.openRaw()) {
            assertThat(rows(raw, "SELECT * FROM acct ORDER BY id")).containsExactly("1,11,a", "2,20,b", "3,30,c");
            assertThat(texts(raw, Vendor.MARIADB)).hasSize(1);
            assertThat(count(raw, "SELECT COUNT(*) FROM repl_tx")).isEqualTo(1);
            assertThat(count(raw, "SELECT @@in_transaction")).isZero();
        }
    }

    /**
     * A substitute key that is not unique: the compound statement changes nothing and the general
     * steps take over, which refuse such a key today (the read-back by key cannot tell the rows
     * apart): an error, and nothing changed or logged, never two rows changed without their LCRs.
     */
    @ParameterizedTest
    @EnumSource(value = Vendor.class, names = {"MARIADB", "MYSQL_DRIVER_ON_MARIADB"})
    void aSubstituteKeyMatchingSeveralRowsChangesNothingUnlogged(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "lk1_subst");
        try (Connection raw = db.openRaw(); Statement s = raw.createStatement()) {
            s.execute("CREATE TABLE dup (code INT NOT NULL, v INT) ENGINE=InnoDB");
            s.execute("INSERT INTO dup VALUES (1, 10), (1, 11), (2, 20)");
        }
        try (Connection c = db.openRepl(java.util.Map.of("repl.node", "n1", "repl.key.dup", "code"))) {
            for (boolean autoCommit : new boolean[] {true, false}) {
                c.setAutoCommit(autoCommit);
                try (PreparedStatement ps = c.prepareStatement("UPDATE dup SET v = v + ? WHERE code = ?")) {
                    ps.setInt(1, 100);
                    ps.setInt(2, 1);
                    assertThatThrownBy(ps::executeUpdate).isInstanceOf(SQLException.class)
                            .hasMessageContaining("could not read back the row");
                }
                if (!autoCommit) c.rollback();
            }
            c.setAutoCommit(true);
            try (PreparedStatement ps = c.prepareStatement("UPDATE dup SET v = v + ? WHERE code = ?")) {
                ps.setInt(1, 100);
                ps.setInt(2, 2);
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
        }
        try (Connection raw = db.openRaw()) {
            assertThat(rows(raw, "SELECT code, v FROM dup ORDER BY v")).containsExactly("1,10", "1,11", "2,120");
            assertThat(texts(raw, Vendor.MARIADB)).containsExactly("UPDATE dup old={\"code\":2,\"v\":20} new={\"v\":120} cv=[\"v\"]");
        }
    }

    private static Properties withCredentials(TestDatabase db, Properties extra) {
        Properties p = db.credentials();
        p.putAll(extra);
        return p;
    }
}
