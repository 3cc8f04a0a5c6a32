package io.jdbcrepl.demo;

import io.jdbcrepl.intercept.SqlState;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The application side of the demo: writer threads on every node, each committing small
 * transactions at a steady rate through its own {@code jdbc:repl:} connection. They collide on
 * purpose: few counters, few employees, the newest orders and the next free badge are what every
 * node touches, so peers change the same rows before they have seen each other's changes.
 */
final class DemoWorkload {

    /** Orders ids a node creates: node number times this plus a sequence, so no two nodes pick the same. */
    private static final long ORDER_ID_BLOCK = 1_000_000_000L;
    /**
     * Updates and deletes go to a window of {@link #HOT_ORDERS} of the orders every node starts
     * with, which moves on every half second: every node is busy there at the same time. Orders a
     * node creates are left alone by the others: with three nodes and more, a peer's update of a row
     * inserted elsewhere can reach a third node before the insert (each source is applied in its
     * commit order, not in causal order across sources), which no handler can mend.
     */
    private static final int HOT_ORDERS = 20;
    private static final long WINDOW_MOVES_NANOS = 500_000_000L;

    private final DemoCluster cluster;
    private final int writersPerNode;
    private final double transactionsPerSecondPerNode;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLongArray committed;
    private final AtomicLongArray refused;
    private final AtomicLong increments = new AtomicLong();
    private final AtomicReference<String> failure = new AtomicReference<>();
    private final long started = System.nanoTime();
    private final AtomicLongArray nextOrder;
    private final AtomicLongArray nextBadge;
    private volatile boolean stopping;

    DemoWorkload(DemoCluster cluster, int writersPerNode, double transactionsPerSecondPerNode) {
        this.cluster = cluster;
        this.writersPerNode = writersPerNode;
        this.transactionsPerSecondPerNode = transactionsPerSecondPerNode;
        int n = cluster.size();
        committed = new AtomicLongArray(n);
        refused = new AtomicLongArray(n);
        nextOrder = new AtomicLongArray(n);
        nextBadge = new AtomicLongArray(n);
    }

    void start() throws SQLException {
        long seed = System.nanoTime();
        for (int node = 0; node < cluster.size(); node++) {
            for (int w = 0; w < writersPerNode; w++) {
                Connection c = cluster.open(node);
                c.setAutoCommit(false);
                int n = node;
                SplittableRandom random = new SplittableRandom(seed + 31L * node + w);
                Thread t = new Thread(() -> write(n, c, random), "demo-writer-" + cluster.node(node).name() + "-" + w);
                t.setDaemon(true);
                threads.add(t);
            }
        }
        threads.forEach(Thread::start);
    }

    /** Stops the writers after their current transaction. */
    void stop() throws InterruptedException {
        stopping = true;
        for (Thread t : threads) t.join(TimeUnit.SECONDS.toMillis(30));
    }

    long committed(int node) {
        return committed.get(node);
    }

    long committed() {
        long sum = 0;
        for (int i = 0; i < committed.length(); i++) sum += committed.get(i);
        return sum;
    }

    /**
     * Transactions the node's own database refused and the writer rolled back (a badge it has
     * given out already, a lock conflict): nothing of them is replicated.
     */
    long refused(int node) {
        return refused.get(node);
    }

    /** Counter increments committed on all nodes together: what every node's counters must add up to. */
    long increments() {
        return increments.get();
    }

    /** The first unexpected error a writer met (it stopped then), or null. */
    String failure() {
        return failure.get();
    }

    private void write(int node, Connection c, SplittableRandom random) {
        long intervalNanos = (long) (1e9 * writersPerNode / transactionsPerSecondPerNode);
        long next = System.nanoTime();
        try (c) {
            while (!stopping) {
                next += intervalNanos;
                long wait = next - System.nanoTime();
                if (wait > 0) LockSupport.parkNanos(wait);
                else next = System.nanoTime(); // behind: no burst to catch up
                transaction(node, c, random);
            }
        } catch (SQLException | RuntimeException e) {
            failure.compareAndSet(null, cluster.node(node).name() + ": " + String.valueOf(e).replaceAll("\\s*\\R\\s*", " "));
        }
    }

    /** The statements a transaction may run, in the order a transaction runs them (no lock-order deadlocks among writers). */
    private enum Kind { COUNTER, SALARY, ORDER_UPDATE, ORDER_DELETE, ORDER_INSERT, BADGE }

    /** One transaction of one or two statements, committed; one the database refuses is rolled back. */
    private void transaction(int node, Connection c, SplittableRandom random) throws SQLException {
        List<Kind> kinds = new ArrayList<>();
        int statements = random.nextInt(10) < 3 ? 2 : 1;
        for (int s = 0; s < statements; s++) kinds.add(pick(random.nextInt(100)));
        kinds.sort(null);
        int counted = 0;
        try {
            for (Kind kind : kinds) {
                switch (kind) {
                    case COUNTER -> counted += incrementCounter(c, random);
                    case SALARY -> updateSalary(c, random);
                    case ORDER_UPDATE -> updateOrder(c, random);
                    case ORDER_DELETE -> deleteOrder(c, random);
                    case ORDER_INSERT -> insertOrder(node, c, random);
                    case BADGE -> claimBadge(node, c);
                }
            }
            c.commit();
            committed.incrementAndGet(node);
            increments.addAndGet(counted);
        } catch (SQLException e) {
            c.rollback();
            if (!isDuplicateKey(e) && !isLockConflict(e)) throw e;
            refused.incrementAndGet(node);
        }
    }

    private static Kind pick(int percent) {
        if (percent < 35) return Kind.COUNTER;
        if (percent < 55) return Kind.SALARY;
        if (percent < 72) return Kind.ORDER_UPDATE;
        if (percent < 80) return Kind.ORDER_DELETE;
        if (percent < 90) return Kind.ORDER_INSERT;
        return Kind.BADGE;
    }

    private static int incrementCounter(Connection c, SplittableRandom random) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE demo_counters SET hits = hits + 1 WHERE id = ?")) {
            ps.setInt(1, 1 + random.nextInt(DemoCluster.COUNTERS));
            return ps.executeUpdate();
        }
    }

    private static void updateSalary(Connection c, SplittableRandom random) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE demo_employees SET salary = ? WHERE employee_id = ?")) {
            ps.setBigDecimal(1, BigDecimal.valueOf(3000 + 100L * random.nextInt(60)));
            ps.setInt(2, DemoCluster.FIRST_EMPLOYEE + random.nextInt(DemoCluster.EMPLOYEES));
            ps.executeUpdate();
        }
    }

    private void updateOrder(Connection c, SplittableRandom random) throws SQLException {
        String[] statuses = {"paid", "packed", "shipped", "delivered"};
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE demo_orders SET status = ?, amount = amount + ? WHERE id = ?")) {
            ps.setString(1, statuses[random.nextInt(statuses.length)]);
            ps.setBigDecimal(2, BigDecimal.valueOf(random.nextInt(1, 500), 2));
            ps.setLong(3, hotOrder(random));
            ps.executeUpdate();
        }
    }

    private void deleteOrder(Connection c, SplittableRandom random) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM demo_orders WHERE id = ?")) {
            ps.setLong(1, hotOrder(random));
            ps.executeUpdate();
        }
    }

    private void insertOrder(int node, Connection c, SplittableRandom random) throws SQLException {
        long id = (node + 1) * ORDER_ID_BLOCK + nextOrder.incrementAndGet(node);
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO demo_orders (id, customer, status, amount) VALUES (?, ?, 'new', ?)")) {
            ps.setLong(1, id);
            ps.setString(2, "customer " + random.nextInt(1000));
            ps.setBigDecimal(3, BigDecimal.valueOf(random.nextInt(1000, 100_000), 2));
            ps.executeUpdate();
        }
    }

    /** Claims the next badge this node has not given out: the other nodes race for the same ones. */
    private void claimBadge(int node, Connection c) throws SQLException {
        long badge = nextBadge.incrementAndGet(node);
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO demo_badges (code, holder) VALUES (?, ?)")) {
            ps.setString(1, "badge-" + badge);
            ps.setString(2, cluster.node(node).name());
            ps.executeUpdate();
        }
    }

    private long hotOrder(SplittableRandom random) {
        long step = (System.nanoTime() - started) / WINDOW_MOVES_NANOS;
        long start = (step * (HOT_ORDERS / 2)) % (DemoCluster.FIRST_ORDERS - HOT_ORDERS);
        return 1 + start + random.nextInt(HOT_ORDERS);
    }

    /**
     * A deadlock or lock timeout, which an application retries: the writers take their locks in
     * one order, but the inbound server applies a batch of peers' transactions in theirs.
     */
    static boolean isLockConflict(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return state.startsWith("40") || SqlState.TIMEOUT_EXPIRED.is(state) || SqlState.LOCK_NOT_AVAILABLE.is(state)
                || e.getErrorCode() == 1205 || e.getErrorCode() == 1213;
    }

    /** SQLState class 23 with a unique violation: 23505 (PostgreSQL, H2), 23000 with 1062 (MariaDB). */
    static boolean isDuplicateKey(SQLException e) {
        String state = e.getSQLState();
        return SqlState.UNIQUE_VIOLATION.is(state) || (SqlState.INTEGRITY_CONSTRAINT_VIOLATION.is(state) && e.getErrorCode() == 1062);
    }
}
