package io.jdbcrepl.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.it.support.LogCapture;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The applier sees when an application session waits for a row lock it holds (issue 17: it then
 * commits smaller groups), as a user with only table privileges on PostgreSQL and with PROCESS on
 * MariaDB; without PROCESS it sees nothing, says so once at INFO and applies on.
 */
class LockWaitsIT {

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    private static final String PASSWORD = "Pw_locks_1";

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "MYSQL_DRIVER_ON_MARIADB"})
    void aSessionWaitingForTheAppliersRowIsSeenAndNoneOtherwise(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "lock_waits");
        String user = "locks_" + HexFormat.of().formatHex(new SecureRandom().generateSeed(4));
        setUp(db, user, vendor == Vendor.POSTGRESQL ? "" : "GRANT PROCESS ON *.* TO '" + user + "'@'%'");
        try (Connection applier = DriverManager.getConnection(db.rawUrl(), credentials(user));
                Connection app = DriverManager.getConnection(db.rawUrl(), credentials(user))) {
            applier.setAutoCommit(false);
            LockWaits waits = LockWaits.probe(applier, dialect(vendor), "the test's applier");
            assertWaitSeen(applier, app, waits, true);
        } finally {
            dropUser(db, user);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"MARIADB"})
    void withoutProcessNothingIsSeenAndItIsSaidOnce(Vendor vendor) throws Exception {
        TestDatabase db = databases.create(vendor, "lock_waits_np");
        String user = "locks_" + HexFormat.of().formatHex(new SecureRandom().generateSeed(4));
        setUp(db, user, "");
        try (LogCapture log = LogCapture.start();
                Connection applier = DriverManager.getConnection(db.rawUrl(), credentials(user));
                Connection app = DriverManager.getConnection(db.rawUrl(), credentials(user))) {
            applier.setAutoCommit(false);
            LockWaits waits = LockWaits.probe(applier, dialect(vendor), "the test's applier");
            assertThat(log.text()).contains("the test's applier cannot see which sessions wait for its row locks")
                    .contains("PROCESS");
            assertWaitSeen(applier, app, waits, false);
        } finally {
            dropUser(db, user);
        }
    }

    /** The applier holds row 1; the application's UPDATE of it waits until the applier commits. */
    private static void assertWaitSeen(Connection applier, Connection app, LockWaits waits, boolean seen) throws Exception {
        try (Statement s = applier.createStatement()) {
            s.executeUpdate("UPDATE t SET v = v + 1 WHERE id = 1");
        }
        Thread.sleep(300);
        assertThat(waits.othersWait(applier)).as("nobody waits yet").isFalse();
        CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(() -> {
            try (Statement s = app.createStatement()) {
                return s.executeUpdate("UPDATE t SET v = v + 10 WHERE id = 1");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        boolean saw = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seen ? 10 : 2);
        while (!saw && System.nanoTime() < deadline) {
            saw = waits.othersWait(applier);
            if (!saw) Thread.sleep(20);
        }
        assertThat(waiting).as("the application's UPDATE waits for the applier's lock").isNotDone();
        assertThat(saw).isEqualTo(seen);
        applier.commit();
        assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        try (Statement s = applier.createStatement()) {
            s.executeUpdate("UPDATE t SET v = v + 1 WHERE id = 2");
        }
        Thread.sleep(300); // MariaDB is asked at most every 250 ms (its lock tables are a cache)
        assertThat(waits.othersWait(applier)).as("nobody waits any more").isFalse();
        applier.rollback();
    }

    private static void setUp(TestDatabase db, String user, String extraGrant) throws SQLException {
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            s.execute("INSERT INTO t VALUES (1, 0), (2, 0)");
            if (db.vendor() == Vendor.POSTGRESQL) {
                s.execute("CREATE ROLE \"" + user + "\" LOGIN PASSWORD '" + PASSWORD + "'");
                s.execute("GRANT SELECT, UPDATE ON t TO \"" + user + "\"");
            } else {
                s.execute("CREATE USER '" + user + "'@'%' IDENTIFIED BY '" + PASSWORD + "'");
                s.execute("GRANT SELECT, UPDATE ON `" + db.name() + "`.t TO '" + user + "'@'%'");
                if (!extraGrant.isEmpty()) s.execute(extraGrant);
            }
        }
    }

    private static void dropUser(TestDatabase db, String user) throws SQLException {
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            if (db.vendor() == Vendor.POSTGRESQL) {
                s.execute("DROP OWNED BY \"" + user + "\"");
                s.execute("DROP ROLE \"" + user + "\"");
            } else {
                s.execute("DROP USER '" + user + "'@'%'");
            }
        }
    }

    private static Dialect dialect(Vendor vendor) {
        return vendor == Vendor.POSTGRESQL ? Dialect.named("postgresql") : Dialect.named("mariadb");
    }

    private static Properties credentials(String user) {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", PASSWORD);
        return p;
    }
}
