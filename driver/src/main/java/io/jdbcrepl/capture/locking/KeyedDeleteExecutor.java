package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.TypedValue;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.jdbcrepl.capture.locking.LockingRun.image;

/**
 * A DELETE as its locking read, then by key a page of the rows read at a time
 * ({@link ReturningPlan.Keyed}: H2, whose delta tables can lose rows, and MariaDB's aliased
 * {@code DELETE x FROM t x}, which takes no RETURNING). Within the application's transaction, a failing page rolls back
 * to the savepoint taken before the read, so the statement stays all or nothing.
 */
final class KeyedDeleteExecutor {

    private final LockingRun run;
    private final ReturningPlan delete;
    private final ReturningPlan.Keyed keyed;
    private final TableInfo table;

    KeyedDeleteExecutor(LockingRun run, ReturningPlan delete) {
        this.run = run;
        this.delete = delete;
        this.keyed = delete.keyed();
        this.table = delete.table();
    }

    long run() throws SQLException {
        run.undo().savepoint();
        long count = 0;
        try (PreparedStatement ps = run.prepare(keyed.lockingRead(), List.of()); ResultSet rs = ps.executeQuery()) {
            List<RowImage> page = new ArrayList<>();
            boolean more = true;
            while (more) {
                more = rs.next();
                if (more) page.add(run.read(rs, 1, delete.columns()));
                if (page.size() == keyed.size() || !more && !page.isEmpty()) {
                    count += table.keyless() ? deleteSomeByKey(page) : deleteByKey(page);
                    page.clear();
                }
            }
            run.endStatement();
            return count;
        } catch (SQLException | RuntimeException e) {
            run.undo().failed(e);
            throw e;
        }
    }

    /** Deletes the locked rows by key and logs them; a count other than theirs fails the statement. */
    private long deleteByKey(List<RowImage> rows) throws SQLException {
        List<TypedValue> keys = new ArrayList<>();
        for (RowImage row : rows) keys.addAll(key(row));
        try (PreparedStatement ps = run.prepare(keyed.delete(rows.size()), keys)) {
            run.undo().changed();
            long n = ps.executeLargeUpdate();
            if (n != rows.size()) {
                throw SqlState.INTERNAL_ERROR.exception("DELETE on " + table.qualifiedName() + " locked " + rows.size()
                        + " rows and deleted " + n + " of them by key: the statement is undone");
            }
        }
        return logged(rows);
    }

    /**
     * A table without key: the locked rows a key at a time (identical rows share one), each key's
     * DELETE limited to as many rows as were locked with it; a count other than theirs fails the statement.
     */
    private long deleteSomeByKey(List<RowImage> rows) throws SQLException {
        Map<List<TypedValue>, Integer> byKey = new LinkedHashMap<>();
        for (RowImage row : rows) byKey.merge(key(row), 1, Integer::sum);
        for (Map.Entry<List<TypedValue>, Integer> e : byKey.entrySet()) {
            try (PreparedStatement ps = run.prepare(keyed.deleteSome(e.getValue()), e.getKey())) {
                run.undo().changed();
                long n = ps.executeLargeUpdate();
                if (n != e.getValue()) {
                    throw SqlState.INTERNAL_ERROR.exception("DELETE on " + table.qualifiedName() + " locked " + e.getValue()
                            + " identical rows and deleted " + n + " of them: the statement is undone");
                }
            }
        }
        return logged(rows);
    }

    private List<TypedValue> key(RowImage row) {
        List<TypedValue> key = new ArrayList<>();
        for (String k : table.key()) key.add(row.get(k));
        return key;
    }

    /** The LCRs of the deleted rows; their count. */
    private long logged(List<RowImage> rows) throws SQLException {
        for (RowImage row : rows) run.logChange(image(row, delete.logged().oldColumns()), null);
        return rows.size();
    }
}
