package io.jdbcrepl.api;

import io.jdbcrepl.lcr.RowLcr;
import java.time.Instant;
import java.util.List;

/**
 * One entry of a node's error queue (SPEC 5.5, {@code repl_error}): a failed source transaction or
 * an LCR a RECORD handler recorded.
 *
 * @param lcrs the entry's LCRs in order ({@code repl_error_lcr}); empty in a listing
 */
public record ErrorEntry(long id, String sourceDatabase, String sourceTransactionId, long sourcePosition,
        int messageNumber, int messageCount, String errorCode, String errorMessage, Instant createdAt,
        List<RowLcr> lcrs) {

    public ErrorEntry {
        lcrs = List.copyOf(lcrs);
    }
}
