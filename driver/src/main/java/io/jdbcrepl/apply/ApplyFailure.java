package io.jdbcrepl.apply;

import io.jdbcrepl.conflict.Resolution;

import java.util.List;

/**
 * Applying one LCR of a source transaction failed for a reason that retrying will not cure: the
 * transaction goes to the error queue. {@code number} is the failing LCR, 1-based.
 */
final class ApplyFailure extends Exception {

    final long number;
    final String code;
    /** The repl_conflict rows of an unresolved conflict, written when a custom error handler takes it over. */
    final List<Resolution.ConflictHistory> history;

    ApplyFailure(long number, String code, String message, Throwable cause) {
        this(number, code, message, cause, List.of());
    }

    ApplyFailure(long number, String code, String message, Throwable cause, List<Resolution.ConflictHistory> history) {
        super(message, cause);
        this.number = number;
        this.code = code;
        this.history = List.copyOf(history);
    }
}
