package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.CaptureException;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.TypedValue;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.jdbcrepl.capture.locking.LockingRun.image;

/**
 * The rows an UPDATE's locking read locked ({@link UpdatePlan}): read, changed by their keys a page
 * at a time, read back by their new keys and logged.
 */
final class LockedRows {

    /** A locked row: its key, its key after the update, and its old image. */
    record Locked(List<TypedValue> key, List<TypedValue> newKey, RowImage old) {
    }

    private final LockingRun run;
    private final UpdatePlan update;
    private final TableInfo table;

    LockedRows(LockingRun run, UpdatePlan update) {
        this.run = run;
        this.update = update;
        this.table = update.table();
    }

    /** A row of the locking read (or of a spill table's page): key, other old columns, new key. */
    Locked locked(ResultSet rs) throws SQLException {
        List<String> key = table.key();
        RowImage keyImage = run.read(rs, 1, key);
        RowImage old = run.read(rs, 1 + key.size(), update.otherOldColumns());
        keyImage.asMap().forEach(old::put);
        List<TypedValue> oldKey = new ArrayList<>(keyImage.asMap().values());
        List<TypedValue> newKey = oldKey;
        if (update.keyAssigned()) {
            newKey = new ArrayList<>(run.read(rs, 1 + key.size() + update.otherOldColumns().size(), key).asMap().values());
        }
        return new Locked(oldKey, newKey, image(old, update.logged().oldColumns()));
    }

    /** The restricted UPDATE and the LCRs of some locked rows, a page at a time. */
    long changeAndLog(List<Locked> rows) throws SQLException {
        if (table.keyless()) return changeAndLogByKey(rows);
        long count = 0;
        for (int from = 0; from < rows.size(); from += update.pageSize()) {
            List<Locked> chunk = rows.subList(from, Math.min(rows.size(), from + update.pageSize()));
            List<TypedValue> oldKeys = new ArrayList<>();
            for (Locked row : chunk) oldKeys.addAll(row.key());
            try (PreparedStatement ps = run.prepare(update.update(chunk.size()), oldKeys)) {
                count += ps.executeLargeUpdate();
            }
            run.undo().changed();
            readBackAndLog(chunk);
        }
        return count;
    }

    /**
     * A table without key: the locked rows a key at a time (identical rows share one), each key's
     * UPDATE limited to as many rows as were locked with it, then read back and logged.
     */
    private long changeAndLogByKey(List<Locked> rows) throws SQLException {
        Map<List<TypedValue>, List<Locked>> byKey = new LinkedHashMap<>();
        for (Locked row : rows) byKey.computeIfAbsent(row.key(), k -> new ArrayList<>()).add(row);
        long count = 0;
        for (List<Locked> same : byKey.values()) {
            try (PreparedStatement ps = run.prepare(update.updateSome(same.size()), same.get(0).key())) {
                count += ps.executeLargeUpdate();
            }
            run.undo().changed();
            for (int from = 0; from < same.size(); from += update.pageSize()) {
                readBackAndLog(same.subList(from, Math.min(same.size(), from + update.pageSize())));
            }
        }
        return count;
    }

    /** The new values of some changed rows (at most a page), read by their new keys, and their LCRs. */
    void readBackAndLog(List<Locked> chunk) throws SQLException {
        List<TypedValue> newKeys = new ArrayList<>();
        for (Locked row : chunk) newKeys.addAll(row.newKey());
        Map<List<TypedValue>, RowImage> after = readNew(chunk.size(), newKeys);
        // Rows of a table without key may be identical: one image for all of them (readNew checks they agree)
        long distinct = !table.keyless() ? chunk.size()
                : chunk.stream().map(row -> matchable(row.newKey())).distinct().count();
        for (Locked row : chunk) {
            RowImage newImage = after.get(matchable(row.newKey()));
            if (newImage == null || after.size() != distinct) {
                throw SqlState.REFUSED.exception("Capture could not read back the row of " + table.qualifiedName()
                        + " with key " + row.newKey() + " after updating it: the new key of a key update must"
                        + " be computable before the update (no RAND(), UUID() or subqueries on the same table)");
            }
            if (!unchangedByIgnore(update, row.old(), newImage)) run.logChange(row.old(), newImage);
        }
    }

    private Map<List<TypedValue>, RowImage> readNew(int rows, List<TypedValue> newKeys) throws SQLException {
        Map<List<TypedValue>, RowImage> out = new HashMap<>();
        try (PreparedStatement ps = run.prepare(update.readNew(rows), newKeys); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                List<TypedValue> key = new ArrayList<>(run.read(rs, 1, table.key()).asMap().values());
                RowImage image = run.read(rs, 1 + table.key().size(), update.logged().newColumns());
                RowImage other = out.put(matchable(key), image);
                if (other != null && table.keyless() && !other.equals(image)) {
                    // Rows equal in every compared column got different new values (SET doc = doc || 'x'):
                    // which LCR gets which cannot be told, so the statement is refused (and undone)
                    throw new CaptureException("UPDATE of " + table.qualifiedName()
                            + ", a table without key, gave rows that are equal in every comparable column "
                            + table.key() + " different new values of " + update.logged().newColumns()
                            + ": the rows cannot be told apart; give the table a key or name one with repl.key."
                            + table.name());
                }
            }
        }
        return out;
    }

    /**
     * A key as the read back matches it: of a table without key, whose every assignment is a key
     * update, decimals without their scale (SET amount = 11 reads back as 11.00).
     */
    private List<TypedValue> matchable(List<TypedValue> key) {
        if (!table.keyless()) return key;
        List<TypedValue> out = new ArrayList<>(key.size());
        for (TypedValue v : key) {
            out.add(v.value() instanceof BigDecimal d ? new TypedValue(v.type(), d.stripTrailingZeros()) : v);
        }
        return out;
    }

    /** UPDATE IGNORE: the row was skipped (or set to the values it had); either way nothing changed. */
    static boolean unchangedByIgnore(UpdatePlan update, RowImage old, RowImage after) {
        return update.ignore() && image(old, update.logged().newColumns()).equals(after);
    }
}
