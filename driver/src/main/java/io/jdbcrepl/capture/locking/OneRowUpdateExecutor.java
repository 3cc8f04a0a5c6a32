package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.RowImage;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import static io.jdbcrepl.capture.locking.LockingRun.image;

/** MariaDB: an UPDATE of at most one row by key, as one compound statement ({@link UpdatePlan.OneRow}). */
final class OneRowUpdateExecutor {

    private final LockingRun run;
    private final UpdatePlan update;

    OneRowUpdateExecutor(LockingRun run, UpdatePlan update) {
        this.run = run;
        this.update = update;
    }

    long run() throws SQLException {
        TableInfo table = update.table();
        List<String> key = table.key();
        PlannedSql sql = run.ownTransaction() ? update.oneRow().beginning() : update.oneRow().inTransaction();
        boolean several = false;
        try (PreparedStatement ps = run.prepare(sql, List.of())) {
            boolean results = ps.execute();
            RowImage old = null;
            try (ResultSet rs = results ? ps.getResultSet() : null) {
                if (rs == null) throw SqlState.INTERNAL_ERROR.exception(
                        "The locking read of " + table.qualifiedName() + " returned nothing");
                if (rs.next()) {
                    old = run.read(rs, 1, key);
                    run.read(rs, 1 + key.size(), update.otherOldColumns()).asMap().forEach(old::put);
                    several = rs.next();
                }
            }
            if (several) {
                while (ps.getMoreResults() || ps.getUpdateCount() != -1) { } // the block's end; it changed nothing
            } else if (old == null) {
                return 0;
            } else {
                return changeOne(ps, old);
            }
        } catch (SQLException | RuntimeException e) {
            // The compound statement undid its UPDATE when a later step failed; only a failure here,
            // after it returned, leaves a change without its LCR.
            run.undo().failed(e);
            throw e;
        }
        // A substitute key that is not unique: the rows are locked, the general steps change them.
        return new UpdateExecutor(run, update).run();
    }

    /** The one-row statement's second result (it changed the row): its update count and the new values. */
    private long changeOne(PreparedStatement ps, RowImage old) throws SQLException {
        TableInfo table = update.table();
        run.undo().changed();
        if (!ps.getMoreResults()) {
            throw SqlState.INTERNAL_ERROR.exception("Capture could not read back the row of " + table.qualifiedName()
                    + " after updating it");
        }
        try (ResultSet rs = ps.getResultSet()) {
            if (!rs.next()) {
                throw SqlState.INTERNAL_ERROR.exception("Capture could not read back the row of " + table.qualifiedName()
                        + " after updating it");
            }
            long count = rs.getLong(1);
            RowImage after = run.read(rs, 2 + table.key().size(), update.logged().newColumns());
            if (!LockedRows.unchangedByIgnore(update, old, after)) {
                run.logChange(image(old, update.logged().oldColumns()), after);
            }
            run.endStatement();
            return count;
        }
    }
}
