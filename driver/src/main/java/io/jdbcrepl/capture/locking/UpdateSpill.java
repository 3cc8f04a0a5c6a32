package io.jdbcrepl.capture.locking;

import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.lcr.ValueType;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of an UPDATE held in a temporary table on the server ({@link UpdatePlan.Spill}): filled
 * by the locking read, changed and read back a page at a time; the table is cleared however it ends.
 */
final class UpdateSpill {

    private final LockingRun run;
    private final UpdatePlan update;
    private final LockedRows locked;

    UpdateSpill(LockingRun run, UpdatePlan update, LockedRows locked) {
        this.run = run;
        this.update = update;
        this.locked = locked;
    }

    long run() throws SQLException {
        UpdatePlan.Spill spill = update.spill();
        long count = 0;
        try {
            for (PlannedSql fill : spill.fill()) {
                try (PreparedStatement ps = run.prepare(fill, List.of())) {
                    ps.executeLargeUpdate();
                }
            }
            if (spill.wholeUpdate() != null) {
                try (PreparedStatement ps = run.prepare(spill.wholeUpdate(), List.of())) {
                    run.undo().changed();
                    count = ps.executeLargeUpdate();
                }
            }
            TypedValue position = position(0);
            while (true) {
                List<LockedRows.Locked> rows = new ArrayList<>();
                try (PreparedStatement ps = run.prepare(spill.page(), List.of(position)); ResultSet rs = ps.executeQuery()) {
                    int last = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        rows.add(locked.locked(rs));
                        position = position(rs.getLong(last));
                    }
                }
                if (rows.isEmpty()) break;
                if (spill.wholeUpdate() != null) locked.readBackAndLog(rows);
                else count += locked.changeAndLog(rows);
                if (rows.size() < update.pageSize()) break;
            }
            return count;
        } finally {
            clear(spill.clear());
        }
    }

    /** Ends the use of the temporary table, however the statement ended. */
    private void clear(String clear) {
        try {
            LockingStatementCapture.execute(run.connection(), clear);
        } catch (SQLException e) {
            // The connection failed too: the session's table goes with it
        }
    }

    private static TypedValue position(long p) {
        return new TypedValue(ValueType.INTEGER, p);
    }
}
