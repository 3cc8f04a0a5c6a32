package io.jdbcrepl.log;

/**
 * An LCR of a source's log that is not read: its signature does not hold (repl.log.key, SPEC 8.7)
 * or it cannot be decoded. The apply side sends its transaction to the error queue instead of
 * stopping (SPEC 8.8). {@code number} is the LCR, 1-based in its transaction.
 */
public final class RefusedLcr extends Exception {

    private final long number;

    RefusedLcr(long number, String message, Throwable cause) {
        super(message, cause);
        this.number = number;
    }

    public long number() {
        return number;
    }
}
