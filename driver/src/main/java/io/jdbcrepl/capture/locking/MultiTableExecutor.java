package io.jdbcrepl.capture.locking;

import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.CommandType;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.TypedValue;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.jdbcrepl.capture.locking.LockingRun.image;

/**
 * A multi-table UPDATE or DELETE ({@link MultiTablePlan}): the join's rows locked and the changed
 * tables' rows read, each once; the statement restricted to their keys; the new values (or the
 * rows still there) read back by key; the LCRs. Within the application's transaction a failure
 * after the change rolls back to the savepoint taken before it, so the statement stays all or nothing.
 */
final class MultiTableExecutor {

    private final LockingRun run;
    private final MultiTablePlan plan;

    MultiTableExecutor(LockingRun run, MultiTablePlan plan) {
        this.run = run;
        this.plan = plan;
    }

    long run() throws SQLException {
        try {
            List<Map<List<TypedValue>, RowImage>> locked = lockingRead();
            if (locked.stream().allMatch(Map::isEmpty)) { // the join matches no row: the statement changes none
                run.endStatement();
                return 0;
            }
            run.undo().savepoint();
            long count = 0;
            if (plan.pagedChange()) {
                List<List<TypedValue>> keys = new ArrayList<>(locked.get(0).keySet());
                for (int from = 0; from < keys.size(); from += plan.pageSize()) {
                    List<List<TypedValue>> page = keys.subList(from, Math.min(keys.size(), from + plan.pageSize()));
                    count += change(List.of(page));
                    readBackAndLog(plan.targets().get(0), locked.get(0), page);
                }
            } else {
                List<List<List<TypedValue>>> keys = new ArrayList<>();
                for (Map<List<TypedValue>, RowImage> rows : locked) keys.add(new ArrayList<>(rows.keySet()));
                count = change(keys);
                for (int i = 0; i < keys.size(); i++) {
                    List<List<TypedValue>> all = keys.get(i);
                    for (int from = 0; from < all.size(); from += plan.pageSize()) {
                        readBackAndLog(plan.targets().get(i), locked.get(i),
                                all.subList(from, Math.min(all.size(), from + plan.pageSize())));
                    }
                }
            }
            run.endStatement();
            return count;
        } catch (SQLException | RuntimeException e) {
            run.undo().failed(e);
            throw e;
        }
    }

    /** Per target, its locked rows by key (old images), in the order the join first met them. */
    private List<Map<List<TypedValue>, RowImage>> lockingRead() throws SQLException {
        List<MultiTablePlan.Target> targets = plan.targets();
        List<Map<List<TypedValue>, RowImage>> locked = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) locked.add(new LinkedHashMap<>());
        try (PreparedStatement ps = run.prepare(plan.lockingRead(), List.of())) {
            // the join may carry a row many times: read as the server sends it, each row kept once
            if (run.capabilities().streamsResults()) ps.setFetchSize(ChangeLogWriter.ROWS_PER_INSERT);
            try (ResultSet rs = ps.executeQuery()) {
                readLocked(rs, locked);
            }
        }
        for (int i = 0; i < targets.size(); i++) {
            if (locked.get(i).isEmpty() && locked.stream().anyMatch(rows -> !rows.isEmpty())) {
                throw SqlState.INTERNAL_ERROR.exception("The join of a multi-table " + plan.command() + " matched rows"
                        + " but none of " + targets.get(i).table().qualifiedName() + ": the statement is not run");
            }
        }
        return locked;
    }

    /** Each target's rows of the join, each once by key. */
    private void readLocked(ResultSet rs, List<Map<List<TypedValue>, RowImage>> locked) throws SQLException {
        List<MultiTablePlan.Target> targets = plan.targets();
        while (rs.next()) {
            for (int i = 0; i < targets.size(); i++) {
                MultiTablePlan.Target t = targets.get(i);
                RowImage old = run.read(rs, t.firstColumn(), t.readColumns(), t.table());
                List<TypedValue> key = key(old, t);
                if (key.stream().allMatch(v -> v.value() == null)) continue; // no row of it in this row of the join
                locked.get(i).putIfAbsent(key, image(old, t.logged().oldColumns()));
            }
        }
    }

    /** The application's statement restricted to the locked keys; its count. */
    private long change(List<List<List<TypedValue>>> keysPerTarget) throws SQLException {
        List<Integer> sizes = new ArrayList<>();
        List<TypedValue> values = new ArrayList<>();
        for (List<List<TypedValue>> keys : keysPerTarget) {
            sizes.add(keys.size());
            keys.forEach(values::addAll);
        }
        try (PreparedStatement ps = run.prepare(plan.change(sizes), values)) {
            run.undo().changed();
            return ps.executeLargeUpdate();
        }
    }

    /**
     * The LCRs of a page of a target's locked rows: UPDATE with their new values read by key (none
     * for a row UPDATE IGNORE skipped); DELETE for each that is gone (a row IGNORE kept, or whose
     * join no longer matched, is still there).
     */
    private void readBackAndLog(MultiTablePlan.Target t, Map<List<TypedValue>, RowImage> locked,
            List<List<TypedValue>> page) throws SQLException {
        List<TypedValue> values = new ArrayList<>();
        page.forEach(values::addAll);
        Map<List<TypedValue>, RowImage> after = new HashMap<>();
        try (PreparedStatement ps = run.prepare(plan.readBack(t, page.size()), values); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                List<TypedValue> key = key(run.read(rs, 1, t.table().key(), t.table()), t);
                after.put(key, run.read(rs, 1 + t.table().key().size(), t.logged().newColumns(), t.table()));
            }
        }
        boolean delete = plan.command() == CommandType.DELETE;
        Set<List<TypedValue>> seen = new HashSet<>(after.keySet());
        for (List<TypedValue> key : page) {
            RowImage old = locked.get(key);
            if (delete) {
                if (!seen.contains(key)) run.logChange(t.shape(), t.table(), old, null);
                continue;
            }
            RowImage now = after.get(key);
            if (now == null) {
                throw SqlState.INTERNAL_ERROR.exception("Capture could not read back the row of "
                        + t.table().qualifiedName() + " with key " + key + " after updating it: the statement is undone");
            }
            if (plan.ignore() && image(old, t.logged().newColumns()).equals(now)) continue;
            run.logChange(t.shape(), t.table(), old, now);
        }
    }

    private static List<TypedValue> key(RowImage row, MultiTablePlan.Target t) {
        List<TypedValue> key = new ArrayList<>();
        for (String k : t.table().key()) key.add(row.get(k));
        return key;
    }
}
