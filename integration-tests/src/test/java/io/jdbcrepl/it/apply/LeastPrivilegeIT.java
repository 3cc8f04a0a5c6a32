package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.api.NodeStatus;
import io.jdbcrepl.api.PeerStatus;
import io.jdbcrepl.admin.Repl;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.cli.Main;
import io.jdbcrepl.it.support.LogCapture;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SPEC 8.7's least privileges, for real: roles made with exactly what {@code install --grants}
 * prints (none of them a superuser), the application capturing as the application user with
 * {@code repl.apply=false}, the apply side running as the apply user, and each peer reading the
 * other's log as the reader user. Inserts, updates and deletes replicate both ways, a resolved
 * conflict lands in repl_conflict and an unresolved one in the error queue, whose retry succeeds;
 * the purge deletes what was consumed. Then a reader that may only read: one WARN, and status says
 * the purge is not permitted and for which user.
 */
class LeastPrivilegeIT extends ClusterTest {

    private static final String PASSWORD = "Pw_least_1";

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB"})
    void rolesWithTheGrantsInstallPrintsReplicateAndAReadOnlyReaderIsSaid(Vendor vendor) throws Exception {
        String token = HexFormat.of().formatHex(new SecureRandom().generateSeed(4));
        String app = "app_" + token;
        String apply = "apply_" + token;
        String reader = "reader_" + token;
        String readOnly = "ro_" + token;
        List<TestDatabase> dbs = databases.nodes(vendor, "grants", 2);
        cluster = new Cluster(dbs, Map.of("repl.handler.keep_w.table", "t", "repl.handler.keep_w.type", "IGNORE",
                "repl.handler.keep_w.columns", "w"));
        for (int i = 0; i < 2; i++) {
            cluster.with(i, Map.of("repl.peer." + Cluster.name(1 - i) + ".user", reader,
                    "repl.peer." + Cluster.name(1 - i) + ".password", PASSWORD));
        }
        List<String> created = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                TestDatabase db = dbs.get(i);
                try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
                    s.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20), w VARCHAR(20))");
                }
                assertThat(cli("install", "--url", cluster.url(i), "--user", db.user(), "--password", db.password())).isZero();
                String printed = out;
                assertThat(cli("install", "--grants", "--url", cluster.url(i), "--user", db.user(), "--password", db.password(),
                        "--app-user", app, "--apply-user", apply, "--reader-user", reader)).isZero();
                assertThat(out).contains("GRANT ").doesNotContain("The driver's tables are in");
                assertThat(printed).contains("The driver's tables are in");
                runGrants(db, out, i == 0, created);
                // the application's own privileges on its tables: its business, not the driver's
                String table = vendor == Vendor.POSTGRESQL ? "t" : "`" + db.name() + "`.t";
                admin(db, "GRANT SELECT, INSERT, UPDATE, DELETE ON " + table + " TO " + role(vendor, app));
            }
            Properties asApply = credentials(apply);
            Properties asApp = credentials(app);
            // the apply side of each node, as the apply user (what 'apply --user' does in a process of its own)
            List<Connection> appliers = new ArrayList<>();
            for (int i = 0; i < 2; i++) appliers.add(DriverManager.getConnection(cluster.url(i), asApply));
            try (Connection a1 = DriverManager.getConnection(appUrl(0), asApp);
                    Connection a2 = DriverManager.getConnection(appUrl(1), asApp);
                    Statement s1 = a1.createStatement(); Statement s2 = a2.createStatement()) {
                s1.executeUpdate("INSERT INTO t VALUES (1, 'a', 'a'), (2, 'b', 'b'), (3, 'c', 'c')");
                s2.executeUpdate("INSERT INTO t VALUES (10, 'x', 'x')");
                waitAll(appliers);
                s2.executeUpdate("UPDATE t SET v = 'b2' WHERE id = 2");
                s1.executeUpdate("DELETE FROM t WHERE id = 3");
                s1.executeUpdate("UPDATE t SET v = 'x1' WHERE id = 10");
                waitAll(appliers);
                assertThat(cluster.rows(0, "t", "id")).isEqualTo(cluster.rows(1, "t", "id"))
                        .containsExactly("id=1, v=a, w=a", "id=2, v=b2, w=b", "id=10, v=x1, w=x");

                // a conflict IGNORE resolves (repl_conflict) and one no handler does (the error queue)
                admin(dbs.get(1), "UPDATE t SET w = 'local' WHERE id = 1");
                admin(dbs.get(1), "UPDATE t SET v = 'local' WHERE id = 2");
                s1.executeUpdate("UPDATE t SET w = 'n1' WHERE id = 1");
                s1.executeUpdate("UPDATE t SET v = 'n1' WHERE id = 2");
                waitAll(appliers);
                assertThat(cluster.count(1, "SELECT count(*) FROM repl_conflict WHERE outcome = 'DESTINATION_KEPT'")).isEqualTo(1);
                ReplAdmin n2 = appliers.get(1).unwrap(ReplAdmin.class);
                assertThat(n2.errors()).hasSize(1);
                admin(dbs.get(1), "UPDATE t SET v = 'b2' WHERE id = 2");
                n2.retryError(n2.errors().get(0).id());
                assertThat(n2.errors()).isEmpty();
                assertThat(cluster.rows(1, "t", "id")).contains("id=1, v=a, w=local", "id=2, v=n1, w=b");

                // every subscriber has reported: the apply user purges what they consumed
                awaitSubscribed(0, "n2");
                ReplAdmin n1 = appliers.get(0).unwrap(ReplAdmin.class);
                assertThat(n1.purge()).isPositive();
                assertThat(cluster.count(0, "SELECT count(*) FROM repl_log")).isZero();
                NodeStatus status = n1.status();
                assertThat(status.purgeBlocked()).isNull();
                assertThat(status.peers()).allSatisfy(p -> assertThat(p.subscribeDenied()).isNull());
            } finally {
                for (Connection c : appliers) c.close();
            }
            Repl.shutdown();

            // A reader that may read n1's log but not write its row in repl_subscriber
            assertThat(cli("install", "--grants", "--url", cluster.url(0), "--user", dbs.get(0).user(), "--password",
                    dbs.get(0).password(), "--app-user", app, "--apply-user", apply, "--reader-user", readOnly)).isZero();
            String readOnlyGrants = out.lines().filter(l -> !l.contains("repl_subscriber") || !l.startsWith("GRANT")
                    || !l.contains(role(vendor, readOnly))).collect(java.util.stream.Collectors.joining("\n"));
            runGrants(dbs.get(0), readOnlyGrants.replace(role(vendor, app), "NOBODY").replace(role(vendor, apply), "NOBODY"),
                    true, created);
            // n2 starts over as n1's subscriber (the documented reset: both rows go, or n2 would see n1 as rewound)
            admin(dbs.get(0), dbs.get(0).driverTables("DELETE FROM repl_subscriber"));
            admin(dbs.get(1), dbs.get(1).driverTables("DELETE FROM repl_progress"));
            cluster.with(1, Map.of("repl.peer.n1.user", readOnly, "repl.peer.n1.password", PASSWORD));
            String log;
            try (LogCapture capture = LogCapture.start();
                    Connection n2apply = DriverManager.getConnection(cluster.url(1), asApply);
                    Connection a1 = DriverManager.getConnection(appUrl(0), asApp); Statement s1 = a1.createStatement()) {
                s1.executeUpdate("INSERT INTO t VALUES (20, 'ro', 'ro')");
                ReplAdmin n2 = n2apply.unwrap(ReplAdmin.class);
                n2.waitForPeers(Cluster.WAIT);
                assertThat(cluster.rows(1, "t", "id")).contains("id=20, v=ro, w=ro");
                Thread.sleep(1500); // the applier tries to subscribe every poll: it must not say so every time
                PeerStatus fromN1 = n2.status().peers().get(0);
                assertThat(fromN1.subscribeDenied()).contains(readOnly, "repl_subscriber", "cannot purge");
                try (Connection n1apply = DriverManager.getConnection(appUrl(0), asApply)) {
                    assertThat(n1apply.unwrap(ReplAdmin.class).status().purgeBlocked()).contains("n2", "repl_subscriber");
                }
                assertThat(cli("status", "--json", "--url", appUrl(1), "--user", apply, "--password", PASSWORD)).isZero();
                assertThat(out).contains("\"subscribeDenied\"", readOnly);
                log = capture.text();
            }
            assertThat(log.lines().filter(l -> l.contains("WARN") && l.contains("may not record n2's position")).toList())
                    .as("the driver's log:%n%s", log).singleElement().asString().contains(readOnly);

            if (vendor.isMariaDbServer()) {
                // Reading in commit order closes epochs: a reader that may not update repl_epoch is told the grant
                Repl.shutdown();
                admin(dbs.get(0), "REVOKE UPDATE ON " + dbs.get(0).driverTable("repl_epoch") + " FROM " + role(vendor, readOnly));
                try (Connection n2apply = DriverManager.getConnection(cluster.url(1), asApply)) {
                    ReplAdmin n2 = n2apply.unwrap(ReplAdmin.class);
                    long deadline = System.nanoTime() + Cluster.WAIT.toNanos();
                    String error;
                    while ((error = n2.status().peers().get(0).lastError()) == null && System.nanoTime() < deadline) {
                        Thread.sleep(50);
                    }
                    assertThat(error).contains(readOnly, "may not close an epoch", "GRANT SELECT, UPDATE ON",
                            dbs.get(0).driverSchema());
                }
            }
        } finally {
            Repl.shutdown();
            dropRoles(vendor, dbs, created);
        }
    }

    private String out = "";

    private int cli(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int exit = Main.run(args, new PrintStream(o, true, StandardCharsets.UTF_8), new PrintStream(e, true, StandardCharsets.UTF_8));
        out = o.toString(StandardCharsets.UTF_8);
        assertThat(e.toString(StandardCharsets.UTF_8)).as("stderr of %s", List.of(args).get(0)).isEmpty();
        return exit;
    }

    /** Runs the printed statements as the database's owner: the commented CREATE lines too, with a password. */
    private void runGrants(TestDatabase db, String printed, boolean createUsers, List<String> created) throws SQLException {
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            for (String line : printed.lines().toList()) {
                String sql = line.strip();
                if (sql.startsWith("--") && sql.substring(2).strip().startsWith("CREATE ")) {
                    if (!createUsers || sql.contains("NOBODY")) continue;
                    sql = sql.substring(2).strip().replace("<secret>", PASSWORD);
                    String user = sql.split(" ")[2];
                    if (created.contains(user)) continue;
                    created.add(user);
                } else if (sql.isEmpty() || sql.startsWith("--") || sql.contains("NOBODY")) {
                    continue;
                }
                assertThat(sql).endsWith(";");
                s.execute(sql.substring(0, sql.length() - 1));
            }
        }
    }

    private void dropRoles(Vendor vendor, List<TestDatabase> dbs, List<String> created) throws SQLException {
        if (created.isEmpty()) return;
        if (vendor == Vendor.POSTGRESQL) {
            for (TestDatabase db : dbs) admin(db, "DROP OWNED BY " + String.join(", ", created));
            for (String role : created) admin(dbs.get(0), "DROP ROLE IF EXISTS " + role);
        } else {
            for (String user : created) admin(dbs.get(0), "DROP USER IF EXISTS " + user);
        }
    }

    private static String role(Vendor vendor, String name) {
        return vendor == Vendor.POSTGRESQL ? "\"" + name + "\"" : "'" + name + "'@'%'";
    }

    private static void admin(TestDatabase db, String sql) throws SQLException {
        try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static Properties credentials(String user) {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", PASSWORD);
        return p;
    }

    /** The application's URL: the node's, with the apply side left to the apply user. */
    private String appUrl(int i) {
        return cluster.url(i) + "&repl.apply=false";
    }

    private static void waitAll(List<Connection> appliers) throws SQLException {
        for (Connection c : appliers) c.unwrap(ReplAdmin.class).waitForPeers(Cluster.WAIT);
    }

    /** The subscriber row is written right after the applier's commit: wait until it covers what was applied. */
    private void awaitSubscribed(int source, String subscriber) throws Exception {
        long deadline = System.nanoTime() + Cluster.WAIT.toNanos();
        int consumer = 1 - source;
        while (true) {
            String position;
            try (Connection c = cluster.db(source).openRaw(); Statement s = c.createStatement();
                    var rs = s.executeQuery(cluster.db(source).driverTables(
                            "SELECT position FROM repl_subscriber WHERE name = '" + subscriber + "'"))) {
                position = rs.next() ? rs.getString(1) : null;
            }
            if (position != null && cluster.count(consumer, "SELECT count(*) FROM repl_progress WHERE source_node = '"
                    + Cluster.name(source) + "' AND position = '" + position + "'") == 1) return;
            if (System.nanoTime() > deadline) throw new AssertionError(subscriber + " never reported its position");
            Thread.sleep(10);
        }
    }
}
