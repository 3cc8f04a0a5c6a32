package io.jdbcrepl.api;

/**
 * How far a join's copy of one table is ({@link ReplAdmin#join}).
 *
 * @param table         the table, as named on the joining node
 * @param rows          rows copied so far
 * @param total         rows the donor's snapshot holds
 * @param rowsPerSecond the copy's rate so far
 * @param done          the table is copied
 */
public record JoinProgress(String table, long rows, long total, double rowsPerSecond, boolean done) {

    /** Seconds until the table is copied at the rate so far; -1 when unknown. */
    public long secondsLeft() {
        if (done) return 0;
        if (rowsPerSecond <= 0) return -1;
        return (long) Math.ceil(Math.max(0, total - rows) / rowsPerSecond);
    }
}
