package io.jdbcrepl.log;

/**
 * One committed source transaction as the reader found it: its id, the position of its last LCR,
 * the consumer's position once it is applied (or queued), and its number of LCRs.
 */
public record SourceTx(String txId, long lastPosition, Position after, long lcrCount) {
}
