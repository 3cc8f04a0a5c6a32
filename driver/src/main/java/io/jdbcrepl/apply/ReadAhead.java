package io.jdbcrepl.apply;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A batch's transactions taken a window at a time, with the LCRs of the window's small
 * transactions read in one query ({@link LogRows#readAhead}); a large transaction closes the window
 * and is streamed on its own. Memory stays bounded by about twice {@link LogRows#READ_AHEAD_LCRS}.
 */
final class ReadAhead {

    private static final int MAX_TRANSACTIONS = 500;

    interface Rows {
        /** The next transaction of the batch, or null at its end. */
        SourceTx next() throws SQLException;
    }

    private final Rows rows;
    private final LogRows log;
    private final Connection source;
    private final ArrayDeque<SourceTx> window = new ArrayDeque<>();
    private boolean ended;

    ReadAhead(Rows rows, LogRows log, Connection source) {
        this.rows = rows;
        this.log = log;
        this.source = source;
    }

    SourceTx next() throws SQLException {
        if (window.isEmpty() && !ended) fill();
        return window.poll();
    }

    private void fill() throws SQLException {
        List<String> small = new ArrayList<>();
        long lcrs = 0;
        while (window.size() < MAX_TRANSACTIONS) {
            SourceTx tx = rows.next();
            if (tx == null) {
                ended = true;
                break;
            }
            window.add(tx);
            if (tx.lcrCount() > LogRows.READ_AHEAD_LCRS) break;
            small.add(tx.txId());
            lcrs += tx.lcrCount();
            if (lcrs >= LogRows.READ_AHEAD_LCRS) break;
        }
        log.readAhead(source, small);
    }
}
