package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.LoggedColumns;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.CommandType;

import java.util.List;

/**
 * A MySQL/MariaDB multi-table UPDATE or DELETE, never by predicate twice (ENGINEERING, known traps):
 * <ol>
 * <li>a locking read of the statement's join with its WHERE ({@link #lockingRead}): the rows of
 *     every replicated table it changes, key and old values ({@link Target#readColumns}), each row
 *     once however many rows of the join carry it;</li>
 * <li>the application's statement with its WHERE and, ANDed to it, the keys that were locked of
 *     each replicated table it changes ({@link #change}): a row inserted meanwhile that would
 *     match is left alone, rows of the other tables it changes (not replicated) and of the tables
 *     it only reads are joined as the statement joins them;</li>
 * <li>the new values (UPDATE), or which locked rows are still there (DELETE: a row whose join no
 *     longer matches, or that IGNORE skipped), read by key ({@link #readBack}); then the LCRs.</li>
 * </ol>
 * When the statement changes one table only, step 2 runs a page of keys at a time
 * ({@link #pagedChange}); when it changes several, once with all of them: a row of one table may
 * join rows of another in several pages and must change once.
 */
public final class MultiTablePlan implements LockingPlan {

    /**
     * A replicated table the statement changes.
     *
     * @param reference   what the statement's SQL calls it ({@code `x`} for an alias, else its name as written)
     * @param readColumns its columns in the locking read: the key, then the other old columns
     * @param firstColumn where they start in the locking read (1-based)
     * @param readBack    the read by key, up to its WHERE: UPDATE the key and the new columns, DELETE the key
     */
    public record Target(TableInfo table, String reference, LoggedColumns logged, LogRowShape shape,
            List<String> readColumns, int firstColumn, PlannedSql readBack) {
        public Target {
            readColumns = List.copyOf(readColumns);
        }
    }

    private final CommandType command;
    private final boolean ignore;
    private final List<Target> targets;
    private final PlannedSql lockingRead;
    private final PlannedSql changePrefix;
    private final boolean pagedChange;
    private final int pageSize;
    private final Dialect dialect;

    MultiTablePlan(CommandType command, boolean ignore, List<Target> targets, PlannedSql lockingRead,
            PlannedSql changePrefix, boolean pagedChange, int pageSize, Dialect dialect) {
        this.command = command;
        this.ignore = ignore;
        this.targets = List.copyOf(targets);
        this.lockingRead = lockingRead;
        this.changePrefix = changePrefix;
        this.pagedChange = pagedChange;
        this.pageSize = pageSize;
        this.dialect = dialect;
    }

    /** The replicated tables it changes, in the order the statement names them. */
    public List<Target> targets() {
        return targets;
    }

    /** The first of {@link #targets}. */
    @Override
    public TableInfo table() {
        return targets.get(0).table();
    }

    @Override
    public List<TableInfo> tables() {
        return targets.stream().map(Target::table).toList();
    }

    @Override
    public CommandType command() {
        return command;
    }

    /** The first target's. */
    @Override
    public LoggedColumns logged() {
        return targets.get(0).logged();
    }

    /** The first target's; each target's LCRs carry its own ({@link Target#shape}). */
    @Override
    public LogRowShape shape() {
        return targets.get(0).shape();
    }

    /** UPDATE IGNORE: a row it skipped keeps its values and has no LCR. */
    public boolean ignore() {
        return ignore;
    }

    public PlannedSql lockingRead() {
        return lockingRead;
    }

    /** Whether step 2 may run a page of keys at a time: the statement changes one table only. */
    public boolean pagedChange() {
        return pagedChange;
    }

    public int pageSize() {
        return pageSize;
    }

    /** The statement restricted to {@code rows.get(i)} locked keys of target i; the driver binds them in that order. */
    public PlannedSql change(List<Integer> rows) {
        SqlBuilder sql = new SqlBuilder().append(changePrefix);
        for (int i = 0; i < targets.size(); i++) {
            Target t = targets.get(i);
            sql.sql(i > 0 ? " AND " : "").append(UpdatePlan.keyMatch(dialect, t.table(), t.reference(), rows.get(i)));
        }
        return sql.build();
    }

    /** Step 3 for {@code rows} keys of {@code target}. */
    public PlannedSql readBack(Target target, int rows) {
        return new SqlBuilder().append(target.readBack())
                .append(UpdatePlan.keyMatch(dialect, target.table(), target.reference(), rows)).build();
    }
}
