package io.jdbcrepl.dialect.postgresql;

import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.log.ChangeLogSchema;
import io.jdbcrepl.log.LogRows;
import io.jdbcrepl.log.Position;
import io.jdbcrepl.log.ReadAhead;
import io.jdbcrepl.log.RefusedLcr;
import io.jdbcrepl.log.Rewind;
import io.jdbcrepl.log.SourceReader;
import io.jdbcrepl.log.SourceTx;
import io.jdbcrepl.log.Subscribers;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * PgQ-style snapshot batches on a PostgreSQL source (SPEC 4.1). A batch is read in one
 * {@code REPEATABLE READ, READ ONLY} transaction whose first statement takes its own snapshot S2;
 * its transactions are those visible in S2 and not in the consumer's low snapshot S1, ordered by
 * (max position, tx id). A batch resumed after a crash keeps its stored S1 and S2, so the same set
 * is derived again from a newer snapshot.
 */
final class PgSourceReader implements SourceReader {

    private static final int FETCH = 500;

    private final Connection source;
    private final LogRows rows;
    private final String log;
    private boolean listening;
    /** The WAL position the current batch's transactions must be flushed to at the source, 0 when they are. */
    private long unflushed;
    private long walWriterDelayMillis = -1;

    PgSourceReader(Connection source, ChangeLogSchema schema, io.jdbcrepl.config.LogSignature signature) throws SQLException {
        this.source = source;
        this.rows = new PgLogRows(schema, signature);
        this.log = schema.table("repl_log");
        // The reader's queries are small and frequent: compiling them (JIT) costs more than it saves.
        try (Statement s = source.createStatement()) {
            s.execute("SET jit = off");
        }
        source.setAutoCommit(false);
        source.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        source.setReadOnly(true);
    }

    @Override
    public Batch batch(Position from) throws SQLException {
        Position.Snapshot at = (Position.Snapshot) from;
        String high = at.high();
        unflushed = 0; // a resumed batch passed the gate before its position was stored
        if (high == null) {
            // The WAL insert position read after the snapshot is above the commit record of every
            // transaction visible in it (the record is written before the commit becomes visible).
            try (Statement s = source.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_current_snapshot()::text,"
                    + " pg_current_wal_insert_lsn() - '0/0', pg_current_wal_flush_lsn() - '0/0'")) {
                rs.next();
                high = rs.getString(1);
                long insert = rs.getLong(2);
                if (rs.getLong(3) < insert) unflushed = insert;
            }
            String rewound = Rewind.check(at, high);
            if (rewound != null) {
                source.commit();
                throw new Rewind.Detected(rewound);
            }
        }
        // Both bounds of the range, although the snapshots imply them: without statistics (a log
        // never analysed: autovacuum off, or just created) the planner takes a range bounded on
        // one side for a third of the table and scans all of it, a growing cost at every batch.
        StringBuilder sql = new StringBuilder("SELECT tx_id::text, max(position), count(*) FROM " + log + " WHERE ");
        if (at.low() != null) {
            sql.append("tx_id >= pg_snapshot_xmin(?::pg_snapshot) AND NOT pg_visible_in_snapshot(tx_id, ?::pg_snapshot) AND ");
        }
        sql.append("tx_id < pg_snapshot_xmax(?::pg_snapshot) AND pg_visible_in_snapshot(tx_id, ?::pg_snapshot) GROUP BY tx_id");
        if (at.inBatch()) sql.append(" HAVING (max(position), tx_id) > (?, ?::xid8)");
        sql.append(" ORDER BY max(position), tx_id");
        PreparedStatement ps = source.prepareStatement(sql.toString());
        int i = 0;
        if (at.low() != null) {
            ps.setString(++i, at.low());
            ps.setString(++i, at.low());
        }
        ps.setString(++i, high);
        ps.setString(++i, high);
        if (at.inBatch()) {
            ps.setLong(++i, at.lastPosition());
            ps.setString(++i, at.lastTx());
        }
        ps.setFetchSize(FETCH);
        ResultSet rs = ps.executeQuery();
        Position.Snapshot batchStart = new Position.Snapshot(at.low(), high, at.lastPosition(), at.lastTx());
        ReadAhead ahead = new ReadAhead(() -> {
            if (!rs.next()) return null;
            String tx = rs.getString(1);
            long last = rs.getLong(2);
            return new SourceTx(tx, last, batchStart.after(last, tx), rs.getLong(3));
        }, rows, source);
        return ahead.asBatch(last -> batchStart.closed(), false, () -> {
            try {
                rs.close();
                ps.close();
            } finally {
                source.commit();
            }
        });
    }

    @Override
    public <X extends Exception> long lcrs(String txId, LogRows.LcrSink<X> sink) throws SQLException, RefusedLcr, X {
        return rows.stream(source, txId, sink);
    }

    @Override
    public long storedLcrs(String txId, LogRows.StoredSink sink) throws SQLException {
        return rows.streamStored(source, txId, sink);
    }

    @Override
    public void await(long millis) throws SQLException, InterruptedException {
        if (!listening) {
            source.setReadOnly(false);
            try (Statement s = source.createStatement()) {
                s.execute("LISTEN repl_log");
            } finally {
                source.commit();
                source.setReadOnly(true);
            }
            listening = true;
        }
        PgNotifications.await(source, millis);
    }

    @Override
    public long[] lag(Position at) throws SQLException {
        Position.Snapshot s = (Position.Snapshot) at;
        StringBuilder sql = new StringBuilder("SELECT count(*), coalesce(extract(epoch FROM now() - min(first_at)), 0)"
                + " FROM (SELECT tx_id, max(position) AS last, min(created_at) AS first_at FROM " + log);
        // every committed transaction this statement sees is below its snapshot's xmax: a range bounded on both sides (see batch)
        if (s.low() != null) {
            sql.append(" WHERE tx_id >= pg_snapshot_xmin(?::pg_snapshot) AND tx_id < pg_snapshot_xmax(pg_current_snapshot())"
                    + " AND NOT pg_visible_in_snapshot(tx_id, ?::pg_snapshot)");
        }
        sql.append(" GROUP BY tx_id");
        if (s.inBatch()) sql.append(" HAVING NOT (pg_visible_in_snapshot(tx_id, ?::pg_snapshot) AND (max(position), tx_id) <= (?, ?::xid8))");
        sql.append(") t");
        try (PreparedStatement ps = source.prepareStatement(sql.toString())) {
            int i = 0;
            if (s.low() != null) {
                ps.setString(++i, s.low());
                ps.setString(++i, s.low());
            }
            if (s.inBatch()) {
                ps.setString(++i, s.high());
                ps.setLong(++i, s.lastPosition());
                ps.setString(++i, s.lastTx());
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new long[] {rs.getLong(1), (long) Math.ceil(rs.getDouble(2))};
            }
        } finally {
            source.commit();
        }
    }

    @Override
    public String mark() throws SQLException {
        try (Statement s = source.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_current_snapshot()::text")) {
            rs.next();
            return rs.getString(1);
        } finally {
            source.commit();
        }
    }

    /**
     * Every transaction visible in the mark W is visible in S1 when W's xmax is at most S1's and no
     * transaction S1 saw in progress is visible in W.
     */
    @Override
    public boolean consumed(String mark, Position at) throws SQLException {
        String low = ((Position.Snapshot) at).low();
        if (low == null) return false;
        try (PreparedStatement ps = source.prepareStatement("SELECT pg_snapshot_xmax(?::pg_snapshot) <= pg_snapshot_xmax(?::pg_snapshot)"
                + " AND NOT EXISTS (SELECT 1 FROM pg_snapshot_xip(?::pg_snapshot) x WHERE pg_visible_in_snapshot(x, ?::pg_snapshot))")) {
            ps.setString(1, mark);
            ps.setString(2, low);
            ps.setString(3, low);
            ps.setString(4, mark);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        } finally {
            source.commit();
        }
    }

    @Override
    public Position subscription(Subscribers subscribers, String name) throws SQLException {
        try {
            return subscribers.position(source, name);
        } finally {
            source.commit();
        }
    }

    /**
     * The gate against a source crash losing commits this node applied (SPEC 8.8): with
     * {@code synchronous_commit=off} a commit is visible before its WAL is flushed, and a crash then
     * loses it and hands its transaction id out again. Applying only after the source's WAL is
     * flushed past the batch's commit records means a crash can lose only transactions not visible
     * in the batch snapshot S2: still in progress in it, or at or above its xmax, read in a later
     * batch whichever transaction reuses their ids. Nothing is skipped, and nothing lost is applied.
     *
     * <p>The insert position is an upper bound: what lies above the last commit record of S2 is WAL of
     * transactions still in progress, which the WAL writer leaves unflushed in a partial page until a
     * commit follows. Every commit and abort record of S2 is flushed by then: a synchronous commit
     * flushes its own record before it is visible, an asynchronous commit or abort record is flushed
     * by the WAL writer at its next round (every {@code wal_writer_delay}, woken by such a record
     * when it sleeps). So the gate waits for the bound for at most three rounds and then goes on.
     */
    @Override
    public void awaitDurable() throws SQLException {
        if (unflushed == 0) return;
        synchronized (rows.source()) {
            if (walWriterDelayMillis < 0) {
                try (Statement s = source.createStatement(); ResultSet rs = s.executeQuery(
                        "SELECT setting::bigint FROM pg_settings WHERE name = 'wal_writer_delay'")) {
                    walWriterDelayMillis = rs.next() ? rs.getLong(1) : 200;
                }
            }
            try (PreparedStatement ps = source.prepareStatement("SELECT pg_current_wal_flush_lsn() - '0/0'")) {
                awaitFlush(() -> {
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        return rs.getLong(1);
                    }
                }, unflushed, 3 * walWriterDelayMillis);
            }
        }
        unflushed = 0;
    }

    /** The source's flushed WAL position. */
    interface FlushProbe {
        long flushed() throws SQLException;
    }

    /**
     * Polls {@code probe}, with pauses of 1 ms doubling up to 20 ms, until it reaches {@code target}
     * (true) or {@code maxMillis} have passed (false).
     */
    static boolean awaitFlush(FlushProbe probe, long target, long maxMillis) throws SQLException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(maxMillis);
        long pause = 1;
        while (probe.flushed() < target) {
            if (System.nanoTime() > deadline) return false;
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw SqlState.ADMIN_SHUTDOWN.exception("Interrupted while waiting for the source's WAL flush", e);
            }
            pause = Math.min(pause * 2, 20);
        }
        return true;
    }

    @Override
    public boolean subscribe(Subscribers subscribers, String name, Position at) throws SQLException {
        source.setReadOnly(false);
        try {
            boolean dropped = subscribers.upsert(source, name, at);
            source.commit();
            return dropped;
        } catch (SQLException e) {
            source.rollback();
            throw e;
        } finally {
            source.setReadOnly(true);
        }
    }

    @Override
    public void checkSubscribe(Subscribers subscribers) throws SQLException {
        source.setReadOnly(false);
        try {
            subscribers.checkWrite(source);
        } finally {
            source.rollback();
            source.setReadOnly(true);
        }
    }

    @Override
    public String user() {
        return Subscribers.user(source);
    }

    @Override
    public void close() {
        try {
            source.close();
        } catch (SQLException ignored) {
            // the connection is gone already
        }
    }
}
