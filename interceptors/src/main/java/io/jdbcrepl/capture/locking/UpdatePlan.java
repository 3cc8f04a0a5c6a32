package io.jdbcrepl.capture.locking;

import io.jdbcrepl.capture.LoggedColumns;
import io.jdbcrepl.capture.TableInfo;
import io.jdbcrepl.dialect.Dialect;
import io.jdbcrepl.lcr.CommandType;

import java.util.ArrayList;
import java.util.List;

/**
 * An UPDATE in three steps, never by predicate twice (ENGINEERING, known traps):
 * <ol>
 * <li>a locking read of the rows the statement changes: key, old logged columns and, when the
 *     statement assigns key columns, their new values ({@link #lockingRead});</li>
 * <li>the application's SET restricted to the locked keys ({@link #update});</li>
 * <li>a read of the new values by (new) key ({@link #readNew}).</li>
 * </ol>
 * Without ORDER BY/LIMIT, subqueries or key assignments, the locking read is paged by key
 * ({@link #paged}); with them, and more rows than a page, its rows are held on the server and read
 * back a page at a time ({@link #spill}). Paged by key, each page is changed and logged before the
 * next is read, so memory stays bounded. Pages go in key order, as one locking scan does, and up to the last row of the range,
 * locked when the first page was full ({@link #lastRowRead}): rows inserted beyond it meanwhile are
 * not chased, so the statement ends while others keep inserting.
 *
 * <p>Columns of the locking read: the key columns (key order), then the other old columns
 * ({@link #otherOldColumns}), then, when {@link #keyAssigned}, the new key (key order). Columns of
 * {@link #readNew}: the key, then {@link LoggedColumns#newColumns()}.
 */
public final class UpdatePlan implements LockingPlan {

    private final TableInfo table;
    private final LoggedColumns logged;
    private final LogRowShape shape;
    private final List<String> otherOldColumns;
    private final boolean keyAssigned;
    private final boolean ignore;
    private final int pageSize;
    private final PlannedSql firstRead;
    private final PlannedSql nextRead;
    private final PlannedSql lastRowRead;
    private final PlannedSql updatePrefix;
    private final PlannedSql updateSuffix;
    private final String readNewPrefix;
    private final String keyReference;
    private final Dialect dialect;
    private final OneRow oneRow;
    private final Spill spill;
    /** A table without key: the application's WHERE ({@code (…) AND }) the restricted UPDATE repeats, or empty. */
    private final PlannedSql keylessFilter;

    /**
     * A statement whose locking read is not paged by key (key updates, a subquery in WHERE, ORDER
     * BY/LIMIT) and may lock more than a page: when the read finds more, the same locking read fills
     * a session temporary table on the server ({@link #fill}, in order), whose rows are then read a
     * page at a time by position ({@link #page}, driver value: the last position read, 0 first),
     * so memory does not grow with the rows. All rows are locked and chosen before any changes,
     * as the statement does (its subquery and its LIMIT see the rows as they were). On MariaDB
     * each page is then updated by key in the statement's order (it checks unique keys row by
     * row); on H2, which checks them once at the end of the statement, one UPDATE by the table's
     * keys changes every row ({@link #wholeUpdate}, null on MariaDB) before the pages are read
     * back. {@link #clear} ends the table's use (also after a failure). Page columns: those of
     * the locking read, then the position.
     */
    public record Spill(List<PlannedSql> fill, PlannedSql page, PlannedSql wholeUpdate, String clear) {
        public Spill {
            fill = List.copyOf(fill);
        }
    }

    /**
     * MariaDB, an UPDATE of at most one row by primary key: the three steps as one compound
     * statement, within the open transaction or ({@code beginning}) starting one.
     */
    public record OneRow(PlannedSql inTransaction, PlannedSql beginning) {
    }

    UpdatePlan(TableInfo table, LoggedColumns logged, List<String> otherOldColumns, boolean keyAssigned, boolean ignore,
            int pageSize,
            PlannedSql firstRead, PlannedSql nextRead, PlannedSql lastRowRead, PlannedSql updatePrefix,
            PlannedSql updateSuffix,
            String readNewPrefix,
            String keyReference, Dialect dialect, OneRow oneRow, Spill spill, PlannedSql keylessFilter) {
        this.table = table;
        this.logged = logged;
        this.shape = LogRowShape.of(CommandType.UPDATE, table, logged, dialect);
        this.otherOldColumns = List.copyOf(otherOldColumns);
        this.keyAssigned = keyAssigned;
        this.ignore = ignore;
        this.pageSize = pageSize;
        this.firstRead = firstRead;
        this.nextRead = nextRead;
        this.lastRowRead = lastRowRead;
        this.updatePrefix = updatePrefix;
        this.updateSuffix = updateSuffix;
        this.readNewPrefix = readNewPrefix;
        this.keyReference = keyReference;
        this.dialect = dialect;
        this.oneRow = oneRow;
        this.spill = spill;
        this.keylessFilter = keylessFilter;
    }

    /** How the rows are held on the server when the locking read finds more than a page, or null (see {@link Spill}). */
    public Spill spill() {
        return spill;
    }

    /** The one-round-trip form, or null when the statement may change several rows (or on H2). */
    public OneRow oneRow() {
        return oneRow;
    }

    @Override
    public TableInfo table() {
        return table;
    }

    @Override
    public CommandType command() {
        return CommandType.UPDATE;
    }

    @Override
    public LoggedColumns logged() {
        return logged;
    }

    @Override
    public LogRowShape shape() {
        return shape;
    }

    /** Old columns that are not key columns, in table order, after the key in the locking read. */
    public List<String> otherOldColumns() {
        return otherOldColumns;
    }

    /**
     * MariaDB {@code UPDATE IGNORE}: a row it skips (its change would break a unique key) keeps its
     * values; a row whose assigned columns kept their values has no LCR.
     */
    public boolean ignore() {
        return ignore;
    }

    /** Whether the statement assigns a key column: the locking read then also returns the new key. */
    public boolean keyAssigned() {
        return keyAssigned;
    }

    /** Whether the locking read is paged by key. */
    public boolean paged() {
        return nextRead != null;
    }

    /** Rows per page of a paged locking read. */
    public int pageSize() {
        return pageSize;
    }

    /**
     * The locking read: the first page (or the whole read, when not paged) for {@code first}; else the
     * page after a key, whose driver values are {@link #pageValues}.
     */
    public PlannedSql lockingRead(boolean first) {
        if (!first && nextRead == null) throw new IllegalStateException("the locking read is not paged");
        return first ? firstRead : nextRead;
    }

    /** A paged read's last row in key order (its key), locked: where the pages end. */
    public PlannedSql lastRowRead() {
        if (lastRowRead == null) throw new IllegalStateException("the locking read is not paged");
        return lastRowRead;
    }

    /** The driver values of the next page's {@code key > last AND key <= end} conditions, in order. */
    public static <V> List<V> pageValues(List<V> lastKey, List<V> end) {
        // (k1 > ?) OR (k1 = ? AND k2 > ?) OR (k1 = ? AND k2 = ? AND k3 > ?) …, then the same with < and <=
        List<V> out = new ArrayList<>();
        for (List<V> key : List.of(lastKey, end)) {
            for (int i = 0; i < key.size(); i++) {
                for (int j = 0; j <= i; j++) out.add(key.get(j));
            }
        }
        return out;
    }

    /**
     * The restricted UPDATE of {@code rows} keys; the driver binds the keys, row after row. On MariaDB
     * it keeps the application's ORDER BY: the order rows are changed in decides whether a key update
     * meets a duplicate on the way.
     */
    public PlannedSql update(int rows) {
        return new SqlBuilder().append(updatePrefix).append(keyMatch(keyReference, rows)).append(updateSuffix).build();
    }

    /**
     * A table without key ({@link TableInfo#keyless}): the UPDATE of {@code rows} of the locked rows
     * that share one key (the rows are identical in every compared column), its WHERE the
     * application's and the key matched NULL-safely, and {@code LIMIT rows}: of several identical
     * rows it changes as many as the statement locked, not every one.
     */
    public PlannedSql updateSome(int rows) {
        return new SqlBuilder().append(updatePrefix).append(keylessFilter).append(keyMatch(keyReference, 1))
                .append(updateSuffix).sql(" LIMIT " + rows).build();
    }

    /** The read of the new values of {@code rows} rows by key. */
    public PlannedSql readNew(int rows) {
        return new SqlBuilder().sql(readNewPrefix).append(keyMatch(keyReference, rows)).build();
    }

    PlannedSql keyMatch(String reference, int rows) {
        return keyMatch(dialect, table, reference, rows);
    }

    /**
     * {@code k IN (?, ?)} for one key column; {@code (a = ? AND b = ?) OR …} for several (index-friendly);
     * a table without key matches NULL as NULL ({@code <=>}, {@code IS NOT DISTINCT FROM}).
     */
    static PlannedSql keyMatch(Dialect dialect, TableInfo table, String reference, int rows) {
        List<String> key = table.key();
        boolean keyless = table.keyless();
        String equals = !keyless ? " = " : dialect.part(LockingSql.class).nullSafeEquals();
        SqlBuilder sql = new SqlBuilder();
        if (key.size() == 1 && !keyless) {
            sql.sql(reference + "." + dialect.quote(key.get(0)) + " IN (");
            for (int r = 0; r < rows; r++) {
                if (r > 0) sql.sql(", ");
                sql.driverValue();
            }
            return sql.sql(")").build();
        }
        sql.sql("(");
        for (int r = 0; r < rows; r++) {
            sql.sql(r > 0 ? " OR (" : "(");
            for (int i = 0; i < key.size(); i++) {
                if (i > 0) sql.sql(" AND ");
                sql.sql(reference + "." + dialect.quote(key.get(i)) + equals).driverValue();
            }
            sql.sql(")");
        }
        return sql.sql(")").build();
    }
}
