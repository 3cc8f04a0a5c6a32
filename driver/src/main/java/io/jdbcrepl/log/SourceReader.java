package io.jdbcrepl.log;

import java.sql.SQLException;

/**
 * Reads one source's committed transactions in commit order, never skipping one (SPEC 4.1), and
 * each transaction's LCRs in order. One per applier, on its own connection to the source.
 */
public interface SourceReader extends AutoCloseable {

    /**
     * Starts a batch after {@code from}: the transactions it yields are, in order, the ones to apply
     * next. Returns the batch; an empty one when there is nothing new.
     */
    Batch batch(Position from) throws SQLException;

    /** Streams a transaction's LCRs in position order; {@code X}: what the sink throws. */
    <X extends Exception> long lcrs(String txId, LogRows.LcrSink<X> sink) throws SQLException, RefusedLcr, X;

    /** Streams a transaction's LCRs as stored, undecoded (for the error queue). */
    long storedLcrs(String txId, LogRows.StoredSink sink) throws SQLException;

    /** Waits up to {@code millis} for news from the source (PostgreSQL: a notification), else sleeps. */
    void await(long millis) throws SQLException, InterruptedException;

    /** The number of transactions committed at the source and not yet consumed after {@code at}, and the age in seconds of the oldest. */
    long[] lag(Position at) throws SQLException;

    /**
     * A mark taken at the source now, for {@link #consumed}: every transaction committed at the
     * source before this call is covered by the mark.
     */
    String mark() throws SQLException;

    /** Whether every transaction covered by {@code mark} is consumed at {@code at}. */
    boolean consumed(String mark, Position at) throws SQLException;

    /** The position in the consumer's row of the source's repl_subscriber, or null when it has none. */
    Position subscription(Subscribers subscribers, String name) throws SQLException;

    /**
     * Returns once every transaction the current batch covers is durable at the source, so that a
     * crash there cannot lose a transaction this node has applied (SPEC 8.8); called before each
     * local commit of a position inside or at the end of the batch.
     */
    void awaitDurable() throws SQLException;

    /** Records the consumer's position in the source's repl_subscriber (SPEC 4.5); true when it was dropped there. */
    boolean subscribe(Subscribers subscribers, String name, Position at) throws SQLException;

    /**
     * Checks, changing nothing, that this reader's user may write its row in the source's
     * repl_subscriber (statements that match no row); throws the database's refusal otherwise.
     */
    void checkSubscribe(Subscribers subscribers) throws SQLException;

    /** The user this reader reads the source as. */
    String user();

    @Override
    void close();

    /** The transactions of a batch, in apply order, read lazily. */
    interface Batch extends AutoCloseable {

        /** The next transaction, or null at the end of the batch. */
        SourceTx next() throws SQLException;

        /** The position once the whole batch is consumed. */
        Position end(Position last);

        /** Whether the batch stopped at its size limit, so that more may be waiting. */
        boolean full();

        @Override
        void close() throws SQLException;
    }
}
