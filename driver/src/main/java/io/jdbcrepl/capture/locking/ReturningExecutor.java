package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.DeltaTableRows;
import io.jdbcrepl.intercept.GeneratedKeys;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.CommandType;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.node.Node;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static io.jdbcrepl.capture.locking.LockingRun.image;

/**
 * An INSERT or DELETE that returns the rows it changed ({@link ReturningPlan}: MariaDB's
 * {@code RETURNING}, H2's delta tables): an LCR per row returned, the generated keys of an INSERT,
 * and the application's own RETURNING columns, when it has some, as its result.
 */
final class ReturningExecutor {

    private final LockingRun run;
    private final ReturningPlan returning;
    private final Node node;
    /** The rows of the application's own RETURNING, once run (null when it has none). */
    private ResultSet applicationRows;

    ReturningExecutor(LockingRun run, ReturningPlan returning, Node node) {
        this.run = run;
        this.returning = returning;
        this.node = node;
    }

    long run(GeneratedKeys keys, GeneratedKeyRows keyRows) throws SQLException {
        List<List<TypedValue>> rows = new ArrayList<>();
        int autoIncrementColumn = -1;
        long count = 0;
        int own = returning.applicationColumns();
        if (run.capabilities().keepsFailedChanges()) run.undo().savepoint();
        PreparedStatement ps = run.prepare(returning.sql(), List.of(), own > 0);
        // The application's rows are read twice: held; else streamed (an INSERT … SELECT may return millions)
        boolean streamed = own == 0 && run.capabilities().streamsResults();
        try {
            if (streamed) run.stream(ps);
            ResultSet rs = LockingRun.resultOf(ps);
            // Streamed, a failure can still come with a later row; the server has then undone the statement
            if (!streamed) run.undo().changed();
            for (int i = 1; i <= returning.columns().size(); i++) {
                if (autoIncrementColumn < 0 && rs.getMetaData().isAutoIncrement(own + i)) autoIncrementColumn = i;
            }
            while (rs.next()) {
                RowImage row = run.read(rs, own + 1, returning.columns());
                count++;
                if (returning.command() == CommandType.INSERT) run.logChange(null, image(row, returning.logged().newColumns()));
                else run.logChange(image(row, returning.logged().oldColumns()), null);
                if (keys.requested()) rows.add(new ArrayList<>(row.asMap().values()));
            }
            if (streamed) {
                rs.close();
                run.undo().changed();
                run.log().endReading();
            }
            refuseLostRows(count);
            run.endStatement();
            if (own > 0) {
                // The application's rows: read again from the start, its columns only
                rs.beforeFirst();
                ps.closeOnCompletion();
                applicationRows = LeadingColumnsResultSet.of(rs, own);
            }
        } catch (SQLException | RuntimeException e) {
            ps.close();
            run.undo().failed(e);
            throw e;
        } finally {
            run.log().close();
        }
        if (own == 0) ps.close();
        if (keys.requested() && returning.command() == CommandType.INSERT) keyRows.add(rows, autoIncrementColumn);
        return count;
    }

    /** The rows of the application's own RETURNING, positioned before the first (null when it has none). */
    ResultSet applicationRows() {
        return applicationRows;
    }

    /** H2: a statement that changed more rows than a delta table returns whole is undone (see {@link io.jdbcrepl.capture.locking.LockingCapabilities}). */
    private void refuseLostRows(long count) throws SQLException {
        long whole = run.capabilities().deltaTableRowLimit() ? deltaTableRows(node, run.connection()) : Long.MAX_VALUE;
        if (count > whole) {
            throw SqlState.REFUSED.exception(returning.command() + " on " + returning.table().qualifiedName() + " changed " + count
                    + " rows or more through H2's data change delta table, more than its MAX_MEMORY_ROWS ("
                    + whole + "): H2 2.4 loses rows of such a result, so the statement is undone; change"
                    + " fewer rows per statement or raise MAX_MEMORY_ROWS");
        }
    }

    /** The most rows a query over a data change delta table returns whole, kept per node. */
    private static final class DeltaTableRowLimit {
        private volatile long limit = -1;
    }

    /** The most rows a query over a data change delta table returns whole (see {@link DeltaTableRows}), read once per node. */
    private static long deltaTableRows(Node node, Connection connection) throws SQLException {
        DeltaTableRowLimit known = node.attachment(DeltaTableRowLimit.class, DeltaTableRowLimit::new);
        long limit = known.limit;
        if (limit >= 0) return limit;
        limit = node.dialect().part(DeltaTableRows.class).limit(connection, node.config().delegateUrl());
        known.limit = limit;
        return limit;
    }
}
