package io.jdbcrepl.log;

import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.RowLcr;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A batch's transactions taken a window at a time, with the LCRs of the window's small
 * transactions read in one query ({@link LogRows#readAhead}); a large transaction closes the window
 * and is streamed on its own. While the applier applies a window of small transactions, the next
 * window is read on another thread, so that reading the source and parsing its LCRs overlap with
 * the local writes. The source connection is used by one thread at a time ({@link LogRows#source}).
 * Memory stays bounded by about three times {@link LogRows#READ_AHEAD_LCRS}.
 */
public final class ReadAhead implements AutoCloseable {

    private static final int MAX_TRANSACTIONS = 500;

    /** An idle worker ends after this: a node whose apply side stopped keeps no thread for long. */
    private static final long IDLE_WORKER_MILLIS = 1_000;
    /** Shared by the appliers of this JVM; replaced when the driver shuts down ({@link #shutdownReaders}). */
    private static volatile ExecutorService readers = newReaders();

    private static ExecutorService newReaders() {
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, IDLE_WORKER_MILLIS, TimeUnit.MILLISECONDS,
                new SynchronousQueue<>(), r -> {
                    Thread t = new Thread(r, "jdbc-repl-read-ahead");
                    t.setDaemon(true);
                    return t;
                });
    }

    /** Ends the workers (the driver shuts down); windows being read finish first, a second at most is waited for. */
    public static void shutdownReaders() {
        ExecutorService old = readers;
        readers = newReaders();
        old.shutdown();
        try {
            old.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public interface Rows {
        /** The next transaction of the batch, or null at its end. */
        SourceTx next() throws SQLException;
    }

    /** Transactions in order, the LCRs read ahead for them, and whether the batch ends after them. */
    private record Window(ArrayDeque<SourceTx> txs, Map<String, List<RowLcr>> lcrs, boolean ended, boolean endsLarge) {
    }

    private final Rows rows;
    private final LogRows log;
    private final Connection source;
    private Window current;
    private Future<Window> next;

    public ReadAhead(Rows rows, LogRows log, Connection source) {
        this.rows = rows;
        this.log = log;
        this.source = source;
    }

    SourceTx next() throws SQLException {
        while (current == null || current.txs().isEmpty()) {
            if (current != null && current.ended()) return null;
            current = next != null ? await() : fill();
            log.use(current.lcrs());
            // A window ending in a large transaction streams it from the source: read on after it.
            if (!current.ended() && !current.endsLarge()) next = readers.submit(this::fill);
        }
        return current.txs().poll();
    }

    private Window await() throws SQLException {
        Future<Window> f = next;
        next = null;
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw SqlState.ADMIN_SHUTDOWN.exception("Interrupted while reading the source's log ahead", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException s) throw s;
            throw SqlState.SYSTEM_ERROR.exception("Reading the source's log ahead failed: " + e.getCause(), e.getCause());
        }
    }

    private Window fill() throws SQLException {
        synchronized (log.source()) {
            ArrayDeque<SourceTx> window = new ArrayDeque<>();
            List<String> small = new ArrayList<>();
            long lcrs = 0;
            boolean ended = false;
            boolean large = false;
            while (window.size() < MAX_TRANSACTIONS) {
                SourceTx tx = rows.next();
                if (tx == null) {
                    ended = true;
                    break;
                }
                window.add(tx);
                if (tx.lcrCount() > LogRows.READ_AHEAD_LCRS) {
                    large = true;
                    break;
                }
                small.add(tx.txId());
                lcrs += tx.lcrCount();
                if (lcrs >= LogRows.READ_AHEAD_LCRS) break;
            }
            return new Window(window, log.readAhead(source, small), ended, large);
        }
    }

    /** What a reader does once a batch is closed and no window is being read any more. */
    public interface Release {
        void run() throws SQLException;
    }

    /**
     * The batch of these transactions: its position at the end is {@code end} of the last one
     * consumed; closing it waits for a window still being read (it uses the connection), then
     * runs {@code release}.
     */
    public SourceReader.Batch asBatch(java.util.function.UnaryOperator<Position> end, boolean full, Release release) {
        return new SourceReader.Batch() {
            @Override
            public SourceTx next() throws SQLException {
                return ReadAhead.this.next();
            }

            @Override
            public Position end(Position last) {
                return end.apply(last);
            }

            @Override
            public boolean full() {
                return full;
            }

            @Override
            public void close() throws SQLException {
                ReadAhead.this.close();
                release.run();
            }
        };
    }

    /** Waits for a window still being read (the batch's source transaction ends after this). */
    @Override
    public void close() {
        if (next == null) return;
        try {
            next.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException ignored) {
            // the batch is being closed: nothing of it is used any more
        }
        next = null;
    }
}
