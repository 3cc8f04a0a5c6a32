package io.jdbcrepl.it.apply;

import io.jdbcrepl.api.PeerStatus;
import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.it.support.TcpProxy;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 4: a peer database unreachable for a while (its connections broken and new
 * ones refused by a TCP forwarder the test stops): the source keeps working and its log grows;
 * the peer's status says it cannot reach the source; when the source is reachable again the peer
 * catches up exactly. (A subscriber silent past {@code repl.retention}: PurgeIT.)
 */
class PeerOutageIT {

    @RegisterExtension
    static final TestDatabases DATABASES = TestDatabases.perTest();

    private static final Duration WAIT = Duration.ofSeconds(60);

    @ParameterizedTest(name = "{0}")
    @EnumSource(names = {"POSTGRESQL", "MARIADB"})
    void sourceKeepsWorkingAndThePeerCatchesUp(Vendor vendor) throws Exception {
        try (ProxiedPair pair = new ProxiedPair(vendor, "outage", Map.of())) {
            TestDatabase source = pair.source;
            TestDatabase peer = pair.peer;
            TcpProxy proxy = pair.proxy;
            Connection writer = pair.writer;
            ReplAdmin admin = pair.admin;
            insert(writer, 0, 100);
            admin.waitForPeers(WAIT);
            assertThat(count(peer, "SELECT COUNT(*) FROM c")).isEqualTo(100);

            proxy.stop();
            long start = System.nanoTime();
            insert(writer, 100, 400); // the source does not wait for its peer
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
            // (the first 100, consumed, may be purged meanwhile; the new ones wait for n2)
            assertThat(count(source, "SELECT COUNT(*) FROM repl_log")).isGreaterThanOrEqualTo(300);
            PeerStatus down = awaitStatus(admin, s -> s.lagTransactions() == -1 || "UNREACHABLE".equals(s.state()));
            assertThat(down.state()).isEqualTo("UNREACHABLE");
            assertThat(count(peer, "SELECT COUNT(*) FROM c")).isEqualTo(100);

            proxy.start();
            admin.waitForPeers(WAIT);
            assertThat(count(peer, "SELECT COUNT(*) FROM c")).isEqualTo(400);
            assertThat(count(peer, "SELECT SUM(n) FROM c")).isEqualTo(count(source, "SELECT SUM(n) FROM c"));
            assertThat(awaitStatus(admin, s -> "RUNNING".equals(s.state())).lagTransactions()).isZero();
        }
    }

    /**
     * A black-holed source (packets dropped, nothing refused): status and the applier give up after
     * {@code repl.peer.timeout} instead of hanging, the source's application never waits, and once
     * the network is back the peer catches up exactly.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(names = {"POSTGRESQL", "MARIADB"})
    void aBlackHoledPeerNeverHangsStatusOrTheApplier(Vendor vendor) throws Exception {
        Duration timeout = Duration.ofSeconds(3);
        try (ProxiedPair pair = new ProxiedPair(vendor, "blackhole", Map.of("repl.peer.timeout", "3s"))) {
            TestDatabase source = pair.source;
            TestDatabase peer = pair.peer;
            TcpProxy proxy = pair.proxy;
            Connection writer = pair.writer;
            ReplAdmin admin = pair.admin;
            insert(writer, 0, 100);
            admin.waitForPeers(WAIT);

            proxy.blackHole();
            long start = System.nanoTime();
            insert(writer, 100, 300); // the source does not wait for its black-holed consumer
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
            start = System.nanoTime();
            PeerStatus status = admin.status().peers().get(0);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(took).as("status on a black-holed peer").isLessThan(timeout.multipliedBy(3));
            assertThat(status.lastError()).as("status says why").isNotNull();
            java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
            start = System.nanoTime();
            int verify = io.jdbcrepl.cli.Main.run(new String[] {"verify", "--url", pair.peerUrl, "--user", peer.user(), "--password", peer.password(), "--table", "c"},
                    new java.io.PrintStream(java.io.OutputStream.nullOutputStream()), new java.io.PrintStream(err, true));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("verify with a black-holed peer")
                    .isLessThan(timeout.multipliedBy(3));
            assertThat(verify).isNotZero();
            assertThat(err.toString()).contains("n1");
            PeerStatus down = awaitStatus(admin, s -> "UNREACHABLE".equals(s.state()));
            assertThat(down.state()).isEqualTo("UNREACHABLE");
            assertThat(count(peer, "SELECT COUNT(*) FROM c")).isEqualTo(100);

            proxy.heal();
            admin.waitForPeers(WAIT);
            assertThat(count(peer, "SELECT COUNT(*) FROM c")).isEqualTo(300);
            assertThat(count(peer, "SELECT SUM(n) FROM c")).isEqualTo(count(source, "SELECT SUM(n) FROM c"));
        }
    }

    /**
     * Issue 17's recovery figure: after a black-holed peer heals, the applier applies again within
     * the backoff cap (30 s, Applier.MAX_BACKOFF_MILLIS) plus 5 s, whatever its backoff had reached.
     * The outage lasts long enough (12 s) for the backoff to pass several seconds; the time from heal
     * to the first row applied is printed as the figure.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(names = {"POSTGRESQL", "MARIADB"})
    void applyingResumesWithinTheBackoffCapAfterTheOutage(Vendor vendor) throws Exception {
        try (ProxiedPair pair = new ProxiedPair(vendor, "recovery", Map.of("repl.peer.timeout", "3s"))) {
            TestDatabase source = pair.source;
            TestDatabase peer = pair.peer;
            TcpProxy proxy = pair.proxy;
            Connection writer = pair.writer;
            ReplAdmin admin = pair.admin;
            insert(writer, 0, 10);
            admin.waitForPeers(WAIT);

            proxy.blackHole();
            insert(writer, 10, 20);
            Thread.sleep(12_000);
            assertThat(admin.status().peers().get(0).state()).isEqualTo("UNREACHABLE");
            proxy.heal();
            long healed = System.nanoTime();
            while (count(peer, "SELECT COUNT(*) FROM c") < 20) {
                assertThat(Duration.ofNanos(System.nanoTime() - healed)).as("applying again after the heal")
                        .isLessThan(Duration.ofSeconds(35));
                Thread.sleep(20);
            }
            Duration recovery = Duration.ofNanos(System.nanoTime() - healed);
            System.out.println("PeerOutageIT " + vendor + ": applying again " + recovery.toMillis()
                    + " ms after the heal (12 s outage; cap 30 s + 5 s)");
            admin.waitForPeers(WAIT);
            assertThat(count(peer, "SELECT SUM(n) FROM c")).isEqualTo(count(source, "SELECT SUM(n) FROM c"));
        }
    }

    /**
     * A consumer partitioned away in the middle of closing an epoch on a MariaDB source (its
     * {@code UPDATE repl_epoch} waiting for a committing transaction's shared lock when its network
     * goes): the source's application commits on, without waiting for any lock the lost consumer's
     * session holds. Before, that session kept the epoch row locked until a person killed it.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(names = {"MARIADB", "MYSQL_DRIVER_ON_MARIADB"})
    void aPartitionedConsumerNeverBlocksTheSourcesCommits(Vendor vendor) throws Exception {
        try (ProxiedPair pair = new ProxiedPair(vendor, "partition", Map.of());
             Connection holder = pair.source.openRaw()) {
            TestDatabase source = pair.source;
            TestDatabase peer = pair.peer;
            TcpProxy proxy = pair.proxy;
            Connection writer = pair.writer;
            ReplAdmin admin = pair.admin;
            insert(writer, 0, 10);
            admin.waitForPeers(WAIT);

            // a committing transaction's shared lock on the epoch row, which the consumer's next close waits for
            holder.setAutoCommit(false);
            try (java.sql.Statement s = holder.createStatement()) {
                s.executeQuery("SELECT epoch FROM " + source.driverTable("repl_epoch") + " WHERE id = 1 LOCK IN SHARE MODE").close();
            }
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (count(source, "SELECT COUNT(*) FROM information_schema.processlist WHERE info LIKE 'UPDATE %SET epoch%'") == 0) {
                assertThat(System.nanoTime()).as("the consumer waits for the epoch row").isLessThan(deadline);
                Thread.sleep(20);
            }
            proxy.blackHole(); // the consumer's network goes while its statement waits
            holder.commit(); // its statement now runs to its end on the server

            long start = System.nanoTime();
            insert(writer, 10, 20); // each an auto-committed capture, its stamp reading the epoch row
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("source commits with a lost consumer")
                    .isLessThan(Duration.ofSeconds(10));

            proxy.heal();
            admin.waitForPeers(WAIT);
            assertThat(count(peer, "SELECT COUNT(*) FROM c")).isEqualTo(20);
        }
    }

    /**
     * Two nodes of one vendor with a table c: n1 (the source, written through {@code writer}) and n2,
     * which reaches n1 through {@code proxy} and applies from it ({@code admin}).
     */
    private static final class ProxiedPair implements AutoCloseable {
        final TestDatabase source;
        final TestDatabase peer;
        final String peerUrl;
        TcpProxy proxy;
        Cluster cleanup;
        Connection writer;
        Connection reader;
        ReplAdmin admin;

        ProxiedPair(Vendor vendor, String name, Map<String, String> extra) throws Exception {
            List<TestDatabase> dbs = DATABASES.nodes(vendor, name, 2);
            source = dbs.get(0);
            peer = dbs.get(1);
            for (TestDatabase db : dbs) exec(db, "CREATE TABLE c (id int PRIMARY KEY, n bigint NOT NULL)");
            URI target = URI.create(source.rawUrl().substring("jdbc:".length()));
            proxy = new TcpProxy(target.getHost(), target.getPort());
            peerUrl = peerUrl(peer, source, proxy, extra);
            try {
                cleanup = new Cluster(dbs);
                writer = DriverManager.getConnection(source.replUrl(Map.of("repl.node", "n1")), source.credentials());
                reader = DriverManager.getConnection(peerUrl, peer.credentials());
                admin = reader.unwrap(ReplAdmin.class);
            } catch (Exception e) {
                close();
                throw e;
            }
        }

        @Override
        public void close() throws Exception {
            try (TcpProxy p = proxy; Cluster c = cleanup; Connection w = writer; Connection r = reader) {
                // closed in reverse order: reader, writer, cluster, proxy
            }
        }
    }

    /** n2's URL, with n1 (the source) reached through the proxy. */
    private static String peerUrl(TestDatabase peer, TestDatabase source, TcpProxy proxy, Map<String, String> extra) {
        URI target = URI.create(source.rawUrl().substring("jdbc:".length()));
        String proxied = source.rawUrl().replace(target.getHost() + ":" + target.getPort(),
                "127.0.0.1:" + proxy.port());
        Map<String, String> p = new LinkedHashMap<>();
        p.put("repl.node", "n2");
        p.put("repl.peers", "n1");
        p.putAll(source.asPeer("n1"));
        p.put("repl.peer.n1.url", proxied);
        p.put("repl.apply.poll", "50ms");
        p.putAll(extra);
        return peer.replUrl(p);
    }

    private static PeerStatus awaitStatus(ReplAdmin admin, Predicate<PeerStatus> condition) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        PeerStatus last = null;
        while (System.nanoTime() < deadline) {
            last = admin.status().peers().get(0);
            if (condition.test(last)) return last;
            Thread.sleep(100); // the applier notices an outage at its next attempt
        }
        return last;
    }

    private static void insert(Connection c, int from, int to) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO c VALUES (?, ?)")) {
            for (int id = from; id < to; id++) {
                ps.setInt(1, id);
                ps.setLong(2, id);
                ps.executeUpdate();
            }
        }
    }

    private static void exec(TestDatabase db, String sql) throws SQLException {
        try (Connection c = db.openRaw(); java.sql.Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static long count(TestDatabase db, String sql) throws SQLException {
        try (Connection c = db.openRaw(); java.sql.Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery(db.driverTables(sql))) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
