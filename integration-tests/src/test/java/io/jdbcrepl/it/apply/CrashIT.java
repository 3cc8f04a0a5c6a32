package io.jdbcrepl.it.apply;

import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.api.ReplAdmin;
import io.jdbcrepl.it.support.TestDatabase;
import io.jdbcrepl.it.support.TestDatabases;
import io.jdbcrepl.it.support.Vendor;

import java.io.File;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SPEC 4.2 under kill -9: n2's applier runs in a child JVM ({@code java -cp <driver jar> … apply}),
 * killed with {@code destroyForcibly} at random moments while a counter workload
 * ({@code UPDATE c SET n = n + 1}) commits at n1; after a last restart and waitForPeers the counters
 * are equal, every source transaction was applied exactly once, and none was queued (a second
 * application of an UPDATE would meet other old values and be queued as a conflict). Also: a second
 * applier JVM takes over from a killed one.
 */
class CrashIT {

    private static final int ROUNDS = 6;

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killChildren() throws InterruptedException {
        for (Process p : children) kill(p);
    }

    private static void kill(Process p) throws InterruptedException {
        p.destroyForcibly();
        p.waitFor();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB"})
    void anApplierKilledAtRandomMomentsLosesNothingAndAppliesNothingTwice(Vendor vendor, @TempDir Path dir) throws Exception {
        campaign(vendor, dir, (childUrl, dest, progress) -> {
            for (int round = 0; round < ROUNDS; round++) {
                Process child = startApplier(childUrl, dest, dir.resolve("apply-" + round + ".log"));
                awaitApplying(progress, applied(progress), child);
                Thread.sleep(ThreadLocalRandom.current().nextInt(0, 1500));
                kill(child);
            }
        });
    }

    /**
     * SPEC 4.2's one applier per source and destination across JVMs: a second JVM started while the
     * first applies waits; when the first is killed, the second takes over (it is then the only one
     * alive), and nothing is lost or applied twice meanwhile.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Vendor.class, names = {"POSTGRESQL", "MARIADB"})
    void aSecondApplierJvmTakesOverWhenTheHolderDies(Vendor vendor, @TempDir Path dir) throws Exception {
        campaign(vendor, dir, (childUrl, dest, progress) -> {
            Process first = startApplier(childUrl, dest, dir.resolve("apply-first.log"));
            awaitApplying(progress, applied(progress), first);
            Process second = startApplier(childUrl, dest, dir.resolve("apply-second.log"));
            Thread.sleep(3000); // the second JVM is up and finds the applier's lock taken
            kill(first);
            long atKill = applied(progress);
            awaitApplying(progress, atKill, second);
            assertThat(applied(progress)).as("applied after the holder died, by the second JVM").isGreaterThan(atKill);
            assertThat(second.isAlive()).isTrue();
            kill(second);
        });
    }

    @FunctionalInterface
    private interface Crashes {
        void run(String childUrl, TestDatabase dest, Cluster progress) throws Exception;
    }

    /**
     * Two nodes on {@code vendor}, a counter workload committing at n1 while {@code crashes} starts
     * and kills n2's appliers in child JVMs; then a last applier, waitForPeers, and the checks that
     * every source transaction was applied exactly once.
     */
    private void campaign(Vendor vendor, Path dir, Crashes crashes) throws Exception {
        List<TestDatabase> dbs = databases.nodes(vendor, "crash", 2);
        TestDatabase source = dbs.get(0);
        TestDatabase dest = dbs.get(1);
        for (TestDatabase db : dbs) {
            try (Connection c = db.openRaw(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE c (id BIGINT PRIMARY KEY, n INTEGER NOT NULL)");
                for (int id = 1; id <= 10; id++) s.execute("INSERT INTO c (id, n) VALUES (" + id + ", 0)");
            }
        }
        String sourceUrl = source.replUrl(Map.of("repl.node", "n1"));
        Map<String, String> n2 = new LinkedHashMap<>();
        n2.put("repl.node", "n2");
        n2.put("repl.peers", "n1");
        n2.putAll(source.asPeer("n1"));
        n2.put("repl.apply.batch", "5");
        n2.put("repl.apply.poll", "20ms");
        String childUrl = dest.replUrl(n2);
        n2.put("repl.apply", "false"); // this JVM only waits and looks
        String hereUrl = dest.replUrl(n2);
        ReplAdmin admin;
        try (Connection c = DriverManager.getConnection(hereUrl, dest.credentials())) {
            admin = c.unwrap(ReplAdmin.class);
        }

        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong committed = new AtomicLong();
        Thread writer = new Thread(() -> {
            try (Connection c = DriverManager.getConnection(sourceUrl, source.credentials());
                    PreparedStatement up = c.prepareStatement("UPDATE c SET n = n + 1 WHERE id = ?")) {
                c.setAutoCommit(false);
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (!stop.get()) {
                    for (int id : random.ints(1, 11).distinct().limit(2).sorted().toArray()) {
                        up.setLong(1, id);
                        up.executeUpdate();
                    }
                    c.commit();
                    committed.incrementAndGet();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "crash-workload");
        writer.start();
        try {
            crashes.run(childUrl, dest, new Cluster(dbs));
        } finally {
            stop.set(true);
            writer.join();
        }
        Cluster view = new Cluster(dbs);
        long appliedByKilledAppliers = view.count(1, "SELECT applied_transactions FROM repl_progress");
        assertThat(appliedByKilledAppliers).as("the killed appliers had applied part of the workload").isPositive()
                .isLessThanOrEqualTo(committed.get());
        startApplier(childUrl, dest, dir.resolve("apply-last.log"));
        admin.waitForPeers(Cluster.WAIT);

        assertThat(view.rows(1, "c", "id")).containsExactlyElementsOf(view.rows(0, "c", "id"));
        assertThat(view.count(0, "SELECT sum(n) FROM c")).isEqualTo(2 * committed.get());
        assertThat(view.count(1, "SELECT applied_transactions FROM repl_progress")).isEqualTo(committed.get());
        assertThat(view.count(1, "SELECT count(*) FROM repl_error")).isZero();
        assertThat(committed.get()).as("transactions committed during the campaign").isGreaterThan(50);
    }

    /** Waits (a JVM starting on a busy machine takes a while) until more than {@code before} are applied, or the child died. */
    private static void awaitApplying(Cluster progress, long before, Process child) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (applied(progress) == before && child.isAlive() && System.nanoTime() < deadline) Thread.sleep(20);
    }

    /** Transactions applied so far (0 before the first applier created repl_progress's row). */
    private static long applied(Cluster view) throws java.sql.SQLException {
        try {
            return view.count(1, "SELECT COALESCE(MAX(applied_transactions), 0) FROM repl_progress");
        } catch (java.sql.SQLException e) {
            return 0; // repl_progress not created yet
        }
    }

    private Process startApplier(String url, TestDatabase dest, Path log) throws Exception {
        Process p = ApplierProcess.start(url, dest, log, "64m");
        children.add(p);
        return p;
    }
}
