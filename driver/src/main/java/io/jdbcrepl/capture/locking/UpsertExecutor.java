package io.jdbcrepl.capture.locking;

import io.jdbcrepl.config.ReplConfig;
import io.jdbcrepl.intercept.GeneratedKeys;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.node.Node;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static io.jdbcrepl.capture.locking.LockingRun.image;

/**
 * MariaDB {@code INSERT … ON DUPLICATE KEY UPDATE} ({@link UpsertPlan}): an INSERT LCR per row
 * inserted, an UPDATE LCR per row updated that changed, none for one the update left as it was;
 * the count and the key as MariaDB reports them: 1 per row inserted, 2 per row changed, per row
 * left as it was 1 (found rows, the connectors' default) or 0 ({@code useAffectedRows=true}).
 */
final class UpsertExecutor {

    /** MariaDB: "Column … is ambiguous". */
    private static final int ER_NON_UNIQ_ERROR = 1052;

    private final LockingRun run;
    private final UpsertPlan upsert;
    private final Node node;

    UpsertExecutor(LockingRun run, UpsertPlan upsert, Node node) {
        this.run = run;
        this.upsert = upsert;
        this.node = node;
    }

    long run(GeneratedKeys keys, GeneratedKeyRows keyRows) throws SQLException {
        List<String> columns = upsert.columns();
        List<String> assigned = upsert.updateLogged().changeVector();
        List<List<TypedValue>> inserted = new ArrayList<>();
        List<TypedValue> last = null;
        boolean anyChanged = false;
        int autoIncrementColumn = -1;
        long count = 0;
        PlannedSql sql = run.ownTransaction() ? upsert.beginning() : upsert.inTransaction();
        boolean streamed = run.capabilities().streamsResults();
        try (PreparedStatement ps = run.prepare(sql, List.of()); ChangeLogWriter log = run.log()) {
            if (streamed) run.stream(ps);
            try (ResultSet rs = LockingRun.resultOf(ps)) {
                if (!streamed) run.undo().changed(); // as in ReturningExecutor
                for (int i = 1; i <= columns.size(); i++) {
                    if (autoIncrementColumn < 0 && rs.getMetaData().isAutoIncrement(i)) autoIncrementColumn = i;
                }
                long updates = 0;
                while (rs.next()) {
                    RowImage row = run.read(rs, 1, columns);
                    last = new ArrayList<>(row.asMap().values());
                    long n = rs.getLong(columns.size() + 1);
                    if (n == updates) {
                        count++;
                        run.logChange(upsert.shape(), null, image(row, upsert.logged().newColumns()));
                        if (keys.requested()) inserted.add(last);
                        continue;
                    }
                    updates = n;
                    RowImage old = withColumnScales(rs, columns, run.read(rs, columns.size() + 2, upsert.oldColumns()));
                    if (image(old, assigned).equals(image(row, assigned))) {
                        if (reportsFoundRows(node.config())) count++;
                        continue;
                    }
                    anyChanged = true;
                    count += 2;
                    run.logChange(upsert.updateShape(), old, image(row, upsert.updateLogged().newColumns()));
                }
            }
            while (ps.getMoreResults() || ps.getUpdateCount() != -1) { } // the compound statement's end
            run.undo().changed();
            log.endReading();
            run.endStatement();
        } catch (SQLException e) {
            run.undo().failed(e);
            if (!run.undo().hasChanged() && e.getErrorCode() == ER_NON_UNIQ_ERROR) {
                // The copy of the old values names the table's columns, as the SELECT's own table does
                throw SqlState.REFUSED.exception("INSERT … SELECT … ON DUPLICATE KEY UPDATE on " + upsert.table().qualifiedName()
                        + " cannot be captured when its SELECT reads the same table without an alias: give that"
                        + " table an alias, or set repl.unsupported=passthrough to run it uncaptured (" + e.getMessage()
                        + ")", e);
            }
            throw e;
        } catch (RuntimeException e) {
            run.undo().failed(e);
            throw e;
        }
        if (keys.requested()) {
            // MariaDB's insert id: the first row inserted, else the last row when one changed, else none
            keyRows.add(!inserted.isEmpty() ? inserted : anyChanged ? List.of(last) : List.of(), autoIncrementColumn);
        }
        return count;
    }

    /**
     * Decimals copied through a variable as text, given the scale of their column: MySQL Connector/J
     * reads "1.50" in a text column as 1.5.
     */
    private static RowImage withColumnScales(ResultSet rs, List<String> columns, RowImage image) throws SQLException {
        for (var e : image.asMap().entrySet()) {
            if (e.getValue().value() instanceof BigDecimal d) {
                int scale = rs.getMetaData().getScale(columns.indexOf(e.getKey()) + 1);
                image.put(e.getKey(), e.getValue().type(), d.setScale(scale, RoundingMode.UNNECESSARY));
            }
        }
        return image;
    }

    /**
     * MariaDB/MySQL: whether the connectors report found rows, not changed ones, as update counts
     * (their default; {@code useAffectedRows=true} in the URL or the connect properties turns it off).
     */
    private static boolean reportsFoundRows(ReplConfig config) {
        String value = config.delegateProperties().getProperty("useAffectedRows");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("[?&]useAffectedRows=([^&]*)")
                .matcher(config.delegateUrl());
        if (value == null && m.find()) value = m.group(1);
        return value == null || !value.trim().equalsIgnoreCase("true");
    }
}
