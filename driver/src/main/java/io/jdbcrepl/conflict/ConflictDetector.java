package io.jdbcrepl.conflict;

import io.jdbcrepl.api.Conflict;
import io.jdbcrepl.api.ConflictKind;
import io.jdbcrepl.api.ConflictType;
import io.jdbcrepl.api.DmlOperation;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.RowLcr;
import io.jdbcrepl.lcr.TypedValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * SPEC 5.1: whether an LCR conflicts with the destination's row, found by the apply side by the
 * LCR's key (the old key for UPDATE and DELETE, the new key for INSERT), and how.
 *
 * <ul>
 *   <li>UPDATE, row there: compared are the columns of the LCR's old values minus
 *       {@code repl.nocompare}, the key always; any that differs from the current value is an
 *       update conflict (UPDATE, ROW_EXISTS) on those columns.
 *   <li>UPDATE or DELETE, row not there: a delete conflict (ROW_MISSING).
 *   <li>DELETE, row there: compared as for UPDATE; a difference is DELETE, ROW_EXISTS.
 *   <li>INSERT, row there: a uniqueness conflict (INSERT, ROW_EXISTS) whose columns are those of
 *       the LCR that differ from the existing row (every column of the LCR, nocompare does not
 *       apply: the insert would lose them). The apply side finds a row taken by another unique
 *       constraint from the SQLState and calls {@link #uniqueness} with {@code onKey=false}.
 *   <li>Foreign keys: {@link #foreignKey}, called by the apply side on SQLState 23503 (PostgreSQL)
 *       or 1452/1451 (MariaDB, H2 23506/23503).
 * </ul>
 *
 * A destination column the LCR has no value for is not compared; an LCR column the destination
 * row lacks is not compared either (applying the LCR will then fail on its own).
 */
public final class ConflictDetector {

    private ConflictDetector() {}

    /**
     * @param lcr the LCR to apply
     * @param current the destination's row found by the LCR's key (every column), or null
     * @param table the table's key, nocompare and CHAR columns
     * @return the conflict, or empty when the LCR applies cleanly
     */
    public static Optional<Conflict> detect(RowLcr lcr, RowImage current, TableSettings table) {
        DmlOperation op = DmlOperation.valueOf(lcr.commandType().name());
        if (op == DmlOperation.INSERT) {
            return current == null ? Optional.empty() : Optional.of(uniqueness(lcr, current, table, true));
        }
        if (current == null) {
            return Optional.of(new Conflict(op, ConflictType.ROW_MISSING, ConflictKind.DELETE, List.of(), null, false,
                    null));
        }
        List<String> differing = new ArrayList<>();
        for (var e : lcr.oldValues().asMap().entrySet()) {
            if (table.compared(e.getKey()) && differs(e.getKey(), e.getValue(), current, table)) {
                differing.add(e.getKey());
            }
        }
        if (differing.isEmpty()) {
            return Optional.empty();
        }
        ConflictKind kind = op == DmlOperation.UPDATE ? ConflictKind.UPDATE : ConflictKind.DELETE;
        return Optional.of(new Conflict(op, ConflictType.ROW_EXISTS, kind, differing, current, false, null));
    }

    /**
     * A uniqueness conflict of an INSERT LCR with an existing row.
     *
     * @param onKey true when the existing row has the LCR's key, false when it holds another unique
     *     value of the LCR
     */
    public static Conflict uniqueness(RowLcr lcr, RowImage existing, TableSettings table, boolean onKey) {
        List<String> differing = new ArrayList<>();
        for (String column : lcr.columns()) {
            if (differs(column, lcr.value(column), existing, table)) {
                differing.add(column);
            }
        }
        return new Conflict(DmlOperation.INSERT, ConflictType.ROW_EXISTS, ConflictKind.UNIQUENESS, differing, existing,
                onKey, null);
    }

    /** A foreign key conflict, with the database's SQLState and message for the history. */
    public static Conflict foreignKey(RowLcr lcr, String sqlState, String message) {
        return new Conflict(DmlOperation.valueOf(lcr.commandType().name()), ConflictType.FOREIGN_KEY, ConflictKind.FOREIGN_KEY, List.of(),
                null, false, "SQLState " + sqlState + ": " + message);
    }

    private static boolean differs(String column, TypedValue lcrValue, RowImage current, TableSettings table) {
        TypedValue now = Columns.get(current, column);
        if (now == null || lcrValue == null) {
            return false;
        }
        return table.padded(column) ? !ValueComparison.samePadded(lcrValue, now) : !ValueComparison.same(lcrValue, now);
    }
}
