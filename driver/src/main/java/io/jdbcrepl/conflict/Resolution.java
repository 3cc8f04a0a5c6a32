package io.jdbcrepl.conflict;

import io.jdbcrepl.api.Conflict;
import io.jdbcrepl.api.ConflictKind;
import io.jdbcrepl.api.ConflictType;
import io.jdbcrepl.api.DmlOperation;
import io.jdbcrepl.config.HandlerType;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.RowLcr;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What to do with an LCR that conflicts, decided by {@link ConflictResolver}; the apply side
 * executes it without further thought:
 *
 * <ul>
 *   <li>{@link Action#UPDATE}: {@code UPDATE table SET <values> WHERE <key>} (also an INSERT
 *       turned into an update of the existing row). {@code values} holds only columns whose value
 *       changes; it is never empty.
 *   <li>{@link Action#INSERT}: {@code INSERT INTO table (<values>)} (an UPDATE of a missing row
 *       under OVERWRITE); {@code key} is the new row's key.
 *   <li>{@link Action#DELETE}: {@code DELETE FROM table WHERE <key>} (DELETE/ROW_EXISTS
 *       OVERWRITE).
 *   <li>{@link Action#DISCARD}: no change to the table; the LCR counts as applied.
 *   <li>{@link Action#UNRESOLVED}: the prebuilt handlers could not resolve it; next come the error
 *       handler (SPEC 5.4) and then the error queue. {@code reason} is one line naming the
 *       table, key, columns and values, fit for the log and {@code repl_error.error_message}.
 * </ul>
 *
 * Whatever the action, {@link #records} lists the LCRs to write to the error queue as entries of
 * their own (RECORD handlers; empty when unresolved, since the whole transaction goes there),
 * and {@link #history} gives the rows for {@code repl_conflict}, one per column list involved.
 * Column names are the destination row's spelling where it has the column. Values are the
 * LCR's own TypedValues or, for DELTA, a value of the destination column's type.
 *
 * @param action what to do
 * @param key the key columns' values identifying the row (UPDATE, DELETE: the row found; INSERT:
 *     the new row's); empty for DISCARD and UNRESOLVED
 * @param values the columns to set (UPDATE) or the whole row to insert (INSERT); else empty
 * @param reason why it is unresolved, else null
 * @param handlersTried names of the prebuilt handlers that were called (UNRESOLVED included)
 * @param records the RECORD entries to write
 * @param outcomes what each column list's handler did
 * @param conflict the conflict resolved
 * @param lcr the LCR
 */
public record Resolution(Action action, RowImage key, RowImage values, String reason, List<String> handlersTried,
        List<RecordEntry> records, List<HandlerOutcome> outcomes, Conflict conflict, RowLcr lcr) {

    public Resolution {
        Objects.requireNonNull(action, "action");
        handlersTried = List.copyOf(handlersTried);
        records = List.copyOf(records);
        outcomes = List.copyOf(outcomes);
        if ((action == Action.UNRESOLVED) != (reason != null)) {
            throw new IllegalArgumentException("exactly an unresolved conflict has a reason");
        }
    }

    /** The decision. */
    public enum Action {
        UPDATE, INSERT, DELETE, DISCARD, UNRESOLVED
    }

    /** What one column list's handler did with its columns. */
    public enum Outcome {
        /** The list's columns take the LCR's values (OVERWRITE, MAXIMUM/MINIMUM won; a delete done). */
        LCR_APPLIED,
        /** The list's columns keep the destination's values (IGNORE, DISCARD, MAXIMUM/MINIMUM lost). */
        DESTINATION_KEPT,
        /** DELTA: destination + (new - old). */
        DELTA_APPLIED,
        /** RECORD: destination kept, the LCR written to the error queue as an entry of its own. */
        RECORDED,
        /** The handler could not resolve (missing or NULL values, equal resolution values...). */
        FAILED,
        /** Conflicting columns in no handler's list (or a conflict no prebuilt handler takes). */
        NO_HANDLER,
        /**
         * Resolved, but its source transaction failed later and was rolled back into the error
         * queue (written by the apply side; the detail names the entry and the outcome it had).
         */
        ROLLED_BACK
    }

    /**
     * One handler's part.
     *
     * @param handler the handler's name, null for {@link Outcome#NO_HANDLER}
     * @param type its type, null for {@link Outcome#NO_HANDLER}
     * @param columns the conflicting columns it was called for
     * @param outcome what it did
     * @param detail why it failed, else null
     */
    public record HandlerOutcome(String handler, HandlerType type, List<String> columns, Outcome outcome,
            String detail) {
        public HandlerOutcome {
            columns = List.copyOf(columns);
        }
    }

    /**
     * An LCR a RECORD handler puts in the error queue, as an entry of its own ({@code repl_error}
     * with one {@code repl_error_lcr}; {@code error_code} = the conflict type).
     *
     * @param lcr the LCR as received
     * @param handlers the RECORD handlers that asked for it
     * @param message for {@code repl_error.error_message}
     */
    public record RecordEntry(RowLcr lcr, List<String> handlers, String message) {
        public RecordEntry {
            handlers = List.copyOf(handlers);
        }
    }

    /**
     * One {@code repl_conflict} row (SPEC 5.5). The LCR and row images are for
     * {@link RowImage#valuesJson()}.
     */
    public record ConflictHistory(Instant time, String sourceDatabase, String sourceTransactionId,
            long sourcePosition, String schema, String table, RowImage key, DmlOperation operation, ConflictType conflictType,
            ConflictKind kind, List<String> conflictingColumns, String handlerName, HandlerType handlerType,
            Outcome outcome, String detail, RowImage lcrOldValues, RowImage lcrNewValues,
            RowImage destinationBefore) {
        public ConflictHistory {
            conflictingColumns = List.copyOf(conflictingColumns);
        }
    }

    /** The {@code repl_conflict} rows for this conflict, one per handler outcome, stamped {@code time}. */
    public List<ConflictHistory> history(Instant time, TableSettings table) {
        List<ConflictHistory> out = new ArrayList<>();
        RowImage rowKey = ConflictResolver.keyOf(lcr, conflict, table);
        for (HandlerOutcome o : outcomes) {
            out.add(new ConflictHistory(time, lcr.sourceDatabase(), lcr.transactionId(), lcr.position(),
                    table.schema(), table.table(), rowKey, conflict.operation(),
                    historyType(conflict), conflict.kind(), o.columns(), o.handler(),
                    o.type(), o.outcome(), o.detail() != null ? o.detail() : reason, lcr.oldValues(), lcr.newValues(),
                    conflict.currentRow()));
        }
        return out;
    }

    /** {@code repl_conflict.conflict_type}: a prebuilt handler's type; NULL for a foreign key (its kind says it). */
    private static ConflictType historyType(Conflict conflict) {
        return conflict.type().isPrebuiltConflict() ? conflict.type() : null;
    }

    public boolean resolved() {
        return action != Action.UNRESOLVED;
    }
}
