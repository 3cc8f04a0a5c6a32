package io.jdbcrepl.apply;

/**
 * Applying one LCR of a source transaction failed for a reason that retrying will not cure: the
 * transaction goes to the error queue. {@code number} is the failing LCR, 1-based.
 */
final class ApplyFailure extends Exception {

    final long number;
    final String code;

    ApplyFailure(long number, String code, String message, Throwable cause) {
        super(message, cause);
        this.number = number;
        this.code = code;
    }
}
