package io.jdbcrepl.capture.locking;

import io.jdbcrepl.lcr.TypedValue;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * An UPDATE ({@link UpdatePlan}): a locking read of the rows it changes, a page at a time when
 * paged, then each page changed by key, read back and logged ({@link LockedRows}); a statement
 * with more rows than a page and no paging goes through a temporary table ({@link UpdateSpill}).
 */
final class UpdateExecutor {

    private final LockingRun run;
    private final UpdatePlan update;
    private final LockedRows locked;

    UpdateExecutor(LockingRun run, UpdatePlan update) {
        this.run = run;
        this.update = update;
        this.locked = new LockedRows(run, update);
    }

    long run() throws SQLException {
        List<TypedValue> lastKey = null;
        List<TypedValue> end = null;
        long count = 0;
        try {
            while (true) {
                // A statement that may spill reads one row more than a page: if it is there, the rows go to the server
                int maxRows = update.spill() == null ? 0 : update.pageSize() + 1;
                List<LockedRows.Locked> rows = lockingRead(lastKey, end, maxRows);
                if (maxRows > 0 && rows.size() == maxRows) {
                    run.undo().savepoint();
                    count = new UpdateSpill(run, update, locked).run();
                    break;
                }
                if (rows.isEmpty()) break;
                boolean morePages = update.paged() && rows.size() == update.pageSize();
                if (lastKey == null && (morePages || update.keyAssigned() || update.table().keyless())) {
                    // Several steps change rows: a failure must undo them all, as the statement's would.
                    run.undo().savepoint();
                }
                if (morePages && end == null) {
                    end = lastRow();
                    morePages = end != null;
                }
                count += locked.changeAndLog(rows);
                if (!morePages) break;
                lastKey = rows.get(rows.size() - 1).key();
            }
            run.endStatement();
            return count;
        } catch (SQLException | RuntimeException e) {
            run.undo().failed(e);
            throw e;
        }
    }

    /** The key of the last row a paged statement goes to, locked; null when no row is left. */
    private List<TypedValue> lastRow() throws SQLException {
        try (PreparedStatement ps = run.prepare(update.lastRowRead(), List.of()); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? new ArrayList<>(run.read(rs, 1, update.table().key()).asMap().values()) : null;
        }
    }

    /** @param maxRows at most this many rows, 0 for all */
    private List<LockedRows.Locked> lockingRead(List<TypedValue> lastKey, List<TypedValue> end, int maxRows)
            throws SQLException {
        PlannedSql sql = update.lockingRead(lastKey == null);
        List<TypedValue> pageValues = lastKey == null ? List.of() : UpdatePlan.pageValues(lastKey, end);
        List<LockedRows.Locked> rows = new ArrayList<>();
        try (PreparedStatement ps = run.prepare(sql, pageValues)) {
            ps.setMaxRows(maxRows);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) rows.add(locked.locked(rs));
            }
        }
        return rows;
    }
}
