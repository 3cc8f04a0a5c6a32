package io.jdbcrepl.apply;

import io.jdbcrepl.api.ConflictType;
import io.jdbcrepl.conflict.Resolution;

import java.util.List;

/**
 * Applying one LCR of a source transaction failed for a reason that retrying will not cure: the
 * transaction goes to the error queue. {@code number} is the failing LCR, 1-based.
 */
final class ApplyFailure extends Exception {

    final long number;
    /** {@code repl_error.error_code}: the SQLState, or the conflict's type for an unresolved conflict. */
    final String code;
    /** The type of the unresolved conflict that failed the LCR, else null. */
    final ConflictType conflict;
    /** The repl_conflict rows of an unresolved conflict, written when a custom error handler takes it over. */
    final List<Resolution.ConflictHistory> history;
    /** A reason without row values, for the log at WARN/ERROR (SPEC 8.8); null when only the code says it there. */
    final String summary;

    ApplyFailure(long number, String code, String message, Throwable cause) {
        this(number, code, message, cause, List.of());
    }

    /** An unresolved conflict: its type is the code. */
    static ApplyFailure conflict(long number, ConflictType type, String message, Throwable cause,
            List<Resolution.ConflictHistory> history) {
        return new ApplyFailure(number, type.name(), type, message, cause, history, null);
    }

    /** A failure whose message carries no row values: the log shows it whole. */
    static ApplyFailure valueFree(long number, String code, String message) {
        return new ApplyFailure(number, code, null, message, null, List.of(), message);
    }

    ApplyFailure(long number, String code, String message, Throwable cause, List<Resolution.ConflictHistory> history) {
        this(number, code, null, message, cause, history, null);
    }

    private ApplyFailure(long number, String code, ConflictType conflict, String message, Throwable cause,
            List<Resolution.ConflictHistory> history, String summary) {
        super(message, cause);
        this.summary = summary;
        this.number = number;
        this.code = code;
        this.conflict = conflict;
        this.history = List.copyOf(history);
    }
}
