package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdbcrepl.api.PeerStatus;
import io.jdbcrepl.admin.Repl;
import io.jdbcrepl.cli.Main;
import io.jdbcrepl.it.support.DatabaseServers;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.Vendor;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SPEC 8.8: a source that goes back in time (here: restored from a copy taken earlier) is detected
 * before anything is applied from it; its applier stops in state REWOUND with the reason, which
 * status shows in every process and for which wait fails; the position stays where it was, so that
 * nothing is skipped.
 */
class SourceRewindIT extends ClusterTest {

    /** n2 applies from n1; n1 is copied at T1, goes on, and n2 is then pointed at the copy. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void aSourceRestoredFromAnOlderCopyStopsItsApplier(Vendor vendor) throws Exception {
        TestDatabase copy = restoredSource(vendor);
        String before = position();

        assertThat(awaitState("REWOUND").lastError()).startsWith("n1 went back in time")
                .contains("repl_subscriber holds", "older than");
        assertRewoundAndNothingApplied(before);

        // docs/source-rewind.md: once the tables are repaired, the progress and the subscriber row are reset
        Repl.shutdown();
        try (Connection c = cluster.db(1).openRaw(); Statement s = c.createStatement()) {
            s.executeUpdate(cluster.db(1).driverTables("DELETE FROM repl_progress WHERE source_node = 'n1'"));
        }
        try (Connection c = copy.openRaw(); Statement s = c.createStatement()) {
            s.executeUpdate(copy.driverTables("DELETE FROM repl_subscriber WHERE name = 'n2'"));
        }
        cluster.admin(1).waitForPeers(Cluster.WAIT);
        assertThat(cluster.rows(1, "t", "id")).hasSize(7).anyMatch(r -> r.startsWith("id=100,"));
        assertThat(cluster.admin(1).status().peers().get(0).state()).isEqualTo("RUNNING");
    }

    /**
     * Without the subscriber row's evidence (this node never recorded what it wrote there), an epoch
     * source still shows it: its repl_epoch closes at or below the epochs already applied.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"MARIADB", "H2"})
    void anEpochSourceWhoseEpochWentBackStopsItsApplier(Vendor vendor) throws Exception {
        restoredSource(vendor, c -> {
            try (Statement s = c.createStatement()) {
                s.executeUpdate(cluster.db(1).driverTables("UPDATE repl_progress SET subscribed = NULL"));
            }
        });
        String before = position();
        assertThat(awaitState("REWOUND").lastError()).startsWith("n1 went back in time")
                .contains("repl_epoch closed at");
        assertRewoundAndNothingApplied(before);
    }

    /** A repl_progress made before its columns subscribed and rewound gets them from the install command. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void anOlderInstallGetsTheNewColumns(Vendor vendor) throws Exception {
        cluster = new Cluster(databases.nodes(vendor, "rewind_upgrade", 2));
        cluster.ddl(v -> List.of("CREATE TABLE t (id BIGINT PRIMARY KEY, v INTEGER)"));
        cluster.execute(0, "INSERT INTO t (id, v) VALUES (1, 0)");
        cluster.admin(1).waitForPeers(Cluster.WAIT);
        Repl.shutdown();
        try (Connection c = cluster.db(1).openRaw(); Statement s = c.createStatement()) {
            s.execute(cluster.db(1).driverTables("ALTER TABLE repl_progress DROP COLUMN subscribed"));
            s.execute(cluster.db(1).driverTables("ALTER TABLE repl_progress DROP COLUMN rewound"));
            s.execute(cluster.db(1).driverTables("DROP TABLE repl_version")); // made before versions were recorded
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream sink = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertThat(Main.run(new String[] {"install", "--url", cluster.url(1), "--user", cluster.db(1).user()}, sink, sink))
                .as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_progress WHERE subscribed IS NULL AND rewound IS NULL"))
                .isEqualTo(1);
        cluster.execute(0, "INSERT INTO t (id, v) VALUES (2, 0)");
        cluster.admin(1).waitForPeers(Cluster.WAIT);
        assertThat(cluster.rows(1, "t", "id")).hasSize(2);
    }

    private interface LocalChange {
        void run(Connection n2) throws SQLException;
    }

    private TestDatabase restoredSource(Vendor vendor) throws Exception {
        return restoredSource(vendor, c -> { });
    }

    /**
     * n1 with rows 1-3 applied at n2, copied (T1); rows 4-6 applied at n2 after it; then n2 restarted
     * with n1's URL on the copy, where n1's application writes row 100. Returns the copy.
     */
    private TestDatabase restoredSource(Vendor vendor, LocalChange beforeRestart) throws Exception {
        List<TestDatabase> dbs = databases.nodes(vendor, "rewind", 2);
        cluster = new Cluster(dbs);
        cluster.ddl(v -> List.of("CREATE TABLE t (id BIGINT PRIMARY KEY, v INTEGER)"));
        for (int i = 1; i <= 3; i++) cluster.execute(0, "INSERT INTO t (id, v) VALUES (" + i + ", 0)");
        cluster.admin(1).waitForPeers(Cluster.WAIT);
        awaitSubscriberCaughtUp();

        Repl.shutdown(); // a quiet source while it is copied
        TestDatabase copy = databases.create(vendor, "rewind_copy");
        copy(dbs.get(0), copy);

        for (int i = 4; i <= 6; i++) cluster.execute(0, "INSERT INTO t (id, v) VALUES (" + i + ", 0)");
        cluster.admin(1).waitForPeers(Cluster.WAIT);
        assertThat(cluster.rows(1, "t", "id")).hasSize(6);
        awaitSubscriberCaughtUp();
        Repl.shutdown();
        try (Connection c = dbs.get(1).openRaw()) {
            beforeRestart.run(c);
        }

        String replCopy = TestDatabase.withQuery(copy.replUrl(), Map.of("repl.node", "n1", "repl.apply", "false"));
        try (Connection c = DriverManager.getConnection(replCopy, copy.credentials()); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO t (id, v) VALUES (100, 0)"); // captured in the copy's log
        }
        cluster = new Cluster(dbs).with(1, Map.of("repl.peer.n1.url", copy.rawUrl()));
        return copy;
    }

    private void assertRewoundAndNothingApplied(String before) throws Exception {
        assertThatThrownBy(() -> cluster.admin(1).waitForPeers(Cluster.WAIT)).isInstanceOf(SQLException.class)
                .hasMessageContaining("peer n1").hasMessageContaining("went back in time")
                .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("55000"));
        Thread.sleep(300); // several polls of an applier that would apply
        assertThat(cluster.rows(1, "t", "id")).hasSize(6).noneMatch(r -> r.startsWith("id=100,"));
        assertThat(position()).as("the position does not move").isEqualTo(before);

        // Another process (the CLI) sees it too, and a new applier stays stopped.
        Repl.shutdown();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] args = {"status", "--url", cluster.url(1), "--user", cluster.db(1).user()};
        assertThat(Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8))).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).containsPattern("n1 +REWOUND")
                .contains("last error: n1 went back in time");
        String[] wait = {"wait", "--url", cluster.url(1), "--user", cluster.db(1).user(), "--timeout", "5s"};
        err.reset();
        assertThat(Main.run(wait, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8))).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("peer n1", "went back in time");
        cluster.open(1).close();
        assertThat(awaitState("REWOUND").lastError()).startsWith("n1 went back in time");
        assertThat(position()).isEqualTo(before);
    }

    private String position() throws SQLException {
        try (Connection c = cluster.db(1).openRaw(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                cluster.db(1).driverTables("SELECT position FROM repl_progress WHERE source_node = 'n1'"))) {
            rs.next();
            return rs.getString(1);
        }
    }

    private PeerStatus awaitState(String state) throws Exception {
        long deadline = System.nanoTime() + Cluster.WAIT.toNanos();
        while (true) {
            PeerStatus n1 = cluster.admin(1).status().peers().get(0);
            if (n1.state().equals(state)) return n1;
            if (System.nanoTime() > deadline) throw new AssertionError("n1 at n2 never became " + state + ": " + n1);
            Thread.sleep(20);
        }
    }

    /** The source's database and driver tables as they are now, into {@code copy}. */
    private static void copy(TestDatabase from, TestDatabase copy) throws Exception {
        switch (from.vendor().server()) {
            case POSTGRESQL -> {
                from.awaitServerConnectionsAtMost(0);
                try (Connection admin = DatabaseServers.openAdmin(Vendor.Server.POSTGRESQL);
                        Statement s = admin.createStatement()) {
                    s.execute("DROP DATABASE " + copy.name());
                    s.execute("CREATE DATABASE " + copy.name() + " TEMPLATE " + from.name());
                }
            }
            case MARIADB -> {
                try (Connection admin = DatabaseServers.openAdmin(Vendor.Server.MARIADB);
                        Statement s = admin.createStatement()) {
                    s.execute("CREATE DATABASE " + copy.driverSchema() + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin");
                    for (String[] dbs : new String[][] {{from.name(), copy.name()}, {from.driverSchema(), copy.driverSchema()}}) {
                        List<String> tables = new ArrayList<>();
                        try (ResultSet rs = s.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = '"
                                + dbs[0] + "' AND table_type = 'BASE TABLE'")) {
                            while (rs.next()) tables.add(rs.getString(1));
                        }
                        for (String t : tables) {
                            s.execute("CREATE TABLE " + dbs[1] + "." + t + " LIKE " + dbs[0] + "." + t);
                            s.execute("INSERT INTO " + dbs[1] + "." + t + " SELECT * FROM " + dbs[0] + "." + t);
                        }
                    }
                }
            }
            case NONE -> {
                Path script = Files.createTempFile("rewind", ".sql");
                try (Connection c = from.openRaw(); Statement s = c.createStatement()) {
                    s.execute("SCRIPT TO '" + script + "'");
                }
                try (Connection c = copy.openRaw(); Statement s = c.createStatement()) {
                    s.execute("RUNSCRIPT FROM '" + script + "'");
                } finally {
                    Files.delete(script);
                }
            }
        }
    }

    /** n2's row in n1's repl_subscriber holds what n2 has applied (written after its commits). */
    private void awaitSubscriberCaughtUp() throws Exception {
        long deadline = System.nanoTime() + Cluster.WAIT.toNanos();
        while (true) {
            String position;
            try (Connection c = cluster.db(0).openRaw(); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery(cluster.db(0).driverTables("SELECT position FROM repl_subscriber WHERE name = 'n2'"))) {
                position = rs.next() ? rs.getString(1) : null;
            }
            if (position != null && position.equals(position())
                    && cluster.count(1, "SELECT count(*) FROM repl_progress WHERE subscribed = '" + position + "'") == 1) {
                return;
            }
            if (System.nanoTime() > deadline) throw new AssertionError("n2 never reported its position to n1");
            Thread.sleep(10);
        }
    }
}
