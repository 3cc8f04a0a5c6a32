package io.jdbcrepl.apply;

/**
 * One committed source transaction as the reader found it: its id, the position of its last LCR,
 * and the consumer's position once it is applied (or queued).
 */
record SourceTx(String txId, long lastPosition, Position after) {
}
