package io.jdbcrepl.keys;

/**
 * A sequence (or a column's own generator) as it stands: its increment and the value it hands out
 * next.
 */
public record SequenceState(long increment, long next) {
}
