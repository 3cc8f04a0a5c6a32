package io.jdbcrepl.log;

import io.jdbcrepl.intercept.SqlState;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Commit order on a MariaDB/MySQL or H2 source (SPEC 4.1): capture stamps each committing
 * transaction in {@code repl_tx} with the epoch of {@code repl_epoch}, read under a lock held to
 * commit. Closing an epoch ({@code UPDATE repl_epoch SET epoch = epoch + 1}) waits for those
 * commits, so every transaction of an older epoch is committed: reading closed epochs in
 * (epoch, last position, tx id) order, keyset-paged, never skips one.
 */
public final class EpochSourceReader implements SourceReader {

    private final Connection source;
    private final EpochSourceReaders database;
    private final LogRows rows;
    private final String txTable;
    private final String epochTable;
    private final String logTable;
    private final int page;
    private long closed = -1; // every transaction with an epoch below this one is committed
    private boolean drained = true;

    EpochSourceReader(Connection source, EpochSourceReaders database, ChangeLogSchema schema, int page,
            io.jdbcrepl.config.LogSignature signature) throws SQLException {
        this.source = source;
        this.database = database;
        this.rows = new LogRows(schema, signature);
        this.txTable = schema.table("repl_tx");
        this.epochTable = schema.table("repl_epoch");
        this.logTable = schema.table("repl_log");
        this.page = page;
        source.setAutoCommit(true);
        database.prepare(source);
    }

    /**
     * Closes the current epoch and returns the new one: every transaction stamped below it has committed.
     * One auto-committed statement, so that the epoch row's lock ends with it on the server: a consumer
     * whose network goes away between statements cannot leave it held and block the source's commits
     * (their stamps read the row under a shared lock). The new value is this statement's own, never a
     * later consumer's ({@link EpochSourceReaders#closeEpoch}).
     */
    private long closeEpoch() throws SQLException {
        try {
            return closeEpochAs();
        } catch (SQLException e) {
            if (!Grants.denied(e)) throw e;
            // inherent: only a write waits for the commits stamped with the epoch (no binlog access needed)
            throw new SQLException("user " + user() + " may not close an epoch of the source's log, which reading it"
                    + " in commit order needs: GRANT SELECT, UPDATE ON " + epochTable + " to it (see install --grants): "
                    + e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
        }
    }

    private long closeEpochAs() throws SQLException {
        try (Statement s = source.createStatement()) {
            long epoch = database.closeEpoch(s, epochTable);
            if (epoch == 0) {
                throw SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE.exception("repl_epoch has no row with id 1 in " + epochTable);
            }
            return epoch;
        }
    }

    /** (epoch, last_position, tx_id) > (?, ?, ?), spelled out so that the (epoch, last_position) index serves it. */
    static String after() {
        return "(epoch > ? OR (epoch = ? AND (last_position > ? OR (last_position = ? AND tx_id > ?))))";
    }

    static int bindAfter(PreparedStatement ps, int i, Position.Epoch at) throws SQLException {
        ps.setLong(++i, at.epoch());
        ps.setLong(++i, at.epoch());
        ps.setLong(++i, at.lastPosition());
        ps.setLong(++i, at.lastPosition());
        ps.setString(++i, at.txId());
        return i;
    }

    @Override
    public Batch batch(Position from) throws SQLException {
        Position.Epoch at = (Position.Epoch) from;
        if (drained || closed < 0) { // once per poll; a full page reads on in the same epoch
            closed = closeEpoch();
            String rewound = Rewind.check(at, Long.toString(closed));
            if (rewound != null) throw new Rewind.Detected(rewound);
        }
        Deque<SourceTx> txs = new ArrayDeque<>();
        try (PreparedStatement ps = source.prepareStatement("SELECT tx_id, epoch, last_position, (SELECT count(*) FROM "
                + logTable + " l WHERE l.tx_id = " + txTable + ".tx_id) FROM " + txTable
                + " WHERE epoch < ? AND " + after() + " ORDER BY epoch, last_position, tx_id"
                + database.firstRows(page))) {
            ps.setLong(1, closed);
            bindAfter(ps, 1, at);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String tx = rs.getString(1);
                    long epoch = rs.getLong(2);
                    long last = rs.getLong(3);
                    txs.add(new SourceTx(tx, last, new Position.Epoch(epoch, last, tx), rs.getLong(4)));
                }
            }
        }
        boolean full = txs.size() == page;
        drained = !full;
        return new ReadAhead(txs::poll, rows, source).asBatch(last -> last, full, () -> { });
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
    public void await(long millis) throws InterruptedException {
        Thread.sleep(millis);
    }

    @Override
    public long[] lag(Position at) throws SQLException {
        try (PreparedStatement ps = source.prepareStatement("SELECT count(*), min(committed_at), CURRENT_TIMESTAMP(6) FROM "
                + txTable + " WHERE " + after())) {
            bindAfter(ps, 0, (Position.Epoch) at);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                Timestamp oldest = rs.getTimestamp(2);
                Timestamp now = rs.getTimestamp(3);
                long seconds = oldest == null ? 0 : Math.max(0, (now.getTime() - oldest.getTime() + 999) / 1000);
                return new long[] {rs.getLong(1), seconds};
            }
        }
    }

    @Override
    public String mark() throws SQLException {
        return Long.toString(closeEpoch());
    }

    @Override
    public boolean consumed(String mark, Position at) throws SQLException {
        try (PreparedStatement ps = source.prepareStatement("SELECT count(*) FROM " + txTable + " WHERE epoch < ? AND " + after())) {
            ps.setLong(1, Long.parseLong(mark));
            bindAfter(ps, 1, (Position.Epoch) at);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) == 0;
            }
        }
    }

    @Override
    public Position subscription(Subscribers subscribers, String name) throws SQLException {
        return subscribers.position(source, name);
    }

    /**
     * Nothing to wait for: MariaDB/MySQL tell no flushed log position over SQL. With
     * {@code innodb_flush_log_at_trx_commit} 0 or 2 a crash of the source can lose commits applied
     * here; recovery keeps a prefix of the redo log, so {@code repl_epoch} is then back at or below
     * the epoch of the lost transactions, which {@link Rewind#check} detects at the next close.
     */
    @Override
    public void awaitDurable() {
    }

    @Override
    public boolean subscribe(Subscribers subscribers, String name, Position at) throws SQLException {
        return subscribers.upsert(source, name, at);
    }

    @Override
    public void checkSubscribe(Subscribers subscribers) throws SQLException {
        subscribers.checkWrite(source); // auto-commit: statements that match no row
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
