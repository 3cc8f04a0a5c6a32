package io.jdbcrepl.it.capture;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.jdbcrepl.it.support.TestDatabases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real client (SPEC 3.1, issue 3): HikariCP in front of {@code jdbc:repl:postgresql:} with the
 * repl.* keys in {@code dataSourceProperties}, 8 threads running what Hibernate sends for a
 * versioned entity: batched prepared inserts, versioned updates (optimistic locking: an update
 * count of 0 is a stale entity and rolls the transaction back), deletes by id and version, some
 * transactions rolled back. Afterwards the change log, replayed in position order onto an empty
 * copy of the table, must rebuild the table exactly, and the log must hold one LCR per row change
 * of each committed transaction.
 */
class OrmWorkloadCaptureIT {

    private static final int THREADS = 8;
    private static final int TRANSACTIONS = 40;

    static final String INSERT = "insert into item (id, version, name, qty) values (?, ?, ?, ?)";
    static final String SELECT = "select i1_0.id, i1_0.version, i1_0.name, i1_0.qty from item i1_0 where i1_0.id=?";
    static final String UPDATE = "update item set version=?, name=?, qty=? where id=? and version=?";
    static final String DELETE = "delete from item where id=? and version=?";

    @RegisterExtension
    final TestDatabases databases = TestDatabases.perTest();

    private final Map<Long, Boolean> known = new ConcurrentHashMap<>();
    private final AtomicLong inserts = new AtomicLong();
    private final AtomicLong updates = new AtomicLong();
    private final AtomicLong deletes = new AtomicLong();
    private final AtomicLong stale = new AtomicLong();
    private final AtomicLong rolledBack = new AtomicLong();
    private final AtomicLong deadlocks = new AtomicLong();

    @Test
    void hibernateStyleWorkloadThroughHikariIsCapturedExactly() throws Exception {
        Sandbox box = CapturePair.create(databases, "orm").sandbox(
                "CREATE TABLE item (id bigint PRIMARY KEY, version int NOT NULL, name varchar(255), qty int)");
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(box.nodeDatabase().replUrl());
        config.setUsername(box.nodeDatabase().user());
        config.setPassword(box.nodeDatabase().password());
        config.setMaximumPoolSize(THREADS);
        config.setAutoCommit(false);
        config.addDataSourceProperty("currentSchema", box.schema());
        config.addDataSourceProperty("repl.node", CapturePair.NODE);
        config.addDataSourceProperty("repl.schema", box.logSchema());
        config.addDataSourceProperty("repl.tables", box.schema() + ".*");
        config.addDataSourceProperty("repl.supplemental", "KEYS");

        try (HikariDataSource pool = new HikariDataSource(config)) {
            ExecutorService threads = Executors.newFixedThreadPool(THREADS);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                work.add(threads.submit(() -> {
                    start.await();
                    worker(pool, thread);
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : work) f.get(5, TimeUnit.MINUTES);
            threads.shutdown();
        }

        assertThat(inserts.get()).as("committed inserts").isPositive();
        assertThat(updates.get()).as("committed updates").isPositive();
        assertThat(deletes.get()).as("committed deletes").isPositive();
        assertThat(rolledBack.get()).as("rolled back transactions").isPositive();

        List<LoggedLcr> log = box.log();
        Map<String, Long> byCommand = new TreeMap<>();
        log.forEach(l -> byCommand.merge(l.command(), 1L, Long::sum));
        assertThat(byCommand).as("LCRs by command vs row changes of committed transactions (stale: %d, deadlocks: %d)",
                        stale.get(), deadlocks.get())
                .isEqualTo(Map.of("INSERT", inserts.get(), "UPDATE", updates.get(), "DELETE", deletes.get()));
        assertThat(box.nodeContents("item")).as("rows left").hasSize((int) (inserts.get() - deletes.get()));
        box.assertLogReplays(Map.of("item", List.of("id")), "item");
    }

    /** One application thread: TRANSACTIONS units of work, each committed or rolled back as a whole. */
    private void worker(HikariDataSource pool, int thread) throws SQLException {
        Random random = new Random(4242L + thread);
        long nextId = thread * 1_000_000L;
        for (int n = 0; n < TRANSACTIONS; n++) {
            long[] done = new long[3];
            try (Connection c = pool.getConnection()) {
                try {
                    boolean ok = unitOfWork(c, random, nextId, done);
                    nextId += 3;
                    if (ok && n % 9 != 8) {
                        c.commit();
                        inserts.addAndGet(done[0]);
                        updates.addAndGet(done[1]);
                        deletes.addAndGet(done[2]);
                        for (long id = nextId - 3; id < nextId; id++) known.put(id, Boolean.TRUE);
                    } else {
                        c.rollback();
                        rolledBack.incrementAndGet();
                    }
                } catch (SQLException e) {
                    c.rollback();
                    if (!"40P01".equals(e.getSQLState()) && !(e.getNextException() != null
                            && "40P01".equals(e.getNextException().getSQLState()))) {
                        throw e;
                    }
                    deadlocks.incrementAndGet(); // the application retries later; nothing of it may be logged
                    nextId += 3;
                }
            }
        }
    }

    /** false: stale entity (optimistic lock failure), the transaction must roll back. */
    private boolean unitOfWork(Connection c, Random random, long firstId, long[] done) throws SQLException {
        // persist three entities: one batch, as hibernate.jdbc.batch_size does
        try (PreparedStatement ps = c.prepareStatement(INSERT)) {
            for (long id = firstId; id < firstId + 3; id++) {
                ps.setLong(1, id);
                ps.setInt(2, 0);
                ps.setString(3, "item " + id);
                ps.setInt(4, random.nextInt(100));
                ps.addBatch();
            }
            int[] counts = ps.executeBatch();
            assertThat(counts).containsExactly(1, 1, 1);
            done[0] += 3;
        }
        // load a few managed entities, change them, flush: versioned updates in a batch, deletes after
        List<Long> ids = new ArrayList<>(known.keySet());
        if (ids.isEmpty()) return true;
        TreeMap<Long, Object[]> loaded = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement(SELECT)) {
            for (int i = 0; i < 4; i++) {
                long id = ids.get(random.nextInt(ids.size()));
                ps.setLong(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) loaded.put(id, new Object[] {rs.getInt(2), rs.getString(3), rs.getInt(4)});
                }
            }
        }
        Long removed = loaded.isEmpty() || random.nextInt(3) != 0 ? null : loaded.lastKey();
        try (PreparedStatement ps = c.prepareStatement(UPDATE)) {
            int entries = 0;
            for (Map.Entry<Long, Object[]> e : loaded.entrySet()) { // ordered by id, as hibernate.order_updates
                if (e.getKey().equals(removed)) continue;
                int version = (Integer) e.getValue()[0];
                ps.setInt(1, version + 1);
                ps.setString(2, e.getValue()[1] + "'");
                ps.setInt(3, (Integer) e.getValue()[2] + 1);
                ps.setLong(4, e.getKey());
                ps.setInt(5, version);
                ps.addBatch();
                entries++;
            }
            if (entries > 0) {
                for (int count : ps.executeBatch()) {
                    if (count == 0) {
                        stale.incrementAndGet();
                        return false; // StaleObjectStateException
                    }
                    assertThat(count).isEqualTo(1);
                }
                done[1] += entries;
            }
        }
        if (removed != null) {
            try (PreparedStatement ps = c.prepareStatement(DELETE)) {
                ps.setLong(1, removed);
                ps.setInt(2, (Integer) loaded.get(removed)[0]);
                ps.addBatch();
                int[] counts = ps.executeBatch();
                if (counts[0] == 0) {
                    stale.incrementAndGet();
                    return false;
                }
                done[2] += 1;
            }
        }
        return true;
    }
}
