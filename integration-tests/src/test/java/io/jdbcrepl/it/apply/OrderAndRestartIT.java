package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.jdbcrepl.admin.Repl;
import io.jdbcrepl.it.support.Vendor;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Commit order and exactly once: transactions that commit in another order than they were
 * numbered are each applied once (SPEC 4.1), and a backlog interrupted by a shutdown of the inbound
 * server and applied after its restart loses nothing and applies nothing twice (SPEC 4.2).
 */
class OrderAndRestartIT extends ClusterTest {

    private static final int THREADS = 6;

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB", "H2"})
    void transactionsCommittingOutOfOrderAreEachAppliedOnce(Vendor vendor) throws Exception {
        cluster = new Cluster(databases.nodes(vendor, "order", 2));
        cluster.ddl(v -> List.of("CREATE TABLE c (id BIGINT PRIMARY KEY, n INTEGER NOT NULL)"));
        AtomicLong ids = new AtomicLong();
        int perThread = 15;
        try (HikariDataSource pool = cluster.pool(0, THREADS)) {
            parallel(THREADS, () -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                try (Connection c = pool.getConnection()) {
                    for (int k = 0; k < perThread; k++) {
                        long id = ids.incrementAndGet();
                        try (PreparedStatement ins = c.prepareStatement("INSERT INTO c (id, n) VALUES (?, 0)");
                                PreparedStatement up = c.prepareStatement("UPDATE c SET n = n + 1 WHERE id = ?")) {
                            ins.setLong(1, id);
                            ins.executeUpdate();
                            up.setLong(1, id);
                            up.executeUpdate();
                        }
                        Thread.sleep(random.nextInt(40)); // later-numbered transactions commit first
                        c.commit();
                    }
                }
            });
        }
        cluster.waitForAll();
        long total = (long) THREADS * perThread;
        assertThat(cluster.rows(1, "c", "id")).hasSize((int) total).containsExactlyElementsOf(cluster.rows(0, "c", "id"))
                .allMatch(row -> row.endsWith("n=1"));
        assertProgress(total);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB"})
    void aBacklogInterruptedByAShutdownIsAppliedExactlyOnce(Vendor vendor) throws Exception {
        cluster = new Cluster(databases.nodes(vendor, "restart", 2), Map.of("repl.apply.batch", "7"));
        List<String> ddl = new ArrayList<>(List.of("CREATE TABLE c (id BIGINT PRIMARY KEY, n INTEGER NOT NULL)"));
        for (int id = 1; id <= 10; id++) ddl.add("INSERT INTO c (id, n) VALUES (" + id + ", 0)");
        cluster.ddl(v -> ddl);
        int perThread = 40;
        AtomicLong done = new AtomicLong();
        try (HikariDataSource pool = cluster.pool(0, 4)) {
            ExecutorService stopper = Executors.newSingleThreadExecutor();
            Future<?> restart = stopper.submit(() -> {
                while (done.get() < 60) Thread.sleep(1);
                Repl.shutdown(); // the applier at n2 stops in the middle of the backlog
                while (done.get() < 120) Thread.sleep(1);
                cluster.admin(1).startApply();
                return null;
            });
            parallel(4, () -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                try (Connection c = pool.getConnection();
                        PreparedStatement up = c.prepareStatement("UPDATE c SET n = n + 1 WHERE id = ?")) {
                    for (int k = 0; k < perThread; k++) {
                        // three counters, in key order so that the writers do not deadlock
                        for (int id : random.ints(1, 11).distinct().limit(3).sorted().toArray()) {
                            up.setLong(1, id);
                            up.executeUpdate();
                        }
                        c.commit();
                        done.incrementAndGet();
                    }
                }
            });
            restart.get();
            stopper.shutdown();
        }
        cluster.admin(1).waitForPeers(Cluster.WAIT);
        assertThat(cluster.rows(1, "c", "id")).containsExactlyElementsOf(cluster.rows(0, "c", "id"));
        assertThat(cluster.count(0, "SELECT sum(n) FROM c")).isEqualTo(4L * perThread * 3);
        assertProgress(4L * perThread);
    }

    private void assertProgress(long transactions) throws Exception {
        assertThat(cluster.count(1, "SELECT applied_transactions FROM repl_progress WHERE source_node = 'n1'"))
                .as("source transactions applied at n2").isEqualTo(transactions);
        assertThat(cluster.count(1, "SELECT queued_transactions FROM repl_progress WHERE source_node = 'n1'")).isZero();
        assertThat(cluster.count(1, "SELECT count(*) FROM repl_error")).isZero();
    }

    interface Work {
        void run() throws Exception;
    }

    static void parallel(int threads, Work work) throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(executor.submit(() -> {
                    work.run();
                    return null;
                }));
            }
            for (Future<?> f : futures) f.get();
        } finally {
            executor.shutdownNow();
        }
    }
}
